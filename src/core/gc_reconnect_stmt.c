/*
 * gc_reconnect_stmt: ALTER SYSTEM RECONNECT GLOBAL CONNECTION (GOLDILOCKS'
 * statement), answered by the driver: PostgreSQL has no such statement, so
 * it is recognized here and never sent as written. The work is
 * gc_conn_reconnect_global's.
 */
#include <ctype.h>
#include <string.h>
#include <strings.h>

#include "core/gc_conn_refresh.h"

/* Skips white space; then whether the next word is `word` (any case),
 * followed by a non-word character or the end. */
static bool take_word(const char **p, const char *end, const char *word)
{
    while (*p < end && isspace((unsigned char)**p))
        (*p)++;
    size_t n = strlen(word);
    if ((size_t)(end - *p) < n || strncasecmp(*p, word, n) != 0)
        return false;
    const char *after = *p + n;
    if (after < end && (isalnum((unsigned char)*after) || *after == '_'))
        return false;
    *p = after;
    return true;
}

bool gc_reconnect_stmt_matches(const char *sql, size_t len)
{
    static const char *const words[] = { "ALTER", "SYSTEM", "RECONNECT", "GLOBAL",
                                         "CONNECTION" };
    const char *p = sql, *end = sql + len;
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        if (!take_word(&p, end, words[i]))
            return false;
    while (p < end && (isspace((unsigned char)*p) || *p == ';'))
        p++;
    return p == end;
}

SQLRETURN gc_reconnect_stmt_run(gc_stmt *s)
{
    s->row_count = -1;
    s->row_number = 0;
    SQLRETURN rc = gc_conn_reconnect_global(s->conn, &s->h.diag);
    if (rc == SQL_ERROR)
        return rc;
    SQLRETURN set = gc_stmt_set_empty_result(s);
    return set == SQL_SUCCESS ? rc : set;
}
