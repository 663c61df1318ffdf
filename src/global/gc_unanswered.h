/*
 * gc_unanswered: the addresses that did not answer during one connect of a
 * global connection, so each is waited for once per connect, not once per
 * step (guessed members, seeds, then the catalog's members): members that
 * do not answer cost ConnectTimeout once (docs/global-connection.md,
 * "Connecting").
 *
 * A login the server turned down is not "no answer": the server answered,
 * and the seeds step needs to see that answer (28P01, 3D000).
 *
 * Lives on the stack of gc_global_connect; not shared between threads.
 */
#ifndef GC_UNANSWERED_H
#define GC_UNANSWERED_H

#include <stdbool.h>

#include "member/gc_member.h"
#include "util/gc_error.h"

typedef struct gc_unanswered_entry gc_unanswered_entry;

typedef struct gc_unanswered {
    gc_unanswered_entry *items;   /* owned */
    int count;
} gc_unanswered;

/* Why the address host:port did not answer earlier in this connect, or
 * NULL when it has not been tried or answered. host or port may be NULL
 * (libpq's default). The error stays owned by u. */
const gc_error *gc_unanswered_find(const gc_unanswered *u, const char *host, const char *port);

/* Connects members[0..n) at once like gc_member_connect_all, but a member
 * whose address did not answer earlier in this connect is not tried again:
 * it is marked down with that earlier error. The addresses that do not
 * answer now are remembered. errs[i] gets member i's error. Returns the
 * number of members open afterwards. */
int gc_unanswered_connect_all(gc_unanswered *u, gc_member *const *members, int n,
                              int timeout_ms, gc_error *errs);

/* Frees what u remembers. */
void gc_unanswered_free(gc_unanswered *u);

#endif
