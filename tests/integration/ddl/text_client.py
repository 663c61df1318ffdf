"""Runs each SQL text through a DSN with pyodbc and prints every result of
it, through nextset (SQLMoreResults): `ok ROWCOUNT` per result, followed
by `row V1|V2...` per row of a result set; or `error SQLSTATE MESSAGE`.
With `manual`, autocommit is off (pyodbc's default) and the transaction
is committed after the last text (`commit`, or `error ...`).
usage: text_client.py DSN auto|manual SQL..."""
import sys

import pyodbc


def main():
    dsn, mode, texts = sys.argv[1], sys.argv[2], sys.argv[3:]
    conn = pyodbc.connect(dsn if "=" in dsn else "DSN=" + dsn, autocommit=mode == "auto")
    conn.timeout = 30
    cur = conn.cursor()
    for sql in texts:
        try:
            cur.execute(sql)
            while True:
                print("ok", cur.rowcount)
                if cur.description is not None:
                    for row in cur.fetchall():
                        print("row", "|".join(str(v) for v in row))
                if not cur.nextset():
                    break
        except pyodbc.Error as e:
            state = e.args[0] if e.args else "?"
            print("error", state, " ".join(str(a) for a in e.args[1:]).replace("\n", " "))
    if mode == "manual":
        try:
            conn.commit()
            print("commit")
        except pyodbc.Error as e:
            print("error", e.args[0] if e.args else "?", "at commit")
    conn.close()


main()
