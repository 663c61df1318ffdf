/*
 * param_array_owners.c: the batch insert into a sharded table through raw
 * libpq, each row sent straight to its owner group's primary: one session
 * per group in pipeline mode, a named prepared statement on each, every
 * row of a batch queued on its owner's session (a sync after every row,
 * or one per session after the batch), all sessions in flight at once,
 * then the answers read. The best a client that knows the owners can do.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libpq-fe.h>

#include "../bench_owners.h"
#include "param_array.h"

#define MAX_GROUPS 16

typedef struct {
    batch_client base;   /* first: the interface */
    PGconn *conns[MAX_GROUPS];
    int n_groups;
    commit_mode mode;
    int *group_of;       /* by id */
    long max_id;
    int *queued;         /* rows queued per group in the current batch */
} owners_client;

static bool owners_fail(PGconn *conn, const char *what)
{
    fprintf(stderr, "param_array: %s failed: %s", what, conn ? PQerrorMessage(conn) : "\n");
    return false;
}

/* Reads one command's answer (its result, then NULL), then a sync when
 * want_sync. */
static bool read_answer(PGconn *conn, bool want_sync)
{
    PGresult *r = PQgetResult(conn);
    bool ok = PQresultStatus(r) == PGRES_COMMAND_OK;
    if (!ok)
        fprintf(stderr, "param_array: row failed: %s", PQresultErrorMessage(r));
    PQclear(r);
    ok = PQgetResult(conn) == NULL && ok;
    if (want_sync) {
        r = PQgetResult(conn);
        ok = ok && PQresultStatus(r) == PGRES_PIPELINE_SYNC;
        PQclear(r);
    }
    return ok;
}

static bool owners_insert_batch(batch_client *base, int first, int n)
{
    owners_client *c = (owners_client *)base;
    bool each_row = c->mode != COMMIT_EACH_BATCH;
    memset(c->queued, 0, (size_t)c->n_groups * sizeof *c->queued);
    for (int i = 0; i < n; i++) {
        long id_value = first + i;
        if (id_value > c->max_id || c->group_of[id_value] < 0)
            return owners_fail(NULL, "finding the owner of a row");
        int g = c->group_of[id_value];
        char id[16], name[BATCH_NAME_MAX], qty[16];
        snprintf(id, sizeof id, "%ld", id_value);
        snprintf(name, sizeof name, "row %ld", id_value);
        snprintf(qty, sizeof qty, "%ld", id_value % 1000);
        const char *values[3] = {id, name, qty};
        if (!PQsendQueryPrepared(c->conns[g], "batch_insert", 3, values, NULL, NULL, 0))
            return owners_fail(c->conns[g], "PQsendQueryPrepared");
        if (each_row && !PQpipelineSync(c->conns[g]))
            return owners_fail(c->conns[g], "PQpipelineSync");
        c->queued[g]++;
    }
    for (int g = 0; g < c->n_groups; g++)
        if (!each_row && c->queued[g] > 0 && !PQpipelineSync(c->conns[g]))
            return owners_fail(c->conns[g], "PQpipelineSync");
    for (int g = 0; g < c->n_groups; g++) {
        for (int i = 0; i < c->queued[g]; i++)
            if (!read_answer(c->conns[g], each_row))
                return owners_fail(c->conns[g], "reading the answers");
        if (!each_row && c->queued[g] > 0) {
            PGresult *r = PQgetResult(c->conns[g]);
            bool ok = PQresultStatus(r) == PGRES_PIPELINE_SYNC;
            PQclear(r);
            if (!ok)
                return owners_fail(c->conns[g], "reading the sync");
        }
    }
    return true;
}

static void owners_destroy(batch_client *base)
{
    owners_client *c = (owners_client *)base;
    for (int g = 0; g < c->n_groups; g++)
        PQfinish(c->conns[g]);
    free(c->group_of);
    free(c->queued);
    free(c);
}

/* Reads the owners file into c->group_of (by id). */
static bool load_owners(owners_client *c, const char *path)
{
    bench_owners o;
    if (!bench_owners_load(&o, "param_array", path))
        return false;
    for (size_t i = 0; i < o.n; i++)
        if (o.ids[i] > c->max_id)
            c->max_id = (long)o.ids[i];
    c->group_of = malloc((size_t)(c->max_id + 1) * sizeof *c->group_of);
    bool ok = c->group_of != NULL;
    for (long i = 0; ok && i <= c->max_id; i++)
        c->group_of[i] = -1;
    for (size_t i = 0; ok && i < o.n; i++)
        c->group_of[o.ids[i]] = o.groups[i] < c->n_groups ? o.groups[i] : -1;
    bench_owners_free(&o);
    return ok;
}

/* Connects to every conninfo of the file and prepares the INSERT on each. */
static bool connect_groups(owners_client *c, const char *path)
{
    FILE *f = fopen(path, "r");
    char line[1024];
    if (f == NULL)
        return owners_fail(NULL, "reading the conninfo file");
    while (c->n_groups < MAX_GROUPS && fgets(line, sizeof line, f) != NULL) {
        line[strcspn(line, "\n")] = '\0';
        if (line[0] == '\0')
            continue;
        PGconn *conn = c->conns[c->n_groups++] = PQconnectdb(line);
        if (PQstatus(conn) != CONNECTION_OK) {
            fclose(f);
            return owners_fail(conn, "connecting");
        }
        PGresult *r = PQprepare(conn, "batch_insert", BATCH_INSERT_SQL_PG, 0, NULL);
        bool ok = PQresultStatus(r) == PGRES_COMMAND_OK;
        PQclear(r);
        if (!ok || !PQenterPipelineMode(conn)) {
            fclose(f);
            return owners_fail(conn, "preparing");
        }
    }
    fclose(f);
    return c->n_groups > 0;
}

batch_client *batch_client_libpq_owners(const char *conninfo_file, const char *owners_file,
                                        commit_mode mode)
{
    owners_client *c = calloc(1, sizeof *c);
    if (c == NULL)
        return NULL;
    c->base.insert_batch = owners_insert_batch;
    c->base.destroy = owners_destroy;
    c->mode = mode;
    c->queued = calloc(MAX_GROUPS, sizeof *c->queued);
    if (c->queued == NULL || !connect_groups(c, conninfo_file) || !load_owners(c, owners_file)) {
        owners_destroy(&c->base);
        return NULL;
    }
    return &c->base;
}
