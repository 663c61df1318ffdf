/*
 * gc_remote_refusal: the cluster's trigger on foreign tables refused a
 * write a global connection's statement made through postgres_fdw
 * (global/gc_remote_write.h). The server's SQLSTATE is the cluster's own,
 * so the refusal is known by its code, never by its words; the
 * application is told 0A000 with the driver's native error, or 40001 when
 * the statement was routed by its key and so can only have met the
 * trigger because its shard moved.
 */
#include <string.h>

#include "core/gc_conn.h"
#include "core/gc_remote_refusal.h"
#include "core/gc_stmt.h"
#include "global/gc_global.h"
#include "global/gc_remote_write.h"

bool gc_remote_refusal_name(gc_diag *d)
{
    bool found = false;
    for (int k = 0; k < d->count; k++) {
        gc_diag_record *r = &d->records[k];
        if (strcmp(r->sqlstate, GC_REMOTE_WRITE_SERVER_SQLSTATE) != 0)
            continue;
        memcpy(r->sqlstate, GC_REMOTE_WRITE_SQLSTATE, sizeof r->sqlstate);
        r->native = GC_REMOTE_WRITE_NATIVE;
        found = true;
    }
    return found;
}

/* Statement s, routed by its sharding key to member i, met the trigger.
 * Either the shard its key gives moved away from i's group since the
 * shard map was read (gcctl move-shard), or s itself wrote another row
 * through postgres_fdw (a function it calls). Member i's server tells
 * which (a newer catalog version, or a leaf of i's group gone foreign:
 * gc_global_shard_map_moved), unless its transaction is aborted. A moved
 * shard is answered 40001, nothing applied, and the next transaction reads
 * the catalog again; anything else keeps the refusal. */
static void name_stale_shard_map(gc_stmt *s, int i)
{
    gc_global *g = s->conn->global;
    gc_global_check_catalog_soon(g);
    if (!gc_global_shard_map_moved(g, i))
        return;
    bool idle = gc_session_txn_status(s->conn->session) == PQTRANS_IDLE;
    gc_error err;
    gc_error_set(&err, "40001", 0, "the statement was rolled back, nothing applied: the shard "
                 "map changed (a shard moved) since it was read, so member %s reached the "
                 "rows of its key through postgres_fdw; run the %s again",
                 gc_session_name(s->conn->session), idle ? "statement" : "transaction");
    gc_diag_clear(&s->h.diag);
    gc_diag_add_error(&s->h.diag, &err);
}

void gc_remote_refusal_after_failure(gc_stmt *s, int i)
{
    if (gc_remote_refusal_name(&s->h.diag) && s->routed_by_key)
        name_stale_shard_map(s, i);
}
