/*
 * gc_functions: SQLGetFunctions.
 *
 * unixODBC disables every function the driver reports missing, so the list
 * must say exactly what libgcodbc.so exports: the integration test
 * tests/integration/connection/functions_match_exports compares it with the
 * library's symbols. Add a row here when an entry point is added.
 */
#include <string.h>

#include "core/gc_functions.h"

static const SQLUSMALLINT implemented[] = {
    /* handles, environment, connection (src/odbc/odbc_env.c, odbc_conn.c) */
    SQL_API_SQLALLOCHANDLE, SQL_API_SQLFREEHANDLE,
    SQL_API_SQLSETENVATTR, SQL_API_SQLGETENVATTR,
    SQL_API_SQLCONNECT, SQL_API_SQLDRIVERCONNECT, SQL_API_SQLDISCONNECT,
    SQL_API_SQLSETCONNECTATTR, SQL_API_SQLGETCONNECTATTR,
    SQL_API_SQLGETINFO, SQL_API_SQLGETFUNCTIONS, SQL_API_SQLENDTRAN,
    SQL_API_SQLNATIVESQL,
    /* diagnostics (odbc_diag.c) */
    SQL_API_SQLGETDIAGREC, SQL_API_SQLGETDIAGFIELD,
    /* statements (odbc_stmt*.c) */
    SQL_API_SQLFREESTMT, SQL_API_SQLCLOSECURSOR,
    SQL_API_SQLGETCURSORNAME, SQL_API_SQLSETCURSORNAME,
    SQL_API_SQLSETSTMTATTR, SQL_API_SQLGETSTMTATTR,
    SQL_API_SQLPREPARE, SQL_API_SQLEXECUTE, SQL_API_SQLEXECDIRECT,
    SQL_API_SQLPARAMDATA, SQL_API_SQLPUTDATA, SQL_API_SQLCANCEL,
    SQL_API_SQLBINDPARAMETER, SQL_API_SQLNUMPARAMS, SQL_API_SQLDESCRIBEPARAM,
    SQL_API_SQLNUMRESULTCOLS, SQL_API_SQLDESCRIBECOL, SQL_API_SQLCOLATTRIBUTE,
    SQL_API_SQLROWCOUNT, SQL_API_SQLBINDCOL, SQL_API_SQLFETCH,
    SQL_API_SQLFETCHSCROLL, SQL_API_SQLGETDATA, SQL_API_SQLMORERESULTS,
    SQL_API_SQLEXTENDEDFETCH, SQL_API_SQLSETPOS, SQL_API_SQLBULKOPERATIONS,
    /* descriptors (odbc_desc*.c) */
    SQL_API_SQLGETDESCFIELD, SQL_API_SQLSETDESCFIELD,
    SQL_API_SQLGETDESCREC, SQL_API_SQLSETDESCREC, SQL_API_SQLCOPYDESC,
    /* catalog functions */
    SQL_API_SQLTABLES, SQL_API_SQLCOLUMNS, SQL_API_SQLPRIMARYKEYS,
    SQL_API_SQLFOREIGNKEYS, SQL_API_SQLSTATISTICS, SQL_API_SQLSPECIALCOLUMNS,
    SQL_API_SQLPROCEDURES, SQL_API_SQLPROCEDURECOLUMNS,
    SQL_API_SQLTABLEPRIVILEGES, SQL_API_SQLCOLUMNPRIVILEGES, SQL_API_SQLGETTYPEINFO,
};

enum { IMPLEMENTED_COUNT = sizeof implemented / sizeof implemented[0] };

static bool is_implemented(SQLUSMALLINT id)
{
    for (size_t i = 0; i < IMPLEMENTED_COUNT; i++) {
        if (implemented[i] == id)
            return true;
    }
    return false;
}

SQLRETURN gc_functions_get(gc_conn *c, SQLUSMALLINT function_id,
                           SQLUSMALLINT *supported)
{
    if (supported == NULL) {
        gc_diag_add(&c->h.diag, "HY009", 0, "invalid use of null pointer");
        return SQL_ERROR;
    }
    if (function_id == SQL_API_ODBC3_ALL_FUNCTIONS) {
        memset(supported, 0, SQL_API_ODBC3_ALL_FUNCTIONS_SIZE * sizeof *supported);
        for (size_t i = 0; i < IMPLEMENTED_COUNT; i++)
            supported[implemented[i] >> 4] |= (SQLUSMALLINT)(1u << (implemented[i] & 0xF));
        return SQL_SUCCESS;
    }
    if (function_id == SQL_API_ALL_FUNCTIONS) {
        /* ODBC 2: an array of 100 flags, for ids below 100 only. */
        for (SQLUSMALLINT id = 0; id < 100; id++)
            supported[id] = is_implemented(id) ? SQL_TRUE : SQL_FALSE;
        return SQL_SUCCESS;
    }
    *supported = is_implemented(function_id) ? SQL_TRUE : SQL_FALSE;
    return SQL_SUCCESS;
}
