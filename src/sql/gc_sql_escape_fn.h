/*
 * gc_sql_escape_fn: the ODBC scalar functions of {fn ...} escapes and their
 * PostgreSQL forms, as one table. The rewriter hands it a function name and
 * argument texts that are already rewritten; it appends the PostgreSQL text.
 *
 * A table row is (ODBC name, exact argument count, category, PostgreSQL
 * form). In a form, %1 .. %9 stand for the arguments and %% for a percent
 * sign. No form uses an argument twice: an argument may hold a `?` marker,
 * and repeating it would change the number of markers SQLNativeSql reports.
 * Rows whose form is NULL (CONVERT, TIMESTAMPADD, TIMESTAMPDIFF) are built by
 * code because a keyword argument (SQL_INTEGER, SQL_TSI_DAY) picks the form.
 */
#ifndef GC_SQL_ESCAPE_FN_H
#define GC_SQL_ESCAPE_FN_H

#include <stddef.h>

#include "util/gc_error.h"
#include "util/gc_strbuf.h"

typedef enum gc_sql_fn_category {
    GC_SQL_FN_STRING,
    GC_SQL_FN_NUMERIC,
    GC_SQL_FN_TIMEDATE,
    GC_SQL_FN_SYSTEM,
    GC_SQL_FN_CONVERSION
} gc_sql_fn_category;

typedef struct gc_sql_fn_mapping {
    const char *odbc_name;        /* upper case, as the ODBC specification spells it */
    int nargs;                    /* exact number of arguments */
    gc_sql_fn_category category;
    const char *postgres_form;    /* template, or NULL when built by code */
} gc_sql_fn_mapping;

typedef enum gc_sql_fn_result {
    GC_SQL_FN_MAPPED,     /* PostgreSQL text appended to out */
    GC_SQL_FN_UNKNOWN,    /* not an ODBC function: the caller passes it through */
    GC_SQL_FN_FAILED      /* known name, unusable arguments: err is set (42000) */
} gc_sql_fn_result;

/* Appends the PostgreSQL form of ODBC function `name` (name_len bytes, any
 * case) applied to args[0..nargs) to out. The caller owns everything. */
gc_sql_fn_result gc_sql_escape_function(const char *name, size_t name_len,
                                        const char *const *args, size_t nargs,
                                        gc_strbuf *out, gc_error *err);

/* The table, for SQLGetInfo (SQL_STRING_FUNCTIONS, ...) and for tests. */
size_t gc_sql_escape_function_count(void);
const gc_sql_fn_mapping *gc_sql_escape_function_at(size_t index);

/* The PostgreSQL type CONVERT(x, SQL_xxx) casts to; NULL when the ODBC type
 * name (with or without SQL_, any case) is not one. */
const char *gc_sql_convert_type(const char *odbc_type, size_t len);

#endif
