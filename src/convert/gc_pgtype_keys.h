/*
 * gc_pgtype_keys: psqlODBC's type mapping keys (BoolsAsChar,
 * TextAsLongVarchar, UnknownsAsLongVarchar, MaxVarcharSize,
 * MaxLongVarcharSize, UnknownSizes, ByteaAsLongVarBinary, BI) applied on top
 * of gc_pgtype_describe, for SQLDescribeCol / SQLColAttribute and
 * SQLGetTypeInfo. With every key at its default nothing changes.
 */
#ifndef GC_PGTYPE_KEYS_H
#define GC_PGTYPE_KEYS_H

#include "config/gc_settings.h"
#include "convert/gc_pgtype.h"

/* Adjusts *info, which gc_pgtype_describe(oid, typmod) filled, as the
 * connection's settings s say. */
void gc_pgtype_apply_keys(const gc_settings *s, Oid oid, int typmod, gc_pgtype_info *info);

/* Sets info->desc_octet_length, a result column's SQL_DESC_OCTET_LENGTH, with
 * psqlODBC's values where ODBC leaves them open: the most bytes a value takes
 * for character and binary columns, 0 for numbers, booleans, dates, times,
 * uuids and intervals (ODBC defines the field for character and binary data
 * only). A character column of at most MaxVarcharSize characters whose UTF-8
 * bytes could exceed MaxVarcharSize gets MaxVarcharSize, as psqlODBC caps it.
 * gc_pgtype_apply_keys and gc_pgtype_size_to_longest call it. */
void gc_pgtype_set_desc_octet_length(const gc_settings *s, Oid oid, gc_pgtype_info *info);

/* UnknownSizes=2 (psqlODBC's "longest") once a result's rows are all in:
 * re-describes a character column whose length the server does not give as
 * long as its longest value, `longest` characters: SQL_VARCHAR up to
 * MaxVarcharSize (255 when 0), SQL_LONGVARCHAR beyond. A column whose values
 * are all empty or NULL (longest 0) keeps the maximum. */
void gc_pgtype_size_to_longest(const gc_settings *s, SQLULEN longest, gc_pgtype_info *info);

#endif
