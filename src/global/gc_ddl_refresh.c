/*
 * gc_ddl_refresh: after a DDL that changed tables, the catalog version rises
 * on every group (so every connection reloads its shard map) and this
 * connection follows the new version at once (gc_global_follow_catalog: the
 * bump's notification reaches its listening session).
 */
#include <stdio.h>
#include <stdlib.h>

#include "global/gc_ddl.h"

/* The highest gcluster.version over the primaries; -1 when none answered. */
static int64_t highest_version(gc_member *const *primaries, int n, gc_error *err)
{
    int64_t high = -1;
    for (int k = 0; k < n; k++) {
        PGresult *r = gc_member_exec(primaries[k], "SELECT version FROM gcluster.version", err);
        if (r != NULL && PQntuples(r) == 1) {
            int64_t v = strtoll(PQgetvalue(r, 0, 0), NULL, 10);
            if (v > high)
                high = v;
        }
        PQclear(r);
    }
    return high;
}

bool gc_ddl_refresh(gc_global *g, gc_member *const *primaries, int n, const char *setup_sql,
                    gc_error *err)
{
    gc_error e;
    gc_error_clear(&e);
    int64_t high = highest_version(primaries, n, &e);
    if (gc_global_catalog_version(g) > high)
        high = gc_global_catalog_version(g);
    char sql[128];
    snprintf(sql, sizeof sql, "SELECT gcluster.bump_version('gcodbc DDL', %lld)",
             (long long)high + 1);
    bool ok = true;
    for (int k = 0; k < n; k++) {
        /* After the commit: bump_version sends NOTIFY, which a prepared
         * transaction may not. */
        PGresult *r = gc_member_exec(primaries[k], sql, &e);
        if (r == NULL) {
            gc_error_set(err, "01000", 0,
                         "the DDL is committed, but the catalog version was not raised on "
                         "member %s (%s): other connections keep their shard map until it "
                         "rises (gcctl reconnect)",
                         gc_member_name(primaries[k]), e.message);
            ok = false;
        }
        PQclear(r);
    }
    /* This connection's own map: follow the new version now, not at the
     * next periodic check. */
    gc_error_clear(&e);
    if (!gc_global_follow_catalog(g, setup_sql, &e) && ok) {
        gc_error_set(err, "01000", 0,
                     "the DDL is committed, but this connection did not follow the new "
                     "catalog version (%s): it routes new tables by policy until it does",
                     e.message);
        ok = false;
    }
    return ok;
}
