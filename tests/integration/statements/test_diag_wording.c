/*
 * Server errors and notices are worded as psqlODBC 13 words them, with its
 * native error numbers, so that a program moving from psqlODBC reads the
 * same record 1 (docs/sqlstates.md, "Message format"):
 *   "<severity>: <primary>[\nDETAIL: <detail>];\n<what the call was doing>"
 * The SQLSTATE stays the server's. A HINT, which psqlODBC drops, is the
 * next record. The notices of one call are one record, joined with ';'. A fetch on a statement without a result set finds no data.
 */
#include "st_test.h"

/* Record `n` of the statement: its SQLSTATE, native error and text. */
static SQLRETURN record(SQLHSTMT s, SQLSMALLINT n, char *state, SQLINTEGER *native,
                        char *text, SQLSMALLINT size)
{
    SQLSMALLINT len = 0;
    return SQLGetDiagRec(SQL_HANDLE_STMT, s, n, (SQLCHAR *)state, native, (SQLCHAR *)text,
                         size, &len);
}

/* Expects record 1 of s to be exactly (state, native, text). */
static void expect_first(SQLHSTMT s, const char *what, const char *state, SQLINTEGER native,
                         const char *text)
{
    char got_state[6] = "", got[2048] = "";
    SQLINTEGER got_native = -99;
    SQLRETURN rc = record(s, 1, got_state, &got_native, got, sizeof got);
    ST_CHECK(rc == SQL_SUCCESS, "%s: no record (%d)", what, rc);
    ST_CHECK(strcmp(got_state, state) == 0, "%s: SQLSTATE %s, want %s", what, got_state, state);
    ST_CHECK(got_native == native, "%s: native %d, want %d", what, (int)got_native, (int)native);
    ST_CHECK(strcmp(got, text) == 0, "%s:\n got  <%s>\n want <%s>", what, got, text);
}

/* Expects s to hold exactly `count` records. */
static void expect_count(SQLHSTMT s, const char *what, SQLINTEGER count)
{
    SQLINTEGER n = -1;
    SQLGetDiagField(SQL_HANDLE_STMT, s, 0, SQL_DIAG_NUMBER, &n, 0, NULL);
    ST_CHECK(n == count, "%s: %d records, want %d", what, (int)n, (int)count);
}

static void test_exec_direct(st_conn *c)
{
    SQLHSTMT s = st_stmt(c);
    ST_EXPECT_STATE(SQLExecDirect(s, (SQLCHAR *)"select no_such_column", SQL_NTS), s, "42703");
    expect_first(s, "missing column", "42703", 1,
                 "ERROR: column \"no_such_column\" does not exist;\n"
                 "Error while executing the query");
    expect_count(s, "missing column", 1);

    ST_EXPECT_STATE(SQLExecDirect(s, (SQLCHAR *)"selec 1", SQL_NTS), s, "42601");
    expect_first(s, "syntax error", "42601", 1,
                 "ERROR: syntax error at or near \"selec\";\nError while executing the query");

    /* A constraint's DETAIL follows the message, before the call's line. */
    ST_OK(SQLExecDirect(s, (SQLCHAR *)"insert into diag_words values (1)", SQL_NTS), s);
    ST_EXPECT_STATE(SQLExecDirect(s, (SQLCHAR *)"insert into diag_words values (1)", SQL_NTS), s,
                    "23505");
    expect_first(s, "unique violation", "23505", 1,
                 "ERROR: duplicate key value violates unique constraint \"diag_words_pkey\"\n"
                 "DETAIL: Key (id)=(1) already exists.;\nError while executing the query");

    /* Parameters given to SQLExecDirect: still "executing". */
    SQLINTEGER one = 1;
    ST_OK(SQLBindParameter(s, 1, SQL_PARAM_INPUT, SQL_C_SLONG, SQL_INTEGER, 0, 0, &one, 0, NULL),
          s);
    ST_EXPECT_STATE(SQLExecDirect(s, (SQLCHAR *)"select nothing_here where 1 = ?", SQL_NTS), s,
                    "42703");
    expect_first(s, "direct with a parameter", "42703", 1,
                 "ERROR: column \"nothing_here\" does not exist;\n"
                 "Error while executing the query");
    ST_OK(SQLFreeStmt(s, SQL_RESET_PARAMS), s);
    SQLFreeHandle(SQL_HANDLE_STMT, s);
}

/* What the call was doing: preparing at SQLExecute, describing before it. */
static void test_prepared(st_conn *c)
{
    SQLHSTMT s = st_stmt(c);
    ST_OK(SQLPrepare(s, (SQLCHAR *)"select missing_one from diag_words", SQL_NTS), s);
    ST_EXPECT_STATE(SQLExecute(s), s, "42703");
    expect_first(s, "SQLExecute of a refused text", "42703", 1,
                 "ERROR: column \"missing_one\" does not exist;\n"
                 "Error while preparing parameters");

    ST_OK(SQLPrepare(s, (SQLCHAR *)"select missing_two from diag_words", SQL_NTS), s);
    SQLSMALLINT cols = -1;
    ST_EXPECT_STATE(SQLNumResultCols(s, &cols), s, "42703");
    expect_first(s, "SQLNumResultCols before SQLExecute", "42703", 1,
                 "ERROR: column \"missing_two\" does not exist;\n"
                 "No query has been executed with that handle");

    /* A text the server takes, failing while it runs: executing. */
    SQLINTEGER id = 1;
    ST_OK(SQLPrepare(s, (SQLCHAR *)"insert into diag_words values (?)", SQL_NTS), s);
    ST_OK(SQLBindParameter(s, 1, SQL_PARAM_INPUT, SQL_C_SLONG, SQL_INTEGER, 0, 0, &id, 0, NULL),
          s);
    ST_EXPECT_STATE(SQLExecute(s), s, "23505");
    expect_first(s, "SQLExecute failing at run time", "23505", 1,
                 "ERROR: duplicate key value violates unique constraint \"diag_words_pkey\"\n"
                 "DETAIL: Key (id)=(1) already exists.;\nError while executing the query");
    SQLFreeHandle(SQL_HANDLE_STMT, s);
}

/* An error in rows that arrive after SQLExecDirect returned: fetching.
 * FetchWindowRows=1 lets the first row through before the failing one. */
static void test_fetch(void)
{
    st_conn c;
    st_connect_with(&c, "FetchWindowRows=1");
    SQLHSTMT s = st_stmt(&c);
    SQLRETURN rc = SQLExecDirect(
        s, (SQLCHAR *)"select 10 / (3 - g) from generate_series(1, 5) g", SQL_NTS);
    ST_OK(rc, s);
    while ((rc = SQLFetch(s)) == SQL_SUCCESS)
        ;
    ST_CHECK(rc == SQL_ERROR, "fetching into the division by zero: %d", rc);
    expect_first(s, "error while fetching", "22012", 1,
                 "ERROR: division by zero;\nError while fetching the next result");
    SQLFreeHandle(SQL_HANDLE_STMT, s);
    st_disconnect(&c);
}

/* A HINT, which psqlODBC leaves out, is the next record, same SQLSTATE. */
static void test_hint_record(st_conn *c)
{
    SQLHSTMT s = st_stmt(c);
    ST_EXPECT_STATE(SQLExecDirect(s,
                                  (SQLCHAR *)"do $$begin raise exception 'refused here' using "
                                             "detail = 'the detail', hint = 'the hint', "
                                             "errcode = 'P0001'; end$$",
                                  SQL_NTS),
                    s, "P0001");
    expect_first(s, "raised with detail and hint", "P0001", 1,
                 "ERROR: refused here\nDETAIL: the detail;\nError while executing the query");
    expect_count(s, "raised with detail and hint", 2);
    char state[6] = "", text[512] = "";
    SQLINTEGER native = -99;
    ST_CHECK(record(s, 2, state, &native, text, sizeof text) == SQL_SUCCESS, "no hint record");
    ST_CHECK(strcmp(state, "P0001") == 0 && native == 1 && strcmp(text, "HINT: the hint") == 0,
             "hint record %s %d <%s>", state, (int)native, text);
    SQLFreeHandle(SQL_HANDLE_STMT, s);
}

/* A message longer than the application's buffer is cut, SQL_SUCCESS_WITH_INFO
 * with its whole length, and stays one record: psqlODBC hands the rest out as
 * records 2, 3, ... (docs/psqlodbc-differences.md). */
static void test_long_message_is_one_record(st_conn *c)
{
    SQLHSTMT s = st_stmt(c);
    SQLRETURN rc = SQLExecDirect(
        s, (SQLCHAR *)"do $$begin raise exception '%', repeat('x', 5000); end$$", SQL_NTS);
    ST_CHECK(rc == SQL_ERROR, "long message exec rc %d", rc);

    char state[6] = "", text[100];
    SQLINTEGER native = 0;
    SQLSMALLINT len = 0;
    rc = SQLGetDiagRec(SQL_HANDLE_STMT, s, 1, (SQLCHAR *)state, &native, (SQLCHAR *)text,
                       sizeof text, &len);
    ST_CHECK(rc == SQL_SUCCESS_WITH_INFO, "long message rc %d", rc);
    ST_CHECK(strcmp(state, "P0001") == 0, "long message SQLSTATE %s", state);
    ST_CHECK(strlen(text) == sizeof text - 1 && strncmp(text, "ERROR: xxx", 10) == 0,
             "long message cut to <%s>", text);
    ST_CHECK(len > 5000, "long message length %d", len);
    expect_count(s, "long message", 1);
    rc = SQLGetDiagRec(SQL_HANDLE_STMT, s, 2, (SQLCHAR *)state, &native, (SQLCHAR *)text,
                       sizeof text, &len);
    ST_CHECK(rc == SQL_NO_DATA, "record 2 of a long message rc %d", rc);
    SQLFreeHandle(SQL_HANDLE_STMT, s);
}

/* Notices: "<severity>: <message>", native -1, nothing more in the text. */
static void test_notice(st_conn *c)
{
    SQLHSTMT s = st_stmt(c);
    SQLRETURN rc = SQLExecDirect(
        s, (SQLCHAR *)"do $$begin raise notice 'noted here' using errcode = '01P01'; end$$",
        SQL_NTS);
    ST_CHECK(rc == SQL_SUCCESS_WITH_INFO, "notice rc %d", rc);
    expect_first(s, "notice with its own code (01P01)", "01P01", -1, "NOTICE: noted here");
    SQLFreeHandle(SQL_HANDLE_STMT, s);
}

/* The notices of one call are one record, as psqlODBC gives them (programs
 * print record 1): their texts in the order the server sent them, joined
 * with ';', a DETAIL after its message, under the last one's SQLSTATE. */
static void test_notices_of_one_call(st_conn *c)
{
    SQLHSTMT s = st_stmt(c);
    SQLRETURN rc = SQLExecDirect(
        s, (SQLCHAR *)"do $$begin raise notice 'first'; raise warning 'second'; "
                      "raise notice 'third' using detail = 'more', errcode = '01P01'; end$$",
        SQL_NTS);
    ST_CHECK(rc == SQL_SUCCESS_WITH_INFO, "notices rc %d", rc);
    expect_first(s, "three notices", "01P01", -1,
                 "NOTICE: first;WARNING: second;NOTICE: third\nDETAIL: more");
    expect_count(s, "three notices", 1);

    /* A warning last: its SQLSTATE (01000) is the record's. */
    rc = SQLExecDirect(s, (SQLCHAR *)"do $$begin raise notice 'a'; raise warning 'b'; end$$",
                       SQL_NTS);
    ST_CHECK(rc == SQL_SUCCESS_WITH_INFO, "notice and warning rc %d", rc);
    expect_first(s, "notice then warning", "01000", -1, "NOTICE: a;WARNING: b");
    expect_count(s, "notice then warning", 1);

    /* A failing call: its error is record 1, the notices one record after it. */
    ST_EXPECT_STATE(SQLExecDirect(s, (SQLCHAR *)"do $$begin raise notice 'x'; raise notice 'y'; "
                                               "raise exception 'stop' using errcode = '22012'; end$$",
                                  SQL_NTS),
                    s, "22012");
    expect_count(s, "error after notices", 2);
    char state[6] = "", text[256] = "";
    SQLINTEGER native = 0;
    ST_CHECK(record(s, 2, state, &native, text, sizeof text) == SQL_SUCCESS &&
                 strcmp(state, "00000") == 0 && native == -1 &&
                 strcmp(text, "NOTICE: x;NOTICE: y") == 0,
             "notices after the error: %s %d <%s>", state, (int)native, text);

    /* A notice under an error's code (CREATE TABLE IF NOT EXISTS: 42P07)
     * keeps it, as psqlODBC gives it, and never comes before an error. */
    rc = SQLExecDirect(s, (SQLCHAR *)"do $$begin raise notice 'exists' using errcode = '42P07'; "
                                     "end$$", SQL_NTS);
    ST_CHECK(rc == SQL_SUCCESS_WITH_INFO, "notice 42P07 rc %d", rc);
    expect_first(s, "notice 42P07", "42P07", -1, "NOTICE: exists");
    ST_EXPECT_STATE(SQLExecDirect(s, (SQLCHAR *)"do $$begin raise notice 'exists' using errcode = "
                                               "'42P07'; raise exception 'stop' using errcode = "
                                               "'22012'; end$$", SQL_NTS),
                    s, "22012");
    ST_CHECK(record(s, 2, state, &native, text, sizeof text) == SQL_SUCCESS &&
                 strcmp(state, "42P07") == 0 && native == -1,
             "notice 42P07 after the error: %s %d <%s>", state, (int)native, text);

    /* The next call starts its own record. */
    rc = SQLExecDirect(s, (SQLCHAR *)"do $$begin raise notice 'alone'; end$$", SQL_NTS);
    ST_CHECK(rc == SQL_SUCCESS_WITH_INFO, "one notice rc %d", rc);
    expect_first(s, "next call", "00000", -1, "NOTICE: alone");
    expect_count(s, "next call", 1);
    SQLFreeHandle(SQL_HANDLE_STMT, s);
}

/* Fetching after a statement without a result set finds no data (psqlODBC's
 * answer); SQLGetData there stays an invalid cursor state. */
static void test_fetch_without_result_set(st_conn *c)
{
    SQLHSTMT s = st_stmt(c);
    ST_OK(SQLExecDirect(s, (SQLCHAR *)"set application_name = 'diag_words'", SQL_NTS), s);
    ST_CHECK(SQLFetch(s) == SQL_NO_DATA, "SQLFetch after SET");
    SQLULEN fetched = 99;
    SQLUSMALLINT status[1];
    ST_CHECK(SQLExtendedFetch(s, SQL_FETCH_NEXT, 0, &fetched, status) == SQL_NO_DATA &&
                 fetched == 0,
             "SQLExtendedFetch after SET: %lu rows", (unsigned long)fetched);
    char buf[8];
    SQLLEN ind;
    ST_EXPECT_STATE(SQLGetData(s, 1, SQL_C_CHAR, buf, sizeof buf, &ind), s, "24000");
    /* Never executed at all: still a sequence error. */
    SQLHSTMT fresh = st_stmt(c);
    ST_CHECK(SQLFetch(fresh) == SQL_ERROR, "SQLFetch before any execution");
    SQLFreeHandle(SQL_HANDLE_STMT, fresh);
    SQLFreeHandle(SQL_HANDLE_STMT, s);
}

/* An error a connection's call reports: no line about a statement, native
 * 110 (a deferred constraint failing at COMMIT). */
static void test_commit_error(st_conn *c)
{
    st_exec(c, "drop table if exists diag_words_child");
    st_exec(c, "drop table if exists diag_words_parent");
    st_exec(c, "create table diag_words_parent(id int primary key)");
    st_exec(c, "create table diag_words_child(id int references diag_words_parent "
               "deferrable initially deferred)");
    SQLSetConnectAttr(c->dbc, SQL_ATTR_AUTOCOMMIT, (SQLPOINTER)SQL_AUTOCOMMIT_OFF, 0);
    st_exec(c, "insert into diag_words_child values (7)");
    ST_EXPECT_HANDLE_STATE(SQLEndTran(SQL_HANDLE_DBC, c->dbc, SQL_COMMIT), SQL_HANDLE_DBC,
                           c->dbc, "23503");
    char state[6] = "", text[1024] = "";
    SQLINTEGER native = -99;
    SQLSMALLINT len;
    SQLGetDiagRec(SQL_HANDLE_DBC, c->dbc, 1, (SQLCHAR *)state, &native, (SQLCHAR *)text,
                  sizeof text, &len);
    ST_CHECK(native == 110 &&
                 strcmp(text, "ERROR: insert or update on table \"diag_words_child\" violates "
                              "foreign key constraint \"diag_words_child_id_fkey\"\n"
                              "DETAIL: Key (id)=(7) is not present in table "
                              "\"diag_words_parent\".") == 0,
             "commit error %d <%s>", (int)native, text);
    SQLEndTran(SQL_HANDLE_DBC, c->dbc, SQL_ROLLBACK);
    SQLSetConnectAttr(c->dbc, SQL_ATTR_AUTOCOMMIT, (SQLPOINTER)SQL_AUTOCOMMIT_ON, 0);
    st_exec(c, "drop table diag_words_child");
    st_exec(c, "drop table diag_words_parent");
}

int main(void)
{
    st_conn c;
    st_connect(&c);
    st_exec(&c, "drop table if exists diag_words");
    st_exec(&c, "create table diag_words(id int primary key)");
    test_exec_direct(&c);
    test_prepared(&c);
    test_fetch();
    test_hint_record(&c);
    test_long_message_is_one_record(&c);
    test_notice(&c);
    test_notices_of_one_call(&c);
    test_fetch_without_result_set(&c);
    /* A global connection commits through its own path (docs/sqlstates.md). */
    if (getenv("GC_TEST_GLOBAL") == NULL)
        test_commit_error(&c);
    st_exec(&c, "drop table diag_words");
    st_disconnect(&c);
    return st_finish("statements_diag_wording");
}
