#!/usr/bin/python3
"""pyodbc (Debian's python3-pyodbc) with many parameters, against GC_TEST_DSN.

pyodbc asks SQLDescribeParam the type of every parameter bound to None; past
the 7,498 parameters libpq can have described the driver answers from the
bindings, so 7,600 None run and the connection (on a global connection every
member) stays up. pyodbc reads the marker count through SQLNumParams, whose
SQLSMALLINT stops at 32,767: that many run, one more gets the driver's 22003
and the connection stays usable (docs/statements.md, "How many parameters").
"""
import os
import sys
import unittest

import pyodbc

DSN = os.environ.get("GC_TEST_DSN")
if not DSN:
    sys.exit("GC_TEST_DSN names the DSN to test")


def markers(n):
    """A query of n int markers giving their count and the sum of the non-NULL."""
    return ("select cardinality(a), (select coalesce(sum(x), 0) from unnest(a) x) "
            "from (select array[%s] as a) t" % ",".join(["?::int"] * n))


class ManyParametersTest(unittest.TestCase):
    def setUp(self):
        self.conn = pyodbc.connect("DSN=" + DSN, autocommit=True)
        self.cur = self.conn.cursor()

    def tearDown(self):
        self.conn.close()

    def assert_connection_usable(self):
        self.assertEqual(self.cur.execute("select 41 + 1").fetchval(), 42)
        if os.environ.get("GC_TEST_GLOBAL"):
            states = [row[3] for row in self.cur.execute("show global connection").fetchall()]
            self.assertTrue(states)
            self.assertNotIn("down", states)

    def test_7600_none_run_and_the_connection_stays_up(self):
        row = self.cur.execute(markers(7600), [None] * 7600).fetchone()
        self.assertEqual(tuple(row), (7600, 0))
        self.assert_connection_usable()

    def test_32767_values_the_most_sqlnumparams_can_count(self):
        row = self.cur.execute(markers(32767), [1] * 32767).fetchone()
        self.assertEqual(tuple(row), (32767, 32767))
        self.assert_connection_usable()

    def test_32768_give_22003_and_the_connection_stays_usable(self):
        with self.assertRaises(pyodbc.Error) as caught:
            self.cur.execute(markers(32768), [1] * 32768)
        self.assertEqual(caught.exception.args[0], "22003")
        self.assert_connection_usable()

    def test_65536_give_54023(self):
        with self.assertRaises(pyodbc.Error) as caught:
            self.cur.execute(markers(65536), [1] * 65536)
        self.assertEqual(caught.exception.args[0], "54023")
        self.assert_connection_usable()


if __name__ == "__main__":
    unittest.main(verbosity=2)
