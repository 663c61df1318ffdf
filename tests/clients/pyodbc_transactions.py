#!/usr/bin/python3
"""pyodbc with its defaults (autocommit off) against the DSN in GC_TEST_DSN:
what a program written for psqlODBC expects of errors in a transaction,
row counts and statements PostgreSQL refuses in a transaction block
(docs/transactions.md).

It runs against psqlODBC 13.02 too (client_pyodbc_transactions_psqlodbc),
the baseline a psqlODBC program relies on; where psqlODBC differs (CREATE
INDEX CONCURRENTLY with autocommit off) the test says what it does.
"""
import os
import sys
import unittest

import pyodbc

DSN = os.environ.get("GC_TEST_DSN")
if not DSN:
    sys.exit("GC_TEST_DSN names the DSN to test")
TABLE = "client_pytx_%s" % DSN


def connect(extra="", autocommit=False):
    """A new connection with pyodbc's default (autocommit off) unless asked."""
    return pyodbc.connect("DSN=%s;%s" % (DSN, extra), autocommit=autocommit)


def transaction_after_ddl(table):
    """A connection, autocommit off, whose open transaction created table
    (on a global connection that DDL joins every group)."""
    conn = connect()
    cur = conn.cursor()
    cur.execute("DROP TABLE IF EXISTS " + table)
    cur.execute("CREATE TABLE %s (id int PRIMARY KEY)" % table)
    return conn, cur


def table_exists(table):
    with connect(autocommit=True) as conn:
        return conn.execute("SELECT (to_regclass(?) IS NOT NULL)::int", table).fetchval() == 1


def committed_ids():
    with connect(autocommit=True) as conn:
        return [r[0] for r in conn.execute("SELECT id FROM %s ORDER BY id" % TABLE)]


class TransactionTest(unittest.TestCase):
    def setUp(self):
        with connect(autocommit=True) as conn:
            conn.execute("DROP TABLE IF EXISTS " + TABLE)
            conn.execute("CREATE TABLE %s (id int PRIMARY KEY, v text)" % TABLE)

    def tearDown(self):
        with connect(autocommit=True) as conn:
            conn.execute("DROP TABLE IF EXISTS " + TABLE)

    def test_failed_statement_leaves_the_transaction_usable(self):
        conn = connect()
        cur = conn.cursor()
        cur.execute("INSERT INTO %s VALUES (1, 'a')" % TABLE)
        # A setUp that drops a table which is not there: the error is raised...
        with self.assertRaises(pyodbc.ProgrammingError):
            cur.execute("DROP TABLE client_pytx_no_such_table")
        with self.assertRaises(pyodbc.IntegrityError):
            cur.execute("INSERT INTO %s VALUES (?, ?)" % TABLE, 1, "dup")
        # ...and every later statement runs (no 25P02 cascade).
        cur.execute("INSERT INTO %s VALUES (?, ?)" % TABLE, 2, "b")
        self.assertEqual(cur.execute("SELECT count(*) FROM " + TABLE).fetchval(), 2)
        conn.commit()
        conn.close()
        self.assertEqual(committed_ids(), [1, 2])

    def test_rollback_level_1_rolls_the_transaction_back(self):
        conn = connect("Protocol=7.4-1")
        cur = conn.cursor()
        cur.execute("INSERT INTO %s VALUES (1, 'a')" % TABLE)
        with self.assertRaises(pyodbc.Error):
            cur.execute("SELECT 1/0")
        cur.execute("INSERT INTO %s VALUES (2, 'b')" % TABLE)
        conn.commit()
        conn.close()
        self.assertEqual(committed_ids(), [2])

    def test_rollback_level_0_leaves_the_transaction_aborted(self):
        conn = connect("Protocol=7.4-0")
        cur = conn.cursor()
        cur.execute("INSERT INTO %s VALUES (1, 'a')" % TABLE)
        with self.assertRaises(pyodbc.Error):
            cur.execute("SELECT 1/0")
        with self.assertRaises(pyodbc.Error) as aborted:
            cur.execute("INSERT INTO %s VALUES (2, 'b')" % TABLE)
        self.assertIn("25P02", str(aborted.exception))
        conn.rollback()
        conn.close()
        self.assertEqual(committed_ids(), [])

    def test_rowcount_of_select_update_and_delete(self):
        conn = connect()
        cur = conn.cursor()
        cur.executemany("INSERT INTO %s VALUES (?, ?)" % TABLE, [(i, "v") for i in range(1, 5)])
        cur.execute("SELECT * FROM " + TABLE)
        self.assertEqual(cur.rowcount, 4)
        self.assertEqual(len(cur.fetchall()), 4)
        cur.execute("SELECT * FROM %s WHERE id > 100" % TABLE)
        self.assertEqual(cur.rowcount, 0)
        cur.execute("UPDATE %s SET v = 'w' WHERE id > 100" % TABLE)
        self.assertEqual(cur.rowcount, 0)
        cur.execute("DELETE FROM %s WHERE id = ?" % TABLE, 100)
        self.assertEqual(cur.rowcount, 0)
        cur.execute("UPDATE %s SET v = 'w' WHERE id <= 2" % TABLE)
        self.assertEqual(cur.rowcount, 2)
        cur.execute("DELETE FROM %s WHERE id = ?" % TABLE, 4)
        self.assertEqual(cur.rowcount, 1)
        conn.commit()
        conn.close()
        self.assertEqual(committed_ids(), [1, 2, 3])

    def test_statements_refused_in_a_block_run_with_autocommit_off(self):
        conn = connect()
        cur = conn.cursor()
        cur.execute("VACUUM " + TABLE)
        if DSN.startswith("psqlodbc"):
            # psqlODBC 13.02 runs VACUUM so, not CREATE INDEX CONCURRENTLY:
            # it sends its BEGIN first and the server refuses (25001).
            with self.assertRaises(pyodbc.ProgrammingError) as refused:
                cur.execute("CREATE INDEX CONCURRENTLY %s_v ON %s (v)" % (TABLE, TABLE))
            self.assertIn("25001", str(refused.exception))
            conn.rollback()
        else:
            # A global connection runs it on the group that owns the solo
            # table, outside a transaction block too (docs/global-connection.md).
            cur.execute("CREATE INDEX CONCURRENTLY %s_v ON %s (v)" % (TABLE, TABLE))
            cur.execute("DROP INDEX CONCURRENTLY %s_v" % TABLE)
        cur.execute("INSERT INTO %s VALUES (1, 'a')" % TABLE)
        conn.rollback()
        conn.close()
        self.assertEqual(committed_ids(), [])

    def test_rollback_to_a_savepoint_set_after_ddl_in_the_transaction(self):
        # A test's setUp that creates its table in the open transaction,
        # then savepoints (SQLAlchemy's begin_nested). On a global
        # connection the DDL joined every group before the savepoint, so the
        # savepoint is set, and gone back to, on each of them.
        table = TABLE + "_sp"
        conn, cur = transaction_after_ddl(table)
        cur.execute("INSERT INTO %s VALUES (1)" % table)
        cur.execute("SAVEPOINT a")
        cur.execute("INSERT INTO %s VALUES (2)" % table)
        with self.assertRaises(pyodbc.IntegrityError):
            cur.execute("INSERT INTO %s VALUES (2)" % table)
        cur.execute("ROLLBACK TO SAVEPOINT a")
        cur.execute("INSERT INTO %s VALUES (3)" % table)
        cur.execute("SAVEPOINT b")
        cur.execute("CREATE TABLE %s_gone (id int)" % table)
        cur.execute("ROLLBACK TO SAVEPOINT b")
        cur.execute("RELEASE SAVEPOINT a")
        conn.commit()
        conn.close()
        with connect(autocommit=True) as check:
            ids = [r[0] for r in check.execute("SELECT id FROM %s ORDER BY id" % table)]
            check.execute("DROP TABLE " + table)
        self.assertEqual(ids, [1, 3])
        self.assertFalse(table_exists(table + "_gone"))

    def test_rollback_to_a_savepoint_set_before_ddl(self):
        # On a global connection the DDL joins the other groups after the
        # savepoint: they get it set after their BEGIN, so going back to it
        # undoes the DDL there too (docs/global-connection.md).
        table = TABLE + "_sp2"
        conn = connect()
        cur = conn.cursor()
        cur.execute("INSERT INTO %s VALUES (1, 'a')" % TABLE)
        cur.execute("SAVEPOINT a")
        cur.execute("CREATE TABLE %s (id int)" % table)
        cur.execute("ROLLBACK TO SAVEPOINT a")
        cur.execute("INSERT INTO %s VALUES (2, 'b')" % TABLE)
        conn.commit()
        conn.close()
        self.assertEqual(committed_ids(), [1, 2])
        self.assertFalse(table_exists(table))

    def test_rollback_to_a_savepoint_never_set(self):
        table = TABLE + "_sp3"
        conn, cur = transaction_after_ddl(table)
        cur.execute("INSERT INTO %s VALUES (1, 'a')" % TABLE)
        cur.execute("SAVEPOINT a")
        with self.assertRaises(pyodbc.Error) as unknown:
            cur.execute("ROLLBACK TO SAVEPOINT no_such_savepoint")
        self.assertIn("3B001", str(unknown.exception))
        if DSN.startswith("psqlodbc"):
            # psqlODBC's statement rollback does not cover transaction
            # control: the transaction stays aborted, and its COMMIT
            # "succeeds" applying nothing.
            with self.assertRaises(pyodbc.Error) as aborted:
                cur.execute("INSERT INTO %s VALUES (2, 'b')" % TABLE)
            self.assertIn("25P02", str(aborted.exception))
            expected = ([], False)
        else:
            # Level 2 undoes the failed ROLLBACK TO alone, as any failed
            # statement (docs/transactions.md); on a global connection no
            # other group's member was sent it.
            cur.execute("INSERT INTO %s VALUES (2, 'b')" % TABLE)
            cur.execute("ROLLBACK TO SAVEPOINT a")
            expected = ([1], True)
        conn.commit()
        conn.close()
        created = table_exists(table)
        if created:
            with connect(autocommit=True) as check:
                check.execute("DROP TABLE " + table)
        self.assertEqual((committed_ids(), created), expected)

    def test_savepoint_in_a_text_of_several_statements(self):
        table = TABLE + "_sp4"
        conn, cur = transaction_after_ddl(table)
        cur.execute("SAVEPOINT a; INSERT INTO %s VALUES (5, 'x')" % TABLE)
        if os.environ.get("GC_TEST_GLOBAL") == "1":
            # Only the pin runs the text, its INSERT included, so the
            # savepoint is the pin's alone: going back to it is refused,
            # nothing is sent, and the transaction goes on.
            with self.assertRaises(pyodbc.NotSupportedError):
                cur.execute("ROLLBACK TO SAVEPOINT a; INSERT INTO %s VALUES (6, 'y')" % TABLE)
            with self.assertRaises(pyodbc.NotSupportedError):
                cur.execute("ROLLBACK TO SAVEPOINT a")
            expected = [5]
        else:
            cur.execute("ROLLBACK TO SAVEPOINT a; INSERT INTO %s VALUES (6, 'y')" % TABLE)
            expected = [6]
        conn.commit()
        conn.close()
        with connect(autocommit=True) as check:
            check.execute("DROP TABLE " + table)
        self.assertEqual(committed_ids(), expected)


if __name__ == "__main__":
    unittest.main(verbosity=2)
