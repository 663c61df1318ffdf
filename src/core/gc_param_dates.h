/*
 * gc_param_dates: psqlODBC's "convert empty date parameters to NULL" (bit
 * 0x8 of its extra options mask, the AB key). Programs written for Access
 * and psqlODBC bind an empty string for "no date"; the server refuses ''
 * as a date, so with the bit set such a parameter goes as NULL.
 */
#ifndef GC_PARAM_DATES_H
#define GC_PARAM_DATES_H

#include "convert/gc_convert.h"
#include "core/gc_stmt.h"

/* Before row `row` of s's parameters is sent (pv converted): when the
 * connection's AB mask has 0x8, each parameter bound as character data
 * (SQL_C_CHAR, SQL_C_WCHAR) whose value is empty and whose type the server
 * infers as date, timestamp or timestamptz becomes NULL. The types are
 * learnt once per statement text by describing it (gc_lo_describe_params);
 * nothing is asked when no parameter is an empty string. */
void gc_param_null_empty_dates(gc_stmt *s, SQLULEN row, gc_param_value *pv);

#endif
