/*
 * gc_catalog_typemap: the ODBC view of PostgreSQL types for catalog queries.
 * SQLColumns, SQLSpecialColumns and SQLProcedureColumns must describe a
 * column exactly as SQLDescribeCol does, so the values come from
 * gc_pgtype_describe and travel to the server as one text parameter (the
 * type map); only the decoding of type modifiers happens in SQL.
 */
#include <assert.h>
#include <stdint.h>
#include <string.h>

#include "core/gc_catalog_internal.h"
#include "util/gc_strbuf.h"

void gc_catalog_verbose_type(SQLSMALLINT sql_type, SQLSMALLINT *verbose,
                             SQLSMALLINT *sub)
{
    *verbose = sql_type;
    *sub = 0;
    switch (sql_type) {
    case SQL_TYPE_DATE: case SQL_DATE:
        *verbose = SQL_DATETIME; *sub = SQL_CODE_DATE; break;
    case SQL_TYPE_TIME: case SQL_TIME:
        *verbose = SQL_DATETIME; *sub = SQL_CODE_TIME; break;
    case SQL_TYPE_TIMESTAMP: case SQL_TIMESTAMP:
        *verbose = SQL_DATETIME; *sub = SQL_CODE_TIMESTAMP; break;
    default:
        if (sql_type >= SQL_INTERVAL_YEAR && sql_type <= SQL_INTERVAL_MINUTE_TO_SECOND) {
            *verbose = SQL_INTERVAL;
            *sub = (SQLSMALLINT)(sql_type - 100);
        }
        break;
    }
}

SQLSMALLINT gc_catalog_reported_type(const gc_pgtype_info *info, bool wide)
{
    return wide ? info->sql_wide_type : info->sql_type;
}

bool gc_catalog_has_decimal_digits(SQLSMALLINT sql_type)
{
    switch (sql_type) {
    case SQL_NUMERIC: case SQL_DECIMAL: case SQL_INTEGER: case SQL_SMALLINT:
    case SQL_TINYINT: case SQL_BIGINT: case SQL_BIT:
    case SQL_TYPE_TIME: case SQL_TYPE_TIMESTAMP: case SQL_TIME: case SQL_TIMESTAMP:
    case SQL_INTERVAL_SECOND: case SQL_INTERVAL_DAY_TO_SECOND:
    case SQL_INTERVAL_HOUR_TO_SECOND: case SQL_INTERVAL_MINUTE_TO_SECOND:
        return true;
    default:
        return false;
    }
}

/* A length as an ODBC INTEGER column value; "" (NULL) when unknown. */
static void append_length(gc_strbuf *sb, long long v)
{
    if (v < 0)
        return;
    if (v > INT32_MAX)
        v = INT32_MAX;
    gc_strbuf_appendf(sb, "%lld", v);
}

/* Bytes per character of varchar(n)/char(n) buffers, as gc_pgtype_describe
 * sizes them (measured on a sample modifier; 4, UTF-8's maximum, when the
 * description ignores the modifier). */
static int char_octet_factor(Oid oid)
{
    gc_pgtype_info info;
    gc_pgtype_describe(oid, 10 + 4, &info);
    if (info.column_size == 10 && info.octet_length >= 10)
        return (int)(info.octet_length / 10);
    return 4;
}

/* Bytes beyond the precision in numeric(p,s) buffers (sign and point). */
static int numeric_octet_extra(void)
{
    gc_pgtype_info info;
    gc_pgtype_describe(GC_OID_NUMERIC, ((10 << 16) | 2) + 4, &info);
    if (info.column_size == 10 && info.octet_length >= 10)
        return (int)(info.octet_length - 10);
    return 2;
}

/* One line of the type map: oid described by info (oid 0 = every type
 * the driver does not know, or with kind 'l' the lo type). */
static void append_info_line(gc_strbuf *sb, Oid oid, const gc_pgtype_info *info_in, char kind,
                             bool wide)
{
    gc_pgtype_info info = *info_in;
    SQLSMALLINT verbose, sub;
    SQLSMALLINT data_type = gc_catalog_reported_type(&info, wide);
    gc_catalog_verbose_type(data_type, &verbose, &sub);

    gc_strbuf_appendf(sb, "%u|%s|%d|", (unsigned)oid,
                      info.type_name != NULL ? info.type_name : "", data_type);
    append_length(sb, (long long)info.column_size);
    gc_strbuf_append_char(sb, '|');
    append_length(sb, (long long)info.octet_length);
    gc_strbuf_append_char(sb, '|');
    if (gc_catalog_has_decimal_digits(data_type))
        gc_strbuf_appendf(sb, "%d", info.decimal_digits);
    gc_strbuf_append_char(sb, '|');
    if (info.num_prec_radix != 0)
        gc_strbuf_appendf(sb, "%d", info.num_prec_radix);
    gc_strbuf_appendf(sb, "|%d|", verbose);
    if (sub != 0)
        gc_strbuf_appendf(sb, "%d", sub);
    gc_strbuf_append_char(sb, '|');
    if (kind != '\0')
        gc_strbuf_append_char(sb, kind);
    gc_strbuf_append_char(sb, '|');
    if (kind == 'c')
        gc_strbuf_appendf(sb, "%d", char_octet_factor(oid));
    gc_strbuf_append_char(sb, '|');
    if (kind == 'n')
        gc_strbuf_appendf(sb, "%d", numeric_octet_extra());
    gc_strbuf_append_char(sb, '|');
    if (kind == 'c') {
        /* varchar(n) and char(n) are VARCHAR and CHAR; without a length they
         * read as long text. */
        gc_pgtype_info declared;
        gc_pgtype_describe(oid, 10 + 4, &declared);
        gc_strbuf_appendf(sb, "%d", gc_catalog_reported_type(&declared, wide));
    }
}

/* The type map line of a type the driver knows by oid. */
static void append_type_line(gc_strbuf *sb, Oid oid, char kind, bool wide)
{
    gc_pgtype_info info;
    gc_pgtype_describe(oid, -1, &info);
    append_info_line(sb, oid, &info, kind, wide);
}

/* The type map text (see gc_catalog_internal.h). Caller frees; NULL on
 * out-of-memory. */
char *gc_catalog_typemap_text(bool wide)
{
    gc_strbuf sb;
    gc_strbuf_init(&sb);
    for (size_t i = 0; i < gc_catalog_type_count; i++) {
        append_type_line(&sb, gc_catalog_types[i].oid, gc_catalog_types[i].typmod_kind, wide);
        gc_strbuf_append_char(&sb, '\n');
    }
    /* money is described (SQL_FLOAT) but not offered by SQLGetTypeInfo,
     * whose SQL_FLOAT row would then name it for new float columns. */
    append_type_line(&sb, GC_OID_MONEY, '\0', wide);
    gc_strbuf_append_char(&sb, '\n');
    append_type_line(&sb, 0, 'b', wide);   /* unknown types read as long text */
    gc_strbuf_append_char(&sb, '\n');
    /* The lo extension's type, whose oid differs in each database: found by
     * name, as results find it (gc_lo.c), and described alike. */
    gc_pgtype_info lo;
    gc_pgtype_describe_large_object(&lo);
    append_info_line(&sb, 0, &lo, 'l', wide);
    return gc_strbuf_take(&sb);
}
