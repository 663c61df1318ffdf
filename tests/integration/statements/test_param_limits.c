/*
 * How many parameters a statement may have (docs/statements.md, "How many
 * parameters"): PostgreSQL's 65,535 all bind and run; a 65,536th marker is
 * refused at SQLPrepare / SQLExecDirect with 54023. libpq cannot read the
 * server's description of more than 7,498 parameters, so beyond that
 * SQLDescribeParam answers from the bindings and SQLNumResultCols before
 * SQLExecute gives 54000, both without sending anything: the session (on a
 * global connection every member) stays up. SQLNumParams reports at most
 * 32,767 (its SQLSMALLINT), else 22003. Parameter numbers above 32,767 bind.
 */
#include "st_test.h"

/* "select cardinality(array[?::int, ...]), coalesce(sum(...))" with n
 * markers: one row, the marker count and the sum of the bound values. */
static char *array_text(int n)
{
    size_t cap = 128 + (size_t)n * 8;
    char *sql = malloc(cap);
    size_t at = (size_t)snprintf(sql, cap, "select cardinality(a), (select coalesce(sum(x), 0) "
                                 "from unnest(a) x) from (select array[");
    for (int i = 0; i < n; i++)
        at += (size_t)snprintf(sql + at, cap - at, "%s?::int", i > 0 ? "," : "");
    snprintf(sql + at, cap - at, "] as a) t");
    return sql;
}

/* A new statement with array_text(n) prepared. */
static SQLHSTMT prepare_markers(st_conn *c, int n)
{
    SQLHSTMT s = st_stmt(c);
    char *sql = array_text(n);
    ST_OK(SQLPrepare(s, (SQLCHAR *)sql, SQL_NTS), s);
    free(sql);
    return s;
}

/* Binds parameters 1..n to values[i] (NULL when ind[i] is SQL_NULL_DATA). */
static void bind_all(SQLHSTMT s, int n, SQLINTEGER *values, SQLLEN *ind)
{
    for (int i = 0; i < n; i++) {
        SQLRETURN rc = SQLBindParameter(s, (SQLUSMALLINT)(i + 1), SQL_PARAM_INPUT, SQL_C_SLONG,
                                        SQL_INTEGER, 0, 0, &values[i], 0, &ind[i]);
        if (!ST_SUCCEEDED(rc)) {
            ST_OK(rc, s);
            return;
        }
    }
}

/* Fetches the one row of array_text's query and checks it. */
static void expect_row(SQLHSTMT s, int n, long long sum)
{
    SQLINTEGER count = -1;
    SQLBIGINT total = -1;
    ST_OK(SQLFetch(s), s);
    ST_OK(SQLGetData(s, 1, SQL_C_SLONG, &count, 0, NULL), s);
    ST_OK(SQLGetData(s, 2, SQL_C_SBIGINT, &total, 0, NULL), s);
    ST_CHECK(count == n && total == sum, "%d markers: cardinality %d, sum %lld (want %lld)", n,
             (int)count, (long long)total, sum);
    ST_OK(SQLCloseCursor(s), s);
}

/* The session still answers; on a global connection no member is down. */
static void expect_session_intact(st_conn *c, const char *after)
{
    ST_CHECK(strcmp(st_query_text(c, "select 41 + 1"), "42") == 0,
             "the session answers after %s", after);
    if (getenv("GC_TEST_GLOBAL") == NULL)
        return;
    SQLHSTMT show = st_stmt(c);
    ST_OK(SQLExecDirect(show, (SQLCHAR *)"show global connection", SQL_NTS), show);
    int rows = 0;
    while (SQL_SUCCEEDED(SQLFetch(show))) {
        SQLCHAR name[64] = "", state[32] = "";
        SQLGetData(show, 1, SQL_C_CHAR, name, sizeof name, NULL);
        SQLGetData(show, 4, SQL_C_CHAR, state, sizeof state, NULL);
        ST_CHECK(strcmp((char *)state, "down") != 0, "member %s is down after %s", name, after);
        rows++;
    }
    ST_CHECK(rows > 0, "SHOW GLOBAL CONNECTION lists the members");
    SQLFreeHandle(SQL_HANDLE_STMT, show);
}

int main(void)
{
    enum { MAX = 65535 };
    st_conn c;
    st_connect(&c);
    SQLINTEGER *values = malloc(sizeof *values * (MAX + 1));
    SQLLEN *ind = malloc(sizeof *ind * (MAX + 1));
    SQLLEN *nulls = malloc(sizeof *nulls * (MAX + 1));
    for (int i = 0; i <= MAX; i++) {
        values[i] = 1;
        ind[i] = 0;
        nulls[i] = SQL_NULL_DATA;
    }
    SQLSMALLINT type = 0, digits = 0, nullable = 0, count = 0;
    SQLULEN size = 0;

    /* 7,498 parameters: the most the server describes through libpq. */
    SQLHSTMT s = prepare_markers(&c, 7498);
    ST_OK(SQLNumParams(s, &count), s);
    ST_CHECK(count == 7498, "SQLNumParams gave %d for 7,498 markers", count);
    ST_OK(SQLDescribeParam(s, 7498, &type, &size, &digits, &nullable), s);
    ST_CHECK(type == SQL_INTEGER, "the server describes marker 7,498 as int (%d)", type);
    ST_OK(SQLNumResultCols(s, &count), s);
    ST_CHECK(count == 2, "%d result columns before executing", count);
    bind_all(s, 7498, values, nulls);
    ST_OK(SQLExecute(s), s);
    expect_row(s, 7498, 0);
    SQLFreeHandle(SQL_HANDLE_STMT, s);

    /* 7,600 parameters bound to NULL, described first (as pyodbc does for
     * None): answered from the bindings, not by the server. */
    s = prepare_markers(&c, 7600);
    ST_OK(SQLDescribeParam(s, 1, &type, &size, &digits, &nullable), s);
    ST_CHECK(type == SQL_VARCHAR, "an unbound marker of 7,600 is described as varchar (%d)", type);
    bind_all(s, 7600, values, nulls);
    ST_OK(SQLDescribeParam(s, 7600, &type, &size, &digits, &nullable), s);
    ST_CHECK(type == SQL_INTEGER, "a bound marker of 7,600 is described as bound (%d)", type);
    expect_session_intact(&c, "SQLDescribeParam of 7,600 parameters");
    ST_EXPECT_STATE(SQLNumResultCols(s, &count), s, "54000");
    expect_session_intact(&c, "SQLNumResultCols of 7,600 parameters");
    ST_OK(SQLExecute(s), s);
    ST_OK(SQLNumResultCols(s, &count), s);
    ST_CHECK(count == 2, "%d result columns after executing", count);
    expect_row(s, 7600, 0);
    SQLFreeHandle(SQL_HANDLE_STMT, s);

    /* 60,000: numbers above 32,767 bind; SQLNumParams cannot say 60,000 in
     * an SQLSMALLINT and refuses rather than wrap to -5,536. */
    s = prepare_markers(&c, 60000);
    ST_EXPECT_STATE(SQLNumParams(s, &count), s, "22003");
    bind_all(s, 60000, values, ind);
    ST_OK(SQLDescribeParam(s, 40000, &type, &size, &digits, &nullable), s);
    ST_CHECK(type == SQL_INTEGER, "parameter 40,000 described as bound (%d)", type);
    ST_OK(SQLExecute(s), s);
    expect_row(s, 60000, 60000);
    /* Again, the server statement made once. */
    values[59999] = 2;
    ST_OK(SQLExecute(s), s);
    expect_row(s, 60000, 60001);
    values[59999] = 1;
    SQLFreeHandle(SQL_HANDLE_STMT, s);

    /* 65,535, PostgreSQL's limit, through SQLExecDirect. */
    s = st_stmt(&c);
    char *sql = array_text(MAX);
    bind_all(s, MAX, values, ind);
    ST_OK(SQLExecDirect(s, (SQLCHAR *)sql, SQL_NTS), s);
    expect_row(s, MAX, MAX);
    free(sql);

    /* 65,536: refused before anything is sent, by both ways in. */
    sql = array_text(MAX + 1);
    ST_EXPECT_STATE(SQLExecDirect(s, (SQLCHAR *)sql, SQL_NTS), s, "54023");
    ST_EXPECT_STATE(SQLPrepare(s, (SQLCHAR *)sql, SQL_NTS), s, "54023");
    free(sql);
    expect_session_intact(&c, "65,536 markers");
    ST_OK(SQLFreeStmt(s, SQL_RESET_PARAMS), s);
    ST_OK(SQLExecDirect(s, (SQLCHAR *)"select 1", SQL_NTS), s);
    ST_OK(SQLCloseCursor(s), s);

    /* Parameter number 0 is no parameter. */
    ST_EXPECT_STATE(SQLBindParameter(s, 0, SQL_PARAM_INPUT, SQL_C_SLONG, SQL_INTEGER, 0, 0,
                                     &values[0], 0, NULL), s, "07009");
    SQLFreeHandle(SQL_HANDLE_STMT, s);

    free(values);
    free(ind);
    free(nulls);
    st_disconnect(&c);
    return st_finish("statements_param_limits");
}
