"""Runs statements in one transaction (autocommit off, pyodbc's default)
through a DSN and ends it: prints `ok ROWCOUNT` per statement, then each
row of its result as `row V1|V2...`, or `error SQLSTATE MESSAGE` for the
first that fails (the rest are skipped), then `commit` or `rollback` as
the transaction ended (a failed statement always rolls back). A statement
waiting longer than 30 s is cancelled (HYT00): a wait that would never
end fails the test instead of hanging it.
usage: txn_client.py DSN commit|rollback SQL..."""
import sys

import pyodbc


def main():
    dsn, end, statements = sys.argv[1], sys.argv[2], sys.argv[3:]
    conn = pyodbc.connect(dsn if "=" in dsn else "DSN=" + dsn, autocommit=False)
    conn.timeout = 30
    cur = conn.cursor()
    failed = False
    for sql in statements:
        try:
            cur.execute(sql)
            print("ok", cur.rowcount)
            if cur.description is not None:
                for row in cur.fetchall():
                    print("row", "|".join(str(v) for v in row))
        except pyodbc.Error as e:
            state = e.args[0] if e.args else "?"
            print("error", state, " ".join(str(a) for a in e.args[1:]).replace("\n", " "))
            failed = True
            break
    if end == "commit" and not failed:
        conn.commit()
        print("commit")
    else:
        conn.rollback()
        print("rollback")
    conn.close()


main()
