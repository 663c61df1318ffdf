"""A parameter array through the driver manager (libodbc) as a C program
makes one, for the tests that need one pyodbc does not make: pyodbc's
fast_executemany describes the parameters first, which makes the driver run
the array row by row (docs/parameter-arrays.md, "Transactions")."""
import ctypes

from xact_lib import connection_string, fail

# ODBC's numbers (sql.h, sqlext.h) for the calls below.
SQL_HANDLE_ENV, SQL_HANDLE_DBC, SQL_HANDLE_STMT = 1, 2, 3
SQL_ATTR_ODBC_VERSION, SQL_OV_ODBC3 = 200, 3
SQL_ATTR_PARAM_STATUS_PTR, SQL_ATTR_PARAMS_PROCESSED_PTR, SQL_ATTR_PARAMSET_SIZE = 20, 21, 22
SQL_PARAM_INPUT, SQL_C_SBIGINT, SQL_BIGINT, SQL_NTS = 1, -25, -5, -3
SQL_SUCCESS, SQL_SUCCESS_WITH_INFO, SQL_ERROR = 0, 1, -1
SQL_PARAM_SUCCESS, SQL_PARAM_ERROR, SQL_PARAM_UNUSED = 0, 5, 7
SQL_ATTR_AUTOCOMMIT, SQL_AUTOCOMMIT_OFF, SQL_COMMIT = 102, 0, 0


class UndescribedArray:
    """A statement of (id, balance) rows as one parameter array through the
    driver manager (libodbc), prepared and bound as a C program does it,
    without SQLDescribeParam (SQLExecDirect would not be routed by key:
    DirectExecuteRouting). run() returns SQLExecute's return code; status
    and processed hold what the driver wrote."""
    dm = ctypes.CDLL("libodbc.so.2")
    dm.SQLBindParameter.argtypes = [
        ctypes.c_void_p, ctypes.c_ushort, ctypes.c_short, ctypes.c_short, ctypes.c_short,
        ctypes.c_ulong, ctypes.c_short, ctypes.c_void_p, ctypes.c_long, ctypes.c_void_p]
    dm.SQLSetStmtAttr.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_void_p, ctypes.c_int]
    dm.SQLSetEnvAttr.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_void_p, ctypes.c_int]
    dm.SQLDriverConnect.argtypes = [
        ctypes.c_void_p, ctypes.c_void_p, ctypes.c_char_p, ctypes.c_short, ctypes.c_void_p,
        ctypes.c_short, ctypes.c_void_p, ctypes.c_ushort]
    dm.SQLSetConnectAttr.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_void_p, ctypes.c_int]
    dm.SQLExecDirect.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int]
    dm.SQLEndTran.argtypes = [ctypes.c_short, ctypes.c_void_p, ctypes.c_short]
    dm.SQLPrepare.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int]
    dm.SQLExecute.argtypes = [ctypes.c_void_p]
    dm.SQLAllocHandle.argtypes = [ctypes.c_short, ctypes.c_void_p, ctypes.c_void_p]
    dm.SQLFreeHandle.argtypes = [ctypes.c_short, ctypes.c_void_p]
    dm.SQLDisconnect.argtypes = [ctypes.c_void_p]

    def __init__(self, app, sql, ids, what, autocommit=True):
        n = len(ids)
        self.what = what
        self.env, self.dbc, self.stmt = ctypes.c_void_p(), ctypes.c_void_p(), ctypes.c_void_p()
        self.ids = (ctypes.c_int64 * n)(*ids)
        self.balances = (ctypes.c_int64 * n)()
        self.status = (ctypes.c_ushort * n)()
        self.processed = ctypes.c_ulong()
        self.check(self.dm.SQLAllocHandle(SQL_HANDLE_ENV, None, ctypes.byref(self.env)),
                   "SQLAllocHandle")
        self.check(self.dm.SQLSetEnvAttr(self.env, SQL_ATTR_ODBC_VERSION, SQL_OV_ODBC3, 0),
                   "SQLSetEnvAttr")
        self.check(self.dm.SQLAllocHandle(SQL_HANDLE_DBC, self.env, ctypes.byref(self.dbc)),
                   "SQLAllocHandle")
        self.check(self.dm.SQLDriverConnect(self.dbc, None, connection_string(app).encode(),
                                            SQL_NTS, None, 0, None, 0), "SQLDriverConnect")
        if not autocommit:
            self.check(self.dm.SQLSetConnectAttr(self.dbc, SQL_ATTR_AUTOCOMMIT,
                                                 SQL_AUTOCOMMIT_OFF, 0), "SQLSetConnectAttr")
        self.check(self.dm.SQLAllocHandle(SQL_HANDLE_STMT, self.dbc, ctypes.byref(self.stmt)),
                   "SQLAllocHandle")
        self.check(self.dm.SQLPrepare(self.stmt, sql.encode(), SQL_NTS), "SQLPrepare")
        for attr, value in ((SQL_ATTR_PARAMSET_SIZE, n),
                            (SQL_ATTR_PARAM_STATUS_PTR, ctypes.addressof(self.status)),
                            (SQL_ATTR_PARAMS_PROCESSED_PTR, ctypes.addressof(self.processed))):
            self.check(self.dm.SQLSetStmtAttr(self.stmt, attr, value, 0), "SQLSetStmtAttr")
        for number, values in ((1, self.ids), (2, self.balances)):
            self.check(self.dm.SQLBindParameter(self.stmt, number, SQL_PARAM_INPUT,
                                                SQL_C_SBIGINT, SQL_BIGINT, 0, 0,
                                                ctypes.addressof(values), 8, None),
                       "SQLBindParameter")

    def check(self, rc, call):
        if rc not in (SQL_SUCCESS, SQL_SUCCESS_WITH_INFO):
            fail(f"{self.what} {call} returned {rc}")

    def run(self):
        return self.dm.SQLExecute(self.stmt)

    def direct(self, sql):
        """Runs sql on a statement of its own on the same connection."""
        other = ctypes.c_void_p()
        self.check(self.dm.SQLAllocHandle(SQL_HANDLE_STMT, self.dbc, ctypes.byref(other)),
                   "SQLAllocHandle")
        self.check(self.dm.SQLExecDirect(other, sql.encode(), SQL_NTS), f"SQLExecDirect {sql}")
        self.dm.SQLFreeHandle(SQL_HANDLE_STMT, other)

    def commit(self):
        self.check(self.dm.SQLEndTran(SQL_HANDLE_DBC, self.dbc, SQL_COMMIT), "SQLEndTran")

    def close(self):
        self.dm.SQLFreeHandle(SQL_HANDLE_STMT, self.stmt)
        self.dm.SQLDisconnect(self.dbc)
        self.dm.SQLFreeHandle(SQL_HANDLE_DBC, self.dbc)
        self.dm.SQLFreeHandle(SQL_HANDLE_ENV, self.env)
