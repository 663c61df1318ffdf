/*
 * Large objects as psqlODBC maps them, through the driver manager: a column
 * of the lo extension's `lo` type is described as SQL_LONGVARBINARY and
 * SQLGetData reads the large object's content in pieces (SQLBindCol reads
 * its head), while a plain oid column stays an integer. Reading a lo column
 * of a result still streaming moves the rest of its rows into memory and
 * loses none. A missing large object is the server's 42704. SQLPutData in
 * pieces to a SQL_LONGVARBINARY parameter (or a bound SQL_VARBINARY one, as
 * pyodbc binds bytes) whose target is a lo column makes a large object (rolled back with its transaction); to a bytea column it
 * stays bytea, read back in pieces. On a global connection
 * (GC_TEST_GLOBAL) the large object is made on the member the row goes to:
 * a solo table of G2 written from a connection whose policy and last
 * statement were on G1 gets its object on G2, where it is read back.
 */
#include "st_test.h"

#define LO_SIZE 100000

static unsigned char pattern(size_t i)
{
    return (unsigned char)((i * 7 + 3) % 251);
}

/* The SQL expression of a bytea of LO_SIZE pattern bytes. */
#define PATTERN_SQL "(select string_agg(set_byte('\\x00'::bytea, 0, (g * 7 + 3) % 251), " \
                    "''::bytea order by g) from generate_series(0, 99999) g)"

static void lo_column_is_longvarbinary_and_oid_is_integer(SQLHSTMT s)
{
    SQLSMALLINT type = 0;
    SQLULEN size = 0;
    ST_OK(SQLDescribeCol(s, 2, NULL, 0, NULL, &type, &size, NULL, NULL), s);
    ST_CHECK(type == SQL_LONGVARBINARY, "lo column described as %d", (int)type);
    ST_OK(SQLDescribeCol(s, 3, NULL, 0, NULL, &type, &size, NULL, NULL), s);
    ST_CHECK(type == SQL_INTEGER, "oid column described as %d", (int)type);
    char name[16] = "";
    ST_OK(SQLColAttribute(s, 2, SQL_DESC_TYPE_NAME, name, sizeof name, NULL, NULL), s);
    ST_CHECK(strcmp(name, "lo") == 0, "type name %s", name);
}

/* Reads column 2 in pieces of 4096 bytes and checks them against the pattern. */
static void lo_read_in_pieces(SQLHSTMT s)
{
    static unsigned char got[LO_SIZE + 4096];
    size_t total = 0;
    int pieces = 0;
    SQLLEN first_ind = 0;
    for (;;) {
        unsigned char buf[4096];
        SQLLEN ind = 0;
        SQLRETURN rc = SQLGetData(s, 2, SQL_C_BINARY, buf, sizeof buf, &ind);
        if (rc == SQL_NO_DATA)
            break;
        if (pieces == 0)
            first_ind = ind;
        ST_CHECK(ind == (SQLLEN)(LO_SIZE - total), "piece %d: remaining %ld, expected %ld",
                 pieces, (long)ind, (long)(LO_SIZE - total));
        size_t n = rc == SQL_SUCCESS_WITH_INFO ? sizeof buf : (size_t)ind;
        if (rc == SQL_SUCCESS_WITH_INFO)
            ST_CHECK(st_has_state(SQL_HANDLE_STMT, s, "01004"), "piece %d without 01004", pieces);
        else
            ST_OK(rc, s);
        if (!ST_SUCCEEDED(rc) || total + n > LO_SIZE)
            break;
        memcpy(got + total, buf, n);
        total += n;
        if (++pieces > 100)
            break;
    }
    ST_CHECK(first_ind == LO_SIZE, "first piece reports %ld", (long)first_ind);
    ST_CHECK(total == LO_SIZE && pieces == (LO_SIZE + 4095) / 4096, "%zu bytes in %d pieces",
             total, pieces);
    int same = 1;
    for (size_t i = 0; i < total && same; i++)
        same = got[i] == pattern(i);
    ST_CHECK(same, "large object content differs");
}

/* Character data is the oid's digits, as psqlODBC gives it. */
static void lo_as_character_is_its_oid(SQLHSTMT s, SQLUINTEGER oid)
{
    char text[16], want[16];
    SQLLEN ind = 0;
    ST_OK(SQLGetData(s, 2, SQL_C_CHAR, text, sizeof text, &ind), s);
    snprintf(want, sizeof want, "%u", (unsigned)oid);
    ST_CHECK(strcmp(text, want) == 0 && ind == (SQLLEN)strlen(want), "char: %s", text);
    SQLFreeStmt(s, SQL_CLOSE);
}

/* Reads column 1 of `sql` (one row) whole as binary into out; returns its length. */
static SQLLEN read_back(st_conn *c, const char *sql, unsigned char *out, SQLLEN cap)
{
    SQLHSTMT s = st_stmt(c);
    SQLLEN ind = -1;
    ST_OK(SQLExecDirect(s, (SQLCHAR *)sql, SQL_NTS), s);
    ST_OK(SQLFetch(s), s);
    ST_OK(SQLGetData(s, 1, SQL_C_BINARY, out, cap, &ind), s);
    SQLFreeHandle(SQL_HANDLE_STMT, s);
    return ind;
}

static int matches_pattern(const unsigned char *b, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (b[i] != pattern(i))
            return 0;
    return 1;
}

/* SQLPutData in ten pieces to a SQL_LONGVARBINARY parameter: into a lo
 * column it becomes a new large object, into a bytea column bytea. */
static void put_in_pieces(st_conn *c, const char *sql)
{
    static unsigned char data[LO_SIZE];
    for (size_t i = 0; i < LO_SIZE; i++)
        data[i] = pattern(i);
    SQLHSTMT s = st_stmt(c);
    SQLLEN at_exec = SQL_LEN_DATA_AT_EXEC(LO_SIZE);
    ST_OK(SQLPrepare(s, (SQLCHAR *)sql, SQL_NTS), s);
    ST_OK(SQLBindParameter(s, 1, SQL_PARAM_INPUT, SQL_C_BINARY, SQL_LONGVARBINARY, LO_SIZE, 0,
                           (SQLPOINTER)1, 0, &at_exec), s);
    ST_CHECK(SQLExecute(s) == SQL_NEED_DATA, "data at execution expected");
    SQLPOINTER token = NULL;
    ST_CHECK(SQLParamData(s, &token) == SQL_NEED_DATA, "SQLParamData asks for the value");
    for (int k = 0; k < 10; k++)
        ST_OK(SQLPutData(s, data + k * (LO_SIZE / 10), LO_SIZE / 10), s);
    ST_OK(SQLParamData(s, &token), s);
    SQLFreeHandle(SQL_HANDLE_STMT, s);
}

static void writes(st_conn *c)
{
    static unsigned char got[LO_SIZE + 16];
    const char *count_sql = "select count(*) from pg_largeobject_metadata";
    char before[32];
    snprintf(before, sizeof before, "%s", st_query_text(c, count_sql));

    put_in_pieces(c, "insert into stmt_lo(id, l) values (5000, ?)");
    SQLLEN n = read_back(c, "select l from stmt_lo where id = 5000", got, sizeof got);
    ST_CHECK(n == LO_SIZE && matches_pattern(got, LO_SIZE), "lo written in pieces: %ld bytes",
             (long)n);
    ST_CHECK(atoi(st_query_text(c, count_sql)) == atoi(before) + 1, "one new large object");

    put_in_pieces(c, "insert into stmt_lo_bytea(id, b) values (5000, ?)");
    n = read_back(c, "select b from stmt_lo_bytea where id = 5000", got, sizeof got);
    ST_CHECK(n == LO_SIZE && matches_pattern(got, LO_SIZE), "bytea written in pieces: %ld bytes",
             (long)n);
    ST_CHECK(atoi(st_query_text(c, count_sql)) == atoi(before) + 1, "bytea made no large object");

    /* A bound buffer, SQLExecDirect, as psqlODBC's programs do. */
    SQLHSTMT s = st_stmt(c);
    unsigned char small[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
    SQLLEN len = sizeof small;
    ST_OK(SQLBindParameter(s, 1, SQL_PARAM_INPUT, SQL_C_BINARY, SQL_LONGVARBINARY, 200, 0,
                           small, 0, &len), s);
    ST_OK(SQLExecDirect(s, (SQLCHAR *)"insert into stmt_lo(id, l) values (5001, ?)", SQL_NTS), s);
    SQLFreeHandle(SQL_HANDLE_STMT, s);
    n = read_back(c, "select l from stmt_lo where id = 5001", got, sizeof got);
    ST_CHECK(n == 8 && memcmp(got, small, 8) == 0, "small lo: %ld bytes", (long)n);

    /* SQL_VARBINARY, as pyodbc binds bytes: a lo target, then a bytea one. */
    s = st_stmt(c);
    ST_OK(SQLBindParameter(s, 1, SQL_PARAM_INPUT, SQL_C_BINARY, SQL_VARBINARY, 200, 0,
                           small, 0, &len), s);
    ST_OK(SQLPrepare(s, (SQLCHAR *)"insert into stmt_lo(id, l) values (5003, ?)", SQL_NTS), s);
    ST_OK(SQLExecute(s), s);
    ST_OK(SQLPrepare(s, (SQLCHAR *)"insert into stmt_lo_bytea(id, b) values (5003, ?)", SQL_NTS), s);
    ST_OK(SQLExecute(s), s);
    SQLFreeHandle(SQL_HANDLE_STMT, s);
    n = read_back(c, "select l from stmt_lo where id = 5003", got, sizeof got);
    ST_CHECK(n == 8 && memcmp(got, small, 8) == 0, "varbinary into lo: %ld bytes", (long)n);
    n = read_back(c, "select b from stmt_lo_bytea where id = 5003", got, sizeof got);
    ST_CHECK(n == 8 && memcmp(got, small, 8) == 0, "varbinary into bytea: %ld bytes", (long)n);

    /* Autocommit off: the object belongs to the transaction, a rollback
     * takes it back; a parameter the server cannot describe unspecified
     * (select ?) aborts nothing. */
    ST_OK(SQLSetConnectAttr(c->dbc, SQL_ATTR_AUTOCOMMIT, (SQLPOINTER)SQL_AUTOCOMMIT_OFF, 0), s);
    snprintf(before, sizeof before, "%s", st_query_text(c, count_sql));
    s = st_stmt(c);
    ST_OK(SQLBindParameter(s, 1, SQL_PARAM_INPUT, SQL_C_BINARY, SQL_LONGVARBINARY, 200, 0,
                           small, 0, &len), s);
    ST_OK(SQLExecDirect(s, (SQLCHAR *)"insert into stmt_lo(id, l) values (5002, ?)", SQL_NTS), s);
    SQLFreeStmt(s, SQL_CLOSE);
    ST_OK(SQLExecDirect(s, (SQLCHAR *)"select length(?)", SQL_NTS), s);
    SQLINTEGER length = 0;
    ST_OK(SQLFetch(s), s);
    ST_OK(SQLGetData(s, 1, SQL_C_SLONG, &length, 0, NULL), s);
    ST_CHECK(length == 8, "select ? took the bytea: %d", (int)length);
    SQLFreeHandle(SQL_HANDLE_STMT, s);
    ST_CHECK(strcmp(st_query_text(c, "select count(*) from stmt_lo where id = 5002"), "1") == 0,
             "the transaction is alive");
    ST_OK(SQLEndTran(SQL_HANDLE_DBC, c->dbc, SQL_ROLLBACK), s);
    ST_CHECK(strcmp(st_query_text(c, count_sql), before) == 0, "rolled back with its row");
    ST_OK(SQLEndTran(SQL_HANDLE_DBC, c->dbc, SQL_COMMIT), s);
    ST_OK(SQLSetConnectAttr(c->dbc, SQL_ATTR_AUTOCOMMIT, (SQLPOINTER)SQL_AUTOCOMMIT_ON, 0), s);
}

/* Large objects per member: a lo row of a table owned by G2, written by a
 * prepared INSERT from a connection whose statements without a key go to
 * G1 (its session there the current one), gets its object on G2 and reads
 * it back; G1 holds no new object. */
static void objects_live_with_their_rows(st_conn *c)
{
    st_conn on_g2;
    st_connect_with(&on_g2, "LocalityGroupPolicy=1;LocalityGroupPath=G2");
    st_exec(&on_g2, "drop table if exists stmt_lo_g2");
    st_exec(&on_g2, "create table stmt_lo_g2(id int primary key, l lo)");
    const char *count_sql = "select count(*) from pg_largeobject_metadata";
    int g1_before = atoi(st_query_text(c, count_sql));
    int g2_before = atoi(st_query_text(&on_g2, count_sql));

    SQLHSTMT s = st_stmt(c);
    unsigned char small[8] = { 8, 7, 6, 5, 4, 3, 2, 1 };
    SQLLEN len = sizeof small;
    ST_OK(SQLBindParameter(s, 1, SQL_PARAM_INPUT, SQL_C_BINARY, SQL_LONGVARBINARY, 200, 0,
                           small, 0, &len), s);
    ST_OK(SQLPrepare(s, (SQLCHAR *)"insert into stmt_lo_g2(id, l) values (1, ?)", SQL_NTS), s);
    ST_OK(SQLExecute(s), s);
    SQLFreeHandle(SQL_HANDLE_STMT, s);
    unsigned char got[16];
    SQLLEN n = read_back(c, "select l from stmt_lo_g2 where id = 1", got, sizeof got);
    ST_CHECK(n == 8 && memcmp(got, small, 8) == 0, "lo of G2's table read back: %ld bytes",
             (long)n);
    int g1_after = atoi(st_query_text(c, count_sql));
    int g2_after = atoi(st_query_text(&on_g2, count_sql));
    ST_CHECK(g2_after == g2_before + 1 && g1_after == g1_before,
             "the object is on G2 (%d -> %d), not on G1 (%d -> %d)", g2_before, g2_after,
             g1_before, g1_after);
    st_exec(&on_g2, "select lo_unlink(l) from stmt_lo_g2");
    st_exec(&on_g2, "drop table stmt_lo_g2");
    st_disconnect(&on_g2);
}

int main(void)
{
    st_conn c;
    st_connect(&c);
    st_exec(&c, "create extension if not exists lo");
    st_exec(&c, "drop table if exists stmt_lo");
    st_exec(&c, "create table stmt_lo(id int, l lo, o oid)");
    st_exec(&c, "insert into stmt_lo values (1, lo_from_bytea(0, " PATTERN_SQL "), "
                "lo_from_bytea(0, 'plain')), (2, null, null), (3, 999999, 999999), "
                "(4, lo_from_bytea(0, ''), null)");
    st_exec(&c, "insert into stmt_lo select g, lo_from_bytea(0, int4send(g)), null "
                "from generate_series(10, 2009) g");

    st_exec(&c, "drop table if exists stmt_lo_bytea");
    st_exec(&c, "create table stmt_lo_bytea(id int, b bytea)");
    writes(&c);

    SQLHSTMT s = st_stmt(&c);
    ST_OK(SQLExecDirect(s, (SQLCHAR *)"select id, l, o, l::oid from stmt_lo where id = 1", SQL_NTS), s);
    lo_column_is_longvarbinary_and_oid_is_integer(s);
    ST_OK(SQLFetch(s), s);
    SQLUINTEGER oid = 0, plain = 0;
    ST_OK(SQLGetData(s, 4, SQL_C_ULONG, &oid, 0, NULL), s);
    lo_read_in_pieces(s);
    ST_CHECK(SQLGetData(s, 2, SQL_C_BINARY, &plain, 4, NULL) == SQL_NO_DATA,
             "after the last piece: SQL_NO_DATA");
    ST_OK(SQLGetData(s, 3, SQL_C_ULONG, &plain, 0, NULL), s);
    ST_CHECK(plain != 0 && plain != oid, "plain oid column reads its number");
    SQLFreeStmt(s, SQL_CLOSE);

    /* An integer type or character data: the oid. */
    ST_OK(SQLExecDirect(s, (SQLCHAR *)"select id, l from stmt_lo where id = 1", SQL_NTS), s);
    ST_OK(SQLFetch(s), s);
    SQLUINTEGER as_number = 0;
    ST_OK(SQLGetData(s, 2, SQL_C_ULONG, &as_number, 0, NULL), s);
    ST_CHECK(as_number == oid, "lo read as SQL_C_ULONG is its oid (%u, %u)", (unsigned)as_number,
             (unsigned)oid);
    SQLFreeStmt(s, SQL_CLOSE);
    ST_OK(SQLExecDirect(s, (SQLCHAR *)"select id, l from stmt_lo where id = 1", SQL_NTS), s);
    ST_OK(SQLFetch(s), s);
    lo_as_character_is_its_oid(s, oid);

    /* NULL, empty, and a missing object (42704 from the server). */
    ST_OK(SQLExecDirect(s, (SQLCHAR *)"select id, l from stmt_lo where id in (2, 3, 4) order by id",
                        SQL_NTS), s);
    unsigned char buf[16];
    SQLLEN ind = 0;
    ST_OK(SQLFetch(s), s);
    ST_OK(SQLGetData(s, 2, SQL_C_BINARY, buf, sizeof buf, &ind), s);
    ST_CHECK(ind == SQL_NULL_DATA, "NULL lo: %ld", (long)ind);
    ST_OK(SQLFetch(s), s);
    ST_EXPECT_STATE(SQLGetData(s, 2, SQL_C_BINARY, buf, sizeof buf, &ind), s, "42704");
    ST_OK(SQLFetch(s), s);
    ind = -5;
    ST_OK(SQLGetData(s, 2, SQL_C_BINARY, buf, sizeof buf, &ind), s);
    ST_CHECK(ind == 0, "empty lo: %ld", (long)ind);
    SQLFreeStmt(s, SQL_CLOSE);

    /* Bound column, many rows streaming: each row reads its object. */
    ST_OK(SQLExecDirect(s, (SQLCHAR *)"select id, l from stmt_lo where id between 10 and 2009 order by id", SQL_NTS), s);
    SQLINTEGER id = 0;
    unsigned char content[4];
    SQLLEN content_len = 0;
    ST_OK(SQLBindCol(s, 1, SQL_C_SLONG, &id, 0, NULL), s);
    ST_OK(SQLBindCol(s, 2, SQL_C_BINARY, content, sizeof content, &content_len), s);
    int rows = 0, right = 0;
    while (SQL_SUCCEEDED(SQLFetch(s))) {
        rows++;
        unsigned char want[4] = { (unsigned char)(id >> 24), (unsigned char)(id >> 16),
                                  (unsigned char)(id >> 8), (unsigned char)id };
        right += content_len == 4 && memcmp(content, want, 4) == 0;
    }
    ST_CHECK(rows == 2000 && right == 2000, "%d rows, %d with their object", rows, right);
    SQLFreeHandle(SQL_HANDLE_STMT, s);

    st_exec(&c, "select lo_unlink(l) from stmt_lo where id <> 3 and l is not null");
    st_exec(&c, "select lo_unlink(o) from stmt_lo where id = 1");
    st_exec(&c, "drop table stmt_lo");
    st_exec(&c, "drop table stmt_lo_bytea");
    if (getenv("GC_TEST_GLOBAL") != NULL)
        objects_live_with_their_rows(&c);
    st_disconnect(&c);
    return st_finish("large_objects");
}
