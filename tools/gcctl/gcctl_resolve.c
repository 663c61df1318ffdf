/*
 * gcctl_resolve: see gcctl_resolve.h.
 *
 * One superuser session per group's primary (the spec's), opened at the
 * start and used for everything: listing, asking decisions (as the
 * coordinator group), finishing, cleaning up. Its lock_timeout bounds the
 * wait for a coordinator's open transaction.
 */
#include "gcctl_resolve.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "global/gc_in_doubt.h"

#define DDL_GID_PREFIX "gcodbc_ddl_"

typedef struct group_session {
    const char *group;
    const gcctl_member *primary;
    gc_member *session;       /* NULL: not reachable */
    gc_error why;             /* why not, or why its listing failed */
    bool answered;            /* every listing on it succeeded */
    gcctl_strlist ddl;        /* its prepared cluster-DDL gids */
} group_session;

/* libpq's messages run over lines; gcctl prints one line per item. */
static void one_line(char *s)
{
    char *w = s;
    for (const char *r = s; *r != '\0'; r++) {
        bool space = *r == '\n' || *r == '\t';
        if (space && (w == s || w[-1] == ' '))
            continue;
        *w++ = space ? ' ' : *r;
    }
    while (w > s && w[-1] == ' ')
        w--;
    *w = '\0';
}

/* A member session to m as gcctl's superuser (see gcctl_connect). NULL with
 * err when it does not answer or is not a primary. */
static gc_member *open_primary(const gcctl_target *t, const gcctl_member *m, gc_error *err)
{
    char port[16];
    snprintf(port, sizeof port, "%d", m->port);
    gc_member_params p = {
        .name = m->name, .group = m->group,
        .host = t->socket_dir ? t->socket_dir : m->host, .port = port,
        .dbname = t->spec->database,
        .user = t->socket_dir ? t->os_user : t->spec->superuser,
        .password = t->socket_dir ? NULL : t->spec->superuser_password,
        .application_name = "gcctl resolve", .connect_timeout_s = 5,
    };
    gc_member *s = gc_member_create(&p, NULL);
    if (s == NULL) {
        gc_error_set(err, "HY001", 0, "out of memory");
        return NULL;
    }
    bool ok = gc_member_connect(s, err);
    if (ok && gc_member_get_role(s) != GC_ROLE_PRIMARY) {
        gc_error_set(err, "HY000", 0, "%s is not a primary (in recovery): promote one, or fix "
                     "the spec", m->name);
        ok = false;
    }
    ok = ok && gc_in_doubt_bound_wait(s, GCCTL_RESOLVE_WAIT_S * 1000, err);
    if (!ok) {
        one_line(err->message);
        gc_member_destroy(s);
        return NULL;
    }
    return s;
}

static group_session *find_group(group_session *gs, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(gs[i].group, name) == 0)
            return &gs[i];
    return NULL;
}

/* Resolves one transaction found on group p (ripe or not). */
static gc_in_doubt_outcome resolve_one(group_session *gs, size_t n, group_session *p,
                                       const gc_in_doubt_xact *x, double grace_s,
                                       gc_error *why)
{
    gc_error_clear(why);
    if (!x->ripe) {
        gc_error_set(why, "HY000", 0, "prepared %.1f s ago, within the grace of %g s: its "
                     "coordinator may still finish it (--grace 0 when none runs)",
                     x->age_s, grace_s);
        return GC_IN_DOUBT_LEFT;
    }
    group_session *coordinator = find_group(gs, n, x->coordinator);
    if (coordinator == NULL) {
        gc_error_set(why, "HY000", 0, "its coordinator group %s is not in this cluster",
                     x->coordinator);
        return GC_IN_DOUBT_LEFT;
    }
    if (coordinator->session == NULL) {
        gc_error_set(why, "08001", 0, "its coordinator group %s did not answer: %s",
                     x->coordinator, coordinator->why.message);
        return GC_IN_DOUBT_LEFT;
    }
    return gc_in_doubt_settle(p->session, coordinator->session, x->gid, why);
}

/* Resolves what group p holds; adds to counts. */
static void resolve_group(group_session *gs, size_t n, group_session *p, double grace_s,
                          gc_in_doubt_counts *counts)
{
    gc_in_doubt_list list;
    if (!gc_in_doubt_find(p->session, (int)(grace_s * 1000.0), &list, &p->why)) {
        printf("group %s (%s): cannot list prepared transactions: %s\n", p->group,
               p->primary->name, p->why.message);
        p->answered = false;
        return;
    }
    for (int k = 0; k < list.n; k++) {
        gc_error why;
        gc_in_doubt_outcome o = resolve_one(gs, n, p, &list.items[k], grace_s, &why);
        gc_in_doubt_count(counts, o);
        one_line(why.message);
        printf("%s  %s  %s%s%s\n", list.items[k].gid, p->group, gc_in_doubt_outcome_name(o),
               why.message[0] ? ": " : "", why.message);
    }
    gc_in_doubt_list_free(&list);
}

/* Reads group p's prepared cluster-DDL gids into p->ddl. */
static void list_ddl(group_session *p)
{
    PGresult *r = gc_member_exec(p->session,
        "SELECT gid FROM pg_prepared_xacts WHERE database = current_database()"
        "   AND left(gid, 11) = '" DDL_GID_PREFIX "' ORDER BY prepared", &p->why);
    if (r == NULL) {
        printf("group %s (%s): cannot list prepared cluster DDL: %s\n", p->group,
               p->primary->name, p->why.message);
        p->answered = false;
        return;
    }
    for (int i = 0; i < PQntuples(r); i++)
        if (!gcctl_strlist_push(&p->ddl, PQgetvalue(r, i, 0))) {
            fprintf(stderr, "gcctl: out of memory\n");
            exit(1);
        }
    PQclear(r);
}

/* Prints each prepared cluster DDL with the statement the operator should
 * run; returns how many there are. gcctl never decides these: their gid
 * does not say whether every group prepared. */
static int report_ddl(group_session *gs, size_t n, bool all_answered)
{
    int count = 0;
    for (size_t i = 0; i < n; i++)
        for (size_t k = 0; k < gs[i].ddl.n; k++) {
            const char *gid = gs[i].ddl.items[k];
            bool first = true, everywhere = all_answered;
            for (size_t j = 0; j < i; j++)
                first = first && !gcctl_strlist_contains(&gs[j].ddl, gid);
            if (!first)
                continue;
            count++;
            gc_strbuf held;
            gc_strbuf_init(&held);
            for (size_t j = 0; j < n; j++) {
                if (gcctl_strlist_contains(&gs[j].ddl, gid)) {
                    gc_strbuf_appendf(&held, "%s%s", held.len ? ", " : "", gs[j].primary->name);
                } else
                    everywhere = false;
            }
            char *members = gcctl_sb_take(&held);
            if (everywhere)
                printf("%s  cluster DDL prepared on every group: every group prepared it, so "
                       "it was decided; run COMMIT PREPARED '%s' on %s\n", gid, gid, members);
            else
                printf("%s  cluster DDL prepared on %s only: run COMMIT PREPARED '%s' there "
                       "if the change is on the other groups, else ROLLBACK PREPARED '%s'\n",
                       gid, members, gid, gid);
            free(members);
        }
    return count;
}

/* Deletes, on every group, the decisions no prepared transaction needs
 * (see gcctl_resolve.h). False when a group failed. */
static bool forget_decisions(group_session *gs, size_t n, double grace_s,
                             double keep_rollbacks_s, long *removed)
{
    gc_strbuf sb;
    gc_strbuf_init(&sb);
    gc_strbuf_appendf(&sb, "DELETE FROM gcluster.commit_decisions"
                      " WHERE decided_at < now() - make_interval(secs => %g)"
                      "   AND (committed OR decided_at < now() - make_interval(secs => %g))"
                      "   AND gid <> ALL (ARRAY[",
                      grace_s, keep_rollbacks_s);
    /* Every gcx: gid still prepared anywhere, after the resolution. */
    bool first = true;
    for (size_t i = 0; i < n; i++) {
        gc_in_doubt_list list;
        if (!gc_in_doubt_find(gs[i].session, 0, &list, &gs[i].why)) {
            printf("decisions kept: group %s did not answer: %s\n", gs[i].group,
                   gs[i].why.message);
            free(gcctl_sb_take(&sb));
            return false;
        }
        for (int k = 0; k < list.n; k++) {
            gc_strbuf_append_str(&sb, first ? "" : ", ");
            gcctl_sb_literal(&sb, list.items[k].gid);
            first = false;
        }
        gc_in_doubt_list_free(&list);
    }
    gc_strbuf_append_str(&sb, "]::text[])");
    char *sql = gcctl_sb_take(&sb);
    bool ok = true;
    *removed = 0;
    for (size_t i = 0; i < n && ok; i++) {
        PGresult *r = gc_member_exec(gs[i].session, sql, &gs[i].why);
        if (r == NULL) {
            printf("decisions on group %s not cleaned up: %s\n", gs[i].group, gs[i].why.message);
            ok = false;
            continue;
        }
        *removed += atol(PQcmdTuples(r));
        PQclear(r);
    }
    free(sql);
    return ok;
}

bool gcctl_resolve(gcctl_cluster *c, double grace_s, double keep_rollbacks_s, gc_error *err)
{
    const gcctl_spec *spec = c->spec;
    size_t n = spec->groups.n;
    group_session *gs = calloc(n, sizeof *gs);
    if (gs == NULL) {
        gc_error_set(err, "HY001", 0, "out of memory");
        return false;
    }
    bool all_answered = true;
    for (size_t i = 0; i < n; i++) {
        gs[i].group = spec->groups.items[i];
        gs[i].primary = gcctl_spec_primary(spec, gs[i].group);
        gs[i].session = open_primary(c->target, gs[i].primary, &gs[i].why);
        gs[i].answered = gs[i].session != NULL;
        if (gs[i].session == NULL) {
            printf("group %s (%s) did not answer: %s; its prepared transactions are left\n",
                   gs[i].group, gs[i].primary->name, gs[i].why.message);
            all_answered = false;
        }
    }
    gc_in_doubt_counts counts = { 0 };
    for (size_t i = 0; i < n; i++)
        if (gs[i].session != NULL)
            resolve_group(gs, n, &gs[i], grace_s, &counts);
    for (size_t i = 0; i < n; i++)
        if (gs[i].answered)
            list_ddl(&gs[i]);
    for (size_t i = 0; i < n; i++)
        all_answered = all_answered && gs[i].answered;
    int ddl = report_ddl(gs, n, all_answered);

    long removed = 0;
    bool cleaned = all_answered && forget_decisions(gs, n, grace_s, keep_rollbacks_s, &removed);
    if (!all_answered)
        printf("decisions kept: not every group answered, so a decision may still be needed\n");
    printf("in doubt: %d committed, %d rolled back, %d left; cluster DDL prepared: %d; "
           "decisions removed: %ld%s\n",
           counts.committed, counts.rolled_back, counts.left, ddl, removed,
           cleaned ? "" : " (cleanup skipped)");

    for (size_t i = 0; i < n; i++) {
        gc_member_destroy(gs[i].session);
        for (size_t k = 0; k < gs[i].ddl.n; k++)
            free(gs[i].ddl.items[k]);
        free(gs[i].ddl.items);
    }
    free(gs);
    if (!all_answered) {
        gc_error_set(err, "08001", 0, "not every group's primary answered: what it holds is "
                     "still in doubt");
        return false;
    }
    if (counts.left > 0 || ddl > 0) {
        gc_error_set(err, "HY000", 0, "%d transaction(s) left prepared", counts.left + ddl);
        return false;
    }
    return true;
}
