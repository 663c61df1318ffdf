"""Runs statements through a DSN with a query timeout, or with SQLCancel
called from another thread, and prints how each ended and how long it
took: `ok ROWCOUNT SECONDS`, then `row V1|V2...` per row, or `error
SQLSTATE SECONDS MESSAGE`. A failed statement does not stop the others, so
the output shows what state it left the transaction in; with commit or
rollback the transaction (autocommit off) ends so after the statements,
printing `commit` or `rollback` (or `error ...`). The process ends itself
after 60 s (exit 3): a statement that never returns fails the test.
usage: wait_client.py DSN autocommit|commit|rollback TIMEOUT CANCEL_AFTER SQL...
TIMEOUT is SQL_ATTR_QUERY_TIMEOUT in seconds (0: none); CANCEL_AFTER,
when not 0, the seconds after which another thread calls SQLCancel on a
statement still running."""
import os
import signal
import sys
import threading
import time

import pyodbc


def give_up(signum, frame):
    print("no answer within 60 s", flush=True)
    os._exit(3)


def error_line(e, started):
    state = e.args[0] if e.args else "?"
    text = " ".join(str(a) for a in e.args[1:]).replace("\n", " ")
    return "error %s %.1f %s" % (state, time.monotonic() - started, text)


def run(cur, sql, cancel_after):
    timer = threading.Timer(cancel_after, cur.cancel) if cancel_after else None
    started = time.monotonic()
    if timer is not None:
        timer.start()
    try:
        cur.execute(sql)
        print("ok %d %.1f" % (cur.rowcount, time.monotonic() - started))
        if cur.description is not None:
            for row in cur.fetchall():
                print("row", "|".join(str(v) for v in row))
    except pyodbc.Error as e:
        print(error_line(e, started))
    finally:
        if timer is not None:
            timer.cancel()


def main():
    signal.signal(signal.SIGALRM, give_up)
    signal.alarm(60)
    dsn, end, timeout, cancel_after = sys.argv[1:5]
    conn = pyodbc.connect(dsn if "=" in dsn else "DSN=" + dsn, autocommit=end == "autocommit")
    conn.timeout = int(timeout)
    cur = conn.cursor()
    for sql in sys.argv[5:]:
        run(cur, sql, float(cancel_after))
    started = time.monotonic()
    try:
        if end == "commit":
            conn.commit()
            print("commit")
        elif end == "rollback":
            conn.rollback()
            print("rollback")
    except pyodbc.Error as e:
        print(error_line(e, started))
    conn.close()


main()
