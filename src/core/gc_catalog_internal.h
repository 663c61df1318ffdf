/*
 * gc_catalog_internal: what the catalog modules share: turning ODBC catalog
 * arguments into query parameters (patterns, identifiers, SQL_ATTR_METADATA_ID),
 * the ODBC type map passed to queries, and the bridge to the statement.
 */
#ifndef GC_CATALOG_INTERNAL_H
#define GC_CATALOG_INTERNAL_H

#include <libpq-fe.h>
#include <sql.h>
#include <sqlext.h>
#include <stdbool.h>

#include "convert/gc_convert.h"
#include "core/gc_catalog.h"
#include "core/gc_diag.h"
#include "core/gc_stmt.h"

/* The statement's diagnostics and its SQL_ATTR_METADATA_ID. */
gc_diag *gc_catalog_diag(gc_stmt *s);
bool gc_catalog_metadata_id(gc_stmt *s);

/* ODBC's kinds of catalog arguments. */
typedef enum gc_catarg_kind {
    GC_CATARG_ORDINARY,   /* OA: taken literally (an identifier under METADATA_ID) */
    GC_CATARG_PATTERN,    /* PV: % and _ wildcards, \ escapes (an identifier under METADATA_ID) */
} gc_catarg_kind;

#define GC_CATQ_MAX_PARAMS 12

/* The text parameters of one catalog query, built in order ($1, $2, ...). */
typedef struct gc_catq {
    gc_stmt *s;
    bool metadata_id;
    int nparams;
    char *values[GC_CATQ_MAX_PARAMS];   /* owned; NULL = SQL NULL */
    bool name_arg[GC_CATQ_MAX_PARAMS];  /* values[i] is an application's name
                                           (gc_catq_arg), not under METADATA_ID */
    bool failed;                         /* a diagnostic was recorded */
    /* The one table the function names (gc_catq_on_owner_of), as the server
     * stores it; owned, NULL when none. */
    char *owner_schema;
    char *owner_table;
    bool outside_transaction;   /* the owner's member holds no part of the open
                                   transaction: it answers outside it */
} gc_catq;

void gc_catq_init(gc_catq *q, gc_stmt *s);
void gc_catq_free(gc_catq *q);

/* Adds `arg` as a LIKE pattern with backslash escapes. Under METADATA_ID
 * the argument is an identifier; then a NULL `arg` is HY009 when
 * `required`. A NULL `arg` never filters. For gc_catq_arg an empty one does
 * not filter either: catalog and schema arguments (PostgreSQL has no object
 * without them, and callers passing "" mean any) and the name SQLTables and
 * SQLProcedures list by, as psqlODBC reads those. For gc_catq_name_arg, the
 * name of the object the function describes (a table's columns, keys or
 * privileges, a procedure's columns), an empty one matches no object, as
 * ODBC says and psqlODBC answers. */
void gc_catq_arg(gc_catq *q, const char *arg, gc_catarg_kind kind, bool required);
void gc_catq_name_arg(gc_catq *q, const char *arg, gc_catarg_kind kind, bool required);
/* Adds a literal text parameter (copied; NULL gives SQL NULL). */
void gc_catq_text(gc_catq *q, const char *text);
void gc_catq_int(gc_catq *q, long value);
/* Adds the ODBC type map (see gc_catalog_typemap.c). */
void gc_catq_typemap(gc_catq *q);
/* The function names one table (schema may be NULL: the search_path's):
 * on a global connection, gc_catq_run runs it on the owner group of that
 * table when it is a solo table (gc_catalog_owner.c). Arguments are the
 * application's, of the given kind; a pattern with % names no one table. */
void gc_catq_on_owner_of(gc_catq *q, const char *schema, const char *table,
                         gc_catarg_kind kind);
/* Called by gc_catq_run: makes the owner's member current, if any, and
 * notes whether it answers outside the open transaction. */
void gc_catq_use_owner(gc_catq *q);
/* Runs sql with the parameters as the statement's result set and frees q.
 * When the set is empty and a name argument is written in upper case only,
 * it runs again with those names in lower case, as psqlODBC does: an
 * application that spells an unquoted name as ODBC folds it (PERL_DBD_TEST)
 * finds the table PostgreSQL folded to perl_dbd_test. */
SQLRETURN gc_catq_run(gc_catq *q, const char *sql);

/* True when an argument names schemas selectively, so that the system
 * schemas (pg_catalog, information_schema, pg_toast...) are not hidden. */
bool gc_catalog_names_schema(const char *schema);

/* SQL: true when the pg_namespace row `n` is a system schema (pg_catalog,
 * information_schema, pg_toast, other pg_* ones); this session's temporary
 * schema is not one. */
#define GC_CATALOG_SYSTEM_SCHEMA(n)                                             \
    "((left(" n ".nspname, 3) = 'pg_' OR " n ".nspname = 'information_schema')" \
    " AND " n ".oid <> pg_catalog.pg_my_temp_schema())"

/* ODBC's SQL_DATA_TYPE and SQL_DATETIME_SUB for a concise type
 * (*sub = 0 when it has none). */
void gc_catalog_verbose_type(SQLSMALLINT sql_type, SQLSMALLINT *verbose,
                             SQLSMALLINT *sub);
/* How the application reads type codes in catalog results: the wide
 * character types when it connected through a W function, ODBC 2's
 * datetime codes (SQL_DATE 9, SQL_TIME 10, SQL_TIMESTAMP 11) when it
 * declared SQL_OV_ODBC2, as psqlODBC answers such an application (the
 * driver manager maps result columns' types, not catalog rows). */
typedef struct gc_type_view {
    bool wide;
    bool odbc2;
} gc_type_view;

gc_type_view gc_catalog_type_view(const gc_conn *c);
/* Type code t (an ODBC 3 one) as the application reads it. */
SQLSMALLINT gc_catalog_viewed_type(SQLSMALLINT t, gc_type_view view);
/* The catalog results whose columns ODBC 3 renamed. */
typedef enum gc_catalog_result {
    GC_CATALOG_TABLES,
    GC_CATALOG_COLUMNS,
    GC_CATALOG_STATISTICS,
    GC_CATALOG_PRIMARY_KEYS,
    GC_CATALOG_SPECIAL_COLUMNS,
    GC_CATALOG_TYPE_INFO,
} gc_catalog_result;
/* Gives the result columns of `result` ODBC 2's names when the application
 * declared SQL_OV_ODBC2 and rc succeeded; returns rc
 * (gc_catalog_odbc2_names.c). */
SQLRETURN gc_catalog_name_for_odbc2(gc_stmt *s, SQLRETURN rc, gc_catalog_result result);
/* The DATA_TYPE catalog results give a type: the one SQLDescribeCol reports
 * for a result column of that type, which for character types is the wide
 * twin (SQL_WVARCHAR, SQL_WLONGVARCHAR...) for a wide application and the
 * narrow type otherwise, as the statement module describes result columns;
 * seen through view. */
SQLSMALLINT gc_catalog_reported_type(const gc_pgtype_info *info, gc_type_view view);
/* True when DECIMAL_DIGITS means something for this ODBC type. */
bool gc_catalog_has_decimal_digits(SQLSMALLINT sql_type);

/* One PostgreSQL type the driver maps, in the order SQLGetTypeInfo lists
 * types of the same DATA_TYPE (closest first). Defined in
 * gc_catalog_type_info.c. */
typedef struct gc_catalog_type {
    Oid oid;
    char typmod_kind;             /* see the type map below; '\0' = none */
    const char *literal_prefix;   /* NULL = none */
    const char *literal_suffix;
    const char *create_params;
    long max_column_size;         /* SQLGetTypeInfo's COLUMN_SIZE; 0 = gc_pgtype_describe's */
    int min_scale, max_scale;     /* -1 = not applicable */
} gc_catalog_type;

extern const gc_catalog_type gc_catalog_types[];
extern const size_t gc_catalog_type_count;

/*
 * The type map: one text parameter, one line per PostgreSQL type the driver
 * knows (and a line for oid 0 describing every other type), fields separated
 * by '|':
 *   oid|type_name|data_type|column_size|buffer_length|decimal_digits|radix|
 *   sql_data_type|datetime_sub|typmod_kind|octet_factor|octet_extra|
 *   data_type_with_typmod|long_over|long_data_type
 * (the last two: a declared length beyond long_over, MaxVarcharSize when
 * set, makes the type long_data_type, SQL_LONGVARCHAR, as in results)
 * Empty fields are NULL. typmod_kind: c (character length), n (numeric),
 * t (fractional seconds), b (other character or binary: no modifier), l
 * (the lo extension's type, matched by its name `lo`: SQL_LONGVARBINARY as
 * in results, gc_lo.c) or empty. Each line describes the type as a result
 * column without a modifier under the connection's type mapping keys.
 * GC_CATALOG_TYPEMAP_CTE turns it into a relation `tm` and
 * GC_CATALOG_TYPE_LATERAL(...) computes the ODBC columns from it.
 */
char *gc_catalog_typemap_text(const gc_settings *settings, gc_type_view view);

#define GC_CATALOG_TYPEMAP_CTE(param)                                          \
    "tm AS (SELECT split_part(l, '|', 1)::oid AS oid,"                       \
    " split_part(l, '|', 2) AS type_name,"                                   \
    " split_part(l, '|', 3)::int2 AS data_type,"                             \
    " NULLIF(split_part(l, '|', 4), '')::int4 AS column_size,"               \
    " NULLIF(split_part(l, '|', 5), '')::int4 AS buffer_length,"             \
    " NULLIF(split_part(l, '|', 6), '')::int2 AS decimal_digits,"            \
    " NULLIF(split_part(l, '|', 7), '')::int2 AS radix,"                     \
    " split_part(l, '|', 8)::int2 AS sql_data_type,"                         \
    " NULLIF(split_part(l, '|', 9), '')::int2 AS datetime_sub,"              \
    " split_part(l, '|', 10) AS kind,"                                       \
    " NULLIF(split_part(l, '|', 11), '')::int4 AS octet_factor,"             \
    " NULLIF(split_part(l, '|', 12), '')::int4 AS octet_extra,"              \
    " NULLIF(split_part(l, '|', 13), '')::int2 AS mod_data_type,"            \
    " NULLIF(split_part(l, '|', 14), '')::int4 AS long_over,"                \
    " NULLIF(split_part(l, '|', 15), '')::int2 AS long_data_type"            \
    " FROM unnest(string_to_array(" param "::text, E'\\n')) AS l)"

/*
 * A relation `ty` with the ODBC view of one type: joined LATERAL with the
 * type oid `toid` and modifier `tmod` and the name `tname` used for types the
 * driver does not know. A domain is described as its base type with the
 * column's own modifier, exactly as the server describes such a column in a
 * result (so SQLColumns agrees with SQLDescribeCol); the domain `lo` is a
 * large object, as results describe it.
 */
#define GC_CATALOG_TYPE_LATERAL(toid, tmod, tname)                              \
    " CROSS JOIN LATERAL (SELECT"                                               \
    " CASE WHEN m.oid = 0 THEN (" tname ")::text"                             \
    "  ELSE m.type_name END AS type_name,"                                      \
    " CASE WHEN m.kind = 'c' AND md - 4 > m.long_over THEN m.long_data_type"  \
    "  WHEN m.kind = 'c' AND md >= 0 THEN m.mod_data_type"                      \
    "  ELSE m.data_type END AS data_type,"                                      \
    " CASE WHEN m.kind = 'c' AND md - 4 > m.long_over THEN m.long_data_type"  \
    "  WHEN m.kind = 'c' AND md >= 0 THEN m.mod_data_type"                      \
    "  ELSE m.sql_data_type END AS sql_data_type,"                              \
    " m.datetime_sub, m.radix,"                                                 \
    " CASE WHEN md < 0 THEN m.column_size"                                      \
    "  WHEN m.kind = 'c' THEN md - 4"                                           \
    "  WHEN m.kind = 'n' THEN ((md - 4) >> 16) & 65535"                         \
    "  WHEN m.kind = 't' THEN m.column_size"                                    \
    "   - CASE WHEN m.decimal_digits > 0 THEN m.decimal_digits + 1 ELSE 0 END"  \
    "   + CASE WHEN md > 0 THEN md + 1 ELSE 0 END"                              \
    "  ELSE m.column_size END AS column_size,"                                  \
    " CASE WHEN md < 0 THEN m.buffer_length"                                    \
    "  WHEN m.kind = 'c' THEN (md - 4) * m.octet_factor"                        \
    "  WHEN m.kind = 'n' THEN (((md - 4) >> 16) & 65535) + m.octet_extra"       \
    "  ELSE m.buffer_length END AS buffer_length,"                              \
    " CASE WHEN md < 0 THEN m.decimal_digits"                                   \
    "  WHEN m.kind = 'n' THEN ((md - 4) & 65535)::int2"                         \
    "  WHEN m.kind = 't' THEN md::int2"                                         \
    "  ELSE m.decimal_digits END AS decimal_digits,"                            \
    " CASE WHEN m.kind IN ('b', 'l') OR (m.kind = 'c' AND md < 0) THEN m.buffer_length" \
    "  WHEN m.kind = 'c' THEN (md - 4) * m.octet_factor END AS char_octet_length" \
    " FROM (SELECT bt.oid AS boid, bt.is_lo,"                                   \
    "  (" tmod ") AS md"                                                       \
    "  FROM (SELECT CASE WHEN t0.typtype = 'd' THEN t0.typbasetype ELSE t0.oid END AS oid,"  \
    "   t0.typtype, t0.typname = 'lo' AS is_lo"                                \
    "   FROM pg_catalog.pg_type t0 WHERE t0.oid = (" toid ")) bt) b"          \
    " JOIN tm m ON CASE WHEN b.is_lo THEN m.kind = 'l'"                         \
    "  ELSE m.kind <> 'l' AND m.oid = CASE"                                     \
    "   WHEN EXISTS (SELECT 1 FROM tm k WHERE k.oid = b.boid AND k.kind <> 'l')" \
    "   THEN b.boid ELSE 0 END END) ty"

#endif
