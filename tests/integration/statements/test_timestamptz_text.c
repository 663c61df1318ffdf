/*
 * test_timestamptz_text: a timestamptz column is SQL_TYPE_TIMESTAMP, so read
 * as SQL_C_CHAR or SQL_C_WCHAR it has ODBC's timestamp form,
 * "yyyy-mm-dd hh:mm:ss[.f...]", in the session's time zone and without the
 * zone offset the server's text carries, as psqlODBC gives it (programs
 * written for psqlODBC print it). The text agrees with SQL_C_TYPE_TIMESTAMP,
 * reads in pieces, and a buffer too short for the whole seconds is 22003;
 * 'infinity' reads as the latest moment, 9999-12-31 23:59:59, as psqlODBC
 * gives it.
 */
#include "st_test.h"

static const char *const query =
    "SELECT '2020-01-02 03:04:05.123456+00'::timestamptz, "
    "'0044-03-15 12:00:00+00 BC'::timestamptz, 'infinity'::timestamptz";

int main(void)
{
    st_conn c;
    st_connect(&c);
    st_exec(&c, "SET TimeZone = 'Asia/Kolkata'");   /* +05:30, no summer time */
    SQLHSTMT s = st_stmt(&c);

    /* Bound as SQL_C_CHAR and fetched. */
    char text[64] = "", bc[64] = "", inf[64] = "";
    SQLLEN text_len = 0, bc_len = 0, inf_len = 0;
    ST_OK(SQLBindCol(s, 1, SQL_C_CHAR, text, sizeof text, &text_len), s);
    ST_OK(SQLBindCol(s, 2, SQL_C_CHAR, bc, sizeof bc, &bc_len), s);
    ST_OK(SQLBindCol(s, 3, SQL_C_CHAR, inf, sizeof inf, &inf_len), s);
    ST_OK(SQLExecDirect(s, (SQLCHAR *)query, SQL_NTS), s);
    SQLRETURN rc = SQLFetch(s);
    ST_CHECK(rc == SQL_SUCCESS, "SQLFetch returned %d", rc);
    ST_CHECK(strcmp(text, "2020-01-02 08:34:05.123456") == 0 && text_len == 26,
             "bound text %s (%ld)", text, (long)text_len);
    ST_CHECK(strcmp(bc, "0044-03-15 17:53:28 BC") == 0 || strcmp(bc, "0044-03-15 17:30:00 BC") == 0,
             "BC text %s", bc);
    ST_CHECK(strchr(bc, '+') == NULL, "BC text keeps an offset: %s", bc);
    ST_CHECK(strcmp(inf, "9999-12-31 23:59:59") == 0, "infinity reads %s", inf);
    SQLFreeStmt(s, SQL_CLOSE);
    SQLFreeStmt(s, SQL_UNBIND);

    /* SQLGetData: wide, in pieces, and as the timestamp struct. */
    ST_OK(SQLExecDirect(s, (SQLCHAR *)query, SQL_NTS), s);
    ST_OK(SQLFetch(s), s);
    SQLWCHAR wide[64];
    SQLLEN len = 0;
    ST_OK(SQLGetData(s, 1, SQL_C_WCHAR, wide, sizeof wide, &len), s);
    char back[64];
    int n = 0;
    for (; n < 63 && wide[n] != 0; n++)
        back[n] = (char)wide[n];
    back[n] = '\0';
    ST_CHECK(strcmp(back, "2020-01-02 08:34:05.123456") == 0 && len == 26 * 2,
             "wide text %s (%ld bytes)", back, (long)len);

    SQLFreeStmt(s, SQL_CLOSE);
    ST_OK(SQLExecDirect(s, (SQLCHAR *)query, SQL_NTS), s);
    ST_OK(SQLFetch(s), s);
    char piece[21];
    rc = SQLGetData(s, 1, SQL_C_CHAR, piece, sizeof piece, &len);
    ST_CHECK(rc == SQL_SUCCESS_WITH_INFO && st_has_state(SQL_HANDLE_STMT, s, "01004"),
             "first piece returned %d", rc);
    ST_CHECK(strcmp(piece, "2020-01-02 08:34:05.") == 0 && len == 26, "first piece %s (%ld)",
             piece, (long)len);
    rc = SQLGetData(s, 1, SQL_C_CHAR, piece, sizeof piece, &len);
    ST_CHECK(rc == SQL_SUCCESS && strcmp(piece, "123456") == 0 && len == 6,
             "second piece %d %s (%ld)", rc, piece, (long)len);
    ST_CHECK(SQLGetData(s, 1, SQL_C_CHAR, piece, sizeof piece, &len) == SQL_NO_DATA,
             "a third piece");
    SQLFreeStmt(s, SQL_CLOSE);

    ST_OK(SQLExecDirect(s, (SQLCHAR *)query, SQL_NTS), s);
    ST_OK(SQLFetch(s), s);
    SQL_TIMESTAMP_STRUCT ts;
    ST_OK(SQLGetData(s, 1, SQL_C_TYPE_TIMESTAMP, &ts, sizeof ts, &len), s);
    ST_CHECK(ts.year == 2020 && ts.month == 1 && ts.day == 2 && ts.hour == 8 &&
             ts.minute == 34 && ts.second == 5 && ts.fraction == 123456000,
             "struct %d-%d-%d %d:%d:%d.%u", ts.year, ts.month, ts.day, ts.hour, ts.minute,
             ts.second, (unsigned)ts.fraction);

    /* Too short for "yyyy-mm-dd hh:mm:ss": 22003, as for timestamp. */
    SQLFreeStmt(s, SQL_CLOSE);
    ST_OK(SQLExecDirect(s, (SQLCHAR *)query, SQL_NTS), s);
    ST_OK(SQLFetch(s), s);
    char small[12];
    ST_EXPECT_STATE(SQLGetData(s, 1, SQL_C_CHAR, small, sizeof small, &len), s, "22003");
    SQLFreeHandle(SQL_HANDLE_STMT, s);
    st_disconnect(&c);
    return st_finish("statements_timestamptz_text");
}
