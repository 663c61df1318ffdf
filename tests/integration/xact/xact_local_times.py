"""Timestamptz sharding keys written without a UTC offset, in transactions
of a global connection (pyodbc, autocommit off): docs/placement.md, "Keys
of local time". pyodbc sends a datetime as a timestamp without an offset;
the server reads it in the session's TimeZone, and so must the driver to
place it. Before, every such INSERT in a transaction was refused (0A000,
"timestamptz without an explicit UTC offset depends on the session
TimeZone").

usage: xact_local_times.py DSN HELPER FAILOVER_MD   (run by fault_clients.sh)

events is range-sharded by `at`: before 2026-01-01 00:00 UTC on G1
(events_2025), then until 2026-07-01 00:00 UTC on G2 (events_2026a), then
G3 (events_later). The witnesses: each row in its owner's own partition,
read on the owner's primary, with the UTC time the server stored. A row
sent through postgres_fdw would have been refused in the transaction.

(a) TimeZone 9 (reported as "<+09>-09", one offset for all time): in one
    transaction, 2026-01-01 08:59:59 on G1, 09:00:00 on G2 and
    2026-07-01 09:00 on G3.
(b) TimeZone America/New_York (its offset depends on the date, asked of
    the server): 2025-12-31 18:59:59 (EST, -5) on G1; 2026-06-30 19:30
    (EDT, -4: 23:30 UTC) on G2, where standard time would put it on G3;
    20:00 on G3; a date alone (2026-07-01: midnight, 04:00 UTC) on G3; a
    literal in the text on G2; 2026-07-01 02:00 (06:00 UTC) on G3; a
    parameter array (fast_executemany) over the three groups.
(c) Asia/Seoul: 2026-07-01 02:00 again, now 2026-06-30 17:00 UTC, on G2:
    the answer remembered for New York is not taken for another zone."""
import datetime

from xact_lib import GROUPS, connect, fail, log, nothing_left, primary, su

APP = "xlocal"
P = {g: primary(g) for g in GROUPS}
PARTITION = {"G1": "events_2025", "G2": "events_2026a", "G3": "events_later"}


def set_zone(conn, zone):
    """A session TimeZone for every member, set between transactions."""
    conn.autocommit = True
    conn.cursor().execute(f"SET TIME ZONE {zone}")
    conn.autocommit = False


def stored(group):
    """'id=UTC time' of the rows in group's own partition, on its primary."""
    return su(P[group], "SELECT string_agg(id || '=' || to_char(at AT TIME ZONE 'UTC', "
                        f"'YYYY-MM-DD HH24:MI:SS'), ' ' ORDER BY id) FROM {PARTITION[group]}")


def expect_rows(what, want):
    for group in GROUPS:
        got = stored(group)
        if got != want[group]:
            fail(f"{what}: {group}'s {PARTITION[group]} holds {got!r}, expected "
                 f"{want[group]!r}")
    log(f"{what}: every row on its owner ({want})")


conn = connect(APP)
cur = conn.cursor()
D = datetime.datetime

# (a)
set_zone(conn, "9")
cur.execute("INSERT INTO events VALUES (?, ?)", 1, D(2026, 1, 1, 8, 59, 59))
cur.execute("INSERT INTO events VALUES (?, ?)", 2, D(2026, 1, 1, 9, 0, 0))
cur.execute("INSERT INTO events VALUES (?, ?)", 3, D(2026, 7, 1, 9, 0, 0))
conn.commit()
expect_rows("(a) TimeZone 9", {"G1": "1=2025-12-31 23:59:59", "G2": "2=2026-01-01 00:00:00",
                               "G3": "3=2026-07-01 00:00:00"})

# (b)
set_zone(conn, "'America/New_York'")
cur.execute("INSERT INTO events VALUES (?, ?)", 4, D(2025, 12, 31, 18, 59, 59))
cur.execute("INSERT INTO events VALUES (?, ?)", 5, D(2026, 6, 30, 19, 30, 0))
cur.execute("INSERT INTO events VALUES (?, ?)", 6, D(2026, 6, 30, 20, 0, 0))
cur.execute("INSERT INTO events VALUES (?, ?)", 7, datetime.date(2026, 7, 1))
cur.execute("INSERT INTO events VALUES (8, '2025-12-31 20:00')")
cur.execute("INSERT INTO events VALUES (?, ?)", 9, D(2026, 7, 1, 2, 0, 0))
cur.fast_executemany = True
cur.executemany("INSERT INTO events VALUES (?, ?)",
                [(10, D(2025, 6, 1, 12)), (11, D(2026, 3, 1, 12)), (12, D(2026, 9, 1, 12))])
cur.fast_executemany = False
conn.commit()
expect_rows("(b) America/New_York", {
    "G1": "1=2025-12-31 23:59:59 4=2025-12-31 23:59:59 10=2025-06-01 16:00:00",
    "G2": "2=2026-01-01 00:00:00 5=2026-06-30 23:30:00 8=2026-01-01 01:00:00 "
          "11=2026-03-01 17:00:00",
    "G3": "3=2026-07-01 00:00:00 6=2026-07-01 00:00:00 7=2026-07-01 04:00:00 "
          "9=2026-07-01 06:00:00 12=2026-09-01 16:00:00"})

# (c) 2026-07-01 02:00 again, now in Seoul (+9): 2026-06-30 17:00 UTC, G2.
set_zone(conn, "'Asia/Seoul'")
cur.execute("INSERT INTO events VALUES (?, ?)", 13, D(2026, 7, 1, 2, 0, 0))
conn.commit()
got = stored("G2")
if "13=2026-06-30 17:00:00" not in got:
    fail(f"(c) the Seoul row is not on G2 at 10:30 UTC: G2 holds {got!r}")
log("(c) the same local time in another zone placed by that zone")

conn.close()
nothing_left("after the test")
log("local-time keys placed on their owners")
