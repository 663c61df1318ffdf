/*
 * Interval C types in descriptors: SQL_DESC_TYPE is the verbose
 * SQL_INTERVAL and SQL_DESC_DATETIME_INTERVAL_CODE the subcode, as
 * datetime types are SQL_DATETIME plus a code; SQL_DESC_CONCISE_TYPE is
 * the SQL_C_INTERVAL_* type. Set either way (SQLBindCol /
 * SQLBindParameter, or the verbose pair through SQLSetDescField /
 * SQLSetDescRec), the binding converts values. Errors: a subcode that is
 * no interval (or datetime) code of its record's type is HY021.
 */
#include "st_test.h"

static SQLHDESC stmt_desc(SQLHSTMT s, SQLINTEGER which)
{
    SQLHDESC d = SQL_NULL_HDESC;
    ST_OK(SQLGetStmtAttr(s, which, &d, 0, NULL), s);
    return d;
}

/* Checks SQL_DESC_TYPE, _DATETIME_INTERVAL_CODE and _CONCISE_TYPE of
 * record `rec` of d. */
static void expect_types(SQLHSTMT s, SQLHDESC d, SQLSMALLINT rec, SQLSMALLINT type,
                         SQLSMALLINT code, SQLSMALLINT concise, const char *what)
{
    SQLSMALLINT got_type = 0, got_code = -1, got_concise = 0;
    ST_OK(SQLGetDescField(d, rec, SQL_DESC_TYPE, &got_type, 0, NULL), s);
    ST_OK(SQLGetDescField(d, rec, SQL_DESC_DATETIME_INTERVAL_CODE, &got_code, 0, NULL), s);
    ST_OK(SQLGetDescField(d, rec, SQL_DESC_CONCISE_TYPE, &got_concise, 0, NULL), s);
    ST_CHECK(got_type == type && got_code == code && got_concise == concise,
             "%s: type %d code %d concise %d", what, (int)got_type, (int)got_code,
             (int)got_concise);
}

/* SQLBindCol with interval C types, and a date for comparison. */
static void bound_columns(st_conn *c)
{
    SQLHSTMT s = st_stmt(c);
    SQLHDESC ard = stmt_desc(s, SQL_ATTR_APP_ROW_DESC);
    SQL_INTERVAL_STRUCT ds, ym;
    SQL_DATE_STRUCT date;
    SQLLEN ind[3];
    ST_OK(SQLBindCol(s, 1, SQL_C_INTERVAL_DAY_TO_SECOND, &ds, sizeof ds, &ind[0]), s);
    ST_OK(SQLBindCol(s, 3, SQL_C_TYPE_DATE, &date, sizeof date, &ind[2]), s);
    expect_types(s, ard, 1, SQL_INTERVAL, SQL_CODE_DAY_TO_SECOND, SQL_C_INTERVAL_DAY_TO_SECOND,
                 "SQLBindCol day to second");
    expect_types(s, ard, 3, SQL_DATETIME, SQL_CODE_DATE, SQL_C_TYPE_DATE, "SQLBindCol date");

    /* Column 2 bound through the verbose pair. */
    ST_OK(SQLSetDescField(ard, 2, SQL_DESC_TYPE, (SQLPOINTER)SQL_INTERVAL, 0), s);
    ST_OK(SQLSetDescField(ard, 2, SQL_DESC_DATETIME_INTERVAL_CODE,
                          (SQLPOINTER)SQL_CODE_YEAR_TO_MONTH, 0), s);
    ST_OK(SQLSetDescField(ard, 2, SQL_DESC_OCTET_LENGTH, (SQLPOINTER)sizeof ym, 0), s);
    ST_OK(SQLSetDescField(ard, 2, SQL_DESC_INDICATOR_PTR, &ind[1], 0), s);
    ST_OK(SQLSetDescField(ard, 2, SQL_DESC_DATA_PTR, &ym, 0), s);
    expect_types(s, ard, 2, SQL_INTERVAL, SQL_CODE_YEAR_TO_MONTH, SQL_C_INTERVAL_YEAR_TO_MONTH,
                 "verbose year to month");

    ST_OK(SQLExecDirect(s, (SQLCHAR *)"select interval '1 day 02:03:04', "
                        "interval '1 year 2 months', date '2024-02-29'", SQL_NTS), s);
    memset(&ds, 0, sizeof ds);
    memset(&ym, 0, sizeof ym);
    ST_OK(SQLFetch(s), s);
    ST_CHECK(ds.interval_type == SQL_IS_DAY_TO_SECOND && ds.intval.day_second.day == 1 &&
             ds.intval.day_second.hour == 2 && ds.intval.day_second.minute == 3 &&
             ds.intval.day_second.second == 4, "day to second %d %u %u:%u:%u",
             (int)ds.interval_type, (unsigned)ds.intval.day_second.day,
             (unsigned)ds.intval.day_second.hour, (unsigned)ds.intval.day_second.minute,
             (unsigned)ds.intval.day_second.second);
    ST_CHECK(ym.interval_type == SQL_IS_YEAR_TO_MONTH && ym.intval.year_month.year == 1 &&
             ym.intval.year_month.month == 2, "year to month %d %u-%u", (int)ym.interval_type,
             (unsigned)ym.intval.year_month.year, (unsigned)ym.intval.year_month.month);
    ST_CHECK(date.year == 2024 && date.month == 2 && date.day == 29, "date");
    ST_OK(SQLCloseCursor(s), s);

    /* SQLSetDescRec with the verbose pair; SQLGetDescRec reads it back. */
    ST_OK(SQLSetDescRec(ard, 1, SQL_INTERVAL, SQL_CODE_HOUR, sizeof ds, 0, 0, &ds, &ind[0],
                        &ind[0]), s);
    expect_types(s, ard, 1, SQL_INTERVAL, SQL_CODE_HOUR, SQL_C_INTERVAL_HOUR, "SQLSetDescRec");
    SQLSMALLINT type = 0, sub = 0;
    ST_OK(SQLGetDescRec(ard, 1, NULL, 0, NULL, &type, &sub, NULL, NULL, NULL, NULL), s);
    ST_CHECK(type == SQL_INTERVAL && sub == SQL_CODE_HOUR, "SQLGetDescRec %d/%d", (int)type,
             (int)sub);
    /* The concise type sets the pair too. */
    ST_OK(SQLSetDescField(ard, 1, SQL_DESC_CONCISE_TYPE, (SQLPOINTER)SQL_C_INTERVAL_MONTH, 0),
          s);
    expect_types(s, ard, 1, SQL_INTERVAL, SQL_CODE_MONTH, SQL_C_INTERVAL_MONTH, "concise month");

    /* Subcodes that do not belong to the type. */
    ST_EXPECT_HANDLE_STATE(SQLSetDescField(ard, 1, SQL_DESC_DATETIME_INTERVAL_CODE,
                                           (SQLPOINTER)14, 0), SQL_HANDLE_DESC, ard, "HY021");
    ST_EXPECT_HANDLE_STATE(SQLSetDescField(ard, 3, SQL_DESC_DATETIME_INTERVAL_CODE,
                                           (SQLPOINTER)SQL_CODE_HOUR, 0),
                           SQL_HANDLE_DESC, ard, "HY021");
    expect_types(s, ard, 1, SQL_INTERVAL, SQL_CODE_MONTH, SQL_C_INTERVAL_MONTH, "kept on HY021");
    SQLFreeHandle(SQL_HANDLE_STMT, s);
}

/* SQLBindParameter: the APD holds the C interval type, the IPD the SQL one,
 * both verbose SQL_INTERVAL. */
static void bound_parameter(st_conn *c)
{
    SQLHSTMT s = st_stmt(c);
    SQL_INTERVAL_STRUCT minutes;
    memset(&minutes, 0, sizeof minutes);
    minutes.interval_type = SQL_IS_MINUTE;
    minutes.intval.day_second.minute = 5;
    ST_OK(SQLBindParameter(s, 1, SQL_PARAM_INPUT, SQL_C_INTERVAL_MINUTE, SQL_INTERVAL_MINUTE, 2,
                           0, &minutes, sizeof minutes, NULL), s);
    expect_types(s, stmt_desc(s, SQL_ATTR_APP_PARAM_DESC), 1, SQL_INTERVAL, SQL_CODE_MINUTE,
                 SQL_C_INTERVAL_MINUTE, "APD minute");
    expect_types(s, stmt_desc(s, SQL_ATTR_IMP_PARAM_DESC), 1, SQL_INTERVAL, SQL_CODE_MINUTE,
                 SQL_INTERVAL_MINUTE, "IPD minute");
    ST_OK(SQLExecDirect(s, (SQLCHAR *)"select case when ? = interval '5 minutes' "
                        "then 'same' else 'other' end", SQL_NTS), s);
    char text[16] = "";
    SQLLEN ind = 0;
    ST_OK(SQLFetch(s), s);
    ST_OK(SQLGetData(s, 1, SQL_C_CHAR, text, sizeof text, &ind), s);
    ST_CHECK(strcmp(text, "same") == 0, "parameter arrived as %s", text);
    SQLFreeHandle(SQL_HANDLE_STMT, s);
}

int main(void)
{
    st_conn c;
    st_connect(&c);
    bound_columns(&c);
    bound_parameter(&c);
    st_disconnect(&c);
    return st_finish("interval_descriptors");
}
