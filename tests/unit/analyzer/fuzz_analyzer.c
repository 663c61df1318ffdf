/*
 * libFuzzer target for the analyzer: any byte string yields either an
 * analysis that is consistent with itself, or a 42601 error. A violated
 * invariant aborts, which libFuzzer reports as a crash; ASan reports reads
 * past the text and leaks.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sql/gc_analyzer.h"
#include "fuzz_target.h"


static void check_analysis(const gc_analysis *a)
{
    CHECK(a->kind >= GC_SQL_UNKNOWN && a->kind <= GC_SQL_OTHER);
    CHECK(!a->read_only || a->kind == GC_SQL_SELECT || a->kind == GC_SQL_SHOW);
    CHECK(!a->read_only || a->route_as_read);
    CHECK(!a->route_as_read || a->kind == GC_SQL_SELECT || a->kind == GC_SQL_SHOW);
    CHECK(!a->is_local || a->kind == GC_SQL_SET);
    CHECK(a->n_rows >= 1);
    CHECK(a->n_columns >= 0);
    CHECK((a->n_columns == 0) == (a->columns == NULL));
    CHECK(a->schema == NULL || a->table != NULL);
    if (a->table != NULL)
        CHECK(strlen(a->table) > 0);
    for (int c = 0; c < a->n_columns; c++) {
        const gc_pinned_column *col = &a->columns[c];
        CHECK(col->n_values >= 1 && col->values != NULL);
        CHECK((col->name == NULL) == (col->position >= 0));
        if (a->kind == GC_SQL_INSERT)
            CHECK(col->n_values == a->n_rows);
        for (int v = 0; v < col->n_values; v++) {
            const gc_value_source *s = &col->values[v];
            CHECK(s->param >= -1);
            CHECK(s->param == -1 || s->literal == NULL);
            if (s->literal != NULL)
                (void)strlen(s->literal);   /* terminated: ASan checks */
        }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    size_t len;
    char *text = fuzz_input_copy(data, size, 0, false, &len);
    if (text == NULL)
        return 0;
    gc_analysis a, b;
    gc_error err;
    bool ok = gc_analyze(text, len, &a, &err);
    if (!ok) {
        CHECK(strcmp(err.sqlstate, "42601") == 0 || strcmp(err.sqlstate, "HY001") == 0);
        CHECK(a.columns == NULL && a.table == NULL);
    } else {
        check_analysis(&a);
        /* The analysis depends on the text only. */
        CHECK(gc_analyze(text, len, &b, &err));
        CHECK(a.kind == b.kind && a.read_only == b.read_only &&
              a.route_as_read == b.route_as_read && a.n_columns == b.n_columns);
        gc_analysis_free(&b);
    }
    gc_analysis_free(&a);
    free(text);
    return 0;
}
