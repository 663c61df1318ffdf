/*
 * gc_catalog_odbc2_names: the names ODBC 2 gave the catalog result columns
 * that ODBC 3 renamed (TABLE_QUALIFIER for TABLE_CAT, PRECISION for
 * COLUMN_SIZE...), for an application that declared SQL_OV_ODBC2. ODBC
 * says applications bind catalog columns by number, but code that reads
 * rows by name (PHP's odbc_fetch_array, ADO recordsets) finds them by the
 * names psqlODBC gives such an application. The same functions and columns
 * as psqlODBC are renamed; SQLForeignKeys, SQLProcedures,
 * SQLProcedureColumns and the privilege functions keep ODBC 3's names there
 * too. docs/catalog.md.
 */
#include <stdlib.h>
#include <string.h>

#include "core/gc_catalog_internal.h"
#include "core/gc_conn.h"
#include "core/gc_desc.h"
#include "core/gc_env.h"

typedef struct odbc2_name {
    int column;                 /* 1-based */
    const char *name;
} odbc2_name;

static const odbc2_name table_names[] = {
    {1, "TABLE_QUALIFIER"}, {2, "TABLE_OWNER"}, {0, NULL},
};
static const odbc2_name columns_names[] = {
    {1, "TABLE_QUALIFIER"}, {2, "TABLE_OWNER"}, {7, "PRECISION"}, {8, "LENGTH"},
    {9, "SCALE"}, {10, "RADIX"}, {0, NULL},
};
static const odbc2_name statistics_names[] = {
    {1, "TABLE_QUALIFIER"}, {2, "TABLE_OWNER"}, {8, "SEQ_IN_INDEX"}, {10, "COLLATION"},
    {0, NULL},
};
static const odbc2_name special_columns_names[] = {
    {5, "PRECISION"}, {6, "LENGTH"}, {7, "SCALE"}, {0, NULL},
};
/* psqlODBC spells column 3 "RECISION", a slip; ODBC 2's name is used. */
static const odbc2_name type_info_names[] = {
    {3, "PRECISION"}, {11, "MONEY"}, {12, "AUTO_INCREMENT"}, {0, NULL},
};

static const odbc2_name *names_of(gc_catalog_result result)
{
    switch (result) {
    case GC_CATALOG_TABLES: case GC_CATALOG_PRIMARY_KEYS: return table_names;
    case GC_CATALOG_COLUMNS: return columns_names;
    case GC_CATALOG_STATISTICS: return statistics_names;
    case GC_CATALOG_SPECIAL_COLUMNS: return special_columns_names;
    case GC_CATALOG_TYPE_INFO: return type_info_names;
    }
    return NULL;
}

SQLRETURN gc_catalog_name_for_odbc2(gc_stmt *s, SQLRETURN rc, gc_catalog_result result)
{
    if (!SQL_SUCCEEDED(rc) || !gc_catalog_type_view(s->conn).odbc2)
        return rc;
    for (const odbc2_name *n = names_of(result); n != NULL && n->name != NULL; n++) {
        gc_desc_rec *r = gc_desc_rec_find(s->ird, n->column);
        char *name = r != NULL ? strdup(n->name) : NULL;
        if (name == NULL)
            continue;     /* out of memory: the ODBC 3 name stays */
        free(r->name);
        r->name = name;
    }
    s->ird_as_described = false;
    return rc;
}
