/*
 * gc_router: the routing policies of the global connection (ARCHITECTURE.md
 * section 4), as pure decisions over the members' current states. It never
 * touches a session: the caller tells it which members are usable and what
 * role each has, and it answers with member and group indexes (those of the
 * gc_topology it was made from).
 *
 * PostgreSQL standbys refuse writes, so every policy sends writes (and any
 * transaction that may write) to the group's primary; the policies differ in
 * where reads go.
 *
 * One router per global connection, guarded by the connection's lock. Its
 * random choices use its own generator state (no global state).
 */
#ifndef GC_ROUTER_H
#define GC_ROUTER_H

#include <stdbool.h>

#include "global/gc_topology.h"
#include "member/gc_member.h"
#include "util/gc_error.h"

typedef enum gc_route_access {
    GC_ACCESS_WRITE,     /* DML, DDL, and transactions that may write */
    GC_ACCESS_READ,      /* a read-only statement outside a transaction, or a
                            read-only transaction (SQL_ATTR_ACCESS_MODE) */
} gc_route_access;

typedef struct gc_router_config {
    int member_policy;          /* LocalityMemberPolicy 0..4 */
    const char *member_path;    /* LocalityMemberPath "G1N2,G2N2", or NULL */
    int group_policy;           /* LocalityGroupPolicy 0..2 */
    const char *group_path;     /* LocalityGroupPath "G2,G1", or NULL */
    unsigned random_seed;       /* for policy 0's random choice; tests fix it */
} gc_router_config;

typedef struct gc_router gc_router;

/* Makes a router for topo's members (all unusable until told otherwise).
 * Names in the paths that the topology does not know are ignored, and listed
 * in err as a warning (01000) so the caller can trace them. NULL on
 * out-of-memory. */
gc_router *gc_router_create(const gc_router_config *cfg, const gc_topology *topo,
                            gc_error *warning);
void gc_router_destroy(gc_router *r);

/* What the caller knows of member i now. connect_order: the order in which
 * members finished connecting (policy 2), -1 when not connected. */
void gc_router_set_member(gc_router *r, int member, bool usable,
                          gc_member_role role, int connect_order);

/* The group holding most keys: votes[g] counts the keys placed in group g;
 * ties go to the tied group that received a key first (first_group order:
 * the group of the first placed key wins a tie it is part of). -1 when no
 * votes. */
int gc_router_group_by_votes(const gc_router *r, const int *votes, int first_group);

/* LocalityGroupPolicy: a group with a member that can serve `access`; -1
 * when none. *reason (static text) says which rule chose it. */
int gc_router_group_by_policy(gc_router *r, gc_route_access access, const char **reason);

/* LocalityMemberPolicy inside `group`: the member to run on, or -1 when no
 * usable member of the group can serve `access`. *reason as above. */
int gc_router_member_in_group(gc_router *r, int group, gc_route_access access,
                              const char **reason);

/* Whether gc_router_member_in_group would find a member of `group` for
 * `access` now (no random draw, no state change). */
bool gc_router_group_can_serve(const gc_router *r, int group, gc_route_access access);

#endif
