"""Autocommit statements of a global connection through postgres_fdw
(issue 16, point 2, docs/global-connection.md "Writes through
postgres_fdw"): a statement the driver cannot prove to be one plain write
of one table carries the statement mark (gcodbc.global_transaction =
statement, in its own implicit transaction, before it), so the trigger on
foreign tables refuses every write it makes through postgres_fdw, even one
that comes before its write on its own group; a plain write of one table
whose rows are in one group carries nothing, and the trigger no longer
looks at the local transaction id, which nextval gives it every 32 values.

usage: xact_remote_autocommit.py DSN HELPER FAILOVER_MD   (run by fault_clients.sh)

The driver's connections put statements without a key on G3
(LocalityGroupPath=G3,G1,G2). Accounts Z of G2, W of G3.

(a) Autocommit, on G3: `SELECT bump(Z, W)`, a function writing Z of G2
    through postgres_fdw first, then W on G3: 0A000 / 90123, saying how to
    write atomically; both balances unchanged on their owners. The same
    sent with its values in the text (no parameters).
(b) Autocommit, on G3: a SELECT whose data-modifying WITH updates Z through
    postgres_fdw first and W on G3 after (the second one reads the first):
    refused, nothing applied.
(c) Autocommit, on G3: a text of two statements, an UPDATE of Z, then one
    of W, by their literal keys: not sent whole, run statement by statement
    (each on its own group, the text one transaction across them); both
    balances rise by one on their owners.
(c2) A SELECT whose data-modifying WITH query updates Z by a parameter
    key, in autocommit, then in a transaction begun on G3 (with W), and
    one updating W there: each runs on its row's owner (pg_stat_statements:
    twice on G2, once on G3, never on G1) and returns the row; the
    balances move as written. Before, it went where its main SELECT went
    (G3) and its write of Z through postgres_fdw was refused (90123).
(c') A marked statement's own error comes back as the server gave it
    (42601 for a text of two statements, the second misspelt; 42883 for a
    function that does not exist), nothing applied; then a function
    writing only G3's own account runs.
(c'') A marked statement whose implicit commit fails (a deferred
    constraint trigger on W's partition raises 23514 at commit, after the
    statement answered): with parameters, SQLExecute returns 23514, not a
    success; in a text of two statements, SQLExecDirect returns it too
    (the text is read whole); nothing applied.
(d) The mark costs only where it is sent: G3's pg_stat_statements counts
    the set_config of the mark once for each statement of (a) and (b)
    and none for a read-only SELECT or a plain write by key, nor for
    REINDEX TABLE accounts, ANALYZE and VACUUM (REINDEX of a partitioned
    table runs: PostgreSQL refuses it in the mark's pipeline, 25001).
(e) A column of accounts gets a default drawn from a sequence of G3's own
    (nextval WAL-logs every 32 values: the local transaction then has an
    id). 100 autocommit INSERTs with keys of G1, SQLExecDirect without
    parameters, run on G3 and reach G1 through postgres_fdw, each just
    after a plain UPDATE of W on G3 by the same connection (whose row count
    PostgreSQL 15 keeps in the session's transaction statistics until it
    flushes them, up to a second later): none is refused; G1's primary holds the 100 rows in its own partitions and
    received them from postgres_fdw; G3's sequence moved by 100.
(e2) A plain UPDATE of W by key whose trigger (on W's partition on G3)
    updates Z of G2 through postgres_fdw: W's row was written on G3 first
    (the local transaction wrote rows), so the write to Z is refused and
    nothing is applied.
(f) Not the driver's, or not a global connection: psql as the application
    role and a general connection (GlobalConnection=No) run `SELECT bump(Z,
    W)` on G3 as before: both balances rise by one each time."""
import pyodbc

from xact_lib import (GROUPS, DSN, HOW, ON_G3, REFUSED, REFUSED_NATIVE as NATIVE,
                      accounts_with_bump, balance, calls, connect, expect_error, fail, helper,
                      log, owners, primary, reset_statements, su)

APP = "xautoc"
P = {g: primary(g) for g in GROUPS}
NOT_PLAIN = "not one plain write of one table"
# The mark's set_config as pg_stat_statements records it.
MARK = "SELECT pg_catalog.set_config($1, $2, $3)"

accounts_with_bump()
BY_GROUP = owners()
Z, W = BY_GROUP["G2"][0], BY_GROUP["G3"][0]


def balances():
    return {Z: balance("G2", Z), W: balance("G3", W)}


def unchanged(what, want):
    got = balances()
    if got != want:
        fail(f"{what}: balances {got}, expected {want}")


def refused(what, fn, why=NOT_PLAIN):
    e = expect_error(what, fn, "0A000", native=NATIVE, says=REFUSED)
    if HOW not in str(e) or why not in str(e):
        fail(f"{what}: the refusal should say why ({why}) and how to write atomically: {e}")


auto = connect(APP, extra=ON_G3, autocommit=True)
before = balances()
reset_statements()

# (a) a function writing another group first, then its own
refused("(a) a function writing G2 through postgres_fdw, then G3, autocommit",
        lambda: auto.cursor().execute("SELECT bump(?, ?)", Z, W))
unchanged("(a)", before)
refused("(a) the same without parameters",
        lambda: auto.cursor().execute(f"SELECT bump({Z}, {W})"))
unchanged("(a) no parameters", before)
log("(a) autocommit: a function writing another group first, then its own: refused, "
    "nothing changed")

# (b) a data-modifying WITH, remote first, local after
refused("(b) a data-modifying WITH writing G2 first, then G3",
        lambda: auto.cursor().execute(
            "WITH r AS (UPDATE accounts SET balance = balance + 1 WHERE id = ? RETURNING id), "
            "l AS (UPDATE accounts SET balance = balance + 1 WHERE id = ? "
            "AND EXISTS (SELECT 1 FROM r) RETURNING id) SELECT count(*) FROM l", Z, W))
unchanged("(b)", before)
log("(b) a data-modifying WITH writing another group first, then its own: refused, nothing "
    "changed")
marks = calls(P["G3"], MARK)

# (c) a text of several statements writing two groups: split, each
# statement on its own group
for step in (+1, -1):
    cur = auto.cursor()
    cur.execute(f"UPDATE accounts SET balance = balance + {step} WHERE id = {Z}; "
                f"UPDATE accounts SET balance = balance + {step} WHERE id = {W}")
    while cur.nextset():
        pass
    if step > 0:
        unchanged("(c) both rows, each on its owner", {Z: before[Z] + 1, W: before[W] + 1})
unchanged("(c) put back", before)
log("(c) two statements in one text writing two groups: each ran on its own group")

# (c2) a data-modifying WITH writing one row by a parameter key runs on the
# row's owner, in autocommit and in a transaction
WITH_BUMP = ("WITH u AS (UPDATE accounts SET balance = balance + ? WHERE id = ? "
             "RETURNING id, balance) SELECT id, balance FROM u")


def with_calls():
    return {g: calls(P[g], "WITH u AS (UPDATE accounts SET balance = balance + $1%")
            for g in GROUPS}


def bumped(what, cur, step, account, want):
    got = [tuple(int(v) for v in row) for row in cur.execute(WITH_BUMP, step, account)]
    if got != [(account, want)]:
        fail(f"{what}: the WITH statement returned {got}, expected {[(account, want)]}")


seen = with_calls()
bumped("(c2) autocommit, Z of G2", auto.cursor(), 1, Z, before[Z] + 1)
txn = connect(APP, extra=ON_G3)
txn.cursor().execute("UPDATE accounts SET balance = balance + 0 WHERE id = ?", W)
bumped("(c2) in a transaction on G3, Z of G2", txn.cursor(), -1, Z, before[Z])
bumped("(c2) in the transaction, W of G3", txn.cursor(), 0, W, before[W])
txn.commit()
txn.close()
unchanged("(c2) put back", before)
ran = {g: with_calls()[g] - seen[g] for g in GROUPS}
if ran != {"G1": 0, "G2": 2, "G3": 1}:
    fail(f"(c2) the WITH statements ran {ran} times on each group's primary, expected twice "
         "on G2 (Z's owner) and once on G3 (W's)")
log("(c2) a data-modifying WITH keyed by a parameter ran on its row's owner")

# (c') a marked statement's own error comes back as the server gave it, and
# the session serves the next statement
expect_error("(c') a marked text of two statements, the second misspelt",
             lambda: auto.cursor().execute(
                 f"UPDATE accounts SET balance = balance + 1 WHERE id = {W}; SELEC 1"), "42601")
expect_error("(c') a marked call of a function that does not exist",
             lambda: auto.cursor().execute("SELECT bump(?)", W), "42883")
unchanged("(c')", before)
cur = auto.cursor()
cur.execute("SELECT bump(?, ?)", W, W)
if balances()[W] != before[W] + 2:
    fail("(c') a function writing only its own group should run after the errors")
cur.execute("UPDATE accounts SET balance = balance - 2 WHERE id = ?", W)
unchanged("(c') restored", before)
log("(c') a marked statement's own error (42601, 42883) is the server's; a function writing "
    "only its own group still runs")

# (c'') a marked statement whose implicit commit fails: a deferred
# constraint trigger on W's partition refuses at commit, after the statement
# answered; the application hears the commit's error, not a success
leaf_w = su(P["G3"], f"SELECT tableoid::regclass FROM accounts WHERE id = {W}")
su(P["G3"], "CREATE FUNCTION public.refuse_at_commit() RETURNS trigger LANGUAGE plpgsql AS "
            "$f$ BEGIN RAISE EXCEPTION USING ERRCODE = '23514', MESSAGE = 'refused at commit'; "
            "END $f$; "
            f"CREATE CONSTRAINT TRIGGER refuse_at_commit AFTER UPDATE ON {leaf_w} "
            "DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION public.refuse_at_commit()")


def all_results(sql):
    """Runs sql and reads every result in its turn (pyodbc's nextset)."""
    cur = auto.cursor()
    cur.execute(sql)
    while cur.nextset():
        pass


for how, run in (("with parameters", lambda: auto.cursor().execute("SELECT bump(?, ?)", W, W)),
                 ("in a text of two statements",
                  lambda: all_results(f"SELECT bump({W}, {W}); SELECT 1"))):
    e = expect_error(f"(c'') a marked statement whose commit fails, {how}", run, "23514")
    if "refused at commit" not in str(e):
        fail(f"(c'') {how}: the commit's own error should come back: {e}")
    unchanged(f"(c'') {how}", before)
su(P["G3"], f"DROP TRIGGER refuse_at_commit ON {leaf_w}; DROP FUNCTION public.refuse_at_commit()")
log("(c'') a marked statement whose commit fails reports the commit's error; nothing applied")

# (d) who pays the mark
if marks != 3:
    fail(f"(d) {P['G3']} should have run the mark 3 times for (a) and (b), not {marks}")
reset_statements()
cur = auto.cursor()
cur.execute("SELECT count(*) FROM accounts WHERE id = ?", W)
cur.fetchall()
cur.execute("UPDATE accounts SET balance = balance + 0 WHERE id = ?", W)
for g in GROUPS:
    if calls(P[g], MARK) != 0:
        fail(f"(d) a read-only SELECT and a plain write by key sent the mark on {P[g]}")
if calls(P["G3"], "UPDATE accounts SET balance%") != 1:
    fail(f"(d) the plain write should have run on {P['G3']}")
# Maintenance writes no rows: no mark, so REINDEX TABLE of the sharded
# parent, which PostgreSQL refuses in a pipeline (25001), runs.
reset_statements()
for sql in ("REINDEX TABLE accounts", "ANALYZE accounts", "VACUUM accounts"):
    cur.execute(sql)
if calls(P["G3"], "REINDEX TABLE accounts%") != 1:
    fail(f"(d) REINDEX TABLE accounts did not run on {P['G3']}")
for g in GROUPS:
    if calls(P[g], MARK) != 0:
        fail(f"(d) REINDEX, ANALYZE or VACUUM sent the mark on {P[g]}")
log("(d) the mark ran once per marked statement; a read-only SELECT, a plain write by key "
    "and maintenance (REINDEX TABLE of the sharded parent) sent none")

# (e) a serial default drawn on the member: never refused
for g in GROUPS:
    su(P[g], "ALTER TABLE accounts ADD COLUMN n bigint")
su(P["G3"], "CREATE SEQUENCE public.accounts_n; GRANT USAGE ON SEQUENCE public.accounts_n TO app; "
            "ALTER TABLE accounts ALTER COLUMN n SET DEFAULT nextval('public.accounts_n')")
helper("app", "G1N1", "INSERT INTO accounts SELECT g, 100 FROM generate_series(1000, 1599) g")
ids = owners()["G1"]
keys = [i for i in ids if i >= 1000][:100]
if len(keys) != 100:
    fail(f"(e) expected 100 keys of G1 among 1000..1599, found {len(keys)}")
helper("app", "G1N1", f"DELETE FROM accounts WHERE id IN ({', '.join(map(str, keys))})")
reset_statements()
refusals = []
for k in keys:
    # A write of W's row on G3 by the same session just before: PostgreSQL
    # 15 keeps its row count in the session's transaction statistics until
    # it flushes them (up to a second later), so the INSERT whose nextval
    # gives the local transaction an id finds a count there.
    auto.cursor().execute("UPDATE accounts SET balance = balance + 0 WHERE id = ?", W)
    try:
        auto.cursor().execute(f"INSERT INTO accounts (id, balance) VALUES ({k}, 7)")
    except pyodbc.Error as e:
        refusals.append((k, str(e)))
if refusals:
    fail(f"(e) {len(refusals)} of 100 INSERTs with a default drawn on G3 were refused, "
         f"the first: {refusals[0]}")
in_own = su(P["G1"], "SELECT count(*) FROM accounts a JOIN pg_class c ON c.oid = a.tableoid "
                     f"WHERE c.relkind = 'r' AND a.balance = 7 AND a.n IS NOT NULL "
                     f"AND a.id IN ({', '.join(map(str, keys))})")
if in_own != "100":
    fail(f"(e) G1's primary should hold the 100 rows in its own partitions, holds {in_own}")
if calls(P["G1"], "INSERT INTO public.accounts%") != 100:
    fail(f"(e) {P['G1']} should have received the 100 rows from postgres_fdw")
if calls(P["G3"], MARK) != 0:
    fail("(e) a plain INSERT whose rows are in one group should carry no mark")
drawn = su(P["G3"], "SELECT last_value FROM public.accounts_n")
if drawn != "100":
    fail(f"(e) G3's sequence should have given 100 values, its last is {drawn}")
log("(e) 100 autocommit INSERTs through postgres_fdw with a default drawn on G3 (nextval "
    "WAL-logged 4 times): none refused, 100 rows on G1's own partitions")

# (e2) a plain write whose own table's trigger writes another group: the
# local row is written first, so the remote write is refused
leaf = su(P["G3"], f"SELECT tableoid::regclass FROM accounts WHERE id = {W}")
su(P["G3"], "CREATE FUNCTION public.pass_on() RETURNS trigger LANGUAGE plpgsql AS $f$ BEGIN "
            f"UPDATE accounts SET balance = balance + 1 WHERE id = {Z}; RETURN NEW; END $f$; "
            f"CREATE TRIGGER pass_on AFTER UPDATE ON {leaf} FOR EACH ROW "
            "EXECUTE FUNCTION public.pass_on()")
refused("(e2) a plain UPDATE of G3's row whose trigger writes G2's",
        lambda: auto.cursor().execute("UPDATE accounts SET balance = balance + 1 WHERE id = ?",
                                      W),
        why="that wrote on its own member first")
unchanged("(e2)", before)
su(P["G3"], f"DROP TRIGGER pass_on ON {leaf}; DROP FUNCTION public.pass_on()")
log("(e2) a plain write whose table's trigger writes another group: refused, nothing changed")

# (f) psql and a general connection are not the driver's global sessions
helper("app", P["G3"], f"BEGIN; SELECT bump({Z}, {W}); COMMIT")
general = pyodbc.connect(f"DSN={DSN};GlobalConnection=No;Servers=127.0.0.1:"
                         f"{helper('port', P['G3'])};Locator=;ApplicationName={APP}",
                         autocommit=True)
general.cursor().execute("SELECT bump(?, ?)", Z, W)
general.cursor().execute(f"UPDATE accounts SET balance = balance + 1 WHERE id = {Z}; "
                         f"UPDATE accounts SET balance = balance + 1 WHERE id = {W}")
general.close()
unchanged("(f)", {Z: before[Z] + 3, W: before[W] + 3})
log("(f) psql and a general connection write through postgres_fdw as before")
auto.close()
print("ok: an autocommit statement that is not one plain write of one table writes nothing "
      "through postgres_fdw; a plain one with a default drawn on its member is never refused",
      flush=True)
