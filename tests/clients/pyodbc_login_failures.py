#!/usr/bin/python3
"""A failed connect through pyodbc, against the DSN in GC_TEST_DSN: what a
program written for psqlODBC catches. psqlODBC answers 08001 for every
failed connect, which pyodbc raises as OperationalError; gcodbc does the
same, and its message also carries the server's own SQLSTATE after the
server's FATAL, so a wrong password still reads differently from a server
that does not answer (docs/sqlstates.md, "Connecting").

It runs against psqlODBC too (client_pyodbc_login_failures_psqlodbc), the
baseline; the server's SQLSTATE in the message is gcodbc's alone.
"""
import os
import socket
import sys
import unittest

import pyodbc

DSN = os.environ.get("GC_TEST_DSN")
if not DSN:
    sys.exit("GC_TEST_DSN names the DSN to test")
GCODBC = DSN.startswith("gcodbc")


def closed_port():
    """A loopback port nothing listens on (bound, then closed)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def connect(extra):
    return pyodbc.connect("DSN=%s;%s" % (DSN, extra), autocommit=True, timeout=5)


class LoginFailureTest(unittest.TestCase):
    def assert_refused(self, extra, server_state):
        """Connecting with extra raises OperationalError, SQLSTATE 08001,
        with (gcodbc) the server's SQLSTATE after its FATAL."""
        with self.assertRaises(pyodbc.OperationalError) as caught:
            connect(extra)
        state, message = caught.exception.args[0], caught.exception.args[1]
        self.assertEqual(state, "08001", message)
        if GCODBC and server_state is not None:
            self.assertIn("FATAL %s" % server_state, message)
        return message

    def test_wrong_password(self):
        message = self.assert_refused("PWD=wrong-password", "28P01")
        self.assertIn("password authentication failed", message)

    def test_unknown_database(self):
        message = self.assert_refused("Database=gc_no_such_database", "3D000")
        self.assertIn("gc_no_such_database", message)

    def test_nothing_listening(self):
        port = closed_port()
        # gcodbc's DSN names its servers with Servers (every seed of a global
        # connection: the whole cluster unreachable), psqlODBC's with Port.
        extra = "Servers=127.0.0.1:%d" % port if GCODBC else "Port=%d" % port
        message = self.assert_refused(extra, None)
        self.assertIn(str(port), message)
        self.assertNotIn("FATAL", message)

    def test_a_good_login_still_connects(self):
        with connect("") as conn:
            self.assertEqual(conn.execute("SELECT 1").fetchval(), 1)


if __name__ == "__main__":
    unittest.main(verbosity=2)
