"""Writes through postgres_fdw are refused on a global connection (issue
16, point 2 of the lead's open points): a write the driver does not see as
one (a function that writes, a data-modifying WITH under a SELECT) runs on
one member and would reach the other groups through postgres_fdw, outside
the two phases of the commit. The row trigger gcctl puts on every foreign
partition refuses it when the session is a global connection's
(gcodbc.global_connection=on): 0A000 saying how to write it atomically,
nothing changed on any group (docs/global-connection.md, "Writes across
groups").

usage: xact_remote_write.py DSN HELPER FAILOVER_MD   (run by fault_clients.sh)

(a) Every foreign partition on every group's primary has the trigger; one
    whose trigger was dropped gets it back at the next gcctl apply.
(b) Autocommit: `SELECT bump(A, Z)`, a plpgsql function updating an account
    of G1 and one of G2, is refused with 0A000 saying how to write it
    atomically; both balances unchanged on their owners.
(c) In a transaction that wrote A by its key first: the same call is
    refused; after ROLLBACK both balances unchanged.
(d) A data-modifying WITH under a SELECT, writing an account of every
    group, in a transaction: refused, nothing changed.
(e) The same function through a general connection (GlobalConnection=No,
    G1's primary) runs as before: both accounts raised by 1 on their owners.
(f) Writes by key still span groups: a transfer A -> Z commits on both."""
import pyodbc

from xact_lib import (GROUPS, DSN, balance, connect, expect_error, fail, helper, log,
                      nothing_left, owners, primary, su)

APP = "xremote"
P = {g: primary(g) for g in GROUPS}
HOW = "write its rows by their sharding key from the application"
REFUSED = "cannot commit atomically"

helper("app", "G1N1", "INSERT INTO accounts SELECT g, 100 FROM generate_series(1, 30) g")
for g in GROUPS:
    su(P[g], "CREATE FUNCTION public.bump(a bigint, b bigint) RETURNS void LANGUAGE plpgsql AS "
             "$f$ BEGIN UPDATE accounts SET balance = balance + 1 WHERE id IN (a, b); END $f$")
BY_GROUP = owners()
A, Z, W = BY_GROUP["G1"][0], BY_GROUP["G2"][0], BY_GROUP["G3"][0]


def unchanged(what, want=100):
    for group, account in (("G1", A), ("G2", Z), ("G3", W)):
        got = balance(group, account)
        if got != want:
            fail(f"{what}: account {account} of {group} holds {got}, expected {want}")




def every_foreign_partition_guarded(what):
    for g in GROUPS:
        lacking = su(P[g], "SELECT count(*) FROM pg_class c WHERE c.relkind = 'f' "
                           "AND c.relispartition AND NOT EXISTS (SELECT 1 FROM pg_trigger t "
                           "WHERE t.tgrelid = c.oid AND t.tgname = 'gcluster_refuse_remote_write')")
        foreign = su(P[g], "SELECT count(*) FROM pg_class WHERE relkind = 'f' AND relispartition")
        if lacking != "0" or foreign == "0":
            fail(f"{what} {P[g]}: {lacking} of its {foreign} foreign partitions lack the trigger")


every_foreign_partition_guarded("(a)")
twin = su(P["G2"], "SELECT relname FROM pg_class WHERE relkind = 'f' AND relispartition LIMIT 1")
su(P["G2"], f"DROP TRIGGER gcluster_refuse_remote_write ON {twin}")
helper("gcctl", "apply", timeout=60)
every_foreign_partition_guarded("(a) after apply")
log(f"(a) every foreign partition has the trigger; apply gave it back to {twin} on {P['G2']}")

auto = connect(APP, autocommit=True)
e = expect_error("(b) a function writing two groups, autocommit",
                 lambda: auto.cursor().execute("SELECT bump(?, ?)", A, Z), "0A000", says=REFUSED)
if HOW not in str(e):
    fail(f"(b) the refusal should say how to write atomically: {e}")
unchanged("(b)")
log("(b) refused in autocommit, nothing changed")

conn = connect(APP)
cur = conn.cursor()
cur.execute("UPDATE accounts SET balance = balance - 10 WHERE id = ?", A)
expect_error("(c) a function writing two groups, in a transaction",
             lambda: cur.execute("SELECT bump(?, ?)", A, Z), "0A000", says=REFUSED)
conn.rollback()
unchanged("(c)")
nothing_left("(c)")
log("(c) refused in a transaction, nothing changed")

cur.execute("SELECT 1")
cur.fetchall()
expect_error("(d) a data-modifying WITH under a SELECT",
             lambda: cur.execute("WITH u AS (UPDATE accounts SET balance = balance + 1 "
                                 "WHERE id IN (?, ?, ?) RETURNING id) SELECT count(*) FROM u",
                                 A, Z, W), "0A000", says=REFUSED)
conn.rollback()
unchanged("(d)")
nothing_left("(d)")
log("(d) a data-modifying WITH refused, nothing changed")

general = pyodbc.connect(f"DSN={DSN};GlobalConnection=No;Servers=127.0.0.1:"
                         f"{helper('port', P['G1'])};Locator=;ApplicationName={APP}",
                         autocommit=True)
general.cursor().execute("SELECT bump(?, ?)", A, Z)
general.close()
if balance("G1", A) != 101 or balance("G2", Z) != 101:
    fail(f"(e) a general connection's call: {A} = {balance('G1', A)}, {Z} = {balance('G2', Z)} "
         "(expected 101 and 101)")
log("(e) a general connection writes through postgres_fdw as before")

cur.execute("UPDATE accounts SET balance = balance - ? WHERE id = ?", 10, A)
cur.execute("UPDATE accounts SET balance = balance + ? WHERE id = ?", 10, Z)
conn.commit()
if balance("G1", A) != 91 or balance("G2", Z) != 111:
    fail(f"(f) the keyed transfer: {A} = {balance('G1', A)}, {Z} = {balance('G2', Z)} "
         "(expected 91 and 111)")
nothing_left("(f)")
log("(f) writes by key still commit on both groups")
auto.close()
conn.close()
