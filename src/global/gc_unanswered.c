/* gc_unanswered: see gc_unanswered.h. */
#include "global/gc_unanswered.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

struct gc_unanswered_entry {
    char *host, *port;   /* "" for libpq's default; owned */
    gc_error why;
};

static const char *or_empty(const char *s)
{
    return s != NULL ? s : "";
}

const gc_error *gc_unanswered_find(const gc_unanswered *u, const char *host, const char *port)
{
    for (int i = 0; i < u->count; i++)
        if (strcmp(u->items[i].host, or_empty(host)) == 0 &&
            strcmp(u->items[i].port, or_empty(port)) == 0)
            return &u->items[i].why;
    return NULL;
}

/* Remembers that host:port did not answer. On out-of-memory it is simply
 * not remembered: a later step then waits for it again (slower, still right). */
static void note(gc_unanswered *u, const char *host, const char *port, const gc_error *why)
{
    if (gc_unanswered_find(u, host, port) != NULL)
        return;
    gc_unanswered_entry *grown = realloc(u->items, sizeof *grown * ((size_t)u->count + 1));
    if (grown == NULL)
        return;
    u->items = grown;
    gc_unanswered_entry *e = &u->items[u->count];
    e->host = strdup(or_empty(host));
    e->port = strdup(or_empty(port));
    if (e->host == NULL || e->port == NULL) {
        free(e->host);
        free(e->port);
        return;
    }
    e->why = *why;
    u->count++;
}

int gc_unanswered_connect_all(gc_unanswered *u, gc_member *const *members, int n,
                              int timeout_ms, gc_error *errs)
{
    assert(n >= 0 && errs != NULL);
    gc_member **tried = calloc(n > 0 ? (size_t)n : 1, sizeof *tried);
    int *index_of = calloc(n > 0 ? (size_t)n : 1, sizeof *index_of);
    gc_error *tried_errs = calloc(n > 0 ? (size_t)n : 1, sizeof *tried_errs);
    if (tried == NULL || index_of == NULL || tried_errs == NULL) {
        free(tried);
        free(index_of);
        free(tried_errs);
        return gc_member_connect_all(members, n, timeout_ms, errs);
    }
    int k = 0;
    for (int i = 0; i < n; i++) {
        gc_member *m = members[i];
        const gc_error *earlier = gc_member_is_open(m) ? NULL
            : gc_unanswered_find(u, gc_member_host(m), gc_member_port(m));
        if (earlier != NULL) {
            errs[i] = *earlier;
            gc_member_mark_down(m, gc_member_generation(m), earlier);
            continue;
        }
        tried[k] = m;
        index_of[k] = i;
        k++;
    }
    gc_member_connect_all(tried, k, timeout_ms, tried_errs);
    int open = 0;
    for (int j = 0; j < k; j++) {
        int i = index_of[j];
        errs[i] = tried_errs[j];
        if (gc_member_is_open(tried[j]))
            open++;
        else if (!gc_member_login_refused(&tried_errs[j]))
            note(u, gc_member_host(tried[j]), gc_member_port(tried[j]), &tried_errs[j]);
    }
    free(tried);
    free(index_of);
    free(tried_errs);
    return open;
}

void gc_unanswered_free(gc_unanswered *u)
{
    for (int i = 0; i < u->count; i++) {
        free(u->items[i].host);
        free(u->items[i].port);
    }
    free(u->items);
    u->items = NULL;
    u->count = 0;
}
