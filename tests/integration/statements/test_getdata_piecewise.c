/*
 * SQLGetData reads a 100 kB text and a 100 kB bytea in pieces: every piece
 * but the last gives 01004 (SQL_SUCCESS_WITH_INFO), the last SQL_SUCCESS,
 * the next call SQL_NO_DATA; the pieces put together are the value. Columns
 * can be read in any order.
 */
#include "st_test.h"

#define SIZE 100000

/* Reads column col of the current row as c_type in pieces of `piece`
 * bytes into out; returns the total length. */
static size_t read_pieces(SQLHSTMT s, SQLUSMALLINT col, SQLSMALLINT c_type, size_t piece,
                          unsigned char *out, size_t cap, int *pieces)
{
    size_t total = 0;
    unsigned char buf[8192];
    size_t term = c_type == SQL_C_CHAR ? 1 : 0;
    *pieces = 0;
    for (;;) {
        SQLLEN ind = 0;
        SQLRETURN rc = SQLGetData(s, col, c_type, buf, (SQLLEN)piece, &ind);
        if (rc == SQL_NO_DATA)
            break;
        if (rc == SQL_SUCCESS_WITH_INFO) {
            ST_CHECK(st_has_state(SQL_HANDLE_STMT, s, "01004"), "piece %d: no 01004", *pieces);
            size_t n = piece - term;
            ST_CHECK(total + n <= cap, "too much data");
            if (total + n > cap)
                break;
            memcpy(out + total, buf, n);
            total += n;
        } else if (rc == SQL_SUCCESS) {
            ST_CHECK(ind >= 0 && (size_t)ind <= piece - term, "last piece length %ld", (long)ind);
            if (total + (size_t)ind > cap)
                break;
            memcpy(out + total, buf, (size_t)ind);
            total += (size_t)ind;
        } else {
            ST_OK(rc, s);
            break;
        }
        (*pieces)++;
        if (*pieces > 100000)
            break;
    }
    return total;
}

int main(void)
{
    st_conn c;
    st_connect(&c);
    SQLHSTMT s = st_stmt(&c);
    /* Text of 100,000 characters cycling through the alphabet, and bytea
     * of 100,000 bytes cycling through 0..255. */
    ST_OK(SQLExecDirect(s, (SQLCHAR *)
        "select string_agg(chr(97 + (g % 26)), '' order by g), "
        "       string_agg(set_byte('\\x00'::bytea, 0, g % 256), ''::bytea order by g), 42 "
        "from generate_series(0, 99999) g", SQL_NTS), s);
    ST_OK(SQLFetch(s), s);

    static unsigned char got[SIZE + 16];
    int pieces = 0;
    /* Any order: the integer column first, then bytea, then text. */
    SQLINTEGER v = 0;
    SQLLEN ind = 0;
    ST_OK(SQLGetData(s, 3, SQL_C_SLONG, &v, 0, &ind), s);
    ST_CHECK(v == 42, "column 3 is %d", (int)v);
    ST_CHECK(SQLGetData(s, 3, SQL_C_SLONG, &v, 0, &ind) == SQL_NO_DATA,
             "a fixed-size column read twice gives SQL_NO_DATA");

    size_t n = read_pieces(s, 2, SQL_C_BINARY, 4096, got, sizeof got, &pieces);
    ST_CHECK(n == SIZE, "bytea: %zu bytes", n);
    int ok = 1;
    for (size_t i = 0; i < n && ok; i++)
        ok = got[i] == (unsigned char)(i % 256);
    ST_CHECK(ok, "bytea content differs");
    printf("bytea: %zu bytes in %d pieces\n", n, pieces);

    n = read_pieces(s, 1, SQL_C_CHAR, 4096, got, sizeof got, &pieces);
    ST_CHECK(n == SIZE, "text: %zu bytes", n);
    ok = 1;
    for (size_t i = 0; i < n && ok; i++)
        ok = got[i] == (unsigned char)('a' + i % 26);
    ST_CHECK(ok, "text content differs");
    printf("text: %zu bytes in %d pieces\n", n, pieces);

    /* The total length is reported on the first piece. */
    SQLLEN total = 0;
    char small[10];
    ST_OK(SQLCloseCursor(s), s);
    ST_OK(SQLExecDirect(s, (SQLCHAR *)"select repeat('x', 100000)", SQL_NTS), s);
    ST_OK(SQLFetch(s), s);
    ST_CHECK(SQLGetData(s, 1, SQL_C_CHAR, small, sizeof small, &total) == SQL_SUCCESS_WITH_INFO,
             "first piece is truncated");
    ST_CHECK(total == SIZE, "first piece reports %ld", (long)total);
    ST_CHECK(strlen(small) == 9, "the piece is NUL-terminated");

    SQLFreeHandle(SQL_HANDLE_STMT, s);
    st_disconnect(&c);
    return st_finish("getdata_piecewise");
}
