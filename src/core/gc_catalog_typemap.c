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

#include "convert/gc_pgtype_keys.h"
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

gc_type_view gc_catalog_type_view(const gc_conn *c)
{
    return (gc_type_view){ .wide = c->wide_app, .odbc2 = c->env->odbc_version == SQL_OV_ODBC2 };
}

SQLSMALLINT gc_catalog_viewed_type(SQLSMALLINT t, gc_type_view view)
{
    if (!view.odbc2)
        return t;
    switch (t) {
    case SQL_TYPE_DATE: return SQL_DATE;
    case SQL_TYPE_TIME: return SQL_TIME;
    case SQL_TYPE_TIMESTAMP: return SQL_TIMESTAMP;
    default: return t;
    }
}

SQLSMALLINT gc_catalog_reported_type(const gc_pgtype_info *info, gc_type_view view)
{
    return gc_catalog_viewed_type(view.wide ? info->sql_wide_type : info->sql_type, view);
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
static void append_info_line(gc_strbuf *sb, const gc_settings *settings, Oid oid,
                             const gc_pgtype_info *info_in, char kind, gc_type_view view)
{
    gc_pgtype_info info = *info_in;
    SQLSMALLINT verbose, sub;
    SQLSMALLINT data_type = gc_catalog_reported_type(&info, view);
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
        gc_strbuf_appendf(sb, "%d", gc_catalog_reported_type(&declared, view));
    }
    gc_strbuf_append_char(sb, '|');
    if (kind == 'c' && settings->max_varchar_size > 0) {
        /* Longer than MaxVarcharSize: long text (gc_pgtype_apply_keys). */
        int over = settings->max_varchar_size + 1;
        gc_pgtype_info longer;
        gc_pgtype_describe(oid, over + 4, &longer);
        gc_pgtype_apply_keys(settings, oid, over + 4, &longer);
        gc_strbuf_appendf(sb, "%d|%d", settings->max_varchar_size,
                          gc_catalog_reported_type(&longer, view));
    } else {
        gc_strbuf_append_char(sb, '|');
    }
}

/* Types results describe by their oid that SQLGetTypeInfo does not list
 * (they cannot be created as such, or read as text): without their own
 * line they would fall to the line of unknown types, and SQLColumns would
 * disagree with SQLDescribeCol about them. Character ones have kind 'b'. */
static const struct { Oid oid; char kind; } described_only_types[] = {
    { GC_OID_OID, '\0' }, { GC_OID_CHAR, 'b' }, { GC_OID_NAME, 'b' },
    { GC_OID_INTERVAL, 'b' }, { GC_OID_TIMETZ, 'b' },
    /* money is described (SQL_FLOAT) but not offered by SQLGetTypeInfo,
     * whose SQL_FLOAT row would then name it for new float columns. */
    { GC_OID_MONEY, '\0' },
};

/* The type map line of a type the driver knows by oid, described as a
 * result column without a modifier is under the connection's type mapping
 * keys (BoolsAsChar, TextAsLongVarchar, MaxVarcharSize, BI, ...). */
static void append_type_line(gc_strbuf *sb, const gc_settings *settings, Oid oid, char kind,
                             gc_type_view view)
{
    gc_pgtype_info info;
    gc_pgtype_describe(oid, -1, &info);
    gc_pgtype_apply_keys(settings, oid, -1, &info);
    /* A key may make a fixed type character (BoolsAsChar, BI=12): its
     * CHAR_OCTET_LENGTH is then the buffer length, as for the others. */
    bool now_character = info.sql_type == SQL_CHAR || info.sql_type == SQL_VARCHAR
                         || info.sql_type == SQL_LONGVARCHAR;
    append_info_line(sb, settings, oid, &info, kind == '\0' && now_character ? 'b' : kind, view);
}

/* The type map text (see gc_catalog_internal.h). Caller frees; NULL on
 * out-of-memory. */
char *gc_catalog_typemap_text(const gc_settings *settings, gc_type_view view)
{
    assert(settings != NULL);
    gc_strbuf sb;
    gc_strbuf_init(&sb);
    for (size_t i = 0; i < gc_catalog_type_count; i++) {
        append_type_line(&sb, settings, gc_catalog_types[i].oid,
                         gc_catalog_types[i].typmod_kind, view);
        gc_strbuf_append_char(&sb, '\n');
    }
    for (size_t i = 0; i < sizeof described_only_types / sizeof described_only_types[0]; i++) {
        append_type_line(&sb, settings, described_only_types[i].oid,
                         described_only_types[i].kind, view);
        gc_strbuf_append_char(&sb, '\n');
    }
    /* unknown types read as long text (or as UnknownsAsLongVarchar says) */
    append_type_line(&sb, settings, 0, 'b', view);
    gc_strbuf_append_char(&sb, '\n');
    /* The lo extension's type, whose oid differs in each database: found by
     * name, as results find it (gc_lo.c), and described alike. */
    gc_pgtype_info lo;
    gc_pgtype_describe_large_object(&lo);
    append_info_line(&sb, settings, 0, &lo, 'l', view);
    return gc_strbuf_take(&sb);
}
