/*
 * gc_desc_attr: the read-only attributes of a result column (an IRD record),
 * as SQLColAttribute and SQLGetDescField on the IRD report them.
 */
#ifndef GC_DESC_ATTR_H
#define GC_DESC_ATTR_H

#include <stdbool.h>

#include "core/gc_desc_rec.h"

#define GC_DESC_ATTR_STRING (-1)

/* Looks up `field` (SQL_DESC_* or an ODBC 2 SQL_COLUMN_* code) of r.
 * Returns GC_DESC_ATTR_STRING with *str set (static or owned by r), the
 * field's size in bytes (2, 4 or 8) with *num set, or 0 when unknown. */
int gc_desc_ird_attr(const gc_desc_rec *r, SQLUSMALLINT field, const char **str,
                     SQLLEN *num);

/* Whether `field` names where the column comes from (table, schema,
 * catalog, base column: looked up when first asked, gc_table_columns.c). The
 * ODBC 2 codes SQL_COLUMN_TABLE_NAME, _OWNER_NAME and _QUALIFIER_NAME are
 * the same numbers. */
bool gc_desc_attr_names_origin(SQLUSMALLINT field);

#endif
