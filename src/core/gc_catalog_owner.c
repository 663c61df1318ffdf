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
#include "core/gc_conn_kind.h"

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

/* The connection's kind places the table (a global connection: a member
 * of its owner group, gc_conn_global_use_owner; a general connection has
 * only its server). */
void gc_catq_use_owner(gc_catq *q)
{
    gc_conn *c = q->s->conn;
    q->outside_transaction =
        q->owner_table != NULL && c->kind->catalog_on_owner(c, q->owner_schema, q->owner_table);
}
