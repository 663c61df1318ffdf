"""Temporary tables through a global connection, with pyodbc's defaults
(autocommit off) unless a step says otherwise. Statements with parameters
go through SQLPrepare / SQLExecute, the others through SQLExecDirect
(pyodbc's rule; its error messages always end in "(SQLExecDirectW)",
whichever of the two failed). Every claim is checked on the servers, through the
helper (helper.sh of tests/integration/gcctl/lib.sh): pg_class says which
primary holds a temporary table, pg_stat_statements where statements ran.

usage: temp_client.py HELPER DSN KEY_OF_G1 KEY_OF_G2"""
import os
import subprocess
import sys
import time

import pyodbc

HELPER, DSN = sys.argv[1], sys.argv[2]
KEY_G1, KEY_G2 = int(sys.argv[3]), int(sys.argv[4])
PRIMARIES = ["G1N1", "G2N1"]
MEMBERS = ["G1N1", "G1N2", "G2N1", "G2N2"]
# Statements without a key go to G1; reads outside a transaction to a
# standby (LocalityMemberPolicy=3), so a read that has to follow its
# temporary table to the primary shows it.
CONN = "DSN=%s;LocalityGroupPolicy=1;LocalityGroupPath=G1;LocalityMemberPolicy=3" % DSN
down = set()
# The helper and the psql it runs get the environment without the sanitizer
# preload this interpreter may have been given.
CHILD_ENV = {k: v for k, v in os.environ.items() if k != "LD_PRELOAD"}


def fail(message):
    print("FAIL: " + message, file=sys.stderr)
    sys.exit(1)


def ok(message):
    print("ok: " + message)


def helper(*args):
    r = subprocess.run([HELPER, *args], capture_output=True, text=True, env=CHILD_ENV)
    if r.returncode != 0:
        fail("helper %s: %s" % (" ".join(args), r.stderr.strip()))
    return r.stdout.strip()


def su(member, query):
    return helper("su", member, query)


def holders(table):
    """The primaries whose catalog holds a temporary table of that name."""
    return [m for m in PRIMARIES if m not in down and
            su(m, "SELECT count(*) FROM pg_class WHERE relname = '%s' "
                  "AND relpersistence = 't'" % table) != "0"]


def calls(member, pattern):
    return int(su(member, "SELECT coalesce(sum(calls), 0) FROM pg_stat_statements "
                          "WHERE userid = 'app'::regrole AND query LIKE '%s'" % pattern))


def ran_only_on(member, pattern, n, what):
    """pg_stat_statements counts n calls matching pattern on member, none elsewhere."""
    for m in MEMBERS:
        if m in down:
            continue
        got = calls(m, pattern)
        want = n if m == member else 0
        if got != want:
            fail("%s: %s counts %d calls of '%s', expected %d" % (what, m, got, pattern, want))


def expect_error(cur, state, words, sql, *params):
    try:
        cur.execute(sql, *params)
    except pyodbc.Error as e:
        got = e.args[0] if e.args else "?"
        message = " ".join(str(a) for a in e.args[1:])
        if got != state:
            fail("%s: SQLSTATE %s (%s), expected %s" % (sql, got, message, state))
        for w in words:
            if w not in message:
                fail("%s: the message does not name %s: %s" % (sql, w, message))
        return message
    fail("%s: succeeded, expected %s" % (sql, state))


def scalar(cur, sql, *params):
    cur.execute(sql, *params)
    return cur.fetchone()[0]


def version(member):
    return su(member, "SELECT version FROM gcluster.version")


conn = pyodbc.connect(CONN)
if conn.autocommit:
    fail("pyodbc connected with autocommit on")
cur = conn.cursor()

# 1. Created on one primary; used from prepared and direct statements, and
# joined with the sharded table, all on that member.
cur.execute("CREATE TEMP TABLE tmpa (id bigint, note text)")
conn.commit()
if holders("tmpa") != ["G1N1"]:
    fail("tmpa is held by %s, expected G1N1 alone" % holders("tmpa"))
for i in range(1, 21):
    cur.execute("INSERT INTO tmpa VALUES (?, ?)", i, "prepared")
conn.commit()
cur.execute("INSERT INTO tmpa SELECT g, 'direct' FROM generate_series(21, 30) g")
conn.commit()
if scalar(cur, "SELECT count(*) FROM tmpa") != 30:
    fail("tmpa does not hold 30 rows")
if scalar(cur, "SELECT note FROM tmpa WHERE id = ?", 5) != "prepared":
    fail("the prepared read of tmpa")
if scalar(cur, "SELECT count(*) FROM tmpa t JOIN accounts a ON a.id = t.id") != 30:
    fail("the join of tmpa with the sharded table")
conn.commit()
ran_only_on("G1N1", "INSERT INTO tmpa VALUES ($1, $2)", 20, "prepared inserts")
ran_only_on("G1N1", "INSERT INTO tmpa SELECT g, $1 FROM generate_series%", 1, "direct insert")
ran_only_on("G1N1", "SELECT note FROM tmpa WHERE id = $1", 1, "prepared read")
ran_only_on("G1N1", "SELECT count(*) FROM tmpa t JOIN accounts a%", 1, "join")
ok("CREATE TEMP TABLE made tmpa on G1N1 alone; prepared and direct statements and a "
   "join with the sharded table ran there (pg_class, pg_stat_statements)")

# 2. Outside a transaction: SELECT ... INTO TEMP and the reads that name
# its table go to the primary that holds it, not to the standby reads go to.
conn.autocommit = True
cur.execute("SELECT id INTO TEMP tmpinto FROM accounts WHERE id <= 10")
if holders("tmpinto") != ["G1N1"]:
    fail("tmpinto is held by %s, expected G1N1" % holders("tmpinto"))
for _ in range(5):
    if scalar(cur, "SELECT count(*) AS intocheck FROM tmpinto") != 10:
        fail("tmpinto does not hold 10 rows")
ran_only_on("G1N1", "SELECT count(*) AS intocheck FROM tmpinto", 5, "autocommit reads")
before = calls("G1N2", "SELECT count(*) AS standbycheck FROM accounts")
for _ in range(5):
    scalar(cur, "SELECT count(*) AS standbycheck FROM accounts")
if calls("G1N2", "SELECT count(*) AS standbycheck FROM accounts") - before == 0:
    fail("reads without a temporary table did not reach the standby G1N2: the "
         "previous check proves nothing")
conn.autocommit = False
ok("SELECT ... INTO TEMP ran on the primary G1N1; reads naming it followed it there, "
   "while other reads went to the standby")

# 3. ON COMMIT DROP (its catalog row is never committed, so pg_class of
# another session never shows it): gone with its transaction in the driver (a later transaction pinned to G2 runs a statement naming it there,
# where PostgreSQL answers that it does not exist).
cur.execute("CREATE TEMP TABLE tmptx (a int) ON COMMIT DROP")
cur.execute("INSERT INTO tmptx VALUES (?)", 1)
if scalar(cur, "SELECT count(*) FROM tmptx") != 1:
    fail("tmptx inside its transaction")
conn.commit()
scalar(cur, "SELECT owner FROM accounts WHERE id = ?", KEY_G2)
message = expect_error(cur, "42P01", ["tmptx"], "SELECT count(*) FROM tmptx")
if "lost" in message:
    fail("tmptx was still registered after its transaction: " + message)
conn.rollback()
ok("ON COMMIT DROP: tmptx left the registry with its transaction")

# Catalog functions run on the connection's current member: in a
# transaction begun by a statement naming tmpa, SQLColumns sees it.
scalar(cur, "SELECT count(*) FROM tmpa")
columns = [row.column_name for row in cur.columns(table="tmpa")]
if columns != ["id", "note"]:
    fail("SQLColumns in a transaction pinned by tmpa gave %s" % columns)
conn.rollback()

# 4. A transaction pinned to G2N1 (by a keyed statement) cannot name tmpa:
# 0A000 naming both members, nothing sent (the transaction goes on).
if scalar(cur, "SELECT owner FROM accounts WHERE id = ?", KEY_G2) != "seed":
    fail("keyed read of G2")
expect_error(cur, "0A000", ["tmpa", "G1N1", "G2N1", "(90121)"], "SELECT count(*) AS pincheck FROM tmpa")
expect_error(cur, "0A000", ["tmpa", "G1N1", "G2N1", "(90121)"],
             "SELECT count(*) AS pincheck FROM tmpa WHERE id > ?", 0)
# ... and catalog functions, run on G2N1, do not see it.
columns = [row.column_name for row in cur.columns(table="tmpa")]
if columns != []:
    fail("SQLColumns on G2N1 saw tmpa: %s" % columns)
# In the pinned transaction, CREATE TEMP TABLE runs where it is pinned.
cur.execute("CREATE TEMP TABLE tmpg2 (a int)")
cur.execute("INSERT INTO tmpg2 VALUES (?)", 7)
conn.commit()
for m in MEMBERS:
    if calls(m, "%pincheck%") != 0:
        fail("the refused statement reached %s" % m)
if holders("tmpg2") != ["G2N1"]:
    fail("tmpg2 is held by %s, expected G2N1 (the pinned member)" % holders("tmpg2"))
ok("a transaction pinned to G2N1 got 0A000 naming tmpa, G1N1 and G2N1 (nothing sent, "
   "the transaction went on); SQLColumns there does not see tmpa (it does on G1N1); "
   "CREATE TEMP TABLE in it made tmpg2 on G2N1")

# 5. One statement naming temporary tables of two members: 0A000.
expect_error(cur, "0A000", ["tmpa", "tmpg2", "G1N1", "G2N1", "(90121)"], "SELECT * FROM tmpa, tmpg2")
conn.rollback()
# A transaction begun by a statement naming tmpa is pinned to G1N1: a keyed
# statement for G2's row runs there too (through postgres_fdw).
scalar(cur, "SELECT count(*) FROM tmpa")
if scalar(cur, "SELECT owner AS keycheck FROM accounts WHERE id = ?", KEY_G2) != "seed":
    fail("keyed read in a transaction pinned by tmpa")
conn.commit()
ran_only_on("G1N1", "SELECT owner AS keycheck FROM accounts WHERE id = $1", 1,
            "keyed read pinned by tmpa")
ok("tables of two members in one statement: 0A000; a transaction begun on tmpa stays on G1N1")

# 6. DDL on temporary tables runs on their member alone: no catalog version
# change; a DROP naming a temporary and a cluster table is refused first.
v1, v2 = version("G1N1"), version("G2N1")
expect_error(cur, "0A000", ["temporary"], "DROP TABLE tmpg2, accounts")
conn.rollback()
if holders("tmpg2") != ["G2N1"] or helper("app", "G2N1", "SELECT count(*) FROM accounts") != "40":
    fail("the refused DROP changed something")
cur.execute("ALTER TABLE tmpa ADD COLUMN extra int")
cur.execute("CREATE INDEX ON tmpa (id)")
conn.commit()
cur.execute("DROP TABLE tmpg2")
conn.commit()
if holders("tmpg2") != []:
    fail("DROP TABLE tmpg2 left it on %s" % holders("tmpg2"))
if scalar(cur, "SELECT count(extra) FROM tmpa") != 0:
    fail("tmpa's new column")
conn.commit()
if (version("G1N1"), version("G2N1")) != (v1, v2):
    fail("DDL on temporary tables raised the catalog version")
ok("DROP naming tmpg2 and accounts: 0A000, nothing dropped; ALTER, CREATE INDEX and "
   "DROP of temporary tables ran on their member, no cluster-wide DDL")

# 6b. A function whose body names a temporary table (psqlODBC's `premature`
# program): created on every group, its body not checked (checking it would
# touch tmpa on G1N1, after which PostgreSQL refuses to PREPARE, and find no
# tmpa on G2N1); with autocommit on and in a transaction. It runs where
# tmpa is. A body naming no temporary table is still checked: 42P01 for a
# missing table, nothing created anywhere.
def functions_named(name):
    return [m for m in PRIMARIES
            if su(m, "SELECT count(*) FROM pg_proc WHERE proname = '%s'" % name) != "0"]


conn.autocommit = True
cur.execute("CREATE OR REPLACE FUNCTION tmpins(n text) RETURNS text AS $$ INSERT INTO tmpa "
            "(id, note) VALUES (100, $1) RETURNING note $$ LANGUAGE sql")
conn.autocommit = False
cur.execute("CREATE FUNCTION tmpcount() RETURNS bigint AS 'SELECT count(*) FROM tmpa' "
            "LANGUAGE sql")
if scalar(cur, "SHOW check_function_bodies") != "on":
    fail("check_function_bodies stayed off in the transaction after CREATE FUNCTION")
conn.commit()
for name in ("tmpins", "tmpcount"):
    if functions_named(name) != PRIMARIES:
        fail("function %s is on %s, expected every primary" % (name, functions_named(name)))
scalar(cur, "SELECT count(*) FROM tmpa")
if scalar(cur, "SELECT tmpins(?)", "by function") != "by function":
    fail("tmpins did not insert into tmpa")
if scalar(cur, "SELECT tmpcount()") != 31:
    fail("tmpcount does not see tmpa's 31 rows")
conn.rollback()
expect_error(cur, "42P01", ["no_such_table"], "CREATE FUNCTION tmpbad() RETURNS bigint AS "
             "$$ SELECT count(*) FROM no_such_table $$ LANGUAGE sql")
conn.rollback()
if functions_named("tmpbad") != []:
    fail("the refused function tmpbad is on %s" % functions_named("tmpbad"))
cur.execute("DROP FUNCTION tmpins(text), tmpcount()")
conn.commit()
ok("CREATE FUNCTION naming tmpa in its body (autocommit and in a transaction) made it on "
   "every primary; it ran on tmpa's member; a body naming a missing table is still 42P01")

# 6c. A connection whose temporary tables all live on one member session
# sends there a statement that policy would place and that is not
# read-only, so a function using them works though policy says G1; a
# read-only statement keeps the policy.
conn3 = pyodbc.connect(CONN)
cur3 = conn3.cursor()
scalar(cur3, "SELECT owner FROM accounts WHERE id = ?", KEY_G2)
cur3.execute("CREATE TEMP TABLE tmpaff (a int)")
conn3.commit()
if holders("tmpaff") != ["G2N1"]:
    fail("tmpaff is held by %s, expected G2N1" % holders("tmpaff"))
conn3.autocommit = True
cur3.execute("CREATE FUNCTION tmpaffins(x int) RETURNS int AS $$ INSERT INTO tmpaff VALUES ($1) "
             "RETURNING a $$ LANGUAGE sql")
for _ in range(3):
    if scalar(cur3, "SELECT tmpaffins(?) AS affcall", 7) != 7:
        fail("tmpaffins did not insert into tmpaff")
    scalar(cur3, "SELECT count(*) AS affread FROM accounts")
ran_only_on("G2N1", "SELECT tmpaffins($1) AS affcall", 3, "calls of a function over tmpaff")
if calls("G2N1", "SELECT count(*) AS affread FROM accounts") != 0:
    fail("a read-only statement followed the temporary table to G2N1 instead of the policy")
cur3.execute("DROP FUNCTION tmpaffins(int)")
conn3.close()
ok("with its temporary table on G2N1, a connection whose policy says G1 ran a function over it "
   "on G2N1; read-only statements kept the policy")

# 7. SQL BEGIN with autocommit on: the temporary table is made where the
# transaction is pinned; it goes with the connection's sessions.
conn2 = pyodbc.connect(CONN, autocommit=True)
cur2 = conn2.cursor()
cur2.execute("BEGIN")
scalar(cur2, "SELECT owner FROM accounts WHERE id = ?", KEY_G2)
cur2.execute("CREATE TEMP TABLE tmpbegin (a int)")
cur2.execute("COMMIT")
if holders("tmpbegin") != ["G2N1"]:
    fail("tmpbegin is held by %s, expected G2N1" % holders("tmpbegin"))
conn2.close()
for _ in range(50):
    if holders("tmpbegin") == []:
        break
    time.sleep(0.1)
else:
    fail("tmpbegin outlived its connection")
ok("after SQL BEGIN, CREATE TEMP TABLE ran on the pinned G2N1; gone with the connection")

# 7b. A ROLLBACK undoes a CREATE TEMP TABLE and a DROP TABLE: the registry
# follows what the session holds after it. Made on G1N1 and rolled back,
# tmproll can be made again in a transaction pinned to G2N1 (before, 0A000
# said it lived on G1N1); dropped there and rolled back, it is still G2N1's
# and a transaction that names it first runs there.
conn.rollback()
cur.execute("CREATE TEMP TABLE tmproll (x int)")
conn.rollback()
ran_only_on("G1N1", "CREATE TEMP TABLE tmproll%", 1, "tmproll's first creation")
if holders("tmproll") != []:
    fail("tmproll outlived the rollback of its creation: %s" % holders("tmproll"))
scalar(cur, "SELECT owner FROM accounts WHERE id = ?", KEY_G2)
cur.execute("CREATE TEMP TABLE tmproll (x int)")
cur.execute("INSERT INTO tmproll VALUES (1)")
conn.commit()
if holders("tmproll") != ["G2N1"] or calls("G2N1", "CREATE TEMP TABLE tmproll%") != 1:
    fail("tmproll made again is held by %s, expected G2N1" % holders("tmproll"))
ran_only_on("G2N1", "INSERT INTO tmproll VALUES%", 1, "insert into tmproll made again")
cur.execute("DROP TABLE tmproll")
conn.rollback()
if scalar(cur, "SELECT count(*) AS droproll FROM tmproll") != 1:
    fail("tmproll after its drop was rolled back")
conn.commit()
ran_only_on("G2N1", "SELECT count(*) AS droproll FROM tmproll", 1, "read after a rolled-back drop")
ok("a rolled-back CREATE TEMP TABLE let the name be made on G2N1; a rolled-back DROP kept "
   "it there (pg_class, pg_stat_statements)")

# 8. Temporary views and sequences, and session functions, stay refused.
expect_error(cur, "0A000", ["CREATE TEMP VIEW"], "CREATE TEMP VIEW tv AS SELECT 1")
expect_error(cur, "0A000", ["CREATE TEMPORARY SEQUENCE"], "CREATE TEMPORARY SEQUENCE ts")
expect_error(cur, "0A000", ["pg_advisory_lock()"], "SELECT pg_advisory_lock(1)")
conn.rollback()
ok("temporary views and sequences and session functions are still refused")

# 9. Lost with its session (pg_terminate_backend): 42P01 naming the member,
# nothing sent elsewhere. A plain table of the same name on every primary
# would answer a statement sent to another member.
for m in PRIMARIES:
    helper("app", m, "CREATE TABLE tmplost (x int)")
cur.execute("CREATE TEMP TABLE tmplost AS SELECT 1 AS x")
conn.commit()
if holders("tmplost") != ["G1N1"]:
    fail("tmplost is held by %s, expected G1N1" % holders("tmplost"))
# A cursor that only ever runs this text: pyodbc prepares it once, so the
# run after the loss is a bare SQLExecute of a statement prepared before.
pcur = conn.cursor()
prepared_sql = "SELECT count(*) AS preparedcheck FROM tmpa WHERE id > ?"
if scalar(pcur, prepared_sql, 0) != 30:
    fail("tmpa before its loss")
conn.commit()
su("G1N1", "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
           "WHERE usename = 'app' AND application_name = 'gcodbc'")
time.sleep(1)
expect_error(cur, "42P01", ["tmplost", "lost", "G1N1", "(90120)"], "SELECT count(*) AS lostcheck FROM tmplost")
conn.rollback()
# The same prepared statement as before the loss (SQLExecute again).
expect_error(pcur, "42P01", ["tmpa", "lost", "G1N1", "(90120)"], prepared_sql, 0)
conn.rollback()
for m in MEMBERS:
    if calls(m, "%lostcheck%") != 0:
        fail("the statement naming the lost tmplost ran on %s" % m)
# Reported once, then forgotten: the name is an ordinary one again.
if scalar(cur, "SELECT count(*) AS lostcheck FROM tmplost") != 0:
    fail("tmplost, forgotten, should read the plain table")
conn.commit()
ok("after pg_terminate_backend of its session, tmplost and tmpa (prepared) gave 42P01 "
   "naming G1N1, nothing ran elsewhere; then the name was an ordinary one")

# Creating a lost table again (tmpinto, lost with G1N1's session and never
# named since) is not refused: the new one lives where the CREATE ran (G1N1,
# or G2N1 while G1N1's reconnect is still pending) and is used there.
cur.execute("CREATE TEMP TABLE tmpinto (id int)")
cur.execute("INSERT INTO tmpinto VALUES (?)", 1)
conn.commit()
if len(holders("tmpinto")) != 1 or scalar(cur, "SELECT count(*) FROM tmpinto") != 1:
    fail("tmpinto created again after its loss is held by %s" % holders("tmpinto"))
conn.commit()
ok("tmpinto, lost and never named since, was created again without a report, on %s"
   % holders("tmpinto")[0])

# 10. Lost with its member (kill -9 of G2N1's postmaster).
scalar(cur, "SELECT owner FROM accounts WHERE id = ?", KEY_G2)
cur.execute("CREATE TEMP TABLE tmpkill AS SELECT 1 AS x")
conn.commit()
if holders("tmpkill") != ["G2N1"]:
    fail("tmpkill is held by %s, expected G2N1" % holders("tmpkill"))
helper("app", "G1N1", "CREATE TABLE tmpkill (x int)")
helper("kill", "G2N1")
down.add("G2N1")
time.sleep(1)
expect_error(cur, "42P01", ["tmpkill", "lost", "G2N1", "(90120)"], "SELECT count(*) AS killcheck FROM tmpkill")
conn.rollback()
for m in MEMBERS:
    if m not in down and calls(m, "%killcheck%") != 0:
        fail("the statement naming the lost tmpkill ran on %s" % m)
ok("after kill -9 of G2N1, tmpkill gave 42P01 naming G2N1; nothing ran elsewhere")

# Standbys never ran a statement naming a temporary table.
for m in ("G1N2", "G2N2"):
    if calls(m, "%tmp%") != 0:
        fail("standby %s ran statements naming temporary tables" % m)
conn.close()
ok("no standby ran a statement naming a temporary table")
