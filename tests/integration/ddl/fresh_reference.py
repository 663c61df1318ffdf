"""Two connections of one application: `early` connects (and reads its
shard map) first, then `other` creates a solo table on group G1, then
`early`, whose policy says G2, at once creates a table referencing it. The
driver must place the new table by what each group's primary says now, not
by a shard map read before the referenced table existed. Prints `ok` or
`error SQLSTATE MESSAGE` for the last statement.
usage: fresh_reference.py DSN"""
import sys

import pyodbc


def main():
    dsn = sys.argv[1]
    early = pyodbc.connect(dsn + ";LocalityGroupPolicy=1;LocalityGroupPath=G2", autocommit=True)
    early.cursor().execute("SELECT 1").fetchall()
    other = pyodbc.connect(dsn + ";LocalityGroupPolicy=1;LocalityGroupPath=G1", autocommit=True)
    other.cursor().execute("CREATE TABLE fresh_parent (id int PRIMARY KEY)")
    other.close()
    try:
        early.cursor().execute(
            "CREATE TABLE fresh_child (id int, p int REFERENCES fresh_parent (id))")
        print("ok")
    except pyodbc.Error as e:
        print("error", e.args[0], " ".join(str(a) for a in e.args[1:]).replace("\n", " "))
    early.close()


main()
