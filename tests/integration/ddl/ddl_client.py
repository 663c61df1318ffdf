"""Runs one statement through a DSN with pyodbc and prints what the
application sees: `ok ROWCOUNT`, then `info SQLSTATE MESSAGE` per warning,
or `error SQLSTATE MESSAGE`. usage: ddl_client.py DSN [--manual] SQL"""
import sys

import pyodbc


def main():
    args = sys.argv[1:]
    manual = "--manual" in args
    args = [a for a in args if a != "--manual"]
    dsn, sql = args
    conn = pyodbc.connect("DSN=" + dsn, autocommit=not manual)
    cur = conn.cursor()
    try:
        cur.execute(sql)
        print("ok", cur.rowcount)
        for state, message in cur.messages or []:
            print("info", state, message)
    except pyodbc.Error as e:
        state = e.args[0] if e.args else "?"
        print("error", state, " ".join(str(a) for a in e.args[1:]).replace("\n", " "))
    if manual:
        conn.rollback()
    conn.close()


main()
