/*
 * Output parameters (docs/statements.md, "Output parameters"): {?= call f(?)}
 * for a function's result, {call p(?, ?)} with SQL_PARAM_OUTPUT and
 * SQL_PARAM_INPUT_OUTPUT for a procedure's OUT and INOUT arguments and a
 * function's OUT arguments, values written with the usual conversion and
 * indicator rules (NULL, truncation 01004), the call's row left as the
 * result set as psqlODBC leaves it ({?= call} of a one-value function: a
 * row of no columns), a set-returning function giving its first row, an array of
 * calls filling each row's buffers, and the errors: an unknown function,
 * a value that does not fit its C type.
 */
#include "st_test.h"

/* Binds an int as parameter n, of direction io. */
static void bind_int(SQLHSTMT s, SQLUSMALLINT n, SQLSMALLINT io, SQLINTEGER *v, SQLLEN *ind)
{
    ST_OK(SQLBindParameter(s, n, io, SQL_C_SLONG, SQL_INTEGER, 0, 0, v, 0, ind), s);
}

static void setup(st_conn *c)
{
    st_exec(c, "create or replace function outp_add(a int, b int) returns int "
               "language sql as 'select a + b'");
    st_exec(c, "create or replace function outp_split(a int, out half int, out label text) "
               "language sql as $$select a / 2, 'n' || a$$");
    st_exec(c, "create or replace function outp_series(n int) returns setof int "
               "language sql as 'select generate_series(n, n + 3)'");
    st_exec(c, "create or replace procedure outp_scale(inout x int, factor int) "
               "language plpgsql as $$begin x := x * factor; end$$");
    st_exec(c, "create or replace procedure outp_out(a int, out twice int, out note text) "
               "language plpgsql as $$begin twice := a * 2; note := null; end$$");
}

/* {?= call f(?, ?)}: parameter 1 gets the result; the call's row stays,
 * without the value (a row of no columns), as psqlODBC leaves it. */
static void function_result(st_conn *c)
{
    SQLHSTMT s = st_stmt(c);
    SQLINTEGER result = -1, a = 40, b = 2;
    SQLLEN result_ind = 0;
    ST_OK(SQLPrepare(s, (SQLCHAR *)"{? = call outp_add(?, ?)}", SQL_NTS), s);
    bind_int(s, 1, SQL_PARAM_OUTPUT, &result, &result_ind);
    bind_int(s, 2, SQL_PARAM_INPUT, &a, NULL);
    bind_int(s, 3, SQL_PARAM_INPUT, &b, NULL);
    ST_OK(SQLExecute(s), s);
    ST_CHECK(result == 42 && result_ind == sizeof(SQLINTEGER), "result %d, indicator %ld",
             (int)result, (long)result_ind);
    SQLSMALLINT cols = -1;
    ST_OK(SQLNumResultCols(s, &cols), s);
    ST_CHECK(cols == 0, "the value is hidden: %d columns", (int)cols);
    ST_CHECK(SQLFetch(s) == SQL_SUCCESS, "the call's row is there");
    SQLINTEGER got = 0;
    ST_EXPECT_STATE(SQLGetData(s, 1, SQL_C_SLONG, &got, 0, NULL), s, "07009");
    ST_CHECK(SQLFetch(s) == SQL_NO_DATA, "one row");
    ST_CHECK(SQLMoreResults(s) == SQL_NO_DATA, "nothing more");
    /* Executed again with other inputs. */
    a = 1;
    ST_OK(SQLExecute(s), s);
    ST_CHECK(result == 3, "second execution: %d", (int)result);
    SQLFreeHandle(SQL_HANDLE_STMT, s);
}

/* A procedure's INOUT argument comes back changed; its OUT ones are
 * written, a NULL one as SQL_NULL_DATA. */
static void procedure_arguments(st_conn *c)
{
    SQLHSTMT s = st_stmt(c);
    SQLINTEGER x = 5, factor = 3;
    SQLLEN x_ind = 0;
    bind_int(s, 1, SQL_PARAM_INPUT_OUTPUT, &x, &x_ind);
    bind_int(s, 2, SQL_PARAM_INPUT, &factor, NULL);
    ST_OK(SQLExecDirect(s, (SQLCHAR *)"{call outp_scale(?, ?)}", SQL_NTS), s);
    ST_CHECK(x == 15, "INOUT x: %d", (int)x);
    SQLFreeHandle(SQL_HANDLE_STMT, s);

    s = st_stmt(c);
    SQLINTEGER a = 21, twice = 0;
    char note[16] = "unchanged";
    SQLLEN twice_ind = 0, note_ind = 0;
    bind_int(s, 1, SQL_PARAM_INPUT, &a, NULL);
    bind_int(s, 2, SQL_PARAM_OUTPUT, &twice, &twice_ind);
    ST_OK(SQLBindParameter(s, 3, SQL_PARAM_OUTPUT, SQL_C_CHAR, SQL_VARCHAR, 15, 0, note,
                           sizeof note, &note_ind), s);
    ST_OK(SQLExecDirect(s, (SQLCHAR *)"{call outp_out(?, ?, ?)}", SQL_NTS), s);
    ST_CHECK(twice == 42 && note_ind == SQL_NULL_DATA, "OUT: %d, note indicator %ld",
             (int)twice, (long)note_ind);
    SQLFreeHandle(SQL_HANDLE_STMT, s);

    /* A procedure without output parameters runs too (CALL, not SELECT). */
    st_exec(c, "{call outp_scale(1, 2)}");
}

/* A function's OUT arguments: left out of the call, written after it; a
 * text too long for its buffer is truncated with 01004. */
static void function_out_arguments(st_conn *c)
{
    SQLHSTMT s = st_stmt(c);
    SQLINTEGER a = 12345, half = 0;
    char label[4];
    SQLLEN half_ind = 0, label_ind = 0;
    bind_int(s, 1, SQL_PARAM_INPUT, &a, NULL);
    bind_int(s, 2, SQL_PARAM_OUTPUT, &half, &half_ind);
    ST_OK(SQLBindParameter(s, 3, SQL_PARAM_OUTPUT, SQL_C_CHAR, SQL_VARCHAR, 10, 0, label,
                           sizeof label, &label_ind), s);
    SQLRETURN rc = SQLExecDirect(s, (SQLCHAR *)"{call outp_split(?, ?, ?)}", SQL_NTS);
    ST_CHECK(rc == SQL_SUCCESS_WITH_INFO && st_has_state(SQL_HANDLE_STMT, s, "01004"),
             "truncated label: rc %d", (int)rc);
    ST_CHECK(half == 6172 && strcmp(label, "n12") == 0 && label_ind == 6,
             "half %d, label '%s' (indicator %ld)", (int)half, label, (long)label_ind);
    /* The row stays the result set, every column of it, as with psqlODBC. */
    SQLSMALLINT cols = -1;
    ST_OK(SQLNumResultCols(s, &cols), s);
    ST_CHECK(cols == 2, "the call's row has its 2 columns: %d", (int)cols);
    SQLINTEGER again = 0;
    ST_OK(SQLFetch(s), s);
    ST_OK(SQLGetData(s, 1, SQL_C_SLONG, &again, 0, NULL), s);
    ST_CHECK(again == 6172, "column 1 of the row: %d", (int)again);
    ST_CHECK(SQLFetch(s) == SQL_NO_DATA, "one row");
    SQLFreeHandle(SQL_HANDLE_STMT, s);
}

/* A set-returning function: the first row goes to the result parameter;
 * its rows stay, without the value, as rows of no columns. */
static void set_returning_function(st_conn *c)
{
    SQLHSTMT s = st_stmt(c);
    SQLINTEGER result = 0, n = 7;
    SQLLEN ind = 0;
    bind_int(s, 1, SQL_PARAM_OUTPUT, &result, &ind);
    bind_int(s, 2, SQL_PARAM_INPUT, &n, NULL);
    ST_OK(SQLExecDirect(s, (SQLCHAR *)"{?= call outp_series(?)}", SQL_NTS), s);
    ST_CHECK(result == 7, "first row: %d", (int)result);
    int rows = 0;
    while (SQLFetch(s) == SQL_SUCCESS)
        rows++;
    ST_CHECK(rows == 4, "the function's 4 rows stay: %d", rows);
    ST_CHECK(SQLMoreResults(s) == SQL_NO_DATA, "one result");
    SQLFreeHandle(SQL_HANDLE_STMT, s);
}

/* An array of calls: each row's output lands in its own slot. */
static void array_of_calls(st_conn *c)
{
    SQLHSTMT s = st_stmt(c);
    SQLINTEGER results[3] = {0}, as[3] = {1, 2, 3}, bs[3] = {10, 20, 30};
    SQLLEN ind[3] = {0};
    SQLUSMALLINT status[3];
    ST_OK(SQLSetStmtAttr(s, SQL_ATTR_PARAMSET_SIZE, (SQLPOINTER)3, 0), s);
    ST_OK(SQLSetStmtAttr(s, SQL_ATTR_PARAM_STATUS_PTR, status, 0), s);
    bind_int(s, 1, SQL_PARAM_OUTPUT, results, ind);
    bind_int(s, 2, SQL_PARAM_INPUT, as, NULL);
    bind_int(s, 3, SQL_PARAM_INPUT, bs, NULL);
    ST_OK(SQLExecDirect(s, (SQLCHAR *)"{? = call outp_add(?, ?)}", SQL_NTS), s);
    ST_CHECK(results[0] == 11 && results[1] == 22 && results[2] == 33, "results %d %d %d",
             (int)results[0], (int)results[1], (int)results[2]);
    ST_CHECK(status[0] == SQL_PARAM_SUCCESS && status[2] == SQL_PARAM_SUCCESS, "statuses");
    SQLFreeHandle(SQL_HANDLE_STMT, s);
}

/* Errors: an unknown function (42883), a result that does not fit its C
 * type (22003), a {?= without call (42000). */
static void errors(st_conn *c)
{
    SQLHSTMT s = st_stmt(c);
    SQLINTEGER result = 0, a = 1;
    SQLSMALLINT small = 0;
    SQLLEN ind = 0;
    bind_int(s, 1, SQL_PARAM_OUTPUT, &result, &ind);
    bind_int(s, 2, SQL_PARAM_INPUT, &a, NULL);
    ST_EXPECT_STATE(SQLExecDirect(s, (SQLCHAR *)"{?= call outp_missing(?)}", SQL_NTS), s,
                    "42883");
    ST_OK(SQLBindParameter(s, 1, SQL_PARAM_OUTPUT, SQL_C_SSHORT, SQL_SMALLINT, 0, 0, &small, 0,
                           &ind), s);
    SQLINTEGER big = 100000;
    bind_int(s, 2, SQL_PARAM_INPUT, &big, NULL);
    SQLINTEGER zero = 0;
    bind_int(s, 3, SQL_PARAM_INPUT, &zero, NULL);
    ST_EXPECT_STATE(SQLExecDirect(s, (SQLCHAR *)"{?= call outp_add(?, ?)}", SQL_NTS), s, "22003");
    ST_EXPECT_STATE(SQLExecDirect(s, (SQLCHAR *)"{?= outp_add(?, ?)}", SQL_NTS), s, "42000");
    SQLFreeHandle(SQL_HANDLE_STMT, s);
    ST_CHECK(strcmp(st_query_text(c, "select 1"), "1") == 0, "the connection works on");
}

/* How often the server ran the driver's question "procedure or function?"
 * (pg_stat_statements). */
static long kind_lookups(st_conn *c)
{
    return atol(st_query_text(c, "select coalesce(sum(calls), 0) from pg_stat_statements "
                                 "where query like '%pg_function_is_visible(p.oid)%' "
                                 "and query not like '%pg_stat_statements%'"));
}

/* A called name's kind is asked once per connection, and again after the
 * connection ran DDL (which may have made the name a procedure). Counted
 * on the one server of a general connection. */
static void kind_asked_once_per_name(void)
{
    st_conn c;
    st_connect(&c);
    long before = kind_lookups(&c);
    for (int i = 0; i < 3; i++)
        st_exec(&c, "{call outp_scale(1, 2)}");
    long once = kind_lookups(&c);
    ST_CHECK(once - before == 1, "three calls asked %ld times", once - before);
    st_exec(&c, "create or replace procedure outp_scale(inout x int, factor int) "
                "language plpgsql as $$begin x := x * factor; end$$");
    st_exec(&c, "{call outp_scale(1, 2)}");
    st_exec(&c, "{call outp_scale(1, 2)}");
    ST_CHECK(kind_lookups(&c) - once == 1, "asked again once after DDL: %ld",
             kind_lookups(&c) - once);
    st_disconnect(&c);
}

int main(void)
{
    st_conn c;
    st_connect(&c);
    setup(&c);
    function_result(&c);
    procedure_arguments(&c);
    function_out_arguments(&c);
    set_returning_function(&c);
    array_of_calls(&c);
    errors(&c);
    if (getenv("GC_TEST_GLOBAL") == NULL)
        kind_asked_once_per_name();
    st_exec(&c, "drop function outp_add, outp_split, outp_series");
    st_exec(&c, "drop procedure outp_scale, outp_out");
    st_disconnect(&c);
    return st_finish("output_params");
}
