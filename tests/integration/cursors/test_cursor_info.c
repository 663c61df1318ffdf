/*
 * What SQLGetInfo and SQLGetFunctions say about cursors, checked against
 * what the driver does: static and keyset-driven cursors scroll, position,
 * refresh and fetch by bookmark, change rows (optimistic concurrency by
 * values; keyset-driven also by row versions) and lock them, on a global
 * connection too; dynamic cursors are not offered.
 */
#include <stdbool.h>

#include "st_test.h"

static SQLUINTEGER info_u32(SQLHDBC dbc, SQLUSMALLINT type)
{
    SQLUINTEGER v = 0xdeadbeef;
    SQLRETURN rc = SQLGetInfo(dbc, type, &v, sizeof v, NULL);
    ST_CHECK(rc == SQL_SUCCESS, "SQLGetInfo(%u) rc %d", type, rc);
    return v;
}

int main(void)
{
    st_conn c;
    st_connect(&c);
    SQLHDBC dbc = c.dbc;
    /* Rows change and are locked through static and keyset-driven cursors,
     * on a global connection too. */
    ST_CHECK(info_u32(dbc, SQL_SCROLL_OPTIONS) ==
                 (SQL_SO_FORWARD_ONLY | SQL_SO_STATIC | SQL_SO_KEYSET_DRIVEN),
             "SQL_SCROLL_OPTIONS");
    /* A forward-only rowset's rows can be positioned on for SQLGetData. */
    ST_CHECK(info_u32(dbc, SQL_FORWARD_ONLY_CURSOR_ATTRIBUTES1) ==
                 (SQL_CA1_NEXT | SQL_CA1_LOCK_NO_CHANGE | SQL_CA1_POS_POSITION),
             "forward-only attributes 1");
    SQLUINTEGER write1 = SQL_CA1_LOCK_EXCLUSIVE | SQL_CA1_POS_UPDATE | SQL_CA1_POS_DELETE |
                         SQL_CA1_BULK_ADD |
                         SQL_CA1_BULK_UPDATE_BY_BOOKMARK | SQL_CA1_BULK_DELETE_BY_BOOKMARK;
    SQLUINTEGER write2 = SQL_CA2_OPT_VALUES_CONCURRENCY | SQL_CA2_SENSITIVITY_ADDITIONS |
                         SQL_CA2_SENSITIVITY_DELETIONS | SQL_CA2_SENSITIVITY_UPDATES;
    SQLUINTEGER static1 = info_u32(dbc, SQL_STATIC_CURSOR_ATTRIBUTES1);
    SQLUINTEGER want1 = SQL_CA1_NEXT | SQL_CA1_ABSOLUTE | SQL_CA1_RELATIVE | SQL_CA1_BOOKMARK |
                        SQL_CA1_LOCK_NO_CHANGE | SQL_CA1_POS_POSITION | SQL_CA1_POS_REFRESH |
                        SQL_CA1_BULK_FETCH_BY_BOOKMARK |
                        write1;
    ST_CHECK(static1 == want1, "static attributes 1: %#x", (unsigned)static1);
    SQLUINTEGER static2 = info_u32(dbc, SQL_STATIC_CURSOR_ATTRIBUTES2);
    SQLUINTEGER want2 = SQL_CA2_READ_ONLY_CONCURRENCY | SQL_CA2_MAX_ROWS_SELECT |
                        SQL_CA2_CRC_EXACT | write2;
    ST_CHECK(static2 == want2, "static attributes 2: %#x", (unsigned)static2);
    /* A keyset-driven cursor does what a static one does (and sees others'
     * updates and deletions), reads row versions, and locks rows. */
    ST_CHECK(info_u32(dbc, SQL_KEYSET_CURSOR_ATTRIBUTES1) == want1, "keyset attributes 1");
    ST_CHECK(info_u32(dbc, SQL_KEYSET_CURSOR_ATTRIBUTES2) ==
                 (want2 | SQL_CA2_LOCK_CONCURRENCY | SQL_CA2_OPT_ROWVER_CONCURRENCY),
             "keyset attributes 2");
    ST_CHECK(info_u32(dbc, SQL_DYNAMIC_CURSOR_ATTRIBUTES1) == 0, "no dynamic cursors");
    SQLUINTEGER pos = SQL_POS_POSITION | SQL_POS_REFRESH;
    ST_CHECK(info_u32(dbc, SQL_POS_OPERATIONS) ==
                 (pos | SQL_POS_UPDATE | SQL_POS_DELETE | SQL_POS_ADD),
             "SQL_POS_OPERATIONS");
    /* No SQL_LCK_UNLOCK: PostgreSQL keeps a row lock until the transaction ends. */
    ST_CHECK(info_u32(dbc, SQL_LOCK_TYPES) ==
                 (SQL_LCK_NO_CHANGE | SQL_LCK_EXCLUSIVE),
             "SQL_LOCK_TYPES");
    ST_CHECK(info_u32(dbc, SQL_SCROLL_CONCURRENCY) ==
                 (SQL_SCCO_READ_ONLY | SQL_SCCO_OPT_VALUES | SQL_SCCO_OPT_ROWVER |
                  SQL_SCCO_LOCK),
             "SQL_SCROLL_CONCURRENCY");
    ST_CHECK(info_u32(dbc, SQL_STATIC_SENSITIVITY) ==
                 (SQL_SS_ADDITIONS | SQL_SS_DELETIONS | SQL_SS_UPDATES),
             "SQL_STATIC_SENSITIVITY");
    ST_CHECK(info_u32(dbc, SQL_BOOKMARK_PERSISTENCE) == (SQL_BP_SCROLL | SQL_BP_TRANSACTION),
             "SQL_BOOKMARK_PERSISTENCE");
    ST_CHECK(info_u32(dbc, SQL_GETDATA_EXTENSIONS) & SQL_GD_BLOCK, "SQL_GD_BLOCK");

    SQLUSMALLINT on = SQL_FALSE;
    SQLUSMALLINT ids[] = { SQL_API_SQLSETPOS, SQL_API_SQLBULKOPERATIONS,
                           SQL_API_SQLEXTENDEDFETCH, SQL_API_SQLFETCHSCROLL };
    for (size_t i = 0; i < sizeof ids / sizeof ids[0]; i++) {
        ST_CHECK(SQLGetFunctions(dbc, ids[i], &on) == SQL_SUCCESS && on == SQL_TRUE,
                 "function %u listed", ids[i]);
    }
    st_disconnect(&c);
    return st_finish("cursors_cursor_info");
}
