/*
 * gc_analyzer_relations: whether a statement names one relation only, its
 * target (gc_analysis.one_relation). Read from the tokens: a sub-SELECT
 * anywhere, a JOIN, a second FROM, a FROM list of several, UPDATE ...
 * FROM and DELETE ... USING each bring in another relation. FROM inside
 * parentheses without a SELECT is a function's syntax (extract(year FROM
 * d), substring(s FROM 2)), and IS [NOT] DISTINCT FROM a comparison (a
 * cursor's positioned UPDATE matches each column so): not relations.
 */
#include "sql/gc_analyzer_internal.h"

/* The clauses that end a SELECT's FROM list. */
static bool ends_from_list(const gc_az *az, size_t i)
{
    static const char *const words[] = { "where", "group", "order", "limit", "offset",
                                         "for", "having", "window", "fetch" };
    for (size_t k = 0; k < sizeof words / sizeof words[0]; k++)
        if (gc_az_kw(az, i, words[k]))
            return true;
    return false;
}

bool gc_az_names_one_relation(const gc_az *az)
{
    const gc_analysis *a = az->out;
    if (a->table == NULL || az->n_ctes > 0 ||
        !(a->kind == GC_SQL_SELECT || a->kind == GC_SQL_INSERT || a->kind == GC_SQL_UPDATE ||
          a->kind == GC_SQL_DELETE))
        return false;
    int depth = 0, froms = 0;
    bool in_from_list = false;
    for (size_t i = az->stmt_begin; i < az->stmt_end; i++) {
        if (gc_az_punct(az, i, '('))
            depth++;
        else if (gc_az_punct(az, i, ')'))
            depth--;
        if ((i > az->stmt_begin && gc_az_kw(az, i, "select")) || gc_az_kw(az, i, "join"))
            return false;
        if (depth != 0)
            continue;
        /* a IS [NOT] DISTINCT FROM b compares, it names no relation. */
        if (gc_az_kw(az, i, "from") && !(i > 0 && gc_az_kw(az, i - 1, "distinct"))) {
            if (a->kind == GC_SQL_UPDATE || ++froms > 1)
                return false;
            in_from_list = a->kind == GC_SQL_SELECT;
        } else if (a->kind == GC_SQL_DELETE && gc_az_kw(az, i, "using")) {
            return false;
        } else if (in_from_list && gc_az_punct(az, i, ',')) {
            return false;
        } else if (in_from_list && ends_from_list(az, i)) {
            in_from_list = false;
        }
    }
    return a->kind == GC_SQL_SELECT ? gc_az_classify_calls(az) == GC_AZ_CALL_READS
                                    : gc_az_write_calls_plain(az);
}
