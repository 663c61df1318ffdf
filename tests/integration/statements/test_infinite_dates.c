/*
 * 'infinity' and '-infinity' in date and timestamp columns read into ODBC's
 * date and timestamp structures as the latest and earliest moments
 * (9999-12-31 23:59:59 and 0001-01-01 00:00:00), as psqlODBC reads them, so
 * a table holding such sentinels can be fetched as dates (pyodbc reads them
 * so). As text they read as the same moments (R's RODBC converts the text
 * of a date column); a time structure cannot hold them (22007).
 */
#include "st_test.h"

int main(void)
{
    st_conn c;
    st_connect(&c);
    SQLHSTMT s = st_stmt(&c);
    ST_OK(SQLExecDirect(s, (SQLCHAR *)"select 'infinity'::timestamp, '-infinity'::timestamptz, "
                                      "'infinity'::date, '-infinity'::date, "
                                      "'infinity'::timestamp", SQL_NTS), s);
    ST_OK(SQLFetch(s), s);
    SQL_TIMESTAMP_STRUCT ts;
    memset(&ts, 0, sizeof ts);
    ST_OK(SQLGetData(s, 1, SQL_C_TYPE_TIMESTAMP, &ts, sizeof ts, NULL), s);
    ST_CHECK(ts.year == 9999 && ts.month == 12 && ts.day == 31 && ts.hour == 23 &&
             ts.minute == 59 && ts.second == 59 && ts.fraction == 0,
             "infinity: %d-%d-%d %d:%d:%d", ts.year, ts.month, ts.day, ts.hour, ts.minute,
             ts.second);
    ST_OK(SQLGetData(s, 2, SQL_C_TYPE_TIMESTAMP, &ts, sizeof ts, NULL), s);
    ST_CHECK(ts.year == 1 && ts.month == 1 && ts.day == 1 && ts.hour == 0 && ts.second == 0,
             "-infinity: %d-%d-%d %d", ts.year, ts.month, ts.day, ts.hour);
    SQL_DATE_STRUCT d;
    memset(&d, 0, sizeof d);
    SQLRETURN rc = SQLGetData(s, 3, SQL_C_TYPE_DATE, &d, sizeof d, NULL);
    ST_CHECK(rc == SQL_SUCCESS, "date infinity rc %d", (int)rc);
    ST_CHECK(d.year == 9999 && d.month == 12 && d.day == 31, "date infinity: %d-%d-%d", d.year,
             d.month, d.day);
    ST_OK(SQLGetData(s, 4, SQL_C_TYPE_DATE, &d, sizeof d, NULL), s);
    ST_CHECK(d.year == 1 && d.month == 1 && d.day == 1, "date -infinity: %d-%d-%d", d.year,
             d.month, d.day);
    SQL_TIME_STRUCT t;
    ST_EXPECT_STATE(SQLGetData(s, 5, SQL_C_TYPE_TIME, &t, sizeof t, NULL), s, "22007");
    SQLFreeStmt(s, SQL_CLOSE);

    const char *text = st_query_text(&c, "select '-infinity'::timestamp");
    ST_CHECK(strcmp(text, "0001-01-01 00:00:00") == 0, "-infinity as text: %s", text);
    text = st_query_text(&c, "select 'infinity'::date");
    ST_CHECK(strcmp(text, "9999-12-31") == 0, "date infinity as text: %s", text);

    SQLFreeHandle(SQL_HANDLE_STMT, s);
    st_disconnect(&c);
    return st_finish("infinite_dates");
}
