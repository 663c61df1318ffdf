/*
 * `?` markers become $n only outside strings, comments, quoted identifiers
 * and dollar quotes; ODBC escapes ({fn}, {d}, {t}, {ts}, {oj}, {escape},
 * {call}) run end to end.
 */
#include "st_test.h"

/* Prepares sql, checks SQLNumParams, binds each parameter as text from
 * `args`, executes and returns the first column of the first row. */
static const char *run(st_conn *c, const char *sql, int want_params, const char *const *args)
{
    static char out[512];
    out[0] = '\0';
    SQLHSTMT s = st_stmt(c);
    SQLSMALLINT n = -1;
    ST_OK(SQLPrepare(s, (SQLCHAR *)sql, SQL_NTS), s);
    ST_OK(SQLNumParams(s, &n), s);
    ST_CHECK(n == want_params, "%s: %d parameters, wanted %d", sql, n, want_params);
    SQLLEN ind[8];
    for (int i = 0; i < want_params && i < 8; i++) {
        ind[i] = SQL_NTS;
        ST_OK(SQLBindParameter(s, (SQLUSMALLINT)(i + 1), SQL_PARAM_INPUT, SQL_C_CHAR,
                               SQL_VARCHAR, 100, 0, (SQLPOINTER)args[i], 0, &ind[i]), s);
    }
    ST_OK(SQLExecute(s), s);
    ST_OK(SQLFetch(s), s);
    SQLLEN len = 0;
    ST_OK(SQLGetData(s, 1, SQL_C_CHAR, out, sizeof out, &len), s);
    SQLFreeHandle(SQL_HANDLE_STMT, s);
    return out;
}

#define EXPECT(got, want)                                                  \
    do {                                                                   \
        const char *got_ = (got);                                          \
        ST_CHECK(strcmp(got_, (want)) == 0, "got '%s', wanted '%s'", got_, (want)); \
    } while (0)

int main(void)
{
    st_conn c;
    st_connect(&c);
    const char *one[] = { "A" };
    const char *two[] = { "A", "B" };

    EXPECT(run(&c, "select '?' || ?", 1, one), "?A");
    EXPECT(run(&c, "select ? || '?' -- a ? in a comment\n", 1, one), "A?");
    EXPECT(run(&c, "select /* ? */ ? || $$ ? $$", 1, one), "A ? ");
    EXPECT(run(&c, "select \"?\" from (select ? as \"?\") x", 1, one), "A");
    EXPECT(run(&c, "select ? || $tag$'?'$tag$ || ?", 2, two), "A'?'B");
    EXPECT(run(&c, "select E'it''s \\' ?' || ?", 1, one), "it's ' ?A");

    /* Escapes. */
    EXPECT(run(&c, "select {fn ucase('abc')}", 0, NULL), "ABC");
    EXPECT(run(&c, "select {fn concat('a', ?)}", 1, one), "aA");
    EXPECT(run(&c, "select {fn length('abcd')}", 0, NULL), "4");
    EXPECT(run(&c, "select {d '2020-01-02'}", 0, NULL), "2020-01-02");
    EXPECT(run(&c, "select {t '13:14:15'}", 0, NULL), "13:14:15");
    EXPECT(run(&c, "select {ts '2020-01-02 03:04:05'}", 0, NULL), "2020-01-02 03:04:05");
    EXPECT(run(&c, "select count(*) from (values (1)) a(x) left outer join (values (2)) b(y) on x = y", 0, NULL), "1");
    EXPECT(run(&c, "select count(*) from {oj (values (1)) a(x) left outer join (values (2)) b(y) on x = y}", 0, NULL), "1");
    EXPECT(run(&c, "select 'a_c' like 'a\\_c' {escape '\\'}", 0, NULL), "1");
    st_exec(&c, "create or replace function gc_stmt_add(a int, b int) returns int language sql as 'select a + b'");
    EXPECT(run(&c, "{call gc_stmt_add(2, 3)}", 0, NULL), "5");

    /* SQLExecDirect takes the same rewriting. */
    EXPECT(st_query_text(&c, "select {fn lcase('ABC')} || '?'"), "abc?");
    st_disconnect(&c);
    return st_finish("markers_escapes");
}
