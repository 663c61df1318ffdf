/*
 * gc_catalog_owner: on a global connection, a catalog function that names
 * one table runs on a member of that table's owner group when it is a solo
 * table. Every group can answer for every table (a solo table is a foreign
 * table on the groups that do not own it), but not the same answer: a
 * foreign table has no keys, indexes or constraints, so SQLPrimaryKeys or
 * SQLStatistics asked of another group would be empty, and would change
 * from call to call with the group policy. The owner is read from the
 * connection's shard map (no round trip); tables the map does not know as
 * solo tables (sharded parents, which are alike on every group, and
 * everything else) keep running where catalog functions always run: the
 * connection's current member. docs/catalog.md, "Global connections".
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "core/gc_catalog_internal.h"
#include "core/gc_conn.h"
#include "core/gc_conn_global.h"
#include "global/gc_global.h"
#include "global/gc_global_settings.h"

/*
 * The name an argument stands for, as the server stores it, or NULL when it
 * names no single object (not given, or a pattern with %). Under
 * SQL_ATTR_METADATA_ID an identifier: unquoted, or folded to lower case. A
 * pattern's escapes are removed and its `_` taken as itself: names like
 * gc_solo are written that way, and the only cost of a wrong guess is
 * running on a member that answers just as correctly. Caller frees.
 */
static char *plain_name(const char *arg, gc_catarg_kind kind, bool metadata_id)
{
    if (arg == NULL || arg[0] == '\0')
        return NULL;
    size_t len = strlen(arg);
    if (metadata_id) {
        while (len > 0 && isspace((unsigned char)arg[0])) {
            arg++;
            len--;
        }
        while (len > 0 && isspace((unsigned char)arg[len - 1]))
            len--;
        bool quoted = len >= 2 && arg[0] == '"' && arg[len - 1] == '"';
        char *out = malloc(len + 1);
        if (out == NULL)
            return NULL;
        size_t n = 0;
        if (quoted) {
            for (size_t i = 1; i + 1 < len; i++) {
                out[n++] = arg[i];
                if (arg[i] == '"' && arg[i + 1] == '"' && i + 2 < len)
                    i++;
            }
        } else {
            for (size_t i = 0; i < len; i++)
                out[n++] = (char)tolower((unsigned char)arg[i]);
        }
        out[n] = '\0';
        return out;
    }
    char *out = malloc(len + 1);
    if (out == NULL)
        return NULL;
    size_t n = 0;
    for (size_t i = 0; i < len; i++) {
        if (kind == GC_CATARG_PATTERN && arg[i] == '%') {
            free(out);
            return NULL;
        }
        if (kind == GC_CATARG_PATTERN && arg[i] == '\\' && i + 1 < len)
            i++;
        out[n++] = arg[i];
    }
    out[n] = '\0';
    return out;
}

void gc_catq_on_owner_of(gc_catq *q, const char *schema, const char *table,
                         gc_catarg_kind kind)
{
    free(q->owner_schema);
    free(q->owner_table);
    q->owner_schema = plain_name(schema, kind, q->metadata_id);
    q->owner_table = plain_name(table, kind, q->metadata_id);
}

/* Makes a member of the owner group of q's table the connection's current
 * session when that table is a solo table and no transaction holds the
 * connection to its member (a transaction's statements all run on one
 * member, catalog functions included). Never fails the catalog function:
 * a member that cannot be opened leaves the current one, which answers
 * for the table too. */
void gc_catq_use_owner(gc_catq *q)
{
    gc_conn *c = q->s->conn;
    gc_global *g = c->global;
    if (g == NULL || q->owner_table == NULL)
        return;
    if (gc_global_pinned_member(g) >= 0 || gc_global_prelude_pending(g))
        return;
    /* Between transactions: a newer catalog version (a solo table made by
     * another connection) is followed first, as before a statement. */
    gc_conn_global_between_transactions(c);
    gc_analysis a;
    memset(&a, 0, sizeof a);
    a.kind = GC_SQL_SELECT;
    a.read_only = a.route_as_read = true;
    a.schema = q->owner_schema;
    a.table = q->owner_table;
    a.n_rows = 1;
    char setup_buf[128];
    gc_route_request req = {
        .analysis = &a,
        .use_keys = true,
        .transaction = false,   /* the catalog query's own BEGIN pins, if any */
        .read_only_mode = true,
        .setup_sql = gc_conn_characteristics_sql(c, setup_buf, sizeof setup_buf),
    };
    gc_route_decision d;
    gc_error err;
    gc_error_clear(&err);
    if (!gc_global_route(g, &req, &d, &err) || !d.by_key)
        return;   /* not a solo table the map knows: where catalog functions run */
    if (!gc_session_is_open(gc_global_member(g, d.member)) &&
        !gc_global_open_member(g, d.member, req.setup_sql, &err)) {
        gc_trace_write(c->trace, GC_TRACE_INFO,
                       "catalog function on solo table %s: owner member not opened (%s); "
                       "the current member answers", q->owner_table, err.message);
        return;
    }
    gc_conn_use_member(c, d.member);
    gc_global_catalog_function_on(g, d.member);
}
