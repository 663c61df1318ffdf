"""A global autocommit parameter array loses a member in the middle of its
rows (kill -9 of G2's primary's postmaster): docs/parameter-arrays.md,
"Transactions", and docs/failover.md.

usage: xact_array_window_lost.py DSN HELPER FAILOVER_MD   (run by fault_clients.sh)

pyodbc's fast_executemany describes the INSERT's parameters first, so the
array runs as psqlODBC runs it then: row by row, each row its own
transaction, the first failing row ending it. On a global connection its
rows are tried BatchSize (100) rows together, as one transaction across
the groups, and go again one by one when that fails.

(a) 1,000 accounts whose keys spread over the three groups. A trigger on
    G2's primary holds one row of the sixth hundred (pg_sleep), and the
    primary is killed while it waits. The execution fails; on the servers,
    once G2's primary is back: exactly the rows before the sixth hundred's
    first row of G2 are stored (that row could not run: its primary was
    down), as row by row; G1's and G3's primaries ran the sixth hundred's
    rows twice over up to that row (tried together and undone, then one by
    one) and the rest of it once (tried together, undone); no group holds
    a prepared transaction, a commit decision or an open transaction.
(b) The same connection then stores the other rows with one more array,
    once the killed member is reconnected (a single write keyed to G2
    tried first, for at most 10 s).
(c) A commit the servers refuse: 300 more accounts, a deferred constraint
    trigger on G3's primary refusing one row of the second hundred when
    its transaction commits. The hundred tried together cannot commit
    (its PREPARE TRANSACTION is refused, nothing applied), so its rows go
    one by one: exactly the rows before the refused one are stored, as
    row by row, and the first hundred stays.
(d) An array the application does not describe (prepared, bound and
    executed through the driver manager as a C program does; pyodbc
    always describes): its windows are BatchSize (100) rows, each one
    transaction across the groups. G2's primary is killed while a row of
    the sixth window waits there: the execution fails, the statuses say
    rows 1-500 succeeded, 501-600 failed and the rest were not run, and on
    the servers exactly the first five windows are stored; G1's primary
    ran its rows of the first six windows once each (the sixth undone),
    and nothing is left open, prepared or decided.
"""
import threading
import time

import pyodbc

from xact_array import (SQL_ERROR, SQL_PARAM_ERROR, SQL_PARAM_SUCCESS, SQL_PARAM_UNUSED,
                         UndescribedArray)
from xact_lib import (GROUPS, backend_waiting, calls, connect, connection_string, fail, helper,
                      in_transaction_on, kill_member, log, nothing_left, owners, primary,
                      reset_statements, restart, state_of, su, tried_until_it_runs)

APP = "xarray"
P = {g: primary(g) for g in GROUPS}
FIRST, N, WINDOW = 100001, 1000, 100
HELD_WINDOW = 5            # the sixth hundred, rows 501-600
INSERT = "INSERT INTO accounts (id, balance) VALUES (?, ?)"


def owners_and_partition(first, count, pick):
    """Each key's owner of the count rows from id first, read from the
    servers (the rows stored through postgres_fdw, their groups read, then
    removed), the row pick(owner) chooses, and that row's partition."""
    helper("app", "G1N1", f"INSERT INTO accounts SELECT g, 0 FROM generate_series({first}, "
                          f"{first + count - 1}) g")
    owner = {i: g for g, ids in owners().items() for i in ids if i >= first}
    row = pick(owner)
    shard = helper("app", "G1N1", f"SELECT tableoid::regclass FROM accounts WHERE id = {row}")
    helper("app", "G1N1", f"DELETE FROM accounts WHERE id >= {first}")
    return owner, row, shard


def owners_and_held_row(first):
    """The owners of the N rows from id first (owners_and_partition) and
    the held row: the first of G2 from the sixth hundred's 21st row on,
    which a trigger on its partition on G2's primary holds (pg_sleep)
    until the primary dies."""
    owner, held, shard = owners_and_partition(
        first, N, lambda owner: next(i for i in range(first + HELD_WINDOW * WINDOW + 20,
                                                      first + N) if owner[i] == "G2"))
    su(P["G2"], "CREATE FUNCTION public.hold_row() RETURNS trigger LANGUAGE plpgsql AS "
                "$$BEGIN PERFORM pg_sleep(60); RETURN NEW; END$$")
    su(P["G2"], f"CREATE TRIGGER hold_row BEFORE INSERT ON {shard} FOR EACH ROW "
                f"WHEN (NEW.id = {held}) EXECUTE FUNCTION public.hold_row()")
    return owner, held


def killed_while_held(run, app, what):
    """Runs run() in a thread until a row of application app waits in the
    trigger on G2's primary, kills that primary (kill -9), and returns
    what run() returned or raised, and the seconds from the kill to its
    end."""
    outcome = {}

    def body():
        try:
            outcome["r"] = run()
        except pyodbc.Error as e:
            outcome["r"] = e

    t = threading.Thread(target=body, daemon=True)
    t.start()
    backend_waiting(P["G2"], app, "PgSleep")
    killed_at = time.monotonic()
    kill_member(P["G2"], app)
    t.join(60)
    if t.is_alive():
        fail(f"{what} the array did not return within 60 s of the kill")
    return outcome["r"], time.monotonic() - killed_at


owner, held = owners_and_held_row(FIRST)
windows = {g: [0] * (N // WINDOW) for g in GROUPS}
for i, g in owner.items():
    windows[g][(i - FIRST) // WINDOW] += 1
if any(windows[g][w] == 0 for g in GROUPS for w in range(HELD_WINDOW + 1)):
    fail(f"a hundred of the first six misses a group, it would not be across groups: {windows}")
# The first row of G2 in the sixth hundred: row by row, the rows before it
# are stored, and it fails (its primary is down by then).
stop = next(r for r in range(HELD_WINDOW * WINDOW, N) if owner[FIRST + r] == "G2")
log(f"rows of each group per hundred: {windows}; the held row: {held - FIRST + 1}")

reset_statements()

# ---- (a) kill -9 while a window across groups runs ----
conn = connect(APP, autocommit=True)
cur = conn.cursor()
cur.fast_executemany = True
rows = [(i, 0) for i in range(FIRST, FIRST + N)]
error, took = killed_while_held(lambda: cur.executemany(INSERT, rows) and "ok", APP, "(a)")
if not isinstance(error, pyodbc.Error):
    fail("(a) the array succeeded although a member died under it")
state = state_of(error)[0]
log(f"(a) the array failed {took * 1000:.0f} ms after the kill: {error}")
for g in ("G1", "G3"):
    if in_transaction_on(P[g], APP):
        fail(f"(a) {P[g]} still holds the window's transaction")
# What G1's and G3's primaries ran (a statement that completed is counted,
# committed or not): their rows of the first six hundreds (the sixth tried
# together, then undone), and again one by one their rows of the sixth
# hundred before the row that stopped it.
for g in ("G1", "G3"):
    again = sum(1 for r in range(HELD_WINDOW * WINDOW, stop) if owner[FIRST + r] == g)
    want = sum(windows[g][:HELD_WINDOW + 1]) + again
    got = calls(P[g], "INSERT INTO accounts (id, balance) VALUES%")
    if got != want:
        fail(f"(a) {P[g]} ran the INSERT {got} times, expected {want}: its rows of the first "
             f"six hundreds, and {again} of them again one by one")
restart(P["G2"])
su(P["G2"], "DROP FUNCTION public.hold_row() CASCADE")
stored = helper("app", "G1N1", f"SELECT count(*), coalesce(max(id), 0) FROM accounts "
                               f"WHERE id >= {FIRST}").split()
if stored != [str(stop), str(FIRST + stop - 1)]:
    fail(f"(a) stored rows (count, highest id): {stored}, expected the {stop} rows before "
         f"row {stop + 1}, the sixth hundred's first of G2, up to id {FIRST + stop - 1}")
nothing_left("(a)")
log(f"ok (a): G2's primary killed under row {held - FIRST + 1}: the array failed ({state}); "
    f"the {stop} rows before row {stop + 1} (the first of G2 after the first five hundred) "
    "stored, as row by row; the sixth hundred tried together was undone on G1 and G3; no "
    "prepared transaction or decision kept")

# ---- (b) the same connection, once the member is back ----
g2_key = next(i for i in range(FIRST, FIRST + stop) if owner[i] == "G2")
tries = tried_until_it_runs(
    lambda: cur.execute("UPDATE accounts SET balance = balance WHERE id = ?", g2_key),
    "(b) a write keyed to G2 after the restart")
cur.executemany(INSERT, rows[stop:])
stored = helper("app", "G1N1", f"SELECT count(*) FROM accounts WHERE id >= {FIRST}")
if stored != str(N):
    fail(f"(b) {stored} rows stored after the second array, expected {N}")
nothing_left("(b)")
log(f"ok (b): after the restart (a write keyed to G2 ran at try {tries}) the same "
    f"connection stored the other {N - stop} rows")

# ---- (c) the commit of rows tried together refused ----
FIRST2, N2 = 200001, 300
owner2, refused, shard = owners_and_partition(
    FIRST2, N2, lambda owner: next(i for i in range(FIRST2 + 120, FIRST2 + 200)
                                   if owner[i] == "G3"))
su(P["G3"], "CREATE FUNCTION public.refuse_row() RETURNS trigger LANGUAGE plpgsql AS "
            "$$BEGIN RAISE EXCEPTION 'row % refused at commit', NEW.id; END$$")
su(P["G3"], f"CREATE CONSTRAINT TRIGGER refuse_row AFTER INSERT ON {shard} DEFERRABLE "
            f"INITIALLY DEFERRED FOR EACH ROW WHEN (NEW.id = {refused}) "
            "EXECUTE FUNCTION public.refuse_row()")
reset_statements()
try:
    cur.executemany(INSERT, [(i, 0) for i in range(FIRST2, FIRST2 + N2)])
    fail("(c) the array succeeded although a row's commit is refused")
except pyodbc.Error as e:
    state = state_of(e)[0]
su(P["G3"], "DROP FUNCTION public.refuse_row() CASCADE")
before = refused - FIRST2
stored = helper("app", "G1N1", f"SELECT count(*), coalesce(max(id), 0) FROM accounts "
                               f"WHERE id >= {FIRST2}").split()
if stored != [str(before), str(refused - 1)]:
    fail(f"(c) stored rows (count, highest id): {stored}, expected the {before} rows before "
         f"the refused row {before + 1}, up to id {refused - 1}")
# G1's primary: its rows of the first hundred once, of the second hundred
# once tried together (undone) and again one by one before the refused row.
g1 = [i for i in range(FIRST2, FIRST2 + 200) if owner2[i] == "G1"]
want = len(g1) + sum(1 for i in g1 if FIRST2 + 100 <= i < refused)
got = calls(P["G1"], "INSERT INTO accounts (id, balance) VALUES%")
if got != want:
    fail(f"(c) {P['G1']} ran the INSERT {got} times, expected {want}")
nothing_left("(c)")
conn.close()
log(f"ok (c): the commit of rows 101-200 tried together was refused ({state}); they went "
    f"again one by one: the {before} rows before row {before + 1} stored, as row by row")

# ---- (d) a window of 100 rows loses a member ----
FIRST3 = 300001
owner3, held = owners_and_held_row(FIRST3)
reset_statements()
APP3 = "xarray_window"
array = UndescribedArray(APP3, INSERT, list(range(FIRST3, FIRST3 + N)), "(d)")
rc, window_took = killed_while_held(array.run, APP3, "(d)")
if rc != SQL_ERROR:
    fail(f"(d) SQLExecute returned {rc}, expected SQL_ERROR ({SQL_ERROR})")
held_window = range(HELD_WINDOW * WINDOW, (HELD_WINDOW + 1) * WINDOW)
want = [SQL_PARAM_SUCCESS if r < held_window.start
        else SQL_PARAM_ERROR if r in held_window else SQL_PARAM_UNUSED for r in range(N)]
got = list(array.status)
if got != want:
    wrong = [(r + 1, got[r], want[r]) for r in range(N) if got[r] != want[r]]
    fail(f"(d) row statuses (row, got, expected), first of {len(wrong)} wrong: {wrong[:8]}")
if array.processed.value != held_window.stop:
    fail(f"(d) rows processed {array.processed.value}, expected {held_window.stop}")
for g in ("G1", "G3"):
    if in_transaction_on(P[g], APP3):
        fail(f"(d) {P[g]} still holds the window's transaction")
got = calls(P["G1"], "INSERT INTO accounts (id, balance) VALUES%")
want_g1 = sum(1 for r in range(held_window.stop) if owner3[FIRST3 + r] == "G1")
if got != want_g1:
    fail(f"(d) {P['G1']} ran the INSERT {got} times, expected {want_g1}: its rows of the "
         "first six windows, once each")
array.close()
restart(P["G2"])
su(P["G2"], "DROP FUNCTION public.hold_row() CASCADE")
stored = helper("app", "G1N1", f"SELECT count(*), coalesce(max(id), 0) FROM accounts "
                               f"WHERE id >= {FIRST3}").split()
if stored != [str(held_window.start), str(FIRST3 + held_window.start - 1)]:
    fail(f"(d) stored rows (count, highest id): {stored}, expected the first five windows, "
         f"{held_window.start} rows up to id {FIRST3 + held_window.start - 1}")
nothing_left("(d)")
log(f"ok (d): G2's primary killed under row {held - FIRST3 + 1} of an undescribed array: "
    f"SQL_ERROR {window_took * 1000:.0f} ms after the kill; rows 1-500 succeeded and are "
    "stored, the sixth window failed and was undone on every group, the rest not run")
log(f"figures: kill -9 -> the array's error: {took * 1000:.0f} ms (described), "
    f"{window_took * 1000:.0f} ms (windows of 100)")
