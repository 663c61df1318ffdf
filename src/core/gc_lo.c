/*
 * gc_lo: large object columns (see gc_lo.h). Everything runs as SQL through
 * gc_conn_exec on the connection's session, which first moves a streaming
 * statement's remaining rows into memory.
 */
#include "core/gc_lo.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/gc_strbuf.h"

/* lo_open's mode for reading (INV_READ in libpq-fs.h). */
#define LO_INV_READ 0x40000

void gc_lo_describe_columns(gc_stmt *s, const PGresult *res)
{
    gc_strbuf sql;
    gc_strbuf_init(&sql);
    bool ok = gc_strbuf_append_str(&sql,
        "select a.attrelid, a.attnum, t.oid from pg_catalog.pg_attribute a "
        "join pg_catalog.pg_type t on t.oid = a.atttypid "
        "where t.typname = 'lo' and (a.attrelid, a.attnum) in (");
    int candidates = 0;
    for (int i = 0; i < PQnfields(res); i++) {
        if (PQftype(res, i) != GC_OID_OID || PQftable(res, i) == InvalidOid ||
            PQftablecol(res, i) <= 0)
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
        tables[i] = PQftype(res, i) == GC_OID_OID ? PQftable(res, i) : InvalidOid;
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
            gc_result_apply_type_info(r);
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
    SQLSMALLINT c_type = gc_c_type_normalize(target->c_type);
    if (c_type == SQL_C_DEFAULT)
        c_type = SQL_C_BINARY;
    bool wide = c_type == SQL_C_WCHAR;
    if (is_null || (c_type != SQL_C_BINARY && c_type != SQL_C_CHAR && !wide))
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

    /* Bytes that fit this piece: binary as is, character as two hex digits
     * each (UTF-16 for WCHAR) plus the terminator. */
    size_t cap = target->buffer != NULL ? (size_t)target->buffer_length : 0;
    size_t per_byte = c_type == SQL_C_BINARY ? 1 : wide ? 4 : 2;
    size_t nul = c_type == SQL_C_BINARY ? 0 : wide ? 2 : 1;
    size_t want = cap > nul ? (cap - nul) / per_byte : 0;
    size_t offset = piece_offset != NULL ? *piece_offset : 0;
    if (want > 0x3FFFFFFF)
        want = 0x3FFFFFFF;   /* lo_get takes an int4 length */

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
    gc_fetch_target piece = *target;
    piece.c_type = c_type;
    SQLRETURN rc = gc_convert_value_to_c(GC_OID_BYTEA, PQgetvalue(res, 0, 0),
                                         (size_t)PQgetlength(res, 0, 0), false, &piece,
                                         NULL, err);
    size_t got = (size_t)(PQgetlength(res, 0, 0) - 2) / 2;
    PQclear(res);
    if (rc == SQL_ERROR)
        return rc;
    gc_error_clear(err);
    report_remaining(target, (SQLLEN)(remaining * (per_byte)));
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
