/*
 * gc_desc_attr: result column attributes from an IRD record.
 */
#include "core/gc_desc_attr.h"

#include <string.h>

/* Quote characters for literals of a SQL type ("" for numbers). */
static const char *literal_quote(SQLSMALLINT sql_type)
{
    switch (sql_type) {
    case SQL_CHAR: case SQL_VARCHAR: case SQL_LONGVARCHAR:
    case SQL_WCHAR: case SQL_WVARCHAR: case SQL_WLONGVARCHAR:
    case SQL_TYPE_DATE: case SQL_TYPE_TIME: case SQL_TYPE_TIMESTAMP:
    case SQL_BINARY: case SQL_VARBINARY: case SQL_LONGVARBINARY:
    case SQL_GUID:
        return "'";
    default:
        return "";
    }
}

static const char *or_empty(const char *s)
{
    return s != NULL ? s : "";
}

bool gc_desc_attr_names_origin(SQLUSMALLINT field)
{
    return field == SQL_DESC_BASE_COLUMN_NAME || field == SQL_DESC_TABLE_NAME ||
           field == SQL_DESC_BASE_TABLE_NAME || field == SQL_DESC_SCHEMA_NAME ||
           field == SQL_DESC_CATALOG_NAME;
}

int gc_desc_ird_attr(const gc_desc_rec *r, SQLUSMALLINT field, const char **str,
                     SQLLEN *num)
{
    const gc_pgtype_info *t = &r->info;
    const char *name = r->name ? r->name : "";
    switch (field) {
    /* Strings. */
    case SQL_DESC_NAME: case SQL_COLUMN_NAME: case SQL_DESC_LABEL:
        *str = name; return GC_DESC_ATTR_STRING;
    /* A table column's own names; an expression's label (psqlODBC's). */
    case SQL_DESC_BASE_COLUMN_NAME:
        *str = r->origin.column != NULL ? r->origin.column : name;
        return GC_DESC_ATTR_STRING;
    case SQL_DESC_TYPE_NAME: case SQL_DESC_LOCAL_TYPE_NAME:
        *str = t->type_name ? t->type_name : ""; return GC_DESC_ATTR_STRING;
    case SQL_DESC_TABLE_NAME: case SQL_DESC_BASE_TABLE_NAME:
        *str = or_empty(r->origin.table); return GC_DESC_ATTR_STRING;
    case SQL_DESC_SCHEMA_NAME: *str = or_empty(r->origin.schema); return GC_DESC_ATTR_STRING;
    case SQL_DESC_CATALOG_NAME: *str = or_empty(r->origin.catalog); return GC_DESC_ATTR_STRING;
    case SQL_DESC_LITERAL_PREFIX: case SQL_DESC_LITERAL_SUFFIX:
        *str = literal_quote(r->concise_type); return GC_DESC_ATTR_STRING;
    /* Numbers. */
    case SQL_DESC_COUNT: case SQL_COLUMN_COUNT:
        *num = 0; return 2;     /* filled by the caller, who knows the count */
    case SQL_DESC_CONCISE_TYPE: *num = r->concise_type; return 2;
    case SQL_DESC_TYPE: *num = r->type; return 2;
    case SQL_DESC_LENGTH: *num = (SQLLEN)r->length; return 8;
    /* ODBC 2's length is the bytes of the default C type; ODBC 3's octet
     * length is 0 where ODBC leaves it open (gc_pgtype_keys.h) */
    case SQL_COLUMN_LENGTH: *num = t->octet_length; return 8;
    case SQL_DESC_OCTET_LENGTH: *num = r->octet_length; return 8;
    case SQL_DESC_PRECISION: *num = r->precision; return 2;
    case SQL_COLUMN_PRECISION: *num = (SQLLEN)t->column_size; return 4;
    case SQL_DESC_SCALE: case SQL_COLUMN_SCALE: *num = r->scale; return 2;
    case SQL_DESC_DISPLAY_SIZE: *num = t->display_size; return 8;
    case SQL_DESC_NULLABLE: case SQL_COLUMN_NULLABLE: *num = r->nullable; return 2;
    case SQL_DESC_UNSIGNED: *num = t->is_unsigned ? SQL_TRUE : SQL_FALSE; return 2;
    case SQL_DESC_FIXED_PREC_SCALE: *num = t->fixed_prec_scale ? SQL_TRUE : SQL_FALSE; return 2;
    case SQL_DESC_UPDATABLE: *num = SQL_ATTR_READWRITE_UNKNOWN; return 2;
    case SQL_DESC_AUTO_UNIQUE_VALUE: *num = SQL_FALSE; return 4;
    case SQL_DESC_CASE_SENSITIVE: *num = t->case_sensitive ? SQL_TRUE : SQL_FALSE; return 4;
    case SQL_DESC_SEARCHABLE: *num = t->searchable; return 2;
    case SQL_DESC_NUM_PREC_RADIX: *num = t->num_prec_radix; return 4;
    case SQL_DESC_UNNAMED: *num = r->name && r->name[0] ? SQL_NAMED : SQL_UNNAMED; return 2;
    case SQL_DESC_DATETIME_INTERVAL_CODE: *num = r->datetime_interval_code; return 2;
    case SQL_DESC_DATETIME_INTERVAL_PRECISION: *num = 0; return 4;
    case SQL_DESC_ROWVER: *num = SQL_FALSE; return 2;
    default:
        return 0;
    }
}
