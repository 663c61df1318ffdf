/*
 * gc_result: a statement's results as they arrive from the session.
 *
 * After a send the statement "owns" the session (gc_session_own) and reads
 * results one at a time: a result set streams one PGRES_SINGLE_TUPLE result
 * per row, ended by a zero-row PGRES_TUPLES_OK. When anything else is sent
 * on the session or its settled state is read, the session layer calls
 * gc_result_end_streaming: the owner copies what is left into memory (one
 * PGresult per result set, rows appended with PQsetvalue) and releases the
 * session; it then reads from memory exactly as from the wire.
 */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "convert/gc_pgtype_keys.h"
#include "core/gc_desc.h"
#include "core/gc_exec_timer.h"
#include "core/gc_conn_kind.h"
#include "core/gc_lo.h"
#include "core/gc_route.h"
#include "core/gc_stmt.h"
#include "core/gc_txn_guard.h"
#include "util/gc_utf16.h"

/* The verbs of the command tags that carry a row count, as libpq's
 * PQcmdTuples knows them, and whether the command changes rows. */
typedef struct counted_verb {
    const char *word;       /* with its space */
    size_t len;
    bool skips_oid;         /* INSERT: "INSERT oid rows" */
    bool changes_rows;
} counted_verb;

static const counted_verb counted_verbs[] = {
    { "SELECT ", 7, false, false }, { "UPDATE ", 7, false, true },
    { "INSERT ", 7, true, true },   { "DELETE ", 7, false, true },
    { "MERGE ", 6, false, true },   { "FETCH ", 6, false, false },
    { "MOVE ", 5, false, false },   { "COPY ", 5, false, false },
};

/* The verb tag begins with, NULL when it carries no row count. */
static const counted_verb *counted_verb_of(const char *tag)
{
    for (size_t i = 0; i < sizeof counted_verbs / sizeof counted_verbs[0]; i++) {
        const counted_verb *v = &counted_verbs[i];
        if (tag[0] == v->word[0] && strncmp(tag, v->word, v->len) == 0)
            return v;
    }
    return NULL;
}

/* The row count's digits in r's command tag, as PQcmdTuples gives them
 * ("" when the tag has none). A well-formed tag of a counted verb is read
 * here: asking libpq cost some 160 instructions per statement. Anything
 * else goes to PQcmdTuples, which also warns about a malformed tag. */
static const char *row_count_text(PGresult *r)
{
    const char *tag = PQcmdStatus(r);
    const counted_verb *v = counted_verb_of(tag);
    if (v != NULL) {
        const char *digits = tag + v->len;
        if (v->skips_oid) {
            const char *space = strchr(digits, ' ');
            digits = space != NULL ? space + 1 : "";
        }
        const char *c = digits;
        while (*c >= '0' && *c <= '9')
            c++;
        if (c > digits && *c == '\0')
            return digits;
    }
    return PQcmdTuples(r);
}

/* SQLRowCount of a command: its count when its tag has one (INSERT,
 * UPDATE, DELETE, MERGE, SELECT, COPY, FETCH, MOVE). ODBC leaves the rest to
 * the driver; psqlODBC's answer, which programs and pyodbc's tests rely on,
 * is 0 for a tag of several words (CREATE TABLE, CREATE INDEX, TRUNCATE
 * TABLE) except DROP TABLE and ALTER TABLE, and -1 for a one-word tag (SET,
 * BEGIN, COMMENT, VACUUM): where psqlODBC leaves the count unwritten, which
 * pyodbc reads as -1. */
static SQLLEN command_row_count(PGresult *r)
{
    const char *n = row_count_text(r);
    if (n[0] != '\0')
        return atol(n);
    const char *tag = PQcmdStatus(r);
    if (strchr(tag, ' ') == NULL || strncmp(tag, "DROP TABLE", 10) == 0 ||
        strncmp(tag, "ALTER TABLE", 11) == 0)
        return -1;
    return 0;
}

/* Server notices reach the handle of the running call through the
 * connection's notice routing (gc_conn.h: notice_diag). */
void gc_result_take_session(gc_stmt *s)
{
    gc_session_own(&s->conn->session_owner, s->conn->session, s);
}

/* The session is free again: the rollback level looks at how the
 * statement ended (gc_txn_guard.h). */
void gc_result_release_session(gc_stmt *s)
{
    bool owned = gc_result_streams(s);
    gc_session_disown(&s->conn->session_owner, s);
    if (owned)
        gc_txn_guard_settle(s);
}

/* Next result from the session while s owns it (NULL when none). */
static PGresult *session_next(gc_stmt *s)
{
    if (!gc_result_streams(s) || s->conn->session == NULL)
        return NULL;
    atomic_store(&s->in_server_call, true);
    PGresult *r = gc_session_next_result(s->conn->session);
    atomic_store(&s->in_server_call, false);
    if (r == NULL)
        gc_result_release_session(s);
    return r;
}

/* Appends rows [from, end) of src to dst (made by PQcopyResult). */
static bool append_rows(PGresult *dst, const PGresult *src, int from)
{
    int nf = PQnfields(src);
    for (int r = from; r < PQntuples(src); r++) {
        int t = PQntuples(dst);
        for (int f = 0; f < nf; f++) {
            bool null = PQgetisnull(src, r, f);
            if (!PQsetvalue(dst, t, f, null ? NULL : PQgetvalue(src, r, f),
                            null ? -1 : PQgetlength(src, r, f)))
                return false;
        }
        if (nf == 0 && !PQsetvalue(dst, t, 0, NULL, -1))
            return false;
    }
    return true;
}

/* An error result made by the driver (out of memory while buffering). */
static PGresult *driver_error_result(void)
{
    return PQmakeEmptyPGresult(NULL, PGRES_FATAL_ERROR);
}

/* Gathers a streaming result set whose first row is `first` into one
 * PGRES_TUPLES_OK result (caller owns). Returns an error result instead when
 * the set ends in an error. */
static PGresult *collect_set(gc_stmt *s, PGresult *first)
{
    PGresult *all = PQcopyResult(first, PG_COPYRES_ATTRS);
    bool ok = all != NULL && append_rows(all, first, 0);
    PQclear(first);
    PGresult *r;
    PGresult *error = NULL;
    while ((r = session_next(s)) != NULL) {
        ExecStatusType st = PQresultStatus(r);
        if (st == PGRES_SINGLE_TUPLE || st == PGRES_TUPLES_OK) {
            ok = ok && append_rows(all, r, 0);
            PQclear(r);
            if (st == PGRES_TUPLES_OK)
                break;
        } else {
            error = r;
            break;
        }
    }
    if (error != NULL || !ok) {
        PQclear(all);
        return error != NULL ? error : driver_error_result();
    }
    return all;
}

/* The queue holds queue_len results from queue[queue_head] on: popping
 * moves the head, so a parameter array's thousands of results are walked
 * without moving the rest each time. */
static bool queue_push(gc_stmt *s, PGresult *r)
{
    if (s->queue_head > 0 && s->queue_head + s->queue_len == s->queue_cap) {
        memmove(s->queue, s->queue + s->queue_head, (size_t)s->queue_len * sizeof *s->queue);
        s->queue_head = 0;
    }
    if (s->queue_len == s->queue_cap) {
        int cap = s->queue_cap ? s->queue_cap * 2 : 4;
        PGresult **q = realloc(s->queue, (size_t)cap * sizeof *q);
        if (q == NULL)
            return false;
        s->queue = q;
        s->queue_cap = cap;
    }
    s->queue[s->queue_head + s->queue_len++] = r;
    return true;
}

static PGresult *queue_pop(gc_stmt *s)
{
    if (s->queue_len == 0)
        return NULL;
    PGresult *r = s->queue[s->queue_head++];
    if (--s->queue_len == 0)
        s->queue_head = 0;
    return r;
}

/* Copies the rest of s's results into memory and releases the session. */
static void buffer_rest(gc_stmt *s)
{
    if (!s->set_complete && s->block != NULL) {
        int start = s->current_row >= 0 ? s->current_row : s->block_next;
        PGresult *buf = PQcopyResult(s->block, PG_COPYRES_ATTRS);
        bool ok = buf != NULL && append_rows(buf, s->block, start);
        PGresult *r;
        while ((r = session_next(s)) != NULL) {
            ExecStatusType st = PQresultStatus(r);
            if (st == PGRES_SINGLE_TUPLE || st == PGRES_TUPLES_OK) {
                ok = ok && append_rows(buf, r, 0);
                if (st == PGRES_TUPLES_OK) {
                    const char *n = row_count_text(r);
                    if (n[0])
                        s->row_count = atol(n);
                }
                PQclear(r);
                if (st == PGRES_TUPLES_OK)
                    break;
            } else {
                s->set_error = r;
                break;
            }
        }
        if (!ok) {
            PQclear(buf);
            buf = NULL;
            if (s->set_error == NULL)
                s->set_error = driver_error_result();
        }
        gc_fwd_rowset_retire(&s->fwd, s->block);
        s->block = buf;
        s->block_next -= start;
        if (s->current_row >= 0)
            s->current_row -= start;
        s->set_complete = true;
    }
    /* A streaming head read ahead, then everything still on the wire. */
    if (s->queue_len > 0 &&
        PQresultStatus(s->queue[s->queue_head + s->queue_len - 1]) == PGRES_SINGLE_TUPLE) {
        PGresult *head = s->queue[s->queue_head + --s->queue_len];
        queue_push(s, collect_set(s, head));
    }
    PGresult *r;
    while ((r = session_next(s)) != NULL) {
        if (PQresultStatus(r) == PGRES_SINGLE_TUPLE)
            r = collect_set(s, r);
        if (!queue_push(s, r))
            PQclear(r);
    }
    gc_result_release_session(s);
}

void gc_result_end_streaming(void *stmt)
{
    buffer_rest(stmt);
}

void gc_stmt_discard_results(gc_stmt *s)
{
    if (gc_result_streams(s)) {
        /* An error read while discarding never reaches the application:
         * the rollback level must not hide it. The transaction stays
         * aborted (25P02, and 40000 at COMMIT) as the server left it. */
        gc_txn_guard_disarm(s);
        if (s->conn->session != NULL)
            gc_session_drain(s->conn->session);
        gc_result_release_session(s);
    }
    gc_fwd_rowset_release(&s->fwd);
    PQclear(s->block);
    s->block = NULL;
    PQclear(s->set_error);
    s->set_error = NULL;
    PQclear(s->command);
    s->command = NULL;
    for (int i = 0; i < s->queue_len; i++)
        PQclear(s->queue[s->queue_head + i]);
    s->queue_len = 0;
    s->queue_head = 0;
    s->block_next = 0;
    s->current_row = -1;
    s->set_complete = true;
    s->getdata_column = 0;
    s->getdata_offset = 0;
    gc_cursor_reset(s);
}

/* SQL_DESC_PRECISION of a result column: the digits of a decimal or
 * floating-point number, the fractional-second digits of a time or
 * timestamp; 0 for the rest, integers included, as psqlODBC reports it
 * (their size stays in SQL_DESC_LENGTH and SQLDescribeCol's column size). */
static SQLSMALLINT ird_precision(const gc_desc_rec *r)
{
    if (r->type == SQL_DATETIME)
        return r->info.decimal_digits;
    switch (r->type) {
    case SQL_NUMERIC: case SQL_DECIMAL:
    case SQL_FLOAT: case SQL_REAL: case SQL_DOUBLE:
        return (SQLSMALLINT)r->info.column_size;
    default:
        return 0;
    }
}

void gc_result_apply_type_info(gc_desc_rec *r, bool wide)
{
    gc_desc_rec_set_concise(r, wide ? r->info.sql_wide_type : r->info.sql_type);
    r->length = r->info.column_size;
    r->octet_length = r->info.desc_octet_length;
    r->scale = r->info.decimal_digits;
    r->precision = ird_precision(r);
}

/* Whether the IRD's records are still what describing res would make:
 * the same columns (names, types, source tables) as the result they were
 * described from, and nothing changed them since (large-object columns,
 * longest values). A prepared statement executed again meets this. */
static bool ird_describes(const gc_stmt *s, const PGresult *res)
{
    const gc_desc *ird = s->ird;
    int n = PQnfields(res);
    if (!s->ird_as_described || ird->count != n)
        return false;
    for (int i = 0; i < n; i++) {
        const gc_desc_rec *r = &ird->recs[i];
        if (r->pg_type != PQftype(res, i) || r->pg_typmod != PQfmod(res, i) ||
            r->pg_table != PQftable(res, i) || r->pg_table_column != PQftablecol(res, i) ||
            r->name == NULL || strcmp(r->name, PQfname(res, i)) != 0)
            return false;
    }
    return true;
}

/* Notes which member session described the result (the connection's current
 * one), whose catalog the IRD's table oids belong to. */
static void note_describing_member(gc_stmt *s)
{
    s->ird_member = s->conn->session;
    s->ird_generation = s->ird_member != NULL ? gc_session_generation(s->ird_member) : 0;
}

bool gc_result_described_by_current_session(const gc_stmt *s)
{
    const gc_session *m = s->conn->session;
    return m != NULL && s->ird_member == m && gc_session_generation(m) == s->ird_generation &&
           !s->spans_groups && s->apd->array_size <= 1;
}

bool gc_result_describe_ird(gc_stmt *s, const PGresult *res)
{
    gc_desc *ird = s->ird;
    s->nullability_known = false;
    s->origins_known = false;
    note_describing_member(s);
    int n = PQnfields(res);
    if (ird_describes(s, res)) {
        /* Only the nullability lookup's marks are undone: it runs again
         * when asked, as for a new description. */
        for (int i = 0; i < n; i++)
            ird->recs[i].nullable = SQL_NULLABLE;
        return true;
    }
    gc_desc_clear_records(ird);
    s->ird_as_described = false;
    if (n > 0 && gc_desc_rec_get(ird, n) == NULL)
        return false;
    for (int i = 0; i < n; i++) {
        gc_desc_rec *r = &ird->recs[i];
        r->name = strdup(PQfname(res, i));
        r->unnamed = SQL_NAMED;
        r->pg_type = PQftype(res, i);
        r->pg_typmod = PQfmod(res, i);
        r->pg_table = PQftable(res, i);
        r->pg_table_column = PQftablecol(res, i);
        gc_pgtype_describe(r->pg_type, r->pg_typmod, &r->info);
        gc_pgtype_apply_keys(&s->conn->settings, r->pg_type, r->pg_typmod, &r->info);
        gc_result_apply_type_info(r, s->conn->wide_app);
        r->nullable = SQL_NULLABLE;
        r->parameter_type = 0;
    }
    s->ird_as_described = true;
    return true;
}

void gc_stmt_add_member_error(gc_stmt *s, const gc_session *m, const PGresult *r)
{
    if (r != NULL && m != NULL && PQresultErrorField(r, PG_DIAG_SQLSTATE) == NULL) {
        gc_error err;
        gc_error_clear(&err);
        gc_session_result_error(m, r, &err);
        if (err.message[0] != '\0') {
            gc_diag_add_error(&s->h.diag, &err);
            return;
        }
    }
    gc_diag_add_server_error(&s->h.diag, r, gc_stmt_error_context(s), SQL_NO_ROW_NUMBER);
}

const char *gc_stmt_error_context(const gc_stmt *s)
{
    return s->error_context != NULL ? s->error_context : GC_CONTEXT_EXECUTE;
}

/* Adds the diagnostics of an error result; a cancel caused by the query
 * timeout becomes HYT00. */
static void add_result_error(gc_stmt *s, const PGresult *r)
{
    const char *state = PQresultErrorField(r, PG_DIAG_SQLSTATE);
    if (gc_exec_timer_fired(s, state)) {
        gc_error timeout;
        gc_exec_timeout_error(&timeout, NULL);
        gc_diag_add_error(&s->h.diag, &timeout);
        return;
    }
    if (state == NULL && s->conn->session != NULL &&
        gc_session_get_state(s->conn->session) == GC_MEMBER_DOWN) {
        gc_stmt_add_member_error(s, s->conn->session, r);
        return;
    }
    if (state == NULL && PQresultErrorMessage(r)[0] == '\0') {
        gc_diag_add(&s->h.diag, "HY001", 0, "out of memory buffering a result");
        return;
    }
    gc_diag_add_server_error(&s->h.diag, r, gc_stmt_error_context(s), SQL_NO_ROW_NUMBER);
}

/* After a result completes: look at what follows, so a session whose
 * statement is done is released at once. */
static void read_ahead(gc_stmt *s)
{
    PGresult *r = session_next(s);
    if (r != NULL && !queue_push(s, r))
        PQclear(r);
}

/* Whether a command tag is that of a statement that changes rows. */
static bool changes_rows(const char *tag)
{
    const counted_verb *v = counted_verb_of(tag);
    return v != NULL && v->changes_rows;
}

/* Bytes of values read ahead into the first window at most. */
#define FIRST_WINDOW_BYTES (1024 * 1024)

/* The first window, made when a second row arrives: s->block's row and the
 * rows after it in one result (NULL when out of memory). */
static PGresult *open_window(const gc_stmt *s)
{
    PGresult *window = PQcopyResult(s->block, PG_COPYRES_ATTRS);
    if (window != NULL && !append_rows(window, s->block, 0)) {
        PQclear(window);
        return NULL;
    }
    return window;
}

/* A result set has begun streaming with s->block's one row. Reads on
 * while the set lasts, up to FetchWindowRows rows and 1 MiB of values, into
 * one block: a set that ends within that window is complete when SQLExecute
 * returns, so SQLRowCount is exact (what pyodbc's cursor.rowcount shows).
 * A larger set goes on streaming from where the window stopped; its count
 * is known when its last row has arrived. A set of one row (a point
 * SELECT) stays in s->block as libpq gave it, without a copy. Returns the
 * error that ended the set within the window (the caller's to report and
 * PQclear): the statement failed, as a driver reading whole results would
 * say at once, and the rows before it are dropped. NULL otherwise. */
static PGresult *read_first_window(gc_stmt *s)
{
    int limit = s->conn->settings.fetch_window_rows;
    PGresult *window = NULL;            /* NULL: s->block holds the rows so far */
    size_t bytes = 0;
    bool ok = true;
    PGresult *error = NULL;
    /* Up to one row beyond the window: a set of exactly `limit` rows is
     * complete once its end (a result without rows) has been read. */
    while (ok && PQntuples(window != NULL ? window : s->block) <= limit &&
           bytes < FIRST_WINDOW_BYTES) {
        PGresult *r = session_next(s);
        if (r == NULL) {
            s->set_complete = true;
            break;
        }
        ExecStatusType st = PQresultStatus(r);
        if (st != PGRES_SINGLE_TUPLE && st != PGRES_TUPLES_OK) {
            error = r;
            break;
        }
        for (int f = 0; f < PQnfields(r) && PQntuples(r) > 0; f++)
            bytes += (size_t)PQgetlength(r, 0, f);
        if (PQntuples(r) > 0 && window == NULL)
            ok = (window = open_window(s)) != NULL;
        ok = ok && (PQntuples(r) == 0 || append_rows(window, r, 0));
        if (st == PGRES_TUPLES_OK) {
            const char *n = row_count_text(r);
            s->row_count = n[0] ? atol(n) : PQntuples(window != NULL ? window : s->block);
            s->set_complete = true;
        }
        PQclear(r);
        if (s->set_complete)
            break;
    }
    if (!ok && error == NULL)
        error = driver_error_result();
    if (error != NULL) {
        PQclear(window);
        PQclear(s->block);
        s->block = NULL;
        s->set_complete = true;
        s->row_count = -1;
    } else if (window != NULL) {
        PQclear(s->block);
        s->block = window;
    }
    return error;
}

/* UnknownSizes=2: when the whole set arrived with its first window, the
 * character columns whose length the server does not give are described
 * as long as their longest value (gc_pgtype_size_to_longest). A set still
 * streaming keeps the maximum: its rows are not all known. */
static void describe_longest_values(gc_stmt *s)
{
    const gc_settings *settings = &s->conn->settings;
    if (settings->unknown_sizes != 2 || !s->set_complete || s->block == NULL)
        return;
    const PGresult *res = s->block;
    int nrows = PQntuples(res);
    for (int c = 0; c < PQnfields(res) && c < s->ird->count; c++) {
        gc_desc_rec *r = &s->ird->recs[c];
        if (!r->info.length_unknown)
            continue;
        SQLULEN longest = 0;
        for (int i = 0; i < nrows; i++) {
            SQLULEN n = gc_utf8_chars(PQgetvalue(res, i, c), (size_t)PQgetlength(res, i, c));
            if (n > longest)
                longest = n;
        }
        gc_pgtype_size_to_longest(settings, longest, &r->info);
        gc_result_apply_type_info(r, s->conn->wide_app);
        s->ird_as_described = false;    /* sized by these rows only */
    }
}

/* The statement's result is the error r (owned): reported, the rest of
 * what the server sends collected. */
static SQLRETURN fail_result(gc_stmt *s, PGresult *r)
{
    add_result_error(s, r);
    PQclear(r);
    /* The server skips the rest of a failed batch; collect its end. */
    if (gc_result_streams(s) && s->conn->session != NULL)
        gc_session_drain(s->conn->session);
    gc_result_release_session(s);
    return SQL_ERROR;
}

/* A COMMIT the server answered with ROLLBACK (r, owned): a statement had
 * failed in the transaction and nothing was committed. SQLEndTran reports
 * that as 40000 (gc_conn_endtran.c); so does the statement. */
static SQLRETURN commit_rolled_back(gc_stmt *s, PGresult *r)
{
    PQclear(r);
    s->conn->ddl_epoch++;   /* DDL the transaction ran is undone: ask the catalog again */
    if (gc_result_streams(s) && s->conn->session != NULL)
        gc_session_drain(s->conn->session);
    gc_result_release_session(s);
    gc_diag_add(&s->h.diag, "40000", 0, GC_ROLLED_BACK_AT_COMMIT_TEXT);
    return SQL_ERROR;
}

/* Before a result starts: no row, no column read. */
static void reset_position(gc_stmt *s)
{
    assert(s->block == NULL);
    s->current_row = -1;
    s->block_next = 0;
    s->getdata_column = 0;
    gc_cursor_reset(s);
}

/* Takes `r` as a command's answer: its row count, no result set (rows r
 * may hold are dropped). */
static SQLRETURN start_command(gc_stmt *s, PGresult *r)
{
    s->row_count = command_row_count(r);
    s->changed_rows_kind = changes_rows(PQcmdStatus(r));
    PQclear(s->command);
    s->command = r;
    gc_desc_clear_records(s->ird);
    s->set_complete = true;
    s->state = GC_STMT_EXECUTED;
    read_ahead(s);
    return SQL_SUCCESS;
}

/* Takes `r` as the start of the statement's next result. */
static SQLRETURN start_result(gc_stmt *s, PGresult *r)
{
    reset_position(s);
    if (r == NULL) {
        gc_result_release_session(s);
        return SQL_NO_DATA;
    }
    switch (PQresultStatus(r)) {
    case PGRES_SINGLE_TUPLE:
    case PGRES_TUPLES_OK: {
        bool streaming = PQresultStatus(r) == PGRES_SINGLE_TUPLE;
        if (!gc_result_describe_ird(s, r)) {
            PQclear(r);
            gc_diag_add(&s->h.diag, "HY001", 0, "out of memory");
            return SQL_ERROR;
        }
        s->block = r;
        s->set_complete = !streaming;
        s->row_count = streaming ? -1 : PQntuples(r);
        s->changed_rows_kind = false;
        s->state = GC_STMT_CURSOR;
        gc_lo_describe_columns(s, r);
        PGresult *error = streaming ? read_first_window(s) : NULL;
        if (error != NULL) {
            gc_desc_clear_records(s->ird);
            return fail_result(s, error);
        }
        describe_longest_values(s);
        if (s->set_complete)
            read_ahead(s);
        return SQL_SUCCESS;
    }
    case PGRES_COMMAND_OK:
        if (s->txn.commits && strcmp(PQcmdStatus(r), "ROLLBACK") == 0)
            return commit_rolled_back(s, r);
        return start_command(s, r);
    case PGRES_EMPTY_QUERY:
        return start_command(s, r);
    case PGRES_COPY_IN:
    case PGRES_COPY_OUT:
    case PGRES_COPY_BOTH:
        PQclear(r);
        if (gc_result_streams(s) && s->conn->session != NULL)
            gc_session_drain(s->conn->session);
        gc_result_release_session(s);
        gc_diag_add(&s->h.diag, "HYC00", 0, "COPY is not supported through ODBC statements");
        return SQL_ERROR;
    default:
        return fail_result(s, r);
    }
}

SQLRETURN gc_result_begin(gc_stmt *s)
{
    PGresult *r = session_next(s);
    if (r == NULL) {
        gc_diag_add(&s->h.diag, "08S01", 0, "the server sent no result");
        return SQL_ERROR;
    }
    return start_result(s, r);
}

SQLRETURN gc_result_settle(gc_stmt *s, SQLRETURN rc)
{
    if (rc == SQL_ERROR)
        return rc;
    PGresult *r;
    while (gc_result_streams(s) && (r = session_next(s)) != NULL)
        if (!queue_push(s, r))
            PQclear(r);
    /* The later results stay for SQLMoreResults unless one is an error. */
    bool failed = false;
    for (int i = 0; i < s->queue_len && !failed; i++) {
        ExecStatusType st = PQresultStatus(s->queue[s->queue_head + i]);
        failed = st == PGRES_FATAL_ERROR || st == PGRES_BAD_RESPONSE;
    }
    if (!failed)
        return rc;
    PGresult *error = NULL;
    while ((r = queue_pop(s)) != NULL) {
        ExecStatusType st = PQresultStatus(r);
        if (error == NULL && (st == PGRES_FATAL_ERROR || st == PGRES_BAD_RESPONSE))
            error = r;
        else
            PQclear(r);
    }
    gc_stmt_discard_results(s);
    return fail_result(s, error);
}

/* The results of a parameter array, all complete (gc_exec_array.c): the
 * first becomes current, the rest wait in the queue for SQLMoreResults. */
SQLRETURN gc_result_begin_list(gc_stmt *s, PGresult **results, int n)
{
    assert(n > 0 && !gc_result_streams(s) && s->queue_len == 0);
    for (int i = 1; i < n; i++) {
        if (!queue_push(s, results[i])) {
            for (int j = i; j < n; j++)
                PQclear(results[j]);
            PQclear(results[0]);
            gc_stmt_discard_results(s);
            gc_diag_add(&s->h.diag, "HY001", 0, "out of memory");
            return SQL_ERROR;
        }
    }
    return start_result(s, results[0]);
}

/* Appends r (owned, may be NULL) to s->exec_kept; false when out of memory
 * (r is freed then). */
static bool keep_result(gc_stmt *s, PGresult *r)
{
    if (r == NULL)
        return true;
    if (s->exec_kept_len == s->exec_kept_cap) {
        int cap = s->exec_kept_cap ? s->exec_kept_cap * 2 : 8;
        PGresult **k = realloc(s->exec_kept, (size_t)cap * sizeof *k);
        if (k == NULL) {
            PQclear(r);
            return false;
        }
        s->exec_kept = k;
        s->exec_kept_cap = cap;
    }
    s->exec_kept[s->exec_kept_len++] = r;
    return true;
}

bool gc_result_keep_row(gc_stmt *s)
{
    PGresult *current = NULL;
    if (s->state == GC_STMT_CURSOR) {
        buffer_rest(s);    /* the whole set (no row read yet), then the rest */
        /* A set that ended in an error passes the error on. */
        current = s->set_error != NULL ? s->set_error : s->block;
        if (current == s->set_error)
            s->set_error = NULL;
        else
            s->block = NULL;
    } else if (s->state == GC_STMT_EXECUTED) {
        buffer_rest(s);
        current = s->command;
        s->command = NULL;
    }
    bool ok = keep_result(s, current);
    PGresult *r;
    while ((r = queue_pop(s)) != NULL)
        ok = keep_result(s, r) && ok;
    gc_stmt_discard_results(s);
    return ok;
}

SQLRETURN gc_result_next_row(gc_stmt *s)
{
    for (;;) {
        if (s->block != NULL && s->block_next < PQntuples(s->block)) {
            s->current_row = s->block_next++;
            return SQL_SUCCESS;
        }
        s->current_row = -1;
        if (s->set_complete) {
            if (s->set_error != NULL) {
                add_result_error(s, s->set_error);
                PQclear(s->set_error);
                s->set_error = NULL;
                s->conn->kind->fetch_failed(s);
                return SQL_ERROR;
            }
            return SQL_NO_DATA;
        }
        gc_fwd_rowset_retire(&s->fwd, s->block);
        s->block = NULL;
        s->block_next = 0;
        PGresult *r = session_next(s);
        if (r == NULL) {
            s->set_complete = true;
            continue;
        }
        ExecStatusType st = PQresultStatus(r);
        if (st == PGRES_SINGLE_TUPLE) {
            s->block = r;
        } else if (st == PGRES_TUPLES_OK) {
            const char *n = row_count_text(r);
            if (n[0])
                s->row_count = atol(n);
            s->block = r;
            s->set_complete = true;
            read_ahead(s);
        } else {
            add_result_error(s, r);
            PQclear(r);
            s->set_complete = true;
            if (gc_result_streams(s) && s->conn->session != NULL)
                gc_session_drain(s->conn->session);
            s->conn->kind->fetch_failed(s);
            gc_result_release_session(s);
            return SQL_ERROR;
        }
    }
}

/* Skips the rows of the current set still to come. */
static void skip_rest_of_set(gc_stmt *s)
{
    while (!s->set_complete) {
        s->block_next = s->block != NULL ? PQntuples(s->block) : 0;
        if (gc_result_next_row(s) != SQL_SUCCESS)
            break;
    }
    gc_fwd_rowset_release(&s->fwd);
    PQclear(s->block);
    s->block = NULL;
    PQclear(s->set_error);
    s->set_error = NULL;
}

SQLRETURN gc_stmt_more_results(gc_stmt *s)
{
    if (s->state == GC_STMT_NEED_DATA) {
        gc_diag_add(&s->h.diag, "HY010", 0, "function sequence error: data at execution pending");
        return SQL_ERROR;
    }
    if (s->state != GC_STMT_CURSOR && s->state != GC_STMT_EXECUTED)
        return SQL_NO_DATA;
    skip_rest_of_set(s);
    PGresult *next = queue_pop(s);
    if (next == NULL)
        next = session_next(s);
    SQLRETURN rc = start_result(s, next);
    if (rc == SQL_NO_DATA || rc == SQL_ERROR) {
        if (rc == SQL_NO_DATA)
            gc_desc_clear_records(s->ird);
        s->state = s->prepared ? GC_STMT_PREPARED : GC_STMT_ALLOCATED;
    }
    return gc_stmt_rc_with_info(s, rc);
}

/* For catalog functions: the statement's result becomes `res` (owned). */
SQLRETURN gc_stmt_set_local_result(gc_stmt *s, PGresult *res)
{
    gc_stmt_discard_results(s);
    return start_result(s, res);
}

SQLRETURN gc_stmt_set_command_result(gc_stmt *s, PGresult *res)
{
    gc_stmt_discard_results(s);    /* also resets the position */
    return start_command(s, res);
}

SQLRETURN gc_stmt_set_empty_result(gc_stmt *s)
{
    PGresult *res = PQmakeEmptyPGresult(NULL, PGRES_COMMAND_OK);
    if (res == NULL) {
        gc_diag_add(&s->h.diag, "HY001", 0, "out of memory");
        return SQL_ERROR;
    }
    return gc_stmt_set_local_result(s, res);
}
