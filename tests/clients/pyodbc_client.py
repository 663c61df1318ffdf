#!/usr/bin/python3
"""pyodbc (Debian's python3-pyodbc) against the DSN in GC_TEST_DSN.

Run with the system interpreter /usr/bin/python3, which has python3-pyodbc.
Each test opens its own connection; tables are named after the DSN so that
runs against different drivers on the same server do not collide.
"""
import datetime
import decimal
import os
import sys
import unittest
import uuid

import pyodbc

DSN = os.environ.get("GC_TEST_DSN")
if not DSN:
    sys.exit("GC_TEST_DSN names the DSN to test")


def connect(autocommit=True):
    """A new connection to the DSN under test; the caller closes it."""
    return pyodbc.connect("DSN=" + DSN, autocommit=autocommit)


def table_name(what):
    """A table name private to this test and this DSN."""
    return "client_py_%s_%s" % (what, DSN)


class PyodbcClientTest(unittest.TestCase):
    def setUp(self):
        self.conn = connect()
        self.cur = self.conn.cursor()
        self.tables = []

    def tearDown(self):
        # Drop through a fresh autocommit connection: the test's own may be
        # inside a failed transaction.
        with connect() as conn:
            for name in self.tables:
                conn.execute("DROP TABLE IF EXISTS " + name)
        self.conn.close()

    def make_table(self, what, columns):
        name = table_name(what)
        self.cur.execute("DROP TABLE IF EXISTS " + name)
        self.cur.execute("CREATE TABLE %s (%s)" % (name, columns))
        self.tables.append(name)
        return name

    def test_temporary_table_with_pyodbc_defaults(self):
        # autocommit off, as pyodbc connects by default: created, filled
        # (prepared, parameter array row by row) and read in transactions.
        # On a global connection it lives on one member session, which
        # every statement naming it follows.
        name = table_name("temp")
        with pyodbc.connect("DSN=" + DSN) as conn:
            self.assertFalse(conn.autocommit)
            cur = conn.cursor()
            cur.execute("CREATE TEMP TABLE %s (id int PRIMARY KEY, label text)" % name)
            conn.commit()
            cur.executemany("INSERT INTO %s VALUES (?, ?)" % name,
                            [(i, "row %d" % i) for i in range(1, 11)])
            conn.commit()
            cur.execute("UPDATE %s SET label = label || '!' WHERE id > ?" % name, 5)
            conn.rollback()
            rows = cur.execute("SELECT id, label FROM %s ORDER BY id" % name).fetchall()
            self.assertEqual([tuple(r) for r in rows],
                             [(i, "row %d" % i) for i in range(1, 11)])
            self.assertEqual(cur.execute("SELECT label FROM %s WHERE id = ?" % name,
                                         7).fetchval(), "row 7")
            conn.commit()

    def test_parameter_is_bound_and_computed_by_server(self):
        self.assertEqual(self.cur.execute("select ?::int + 1", 41).fetchval(), 42)

    def test_several_parameters_of_different_types(self):
        row = self.cur.execute(
            "select ?::int8 * 2, ?::text || '!', ?::float8 / 2, ?::int is null",
            2**40, "hi", 3.0, None).fetchone()
        self.assertEqual(tuple(row), (2**41, "hi!", 1.5, True))

    def test_question_mark_inside_literal_is_not_a_parameter(self):
        row = self.cur.execute("select '?', ?::int", 7).fetchone()
        self.assertEqual(tuple(row), ("?", 7))

    def test_ten_thousand_rows_fetch_in_order(self):
        rows = self.cur.execute(
            "select g, 'row ' || g from generate_series(1, 10000) g order by g"
        ).fetchall()
        self.assertEqual(len(rows), 10000)
        self.assertEqual(sum(r[0] for r in rows), 10000 * 10001 // 2)
        self.assertEqual(tuple(rows[0]), (1, "row 1"))
        self.assertEqual(tuple(rows[-1]), (10000, "row 10000"))

    def test_executemany_inserts_every_row(self):
        name = self.make_table("many", "id int primary key, label text not null")
        data = [(i, "label %d" % i) for i in range(1, 1001)]
        self.cur.executemany("insert into %s (id, label) values (?, ?)" % name, data)
        count, total = self.cur.execute(
            "select count(*), sum(id) from " + name).fetchone()
        self.assertEqual((count, total), (1000, 1000 * 1001 // 2))
        self.assertEqual(
            self.cur.execute("select label from %s where id = ?" % name, 777).fetchval(),
            "label 777")

    def test_fast_executemany_sends_parameter_arrays(self):
        # fast_executemany binds the rows as one parameter array
        # (docs/parameter-arrays.md) instead of one execution per row.
        name = self.make_table("fast", "id int primary key, label text not null")
        self.cur.fast_executemany = True
        try:
            data = [(i, "label %d" % i) for i in range(1, 2501)]
            self.cur.executemany("insert into %s (id, label) values (?, ?)" % name, data)
        finally:
            self.cur.fast_executemany = False
        count, total = self.cur.execute(
            "select count(*), sum(id) from " + name).fetchone()
        self.assertEqual((count, total), (2500, 2500 * 2501 // 2))

    def test_fast_executemany_raises_for_a_failing_row(self):
        # A row the server refuses fails the parameter array's execution
        # (SQL_ERROR), as through psqlODBC: pyodbc reads only the return
        # code, and raised nothing when a global connection answered
        # SQL_SUCCESS_WITH_INFO because it had run the other rows.
        name = self.make_table("fast_dup", "id int primary key")
        self.cur.fast_executemany = True
        try:
            with self.assertRaises(pyodbc.IntegrityError) as raised:
                self.cur.executemany("insert into %s (id) values (?)" % name,
                                     [(1,), (2,), (1,), (3,)])
        finally:
            self.cur.fast_executemany = False
        self.assertIn("23505", str(raised.exception))
        stored = [r[0] for r in self.cur.execute(
            "select id from %s where id < 3 order by id" % name).fetchall()]
        self.assertEqual(stored, [1, 2])

    def test_non_ascii_text_round_trips_through_parameters_and_table(self):
        samples = [
            "한국어 텍스트",
            "emoji 😀🎉 outside the BMP",
            "àéîõü ñ ç ß Ωμέγα",
            "mixed 日本語 / русский / العربية",
        ]
        name = self.make_table("text", "id int primary key, body text not null")
        for i, text in enumerate(samples):
            # The parameter comes back unchanged...
            self.assertEqual(self.cur.execute("select ?::text", text).fetchval(), text)
            self.cur.execute("insert into %s values (?, ?)" % name, i, text)
        # ...the server stored the right characters (not bytes of a wrong
        # encoding), and reading the table gives them back.
        for i, text in enumerate(samples):
            length, body = self.cur.execute(
                "select char_length(body), body from %s where id = ?" % name, i).fetchone()
            self.assertEqual(body, text)
            self.assertEqual(length, len(text))
        self.assertEqual(
            self.cur.execute("select body from %s where body like ?" % name,
                             "%😀%").fetchval(),
            samples[1])

    def test_non_ascii_literal_in_sql_text(self):
        self.assertEqual(self.cur.execute("select '가나다 ✓'").fetchval(), "가나다 ✓")

    def test_bytea_round_trips_every_byte_value(self):
        name = self.make_table("bytea", "id int primary key, data bytea not null")
        blob = bytes(range(256)) * 40 + b"\x00\x00tail"
        self.cur.execute("insert into %s values (?, ?)" % name, 1, blob)
        length, data = self.cur.execute(
            "select octet_length(data), data from %s where id = 1" % name).fetchone()
        self.assertEqual(length, len(blob))
        self.assertEqual(bytes(data), blob)

    def test_null_and_common_types_come_back_as_python_values(self):
        row = self.cur.execute(
            "select null::int, true, 12.50::numeric(10,2), date '2024-02-29',"
            " timestamp '2024-02-29 13:45:10', "
            " '6c8a8b1e-3b1f-4c55-9d0e-1a2b3c4d5e6f'::uuid::text").fetchone()
        self.assertIsNone(row[0])
        self.assertIn(row[1], (True, 1, "1"))
        self.assertEqual(decimal.Decimal(str(row[2])), decimal.Decimal("12.50"))
        self.assertEqual(row[3], datetime.date(2024, 2, 29))
        self.assertEqual(row[4], datetime.datetime(2024, 2, 29, 13, 45, 10))
        self.assertEqual(uuid.UUID(row[5]), uuid.UUID("6c8a8b1e-3b1f-4c55-9d0e-1a2b3c4d5e6f"))

    def test_python_booleans_reach_flag_columns_as_psqlodbc_sends_them(self):
        # True and False go as 1 and 0 with their type left to the server:
        # a boolean, an integer and a character flag column all take them.
        name = self.make_table("flags", "id int, b boolean, n smallint, c char(1), v varchar(5)")
        self.cur.execute("insert into %s values (?, ?, ?, ?, ?)" % name, 1, True, True, True, False)
        row = self.cur.execute("select b::text, n, c, v from %s" % name).fetchone()
        self.assertEqual(tuple(row), ("true", 1, "1", "0"))
        # Where the text gives the server no type to infer, gcodbc declares
        # the bit a boolean (psqlODBC: 42P18).
        if "gcodbc" in self.conn.getinfo(pyodbc.SQL_DRIVER_NAME):
            self.assertEqual(self.cur.execute("select pg_typeof(?)::text", True).fetchval(),
                             "boolean")

    def test_autocommit_off_rollback_discards_and_commit_keeps(self):
        name = self.make_table("txn", "id int primary key")
        conn = connect(autocommit=False)
        try:
            cur = conn.cursor()
            cur.execute("insert into %s values (?)" % name, 1)
            self.assertEqual(cur.execute("select count(*) from " + name).fetchval(), 1)
            conn.rollback()
            self.assertEqual(cur.execute("select count(*) from " + name).fetchval(), 0)
            cur.execute("insert into %s values (?)" % name, 2)
            conn.commit()
        finally:
            conn.close()
        # Another connection sees only the committed row.
        self.assertEqual(
            self.cur.execute("select array_agg(id)::text from " + name).fetchval(), "{2}")

    def test_uncommitted_insert_is_invisible_to_other_connections(self):
        name = self.make_table("iso", "id int primary key")
        conn = connect(autocommit=False)
        try:
            conn.execute("insert into %s values (1)" % name)
            self.assertEqual(
                self.cur.execute("select count(*) from " + name).fetchval(), 0)
            conn.rollback()
        finally:
            conn.close()

    def test_server_error_raises_pyodbc_error_with_sqlstate(self):
        with self.assertRaises(pyodbc.Error) as caught:
            self.cur.execute("select 1 / 0").fetchall()
        self.assertEqual(caught.exception.args[0], "22012")
        with self.assertRaises(pyodbc.Error) as caught:
            self.cur.execute("select * from no_such_table_here")
        self.assertEqual(caught.exception.args[0], "42P01")
        self.assertIn("no_such_table_here", caught.exception.args[1])
        # The connection is still usable after errors in autocommit mode.
        self.assertEqual(self.cur.execute("select 1").fetchval(), 1)

    def test_error_inside_transaction_then_rollback_recovers(self):
        conn = connect(autocommit=False)
        try:
            with self.assertRaises(pyodbc.Error):
                conn.execute("select 1 / 0").fetchall()
            conn.rollback()
            self.assertEqual(conn.execute("select 2").fetchval(), 2)
        finally:
            conn.close()

    def test_server_notice_reaches_cursor_messages_as_psqlodbc_words_it(self):
        # The same words as psqlODBC: severity, colon, message; native -1.
        self.cur.execute("DO $$ BEGIN RAISE INFO 'hello from the server' "
                         "USING ERRCODE = '01000'; END $$")
        self.assertEqual(self.cur.messages,
                         [("[01000] (-1)", "INFO: hello from the server")])

    def test_rowcount_of_commands_without_count_as_psqlodbc(self):
        self.cur.execute("drop table if exists " + table_name("rowcount"))
        self.assertEqual(self.cur.rowcount, -1)
        name = self.make_table("rowcount", "i int")
        self.assertEqual(self.cur.rowcount, 0)
        self.cur.execute("set search_path = public")
        self.assertEqual(self.cur.rowcount, -1)
        self.cur.execute("insert into %s values (1), (2)" % name)
        self.assertEqual(self.cur.rowcount, 2)
        self.cur.execute("select * from %s" % name)
        self.assertEqual(self.cur.rowcount, 2)
        self.cur.execute("delete from %s where i < 0" % name)
        self.assertEqual(self.cur.rowcount, 0)

    def test_driver_reports_postgresql_as_dbms(self):
        self.assertEqual(self.conn.getinfo(pyodbc.SQL_DBMS_NAME), "PostgreSQL")
        self.assertTrue(self.conn.getinfo(pyodbc.SQL_DBMS_VER))


if __name__ == "__main__":
    # One clear message, not one per test, when the DSN cannot connect at all.
    try:
        connect().close()
    except pyodbc.Error as e:
        sys.exit("cannot connect to DSN %s: %s" % (DSN, e))
    unittest.main(verbosity=2)
