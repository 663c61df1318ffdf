/*
 * The routing policies of the global connection (see gc_router.h and
 * docs/routing-policies.md). Every decision is made from the router's own
 * copy of what the caller reported (usable, role, connect order) and the
 * paths resolved to indexes at creation, so routing never looks anything up
 * by name and never costs a round trip.
 */
#include "global/gc_router.h"

#include <assert.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

/* What the router knows of one member. */
typedef struct gc_router_member {
    int group;              /* index into the topology's groups */
    bool usable;
    gc_member_role role;    /* the caller's view (the server's), not the catalog's */
    int connect_order;      /* -1 when not connected */
} gc_router_member;

struct gc_router {
    int member_policy;      /* 0..4 */
    int group_policy;       /* 0..2 */
    int n_groups;
    int n_members;
    gc_router_member *members;
    int *member_path;       /* member indexes, path order, without repeats */
    int n_member_path;
    int *group_path;        /* group indexes, path order, without repeats */
    int n_group_path;
    int *scratch;           /* candidate lists; max(n_members, n_groups) ints */
    uint64_t rng;           /* xorshift64* state, never 0 */
};

/* ---------------------------------------------------------------- random */

/* One step of splitmix64: turns any seed (even 0 or a small counter) into a
 * well-mixed 64-bit value, so nearby seeds give unrelated sequences. */
static uint64_t splitmix64(uint64_t x)
{
    x += UINT64_C(0x9e3779b97f4a7c15);
    x = (x ^ (x >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    x = (x ^ (x >> 27)) * UINT64_C(0x94d049bb133111eb);
    return x ^ (x >> 31);
}

/* Seeds the router's generator: a fixed seed gives a fixed sequence (tests);
 * seed 0 mixes the clock with the router's address, so two connections made
 * in the same second still differ. */
static void router_seed(gc_router *r, unsigned seed)
{
    uint64_t s = seed;
    if (seed == 0) {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        s = (uint64_t)ts.tv_sec * UINT64_C(1000000000) + (uint64_t)ts.tv_nsec;
        s ^= (uint64_t)(uintptr_t)r;
    }
    r->rng = splitmix64(s);
    if (r->rng == 0)          /* xorshift's one forbidden state */
        r->rng = UINT64_C(0x2545f4914f6cdd1d);
}

/* A uniform index in [0, n): xorshift64*, scaled by multiply-and-shift (the
 * bias is below 2^-32 for the small n of a cluster). */
static int router_random_index(gc_router *r, int n)
{
    assert(n > 0);
    uint64_t x = r->rng;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    r->rng = x;
    uint64_t high = (x * UINT64_C(0x2545f4914f6cdd1d)) >> 32;
    return (int)((high * (uint64_t)n) >> 32);
}

/* ---------------------------------------------------------------- paths */

/* Appends text to a NUL-terminated buffer of size cap, truncating. */
static void append_text(char *buf, size_t cap, const char *text)
{
    size_t len = strlen(buf);
    if (len + 1 < cap)
        snprintf(buf + len, cap - len, "%s", text);
}

/* Whether the ", "-separated list already holds `name` (so a name repeated
 * in a path is reported once). */
static bool list_holds(const char *list, const char *name)
{
    size_t len = strlen(name);
    for (const char *p = list; *p != '\0';) {
        const char *end = strstr(p, ", ");
        size_t item = end != NULL ? (size_t)(end - p) : strlen(p);
        if (item == len && strncmp(p, name, len) == 0)
            return true;
        if (end == NULL)
            break;
        p = end + 2;
    }
    return false;
}

/* Index of the member or group called `name` (len bytes, not terminated);
 * names compare without regard to case, as the keys themselves do. */
static int find_member(const gc_topology *topo, const char *name, size_t len)
{
    for (int i = 0; i < topo->n_members; i++)
        if (strlen(topo->members[i].name) == len
            && strncasecmp(topo->members[i].name, name, len) == 0)
            return i;
    return -1;
}

static int find_group(const gc_topology *topo, const char *name, size_t len)
{
    for (int g = 0; g < topo->n_groups; g++)
        if (strlen(topo->groups[g].name) == len
            && strncasecmp(topo->groups[g].name, name, len) == 0)
            return g;
    return -1;
}

/* Resolves a comma-separated path ("G1N2, G2N2") to indexes in out (room for
 * `cap`), in order, skipping empty entries and repeats. Unknown names are
 * appended to `unknown` (", "-separated). Returns the number of indexes. */
static int resolve_path(const char *path, const gc_topology *topo, bool members,
                        int *out, int cap, char *unknown, size_t unknown_cap)
{
    int n = 0;
    if (path == NULL)
        return 0;
    const char *p = path;
    while (*p != '\0') {
        const char *end = strchr(p, ',');
        if (end == NULL)
            end = p + strlen(p);
        const char *b = p, *e = end;
        while (b < e && (*b == ' ' || *b == '\t'))
            b++;
        while (e > b && (e[-1] == ' ' || e[-1] == '\t'))
            e--;
        size_t len = (size_t)(e - b);
        if (len > 0) {
            int idx = members ? find_member(topo, b, len) : find_group(topo, b, len);
            if (idx < 0) {
                char name[128];
                snprintf(name, sizeof name, "%.*s", (int)(len < 100 ? len : 100), b);
                if (!list_holds(unknown, name)) {
                    if (unknown[0] != '\0')
                        append_text(unknown, unknown_cap, ", ");
                    append_text(unknown, unknown_cap, name);
                }
            } else {
                bool seen = false;
                for (int i = 0; i < n; i++)
                    seen = seen || out[i] == idx;
                if (!seen && n < cap)
                    out[n++] = idx;
            }
        }
        p = (*end == ',') ? end + 1 : end;
    }
    return n;
}

/* ---------------------------------------------------------------- create */

/* Allocates a router (caller frees with gc_router_destroy); see gc_router.h.
 * The router keeps no pointer into topo. */
gc_router *gc_router_create(const gc_router_config *cfg, const gc_topology *topo,
                            gc_error *warning)
{
    assert(cfg != NULL && topo != NULL);
    if (warning != NULL)
        gc_error_clear(warning);

    gc_router *r = calloc(1, sizeof *r);
    if (r == NULL)
        return NULL;
    r->n_groups = topo->n_groups;
    r->n_members = topo->n_members;
    int most = r->n_members > r->n_groups ? r->n_members : r->n_groups;
    /* +1: calloc(0) may return NULL, which must not read as out-of-memory. */
    r->members = calloc((size_t)r->n_members + 1, sizeof *r->members);
    r->member_path = calloc((size_t)r->n_members + 1, sizeof *r->member_path);
    r->group_path = calloc((size_t)r->n_groups + 1, sizeof *r->group_path);
    r->scratch = calloc((size_t)most + 1, sizeof *r->scratch);
    if (r->members == NULL || r->member_path == NULL || r->group_path == NULL
        || r->scratch == NULL) {
        gc_router_destroy(r);
        return NULL;
    }
    for (int i = 0; i < r->n_members; i++) {
        assert(topo->members[i].group >= 0 && topo->members[i].group < r->n_groups);
        r->members[i].group = topo->members[i].group;
        r->members[i].usable = false;
        r->members[i].role = GC_ROLE_UNKNOWN;
        r->members[i].connect_order = -1;
    }

    /* The configuration layer validates the keys; a value that still gets
     * here out of range falls back to the default rather than crashing. */
    char message[GC_ERROR_MESSAGE_MAX] = "";
    r->member_policy = cfg->member_policy;
    if (r->member_policy < 0 || r->member_policy > 4) {
        snprintf(message, sizeof message,
                 "LocalityMemberPolicy %d is not 0..4; using 0", cfg->member_policy);
        r->member_policy = 0;
    }
    r->group_policy = cfg->group_policy;
    if (r->group_policy < 0 || r->group_policy > 2) {
        char part[96];
        snprintf(part, sizeof part, "%sLocalityGroupPolicy %d is not 0..2; using 0",
                 message[0] != '\0' ? "; " : "", cfg->group_policy);
        append_text(message, sizeof message, part);
        r->group_policy = 0;
    }

    char unknown[GC_ERROR_MESSAGE_MAX] = "";
    r->n_member_path = resolve_path(cfg->member_path, topo, true, r->member_path,
                                    r->n_members, unknown, sizeof unknown);
    if (unknown[0] != '\0') {
        if (message[0] != '\0')
            append_text(message, sizeof message, "; ");
        append_text(message, sizeof message,
                    "LocalityMemberPath names members the cluster does not have (ignored): ");
        append_text(message, sizeof message, unknown);
    }
    unknown[0] = '\0';
    r->n_group_path = resolve_path(cfg->group_path, topo, false, r->group_path,
                                   r->n_groups, unknown, sizeof unknown);
    if (unknown[0] != '\0') {
        if (message[0] != '\0')
            append_text(message, sizeof message, "; ");
        append_text(message, sizeof message,
                    "LocalityGroupPath names groups the cluster does not have (ignored): ");
        append_text(message, sizeof message, unknown);
    }
    if (warning != NULL && message[0] != '\0')
        gc_error_set(warning, "01000", 0, "%s", message);

    router_seed(r, cfg->random_seed);
    return r;
}

void gc_router_destroy(gc_router *r)
{
    if (r == NULL)
        return;
    free(r->members);
    free(r->member_path);
    free(r->group_path);
    free(r->scratch);
    free(r);
}

void gc_router_set_member(gc_router *r, int member, bool usable,
                          gc_member_role role, int connect_order)
{
    assert(r != NULL && member >= 0 && member < r->n_members);
    r->members[member].usable = usable;
    r->members[member].role = role;
    r->members[member].connect_order = connect_order;
}

/* ---------------------------------------------------------------- members */

/* Whether member i can run `access` now: any usable member reads; only a
 * usable primary writes (PostgreSQL standbys refuse writes). */
static bool member_can_serve(const gc_router *r, int i, gc_route_access access)
{
    const gc_router_member *m = &r->members[i];
    if (!m->usable)
        return false;
    return access == GC_ACCESS_READ || m->role == GC_ROLE_PRIMARY;
}

/* The group's usable primary, or -1. Should the caller report two (a moment
 * of a failover), the first in topology order wins, so the choice is stable. */
static int group_primary(const gc_router *r, int group)
{
    for (int i = 0; i < r->n_members; i++)
        if (r->members[i].group == group && r->members[i].usable
            && r->members[i].role == GC_ROLE_PRIMARY)
            return i;
    return -1;
}

/* Writes the one member `only` (when >= 0) to out; returns the count. */
static int one_candidate(int only, int *out)
{
    if (only < 0)
        return 0;
    if (out != NULL)
        out[0] = only;
    return 1;
}

/* The members of `group` that LocalityMemberPolicy allows for `access` now,
 * written to out (when not NULL, room for n_members); the choice is a
 * uniform pick among them. Returns their count; *reason (static text) says
 * which rule gave them, or why there are none. The single source of truth
 * for both choosing a member and asking whether a group can serve. */
static int member_candidates(const gc_router *r, int group, gc_route_access access,
                             int *out, const char **reason)
{
    int primary = group_primary(r, group);
    const char *no_primary = "no usable primary in the group (writes and this "
                             "policy's reads need the primary)";

    if (access == GC_ACCESS_WRITE && r->member_policy != 4) {
        *reason = primary >= 0 ? "write: the group's primary (standbys refuse writes)"
                               : no_primary;
        return one_candidate(primary, out);
    }

    switch (r->member_policy) {
    case 0:
        *reason = primary >= 0 ? "LocalityMemberPolicy 0: the group's primary"
                               : no_primary;
        return one_candidate(primary, out);

    case 1:
    case 2: {
        int n = 0;
        for (int i = 0; i < r->n_members; i++)
            if (r->members[i].group == group && member_can_serve(r, i, access)) {
                if (out != NULL)
                    out[n] = i;
                n++;
            }
        *reason = n > 0 ? "LocalityMemberPolicy 1/2: read on a random usable member"
                        : "no usable member in the group";
        return n;
    }

    case 3: {
        int n = 0;
        for (int i = 0; i < r->n_members; i++)
            if (r->members[i].group == group && r->members[i].usable
                && r->members[i].role == GC_ROLE_STANDBY) {
                if (out != NULL)
                    out[n] = i;
                n++;
            }
        if (n > 0) {
            *reason = "LocalityMemberPolicy 3: read on a random usable standby";
            return n;
        }
        *reason = primary >= 0
                      ? "LocalityMemberPolicy 3: no usable standby, read on the primary"
                      : "no usable standby or primary in the group";
        return one_candidate(primary, out);
    }

    case 4:
        for (int k = 0; k < r->n_member_path; k++) {
            int i = r->member_path[k];
            if (r->members[i].group == group && member_can_serve(r, i, access)) {
                *reason = "LocalityMemberPolicy 4: first usable member of "
                          "LocalityMemberPath that can serve";
                return one_candidate(i, out);
            }
        }
        *reason = primary >= 0
                      ? "LocalityMemberPolicy 4: no path member can serve, the primary"
                      : no_primary;
        return one_candidate(primary, out);

    default:
        assert(!"member policy validated at creation");
        *reason = "unknown member policy";
        return 0;
    }
}

bool gc_router_group_can_serve(const gc_router *r, int group, gc_route_access access)
{
    assert(r != NULL && group >= 0 && group < r->n_groups);
    const char *reason;
    return member_candidates(r, group, access, NULL, &reason) > 0;
}

/* Chooses the member of `group` for `access` (see gc_router.h). Draws from
 * the router's generator only when more than one member qualifies. */
int gc_router_member_in_group(gc_router *r, int group, gc_route_access access,
                              const char **reason)
{
    assert(r != NULL && reason != NULL);
    assert(group >= 0 && group < r->n_groups);
    int n = member_candidates(r, group, access, r->scratch, reason);
    if (n == 0)
        return -1;
    return n == 1 ? r->scratch[0] : r->scratch[router_random_index(r, n)];
}

/* ---------------------------------------------------------------- groups */

int gc_router_group_by_votes(const gc_router *r, const int *votes, int first_group)
{
    assert(r != NULL && votes != NULL);
    int best = -1;
    for (int g = 0; g < r->n_groups; g++) {
        assert(votes[g] >= 0);
        if (votes[g] > 0 && (best < 0 || votes[g] > votes[best]))
            best = g;      /* strict >: among equals the lowest index stays */
    }
    if (best >= 0 && first_group >= 0 && first_group < r->n_groups
        && votes[first_group] == votes[best])
        best = first_group;
    return best;
}

/* A uniform pick among the groups that can serve `access`, or -1. */
static int random_serving_group(gc_router *r, gc_route_access access)
{
    int n = 0;
    for (int g = 0; g < r->n_groups; g++)
        if (gc_router_group_can_serve(r, g, access))
            r->scratch[n++] = g;
    if (n == 0)
        return -1;
    return n == 1 ? r->scratch[0] : r->scratch[router_random_index(r, n)];
}

/* Chooses a group when no key decides (see gc_router.h). */
int gc_router_group_by_policy(gc_router *r, gc_route_access access, const char **reason)
{
    assert(r != NULL && reason != NULL);

    if (r->group_policy == 1) {
        for (int k = 0; k < r->n_group_path; k++)
            if (gc_router_group_can_serve(r, r->group_path[k], access)) {
                *reason = "LocalityGroupPolicy 1: first group of LocalityGroupPath "
                          "that can serve";
                return r->group_path[k];
            }
    } else if (r->group_policy == 2) {
        int first = -1;
        for (int i = 0; i < r->n_members; i++) {
            const gc_router_member *m = &r->members[i];
            if (m->connect_order >= 0
                && (first < 0 || m->connect_order < r->members[first].connect_order)
                && gc_router_group_can_serve(r, m->group, access))
                first = i;
        }
        if (first >= 0) {
            *reason = "LocalityGroupPolicy 2: the group of the member that "
                      "connected first and can serve";
            return r->members[first].group;
        }
    }

    int g = random_serving_group(r, access);
    if (g < 0)
        *reason = "no group has a usable member that can serve";
    else if (r->group_policy == 0)
        *reason = "LocalityGroupPolicy 0: a random group that can serve";
    else if (r->group_policy == 1)
        *reason = "LocalityGroupPolicy 1: no path group can serve, a random group";
    else
        *reason = "LocalityGroupPolicy 2: no connected group can serve, a random group";
    return g;
}
