#!/usr/bin/python3
"""money through pyodbc (Debian's python3-pyodbc) with its defaults, against GC_TEST_DSN.

A money column is described as SQL_FLOAT, as psqlODBC describes it, so pyodbc
reads it as a float: the amount, without lc_monetary's currency symbol and
separators, which the column's character form keeps. Integer, float, Decimal
and character parameters reach a money column through PostgreSQL's casts (a
float is declared numeric, which PostgreSQL casts to money, unlike float8). A
bytes parameter is declared bytea, which PostgreSQL does not cast to money
(42804): the server's PREPARE refuses it, and the rollback level applies
to that refusal as to any failed statement (docs/transactions.md): the
transaction goes on (level 2) or starts anew (level 1). A type the server
refuses for a column it could take as text (42804) is sent again untyped,
as psqlODBC sends numbers (docs/types.md; test_declared_type_retry.c).
"""
import decimal
import os
import sys
import unittest

import pyodbc

DSN = os.environ.get("GC_TEST_DSN")
if not DSN:
    sys.exit("GC_TEST_DSN names the DSN to test")

TABLE = "money_py"


class MoneyTest(unittest.TestCase):
    def setUp(self):
        self.conn = pyodbc.connect("DSN=" + DSN)   # pyodbc's default: autocommit off
        self.cur = self.conn.cursor()
        self.cur.execute(f"drop table if exists {TABLE}")
        self.cur.execute(f"create table {TABLE}(id int primary key, m money)")
        self.conn.commit()

    def tearDown(self):
        self.conn.rollback()
        self.cur.execute(f"drop table if exists {TABLE}")
        self.conn.commit()
        self.conn.close()

    def amounts(self):
        return self.cur.execute(f"select m from {TABLE} order by id").fetchall()

    def test_column_is_described_as_float(self):
        self.cur.execute(f"select m from {TABLE}")
        self.assertIs(self.cur.description[0][1], float)
        cols = self.cur.columns(table=TABLE).fetchall()
        m = [c for c in cols if c.column_name == "m"][0]
        self.assertEqual((m.data_type, m.type_name), (pyodbc.SQL_FLOAT, "money"))

    def test_parameters_and_amounts_read_back(self):
        rows = [(1, 7), (2, decimal.Decimal("-1234.56")), (3, "$2.50"), (4, None),
                (5, decimal.Decimal("92233720368547.75"))]
        for row in rows:
            self.cur.execute(f"insert into {TABLE} values (?, ?)", *row)
        self.conn.commit()
        got = [r[0] for r in self.amounts()]
        self.assertEqual(got, [7.0, -1234.56, 2.5, None, 92233720368547.75])
        self.assertTrue(all(isinstance(v, float) for v in got if v is not None))

    def test_character_form_keeps_the_symbol(self):
        self.cur.execute(f"insert into {TABLE} values (1, -1234.56::numeric)")
        # An output converter receives the column's bytes as the driver gives them.
        self.conn.add_output_converter(pyodbc.SQL_FLOAT, lambda raw: raw.decode())
        self.assertEqual(self.amounts()[0][0], "-$1,234.56")
        self.conn.clear_output_converters()
        self.assertEqual(self.amounts()[0][0], -1234.56)

    def test_float_parameters_are_amounts(self):
        for row in [(1, 1234.56), (2, -1234.56), (3, 123456789.21), (4, 0.0)]:
            self.cur.execute(f"insert into {TABLE} values (?, ?)", *row)
        self.conn.commit()
        self.assertEqual([r[0] for r in self.amounts()], [1234.56, -1234.56, 123456789.21, 0.0])
        # The same double still computes with an integer literal.
        self.assertEqual(self.cur.execute("select ? * 2", 1.25).fetchone()[0], 2.5)

    def test_bytes_parameter_is_refused_and_the_transaction_goes_on(self):
        self.cur.execute(f"insert into {TABLE} values (1, 1)")
        with self.assertRaises(pyodbc.ProgrammingError) as refused:
            self.cur.execute(f"insert into {TABLE} values (?, ?)", 2, b"2.5")
        self.assertEqual(refused.exception.args[0], "42804")
        self.cur.execute(f"insert into {TABLE} values (?, ?)", 3, 2.5)
        self.conn.commit()
        self.assertEqual([r[0] for r in self.amounts()], [1.0, 2.5])

    def test_bytes_parameter_refused_at_level_1_rolls_the_transaction_back(self):
        conn = pyodbc.connect("DSN=" + DSN + ";RollbackOnError=1")
        cur = conn.cursor()
        cur.execute(f"insert into {TABLE} values (1, 1)")
        with self.assertRaises(pyodbc.ProgrammingError) as refused:
            cur.execute(f"insert into {TABLE} values (?, ?)", 2, b"2.5")
        self.assertEqual(refused.exception.args[0], "42804")
        cur.execute(f"insert into {TABLE} values (3, 3)")   # a new transaction
        conn.commit()
        conn.close()
        self.assertEqual([r[0] for r in self.amounts()], [3.0])

    def test_float_parameter_in_a_transaction(self):
        self.cur.execute(f"insert into {TABLE} values (1, 1)")
        self.cur.execute(f"insert into {TABLE} values (?, ?)", 2, 2.5)
        self.cur.execute(f"insert into {TABLE} values (?, ?)", 3, -1234.56)
        self.conn.commit()
        self.assertEqual([r[0] for r in self.amounts()], [1.0, 2.5, -1234.56])

    def test_float_parameter_in_autocommit_prepared_and_reused(self):
        self.conn.autocommit = True
        for i, amount in enumerate([1234.56, 123456789.21, -1.5]):
            self.cur.execute(f"insert into {TABLE} values (?, ?)", i, amount)
        self.assertEqual([r[0] for r in self.amounts()], [1234.56, 123456789.21, -1.5])

    def test_float_parameter_at_level_1_keeps_the_transaction(self):
        conn = pyodbc.connect("DSN=" + DSN + ";RollbackOnError=1")
        cur = conn.cursor()
        cur.execute(f"insert into {TABLE} values (1, 1)")
        cur.execute(f"insert into {TABLE} values (?, ?)", 2, 2.5)
        conn.commit()
        conn.close()
        self.assertEqual([r[0] for r in self.amounts()], [1.0, 2.5])

    def test_a_float_no_column_type_takes_is_still_refused(self):
        # 2.5 is no boolean, declared or untyped: the server's error, and
        # the transaction goes on (rollback level 2).
        self.cur.execute(f"create temporary table money_py_b(b boolean)")
        self.cur.execute(f"insert into {TABLE} values (1, 1)")
        with self.assertRaises(pyodbc.Error) as refused:
            self.cur.execute("insert into money_py_b values (?)", 2.5)
        self.assertIn(refused.exception.args[0], ("42804", "22P02"))
        self.cur.execute(f"insert into {TABLE} values (?, ?::numeric)", 3, 2.5)
        self.conn.commit()
        self.assertEqual([r[0] for r in self.amounts()], [1.0, 2.5])


if __name__ == "__main__":
    unittest.main(verbosity=2)
