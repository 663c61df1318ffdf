/*
 * gc_diag: the diagnostics area of one handle.
 *
 * Message format (see docs/sqlstates.md):
 *   driver errors   "<message>", without a vendor prefix, as psqlODBC's
 *   server errors   as psqlODBC 13 words them: "<severity>: <primary>",
 *                   "\nDETAIL: <detail>" when sent, then ";\n<what the call
 *                   was doing>" on a statement ("Error while executing the
 *                   query", ...); a HINT is the next record, "HINT: <hint>".
 *   server notices  "<severity>: <message>", as psqlODBC words them.
 * Native error: psqlODBC's (1 statement, 110 connection, 35 connection lost,
 * 101 connect failure, -1 notices), 0 for the driver's own, and the global
 * connection's GOLDILOCKS-compatible codes (19068, 90000 up).
 */
#include "core/gc_diag.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/gc_strbuf.h"

void gc_diag_init(gc_diag *d)
{
    memset(d, 0, sizeof *d);
    d->return_code = SQL_SUCCESS;
}

/* Drops the records and resets the header, keeping the record array. */
void gc_diag_clear(gc_diag *d)
{
    for (int i = 0; i < d->count; i++)
        free(d->records[i].message);
    d->count = 0;
    d->return_code = SQL_SUCCESS;
    d->row_count = 0;
    d->cursor_row_count = 0;
    d->dynamic_function = NULL;
    d->dynamic_function_code = 0;
    d->arrivals = 0;
}

void gc_diag_free(gc_diag *d)
{
    gc_diag_clear(d);
    free(d->records);
    d->records = NULL;
    d->capacity = 0;
}

/* ODBC's order of status records: by row number (records about no row
 * first), then errors before warnings (01xxx) before the rest (02xxx, no
 * data). A server notice under an error's SQLSTATE (CREATE TABLE IF NOT
 * EXISTS: NOTICE 42P07) is a warning. Records of the same rank keep the
 * order they came in. */
static int rank_of(const gc_diag_record *r)
{
    if (strncmp(r->sqlstate, "01", 2) == 0)
        return 1;
    if (strncmp(r->sqlstate, "02", 2) == 0 || strncmp(r->sqlstate, "00", 2) == 0)
        return 2;
    return r->native == GC_NATIVE_NOTICE ? 1 : 0;
}

static bool comes_before(const gc_diag_record *a, const gc_diag_record *b)
{
    if (a->row_number != b->row_number)
        return a->row_number < b->row_number;
    return rank_of(a) < rank_of(b);
}

/* Takes ownership of message (may be NULL after an allocation failure, in
 * which case the record is lost) and files the record in ODBC's order. */
static void diag_push_at(gc_diag *d, const char *sqlstate, SQLINTEGER native, char *message,
                         SQLLEN row, SQLINTEGER column)
{
    if (message == NULL)
        return;
    if (d->count == d->capacity) {
        int cap = d->capacity == 0 ? 4 : d->capacity * 2;
        gc_diag_record *grown = realloc(d->records, (size_t)cap * sizeof *grown);
        if (grown == NULL) {
            free(message);
            return;
        }
        d->records = grown;
        d->capacity = cap;
    }
    gc_diag_record r;
    memset(&r, 0, sizeof r);
    snprintf(r.sqlstate, sizeof r.sqlstate, "%s",
             sqlstate != NULL && strlen(sqlstate) == 5 ? sqlstate : "HY000");
    r.native = native;
    r.message = message;
    r.row_number = row;
    r.column_number = column;
    r.arrival = d->arrivals++;
    int at = d->count;
    while (at > 0 && comes_before(&r, &d->records[at - 1]))
        at--;
    memmove(&d->records[at + 1], &d->records[at], (size_t)(d->count - at) * sizeof r);
    d->records[at] = r;
    d->count++;
}

static void diag_push(gc_diag *d, const char *sqlstate, SQLINTEGER native, char *message)
{
    diag_push_at(d, sqlstate, native, message, SQL_NO_ROW_NUMBER, SQL_NO_COLUMN_NUMBER);
}

void gc_diag_add(gc_diag *d, const char *sqlstate, SQLINTEGER native,
                 const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char tmp[GC_ERROR_MESSAGE_MAX];
    vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    diag_push(d, sqlstate, native, strdup(tmp));
}

void gc_diag_add_error_at(gc_diag *d, const gc_error *err, SQLLEN row, SQLINTEGER column)
{
    assert(err != NULL);
    diag_push_at(d, gc_error_is_set(err) ? err->sqlstate : "HY000", err->native,
                 strdup(gc_error_is_set(err) ? err->message : "unknown error"), row, column);
}

void gc_diag_add_error(gc_diag *d, const gc_error *err)
{
    gc_diag_add_error_at(d, err, SQL_NO_ROW_NUMBER, SQL_NO_COLUMN_NUMBER);
}

void gc_diag_add_server_error(gc_diag *d, const PGresult *res, const char *context, SQLLEN row)
{
    if (res == NULL) {
        diag_push_at(d, "HY001", 0, strdup("out of memory"), row, SQL_NO_COLUMN_NUMBER);
        return;
    }
    const char *sqlstate = PQresultErrorField(res, PG_DIAG_SQLSTATE);
    gc_strbuf sb;
    gc_strbuf_init(&sb);
    if (sqlstate == NULL) {
        /* libpq's own error: the connection broke (see gc_member). */
        const char *msg = PQresultErrorMessage(res);
        size_t len = strlen(msg);
        while (len > 0 && msg[len - 1] == '\n')
            len--;
        if (len > 0)
            gc_strbuf_append(&sb, msg, len);
        else
            gc_strbuf_append_str(&sb, "communication link failure: the connection to the "
                                      "server was lost");
        diag_push_at(d, "08S01", 0, gc_strbuf_take(&sb), row, SQL_NO_COLUMN_NUMBER);
        return;
    }
    const char *severity = PQresultErrorField(res, PG_DIAG_SEVERITY);
    const char *primary = PQresultErrorField(res, PG_DIAG_MESSAGE_PRIMARY);
    const char *detail = PQresultErrorField(res, PG_DIAG_MESSAGE_DETAIL);
    const char *hint = PQresultErrorField(res, PG_DIAG_MESSAGE_HINT);
    SQLINTEGER native = context != NULL ? GC_NATIVE_STATEMENT_ERROR : GC_NATIVE_SERVER_ERROR;
    if (gc_error_severity_ends_session(PQresultErrorField(res, PG_DIAG_SEVERITY_NONLOCALIZED))) {
        context = GC_CONNECTION_LOST_TEXT;
        native = GC_NATIVE_CONNECTION_LOST;
    }
    gc_strbuf_appendf(&sb, "%s: %s", severity != NULL ? severity : "ERROR",
                      primary != NULL ? primary : "(no message)");
    if (detail != NULL)
        gc_strbuf_appendf(&sb, "\nDETAIL: %s", detail);
    if (context != NULL)
        gc_strbuf_appendf(&sb, ";\n%s", context);
    diag_push_at(d, sqlstate, native, gc_strbuf_take(&sb), row, SQL_NO_COLUMN_NUMBER);
    if (hint != NULL) {
        /* psqlODBC drops the hint; it stays reachable as the next record. */
        gc_strbuf_init(&sb);
        gc_strbuf_appendf(&sb, "HINT: %s", hint);
        diag_push_at(d, sqlstate, native, gc_strbuf_take(&sb), row, SQL_NO_COLUMN_NUMBER);
    }
}

void gc_diag_end_statement_call(gc_diag *d, const char *context)
{
    for (int i = 0; i < d->count; i++) {
        gc_diag_record *r = &d->records[i];
        if (r->native != GC_NATIVE_SERVER_ERROR)
            continue;
        gc_strbuf sb;
        gc_strbuf_init(&sb);
        gc_strbuf_appendf(&sb, "%s;\n%s", r->message, context);
        char *worded = gc_strbuf_take(&sb);
        if (worded == NULL)
            continue;    /* out of memory: the record keeps its words */
        free(r->message);
        r->message = worded;
        r->native = GC_NATIVE_STATEMENT_ERROR;
    }
}

void gc_diag_add_result(gc_diag *d, const PGresult *res)
{
    gc_diag_add_server_error(d, res, NULL, SQL_NO_ROW_NUMBER);
}

void gc_diag_move_at(gc_diag *to, gc_diag *from, SQLLEN row)
{
    gc_diag_join_notices(from);    /* while the order they came in is known */
    for (int i = 0; i < from->count; i++) {
        gc_diag_record *r = &from->records[i];
        diag_push_at(to, r->sqlstate, r->native, r->message,
                     r->row_number == SQL_NO_ROW_NUMBER ? row : r->row_number,
                     r->column_number);
        r->message = NULL;    /* owned by `to` now (or freed when lost) */
    }
    from->count = 0;
}

void gc_diag_set_aside(gc_diag *d, gc_diag *kept)
{
    *kept = *d;
    gc_diag_init(d);
}

bool gc_diag_take_back(gc_diag *d, gc_diag *kept, gc_diag *to, SQLLEN row)
{
    gc_diag added = *d;
    *d = *kept;
    bool any = gc_diag_has_records(&added);
    if (to != NULL)
        gc_diag_move_at(to, &added, row);
    gc_diag_free(&added);
    return any;
}

/* Whether a notice of this severity reports no error (libpq hands over the
 * FATAL of a terminated session as a notice too). */
static bool severity_informs(const char *severity)
{
    static const char *const informing[] = { "NOTICE", "WARNING", "INFO", "LOG", "DEBUG" };
    for (size_t i = 0; severity != NULL && i < sizeof informing / sizeof informing[0]; i++)
        if (strcmp(severity, informing[i]) == 0)
            return true;
    return false;
}

/* A server notice keeps the server's own SQLSTATE (00000 for RAISE NOTICE,
 * 01P01 for a deprecation warning, 42P07 for CREATE TABLE IF NOT EXISTS of
 * a table that exists), its wording and native error -1 as psqlODBC gives
 * them: programs moving from it (and pyodbc's messages) compare them word
 * for word. It ranks as a warning (rank_of), never before the call's own
 * error. A notice without a code, or an error's that is no notice (a FATAL
 * handed over as one), is 01000. */
void gc_diag_add_notice(gc_diag *d, const char *sqlstate, const char *severity, const char *message)
{
    gc_strbuf sb;
    gc_strbuf_init(&sb);
    gc_strbuf_appendf(&sb, "%s: %s", severity != NULL ? severity : "NOTICE",
                      message != NULL ? message : "");
    bool informational = sqlstate != NULL && strlen(sqlstate) == 5 &&
                         (strncmp(sqlstate, "00", 2) == 0 || strncmp(sqlstate, "01", 2) == 0 ||
                          severity_informs(severity));
    diag_push(d, informational ? sqlstate : "01000", GC_NATIVE_NOTICE, gc_strbuf_take(&sb));
}

/* Whether r is a notice about `row` that join_notices_of_row has not taken. */
static bool is_notice_of_row(const gc_diag_record *r, SQLLEN row)
{
    return r->native == GC_NATIVE_NOTICE && r->row_number == row && r->message != NULL;
}

/* Joins the texts of the notices about `row`, in the order they came in,
 * into one record under the last one's SQLSTATE, filed where that SQLSTATE
 * puts it. */
static void join_notices_of_row(gc_diag *d, SQLLEN row)
{
    gc_strbuf sb;
    gc_strbuf_init(&sb);
    char sqlstate[6] = "";
    for (bool first = true;; first = false) {
        gc_diag_record *next = NULL;
        for (int i = 0; i < d->count; i++) {
            gc_diag_record *r = &d->records[i];
            if (is_notice_of_row(r, row) && (next == NULL || r->arrival < next->arrival))
                next = r;
        }
        if (next == NULL)
            break;
        gc_strbuf_appendf(&sb, "%s%s", first ? "" : ";", next->message);
        memcpy(sqlstate, next->sqlstate, sizeof sqlstate);
        free(next->message);
        next->message = NULL;    /* taken */
    }
    int kept = 0;
    for (int i = 0; i < d->count; i++) {
        if (d->records[i].native != GC_NATIVE_NOTICE || d->records[i].row_number != row)
            d->records[kept++] = d->records[i];
    }
    d->count = kept;
    diag_push_at(d, sqlstate, GC_NATIVE_NOTICE, gc_strbuf_take(&sb), row, SQL_NO_COLUMN_NUMBER);
}

void gc_diag_join_notices(gc_diag *d)
{
    for (int i = 0; i < d->count; i++) {
        const gc_diag_record *r = &d->records[i];
        if (r->native != GC_NATIVE_NOTICE)
            continue;
        int same_row = 0;
        for (int j = i; j < d->count; j++)
            same_row += d->records[j].native == GC_NATIVE_NOTICE &&
                        d->records[j].row_number == r->row_number;
        if (same_row > 1) {
            join_notices_of_row(d, r->row_number);
            i = -1;    /* the records moved: look again from the start */
        }
    }
}

void gc_diag_drop_repeats(gc_diag *d, int from)
{
    assert(from >= 0 && from <= d->count);
    int kept = from;
    for (int i = from; i < d->count; i++) {
        const gc_diag_record *r = &d->records[i];
        bool repeat = false;
        for (int j = from; j < kept && !repeat; j++)
            repeat = strcmp(d->records[j].sqlstate, r->sqlstate) == 0 &&
                     d->records[j].native == r->native &&
                     strcmp(d->records[j].message, r->message) == 0;
        if (repeat)
            free(r->message);
        else
            d->records[kept++] = *r;
    }
    d->count = kept;
}

void gc_diag_drop_rows_after(gc_diag *d, SQLLEN row)
{
    int kept = 0;
    for (int i = 0; i < d->count; i++) {
        gc_diag_record *r = &d->records[i];
        if (r->row_number > row)
            free(r->message);
        else
            d->records[kept++] = *r;
    }
    d->count = kept;
}

bool gc_diag_has_records(const gc_diag *d)
{
    return d->count > 0;
}

bool gc_diag_has_sqlstate(const gc_diag *d, const char *sqlstate)
{
    for (int i = 0; i < d->count; i++)
        if (strcmp(d->records[i].sqlstate, sqlstate) == 0)
            return true;
    return false;
}

/* ODBC: the class is "ISO 9075" unless it is IM (ODBC's own class). */
const char *gc_diag_class_origin(const char *sqlstate)
{
    return strncmp(sqlstate, "IM", 2) == 0 ? "ODBC 3.0" : "ISO 9075";
}

/* The subclasses ODBC 3.0 defined itself (its SQLGetDiagField reference). */
const char *gc_diag_subclass_origin(const char *sqlstate)
{
    static const char *const odbc_states[] = {
        "01S00", "01S01", "01S02", "01S06", "01S07", "07S01", "08S01",
        "21S01", "21S02", "25S01", "25S02", "25S03", "42S01", "42S02",
        "42S11", "42S12", "42S21", "42S22", "HY095", "HY097", "HY098",
        "HY099", "HY100", "HY101", "HY105", "HY107", "HY109", "HY110",
        "HY111", "HYT00", "HYT01", "IM001", "IM002", "IM003", "IM004",
        "IM005", "IM006", "IM007", "IM008", "IM010", "IM011", "IM012",
    };
    for (size_t i = 0; i < sizeof odbc_states / sizeof odbc_states[0]; i++) {
        if (strcmp(sqlstate, odbc_states[i]) == 0)
            return "ODBC 3.0";
    }
    return "ISO 9075";
}
