"""Writes through postgres_fdw that cannot commit atomically are refused
on a global connection (issue 16, point 2): a write the driver does not
see as one (a function that writes, a data-modifying WITH under a SELECT)
runs on one member and reaches other groups through postgres_fdw, outside
the two phases of the commit. The row trigger gcctl (and the driver's DDL)
puts on every foreign table of a group's server refuses it on a global
connection's session: in a transaction always (the driver marks each
BEGIN it sends with SET LOCAL gcodbc.global_transaction), in autocommit
always for a statement that is not one plain write of one table (the
statement mark; xact_remote_autocommit.py), else when it reaches a second
group.
The application gets 0A000 / 90123 saying how to make the write atomic;
nothing changes on any group (docs/global-connection.md, "Writes through
postgres_fdw").

usage: xact_remote_write.py DSN HELPER FAILOVER_MD   (run by fault_clients.sh)

The driver's connections put statements without a key on G3
(LocalityGroupPath=G3,G1,G2). Accounts A of G1, Z of G2, W of G3.

(a) Every foreign table of a group's server on every primary has the
    trigger, the foreign twins of a solo table made by the driver's DDL
    (CREATE TABLE notes) included; after a DROP TRIGGER on a foreign
    partition and on a twin, gcctl apply gives both back.
(b) Autocommit, SQLExecDirect `INSERT INTO accounts VALUES (<key of G1>,
    100)` (no parameters, DirectExecuteRouting=No): it runs on G3's
    primary, which writes the row on G1 through postgres_fdw; it succeeds,
    the row is on G1's own partition once, and G1's primary received it
    from postgres_fdw (pg_stat_statements). One remote group, nothing
    local: atomic, allowed.
(c) Autocommit: `SELECT bump(A, Z)` (a function updating A, then Z) on G3:
    no plain write (the statement mark): 0A000 / 90123, saying how to
    write atomically; nothing changed. `SELECT bump(W, Z)`: a write on G3
    first, then Z through postgres_fdw: refused too.
(d) In a transaction (autocommit off) begun by a keyed write of W: `SELECT
    bump1(Z)`, a function writing one account of another group: refused,
    after ROLLBACK nothing changed. The same after a BEGIN sent in SQL
    (autocommit on, the BEGIN held back; its text ends with a comment). A function inserting into the
    solo table through its foreign twin, in a transaction on G1: refused.
(e) A keyed UPDATE of A, which joins G1's primary to a transaction begun
    on G3, whose SET expression calls bump1(Z): refused on the joined
    member (its BEGIN carries the mark too).
(f) A data-modifying WITH under a SELECT, writing an account of every
    group, in a transaction: refused, nothing changed.
(g) Not the driver's, or not a global connection: psql as the application
    role runs `BEGIN; SELECT bump(A, Z); COMMIT` on G3's primary, and a
    general connection (GlobalConnection=No) `SELECT bump(A, Z)`: both
    write through postgres_fdw as before.
(h) Writes by key still span groups: a transfer A -> Z commits on both."""
import pyodbc

from xact_lib import (GROUPS, DSN, HOW, ON_G3, REFUSED, REFUSED_NATIVE as NATIVE,
                      accounts_with_bump, balance, calls, connect, expect_error, fail, helper,
                      log, nothing_left, owners, primary, reset_statements, su)

APP = "xremote"
P = {g: primary(g) for g in GROUPS}
TRIGGER = "gcluster_refuse_remote_write"

accounts_with_bump()
for g in GROUPS:
    su(P[g], "CREATE FUNCTION public.bump1(a bigint) RETURNS bigint LANGUAGE plpgsql AS "
             "$f$ BEGIN UPDATE accounts SET balance = balance + 1 WHERE id = a; RETURN 0; END $f$")
BY_GROUP = owners()
A, Z, W = BY_GROUP["G1"][0], BY_GROUP["G2"][0], BY_GROUP["G3"][0]
NEW_OF_G1 = BY_GROUP["G1"][1]     # deleted, then inserted again in (b)


def balances():
    return {account: balance(group, account) for group, account in (("G1", A), ("G2", Z),
                                                                     ("G3", W))}


def unchanged(what, want):
    got = balances()
    if got != want:
        fail(f"{what}: balances {got}, expected {want}")


def refused(what, fn):
    e = expect_error(what, fn, "0A000", native=NATIVE, says=REFUSED)
    if HOW not in str(e):
        fail(f"{what}: the refusal should say how to write atomically: {e}")


def unguarded(member):
    """The foreign tables of a group's server on member that lack the
    trigger, and how many foreign tables of a group's server it has."""
    of_groups = ("FROM pg_foreign_table f JOIN pg_foreign_server s ON s.oid = f.ftserver "
                 "WHERE s.srvname IN (SELECT fdw_server FROM gcluster.groups)")
    lacking = su(member, f"SELECT coalesce(string_agg(f.ftrelid::regclass::text, ','), '') "
                         f"{of_groups} AND NOT EXISTS (SELECT 1 FROM pg_trigger t "
                         f"WHERE t.tgrelid = f.ftrelid AND t.tgname = '{TRIGGER}')")
    return lacking, int(su(member, f"SELECT count(*) {of_groups}"))


def every_foreign_table_guarded(what):
    for g in GROUPS:
        lacking, foreign = unguarded(P[g])
        if lacking or foreign == 0:
            fail(f"{what} {P[g]}: of its {foreign} foreign tables, {lacking!r} lack the trigger")


# (a) the trigger on foreign partitions and on a solo table's twins
auto = connect(APP, extra=ON_G3, autocommit=True)
auto.cursor().execute("CREATE TABLE notes (id bigint PRIMARY KEY, body text)")
if su(P["G3"], "SELECT relkind FROM pg_class WHERE relname = 'notes'") != "r":
    fail("(a) the solo table notes should be made on G3 (the policy's group)")
for g in ("G1", "G2"):
    if su(P[g], f"SELECT count(*) FROM pg_trigger WHERE tgrelid = 'notes'::regclass "
                f"AND tgname = '{TRIGGER}'") != "1":
        fail(f"(a) the foreign twin of notes on {P[g]} lacks the trigger after the DDL")
every_foreign_table_guarded("(a)")
partition = su(P["G2"], "SELECT relname FROM pg_class WHERE relkind = 'f' AND relispartition "
                        "LIMIT 1")
su(P["G2"], f"DROP TRIGGER {TRIGGER} ON {partition}")
su(P["G1"], f"DROP TRIGGER {TRIGGER} ON notes")
if unguarded(P["G1"])[0] != "notes":
    fail(f"(a) the witness should see notes unguarded on {P['G1']}: {unguarded(P['G1'])}")
helper("gcctl", "apply", timeout=60)
every_foreign_table_guarded("(a) after apply")
log(f"(a) every foreign table has the trigger (notes' twins from the DDL too); apply gave it "
    f"back to {partition} on {P['G2']} and to notes on {P['G1']}")

# (b) an autocommit INSERT reaching one other group through postgres_fdw
su(P["G1"], f"DELETE FROM accounts WHERE id = {NEW_OF_G1}")
reset_statements()
auto.cursor().execute(f"INSERT INTO accounts VALUES ({NEW_OF_G1}, 100)")
if calls(P["G3"], "INSERT INTO accounts VALUES%") != 1:
    fail(f"(b) the INSERT should have run on {P['G3']} (the policy's member)")
if calls(P["G1"], "INSERT INTO public.accounts%") != 1:
    fail(f"(b) {P['G1']} should have received the row from postgres_fdw once")
if balance("G1", NEW_OF_G1) != 100 or \
        su(P["G1"], f"SELECT count(*) FROM accounts WHERE id = {NEW_OF_G1}") != "1":
    fail(f"(b) account {NEW_OF_G1} should be on G1's own partition once")
log(f"(b) autocommit INSERT of {NEW_OF_G1} (of G1) on {P['G3']} through postgres_fdw: "
    "applied once on G1")

# (c) autocommit statements that would span groups
before = balances()
refused("(c) a function writing two other groups, autocommit",
        lambda: auto.cursor().execute("SELECT bump(?, ?)", A, Z))
unchanged("(c)", before)
refused("(c) a function writing its own group, then another, autocommit",
        lambda: auto.cursor().execute("SELECT bump(?, ?)", W, Z))
unchanged("(c) local first", before)
log("(c) autocommit: two groups through postgres_fdw, or own group then another: refused, "
    "nothing changed")

# (d) in a transaction, a write through postgres_fdw to any other group
conn = connect(APP, extra=ON_G3)
cur = conn.cursor()
cur.execute("UPDATE accounts SET balance = balance - 10 WHERE id = ?", W)
refused("(d) a function writing another group, in a transaction",
        lambda: cur.execute("SELECT bump1(?)", Z))
conn.rollback()
unchanged("(d)", before)
nothing_left("(d)")
sql_begin = auto.cursor()
sql_begin.execute("BEGIN -- held back, sent with the mark after it")
refused("(d) the same after a BEGIN sent in SQL", lambda: sql_begin.execute("SELECT bump1(?)", Z))
sql_begin.execute("ROLLBACK")
unchanged("(d) SQL BEGIN", before)
for g in GROUPS:
    su(P[g], "CREATE FUNCTION public.note(i bigint) RETURNS void LANGUAGE sql AS "
             "$f$ INSERT INTO notes VALUES (i, 'x') $f$")
cur.execute("UPDATE accounts SET balance = balance - 10 WHERE id = ?", A)
refused("(d) a function writing the solo table through its twin on G1, in a transaction",
        lambda: cur.execute("SELECT note(?)", 1))
conn.rollback()
if su(P["G3"], "SELECT count(*) FROM notes") != "0":
    fail("(d) the refused insert into notes should have left no row on G3")
unchanged("(d) solo", before)
nothing_left("(d) solo")
log("(d) in a transaction (autocommit off, or BEGIN in SQL): a function writing another "
    "group, or a solo table through its twin, refused; nothing changed")

# (e) the joined member's transaction is marked too
cur.execute("UPDATE accounts SET balance = balance - 10 WHERE id = ?", W)
refused("(e) a keyed write on a joined member calling a function that writes another group",
        lambda: cur.execute("UPDATE accounts SET balance = balance + bump1(?) WHERE id = ?",
                            Z, A))
conn.rollback()
unchanged("(e)", before)
nothing_left("(e)")
log("(e) refused on a member the transaction joined; nothing changed")

# (f) a data-modifying WITH under a SELECT, in a transaction
cur.execute("SELECT 1")
cur.fetchall()
refused("(f) a data-modifying WITH under a SELECT",
        lambda: cur.execute("WITH u AS (UPDATE accounts SET balance = balance + 1 "
                            "WHERE id IN (?, ?, ?) RETURNING id) SELECT count(*) FROM u",
                            A, Z, W))
conn.rollback()
unchanged("(f)", before)
nothing_left("(f)")
log("(f) a data-modifying WITH refused, nothing changed")

# (g) psql, and a general connection, are not the driver's global sessions
helper("app", P["G3"], f"BEGIN; SELECT bump({A}, {Z}); COMMIT")
general = pyodbc.connect(f"DSN={DSN};GlobalConnection=No;Servers=127.0.0.1:"
                         f"{helper('port', P['G3'])};Locator=;ApplicationName={APP}",
                         autocommit=True)
general.cursor().execute("SELECT bump(?, ?)", A, Z)
general.close()
unchanged("(g)", {**before, A: before[A] + 2, Z: before[Z] + 2})
log("(g) psql and a general connection write through postgres_fdw as before")

# (h) writes by key still span groups
cur.execute("UPDATE accounts SET balance = balance - ? WHERE id = ?", 10, A)
cur.execute("UPDATE accounts SET balance = balance + ? WHERE id = ?", 10, Z)
conn.commit()
unchanged("(h)", {**before, A: before[A] - 8, Z: before[Z] + 12})
nothing_left("(h)")
log("(h) writes by key still commit on both groups")
auto.close()
conn.close()
print("ok: writes through postgres_fdw refused where they cannot commit atomically, on a "
      "global connection only; an autocommit write reaching one group allowed", flush=True)
