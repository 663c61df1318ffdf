/*
 * SQLGetFunctions must say true exactly for the entry points libgcodbc.so
 * exports (unixODBC disables what the driver reports missing, and calls
 * whatever it reports present). Loads the built library directly with
 * dlopen, asks its own SQLGetFunctions, and compares with dlsym.
 * Needs no server.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <link.h>
#include <stdbool.h>
#include <sql.h>
#include <sqlext.h>
#include <stdio.h>
#include <string.h>

typedef struct api { const char *name; SQLUSMALLINT id; } api;

/* Every ODBC 3.x function a driver can implement (not the driver manager's
 * own SQLDataSources / SQLDrivers, nor the ODBC 2 names mapped by it). */
static const api apis[] = {
    {"SQLAllocHandle", SQL_API_SQLALLOCHANDLE}, {"SQLBindCol", SQL_API_SQLBINDCOL},
    {"SQLBindParameter", SQL_API_SQLBINDPARAMETER},
    {"SQLBrowseConnect", SQL_API_SQLBROWSECONNECT},
    {"SQLBulkOperations", SQL_API_SQLBULKOPERATIONS}, {"SQLCancel", SQL_API_SQLCANCEL},
    {"SQLCloseCursor", SQL_API_SQLCLOSECURSOR}, {"SQLColAttribute", SQL_API_SQLCOLATTRIBUTE},
    {"SQLColumnPrivileges", SQL_API_SQLCOLUMNPRIVILEGES}, {"SQLColumns", SQL_API_SQLCOLUMNS},
    {"SQLConnect", SQL_API_SQLCONNECT}, {"SQLCopyDesc", SQL_API_SQLCOPYDESC},
    {"SQLDescribeCol", SQL_API_SQLDESCRIBECOL}, {"SQLDescribeParam", SQL_API_SQLDESCRIBEPARAM},
    {"SQLDisconnect", SQL_API_SQLDISCONNECT}, {"SQLDriverConnect", SQL_API_SQLDRIVERCONNECT},
    {"SQLEndTran", SQL_API_SQLENDTRAN}, {"SQLExecDirect", SQL_API_SQLEXECDIRECT},
    {"SQLExecute", SQL_API_SQLEXECUTE}, {"SQLExtendedFetch", SQL_API_SQLEXTENDEDFETCH},
    {"SQLFetch", SQL_API_SQLFETCH}, {"SQLFetchScroll", SQL_API_SQLFETCHSCROLL},
    {"SQLForeignKeys", SQL_API_SQLFOREIGNKEYS}, {"SQLFreeHandle", SQL_API_SQLFREEHANDLE},
    {"SQLFreeStmt", SQL_API_SQLFREESTMT}, {"SQLGetConnectAttr", SQL_API_SQLGETCONNECTATTR},
    {"SQLGetCursorName", SQL_API_SQLGETCURSORNAME}, {"SQLGetData", SQL_API_SQLGETDATA},
    {"SQLGetDescField", SQL_API_SQLGETDESCFIELD}, {"SQLGetDescRec", SQL_API_SQLGETDESCREC},
    {"SQLGetDiagField", SQL_API_SQLGETDIAGFIELD}, {"SQLGetDiagRec", SQL_API_SQLGETDIAGREC},
    {"SQLGetEnvAttr", SQL_API_SQLGETENVATTR}, {"SQLGetFunctions", SQL_API_SQLGETFUNCTIONS},
    {"SQLGetInfo", SQL_API_SQLGETINFO}, {"SQLGetStmtAttr", SQL_API_SQLGETSTMTATTR},
    {"SQLGetTypeInfo", SQL_API_SQLGETTYPEINFO}, {"SQLMoreResults", SQL_API_SQLMORERESULTS},
    {"SQLNativeSql", SQL_API_SQLNATIVESQL}, {"SQLNumParams", SQL_API_SQLNUMPARAMS},
    {"SQLNumResultCols", SQL_API_SQLNUMRESULTCOLS}, {"SQLParamData", SQL_API_SQLPARAMDATA},
    {"SQLPrepare", SQL_API_SQLPREPARE}, {"SQLPrimaryKeys", SQL_API_SQLPRIMARYKEYS},
    {"SQLProcedureColumns", SQL_API_SQLPROCEDURECOLUMNS},
    {"SQLProcedures", SQL_API_SQLPROCEDURES}, {"SQLPutData", SQL_API_SQLPUTDATA},
    {"SQLRowCount", SQL_API_SQLROWCOUNT}, {"SQLSetConnectAttr", SQL_API_SQLSETCONNECTATTR},
    {"SQLSetCursorName", SQL_API_SQLSETCURSORNAME}, {"SQLSetDescField", SQL_API_SQLSETDESCFIELD},
    {"SQLSetDescRec", SQL_API_SQLSETDESCREC}, {"SQLSetEnvAttr", SQL_API_SQLSETENVATTR},
    {"SQLSetPos", SQL_API_SQLSETPOS}, {"SQLSetStmtAttr", SQL_API_SQLSETSTMTATTR},
    {"SQLSpecialColumns", SQL_API_SQLSPECIALCOLUMNS}, {"SQLStatistics", SQL_API_SQLSTATISTICS},
    {"SQLTablePrivileges", SQL_API_SQLTABLEPRIVILEGES}, {"SQLTables", SQL_API_SQLTABLES},
    /* ODBC 2 names a driver may export itself */
    {"SQLAllocConnect", SQL_API_SQLALLOCCONNECT}, {"SQLAllocEnv", SQL_API_SQLALLOCENV},
    /* (SQLColAttributes shares SQLColAttribute's id: not listed) */
    {"SQLAllocStmt", SQL_API_SQLALLOCSTMT},
    {"SQLError", SQL_API_SQLERROR}, {"SQLFreeConnect", SQL_API_SQLFREECONNECT},
    {"SQLFreeEnv", SQL_API_SQLFREEENV}, {"SQLGetConnectOption", SQL_API_SQLGETCONNECTOPTION},
    {"SQLGetStmtOption", SQL_API_SQLGETSTMTOPTION}, {"SQLParamOptions", SQL_API_SQLPARAMOPTIONS},
    {"SQLSetConnectOption", SQL_API_SQLSETCONNECTOPTION}, {"SQLSetParam", SQL_API_SQLSETPARAM},
    {"SQLSetScrollOptions", SQL_API_SQLSETSCROLLOPTIONS},
    {"SQLSetStmtOption", SQL_API_SQLSETSTMTOPTION}, {"SQLTransact", SQL_API_SQLTRANSACT},
};

/* The symbol `name` when the library itself defines it: dlsym also finds
 * symbols of the libraries it depends on, which do not count. */
static void *own_symbol(void *lib, const char *lib_path, const char *name)
{
    void *sym = dlsym(lib, name);
    Dl_info info;
    if (sym == NULL || dladdr(sym, &info) == 0)
        return NULL;
    return strcmp(info.dli_fname, lib_path) == 0 ? sym : NULL;
}

typedef SQLRETURN (*alloc_fn)(SQLSMALLINT, SQLHANDLE, SQLHANDLE *);
typedef SQLRETURN (*free_fn)(SQLSMALLINT, SQLHANDLE);
typedef SQLRETURN (*functions_fn)(SQLHDBC, SQLUSMALLINT, SQLUSMALLINT *);

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s path/to/libgcodbc.so\n", argv[0]);
        return 2;
    }
    void *lib = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    if (lib == NULL) {
        fprintf(stderr, "dlopen: %s\n", dlerror());
        return 2;
    }
    struct link_map *map = NULL;
    if (dlinfo(lib, RTLD_DI_LINKMAP, &map) != 0 || map == NULL) {
        fprintf(stderr, "dlinfo: %s\n", dlerror());
        return 2;
    }
    const char *path = map->l_name;
    alloc_fn alloc = (alloc_fn)own_symbol(lib, path, "SQLAllocHandle");
    free_fn release = (free_fn)own_symbol(lib, path, "SQLFreeHandle");
    functions_fn functions = (functions_fn)own_symbol(lib, path, "SQLGetFunctions");
    if (alloc == NULL || release == NULL || functions == NULL) {
        fprintf(stderr, "the library lacks SQLAllocHandle/SQLFreeHandle/SQLGetFunctions\n");
        return 1;
    }
    SQLHENV env;
    SQLHDBC dbc;
    alloc(SQL_HANDLE_ENV, SQL_NULL_HANDLE, &env);
    alloc(SQL_HANDLE_DBC, env, &dbc);

    int failures = 0;
    SQLUSMALLINT bitmap[SQL_API_ODBC3_ALL_FUNCTIONS_SIZE];
    if (functions(dbc, SQL_API_ODBC3_ALL_FUNCTIONS, bitmap) != SQL_SUCCESS) {
        fprintf(stderr, "SQLGetFunctions(SQL_API_ODBC3_ALL_FUNCTIONS) failed\n");
        failures++;
    }
    int exported = 0;
    for (size_t i = 0; i < sizeof apis / sizeof apis[0]; i++) {
        bool has_symbol = own_symbol(lib, path, apis[i].name) != NULL;
        bool says = SQL_FUNC_EXISTS(bitmap, apis[i].id) == SQL_TRUE;
        SQLUSMALLINT one = 99;
        functions(dbc, apis[i].id, &one);
        exported += has_symbol;
        if (has_symbol != says || (one == SQL_TRUE) != says) {
            fprintf(stderr, "%s: exported=%d, bitmap=%d, single=%d\n", apis[i].name,
                    has_symbol, says, one);
            failures++;
        }
        /* A W entry point without its ANSI twin would be a mistake too. */
        char wname[64];
        snprintf(wname, sizeof wname, "%sW", apis[i].name);
        if (own_symbol(lib, path, wname) != NULL && !has_symbol) {
            fprintf(stderr, "%s exported without %s\n", wname, apis[i].name);
            failures++;
        }
    }
    release(SQL_HANDLE_DBC, dbc);
    release(SQL_HANDLE_ENV, env);
    dlclose(lib);
    printf("%d ODBC functions exported; %d mismatch(es)\n", exported, failures);
    return failures == 0 ? 0 : 1;
}
