"""Asks the catalog functions about one table through a DSN, ROUNDS times,
with a statement routed by the group policy before each round (so a random
LocalityGroupPolicy moves the connection from group to group), and prints
one line per round: SQLTables' TABLE_TYPE | primary key columns | unique index names | column
names | foreign keys' referenced tables | SQLTables' TABLE_TYPE for a pattern
matching the table (answered by whichever member the connection is on).
With `manual OWNER-CONNECTION-STRING`, autocommit is off (pyodbc's
default): the statement before each round opens the transaction the round's
catalog functions run in, rolled back at the round's end; before that, the
line ends with `|` and the number of the application's other sessions on the
owner's server (a general connection to it) that are in a transaction. With
`ddl` instead of `manual`, the transaction also adds a column `in_txn` to
the table before the catalog functions run.
usage: solo_catalog.py CONNECTION-STRING TABLE ROUNDS [manual|ddl OWNER-CONNECTION-STRING]"""
import sys

import pyodbc


def main():
    cs, table, rounds = sys.argv[1], sys.argv[2], int(sys.argv[3])
    mode = sys.argv[4] if len(sys.argv) > 4 else "autocommit"
    manual = mode in ("manual", "ddl")
    conn = pyodbc.connect(cs, autocommit=not manual)
    owner = pyodbc.connect(sys.argv[5], autocommit=True).cursor() if manual else None
    cur = conn.cursor()
    for _ in range(rounds):
        cur.execute("SELECT 1").fetchall()
        if mode == "ddl":
            cur.execute(f"ALTER TABLE {table} ADD COLUMN in_txn int")
        # First, while the connection is still where the policy put it.
        by_pattern = ",".join(r.table_type for r in cur.tables(table=table[:-1] + "%"))
        pk = ",".join(r.column_name for r in cur.primaryKeys(table))
        idx = ",".join(sorted(r.index_name for r in cur.statistics(table, unique=True)
                              if r.index_name is not None))
        cols = ",".join(r.column_name for r in cur.columns(table))
        fks = ",".join(r.pktable_name for r in cur.foreignKeys(foreignTable=table))
        kind = ",".join(r.table_type for r in cur.tables(table=table))
        line = f"{kind}|{pk}|{idx}|{cols}|{fks}|{by_pattern}"
        if manual:
            owner.execute("SELECT count(*) FROM pg_stat_activity WHERE usename = current_user "
                          "AND pid <> pg_backend_pid() AND xact_start IS NOT NULL")
            line += f"|{owner.fetchone()[0]}"
            conn.rollback()
        print(line)
    conn.close()


main()
