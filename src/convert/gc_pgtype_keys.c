/*
 * gc_pgtype_keys: the type mapping keys; what each one means is in
 * docs/connection-keys.md (the key table's rows).
 */
#include "convert/gc_pgtype_keys.h"

#include <stdlib.h>
#include <string.h>

/* psqlODBC's width of a boolean read as text. */
#define BOOL_AS_CHAR_SIZE 5
/* The VARCHAR size when MaxVarcharSize is 0 (no limit) but a size is needed:
 * psqlODBC's default. */
#define DEFAULT_VARCHAR_SIZE 255

/* Re-describes *info as a character type of `size` characters. */
static void as_text(gc_pgtype_info *info, bool is_long, SQLULEN size)
{
    info->sql_type = is_long ? SQL_LONGVARCHAR : SQL_VARCHAR;
    info->sql_wide_type = is_long ? SQL_WLONGVARCHAR : SQL_WVARCHAR;
    info->column_size = size;
    info->display_size = (SQLLEN)size;
    info->octet_length = (SQLLEN)size * 4;   /* UTF-8 */
    info->decimal_digits = 0;
    info->num_prec_radix = 0;
    info->is_unsigned = true;
    info->case_sensitive = true;
    info->searchable = SQL_PRED_SEARCHABLE;
    info->default_c_type = SQL_C_CHAR;
}

/* The most characters a column of unknown length is described with:
 * MaxLongVarcharSize for a long type, MaxVarcharSize (or 255) otherwise. */
static SQLULEN unknown_size(const gc_settings *s, bool is_long)
{
    if (is_long)
        return (SQLULEN)s->max_longvarchar_size;
    return (SQLULEN)(s->max_varchar_size > 0 ? s->max_varchar_size : DEFAULT_VARCHAR_SIZE);
}

/* Re-describes *info as a character column whose length the server does not
 * give: the maximum size, or, with UnknownSizes=1, column size 0 ("unknown")
 * while the display size and octet length keep the maximum, so that an
 * application still learns how large a buffer the values may need (as
 * psqlODBC does). */
static void as_text_of_unknown_length(const gc_settings *s, gc_pgtype_info *info, bool is_long)
{
    as_text(info, is_long, unknown_size(s, is_long));
    info->length_unknown = true;
    if (s->unknown_sizes == 1)
        info->column_size = 0;
}

/* int8 described as the SQL type psqlODBC's BI names. */
static void int8_as(const char *code, gc_pgtype_info *info)
{
    switch (code != NULL ? atoi(code) : 0) {
    case SQL_NUMERIC:
    case SQL_DECIMAL:
        info->sql_type = info->sql_wide_type = (SQLSMALLINT)atoi(code);
        info->column_size = 19;
        info->display_size = info->octet_length = 20;
        info->default_c_type = SQL_C_CHAR;
        break;
    case SQL_INTEGER:
        info->sql_type = info->sql_wide_type = SQL_INTEGER;
        info->column_size = 10;
        info->display_size = 11;
        info->octet_length = 4;
        info->default_c_type = SQL_C_SLONG;
        break;
    case SQL_DOUBLE:
        info->sql_type = info->sql_wide_type = SQL_DOUBLE;
        info->column_size = 15;
        info->display_size = 24;
        info->octet_length = 8;
        info->default_c_type = SQL_C_DOUBLE;
        break;
    case SQL_VARCHAR:
        as_text(info, false, 20);
        break;
    default:
        break;   /* 0 and -5: SQL_BIGINT as described */
    }
}

/* The SQL_DESC_OCTET_LENGTH of a character column: 4 bytes a character
 * (UTF-8), or MaxVarcharSize when the column holds at most that many
 * characters but its bytes could exceed it (psqlODBC's cap). */
static SQLLEN char_octet_length(const gc_settings *s, const gc_pgtype_info *info)
{
    SQLLEN bytes = info->octet_length;   /* 4 a character, set by as_text */
    SQLLEN cap = s->max_varchar_size;
    if (cap > 0 && bytes / 4 <= cap && bytes > cap)
        return cap;
    return bytes;
}

void gc_pgtype_set_desc_octet_length(const gc_settings *s, Oid oid, gc_pgtype_info *info)
{
    switch (info->sql_type) {
    case SQL_CHAR: case SQL_VARCHAR: case SQL_LONGVARCHAR:
        /* an interval and a boolean read as text stay what they are */
        info->desc_octet_length = oid == GC_OID_INTERVAL || oid == GC_OID_BOOL
                                      ? 0 : char_octet_length(s, info);
        break;
    case SQL_BINARY: case SQL_VARBINARY: case SQL_LONGVARBINARY:
        info->desc_octet_length = info->octet_length;
        break;
    default:
        info->desc_octet_length = 0;
        break;
    }
}

void gc_pgtype_apply_keys(const gc_settings *s, Oid oid, int typmod, gc_pgtype_info *info)
{
    bool has_length = typmod >= 4;
    switch (oid) {
    case GC_OID_BOOL:
        if (s->bools_as_char)
            as_text(info, false, BOOL_AS_CHAR_SIZE);
        break;
    case GC_OID_INT8:
        int8_as(s->int8_as, info);
        break;
    case GC_OID_TEXT:
        as_text_of_unknown_length(s, info, s->text_as_longvarchar);
        break;
    case GC_OID_VARCHAR:
    case GC_OID_BPCHAR:
        if (has_length) {
            /* psqlODBC: longer than MaxVarcharSize reads as long text. */
            SQLULEN n = (SQLULEN)(typmod - 4);
            if (s->max_varchar_size > 0 && n > (SQLULEN)s->max_varchar_size)
                as_text(info, true, n);
        } else {
            as_text_of_unknown_length(s, info, s->max_varchar_size == 0);
        }
        break;
    case GC_OID_BYTEA:
        if (!s->bytea_as_longvarbinary) {
            info->sql_type = info->sql_wide_type = SQL_VARBINARY;
            info->column_size = unknown_size(s, false);
        } else {
            info->column_size = unknown_size(s, true);
        }
        info->octet_length = (SQLLEN)info->column_size;
        info->display_size = 2 * (SQLLEN)info->column_size;
        if (s->unknown_sizes == 1)
            info->column_size = 0;   /* as for text, the buffer bound stays */
        break;
    default:
        if (strcmp(info->type_name, "unknown") == 0)
            as_text_of_unknown_length(s, info, s->unknowns_as_longvarchar);
        break;
    }
    gc_pgtype_set_desc_octet_length(s, oid, info);
}

void gc_pgtype_size_to_longest(const gc_settings *s, SQLULEN longest, gc_pgtype_info *info)
{
    if (s->unknown_sizes != 2 || !info->length_unknown || longest == 0)
        return;
    SQLULEN longest_varchar = (SQLULEN)(s->max_varchar_size > 0 ? s->max_varchar_size
                                                                : DEFAULT_VARCHAR_SIZE);
    as_text(info, longest > longest_varchar, longest);
    info->desc_octet_length = char_octet_length(s, info);
}
