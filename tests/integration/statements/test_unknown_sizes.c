/*
 * UnknownSizes, psqlODBC's key for the size of a character column whose
 * length the server does not give (text, varchar without a length,
 * unknown): 2 describes it as long as its longest value once the whole
 * result has arrived with the first window (a set still streaming keeps the
 * maximum); 1 reports column size 0 while the display size and octet length
 * keep the maximum; 0 reports the maximum. The octet length of a column of
 * at most MaxVarcharSize characters is capped at MaxVarcharSize bytes, as
 * psqlODBC reports it.
 */
#include "st_test.h"

/* Describes column `col` of the result of `sql` on c. */
typedef struct described {
    SQLSMALLINT type;
    SQLULEN size;
    SQLLEN octets;
    SQLLEN display;
} described;

static described describe(st_conn *c, const char *sql, SQLUSMALLINT col)
{
    described d = { 0, 0, -1, -1 };
    SQLHSTMT s = st_stmt(c);
    ST_OK(SQLExecDirect(s, (SQLCHAR *)sql, SQL_NTS), s);
    SQLSMALLINT digits, nullable;
    ST_OK(SQLDescribeCol(s, col, NULL, 0, NULL, &d.type, &d.size, &digits, &nullable), s);
    ST_OK(SQLColAttribute(s, col, SQL_DESC_OCTET_LENGTH, NULL, 0, NULL, &d.octets), s);
    ST_OK(SQLColAttribute(s, col, SQL_DESC_DISPLAY_SIZE, NULL, 0, NULL, &d.display), s);
    SQLFreeHandle(SQL_HANDLE_STMT, s);
    return d;
}

/* Checks a description: SQL type, column size and octet length. */
static void expect(described d, SQLSMALLINT type, SQLULEN size, SQLLEN octets, const char *what)
{
    ST_CHECK(d.type == type && d.size == size && d.octets == octets,
             "%s: type %d size %lu octet length %ld, expected %d %lu %ld", what, d.type,
             (unsigned long)d.size, (long)d.octets, type, (unsigned long)size, (long)octets);
}

static void longest_value(void)
{
    st_conn c;
    st_connect_with(&c, "UnknownSizes=2;MaxVarcharSize=100;FetchWindowRows=5");
    static const char row[] =
        "SELECT 'foobar'::text, 'varchar string'::varchar, ''::varchar, 'abc'::varchar(5),"
        " 'h\xc3\xa9llo w\xc3\xb6rld'::text, NULL::text";
    expect(describe(&c, row, 1), SQL_VARCHAR, 6, 24, "text 'foobar'");
    expect(describe(&c, row, 2), SQL_VARCHAR, 14, 56, "varchar 'varchar string'");
    expect(describe(&c, row, 3), SQL_VARCHAR, 100, 100, "an empty varchar keeps the maximum");
    expect(describe(&c, row, 4), SQL_VARCHAR, 5, 20, "varchar(5): the server gives the length");
    expect(describe(&c, row, 5), SQL_VARCHAR, 11, 44, "UTF-8 text counts characters");
    expect(describe(&c, row, 6), SQL_LONGVARCHAR, 8190, 32760, "a NULL keeps the maximum");
    expect(describe(&c, "SELECT repeat('x', g) FROM generate_series(1, 4) g", 1), SQL_VARCHAR,
           4, 16, "the longest of several rows");
    expect(describe(&c, "SELECT repeat('y', 150)", 1), SQL_LONGVARCHAR, 150, 600,
           "longer than MaxVarcharSize");
    /* Ten rows with a window of five: the set streams, its rows are not all
     * known when it is described. */
    expect(describe(&c, "SELECT 'ab'::text FROM generate_series(1, 10)", 1), SQL_LONGVARCHAR,
           8190, 32760, "a streaming set keeps the maximum");
    st_disconnect(&c);
}

static void unknown_and_maximum(void)
{
    st_conn c;
    st_connect_with(&c, "UnknownSizes=1;MaxVarcharSize=100");
    described d = describe(&c, "SELECT 'foobar'::text", 1);
    expect(d, SQL_LONGVARCHAR, 0, 32760, "UnknownSizes=1 text");
    ST_CHECK(d.display == 8190, "UnknownSizes=1 text: display size %ld", (long)d.display);
    d = describe(&c, "SELECT 'abc'::varchar", 1);
    expect(d, SQL_VARCHAR, 0, 100, "UnknownSizes=1 varchar");
    ST_CHECK(d.display == 100, "UnknownSizes=1 varchar: display size %ld", (long)d.display);
    expect(describe(&c, "SELECT 'abc'::varchar(7)", 1), SQL_VARCHAR, 7, 28,
           "UnknownSizes=1 varchar(7)");
    st_disconnect(&c);

    st_connect_with(&c, "UnknownSizes=0;MaxVarcharSize=100");
    expect(describe(&c, "SELECT 'foobar'::text", 1), SQL_LONGVARCHAR, 8190, 32760,
           "UnknownSizes=0 text");
    expect(describe(&c, "SELECT 'abc'::varchar", 1), SQL_VARCHAR, 100, 100,
           "UnknownSizes=0 varchar");
    st_disconnect(&c);
}

int main(void)
{
    longest_value();
    unknown_and_maximum();
    return st_finish("unknown_sizes");
}
