"""Resolution of a COMMIT, and of an autocommit write, whose answer was lost
(docs/failover.md, "A COMMIT whose answer was lost"), through pyodbc.

usage: commit_resolution.py DSN HELPER   (HELPER: the script the .sh writes)

Table `cr` is plain (not sharded), so the driver sends it to G1 first
(LocalityGroupPolicy=1, LocalityGroupPath=G1,G2), to G1's primary G1N1
(LocalityMemberPolicy=0). On G1 a deferred trigger sleeps at COMMIT for
rows tagged 'slow...'. Every outcome is checked on the servers.

(a) committed, answer lost: G1N1 waits for a synchronous standby that does
    not exist; its backend is terminated while COMMIT waits (PostgreSQL
    has committed locally): SQLEndTran(COMMIT) succeeds, the row is there.
(b) the same through a SQL BEGIN ... COMMIT sent with SQLExecDirect.
(c) not committed, same server: the backend is terminated while COMMIT
    runs the deferred trigger: 40001 / 19068, the row is absent;
    SQLEndTran(ROLLBACK) succeeds and the next transaction runs.
(d) not committed, another incarnation: the same with kill -9 of the
    backend (the server restarts): 40001 / 19068, the row is absent.
(e) cannot tell: the whole group G1 stopped while COMMIT runs: 08007, and
    nothing ran anywhere (no re-run).
(f) autocommit write, committed, answer lost (synchronous standby as in
    (a)): success with its row count, the row is there exactly once; with
    RETURNING, the returned row is G1N1's.
(g) autocommit write, not committed (trigger as in (c)): it runs again
    on G2 by itself: the row is there exactly once, on G2; with RETURNING,
    the returned row is G2N1's.
(h) autocommit write, cannot tell (group stopped as in (e)): 40003, the
    row nowhere.
(i) not committed, known without asking: the backend of an open
    transaction is stopped (SIGSTOP), COMMIT is sent, the backend is told to
    terminate and continued: it ends the session before it answers the id
    query, so COMMIT never ran: 40001 / 19068, the row is absent.
(j) ResolveLostWrites=Yes sends each autocommit write with its id, No
    without (pg_stat_statements): a prepared INSERT by key returns the id
    itself (its twin with RETURNING pg_current_xact_id_if_assigned(), no id
    query); sent with SQLExecDirect (no server statement) it is followed by
    the id query.
(j2) a prepared INSERT into a view whose rule has no RETURNING: the server
    refuses its twin, so in autocommit it is followed by the id query; in a
    transaction the twin is never tried and the transaction commits.
(j3) autocommit writes after a SELECT on the same member session (libpq
    keeps the SELECT's single-row mode into the write's pipeline): an
    UPDATE ... RETURNING of two rows returns both, a prepared UPDATE
    returning its id answers row count 1.
(m) marked autocommit writes (a user function in an INSERT: the driver
    cannot prove it one plain write, so it carries the statement mark),
    sent directly and prepared: committed with the answer lost (as in (f)),
    success and the row there once on G1N1; not committed (as in (g)), run
    again on G2, the row there once on G2N1. The function writes the
    transaction's mark into the row: the servers show that the mark ran in
    the write's own transaction.
(k) an autocommit write that reached another group through postgres_fdw:
    an INSERT into the sharded `ledger` with a literal key of G1, sent with
    SQLExecDirect, goes by policy to G2N1, which writes the row on G1N1
    through postgres_fdw and commits that part first. G1N1 waits for a
    synchronous standby, so the remote COMMIT hangs (committed on G1N1);
    G2N1's session is terminated meanwhile. G2N1 wrote nothing of its own,
    yet the write applied: 40003, not run again; the row is there once.
(l) the same write, but G1N1's backend that serves postgres_fdw is
    terminated while its COMMIT waits (committed on G1N1): G2N1 answers
    with postgres_fdw's error from the remote COMMIT (08006) and rolls back
    its own part. The write applied, so the driver says 40003 (the server's
    error follows as the second record), not the server's "failed"; in a
    transaction ends SQLEndTran(SQL_COMMIT) with 08007. Each row is there
    once. (In a transaction, a plain INSERT of a G1 key now runs on G1N1
    itself: a transaction's writes go to their owner group, and so does a
    data-modifying WITH whose literal key places its row. The transaction
    variant writes in a DO block, which the driver does not look into, so
    it still reaches G1 through postgres_fdw; the trigger gcctl
    puts on foreign tables refuses that in a global connection's
    transaction (docs/global-connection.md, "Writes through postgres_fdw"),
    so it is dropped on G2N1's foreign partitions of ledger first, as on a
    catalog made before that trigger.)"""
import os
import subprocess
import sys
import time

import pyodbc

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "support"))
import fault_helper  # noqa: E402
from fault_helper import CHILD_ENV, fail, in_thread, run_helper  # noqa: E402

DSN, HELPER = sys.argv[1], sys.argv[2]
APP = "crtest"
# CR_TRACE=file: the driver's trace log, for debugging this test.
TRACE = f";LogLevel=3;LogFile={os.environ['CR_TRACE']}" if os.environ.get("CR_TRACE") else ""


def helper(*args, check=True):
    return run_helper(HELPER, *args, check=check)


def su(member, sql):
    return helper("su", member, sql)


def connect(autocommit, extra=""):
    return pyodbc.connect(f"DSN={DSN};LocalityMemberPolicy=0;LocalityGroupPolicy=1;"
                          f"LocalityGroupPath=G1,G2;ReconnectInterval=1;ConnectTimeout=2;"
                          f"ApplicationName={APP}{TRACE}{extra}", autocommit=autocommit)


def count(member, row_id):
    return int(su(member, f"SELECT count(*) FROM cr WHERE id = {row_id}"))


def backend_waiting(member, wait_event):
    return fault_helper.backend_waiting(su, APP, member, wait_event)


def sync_standby(on):
    fault_helper.hold_commits(su, "G1N1", on)


def expect_ok(result, what):
    kind, value = result
    if kind != "ok":
        fail(f"{what}: expected success, got {value}")
    return value


def expect_error(result, state, what, native=None):
    kind, value = result
    if kind != "error" or value.args[0] != state or (native and native not in str(value)):
        fail(f"{what}: expected {state} {native or ''}, got {kind} {value}")
    return value


# The server that ran an INSERT ... RETURNING names itself in its row.
RETURNING = "RETURNING id, current_setting('port')"


def expect_returned(rows, row_id, member, what):
    want = [(row_id, su(member, "SHOW port"))]
    got = [tuple(r) for r in rows]
    if got != want:
        fail(f"{what} RETURNING gave {got}, expected {want} (the row as {member} wrote it)")


def wait_up(*members):
    for m in members:
        if subprocess.run([HELPER, "ready", m], env=CHILD_ENV).returncode != 0:
            fail(f"{m} did not come back")


# --- (a) committed, answer lost: SQLEndTran(COMMIT) ---
sync_standby(True)
conn = connect(autocommit=False)
cur = conn.cursor()
cur.execute("INSERT INTO cr VALUES (1, 'a')")
t0 = time.monotonic()
join = in_thread(conn.commit)
su("G1N1", f"SELECT pg_terminate_backend({backend_waiting('G1N1', 'SyncRep')})")
expect_ok(join(), "(a) SQLEndTran(COMMIT)")
ms = (time.monotonic() - t0) * 1000
sync_standby(False)
if count("G1N1", 1) != 1:
    fail("(a) the committed row is not on G1N1")
print(f"ok (a): COMMIT whose answer was lost (backend terminated in sync-rep wait) "
      f"reported success; row present; {ms:.0f} ms")
conn.close()

# --- (b) the same through SQL BEGIN ... COMMIT (SQLExecDirect) ---
sync_standby(True)
conn = connect(autocommit=True)
cur = conn.cursor()
cur.execute("BEGIN")
cur.execute("INSERT INTO cr VALUES (2, 'b')")
join = in_thread(lambda: cur.execute("COMMIT"))
su("G1N1", f"SELECT pg_terminate_backend({backend_waiting('G1N1', 'SyncRep')})")
expect_ok(join(), "(b) SQL COMMIT")
sync_standby(False)
if count("G1N1", 2) != 1:
    fail("(b) the committed row is not on G1N1")
print("ok (b): SQL COMMIT whose answer was lost reported success; row present")
conn.close()

# --- (c) not committed (aborted on the same server) ---
conn = connect(autocommit=False)
cur = conn.cursor()
cur.execute("INSERT INTO cr VALUES (3, 'slow-c')")
join = in_thread(conn.commit)
su("G1N1", f"SELECT pg_terminate_backend({backend_waiting('G1N1', 'PgSleep')})")
e = expect_error(join(), "40001", "(c) SQLEndTran(COMMIT)", "19068")
if count("G1N1", 3) != 0:
    fail("(c) the row of a transaction reported not committed is on G1N1")
conn.rollback()
cur.execute("INSERT INTO cr VALUES (30, 'c-next')")
conn.commit()
if count("G1N1", 30) + count("G2N1", 30) != 1:
    fail("(c) the next transaction did not commit exactly once")
print("ok (c): COMMIT killed in its deferred trigger: 40001 / 19068; row absent; "
      "ROLLBACK then the next transaction succeed")
conn.close()

# --- (d) not committed, another incarnation (kill -9: the server restarts) ---
conn = connect(autocommit=False)
cur = conn.cursor()
cur.execute("INSERT INTO cr VALUES (4, 'slow-d')")
t0 = time.monotonic()
join = in_thread(conn.commit)
helper("killpid", backend_waiting("G1N1", "PgSleep"))
expect_error(join(), "40001", "(d) SQLEndTran(COMMIT) after kill -9", "19068")
ms = (time.monotonic() - t0) * 1000
wait_up("G1N1")
if count("G1N1", 4) != 0:
    fail("(d) the row of a transaction reported not committed is on G1N1")
conn.rollback()
print(f"ok (d): COMMIT whose backend was killed (server restarted): 40001 / 19068 "
      f"after {ms:.0f} ms; row absent")
conn.close()
time.sleep(1.5)   # G1N2 re-attaches to the restarted primary

# --- (e) cannot tell: the whole group stopped while COMMIT runs ---
conn = connect(autocommit=False)
cur = conn.cursor()
cur.execute("INSERT INTO cr VALUES (5, 'slow-e')")
t0 = time.monotonic()
join = in_thread(conn.commit)
backend_waiting("G1N1", "PgSleep")
helper("stop", "G1N2")
helper("stop", "G1N1")
expect_error(join(), "08007", "(e) SQLEndTran(COMMIT) with G1 down")
ms = (time.monotonic() - t0) * 1000
conn.close()
helper("start", "G1N1")
helper("start", "G1N2")
wait_up("G1N1", "G1N2")
if count("G1N1", 5) + count("G2N1", 5) != 0:
    fail("(e) a transaction reported unknown ran (or ran again) somewhere")
print(f"ok (e): COMMIT with its whole group down: 08007 after {ms:.0f} ms; "
      f"not run again anywhere")

# --- (f) autocommit write, committed, answer lost ---
sync_standby(True)
conn = connect(autocommit=True)
cur = conn.cursor()
join = in_thread(lambda: cur.execute("INSERT INTO cr VALUES (6, 'f')").rowcount)
su("G1N1", f"SELECT pg_terminate_backend({backend_waiting('G1N1', 'SyncRep')})")
rows = expect_ok(join(), "(f) autocommit INSERT")
if rows != 1:
    fail(f"(f) the INSERT's row count is {rows}, expected 1")
conn.close()    # G1N1 is down for this connection now; a new one has it again
conn = connect(autocommit=True)
cur = conn.cursor()
join = in_thread(lambda: cur.execute(f"INSERT INTO cr VALUES (61, 'f') {RETURNING}").fetchall())
su("G1N1", f"SELECT pg_terminate_backend({backend_waiting('G1N1', 'SyncRep')})")
returned = expect_ok(join(), "(f) autocommit INSERT ... RETURNING")
expect_returned(returned, 61, "G1N1", "(f)")
conn.close()
# Prepared (a parameter): the INSERT returns its id itself, no id query.
conn = connect(autocommit=True)
cur = conn.cursor()
join = in_thread(lambda: (lambda c: (c.rowcount, c.description))(
    cur.execute("INSERT INTO cr VALUES (?, 'f')", 62)))
su("G1N1", f"SELECT pg_terminate_backend({backend_waiting('G1N1', 'SyncRep')})")
prepared_answer = expect_ok(join(), "(f) prepared autocommit INSERT")
sync_standby(False)
if prepared_answer != (1, None):
    fail(f"(f) the prepared INSERT answered (row count, columns) {prepared_answer}, "
         "expected (1, None): the RETURNING of its id is the driver's, not the application's")
for row_id in (6, 61, 62):
    if count("G1N1", row_id) != 1 or count("G2N1", row_id) != 0:
        fail(f"(f) expected row {row_id} once on G1N1, got G1N1 {count('G1N1', row_id)} "
             f"G2N1 {count('G2N1', row_id)}")
print(f"ok (f): autocommit INSERT whose answer was lost after it committed: success "
      f"(row count {rows}), row present exactly once; with RETURNING, G1N1's row returned; "
      f"prepared (returning its own id): row count 1, no columns")
conn.close()

# --- (g) autocommit write, not committed: runs again on G2 ---
conn = connect(autocommit=True)
cur = conn.cursor()
join = in_thread(lambda: cur.execute("INSERT INTO cr VALUES (7, 'slow-g')").rowcount)
su("G1N1", f"SELECT pg_terminate_backend({backend_waiting('G1N1', 'PgSleep')})")
rows = expect_ok(join(), "(g) autocommit INSERT")
conn.close()
conn = connect(autocommit=True)
cur = conn.cursor()
join = in_thread(lambda: cur.execute(f"INSERT INTO cr VALUES (71, 'slow-g') {RETURNING}")
                 .fetchall())
su("G1N1", f"SELECT pg_terminate_backend({backend_waiting('G1N1', 'PgSleep')})")
returned = expect_ok(join(), "(g) autocommit INSERT ... RETURNING")
expect_returned(returned, 71, "G2N1", "(g)")
conn.close()
conn = connect(autocommit=True)
cur = conn.cursor()
join = in_thread(lambda: cur.execute("INSERT INTO cr VALUES (?, 'slow-g')", 72).rowcount)
su("G1N1", f"SELECT pg_terminate_backend({backend_waiting('G1N1', 'PgSleep')})")
if expect_ok(join(), "(g) prepared autocommit INSERT") != 1:
    fail("(g) the prepared INSERT run again did not answer row count 1")
for row_id in (7, 71, 72):
    if count("G1N1", row_id) != 0 or count("G2N1", row_id) != 1:
        fail(f"(g) expected row {row_id} once on G2N1, got G1N1 {count('G1N1', row_id)} "
             f"G2N1 {count('G2N1', row_id)}")
print(f"ok (g): autocommit INSERT that did not commit ran again on G2 by itself "
      f"(row count {rows}); row present exactly once; with RETURNING, G2N1's row returned; "
      f"prepared (returning its own id) too")
conn.close()
time.sleep(1.2)

# --- (h) autocommit write, cannot tell ---
conn = connect(autocommit=True)
cur = conn.cursor()
join = in_thread(lambda: cur.execute("INSERT INTO cr VALUES (8, 'slow-h')"))
backend_waiting("G1N1", "PgSleep")
helper("stop", "G1N2")
helper("stop", "G1N1")
expect_error(join(), "40003", "(h) autocommit INSERT with G1 down")
conn.close()
helper("start", "G1N1")
helper("start", "G1N2")
wait_up("G1N1", "G1N2")
if count("G1N1", 8) + count("G2N1", 8) != 0:
    fail("(h) a write reported unknown ran (or ran again) somewhere")
print("ok (h): autocommit INSERT with its whole group down: 40003; not run again")

# --- (i) the server ends the session before answering: not committed ---
conn = connect(autocommit=False)
cur = conn.cursor()
cur.execute("INSERT INTO cr VALUES (9, 'i')")
pid = su("G1N1", "SELECT pid FROM pg_stat_activity WHERE application_name = "
         f"'{APP}' AND state = 'idle in transaction' LIMIT 1")
if not pid:
    fail("(i) no idle-in-transaction backend of the test on G1N1")
helper("signal", "STOP", pid)
try:
    join = in_thread(conn.commit)
    time.sleep(0.3)   # the COMMIT exchange waits in the stopped backend's socket
    su("G1N1", f"SELECT pg_terminate_backend({pid})")
finally:
    helper("signal", "CONT", pid)
expect_error(join(), "40001", "(i) SQLEndTran(COMMIT) of a stopped, then terminated backend",
             "19068")
if count("G1N1", 9) != 0:
    fail("(i) the row of a transaction reported not committed is on G1N1")
conn.rollback()
print("ok (i): backend stopped, COMMIT sent, backend terminated: 40001 / 19068; row absent")
conn.close()

# --- (j) ResolveLostWrites: Yes sends each autocommit write with its id, No without ---
ID_QUERY_CALLS = ("SELECT coalesce(sum(calls), 0) FROM pg_stat_statements "
                  "WHERE query LIKE 'SELECT pg_current_xact_id_if_assigned()%'")
ID_RETURNED_CALLS = ("SELECT coalesce(sum(calls), 0) FROM pg_stat_statements "
                     "WHERE query LIKE 'INSERT INTO cr %RETURNING pg_current_xact_id_if_assigned()%'")
wait_up("G1N1")
for setting, returned, queried in (("Yes", 5, 3), ("No", 0, 0)):
    su("G1N1", "SELECT pg_stat_statements_reset()")
    conn = connect(autocommit=True, extra=f";ResolveLostWrites={setting}")
    cur = conn.cursor()
    for k in range(5):
        cur.execute("INSERT INTO cr VALUES (?, 'j')", 100 + k)
        if cur.rowcount != 1 or cur.description is not None:
            fail(f"(j) ResolveLostWrites={setting}: the INSERT answered row count "
                 f"{cur.rowcount} and columns {cur.description}, expected 1 and none")
    for k in range(3):
        cur.execute(f"INSERT INTO cr VALUES ({110 + k}, 'j')")
    conn.close()
    got = (int(su("G1N1", ID_RETURNED_CALLS)), int(su("G1N1", ID_QUERY_CALLS)))
    if got != (returned, queried):
        fail(f"(j) ResolveLostWrites={setting}: G1N1 ran {got[0]} prepared INSERTs returning "
             f"their id and {got[1]} id queries, expected {returned} and {queried}")
print("ok (j): ResolveLostWrites=Yes: 5 prepared INSERTs returned their id (no id query), 3 "
      "sent directly were followed by the id query; No: neither (pg_stat_statements on G1N1)")

# --- (j2) a write whose twin the server refuses: a view whose rule has no RETURNING ---
su("G1N1", "CREATE VIEW cr_v AS SELECT * FROM cr; "
           "CREATE RULE cr_v_insert AS ON INSERT TO cr_v DO INSTEAD INSERT INTO cr VALUES (NEW.id, NEW.tag); "
           "GRANT ALL ON cr_v TO app")
su("G1N1", "SELECT pg_stat_statements_reset()")
conn = connect(autocommit=True)
cur = conn.cursor()
for k in range(3):
    cur.execute("INSERT INTO cr_v VALUES (?, 'j2')", 120 + k)
conn.close()
if int(su("G1N1", ID_QUERY_CALLS)) != 3:
    fail("(j2) the autocommit INSERTs into a view without RETURNING were not followed by the "
         "id query")
# Inside a transaction the twin is never tried: a refused PREPARE would abort it.
conn = connect(autocommit=False)
cur = conn.cursor()
cur.execute("INSERT INTO cr VALUES (130, 'j2')")
cur.execute("INSERT INTO cr_v VALUES (?, 'j2')", 131)
cur.execute("INSERT INTO cr VALUES (132, 'j2')")
conn.commit()
conn.close()
for row_id in (120, 121, 122, 130, 131, 132):
    if count("G1N1", row_id) != 1:
        fail(f"(j2) row {row_id} is on G1N1 {count('G1N1', row_id)} times, expected once")
print("ok (j2): INSERTs into a view whose rule has no RETURNING: in autocommit each followed by "
      "the id query; inside a transaction the transaction went on and committed")

# --- (j3) writes after a SELECT on the same session (libpq keeps its single-row mode) ---
conn = connect(autocommit=True)
cur = conn.cursor()
for k in range(3):
    cur.execute("SELECT id FROM cr WHERE id = ?", 120).fetchall()
    got = cur.execute("UPDATE cr SET tag = tag WHERE id IN (?, ?) RETURNING id", 120, 121).fetchall()
    if sorted(r[0] for r in got) != [120, 121]:
        fail(f"(j3) UPDATE ... RETURNING of two rows after a SELECT returned {got}")
    cur.execute("SELECT id FROM cr WHERE id = ?", 120).fetchall()
    if cur.execute("UPDATE cr SET tag = tag WHERE id = ?", 122).rowcount != 1:
        fail("(j3) a prepared UPDATE of one row after a SELECT did not answer row count 1")
conn.close()
print("ok (j3): after a SELECT on the same session, a write's own RETURNING gives all its rows "
      "and a write returning its id answers its row count")

# --- (m) marked autocommit writes whose answer was lost: resolved as unmarked ones ---
# The tag names the statement mark the row was written under.
for member in ("G1N1", "G2N1"):
    su(member, "CREATE FUNCTION cr_tag(t text) RETURNS text LANGUAGE sql STABLE AS $f$ SELECT t "
               "|| '-' || coalesce(current_setting('gcodbc.global_transaction', true), '') $f$")


def marked_insert(row_id, tag, wait_event):
    """A marked INSERT of row_id whose G1N1 backend is terminated while it
    waits on wait_event, sent directly, or prepared when row_id is odd. Its
    row count."""
    conn = connect(autocommit=True)
    cur = conn.cursor()
    if row_id % 2:
        join = in_thread(lambda: cur.execute("INSERT INTO cr VALUES (?, cr_tag(?))",
                                             row_id, tag).rowcount)
    else:
        join = in_thread(lambda: cur.execute(f"INSERT INTO cr VALUES ({row_id}, "
                                             f"cr_tag('{tag}'))").rowcount)
    su("G1N1", f"SELECT pg_terminate_backend({backend_waiting('G1N1', wait_event)})")
    rows = expect_ok(join(), f"(m) marked autocommit INSERT of {row_id}")
    conn.close()
    if rows != 1:
        fail(f"(m) the marked INSERT of {row_id} answered row count {rows}, expected 1")
    return rows


def row_once_on(member, row_id, tag):
    got = su(member, f"SELECT string_agg(tag, ',') FROM cr WHERE id = {row_id}")
    other = "G2N1" if member == "G1N1" else "G1N1"
    if got != f"{tag}-statement" or count(other, row_id) != 0:
        fail(f"(m) row {row_id}: on {member} {got!r} (expected {tag}-statement once), "
             f"on {other} {count(other, row_id)} times")


sync_standby(True)
for row_id in (140, 141):
    marked_insert(row_id, "m", "SyncRep")
sync_standby(False)
for row_id in (142, 143):
    marked_insert(row_id, "slow-m", "PgSleep")
for row_id in (140, 141):
    row_once_on("G1N1", row_id, "m")
for row_id in (142, 143):
    row_once_on("G2N1", row_id, "slow-m")
print("ok (m): marked autocommit INSERTs (sent directly and prepared) whose answer was lost: "
      "committed ones succeeded, once on G1N1; uncommitted ones ran again once on G2N1; "
      "each row written under the statement mark")
time.sleep(1.2)

# --- (k) a write through postgres_fdw: G2N1 wrote nothing, G1N1 committed ---
def ledger_key_of_g1(low, what):
    """A key in [low, low + 999] whose ledger row G1N1 holds."""
    key = su("G1N1", f"SELECT k FROM generate_series({low}, {low + 999}) k WHERE EXISTS ("
             "SELECT 1 FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid "
             "WHERE i.inhparent = 'ledger'::regclass AND c.relkind = 'r' "
             "AND satisfies_hash_partition('ledger'::regclass, 4, substring(pg_get_expr("
             "c.relpartbound, c.oid) from 'remainder (\\d+)')::int, k::bigint)) LIMIT 1")
    if not key:
        fail(f"{what} no key of G1 found")
    return key


def ledger_row_once(key, what):
    rows = int(su("G1N1", f"SELECT count(*) FROM ledger WHERE k = {key}"))
    if rows != 1:
        fail(f"{what} the INSERT's row is on G1N1 {rows} times, expected once")


key = ledger_key_of_g1(5000, "(k)")
sync_standby(True)
conn = connect(autocommit=True, extra=";LocalityGroupPath=G2,G1")
cur = conn.cursor()
join = in_thread(lambda: cur.execute(f"INSERT INTO ledger VALUES ({key}, 'k')"))
deadline = time.monotonic() + 10
while not su("G1N1", "SELECT pid FROM pg_stat_activity WHERE wait_event = 'SyncRep' LIMIT 1"):
    if time.monotonic() > deadline:
        fail("(k) the postgres_fdw COMMIT never waited on G1N1")
    time.sleep(0.05)
pid = su("G2N1", f"SELECT pid FROM pg_stat_activity WHERE application_name = '{APP}' LIMIT 1")
su("G2N1", f"SELECT pg_terminate_backend({pid})")
time.sleep(1.0)   # a re-run, were there one, would now wait on G1N1 too
sync_standby(False)
expect_error(join(), "40003", "(k) autocommit INSERT through postgres_fdw")
ledger_row_once(key, "(k)")
print("ok (k): autocommit INSERT that G2N1 wrote on G1 through postgres_fdw, its session "
      "terminated while G1N1 committed: 40003, not run again; the row is there once")
conn.close()

# --- (l) postgres_fdw's remote COMMIT fails after it applied ---


def fdw_commit_broken(run, what):
    """Runs run() in a thread; once G1N1's postgres_fdw backend waits for
    the synchronous standby (its COMMIT applied locally), terminates it.
    The outcome of run()."""
    sync_standby(True)
    join = in_thread(run)
    pid = None
    deadline = time.monotonic() + 10
    while not pid:
        if time.monotonic() > deadline:
            fail(f"{what} the postgres_fdw COMMIT never waited on G1N1")
        time.sleep(0.05)
        pid = su("G1N1", "SELECT pid FROM pg_stat_activity WHERE wait_event = 'SyncRep' "
                 "AND application_name = 'postgres_fdw' LIMIT 1")
    su("G1N1", f"SELECT pg_terminate_backend({pid})")
    outcome = join()
    sync_standby(False)
    return outcome


key = ledger_key_of_g1(6000, "(l)")
conn = connect(autocommit=True, extra=";LocalityGroupPath=G2,G1")
cur = conn.cursor()
expect_error(fdw_commit_broken(lambda: cur.execute(f"INSERT INTO ledger VALUES ({key}, 'l')"),
                                   "(l)"), "40003", "(l) autocommit INSERT whose remote COMMIT broke")
ledger_row_once(key, "(l) autocommit")
conn.close()

key = ledger_key_of_g1(7000, "(l)")
su("G2N1", "DO $d$ DECLARE r record; BEGIN FOR r IN SELECT t.tgrelid::regclass AS rel "
           "FROM pg_trigger t JOIN pg_inherits i ON i.inhrelid = t.tgrelid "
           "WHERE i.inhparent = 'ledger'::regclass AND t.tgname = 'gcluster_refuse_remote_write' "
           "LOOP EXECUTE format('DROP TRIGGER gcluster_refuse_remote_write ON %s', r.rel); "
           "END LOOP; END $d$")
conn = connect(autocommit=False, extra=";LocalityGroupPath=G2,G1")
cur = conn.cursor()
cur.execute(f"DO $w$ BEGIN INSERT INTO ledger VALUES ({key}, 'l'); END $w$")
expect_error(fdw_commit_broken(conn.commit, "(l) SQLEndTran"), "08007",
             "(l) SQLEndTran(SQL_COMMIT) whose remote COMMIT broke")
conn.rollback()
ledger_row_once(key, "(l) transaction")
print("ok (l): postgres_fdw's COMMIT on G1N1 broken after it applied: autocommit INSERT "
      "40003, SQLEndTran 08007; each row there once")
conn.close()
