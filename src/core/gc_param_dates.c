/*
 * gc_param_dates: empty character parameters of date types sent as NULL
 * when psqlODBC's AB mask asks for it; see gc_param_dates.h.
 */
#include "core/gc_param_dates.h"

#include <stdlib.h>

#include "config/gc_psqlodbc.h"
#include "core/gc_conn.h"
#include "core/gc_lo.h"
#include "core/gc_param.h"

/* Whether parameter i of the row is character data holding no character. */
static bool is_empty_string(const gc_stmt *s, SQLULEN row, int i, const gc_param_value *pv)
{
    gc_param_ref ref;
    gc_param_locate(s, i, row, &ref);
    bool character = ref.c_type == SQL_C_CHAR || ref.c_type == SQL_C_WCHAR;
    return character && pv[i].data != NULL && pv[i].format == 0 && pv[i].data[0] == '\0';
}

static bool is_date_type(Oid t)
{
    return t == GC_OID_DATE || t == GC_OID_TIMESTAMP || t == GC_OID_TIMESTAMPTZ;
}

void gc_param_null_empty_dates(gc_stmt *s, SQLULEN row, gc_param_value *pv)
{
    int n = s->nparams;
    if (!gc_psqlodbc_cvt_null_date(s->conn->settings.extra_options) || s->simple_query)
        return;
    bool any = false;
    for (int i = 0; i < n && !any; i++)
        any = is_empty_string(s, row, i, pv);
    if (!any)
        return;
    if (s->described_param_types == NULL || s->described_nparams != n)
        gc_lo_describe_params(s, row, pv);
    for (int i = 0; i < n && s->described_param_types != NULL; i++) {
        if (!is_empty_string(s, row, i, pv) || !is_date_type(s->described_param_types[i]))
            continue;
        free(pv[i].data);
        pv[i].data = NULL;   /* SQL NULL */
        pv[i].length = 0;
    }
}
