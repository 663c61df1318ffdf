/*
 * gc_global_zone: a timestamptz sharding key written without a UTC offset
 * (pyodbc's datetime, a C timestamp struct, '2026-06-01 12:00') means the
 * local time of the session's TimeZone, as the server will read it. Its
 * placement needs that offset: it is written into the key's text before
 * the shard map places it. A TimeZone of one offset for all time (UTC,
 * "<+09>-09") gives it at once; a named zone, whose offset depends on the
 * date, is asked of an idle member session in one round trip, remembered
 * for the last few texts. When neither can be had the text is left as it
 * is and the key is not placed (the statement goes by policy, or is
 * refused in a transaction, as before).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "global/gc_global_internal.h"
#include "global/gc_global_settings.h"
#include "member/gc_member_notify.h"
#include "placement/gc_keyval.h"
#include "placement/gc_time_zone.h"
#include "sql/gc_sql_statements.h"
#include "util/gc_strbuf.h"

/* Longest key text and zone name remembered; longer ones are asked each
 * time. */
#define ZONE_TEXT_MAX 64
#define ZONE_MEMO 16

typedef struct zone_memo_entry {
    char zone[ZONE_TEXT_MAX];
    char local[ZONE_TEXT_MAX];
    char utc[GC_GLOBAL_ZONED_KEY_MAX];   /* "" : empty slot */
} zone_memo_entry;

struct gc_zone_memo {
    zone_memo_entry entries[ZONE_MEMO];
    int next;
};

void gc_global_zone_memo_free(gc_global *g)
{
    free(g->zone_memo);
    g->zone_memo = NULL;
}

/* An open session outside any transaction, free to run a query of its own. */
static int idle_member(const gc_global *g)
{
    for (int i = 0; i < g->topo.n_members; i++)
        if (gc_member_is_open(g->members[i]) && !gc_member_busy(g->members[i]) &&
            gc_member_txn_status(g->members[i]) == PQTRANS_IDLE)
            return i;
    return -1;
}

/* An idle member whose session has the connection's settings: one opened
 * since the last SET gets them replayed first, so that its TimeZone is the
 * connection's. */
static int idle_member_with_settings(gc_global *g)
{
    int i = idle_member(g);
    gc_error err;
    gc_error_clear(&err);
    return i >= 0 && gc_global_settings_replay(g, i, &err) ? i : -1;
}

static const char *remembered(const gc_global *g, const char *zone, const char *local)
{
    if (g->zone_memo == NULL)
        return NULL;
    for (int k = 0; k < ZONE_MEMO; k++) {
        const zone_memo_entry *e = &g->zone_memo->entries[k];
        if (e->utc[0] != '\0' && strcmp(e->zone, zone) == 0 && strcmp(e->local, local) == 0)
            return e->utc;
    }
    return NULL;
}

static void remember(gc_global *g, const char *zone, const char *local, const char *utc)
{
    if (strlen(zone) >= ZONE_TEXT_MAX || strlen(local) >= ZONE_TEXT_MAX)
        return;
    if (g->zone_memo == NULL && (g->zone_memo = calloc(1, sizeof *g->zone_memo)) == NULL)
        return;
    zone_memo_entry *e = &g->zone_memo->entries[g->zone_memo->next];
    g->zone_memo->next = (g->zone_memo->next + 1) % ZONE_MEMO;
    snprintf(e->zone, sizeof e->zone, "%s", zone);
    snprintf(e->local, sizeof e->local, "%s", local);
    snprintf(e->utc, sizeof e->utc, "%s", utc);
}

/* Asks member i what UTC time local is in zone, into out as a text with
 * its offset. In a transaction of its own, so that SET LOCAL leaves the
 * session as it was and the zone is read as a TimeZone setting (AT TIME
 * ZONE would read some names, CET among them, as fixed abbreviations). */
static bool ask_server(gc_global *g, int i, const char *zone, const char *local,
                       char out[GC_GLOBAL_ZONED_KEY_MAX])
{
    char *zone_lit = gc_sql_quote_literal(zone, strlen(zone), NULL);
    char *local_lit = gc_sql_quote_literal(local, strlen(local), "timestamptz");
    gc_strbuf sql;
    gc_strbuf_init(&sql);
    if (zone_lit != NULL && local_lit != NULL)
        gc_strbuf_appendf(&sql, "BEGIN; SET LOCAL TimeZone TO %s; SELECT to_char(%s AT TIME "
                          "ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS.US'); COMMIT", zone_lit, local_lit);
    free(zone_lit);
    free(local_lit);
    if (sql.failed || sql.data == NULL) {
        gc_strbuf_free(&sql);
        return false;
    }
    PGresult *res = NULL;
    gc_error err;
    gc_error_clear(&err);
    bool ok = gc_member_exec_rows(g->members[i], sql.data, &res, 1, &err);
    gc_strbuf_free(&sql);
    if (!ok) {
        /* An error leaves the session in the failed transaction. */
        if (gc_member_is_open(g->members[i]) &&
            gc_member_txn_status(g->members[i]) != PQTRANS_IDLE)
            PQclear(gc_member_exec(g->members[i], "ROLLBACK", &err));
        gc_trace_write(g->trace, GC_TRACE_INFO, "the UTC time of '%s' in %s was not read on "
                       "%s: %s", local, zone, gc_member_name(g->members[i]), err.message);
        return false;
    }
    ok = PQntuples(res) == 1 && !PQgetisnull(res, 0, 0) &&
         strlen(PQgetvalue(res, 0, 0)) + 4 <= GC_GLOBAL_ZONED_KEY_MAX;
    if (ok)
        snprintf(out, GC_GLOBAL_ZONED_KEY_MAX, "%s+00", PQgetvalue(res, 0, 0));
    PQclear(res);
    return ok;
}

const char *gc_global_zoned_key(gc_global *g, const char *text,
                                char buf[GC_GLOBAL_ZONED_KEY_MAX])
{
    bool has_time;
    size_t len = text != NULL ? strlen(text) : 0;
    if (text == NULL || !gc_keyval_timestamp_is_local(text, len, &has_time))
        return text;
    /* In a transaction the pin's TimeZone is the session's; outside one,
     * the idle member that would be asked holds it. */
    int asked = -1;
    int zone_of = g->pinned >= 0 && gc_member_is_open(g->members[g->pinned])
                      ? g->pinned
                      : (asked = idle_member_with_settings(g));
    const char *zone = zone_of >= 0 ? gc_member_parameter(g->members[zone_of], "TimeZone")
                                    : NULL;
    if (zone == NULL)
        return text;
    int32_t east;
    if (gc_time_zone_fixed_offset(zone, &east)) {
        int32_t a = east < 0 ? -east : east;
        int n = snprintf(buf, GC_GLOBAL_ZONED_KEY_MAX, "%s%s%c%02d:%02d:%02d", text,
                         has_time ? "" : " 00:00:00", east < 0 ? '-' : '+', (int)(a / 3600),
                         (int)(a / 60 % 60), (int)(a % 60));
        return n > 0 && n < GC_GLOBAL_ZONED_KEY_MAX ? buf : text;
    }
    const char *known = remembered(g, zone, text);
    if (known != NULL) {
        snprintf(buf, GC_GLOBAL_ZONED_KEY_MAX, "%s", known);
        return buf;
    }
    if (asked < 0)
        asked = idle_member_with_settings(g);
    if (asked < 0 || !ask_server(g, asked, zone, text, buf))
        return text;
    remember(g, zone, text, buf);
    return buf;
}
