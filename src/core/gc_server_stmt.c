/*
 * gc_server_stmt: see gc_server_stmt.h.
 */
#include "core/gc_server_stmt.h"

#include <stdlib.h>
#include <string.h>

#include "convert/gc_pgtype.h"

bool gc_server_stmt_fits(const gc_server_stmt *st, int n, const Oid *types)
{
    if (st->nparams != n)
        return false;
    if (types == NULL)
        return true;                  /* describing: any prepared types do */
    for (int i = 0; i < n; i++) {
        Oid have = st->param_types ? st->param_types[i] : 0, want = types[i];
        /* A value left to the server (character data) needs a parameter the
         * server typed: one declared int4 for an earlier value refuses 'abc'. */
        if (have == want)
            continue;
        if (have == 0 && want != GC_OID_BYTEA)
            continue;
        return false;
    }
    return true;
}

void gc_server_stmt_clear(gc_server_stmt *st)
{
    free(st->param_types);
    free(st->prepared_on);
    memset(st, 0, sizeof *st);
}
