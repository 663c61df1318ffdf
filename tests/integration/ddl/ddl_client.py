"""Runs one statement through a DSN with pyodbc and prints what the
application sees: `ok ROWCOUNT`, then `info SQLSTATE MESSAGE` per warning,
or `error SQLSTATE MESSAGE`. DSN is a DSN's name or, when it holds `=`, a
whole connection string. With --repeat N, SQL runs N times, each with its
execution number as parameter `?` (prepared execution, so the router reads
the key). With --fetch, the rows follow `ok`, one a line, values joined
with `|`. usage: ddl_client.py DSN [--manual] [--fetch] [--repeat N] SQL"""
import sys

import pyodbc


def main():
    args = sys.argv[1:]
    manual = "--manual" in args
    fetch = "--fetch" in args
    args = [a for a in args if a not in ("--manual", "--fetch")]
    repeat = 0
    if "--repeat" in args:
        at = args.index("--repeat")
        repeat = int(args[at + 1])
        del args[at:at + 2]
    dsn, sql = args
    conn = pyodbc.connect(dsn if "=" in dsn else "DSN=" + dsn, autocommit=not manual)
    cur = conn.cursor()
    try:
        if repeat:
            for n in range(1, repeat + 1):
                cur.execute(sql, n)
                cur.fetchall()
        else:
            cur.execute(sql)
        rows = cur.fetchall() if fetch else []
        print("ok", cur.rowcount)
        for row in rows:
            print("|".join(str(v) for v in row))
        for state, message in cur.messages or []:
            print("info", state, message)
    except pyodbc.Error as e:
        state = e.args[0] if e.args else "?"
        print("error", state, " ".join(str(a) for a in e.args[1:]).replace("\n", " "))
    if manual:
        conn.rollback()
    conn.close()


main()
