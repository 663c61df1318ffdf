"""Asks the catalog functions about one table through a DSN, ROUNDS times,
with a statement routed by the group policy before each round (so a random
LocalityGroupPolicy moves the connection from group to group), and prints
one line per round: SQLTables' TABLE_TYPE | primary key columns | unique index names | column
names | foreign keys' referenced tables | SQLTables' TABLE_TYPE for a pattern
matching the table (answered by whichever member the connection is on).
usage: solo_catalog.py CONNECTION-STRING TABLE ROUNDS"""
import sys

import pyodbc


def main():
    cs, table, rounds = sys.argv[1], sys.argv[2], int(sys.argv[3])
    conn = pyodbc.connect(cs, autocommit=True)
    cur = conn.cursor()
    for _ in range(rounds):
        cur.execute("SELECT 1").fetchall()
        # First, while the connection is still where the policy put it.
        by_pattern = ",".join(r.table_type for r in cur.tables(table=table[:-1] + "%"))
        pk = ",".join(r.column_name for r in cur.primaryKeys(table))
        idx = ",".join(sorted(r.index_name for r in cur.statistics(table, unique=True)
                              if r.index_name is not None))
        cols = ",".join(r.column_name for r in cur.columns(table))
        fks = ",".join(r.pktable_name for r in cur.foreignKeys(foreignTable=table))
        kind = ",".join(r.table_type for r in cur.tables(table=table))
        print(f"{kind}|{pk}|{idx}|{cols}|{fks}|{by_pattern}")
    conn.close()


main()
