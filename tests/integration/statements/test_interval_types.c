/*
 * Interval C types through the driver manager: SQL_INTERVAL_STRUCT
 * parameters of every day-time and year-month type stored in interval
 * columns, character parameters checked against the SQL interval type, and
 * interval columns read with SQLGetData and SQLBindCol into
 * SQL_INTERVAL_STRUCT and SQL_C_CHAR, with the overflow (22015) and
 * truncation (01S07) rules, and the IRD of an interval column.
 */
#include "st_test.h"

static SQL_INTERVAL_STRUCT day_second(SQLUINTEGER d, SQLUINTEGER h, SQLUINTEGER m,
                                      SQLUINTEGER s, SQLUINTEGER frac, int negative)
{
    SQL_INTERVAL_STRUCT iv;
    memset(&iv, 0, sizeof iv);
    iv.interval_type = SQL_IS_DAY_TO_SECOND;
    iv.interval_sign = negative ? SQL_TRUE : SQL_FALSE;
    iv.intval.day_second.day = d;
    iv.intval.day_second.hour = h;
    iv.intval.day_second.minute = m;
    iv.intval.day_second.second = s;
    iv.intval.day_second.fraction = frac;
    return iv;
}

/* Inserts (id, value) with the value bound as c_type / sql_type; returns
 * SQLExecute's result, the statement kept for diagnostics in *out. */
static SQLRETURN insert_struct(st_conn *c, int id, SQLSMALLINT c_type, SQLSMALLINT sql_type,
                               SQL_INTERVAL_STRUCT *iv, SQLHSTMT *out)
{
    SQLHSTMT s = st_stmt(c);
    SQLINTEGER key = id;
    SQLLEN ind = 0;
    ST_OK(SQLPrepare(s, (SQLCHAR *)"insert into stmt_iv(id, v) values (?, ?)", SQL_NTS), s);
    ST_OK(SQLBindParameter(s, 1, SQL_PARAM_INPUT, SQL_C_SLONG, SQL_INTEGER, 0, 0, &key, 0, NULL), s);
    ST_OK(SQLBindParameter(s, 2, SQL_PARAM_INPUT, c_type, sql_type, 0, 6, iv, sizeof *iv, &ind), s);
    SQLRETURN rc = SQLExecute(s);
    *out = s;
    return rc;
}

static void struct_parameters_are_stored(st_conn *c)
{
    SQLHSTMT s;
    SQL_INTERVAL_STRUCT iv = day_second(154, 22, 44, 10, 500000, 0);
    ST_OK(insert_struct(c, 1, SQL_C_INTERVAL_DAY_TO_SECOND, SQL_INTERVAL_DAY_TO_SECOND, &iv, &s), s);
    SQLFreeHandle(SQL_HANDLE_STMT, s);
    ST_CHECK(strcmp(st_query_text(c, "select v from stmt_iv where id = 1"),
                    "154 days 22:44:10.5") == 0, "day to second stored: %s",
             st_query_text(c, "select v from stmt_iv where id = 1"));

    iv = day_second(0, 0, 90, 0, 0, 1);
    iv.interval_type = SQL_IS_MINUTE;
    ST_OK(insert_struct(c, 2, SQL_C_INTERVAL_MINUTE, SQL_INTERVAL_MINUTE, &iv, &s), s);
    SQLFreeHandle(SQL_HANDLE_STMT, s);
    ST_CHECK(strcmp(st_query_text(c, "select v from stmt_iv where id = 2"), "-01:30:00") == 0,
             "negative minutes stored");

    SQL_INTERVAL_STRUCT ym;
    memset(&ym, 0, sizeof ym);
    ym.interval_type = SQL_IS_YEAR_TO_MONTH;
    ym.intval.year_month.year = 2;
    ym.intval.year_month.month = 11;
    ST_OK(insert_struct(c, 3, SQL_C_INTERVAL_YEAR_TO_MONTH, SQL_INTERVAL_YEAR_TO_MONTH, &ym, &s), s);
    SQLFreeHandle(SQL_HANDLE_STMT, s);
    ST_CHECK(strcmp(st_query_text(c, "select v from stmt_iv where id = 3"),
                    "2 years 11 mons") == 0, "year to month stored");

    /* An SQL_IS_SECOND value with day, hour and minute set too: every field
     * adds, as psqlODBC reads the struct (ODBC calls those fields irrelevant). */
    iv = day_second(1, 2, 3, 4, 5, 0);
    iv.interval_type = SQL_IS_SECOND;
    ST_OK(insert_struct(c, 5, SQL_C_INTERVAL_SECOND, SQL_INTERVAL_SECOND, &iv, &s), s);
    SQLFreeHandle(SQL_HANDLE_STMT, s);
    ST_CHECK(strcmp(st_query_text(c, "select v from stmt_iv where id = 5"),
                    "1 day 02:03:04.000005") == 0, "all fields of an SQL_IS_SECOND struct: %s",
             st_query_text(c, "select v from stmt_iv where id = 5"));

    /* Error paths: nothing is inserted. */
    iv = day_second(1, 2, 3, 4, 0, 0);
    ST_EXPECT_STATE(insert_struct(c, 4, SQL_C_INTERVAL_DAY_TO_SECOND, SQL_INTERVAL_DAY_TO_MINUTE,
                                  &iv, &s), s, "22015");
    SQLFreeHandle(SQL_HANDLE_STMT, s);
    iv = day_second(1, 25, 0, 0, 0, 0);
    ST_EXPECT_STATE(insert_struct(c, 4, SQL_C_INTERVAL_DAY_TO_HOUR, SQL_INTERVAL_DAY_TO_HOUR,
                                  &iv, &s), s, "22015");
    SQLFreeHandle(SQL_HANDLE_STMT, s);
    ST_EXPECT_STATE(insert_struct(c, 4, SQL_C_INTERVAL_YEAR_TO_MONTH, SQL_INTERVAL_DAY,
                                  &ym, &s), s, "07006");
    SQLFreeHandle(SQL_HANDLE_STMT, s);
    ST_CHECK(strcmp(st_query_text(c, "select count(*) from stmt_iv where id = 4"), "0") == 0,
             "refused parameters insert nothing");
}

static void character_parameters_are_checked(st_conn *c)
{
    SQLHSTMT s = st_stmt(c);
    char text[64];
    SQLLEN ind = SQL_NTS;
    ST_OK(SQLPrepare(s, (SQLCHAR *)"select ?::interval::text", SQL_NTS), s);
    ST_OK(SQLBindParameter(s, 1, SQL_PARAM_INPUT, SQL_C_CHAR, SQL_INTERVAL_DAY_TO_SECOND, 20, 6,
                           text, sizeof text, &ind), s);
    strcpy(text, "3 04:05:06.25");   /* the SQL standard form */
    ST_OK(SQLExecute(s), s);
    char out[64] = "";
    SQLLEN len = 0;
    ST_OK(SQLFetch(s), s);
    ST_OK(SQLGetData(s, 1, SQL_C_CHAR, out, sizeof out, &len), s);
    ST_CHECK(strcmp(out, "3 days 04:05:06.25") == 0, "standard form read: %s", out);
    SQLFreeStmt(s, SQL_CLOSE);
    strcpy(text, "1 mon");   /* months for a day-time type */
    ST_EXPECT_STATE(SQLExecute(s), s, "22015");
    strcpy(text, "later");
    ST_EXPECT_STATE(SQLExecute(s), s, "22018");
    SQLFreeHandle(SQL_HANDLE_STMT, s);
}

/* Reads `expr` (one interval value) with SQLGetData into c_type. */
static SQLRETURN get_interval(st_conn *c, const char *expr, SQLSMALLINT c_type,
                              SQL_INTERVAL_STRUCT *iv, SQLHSTMT *out)
{
    char sql[256];
    snprintf(sql, sizeof sql, "select %s", expr);
    SQLHSTMT s = st_stmt(c);
    ST_OK(SQLExecDirect(s, (SQLCHAR *)sql, SQL_NTS), s);
    ST_OK(SQLFetch(s), s);
    SQLLEN len = 0;
    memset(iv, 0, sizeof *iv);
    SQLRETURN rc = SQLGetData(s, 1, c_type, iv, sizeof *iv, &len);
    if (ST_SUCCEEDED(rc))
        ST_CHECK(len == (SQLLEN)sizeof *iv, "length %ld", (long)len);
    *out = s;
    return rc;
}

static void results_read_into_structs(st_conn *c)
{
    SQLHSTMT s;
    SQL_INTERVAL_STRUCT iv;
    ST_OK(get_interval(c, "interval '3 days 04:05:06.789'", SQL_C_INTERVAL_DAY_TO_SECOND, &iv, &s), s);
    ST_CHECK(iv.interval_type == SQL_IS_DAY_TO_SECOND && iv.intval.day_second.day == 3 &&
             iv.intval.day_second.hour == 4 && iv.intval.day_second.minute == 5 &&
             iv.intval.day_second.second == 6 && iv.intval.day_second.fraction == 789000,
             "day to second fields");
    SQLFreeHandle(SQL_HANDLE_STMT, s);

    ST_OK(get_interval(c, "interval '-1 day -02:00'", SQL_C_INTERVAL_HOUR, &iv, &s), s);
    ST_CHECK(iv.interval_sign == SQL_TRUE && iv.intval.day_second.hour == 26, "hours %u",
             (unsigned)iv.intval.day_second.hour);
    SQLFreeHandle(SQL_HANDLE_STMT, s);

    ST_OK(get_interval(c, "interval '5 years 7 months'", SQL_C_INTERVAL_MONTH, &iv, &s), s);
    ST_CHECK(iv.intval.year_month.month == 67, "months %u", (unsigned)iv.intval.year_month.month);
    SQLFreeHandle(SQL_HANDLE_STMT, s);

    /* Trailing fields cut: 01S07 with the rest returned. */
    SQLRETURN rc = get_interval(c, "interval '2 days 03:00'", SQL_C_INTERVAL_DAY, &iv, &s);
    ST_CHECK(rc == SQL_SUCCESS_WITH_INFO && st_has_state(SQL_HANDLE_STMT, s, "01S07") &&
             iv.intval.day_second.day == 2, "day cut from day to hour: rc %d", (int)rc);
    SQLFreeHandle(SQL_HANDLE_STMT, s);

    /* A value with months cannot be a day-time interval, nor days a year-month one. */
    ST_EXPECT_STATE(get_interval(c, "interval '1 mon 2 days'", SQL_C_INTERVAL_DAY_TO_SECOND,
                                 &iv, &s), s, "22015");
    SQLFreeHandle(SQL_HANDLE_STMT, s);
    ST_EXPECT_STATE(get_interval(c, "interval '1 year 1 day'", SQL_C_INTERVAL_YEAR,
                                 &iv, &s), s, "22015");
    SQLFreeHandle(SQL_HANDLE_STMT, s);
    /* Leading field beyond what the struct holds. */
    ST_EXPECT_STATE(get_interval(c, "interval '100000000 days'", SQL_C_INTERVAL_SECOND,
                                 &iv, &s), s, "22015");
    SQLFreeHandle(SQL_HANDLE_STMT, s);
    /* Not an interval at all. */
    ST_EXPECT_STATE(get_interval(c, "date '2024-01-01'", SQL_C_INTERVAL_DAY, &iv, &s), s, "07006");
    SQLFreeHandle(SQL_HANDLE_STMT, s);
}

/* SQLBindCol with the ARD's leading precision set to 2: 100 days is 22015
 * for that row (row status SQL_ROW_ERROR), 99 days fits. Also SQL_C_CHAR. */
static void bound_columns_follow_the_ard_precision(st_conn *c)
{
    SQLHSTMT s = st_stmt(c);
    SQL_INTERVAL_STRUCT iv;
    SQLLEN len = 0;
    char text[80];
    SQLLEN text_len = 0;
    ST_OK(SQLExecDirect(s, (SQLCHAR *)"select v, v::text from (values (interval '99 days 01:02:03.5'), "
                                      "(interval '100 days')) t(v)", SQL_NTS), s);
    ST_OK(SQLBindCol(s, 1, SQL_C_INTERVAL_DAY_TO_SECOND, &iv, sizeof iv, &len), s);
    ST_OK(SQLBindCol(s, 2, SQL_C_CHAR, text, sizeof text, &text_len), s);
    SQLHDESC ard = SQL_NULL_HDESC;
    ST_OK(SQLGetStmtAttr(s, SQL_ATTR_APP_ROW_DESC, &ard, 0, NULL), s);
    ST_OK(SQLSetDescField(ard, 1, SQL_DESC_DATETIME_INTERVAL_PRECISION, (SQLPOINTER)2, 0), s);
    ST_OK(SQLSetDescField(ard, 1, SQL_DESC_DATA_PTR, &iv, 0), s);
    ST_OK(SQLFetch(s), s);
    ST_CHECK(iv.intval.day_second.day == 99 && iv.intval.day_second.second == 3 &&
             iv.intval.day_second.fraction == 500000, "99 days fits precision 2");
    ST_CHECK(strcmp(text, "99 days 01:02:03.5") == 0, "as text: %s", text);
    ST_EXPECT_STATE(SQLFetch(s), s, "22015");
    SQLFreeHandle(SQL_HANDLE_STMT, s);
}

static void interval_columns_describe_as_character(st_conn *c)
{
    SQLHSTMT s = st_stmt(c);
    ST_OK(SQLExecDirect(s, (SQLCHAR *)"select v from stmt_iv", SQL_NTS), s);
    SQLCHAR name[32];
    SQLSMALLINT name_len, type, digits, nullable;
    SQLULEN size;
    ST_OK(SQLDescribeCol(s, 1, name, sizeof name, &name_len, &type, &size, &digits, &nullable), s);
    ST_CHECK((type == SQL_VARCHAR || type == SQL_WVARCHAR) && size == 66, "interval described as %d size %lu", (int)type,
             (unsigned long)size);
    SQLFreeHandle(SQL_HANDLE_STMT, s);
}

int main(void)
{
    st_conn c;
    st_connect(&c);
    st_exec(&c, "drop table if exists stmt_iv");
    st_exec(&c, "create table stmt_iv(id int, v interval)");
    struct_parameters_are_stored(&c);
    character_parameters_are_checked(&c);
    results_read_into_structs(&c);
    bound_columns_follow_the_ard_precision(&c);
    interval_columns_describe_as_character(&c);
    st_exec(&c, "drop table stmt_iv");
    st_disconnect(&c);
    return st_finish("interval_types");
}
