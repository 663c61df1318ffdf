"""A table one connection makes, written at once by another connection:
the writer must route by the new catalog, even when the creator's DDL
returned a few milliseconds after the writer last looked for news
(docs/global-connection.md, "Topology changes").

usage: fresh_table_client.py DSN ROUNDS

Connection A (LocalityGroupPolicy path G1) makes solo tables on G1:
fresh_0 ... fresh_{ROUNDS-1}, each `(id serial PRIMARY KEY, t text)`.
Connection B (path G2, autocommit off, pyodbc's default) runs `SELECT 1`
and commits just before each CREATE TABLE, then INSERTs into the new table
without the key and commits. Routed by B's old shard map the INSERT would
go to G2, where the table is a foreign twin: refused in a transaction
(0A000). Prints `ok ROUNDS` when every INSERT committed with a key, else
`error ROUND SQLSTATE MESSAGE`. A then drops the tables, in one
statement."""
import sys

import pyodbc

dsn, rounds = sys.argv[1], int(sys.argv[2])
a = pyodbc.connect(f"DSN={dsn};LocalityGroupPolicy=1;LocalityGroupPath=G1", autocommit=True)
b = pyodbc.connect(f"DSN={dsn};LocalityGroupPolicy=1;LocalityGroupPath=G2", autocommit=False)
for i in range(rounds):
    b.execute("SELECT 1").fetchall()
    b.commit()
    a.execute(f"CREATE TABLE fresh_{i} (id serial PRIMARY KEY, t text)")
    try:
        b.execute(f"INSERT INTO fresh_{i} (t) VALUES ('b')")
        b.commit()
        key = b.execute(f"SELECT id FROM fresh_{i}").fetchone()[0]
        b.commit()
        if key is None:
            print("error", i, "-", "the row has no key")
            sys.exit(0)
    except pyodbc.Error as e:
        print("error", i, e.args[0], " ".join(str(x) for x in e.args[1:]).replace("\n", " "))
        sys.exit(0)
print("ok", rounds)
a.execute("DROP TABLE " + ", ".join(f"fresh_{i}" for i in range(rounds)))
