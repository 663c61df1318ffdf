"""Catalog functions as a pyodbc application calls them.

cursor.tables(), columns(), primaryKeys(), foreignKeys(), statistics(),
rowIdColumns(), procedures(), getTypeInfo() against the DSN in GC_TEST_DSN,
in a schema of its own (catalog_py). Run with Debian's /usr/bin/python3
(python3-pyodbc). Exits non-zero on the first failed check.

The schema is made and dropped through a second connection of the same DSN
with GlobalConnection=No: the DSN itself on a single server, the first seed
server (where statements without a sharding key run) through a global
connection, whose cluster cannot hold an index on a table that is foreign on
the other groups (docs/testing.md).
"""
import os
import sys

import pyodbc

SCHEMA = "catalog_py"


def check(cond, what):
    if not cond:
        print("FAIL:", what)
        sys.exit(1)


def main():
    dsn = os.environ.get("GC_TEST_DSN", "gcodbc_test")
    setup_cn = pyodbc.connect(f"DSN={dsn};GlobalConnection=No", autocommit=True)
    setup = setup_cn.cursor()
    setup.execute(f"DROP SCHEMA IF EXISTS {SCHEMA} CASCADE")
    setup.execute(f"CREATE SCHEMA {SCHEMA}")
    setup.execute(f"CREATE TABLE {SCHEMA}.dept (id int PRIMARY KEY, name varchar(30) NOT NULL)")
    setup.execute(f"CREATE TABLE {SCHEMA}.emp (id bigint PRIMARY KEY,"
                  f" dept_id int REFERENCES {SCHEMA}.dept(id), nm text DEFAULT 'x',"
                  f" hired date)")
    setup.execute(f"CREATE INDEX emp_nm_idx ON {SCHEMA}.emp (nm)")
    setup.execute(f"CREATE VIEW {SCHEMA}.emp_v AS SELECT id, nm FROM {SCHEMA}.emp")
    setup.execute(f"CREATE FUNCTION {SCHEMA}.twice(x int) RETURNS int LANGUAGE sql"
                  f" AS 'SELECT 2 * x'")
    cn = pyodbc.connect("DSN=" + dsn, autocommit=True)
    cur = cn.cursor()
    db = cur.execute("SELECT current_database()").fetchone()[0]

    rows = cur.tables(schema=SCHEMA).fetchall()
    got = [(r.table_cat, r.table_schem, r.table_name, r.table_type) for r in rows]
    check(got == [(db, SCHEMA, "dept", "TABLE"), (db, SCHEMA, "emp", "TABLE"),
                  (db, SCHEMA, "emp_v", "VIEW")], f"tables(): {got}")
    rows = cur.tables(table="emp%", schema=SCHEMA, tableType="VIEW").fetchall()
    check([r.table_name for r in rows] == ["emp_v"], "tables(tableType=VIEW)")

    cols = cur.columns(table="emp", schema=SCHEMA).fetchall()
    check([c.column_name for c in cols] == ["id", "dept_id", "nm", "hired"],
          f"columns(): {[c.column_name for c in cols]}")
    check([c.ordinal_position for c in cols] == [1, 2, 3, 4], "columns() ordinal_position")
    check(cols[0].data_type == pyodbc.SQL_BIGINT and cols[0].type_name == "int8",
          "columns(): id is SQL_BIGINT int8")
    check(cols[0].nullable == 0 and cols[0].is_nullable == "NO", "columns(): id NOT NULL")
    check(cols[2].column_def == "'x'::text", f"columns(): nm default {cols[2].column_def!r}")
    check(cols[3].data_type == pyodbc.SQL_TYPE_DATE and cols[3].sql_data_type == 9
          and cols[3].sql_datetime_sub == 1, "columns(): hired is a date")
    # The description pyodbc gives for a query agrees with columns().
    cur.execute(f"SELECT * FROM {SCHEMA}.emp")
    check([d[1] for d in cur.description] == [int, int, str, __import__("datetime").date],
          f"description types: {cur.description}")

    pk = cur.primaryKeys("emp", schema=SCHEMA).fetchall()
    check([(r.column_name, r.key_seq, r.pk_name) for r in pk] == [("id", 1, "emp_pkey")],
          "primaryKeys()")

    fk = cur.foreignKeys(foreignTable="emp", foreignSchema=SCHEMA).fetchall()
    check([(r.pktable_name, r.pkcolumn_name, r.fktable_name, r.fkcolumn_name) for r in fk]
          == [("dept", "id", "emp", "dept_id")], "foreignKeys(foreignTable=emp)")
    fk = cur.foreignKeys(table="dept", schema=SCHEMA).fetchall()
    check([r.fktable_name for r in fk] == ["emp"], "foreignKeys(table=dept)")

    st = cur.statistics("emp", schema=SCHEMA).fetchall()
    check(st[0].type == 0 and st[0].index_name is None, "statistics(): table row first")
    check([(r.index_name, r.column_name, r.non_unique) for r in st[1:]]
          == [("emp_pkey", "id", 0), ("emp_nm_idx", "nm", 1)],
          f"statistics(): {[(r.index_name, r.column_name) for r in st]}")
    st = cur.statistics("emp", schema=SCHEMA, unique=True).fetchall()
    check([r.index_name for r in st[1:]] == ["emp_pkey"], "statistics(unique=True)")

    rid = cur.rowIdColumns("emp", schema=SCHEMA).fetchall()
    check([r.column_name for r in rid] == ["id"], "rowIdColumns()")

    procs = cur.procedures(schema=SCHEMA).fetchall()
    check([p.procedure_name for p in procs] == ["twice"], "procedures()")

    types = cur.getTypeInfo(pyodbc.SQL_INTEGER).fetchall()
    check([t.type_name for t in types] == ["int4"], "getTypeInfo(SQL_INTEGER)")
    check(len(cur.getTypeInfo().fetchall()) >= 15, "getTypeInfo() lists the mapped types")

    cn.close()
    setup.execute(f"DROP SCHEMA {SCHEMA} CASCADE")
    setup_cn.close()
    print("pyodbc catalog checks passed")


if __name__ == "__main__":
    main()
