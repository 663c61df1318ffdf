/*
 * gc_global_savepoint: the application's SAVEPOINT, RELEASE and ROLLBACK TO
 * SAVEPOINT in a transaction that holds members of several groups
 * (gc_global.h, "transactions across groups"; docs/global-connection.md).
 *
 * Every member of the transaction holds the same savepoints: each statement
 * runs on the joined members before the pin, and a member that joins later
 * gets the savepoints still in force set right after its BEGIN. Going back
 * to one is then right on each of them, whenever they joined. For that the
 * driver keeps the list as the server does: SAVEPOINT adds a name, RELEASE
 * drops the newest of that name and all after it, ROLLBACK TO drops all
 * after it. A savepoint statement inside a text of several statements runs
 * on the pin alone; the list is then no longer known, and going back is
 * refused while the transaction holds another member.
 */
#include "global/gc_global_internal.h"
#include "global/gc_global_settings.h"
#include "sql/gc_sql_lexer.h"
#include "sql/gc_sql_statements.h"
#include "util/gc_strbuf.h"

#include <stdlib.h>
#include <string.h>

/* A savepoint name as the server keeps it: at most NAMEDATALEN - 1 bytes. */
enum { NAME_CAP = 64 };

typedef enum savepoint_kind {
    SAVEPOINT_NONE,
    SAVEPOINT_SET,
    SAVEPOINT_RELEASE,
    SAVEPOINT_ROLLBACK_TO,
} savepoint_kind;

/* The savepoint statement that starts at the lexer's position, its name in
 * name (empty when it cannot be read: a U&"..." name, or one longer than the
 * server keeps). ROLLBACK without TO is not one. */
static savepoint_kind read_statement(gc_sql_lexer *lx, char name[NAME_CAP])
{
    gc_sql_token tok;
    name[0] = '\0';
    if (!gc_sql_lexer_next_code(lx, &tok))
        return SAVEPOINT_NONE;
    savepoint_kind kind;
    if (gc_sql_token_is_keyword(lx, &tok, "SAVEPOINT")) {
        kind = SAVEPOINT_SET;
    } else if (gc_sql_token_is_keyword(lx, &tok, "RELEASE")) {
        kind = SAVEPOINT_RELEASE;
    } else if (gc_sql_token_is_keyword(lx, &tok, "ROLLBACK")) {
        if (!gc_sql_lexer_next_code(lx, &tok))
            return SAVEPOINT_NONE;
        if ((gc_sql_token_is_keyword(lx, &tok, "WORK") ||
             gc_sql_token_is_keyword(lx, &tok, "TRANSACTION")) &&
            !gc_sql_lexer_next_code(lx, &tok))
            return SAVEPOINT_NONE;
        if (!gc_sql_token_is_keyword(lx, &tok, "TO"))
            return SAVEPOINT_NONE;
        kind = SAVEPOINT_ROLLBACK_TO;
    } else {
        return SAVEPOINT_NONE;
    }
    if (!gc_sql_lexer_next_code(lx, &tok))
        return kind;
    /* RELEASE SAVEPOINT a, ROLLBACK TO SAVEPOINT a; but SAVEPOINT savepoint. */
    if (kind != SAVEPOINT_SET && gc_sql_token_is_keyword(lx, &tok, "SAVEPOINT")) {
        gc_sql_lexer probe = *lx;
        gc_sql_token next;
        if (gc_sql_lexer_next_code(&probe, &next) && gc_sql_token_is_name(&next)) {
            *lx = probe;
            tok = next;
        }
    }
    if (gc_sql_token_is_name(&tok) && gc_sql_token_identifier(lx, &tok, name, NAME_CAP) >= NAME_CAP)
        name[0] = '\0';
    return kind;
}

/* The savepoint statements at the starts of a text of several statements:
 * whether there is any, and whether one goes back (ROLLBACK TO). */
static void scan_several(const char *sql, bool *any, bool *goes_back)
{
    gc_sql_lexer lx;
    gc_sql_token tok;
    char name[NAME_CAP];
    gc_sql_lexer_init(&lx, sql, strlen(sql));
    *any = *goes_back = false;
    bool at_start = true;
    for (;;) {
        if (at_start) {
            gc_sql_lexer probe = lx;
            savepoint_kind kind = read_statement(&probe, name);
            *any |= kind != SAVEPOINT_NONE;
            *goes_back |= kind == SAVEPOINT_ROLLBACK_TO;
        }
        if (!gc_sql_lexer_next_code(&lx, &tok))
            return;
        at_start = gc_sql_token_is_punct(&lx, &tok, ';');
    }
}

/* --- the list --- */

/* Index of the newest savepoint named name, -1 when none is. */
static int newest(const gc_global_savepoints *sp, const char *name)
{
    for (int k = sp->n - 1; k >= 0; k--)
        if (strcmp(sp->names[k], name) == 0)
            return k;
    return -1;
}

/* Keeps the first n savepoints. */
static void keep_first(gc_global_savepoints *sp, int n)
{
    while (sp->n > n)
        free(sp->names[--sp->n]);
}

/* Room for one more name; false when out of memory. */
static bool reserve_one(gc_global_savepoints *sp)
{
    if (sp->n < sp->cap)
        return true;
    int cap = sp->cap > 0 ? sp->cap * 2 : 4;
    char **grown = realloc(sp->names, (size_t)cap * sizeof *grown);
    if (grown == NULL)
        return false;
    sp->names = grown;
    sp->cap = cap;
    return true;
}

void gc_global_savepoints_forget(gc_global *g)
{
    gc_global_savepoints *sp = &g->savepoints;
    keep_first(sp, 0);
    free(sp->names);
    *sp = (gc_global_savepoints){ 0 };
}

void gc_global_savepoints_append_replay(const gc_global *g, gc_strbuf *sb)
{
    /* The transaction's SETs go between the savepoints they came between. */
    const gc_global_savepoints *sp = &g->savepoints;
    for (int k = 0; k < sp->n; k++) {
        gc_global_txn_settings_append(g, sb, k);
        if (sp->unknown)
            continue;
        gc_strbuf_append_str(sb, "; SAVEPOINT ");
        gc_sql_append_identifier(sb, sp->names[k]);
    }
    gc_global_txn_settings_append(g, sb, sp->n);
}

/* --- the statements --- */

bool gc_global_run_on_joined(gc_global *g, const char *sql, gc_error *err)
{
    for (int k = 0; k < g->n_joined; k++) {
        int i = g->joined[k];
        gc_error e;
        gc_error_clear(&e);
        PGresult *r = gc_member_exec(g->members[i], sql, &e);
        if (r == NULL) {
            gc_error_set(err, e.sqlstate, e.native,
                         "member %s, which the transaction joined: %s; the transaction was "
                         "rolled back on every group", g->topo.members[i].name, e.message);
            gc_global_rollback_transaction(g);
            return false;
        }
        PQclear(r);
    }
    return true;
}

/* ROLLBACK TO refused, nothing sent: the transaction goes on. */
static bool refuse_rollback_to(gc_error *err, const char *why)
{
    gc_error_set(err, "0A000", GC_GLOBAL_NATIVE_SPANNING_WRITE,
                 "ROLLBACK TO SAVEPOINT %s is not supported once the transaction holds "
                 "another group's member: roll back the transaction instead", why);
    return false;
}

static bool set_savepoint(gc_global *g, const char *sql, const char *name, gc_error *err)
{
    gc_global_savepoints *sp = &g->savepoints;
    char *copy = NULL;
    if (name[0] == '\0') {
        sp->unknown = true;
    } else if (!reserve_one(sp) || (copy = strdup(name)) == NULL) {
        gc_error_set(err, "HY001", 0, "out of memory keeping a savepoint");
        return false;
    }
    if (!gc_global_run_on_joined(g, sql, err)) {
        free(copy);
        return false;
    }
    if (copy != NULL)
        sp->names[sp->n++] = copy;
    return true;
}

/* RELEASE, and ROLLBACK TO (keep_named): the joined members first, then
 * the list. A name the list lacks goes to the pin alone, which refuses it
 * (3B001) as one server would; the rollback level then applies there as to
 * any failed statement (level 2 undoes the refusal alone, level 1 rolls
 * the transaction back on every group, level 0 leaves it aborted). Sent to
 * the joined members, their refusal would end the transaction at every
 * level. */
static bool end_savepoints(gc_global *g, const char *sql, const char *name, bool keep_named,
                           gc_error *err)
{
    gc_global_savepoints *sp = &g->savepoints;
    if (name[0] == '\0')
        sp->unknown = true;
    if (!sp->unknown && newest(sp, name) < 0)
        return true;
    if (g->n_joined > 0 && sp->unknown) {
        if (!keep_named)
            return true;   /* RELEASE on the pin alone: the joined keep theirs */
        return refuse_rollback_to(err, name[0] == '\0'
                                  ? "to a savepoint named U&\"...\" or longer than 63 bytes"
                                  : "after a savepoint statement in a text of several "
                                    "statements, which the transaction's first member alone "
                                    "ran");
    }
    if (!gc_global_run_on_joined(g, sql, err))
        return false;
    /* Going back may undo DDL the transaction's shard map shows: it is read
     * again once the pin has gone back too (gc_global_end_statement). */
    if (keep_named && g->committed_map != NULL)
        g->txn_map_stale = true;
    int k = sp->unknown ? -1 : newest(sp, name);
    if (k >= 0) {
        keep_first(sp, keep_named ? k + 1 : k);
        gc_global_txn_settings_savepoints(g, sp->n, keep_named);
        gc_global_writes_savepoints(g, sp->n, keep_named);
    }
    return true;
}

bool gc_global_savepoint_goes_back(const char *sql)
{
    gc_sql_lexer lx;
    gc_sql_lexer_init(&lx, sql, strlen(sql));
    char name[NAME_CAP];
    return read_statement(&lx, name) == SAVEPOINT_ROLLBACK_TO;
}

bool gc_global_savepoint_before(gc_global *g, const char *sql, bool several, gc_error *err)
{
    /* No transaction is pinned yet: this statement starts one, and any list
     * left is of no transaction (a savepoint statement sent with autocommit
     * on, in a text that began no transaction). */
    if (g->pinned < 0)
        gc_global_savepoints_forget(g);
    if (several) {
        /* The text runs on the pin alone, whichever statement it holds. */
        bool any, goes_back;
        scan_several(sql, &any, &goes_back);
        if (goes_back && g->n_joined > 0)
            return refuse_rollback_to(err, "in a text of several statements (send it on "
                                           "its own)");
        g->savepoints.unknown |= any;
        return true;
    }
    gc_sql_lexer lx;
    gc_sql_lexer_init(&lx, sql, strlen(sql));
    char name[NAME_CAP];
    savepoint_kind kind = read_statement(&lx, name);
    /* A failed statement left the transaction aborted (rollback level 0):
     * SAVEPOINT and RELEASE go to that member alone, which refuses them
     * (25P02) as one server does, and change nothing; ROLLBACK TO mends
     * every member. */
    if (kind != SAVEPOINT_ROLLBACK_TO && gc_global_aborted_member(g) >= 0)
        return true;
    switch (kind) {
    case SAVEPOINT_SET:
        return set_savepoint(g, sql, name, err);
    case SAVEPOINT_RELEASE:
        return end_savepoints(g, sql, name, false, err);
    case SAVEPOINT_ROLLBACK_TO:
        return end_savepoints(g, sql, name, true, err);
    case SAVEPOINT_NONE:
        break;
    }
    return true;
}
