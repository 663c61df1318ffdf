/*
 * gc_reconnect_stmt: ALTER SYSTEM RECONNECT GLOBAL CONNECTION (GOLDILOCKS'
 * statement), answered by the driver: PostgreSQL has no such statement, so
 * it is recognized here and never sent as written. The work is the
 * connection's kind's (gc_conn_reconnect_global on a global connection).
 */
#include "core/gc_reconnect_stmt.h"

#include "core/gc_conn_kind.h"
#include "sql/gc_sql_lexer.h"

bool gc_reconnect_stmt_matches(const char *sql, size_t len)
{
    static const char *const words[] = { "ALTER", "SYSTEM", "RECONNECT", "GLOBAL",
                                         "CONNECTION" };
    return gc_sql_text_is_words(sql, len, words, sizeof words / sizeof words[0]);
}

SQLRETURN gc_reconnect_stmt_run(gc_stmt *s)
{
    s->row_count = -1;
    s->row_number = 0;
    SQLRETURN rc = s->conn->kind->reconnect(s->conn, &s->h.diag);
    if (rc == SQL_ERROR)
        return rc;
    SQLRETURN set = gc_stmt_set_empty_result(s);
    return set == SQL_SUCCESS ? rc : set;
}
