"""Session-level SET inside an open transaction of a global connection
(pyodbc, autocommit off: every statement after the first is inside one):
docs/global-connection.md, "SET and RESET". As on one server, the setting
holds at once, stays when the transaction commits, and goes when it rolls
back or rolls back to a savepoint set before it. Before, it was refused
(0A000 / 90110).

usage: xact_settings.py DSN HELPER FAILOVER_MD   (run by fault_clients.sh)

The witness: setting_notes rows written with current_setting('work_mem') by a key
of each group, so each row is written by that group's primary's session
of the connection and read back on its owner.

(a) A SELECT, SET work_mem = '7MB', SHOW (7MB), ROLLBACK: every group's
    session has the default again.
(b) UPDATE on G1 (pin), UPDATE on G2 (joins), SET '9MB', UPDATE on G3
    (joins after the SET): inside the transaction all three sessions have
    9MB; COMMIT; then every group's, in autocommit.
(c) SAVEPOINT s, SET '11MB', ROLLBACK TO s, then G2 joins: the setting is
    gone on the pin and never reaches G2; 9MB stays.
(d) SAVEPOINT s, SET '12MB', RELEASE s, G2 joins: it gets 12MB; after
    COMMIT every group has it.
(e) With autocommit on, BEGIN; SET '13MB'; COMMIT with nothing between:
    every group has 13MB; BEGIN; SET '14MB'; ROLLBACK: 13MB stays.
(f) A value the server refuses (22023) inside a transaction: the
    statement alone fails (RollbackOnError=2), the transaction commits,
    the setting is unchanged.
(g) SET search_path TO a schema without accounts inside a transaction,
    then ROLLBACK (SQLEndTran): the driver finds accounts in its shard map
    by the search_path in force again, so a write by key, each the first
    statement of a transaction, runs on its owner in every group (by the
    undone search_path it would go by policy and be refused through
    postgres_fdw in two cases of three).
(h) With autocommit off a SET as the transaction's first statement opens
    it, as the driver's BEGIN goes before any statement: ROLLBACK leaves
    every group at the value before (before, it was applied everywhere
    at once, as between transactions, and stayed); a COMMIT applies it
    everywhere."""
from xact_lib import GROUPS, connect, expect_error, fail, helper, log, owners, primary, su

APP = "xsettings"
P = {g: primary(g) for g in GROUPS}
helper("app", "G1N1", "INSERT INTO accounts SELECT g, 100 FROM generate_series(1, 30) g")
helper("app", "G1N1", "INSERT INTO setting_notes SELECT g, '' FROM generate_series(1, 30) g")
ACC = {g: ids[0] for g, ids in owners().items()}
NOTE = {g: ids[0] for g, ids in owners("setting_notes").items()}
log(f"accounts {ACC}, setting_notes {NOTE}")

conn = connect(APP)
cur = conn.cursor()


def note_settings(tag):
    """Each group's session of the connection writes its work_mem into its
    note (in the open transaction, or on its own with autocommit on)."""
    for g in GROUPS:
        cur.execute("UPDATE setting_notes SET v = ? || current_setting('work_mem') WHERE id = ?",
                    tag + ":", NOTE[g])


def expect_notes(what, tag, want):
    for g in GROUPS:
        got = su(P[g], f"SELECT v FROM setting_notes WHERE id = {NOTE[g]}")
        if got != f"{tag}:{want}":
            fail(f"{what}: {g}'s session had {got!r}, expected {tag}:{want}")
    log(f"{what}: every group's session has work_mem {want}")


def settings_everywhere(what, tag, want):
    """In autocommit, as between transactions."""
    conn.autocommit = True
    note_settings(tag)
    conn.autocommit = False
    expect_notes(what, tag, want)


def update(g):
    cur.execute("UPDATE accounts SET balance = balance + 1 WHERE id = ?", ACC[g])


# (a)
cur.execute("SELECT count(*) FROM accounts").fetchall()
cur.execute("SET work_mem = '7MB'")
shown = cur.execute("SHOW work_mem").fetchone()[0]
if shown != "7MB":
    fail(f"(a) SHOW in the transaction gave {shown}, expected 7MB")
conn.rollback()
settings_everywhere("(a) after ROLLBACK", "a", "4MB")

# (b)
update("G1")
update("G2")
cur.execute("SET work_mem = '9MB'")
update("G3")
note_settings("b")
conn.commit()
expect_notes("(b) inside the transaction", "b", "9MB")
settings_everywhere("(b) after COMMIT", "b2", "9MB")

def set_in_savepoint(value, end, tag):
    """In a transaction pinned on G1: SAVEPOINT s, SET work_mem, then end
    (ROLLBACK TO or RELEASE) s; G2 joins after; every group's session
    notes its setting; COMMIT."""
    update("G1")
    cur.execute("SAVEPOINT s")
    cur.execute(f"SET work_mem = '{value}'")
    cur.execute(f"{end} SAVEPOINT s")
    update("G2")
    note_settings(tag)
    conn.commit()


# (c)
set_in_savepoint("11MB", "ROLLBACK TO", "c")
expect_notes("(c) after ROLLBACK TO", "c", "9MB")

# (d)
set_in_savepoint("12MB", "RELEASE", "d")
expect_notes("(d) inside the transaction, after RELEASE", "d", "12MB")
settings_everywhere("(d) after COMMIT", "d2", "12MB")

# (e)
conn.autocommit = True
cur.execute("BEGIN")
cur.execute("SET work_mem = '13MB'")
cur.execute("COMMIT")
cur.execute("BEGIN")
cur.execute("SET work_mem = '14MB'")
cur.execute("ROLLBACK")
conn.autocommit = False
settings_everywhere("(e) BEGIN; SET; COMMIT, then BEGIN; SET; ROLLBACK", "e", "13MB")

# (f)
update("G1")
expect_error("(f) a refused value", lambda: cur.execute("SET work_mem = 'lots'"), "22023")
update("G2")
conn.commit()
settings_everywhere("(f) after the refused SET and COMMIT", "f", "13MB")

# (g)
update("G1")
cur.execute("SET search_path TO pg_catalog")
conn.rollback()
for g in GROUPS:
    update(g)
    conn.commit()
log("(g) after a rolled-back SET search_path, writes by key find their owners again")

# (h)
cur.execute("SET work_mem = '15MB'")
shown = cur.execute("SHOW work_mem").fetchone()[0]
if shown != "15MB":
    fail(f"(h) SHOW after a first-statement SET gave {shown}, expected 15MB")
conn.rollback()
settings_everywhere("(h) a SET opening the transaction, rolled back", "h", "13MB")
cur.execute("SET work_mem = '16MB'")
update("G2")
conn.commit()
settings_everywhere("(h) a SET opening the transaction, committed", "h2", "16MB")

conn.close()
log("session settings inside transactions hold, commit and roll back as on one server")
