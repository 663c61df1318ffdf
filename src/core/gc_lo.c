/*
 * gc_lo: large object columns (see gc_lo.h). Everything runs as SQL through
 * gc_conn_exec on the connection's session, which first moves a streaming
 * statement's remaining rows into memory.
 */
#include "core/gc_lo.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/gc_desc.h"
#include "util/gc_strbuf.h"

/* lo_open's mode for reading (INV_READ in libpq-fs.h). */
#define LO_INV_READ 0x40000

/* PostgreSQL's FirstNormalObjectId: objects below it are built in. */
#define FIRST_USER_OID 16384

/* Column i is an oid from a user table's column (system catalogs hold no
 * lo columns: their oids cost nothing). */
static bool may_be_lo(const PGresult *res, int i)
{
    return PQftype(res, i) == GC_OID_OID && PQftable(res, i) >= FIRST_USER_OID &&
           PQftablecol(res, i) > 0;
}

static bool any_may_be_lo(const PGresult *res)
{
    for (int i = 0; i < PQnfields(res); i++)
        if (may_be_lo(res, i))
            return true;
    return false;
}

void gc_lo_describe_columns(gc_stmt *s, const PGresult *res)
{
    /* Most results have no oid column of a user table: nothing to ask,
     * and no query text built for every statement. */
    if (!any_may_be_lo(res))
        return;
    gc_strbuf sql;
    gc_strbuf_init(&sql);
    bool ok = gc_strbuf_append_str(&sql,
        "select a.attrelid, a.attnum, t.oid from pg_catalog.pg_attribute a "
        "join pg_catalog.pg_type t on t.oid = a.atttypid "
        "where t.typname = 'lo' and (a.attrelid, a.attnum) in (");
    int candidates = 0;
    for (int i = 0; i < PQnfields(res); i++) {
        if (!may_be_lo(res, i))
            continue;
        ok = ok && gc_strbuf_appendf(&sql, "%s(%u, %d)", candidates > 0 ? ", " : "",
                                     (unsigned)PQftable(res, i), PQftablecol(res, i));
        candidates++;
    }
    ok = ok && gc_strbuf_append_str(&sql, ")");
    if (candidates == 0 || !ok) {
        gc_strbuf_free(&sql);
        return;
    }
    /* res stays valid: s->block may be copied into memory, but the
     * column numbers below are all this needs from res. */
    int ncols = PQnfields(res);
    Oid *tables = malloc((size_t)ncols * sizeof *tables);
    int *columns = malloc((size_t)ncols * sizeof *columns);
    if (tables == NULL || columns == NULL) {
        free(tables);
        free(columns);
        gc_strbuf_free(&sql);
        return;
    }
    for (int i = 0; i < ncols; i++) {
        tables[i] = may_be_lo(res, i) ? PQftable(res, i) : InvalidOid;
        columns[i] = PQftablecol(res, i);
    }
    gc_error err;
    gc_error_clear(&err);
    PGresult *found = gc_conn_exec(s->conn, sql.data, &err);
    gc_strbuf_free(&sql);
    for (int row = 0; found != NULL && row < PQntuples(found); row++) {
        Oid table = (Oid)strtoul(PQgetvalue(found, row, 0), NULL, 10);
        int column = atoi(PQgetvalue(found, row, 1));
        Oid lo_type = (Oid)strtoul(PQgetvalue(found, row, 2), NULL, 10);
        for (int i = 0; i < ncols && i < s->ird->count; i++) {
            if (tables[i] != table || columns[i] != column)
                continue;
            gc_desc_rec *r = &s->ird->recs[i];
            r->pg_type = lo_type;
            gc_pgtype_describe_large_object(&r->info);
            gc_result_apply_type_info(r, s->conn->wide_app);
            s->ird_as_described = false;    /* described again next time */
        }
    }
    PQclear(found);
    free(tables);
    free(columns);
}

/* Reports the length of what remains, as gc_convert does: to the length
 * buffer, else to the indicator. */
static void report_remaining(const gc_fetch_target *t, SQLLEN n)
{
    if (t->length != NULL)
        *t->length = n;
    else if (t->indicator != NULL)
        *t->indicator = n;
}

SQLRETURN gc_lo_read(gc_stmt *s, const char *oid_text, bool is_null,
                     const gc_fetch_target *target, size_t *piece_offset, gc_error *err)
{
    gc_error_clear(err);
    SQLSMALLINT c_type = target->c_type == SQL_C_DEFAULT ? SQL_C_BINARY : target->c_type;
    if (is_null || c_type != SQL_C_BINARY)
        return gc_convert_value_to_c(GC_OID_OID, oid_text, is_null ? 0 : strlen(oid_text),
                                     is_null, target, piece_offset, err);
    if (piece_offset != NULL && *piece_offset == GC_PIECE_DONE)
        return SQL_NO_DATA;
    char *end;
    unsigned long oid = strtoul(oid_text, &end, 10);
    if (*end != '\0' || oid == 0 || oid > 0xFFFFFFFFul) {
        gc_error_set(err, "22018", 0, "Invalid large object oid '%s'", oid_text);
        return SQL_ERROR;
    }
    if (target->buffer_length < 0) {
        gc_error_set(err, "HY090", 0, "Invalid string or buffer length");
        return SQL_ERROR;
    }
    size_t want = target->buffer != NULL ? (size_t)target->buffer_length : 0;
    if (want > 0x3FFFFFFF)
        want = 0x3FFFFFFF;   /* lo_get takes an int4 length */
    size_t offset = piece_offset != NULL ? *piece_offset : 0;

    char sql[256];
    snprintf(sql, sizeof sql,
             "select lo_get(%lu, %zu, %zu), lo_lseek64(fd, 0, 2), lo_close(fd) "
             "from (select lo_open(%lu, %d) as fd) as opened",
             oid, offset, want, oid, LO_INV_READ);
    PGresult *res = gc_conn_exec(s->conn, sql, err);
    if (res == NULL)
        return SQL_ERROR;
    if (PQntuples(res) != 1 || PQnfields(res) != 3) {
        PQclear(res);
        gc_error_set(err, "HY000", 0, "Large object %lu: unexpected answer", oid);
        return SQL_ERROR;
    }
    size_t size = (size_t)strtoull(PQgetvalue(res, 0, 1), NULL, 10);
    size_t remaining = size > offset ? size - offset : 0;

    /* The piece is bytea text ('\x...'): gc_convert writes it (it fits). */
    SQLRETURN rc = gc_convert_value_to_c(GC_OID_BYTEA, PQgetvalue(res, 0, 0),
                                         (size_t)PQgetlength(res, 0, 0), false, target,
                                         NULL, err);
    size_t got = (size_t)(PQgetlength(res, 0, 0) - 2) / 2;
    PQclear(res);
    if (rc == SQL_ERROR)
        return rc;
    gc_error_clear(err);
    report_remaining(target, (SQLLEN)remaining);
    if (got >= remaining) {
        if (piece_offset != NULL)
            *piece_offset = GC_PIECE_DONE;
        return SQL_SUCCESS;
    }
    if (piece_offset != NULL)
        *piece_offset = offset + got;
    gc_error_set(err, "01004", 0, "String data, right truncated");
    return SQL_SUCCESS_WITH_INFO;
}

/* Whether parameter i of the row is binary data sent as a binary SQL type
 * (psqlODBC only looks at SQL_LONGVARBINARY; pyodbc binds bytes as
 * SQL_VARBINARY, so all three count). */
static bool is_binary_param(const gc_stmt *s, SQLULEN row, int i, const gc_param_value *pv)
{
    /* The converted value first: locating the bound one costs more, and
     * most values are not binary. */
    if (pv[i].data == NULL || pv[i].format != 1)
        return false;
    gc_param_ref ref;
    gc_param_locate(s, i, row, &ref);
    bool binary_type = ref.sql_type == SQL_LONGVARBINARY || ref.sql_type == SQL_VARBINARY ||
                       ref.sql_type == SQL_BINARY;
    return binary_type;
}

/* Collects the results of what was sent on m; false when one is an error. */
static bool collect_ok(gc_session *m)
{
    bool ok = true;
    PGresult *r;
    while ((r = gc_session_next_result(m)) != NULL) {
        ok = ok && PQresultStatus(r) != PGRES_FATAL_ERROR && PQresultStatus(r) != PGRES_BAD_RESPONSE;
        PQclear(r);
    }
    return ok;
}

/* Runs an internal statement on m, ignoring its result. */
static bool run_quietly(gc_session *m, const char *sql)
{
    gc_error err;
    gc_error_clear(&err);
    PGresult *r = gc_session_exec(m, sql, &err);
    PQclear(r);
    return r != NULL;
}

/* See gc_lo.h. */
void gc_lo_describe_params(gc_stmt *s, SQLULEN row, const gc_param_value *pv)
{
    int n = s->nparams;
    Oid *types = calloc((size_t)n, sizeof *types);
    Oid *inferred = calloc((size_t)n, sizeof *inferred);
    gc_session *m = s->conn->session;
    /* In a failed transaction nothing can be described; ask again later. */
    if (types == NULL || inferred == NULL || m == NULL || !gc_session_is_open(m) ||
        gc_session_txn_status(m) == PQTRANS_INERROR) {
        free(types);
        free(inferred);
        return;
    }
    for (int i = 0; i < n; i++)
        types[i] = is_binary_param(s, row, i, pv) ? 0 : pv[i].type_oid;
    bool in_transaction =
        gc_session_idle_txn_status(&s->conn->session_owner, m) == PQTRANS_INTRANS;
    bool guarded = !in_transaction || run_quietly(m, "savepoint gc_lo_describe");
    gc_error err;
    gc_error_clear(&err);
    bool ok = guarded && gc_session_send_prepare(m, "", s->sql, n, types, &err) && collect_ok(m) &&
              gc_session_send_describe_prepared(m, "", &err);
    if (ok) {
        PGresult *keep = NULL, *r;
        while ((r = gc_session_next_result(m)) != NULL) {
            if (keep == NULL && PQresultStatus(r) == PGRES_COMMAND_OK)
                keep = r;
            else
                PQclear(r);
        }
        for (int i = 0; keep != NULL && i < n && i < PQnparams(keep); i++)
            inferred[i] = PQparamtype(keep, i);
        PQclear(keep);
    }
    if (in_transaction && guarded)
        run_quietly(m, ok ? "release savepoint gc_lo_describe"
                          : "rollback to savepoint gc_lo_describe; release savepoint gc_lo_describe");
    free(types);
    free(s->described_param_types);
    s->described_param_types = inferred;
    s->described_nparams = n;
}

/* Whether type oid t is named lo. Built-in types never are, so they cost
 * no query. */
static bool is_lo_type(gc_stmt *s, Oid t)
{
    if (t < FIRST_USER_OID)
        return false;
    char sql[96];
    snprintf(sql, sizeof sql, "select 1 from pg_catalog.pg_type where oid = %u and typname = 'lo'",
             (unsigned)t);
    gc_error err;
    gc_error_clear(&err);
    PGresult *r = gc_conn_exec(s->conn, sql, &err);
    bool yes = r != NULL && PQntuples(r) == 1;
    PQclear(r);
    return yes;
}

/* Makes a large object of the bytes of *p (in the connection's
 * transaction; the bytes travel as a binary bytea parameter) and makes *p
 * its oid, declared as type lo_type. */
static SQLRETURN make_large_object(gc_stmt *s, gc_param_value *p, Oid lo_type, gc_error *err)
{
    if (!gc_conn_begin_if_needed(s->conn, err))
        return SQL_ERROR;
    gc_session *m = s->conn->session;
    static const Oid bytea_type[1] = { GC_OID_BYTEA };
    static const int binary[1] = { 1 };
    const char *values[1] = { p->data };
    int lengths[1] = { p->length };
    if (!gc_session_send_query_params(m, "select lo_from_bytea(0, $1)", 1, bytea_type, values,
                                      lengths, binary, err))
        return SQL_ERROR;
    PGresult *made = NULL, *r;
    while ((r = gc_session_next_result(m)) != NULL) {
        if (made == NULL)
            made = r;
        else
            PQclear(r);
    }
    if (made == NULL || PQresultStatus(made) != PGRES_TUPLES_OK || PQntuples(made) != 1) {
        if (made != NULL)
            gc_session_result_error(m, made, err);
        else
            gc_error_set(err, "08S01", 0, "no answer to lo_from_bytea");
        PQclear(made);
        return SQL_ERROR;
    }
    char *oid = strdup(PQgetvalue(made, 0, 0));
    PQclear(made);
    if (oid == NULL) {
        gc_error_set(err, "HY001", 0, "Memory allocation error");
        return SQL_ERROR;
    }
    gc_param_value_free(p);
    p->data = oid;
    p->length = (int)strlen(oid);
    p->format = 0;
    p->type_oid = lo_type;
    return SQL_SUCCESS;
}

/* Whether the database has a type named lo at all, asked once per
 * connection and again after the connection ran DDL: a database without
 * one (most) costs binary parameters no describe round trip. */
static bool database_has_lo_type(gc_stmt *s)
{
    gc_conn *c = s->conn;
    if (c->lo_type_presence == 0 || c->lo_type_epoch != c->ddl_epoch) {
        gc_error err;
        gc_error_clear(&err);
        PGresult *r = gc_conn_exec(c, "select 1 from pg_catalog.pg_type where typname = 'lo' "
                                      "limit 1", &err);
        if (r == NULL)
            return true;    /* cannot tell: the describe decides */
        c->lo_type_presence = PQntuples(r) > 0 ? 2 : 1;
        c->lo_type_epoch = c->ddl_epoch;
        PQclear(r);
    }
    return c->lo_type_presence == 2;
}

bool gc_lo_params_possible(gc_stmt *s)
{
    for (int i = 0; i < s->nparams; i++) {
        gc_param_ref ref;
        gc_param_locate(s, i, 0, &ref);
        if (ref.sql_type == SQL_LONGVARBINARY || ref.sql_type == SQL_VARBINARY ||
            ref.sql_type == SQL_BINARY)
            return database_has_lo_type(s);
    }
    return false;
}

SQLRETURN gc_lo_resolve_params(gc_stmt *s, SQLULEN row, gc_param_value *pv)
{
    int n = s->nparams;
    bool any = false;
    for (int i = 0; i < n && !any; i++)
        any = is_binary_param(s, row, i, pv);
    if (!any || s->simple_query || !database_has_lo_type(s))
        return SQL_SUCCESS;
    if (s->described_param_types == NULL || s->described_nparams != n)
        gc_lo_describe_params(s, row, pv);
    for (int i = 0; i < n && s->described_param_types != NULL; i++) {
        Oid target = s->described_param_types[i];
        if (!is_binary_param(s, row, i, pv) || !is_lo_type(s, target))
            continue;
        gc_error err;
        gc_error_clear(&err);
        if (make_large_object(s, &pv[i], target, &err) != SQL_SUCCESS) {
            gc_error about;
            gc_error_set(&about, err.sqlstate, err.native, "parameter %d: %s", i + 1, err.message);
            gc_diag_add_error_at(&s->h.diag, &about, (SQLLEN)row + 1, SQL_NO_COLUMN_NUMBER);
            return SQL_ERROR;
        }
    }
    return SQL_SUCCESS;
}
