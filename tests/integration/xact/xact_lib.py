"""What the transaction tests of tests/integration/xact share: the
cluster's witnesses (superuser SQL on a member through the fault helper),
the driver through pyodbc, and the checks every test makes on the servers.

A test script is run by tests/integration/gcctl/fault_clients.sh as
`script.py DSN HELPER FAILOVER_MD`. Every check is made on the servers
(pg_class, the rows on their owner, pg_stat_statements, pg_prepared_xacts,
gcluster.commit_decisions), not on what the driver answers. A failed check
ends the test at once (fault_helper.fail); the shell script then continues
any frozen server and takes the cluster down."""
import os
import re
import sys
import time

import pyodbc

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "support"))
from fault_helper import fail, run_helper  # noqa: E402

DSN, HELPER, FAILOVER_MD = sys.argv[1], sys.argv[2], sys.argv[3]
GROUPS = ("G1", "G2", "G3")
# XACT_TRACE=file: the driver's trace log, for debugging these tests.
TRACE = f";LogLevel=3;LogFile={os.environ['XACT_TRACE']}" if os.environ.get("XACT_TRACE") else ""
T0 = time.monotonic()


def log(msg):
    print(f"[{time.monotonic() - T0:6.2f}] {msg}", flush=True)


def helper(*args, check=True, timeout=90):
    return run_helper(HELPER, *args, check=check, timeout=timeout)


def su(member, sql):
    """sql as the superuser on member; its output (fields split by spaces)."""
    return helper("su", member, sql)


def primary(group):
    return helper("primary", group)


def connection_string(app, extra=""):
    return f"DSN={DSN};ApplicationName={app};ConnectTimeout=2;ReconnectInterval=1{TRACE}{extra}"


def connect(app, extra="", autocommit=False):
    """A global connection through the cluster's DSN, with pyodbc's
    defaults (autocommit off) unless told otherwise."""
    return pyodbc.connect(connection_string(app, extra), autocommit=autocommit)


def begin_transfer(app, a, b):
    """A new connection whose open transaction moved 10 from account a (of
    G1: its first write, so G1's primary coordinates) to account b (of
    another group, whose primary joins)."""
    conn = connect(app)
    cur = conn.cursor()
    cur.execute("UPDATE accounts SET balance = balance - ? WHERE id = ?", 10, a)
    cur.execute("UPDATE accounts SET balance = balance + ? WHERE id = ?", 10, b)
    return conn, cur


NATIVE = re.compile(r"\((-?\d+)\) \(SQL\w+\)\s*$")


def state_of(e):
    """(SQLSTATE, native error as text) of a pyodbc.Error."""
    m = NATIVE.search(str(e.args[1]) if len(e.args) > 1 else "")
    return (e.args[0] if e.args else "?"), (m.group(1) if m else "?")


def expect_error(what, fn, state, native=None, says=None):
    """Runs fn, which must fail with state (and native, and a message
    containing says, when given); returns the error."""
    try:
        fn()
    except pyodbc.Error as e:
        got_state, got_native = state_of(e)
        if got_state != state or (native is not None and got_native != str(native)) or \
                (says is not None and says not in str(e)):
            fail(f"{what}: expected {state} native {native} saying {says!r}, got {e}")
        return e
    fail(f"{what}: expected {state} native {native}, it succeeded")


def wait_for(member, sql, want, what, timeout=15.0):
    """Polls sql on member (as superuser) until it answers want."""
    deadline = time.monotonic() + timeout
    got = None
    while time.monotonic() < deadline:
        got = helper("su", member, sql, check=False)
        if got == want:
            return
        time.sleep(0.05)
    fail(f"{what}: {member} answered {got!r} to {sql!r} for {timeout:.0f} s, expected {want!r}")


def backend_waiting(member, app, wait_event, timeout=15.0):
    """Waits until a backend of application app on member waits on
    wait_event (SyncRep: a COMMIT or PREPARE held by its synchronous
    standby); returns what it runs."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        q = helper("su", member, "SELECT query FROM pg_stat_activity WHERE application_name = "
                   f"'{app}' AND wait_event = '{wait_event}' LIMIT 1", check=False)
        if q:
            return q
        time.sleep(0.02)
    fail(f"no backend of {app} waits on {wait_event} on {member} after {timeout:.0f} s")


def tried_until_it_runs(fn, what, retry_on=lambda e: True, after_error=lambda: None,
                        timeout=10.0):
    """Runs fn until it succeeds (a member coming back is reconnected on
    the connection's schedule): after an error, after_error() runs, and fn
    is tried again 0.2 s later while retry_on(error) holds, for at most
    timeout seconds; otherwise the test fails. Returns the number of tries."""
    deadline = time.monotonic() + timeout
    tries = 0
    while True:
        tries += 1
        try:
            fn()
            return tries
        except pyodbc.Error as e:
            after_error()
            if not retry_on(e) or time.monotonic() > deadline:
                fail(f"{what} failed ({tries} tries): {e}")
            time.sleep(0.2)


def kill_member(member, app):
    """kill -9 of member's postmaster, then waits (at most 10 s) until the
    backends of application app there have exited. A backend notices its
    postmaster's death only when it next waits, so a statement sent within
    those milliseconds may still run on the orphan: the tests break a
    member, not race it."""
    pids = su(member, "SELECT pid FROM pg_stat_activity WHERE application_name = "
                      f"'{app}'").split()
    helper("kill", member)
    deadline = time.monotonic() + 10
    for pid in pids:
        while time.monotonic() < deadline:
            try:
                os.kill(int(pid), 0)
            except ProcessLookupError:
                break
            except PermissionError:   # alive, another user's
                pass
            time.sleep(0.01)
        else:
            fail(f"backend {pid} of {app} on {member} still runs 10 s after kill -9 of its "
                 "postmaster")


def restart(member):
    """Starts a killed member again (gcctl local start-member) and waits
    until its standby streams synchronously from it (its commits would
    wait otherwise); returns how long it took, in seconds."""
    t = time.monotonic()
    for attempt in range(10):
        try:
            helper("start", member)
            break
        except RuntimeError as e:   # the killed postmaster's children still exiting
            if attempt == 9:
                fail(f"start-member {member} failed 10 times, 1 s apart: {e}")
            log(f"start-member {member} failed, tried again in 1 s: {e}")
            time.sleep(1)
    wait_ready(member)
    wait_for(member, "SELECT count(*) FROM pg_stat_replication WHERE sync_state = 'sync'", "1",
             f"{member}'s standby streaming again")
    return time.monotonic() - t


def in_transaction_on(member, app):
    """How many sessions of application app hold an open transaction on
    member."""
    return int(su(member, "SELECT count(*) FROM pg_stat_activity WHERE application_name = "
                          f"'{app}' AND state LIKE 'idle in transaction%'"))


def wait_ready(member, timeout=30.0):
    """Waits until member accepts superuser SQL (after a restart)."""
    wait_for(member, "SELECT 1", "1", f"{member} back", timeout)


# ---- what the servers hold ----

def relkind(member, name):
    """The relkind of public.name on member ('r', 'f', 'p'), '' when absent."""
    return su(member, f"SELECT coalesce((SELECT relkind::text FROM pg_class WHERE relname = "
                      f"'{name}' AND relnamespace = 'public'::regnamespace), '')")


def has_column(member, table, column):
    return su(member, "SELECT count(*) FROM pg_attribute WHERE attrelid = "
                      f"to_regclass('public.{table}') AND attname = '{column}' "
                      "AND NOT attisdropped") == "1"


def catalog_row(member, name):
    """The gcluster.tables row of name on member ('method owner_group'), ''
    when none."""
    return su(member, f"SELECT method || ' ' || coalesce(owner_group, '-') FROM gcluster.tables "
                      f"WHERE name = '{name}'")


def prepared(member):
    """The prepared transactions member holds (gids, one a line)."""
    return su(member, "SELECT gid FROM pg_prepared_xacts ORDER BY gid")


def decisions(member):
    """The rows of gcluster.commit_decisions on member ('gid committed')."""
    return su(member, "SELECT gid || ' ' || committed FROM gcluster.commit_decisions ORDER BY gid")


def nothing_left(what):
    """No prepared transaction and no commit decision on any group's
    primary."""
    for g in GROUPS:
        p = primary(g)
        if prepared(p):
            fail(f"{what}: {p} holds prepared transactions: {prepared(p)}")
        if decisions(p):
            fail(f"{what}: {p} keeps commit decisions: {decisions(p)}")


def reset_statements():
    """Empties pg_stat_statements on every group's primary."""
    for g in GROUPS:
        su(primary(g), "SELECT pg_stat_statements_reset()")


def calls(member, like):
    """How many times statements whose text matches the LIKE pattern ran on
    member, by pg_stat_statements."""
    return int(su(member, "SELECT coalesce(sum(calls), 0) FROM pg_stat_statements "
                          f"WHERE query LIKE '{like}'"))


def expect_calls(member, like, want, what):
    """Statements matching like ran want times on member (pg_stat_statements)."""
    got = calls(member, like)
    if got != want:
        fail(f"{what}: {member} ran {like!r} {got} times, expected {want}")


def prepared_by_the_others(what):
    """The groups whose primary ran PREPARE TRANSACTION (pg_stat_statements
    since the last reset_statements): a write across the three groups in
    autocommit prepares exactly the two that do not coordinate, which it
    checks; returns them."""
    prepared_on = [g for g in GROUPS if calls(primary(g), "PREPARE TRANSACTION%")]
    if len(prepared_on) != 2:
        fail(f"{what} PREPARE TRANSACTION ran on {prepared_on}, expected the two groups that "
             "do not coordinate")
    return prepared_on


def owners(table="accounts"):
    """{group: [ids of table's rows it owns]}, read through G1N1 (every
    group sees every row, each owner's through postgres_fdw)."""
    by_group = {g: [] for g in GROUPS}
    out = helper("app", "G1N1", f"SELECT a.id, s.group_name FROM {table} a JOIN gcluster.shards s "
                                "ON s.name = a.tableoid::regclass::text ORDER BY a.id")
    for line in out.splitlines():
        i, g = line.split(" ")
        by_group[g].append(int(i))
    return by_group


def balance(group, account):
    """The balance of account as its owner group's primary holds it: read
    there, and only from a plain (local) partition, not through
    postgres_fdw."""
    out = su(primary(group), "SELECT a.balance, c.relkind FROM accounts a JOIN pg_class c "
                             f"ON c.oid = a.tableoid WHERE a.id = {account}")
    if not out.endswith(" r"):
        fail(f"account {account} is not in a local shard of {group}'s primary: {out!r}")
    return int(out.split(" ")[0])


# Writes through postgres_fdw refused on a global connection
# (docs/global-connection.md, "Writes through postgres_fdw"): what the
# refusal says, and the connection options that put statements without a
# key on G3.
REFUSED = "cannot commit atomically"
HOW = "write each group's rows by their sharding key"
REFUSED_NATIVE = 90123
ON_G3 = ";LocalityGroupPolicy=1;LocalityGroupPath=G3,G1,G2;LocalityMemberPolicy=0"


def accounts_with_bump():
    """30 accounts, and on every group's primary the function bump(a, b)
    that adds 1 to account a, then to account b."""
    helper("app", "G1N1", "INSERT INTO accounts SELECT g, 100 FROM generate_series(1, 30) g")
    for g in GROUPS:
        su(primary(g), "CREATE FUNCTION public.bump(a bigint, b bigint) RETURNS void "
                       "LANGUAGE plpgsql AS $f$ BEGIN "
                       "UPDATE accounts SET balance = balance + 1 WHERE id = a; "
                       "UPDATE accounts SET balance = balance + 1 WHERE id = b; END $f$")
