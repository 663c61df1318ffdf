"""INSERTs that leave a sharded table's key to its sequence, through a
global connection (pyodbc, autocommit off unless said):
docs/global-connection.md, "INSERT without the key". The key exists only
once drawn; in a transaction, and for several rows in autocommit, the
driver draws the keys first (gcctl interleaves every group's copy of the
sequence, so any copy's value is unique in the cluster), writes them into
the INSERT and places it by them like any keyed write.

usage: xact_drawn_keys.py DSN HELPER FAILOVER_MD   (run by fault_clients.sh)

orders (id bigserial, item) is hash-sharded over G1, G2 and G3; tickets
(id int GENERATED ALWAYS AS IDENTITY, item) too. The witnesses:
pg_stat_statements on each group's primary (the INSERT with its key, by
owner; nothing written through postgres_fdw; the draws), the rows on their
owners, pg_prepared_xacts.

(a) In transactions, prepared (pyodbc's execute with a parameter): 30
    single-row INSERTs, each committed, and one transaction of 12. Every
    INSERT ran once, on its row's owner group's primary; no row went
    through postgres_fdw; 42 rows, 42 keys, each ending in the position of
    a group; the transaction of 12 committed on every group it wrote. The
    connection keeps keys drawn ahead (SequenceCache, default 32): its
    draws take 1, 2, 4, 8, 16, 32 keys, six draws for 42 INSERTs.
(a') A parameter array (pyodbc's fast_executemany) in a transaction runs
    row by row, each row's key drawn, each on its owner.
(b) RETURNING id gives the row's key; a rolled-back INSERT leaves no row.
(c) SQLExecDirect in a transaction (a literal, no parameter) is placed by
    its drawn key too. A DDL that changes the catalog drops the keys drawn
    ahead: the next INSERT draws again.
(d) Autocommit, several rows in one INSERT: all four rows land, on their
    owners, with two phases where they span groups; the row count is 4.
    One row in autocommit (VALUES or DEFAULT VALUES) runs as sent: no
    draw, its row lands. SQL BEGIN
    in autocommit mode, then INSERTs: drawn, each on its owner.
(e) An identity GENERATED ALWAYS: the drawn key goes in with OVERRIDING
    SYSTEM VALUE, in a transaction.
(f) The other ways to leave the key out, in a transaction: DEFAULT in
    its column, nextval('orders_id_seq') in it, an INSERT without a column list (the key DEFAULT, or past
    the row's values: tickets (item, id)), DEFAULT VALUES, and a DEFAULT
    row beside a keyed one, an INSERT ... SELECT (its query draws the
    keys: 12 rows on at least two owners), through a connection with SequenceCache=1
    (one draw per INSERT, as (g) and (h) need). Each is drawn and runs on
    its owner, nothing
    through postgres_fdw. What stays refused (0A000 / 90122, nothing
    sent): OVERRIDING named by the statement, a key computed in the
    text, rows that leave the key to two different forms.
(g) A draw the server refuses (no privilege on the sequence: 42501) fails
    the INSERT alone: as the transaction's first statement, and inside a
    transaction every group's primary joined (the draw then runs in it,
    behind a savepoint), which goes on and commits its other writes.
(h) kill -9 of the primary the draws go to (G1's): the next draw is made
    on another group's primary; the INSERTs of G2's and G3's keys commit,
    G1's keys fail with 08S01 (no primary in G1) and nothing else fails,
    nothing applies twice; G1's primary comes back."""
import pyodbc

from xact_lib import (GROUPS, calls, connect, expect_error, fail, helper, kill_member, log,
                      nothing_left, owners, primary, reset_statements, restart)

APP = "xkeys"
P = {g: primary(g) for g in GROUPS}
POSITION = {"G1": 1, "G2": 2, "G3": 3}
WITH_KEY = 'INSERT INTO orders (item, "id") VALUES%'
# What postgres_fdw sends the owner of a foreign partition it writes.
FORWARDED = "INSERT INTO public.orders%"
DRAW = "SELECT pg_catalog.nextval%"


def draws_made():
    """Draws of keys the driver made (since reset_statements), on all groups."""
    return sum(calls(P[g], DRAW) for g in GROUPS)


def by_owner(table="orders"):
    """{group: number of table's rows it owns}."""
    return {g: len(ids) for g, ids in owners(table).items()}


def all_keys(table="orders"):
    return sorted(i for ids in owners(table).values() for i in ids)


def check_keys(what, want_rows, table="orders"):
    keys = all_keys(table)
    if len(keys) != want_rows or len(set(keys)) != want_rows:
        fail(f"{what}: {len(keys)} rows with {len(set(keys))} keys, expected {want_rows} each")
    if any(k % 100 not in POSITION.values() for k in keys):
        fail(f"{what}: keys outside the interleave: {keys}")


def on_owners(what, before, sent=WITH_KEY):
    """Each owner ran the INSERT with its key (the text `sent`, since
    reset_statements) once per row it came to own since `before`
    (by_owner() then), and no group wrote through postgres_fdw."""
    rows = by_owner()
    for g in GROUPS:
        got, new = calls(P[g], sent), rows[g] - before[g]
        if got != new:
            fail(f"{what}: {P[g]} ran the INSERT with its key {got} times, owns {new} new rows")
        if calls(P[g], FORWARDED):
            fail(f"{what}: {P[g]} was written through postgres_fdw")


helper("app", "G1N1", "TRUNCATE orders, tickets")
reset_statements()
before = by_owner()
conn = connect(APP)
cur = conn.cursor()

# ---- (a) in transactions, prepared ----
for i in range(30):
    cur.execute("INSERT INTO orders (item) VALUES (?)", f"one-{i}")
    conn.commit()
for i in range(12):
    cur.execute("INSERT INTO orders (item) VALUES (?)", f"twelve-{i}")
conn.commit()
check_keys("(a)", 42)
on_owners("(a)", before)
rows = by_owner()
if sum(1 for g in GROUPS if rows[g]) < 3:
    fail(f"(a) 42 random keys should reach all three groups: {rows}")
draws = draws_made()
if draws != 6:
    fail(f"(a) {draws} draws for 42 INSERTs, expected 6 (1, 2, 4, 8, 16, 32 keys)")
nothing_left("(a)")
log(f"(a) 42 INSERTs without the key in transactions: each on its owner {rows}, nothing through "
    "postgres_fdw, 42 distinct keys of the interleave")

# ---- (a') a parameter array in a transaction: row by row, each drawn ----
reset_statements()
before = by_owner()
cur.fast_executemany = True
cur.executemany("INSERT INTO orders (item) VALUES (?)", [(f"array-{i}",) for i in range(8)])
cur.fast_executemany = False
conn.commit()
check_keys("(a')", 50)
on_owners("(a')", before)
nothing_left("(a')")
log("(a') a parameter array of 8 rows in a transaction: each row drawn and run on its owner")

# ---- (b) RETURNING, ROLLBACK ----
cur.execute("INSERT INTO orders (item) VALUES (?) RETURNING id", "returned")
key = cur.fetchone()[0]
conn.commit()
got = helper("app", "G1N1", f"SELECT item FROM orders WHERE id = {key}")
if got != "returned":
    fail(f"(b) RETURNING gave {key}, whose row holds {got!r}")
cur.execute("INSERT INTO orders (item) VALUES (?) RETURNING id", "rolled back")
gone = cur.fetchone()[0]
conn.rollback()
if helper("app", "G1N1", f"SELECT count(*) FROM orders WHERE id = {gone} OR item = 'rolled back'") != "0":
    fail(f"(b) the rolled-back INSERT of key {gone} left a row")
check_keys("(b)", 51)
log(f"(b) RETURNING gave the row's key {key}; a rolled-back INSERT ({gone}) left nothing")

# ---- (c) SQLExecDirect in a transaction ----
reset_statements()
cur.execute("INSERT INTO orders (item) VALUES ('direct')")
conn.commit()
check_keys("(c)", 52)
owner = helper("app", "G1N1", "SELECT s.group_name FROM orders a JOIN gcluster.shards s "
                             "ON s.name = a.tableoid::regclass::text WHERE a.item = 'direct'")
if calls(P[owner], WITH_KEY) != 1:
    fail(f"(c) the direct INSERT did not run on its owner {P[owner]}")
# The catalog changes (a DDL of this connection): what was drawn ahead
# under the old shard map is dropped, the next INSERT draws.
cur.execute("CREATE TABLE drawn_keys_ddl (a int)")
conn.commit()
reset_statements()
cur.execute("INSERT INTO orders (item) VALUES ('after ddl')")
conn.commit()
draws = draws_made()
if draws != 1:
    fail(f"(c) {draws} draws for the INSERT after a DDL, expected 1 (the kept keys dropped)")
cur.execute("DROP TABLE drawn_keys_ddl")
conn.commit()
# Under the new map: the first draw takes 1 key, the second 2, keeping 1.
cur.execute("INSERT INTO orders (item) VALUES ('keeps none')")
cur.execute("INSERT INTO orders (item) VALUES ('keeps one')")
conn.commit()
# ALTER SEQUENCE of the connection drops its kept keys too (they may lie
# above a restart), as a server session's cached values go with it.
cur.execute("ALTER SEQUENCE orders_id_seq RESTART WITH 700000")
conn.commit()
reset_statements()
cur.execute("INSERT INTO orders (item) VALUES ('after restart') RETURNING id")
restarted = cur.fetchone()[0]
conn.commit()
if draws_made() != 1 or restarted < 700000:
    fail(f"(c) after ALTER SEQUENCE ... RESTART the INSERT got key {restarted} with "
         f"{draws_made()} draws, expected one draw from 700000 on")
check_keys("(c)", 56)
log(f"(c) SQLExecDirect without a parameter: drawn and placed on {owner}; after a DDL, and after "
    f"ALTER SEQUENCE ... RESTART (key {restarted}), the keys drawn ahead are dropped")

# ---- (d) autocommit: several rows in one INSERT, and one row ----
auto = connect(APP + "auto", autocommit=True)
acur = auto.cursor()
reset_statements()
acur.execute("INSERT INTO orders (item) VALUES ('m1'), ('m2'), ('m3'), ('m4')")
if acur.rowcount != 4:
    fail(f"(d) the row count of the four-row INSERT is {acur.rowcount}")
check_keys("(d)", 60)
for g in GROUPS:
    if calls(P[g], FORWARDED):
        fail(f"(d) {P[g]} was written through postgres_fdw")
spans = sum(1 for g in GROUPS if calls(P[g], WITH_KEY))
prepared_on = sum(calls(P[g], "PREPARE TRANSACTION%") for g in GROUPS)
if spans > 1 and prepared_on != spans - 1:
    fail(f"(d) the rows went to {spans} groups, {prepared_on} prepared")
draws = draws_made()
acur.execute("INSERT INTO orders (item) VALUES ('single')")
# DEFAULT VALUES is one row too: the member's own sequence places it,
# through postgres_fdw when another group owns it, as one remote write.
for i in range(6):
    acur.execute("INSERT INTO orders DEFAULT VALUES")
if draws_made() != draws:
    fail("(d) a one-row INSERT in autocommit drew its key in the driver")
helper("app", "G1N1", "DELETE FROM orders WHERE item IS NULL")
check_keys("(d)", 61)
nothing_left("(d)")
log(f"(d) autocommit: four rows in one INSERT on {spans} group(s), {prepared_on} prepared; one row "
    "as sent")

# ---- (d') a transaction opened by SQL BEGIN in autocommit mode ----
reset_statements()
before = by_owner()
acur.execute("BEGIN")
for i in range(4):
    acur.execute("INSERT INTO orders (item) VALUES (?)", f"begun-{i}")
acur.execute("COMMIT")
check_keys("(d')", 65)
on_owners("(d')", before)
nothing_left("(d')")
log("(d') SQL BEGIN, four INSERTs without the key, COMMIT: each on its owner")

# ---- (e) identity GENERATED ALWAYS ----
reset_statements()
for i in range(6):
    cur.execute("INSERT INTO tickets (item) VALUES (?)", f"t{i}")
conn.commit()
check_keys("(e)", 6, table="tickets")
for g in GROUPS:
    if calls(P[g], "INSERT INTO public.tickets%"):
        fail(f"(e) {P[g]} was written through postgres_fdw")
total = sum(calls(P[g], 'INSERT INTO tickets (item, "id") OVERRIDING SYSTEM VALUE VALUES%')
            for g in GROUPS)
if total != 6:
    fail(f"(e) {total} INSERTs with OVERRIDING SYSTEM VALUE ran, expected 6")
log("(e) identity GENERATED ALWAYS: six keys drawn, sent with OVERRIDING SYSTEM VALUE")

# From here on a connection that draws for every INSERT (SequenceCache=1):
# (f) counts its draws, and (g) and (h) need each INSERT to draw.
conn.close()
conn = connect(APP + "1", ";SequenceCache=1")
cur = conn.cursor()

# ---- (f) DEFAULT, no column list, DEFAULT VALUES ----
reset_statements()
before = by_owner()
for i in range(3):
    cur.execute("INSERT INTO orders (id, item) VALUES (DEFAULT, ?)", f"default-{i}")
    cur.execute("INSERT INTO orders VALUES (DEFAULT, ?)", f"no-list-{i}")
    cur.execute("INSERT INTO orders DEFAULT VALUES")
    cur.execute("INSERT INTO orders (id, item) VALUES (nextval('orders_id_seq'), ?)", f"nv-{i}")
    conn.commit()
check_keys("(f)", 77)
on_owners("(f)", before, sent="INSERT INTO orders %")
if helper("app", "G1N1", "SELECT count(*) FROM orders WHERE item IS NULL") != "3":
    fail("(f) DEFAULT VALUES did not leave three rows of its own")
draws = draws_made()
if draws != 12:
    fail(f"(f) {draws} draws for 12 INSERTs")
# One DEFAULT row beside a keyed one: one key drawn, both rows land.
cur.execute("INSERT INTO orders (id, item) VALUES (DEFAULT, 'beside'), (90001, 'keyed')")
conn.commit()
check_keys("(f)", 79)
if helper("app", "G1N1", "SELECT count(*) FROM orders WHERE item IN ('beside', 'keyed') "
                         "AND (id = 90001) = (item = 'keyed')") != "2":
    fail("(f) the DEFAULT row beside a keyed one")
# INSERT ... SELECT with a column list without the key: the query draws
# the keys (nextval where the driver runs it), the rows go to their owners.
reset_statements()
cur.execute("INSERT INTO orders (item) SELECT 'selected-' || g FROM generate_series(1, 12) g")
if cur.rowcount != 12:
    fail(f"(f) INSERT ... SELECT of 12 rows reported {cur.rowcount}")
conn.commit()
check_keys("(f)", 91)
if any(calls(P[g], FORWARDED) for g in GROUPS):
    fail("(f) INSERT ... SELECT wrote through postgres_fdw")
if sum(1 for g in GROUPS if calls(P[g], 'INSERT INTO orders (item, "id") VALUES%')) < 2:
    fail("(f) INSERT ... SELECT's 12 rows did not reach two owners")
# tickets (item, id GENERATED ALWAYS): no column list, the key DEFAULT or
# past the row's one value; sent with OVERRIDING SYSTEM VALUE.
reset_statements()
for i in range(3):
    cur.execute("INSERT INTO tickets VALUES (?)", f"short-{i}")
    cur.execute("INSERT INTO tickets VALUES (?, DEFAULT)", f"default-{i}")
conn.commit()
check_keys("(f)", 12, table="tickets")
total = sum(calls(P[g], "INSERT INTO tickets OVERRIDING SYSTEM VALUE VALUES%") for g in GROUPS)
if total != 6 or any(calls(P[g], "INSERT INTO public.tickets%") for g in GROUPS):
    fail(f"(f) {total} of 6 INSERTs into tickets ran with OVERRIDING SYSTEM VALUE on their owners")
nothing_left("(f)")
# What is not drawn stays refused, nothing sent.
reset_statements()
for sql in ("INSERT INTO orders (item) OVERRIDING USER VALUE VALUES ('overriding')",
            "INSERT INTO orders (id, item) VALUES (1 + 1, 'computed')",
            "INSERT INTO orders VALUES (DEFAULT, 'm1'), (nextval('orders_id_seq'), 'm2')"):
    expect_error(f"(f) {sql}", lambda: cur.execute(sql), "0A000", 90122)
    conn.rollback()
for g in GROUPS:
    if calls(P[g], "INSERT INTO orders%"):
        fail(f"(f) a refused INSERT reached {P[g]}")
check_keys("(f)", 91)
log("(f) DEFAULT as the key, no column list (DEFAULT or past the row), DEFAULT VALUES, a DEFAULT "
    "row beside a keyed one, INSERT ... SELECT: drawn, each on its owner; OVERRIDING and a "
    "computed key refused")
# ---- (g) a draw that fails fails the INSERT alone ----
# Without USAGE on the sequence (the owner revokes it from itself on every
# group) the draw is refused, 42501. As a transaction's first statement it
# leaves nothing; after writes on every group (every primary holds part of
# the transaction: the draw runs inside it, behind its savepoint) the
# transaction goes on and commits its other writes.
helper("app", "G1N1", "INSERT INTO accounts SELECT g, 100 FROM generate_series(1, 30) g")
accounts = owners("accounts")
for g in GROUPS:
    helper("app", P[g], "REVOKE USAGE, SELECT, UPDATE ON SEQUENCE orders_id_seq FROM app")
expect_error("(g) first statement", lambda: cur.execute("INSERT INTO orders (item) VALUES (?)", "g"),
             "42501")
conn.rollback()
for g in GROUPS:
    cur.execute("UPDATE accounts SET balance = balance + 1 WHERE id = ?", accounts[g][0])
expect_error("(g) every group joined", lambda: cur.execute("INSERT INTO orders (item) VALUES (?)", "g"),
             "42501")
cur.execute("UPDATE accounts SET balance = balance + 1 WHERE id = ?", accounts["G1"][0])
conn.commit()
got = helper("app", "G1N1", "SELECT string_agg(balance::text, ',' ORDER BY id) FROM accounts WHERE id IN "
             f"({accounts['G1'][0]}, {accounts['G2'][0]}, {accounts['G3'][0]})")
want = ",".join(str(b) for _, b in sorted((accounts[g][0], 102 if g == "G1" else 101) for g in GROUPS))
if got != want:
    fail(f"(g) the transaction around the refused draw committed balances {got}, expected {want}")
for g in GROUPS:
    helper("app", P[g], "GRANT USAGE, SELECT, UPDATE ON SEQUENCE orders_id_seq TO app")
check_keys("(g)", 91)
nothing_left("(g)")
log("(g) a draw refused (42501) fails its INSERT alone: first statement, and inside a transaction "
    "every group joined, which then committed")

# ---- (h) the draw's member killed ----
# kill -9 of G1's primary, the member the draws went to: the next draw
# breaks there and is made on another group's primary; the INSERTs whose
# keys G2 and G3 own commit, those G1 owns fail (its primary is down),
# none applies twice. Then G1's primary comes back.
kill_member(P["G1"], APP + "1")
landed, refused = [], []
for i in range(12):
    try:
        cur.execute("INSERT INTO orders (item) VALUES (?) RETURNING id", f"after-kill-{i}")
        landed.append(cur.fetchone()[0])
        conn.commit()
    except pyodbc.Error as e:
        # Only the rows of G1's keys may fail, and only for want of G1's
        # primary: a draw that broke must have been made again elsewhere.
        if e.args[0] != "08S01" or "writes in group G1, which has no primary" not in str(e):
            fail(f"(h) INSERT {i} after the kill: {e}")
        refused.append(i)
        conn.rollback()
if len(landed) < 3 or any(k % 100 == 1 for k in landed):
    fail(f"(h) after the kill: keys {landed} landed (refused {refused}); expected some, none drawn on G1")
restart(P["G1"])
got = helper("app", "G1N1", "SELECT count(*) FROM orders WHERE item LIKE 'after-kill-%'")
if got != str(len(landed)):
    fail(f"(h) {got} rows after the kill, {len(landed)} INSERTs answered success")
check_keys("(h)", 91 + len(landed))
nothing_left("(h)")
log(f"(h) G1's primary killed: {len(landed)} INSERTs drew on another group and landed, "
    f"{len(refused)} with keys of G1 refused (08S01, no primary)")
print("PASS")
