/*
 * gc_catalog_type_info: SQLGetTypeInfo. The rows are built in the driver from the
 * types it maps (gc_catalog_types) and their ODBC description
 * (gc_pgtype_describe), so SQLGetTypeInfo, SQLColumns and SQLDescribeCol
 * always agree, and no round trip is needed.
 */
#include <assert.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "convert/gc_pgtype_keys.h"
#include "core/gc_catalog_internal.h"

/* Types in the order SQLGetTypeInfo lists those sharing a DATA_TYPE:
 * the closest match first (varchar before text, timestamp before
 * timestamptz, text before json). */
const gc_catalog_type gc_catalog_types[] = {
    {GC_OID_BOOL, '\0', NULL, NULL, NULL, 0, -1, -1},
    {GC_OID_INT2, '\0', NULL, NULL, NULL, 0, 0, 0},
    {GC_OID_INT4, '\0', NULL, NULL, NULL, 0, 0, 0},
    {GC_OID_INT8, '\0', NULL, NULL, NULL, 0, 0, 0},
    {GC_OID_NUMERIC, 'n', NULL, NULL, "precision,scale", 1000, 0, 1000},
    {GC_OID_FLOAT4, '\0', NULL, NULL, NULL, 0, -1, -1},
    {GC_OID_FLOAT8, '\0', NULL, NULL, NULL, 0, -1, -1},
    {GC_OID_VARCHAR, 'c', "'", "'", "max length", 10485760, -1, -1},
    {GC_OID_BPCHAR, 'c', "'", "'", "length", 10485760, -1, -1},
    {GC_OID_TEXT, 'b', "'", "'", NULL, 0, -1, -1},
    {GC_OID_JSON, 'b', "'", "'", NULL, 0, -1, -1},
    {GC_OID_JSONB, 'b', "'", "'", NULL, 0, -1, -1},
    {GC_OID_BYTEA, 'b', "'\\x", "'", NULL, 0, -1, -1},
    {GC_OID_DATE, '\0', "'", "'", NULL, 0, -1, -1},
    {GC_OID_TIME, 't', "'", "'", "precision", 0, 0, 6},
    {GC_OID_TIMESTAMP, 't', "'", "'", "precision", 0, 0, 6},
    {GC_OID_TIMESTAMPTZ, 't', "'", "'", "precision", 0, 0, 6},
    {GC_OID_UUID, '\0', "'", "'", NULL, 0, -1, -1},
};
const size_t gc_catalog_type_count = sizeof gc_catalog_types / sizeof gc_catalog_types[0];

enum { TYPEINFO_NCOLS = 19 };

/* The result columns of SQLGetTypeInfo, as ODBC 3.x defines them. */
static const struct {
    const char *name;
    Oid type;
} typeinfo_columns[TYPEINFO_NCOLS] = {
    {"TYPE_NAME", GC_OID_VARCHAR}, {"DATA_TYPE", GC_OID_INT2},
    {"COLUMN_SIZE", GC_OID_INT4}, {"LITERAL_PREFIX", GC_OID_VARCHAR},
    {"LITERAL_SUFFIX", GC_OID_VARCHAR}, {"CREATE_PARAMS", GC_OID_VARCHAR},
    {"NULLABLE", GC_OID_INT2}, {"CASE_SENSITIVE", GC_OID_INT2},
    {"SEARCHABLE", GC_OID_INT2}, {"UNSIGNED_ATTRIBUTE", GC_OID_INT2},
    {"FIXED_PREC_SCALE", GC_OID_INT2}, {"AUTO_UNIQUE_VALUE", GC_OID_INT2},
    {"LOCAL_TYPE_NAME", GC_OID_VARCHAR}, {"MINIMUM_SCALE", GC_OID_INT2},
    {"MAXIMUM_SCALE", GC_OID_INT2}, {"SQL_DATA_TYPE", GC_OID_INT2},
    {"SQL_DATETIME_SUB", GC_OID_INT2}, {"NUM_PREC_RADIX", GC_OID_INT4},
    {"INTERVAL_PRECISION", GC_OID_INT2},
};

/* ODBC 2 date/time codes name the same types as ODBC 3's. */
static SQLSMALLINT odbc3_type(SQLSMALLINT t)
{
    switch (t) {
    case SQL_DATE: return SQL_TYPE_DATE;
    case SQL_TIME: return SQL_TYPE_TIME;
    case SQL_TIMESTAMP: return SQL_TYPE_TIMESTAMP;
    default: return t;
    }
}

static bool set_text(PGresult *res, int row, int col, const char *v)
{
    if (v == NULL)
        return PQsetvalue(res, row, col, NULL, -1) != 0;
    return PQsetvalue(res, row, col, (char *)v, (int)strlen(v)) != 0;
}

static bool set_int(PGresult *res, int row, int col, long long v)
{
    char buf[32];
    int n = snprintf(buf, sizeof buf, "%lld", v);
    return PQsetvalue(res, row, col, buf, n) != 0;
}

/* Fills row `row` of res for one type; false on out-of-memory. */
static bool put_type_row(PGresult *res, int row, const gc_catalog_type *t,
                         const gc_pgtype_info *info, SQLSMALLINT data_type)
{
    SQLSMALLINT verbose, sub;
    gc_catalog_verbose_type(data_type, &verbose, &sub);
    long long size = t->max_column_size != 0 ? t->max_column_size
                                             : (long long)info->column_size;
    if (size > INT32_MAX)
        size = INT32_MAX;
    bool numeric = info->num_prec_radix != 0;
    bool ok = set_text(res, row, 0, info->type_name)
        && set_int(res, row, 1, data_type)
        && (size > 0 ? set_int(res, row, 2, size) : set_text(res, row, 2, NULL))
        && set_text(res, row, 3, t->literal_prefix)
        && set_text(res, row, 4, t->literal_suffix)
        && set_text(res, row, 5, t->create_params)
        && set_int(res, row, 6, SQL_NULLABLE)
        && set_int(res, row, 7, info->case_sensitive ? SQL_TRUE : SQL_FALSE)
        && set_int(res, row, 8, info->searchable)
        && (numeric ? set_int(res, row, 9, info->is_unsigned ? SQL_TRUE : SQL_FALSE)
                    : set_text(res, row, 9, NULL))
        && set_int(res, row, 10, info->fixed_prec_scale ? SQL_TRUE : SQL_FALSE)
        && (numeric ? set_int(res, row, 11, SQL_FALSE) : set_text(res, row, 11, NULL))
        && set_text(res, row, 12, info->type_name)
        && (t->min_scale >= 0 ? set_int(res, row, 13, t->min_scale)
                              : set_text(res, row, 13, NULL))
        && (t->max_scale >= 0 ? set_int(res, row, 14, t->max_scale)
                              : set_text(res, row, 14, NULL))
        && set_int(res, row, 15, verbose)
        && (sub != 0 ? set_int(res, row, 16, sub) : set_text(res, row, 16, NULL))
        && (numeric ? set_int(res, row, 17, info->num_prec_radix)
                    : set_text(res, row, 17, NULL))
        && set_text(res, row, 18, NULL);
    return ok;
}

/* An empty result with the SQLGetTypeInfo columns; caller PQclears. */
static PGresult *make_typeinfo_result(void)
{
    PGresult *res = PQmakeEmptyPGresult(NULL, PGRES_TUPLES_OK);
    if (res == NULL)
        return NULL;
    PGresAttDesc attrs[TYPEINFO_NCOLS];
    memset(attrs, 0, sizeof attrs);
    for (int i = 0; i < TYPEINFO_NCOLS; i++) {
        attrs[i].name = (char *)typeinfo_columns[i].name;
        attrs[i].typid = typeinfo_columns[i].type;
        attrs[i].typlen = typeinfo_columns[i].type == GC_OID_VARCHAR ? -1
                        : typeinfo_columns[i].type == GC_OID_INT2 ? 2 : 4;
        attrs[i].atttypmod = typeinfo_columns[i].type == GC_OID_VARCHAR ? 128 + 4 : -1;
    }
    if (!PQsetResultAttrs(res, TYPEINFO_NCOLS, attrs)) {
        PQclear(res);
        return NULL;
    }
    return res;
}

/*
 * SQLGetTypeInfo: one row per mapped type, ordered by DATA_TYPE and then by
 * closeness. SQL_ALL_TYPES lists every type with the DATA_TYPE result
 * columns of that type report (SQL_WVARCHAR for varchar when the application
 * connected through a W function, SQL_VARCHAR otherwise, ...). A specific
 * data_type lists the types that map to it, narrow or wide: asking for
 * SQL_VARCHAR or SQL_WVARCHAR both find varchar, reported with the type
 * asked for; a valid code no PostgreSQL type maps to (an interval) gives no
 * rows, a code ODBC does not define gives HY004. The result is handed to the
 * statement, which owns it.
 */
/* COLUMN_SIZE of bytea as SQL_LONGVARBINARY: the type has no length limit
 * but ODBC's, as psqlODBC reports it (MaxLongVarcharSize sizes result
 * columns, not the type). Applications binding COLUMN_SIZE as SQL_C_ULONG
 * (MSDASQL) need a positive value. */
#define BYTEA_TYPE_SIZE 2147483647

SQLRETURN gc_catalog_type_info(gc_stmt *s, SQLSMALLINT data_type)
{
    assert(s != NULL);
    gc_pgtype_info infos[sizeof gc_catalog_types / sizeof gc_catalog_types[0]];
    size_t order[sizeof gc_catalog_types / sizeof gc_catalog_types[0]];
    SQLSMALLINT types[sizeof gc_catalog_types / sizeof gc_catalog_types[0]];
    size_t n = 0;
    SQLSMALLINT wanted = odbc3_type(data_type);
    gc_type_view view = gc_catalog_type_view(s->conn);
    if (wanted != SQL_ALL_TYPES && !gc_sql_type_is_valid(wanted)) {
        gc_diag_add(gc_catalog_diag(s), "HY004", 0, "invalid SQL data type %d", (int)data_type);
        return SQL_ERROR;
    }

    for (size_t i = 0; i < gc_catalog_type_count; i++) {
        /* Length types are listed as declared with a length (varchar(n) is
         * VARCHAR); COLUMN_SIZE is then their maximum length. */
        int typmod = gc_catalog_types[i].typmod_kind == 'c' ? 10 + 4 : -1;
        gc_pgtype_describe(gc_catalog_types[i].oid, typmod, &infos[i]);
        gc_pgtype_apply_keys(&s->conn->settings, gc_catalog_types[i].oid, typmod, &infos[i]);
        if (gc_catalog_types[i].oid == GC_OID_BYTEA && infos[i].sql_type == SQL_LONGVARBINARY)
            infos[i].column_size = BYTEA_TYPE_SIZE;
        if (wanted == SQL_ALL_TYPES)
            types[i] = gc_catalog_reported_type(&infos[i], view);
        else if (infos[i].sql_type == wanted || infos[i].sql_wide_type == wanted)
            types[i] = gc_catalog_viewed_type(wanted, view);
        else
            continue;
        /* Insertion keeps the table's order among equal DATA_TYPEs. */
        size_t at = n;
        while (at > 0 && types[order[at - 1]] > types[i]) {
            order[at] = order[at - 1];
            at--;
        }
        order[at] = i;
        n++;
    }

    PGresult *res = make_typeinfo_result();
    bool ok = res != NULL;
    for (size_t r = 0; ok && r < n; r++)
        ok = put_type_row(res, (int)r, &gc_catalog_types[order[r]], &infos[order[r]],
                          types[order[r]]);
    if (!ok) {
        PQclear(res);
        gc_diag_add(gc_catalog_diag(s), "HY001", 0, "out of memory");
        return SQL_ERROR;
    }
    return gc_catalog_name_for_odbc2(s, gc_stmt_set_local_result(s, res),
                                     GC_CATALOG_TYPE_INFO);
}
