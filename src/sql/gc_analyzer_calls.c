/*
 * The function calls of a statement, judged by name: whether one of them
 * writes or locks (nextval, pg_notify, set_config, ...), or is one the driver
 * does not know and so may write (a user function: its volatility lives in
 * the server's catalog, which routing never reads). Only a call counts: an
 * identifier directly followed by `(`, outside strings, comments and dollar
 * quotes (the lexer gives those as single tokens), and not a type modifier
 * (`::varchar(10)`, `AS numeric(10,2)`), an alias column list
 * (`AS g(x)`, `f() g(x)`) or a WITH query's name.
 */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "sql/gc_analyzer_internal.h"

/* Built-in functions that write, lock, signal or change server state. A
 * SELECT calling one is never read-only: it must reach a primary, and it
 * must never run twice. Sorted (bsearch). */
static const char *const writing_functions[] = {
    "dblink_exec",
    "lo_close",
    "lo_creat",
    "lo_create",
    "lo_export",
    "lo_from_bytea",
    "lo_import",
    "lo_open",
    "lo_put",
    "lo_truncate",
    "lo_truncate64",
    "lo_unlink",
    "lowrite",
    "nextval",
    "pg_advisory_lock",
    "pg_advisory_lock_shared",
    "pg_advisory_unlock",
    "pg_advisory_unlock_all",
    "pg_advisory_unlock_shared",
    "pg_advisory_xact_lock",
    "pg_advisory_xact_lock_shared",
    "pg_backup_start",
    "pg_backup_stop",
    "pg_cancel_backend",
    "pg_copy_logical_replication_slot",
    "pg_copy_physical_replication_slot",
    "pg_create_logical_replication_slot",
    "pg_create_physical_replication_slot",
    "pg_create_restore_point",
    "pg_current_xact_id",
    "pg_drop_replication_slot",
    "pg_file_rename",
    "pg_file_sync",
    "pg_file_unlink",
    "pg_file_write",
    "pg_import_system_collations",
    "pg_logical_emit_message",
    "pg_logical_slot_get_binary_changes",
    "pg_logical_slot_get_changes",
    "pg_notify",
    "pg_promote",
    "pg_reload_conf",
    "pg_replication_origin_advance",
    "pg_replication_origin_create",
    "pg_replication_origin_drop",
    "pg_replication_origin_session_setup",
    "pg_replication_slot_advance",
    "pg_rotate_logfile",
    "pg_start_backup",
    "pg_stat_reset",
    "pg_stat_reset_replication_slot",
    "pg_stat_reset_shared",
    "pg_stat_reset_single_function_counters",
    "pg_stat_reset_single_table_counters",
    "pg_stat_reset_slru",
    "pg_stat_reset_subscription_stats",
    "pg_stat_statements_reset",
    "pg_stop_backup",
    "pg_switch_wal",
    "pg_terminate_backend",
    "pg_try_advisory_lock",
    "pg_try_advisory_lock_shared",
    "pg_try_advisory_xact_lock",
    "pg_try_advisory_xact_lock_shared",
    "pg_wal_replay_pause",
    "pg_wal_replay_resume",
    "set_config",
    "setseed",
    "setval",
    "txid_current",
};

/* Names followed by `(` that read only: SQL keywords that open a
 * parenthesis (IN, EXISTS, OVER, FILTER, ...), type names with modifiers and
 * function-style casts, and the built-in functions applications call in
 * queries. Anything else followed by `(` may write. Sorted (bsearch). */
static const char *const reading_names[] = {
    "abs", "acos", "age", "all", "and", "any", "array", "array_agg",
    "array_append", "array_cat", "array_dims", "array_fill", "array_length",
    "array_lower", "array_ndims", "array_position", "array_positions",
    "array_prepend", "array_remove", "array_replace", "array_to_json",
    "array_to_string", "array_upper", "as", "ascii", "asin", "at", "atan",
    "atan2", "avg", "bernoulli", "between", "bigint", "bit", "bit_and",
    "bit_length", "bit_or", "bool", "bool_and", "bool_or", "boolean", "bpchar",
    "btrim", "by", "cardinality", "case", "cast", "cbrt", "ceil", "ceiling",
    "char", "char_length", "character", "character_length", "chr",
    "clock_timestamp", "coalesce", "col_description", "concat", "concat_ws",
    "convert", "convert_from", "convert_to", "corr", "cos", "count",
    "covar_pop", "covar_samp", "cube", "cume_dist", "current_database",
    "current_schema", "current_schemas", "current_setting", "current_time",
    "current_timestamp", "date", "date_bin", "date_part", "date_trunc", "dec",
    "decimal", "decode", "degrees", "dense_rank", "distinct", "div", "else",
    "encode", "every", "except", "exists", "exp", "extract", "factorial",
    "fetch", "filter", "first", "first_value", "float", "float4", "float8",
    "floor", "format", "format_type", "from", "gcd", "gen_random_uuid",
    "generate_series", "generate_subscripts", "greatest", "group", "grouping",
    "has_column_privilege", "has_database_privilege", "has_function_privilege",
    "has_schema_privilege", "has_sequence_privilege", "has_table_privilege",
    "hashtext", "having", "ilike", "in", "initcap", "int", "int2", "int4",
    "int8", "integer", "intersect", "interval", "is", "isfinite", "join",
    "json_agg", "json_array_elements", "json_array_elements_text",
    "json_array_length", "json_build_array", "json_build_object", "json_each",
    "json_each_text", "json_extract_path", "json_extract_path_text",
    "json_object", "json_object_agg", "json_object_keys",
    "json_populate_record", "json_strip_nulls", "json_to_record",
    "json_to_recordset", "json_typeof", "jsonb_agg", "jsonb_array_elements",
    "jsonb_array_elements_text", "jsonb_array_length", "jsonb_build_array",
    "jsonb_build_object", "jsonb_each", "jsonb_each_text",
    "jsonb_extract_path", "jsonb_extract_path_text", "jsonb_insert",
    "jsonb_object", "jsonb_object_agg", "jsonb_object_keys",
    "jsonb_path_exists", "jsonb_path_match", "jsonb_path_query",
    "jsonb_path_query_array", "jsonb_path_query_first",
    "jsonb_populate_record", "jsonb_pretty", "jsonb_set", "jsonb_strip_nulls",
    "jsonb_to_record", "jsonb_to_recordset", "jsonb_typeof",
    "justify_days", "justify_hours", "justify_interval", "lag", "last",
    "last_value", "lateral", "lcm", "lead", "least", "left", "length", "like",
    "limit", "ln", "localtime", "localtimestamp", "log", "log10", "lower",
    "lpad", "ltrim", "make_date", "make_interval", "make_time",
    "make_timestamp", "make_timestamptz", "materialized", "max", "md5", "min",
    "min_scale", "mod", "mode", "nchar", "normalize", "not", "now", "nth_value",
    "ntile", "nullif", "numeric", "obj_description", "octet_length", "of",
    "offset", "on", "operator", "or", "order", "over", "overlaps", "overlay",
    "parse_ident", "partition", "percent_rank", "percentile_cont",
    "percentile_disc", "pg_column_size", "pg_conf_load_time",
    "pg_current_snapshot", "pg_current_wal_lsn", "pg_current_xact_id_if_assigned",
    "pg_database_size", "pg_get_constraintdef", "pg_get_expr",
    "pg_get_functiondef", "pg_get_indexdef", "pg_get_viewdef", "pg_has_role",
    "pg_indexes_size", "pg_is_in_recovery", "pg_last_wal_receive_lsn",
    "pg_last_wal_replay_lsn", "pg_last_xact_replay_timestamp",
    "pg_postmaster_start_time", "pg_relation_size", "pg_size_bytes",
    "pg_size_pretty", "pg_sleep", "pg_snapshot_xmin", "pg_table_size",
    "pg_total_relation_size", "pg_typeof", "pg_xact_status", "pi", "position",
    "pow", "power", "precision", "quote_ident", "quote_literal",
    "quote_nullable", "radians", "random", "range", "rank", "real",
    "regexp_count", "regexp_instr", "regexp_like", "regexp_match",
    "regexp_matches", "regexp_replace", "regexp_split_to_array",
    "regexp_split_to_table", "regexp_substr", "regr_avgx", "regr_avgy",
    "regr_count", "regr_intercept", "regr_r2", "regr_slope", "regr_sxx",
    "regr_sxy", "regr_syy", "repeat", "repeatable", "replace", "reverse",
    "right", "rollup", "round", "row", "row_number", "row_to_json", "rows",
    "rpad", "rtrim", "scale", "select", "sets", "sha224", "sha256", "sha384",
    "sha512", "sign", "similar", "sin", "smallint", "some", "split_part",
    "sqrt", "starts_with", "statement_timestamp", "stddev", "stddev_pop",
    "stddev_samp", "string_agg", "string_to_array", "string_to_table",
    "strpos", "substr", "substring", "sum", "symmetric", "system", "table",
    "tan", "text", "then", "time", "timeofday", "timestamp", "timestamptz",
    "timetz", "to", "to_char", "to_date", "to_hex", "to_json", "to_jsonb",
    "to_number", "to_regclass", "to_regtype", "to_timestamp", "transaction_timestamp",
    "translate", "trim", "trim_scale", "trunc", "txid_current_snapshot",
    "txid_status", "union", "unistr", "unnest", "upper", "using", "uuid",
    "values", "var_pop", "var_samp", "varbit", "varchar", "variance",
    "varying", "when", "where", "width_bucket", "window", "with", "within",
    "xmlagg", "xmlconcat", "xmlelement", "xmlforest", "xmlparse", "xmlpi",
    "xmlroot", "xmlserialize", "zone",
};

static int compare_name(const void *key, const void *entry)
{
    return strcmp((const char *)key, *(const char *const *)entry);
}

static bool listed(const char *name, const char *const *list, size_t n)
{
    return bsearch(name, list, n, sizeof list[0], compare_name) != NULL;
}

gc_az_call_class gc_az_function_class(const char *name, bool user_schema)
{
    assert(name != NULL);
    /* A function in another schema than pg_catalog is the user's, whatever
     * its name: public.nextval(...) is not the sequence function. */
    if (user_schema)
        return GC_AZ_CALL_MAY_WRITE;
    if (listed(name, writing_functions,
               sizeof writing_functions / sizeof writing_functions[0]))
        return GC_AZ_CALL_WRITES;
    if (listed(name, reading_names, sizeof reading_names / sizeof reading_names[0]))
        return GC_AZ_CALL_READS;
    return GC_AZ_CALL_MAY_WRITE;
}

bool gc_az_function_lists_sorted(void)
{
    const struct { const char *const *list; size_t n; } lists[] = {
        {writing_functions, sizeof writing_functions / sizeof writing_functions[0]},
        {reading_names, sizeof reading_names / sizeof reading_names[0]},
    };
    for (size_t l = 0; l < sizeof lists / sizeof lists[0]; l++)
        for (size_t i = 1; i < lists[l].n; i++)
            if (strcmp(lists[l].list[i - 1], lists[l].list[i]) >= 0)
                return false;
    return true;
}

static bool is_identifier(const gc_az *az, size_t i)
{
    return i < az->n && (az->tok[i].kind == GC_SQL_TOK_IDENT ||
                         az->tok[i].kind == GC_SQL_TOK_QUOTED_IDENT ||
                         az->tok[i].kind == GC_SQL_TOK_UNICODE_IDENT);
}

static bool is_cte_name(const gc_az *az, size_t i)
{
    for (size_t c = 0; c < az->n_ctes; c++)
        if (az->cte_name[c] == i)
            return true;
    return false;
}

/* Whether the identifier at i, followed by `(`, is no call: a type after
 * `::` or AS, an alias column list after AS or `)`, a WITH query's name. */
static bool names_no_call(const gc_az *az, size_t i)
{
    if (is_cte_name(az, i))
        return true;
    if (i == 0)
        return false;
    return gc_az_op(az, i - 1, "::") || gc_az_kw(az, i - 1, "as") ||
           gc_az_punct(az, i - 1, ')');
}

/* The class of the call whose name is the token at i (followed by `(`). */
static gc_az_call_class class_of_call(const gc_az *az, size_t i)
{
    char name[64];
    size_t len = gc_sql_token_identifier(&az->lx, &az->tok[i], name, sizeof name);
    if (len == 0 || len >= sizeof name)
        return GC_AZ_CALL_MAY_WRITE;   /* U&"..." or a name no built-in has */
    bool user_schema = false;
    if (i >= 2 && gc_az_punct(az, i - 1, '.')) {
        char schema[16];
        size_t slen = gc_sql_token_identifier(&az->lx, &az->tok[i - 2], schema,
                                              sizeof schema);
        user_schema = !(slen == strlen("pg_catalog") && strcmp(schema, "pg_catalog") == 0);
    }
    return gc_az_function_class(name, user_schema);
}

gc_az_call_class gc_az_classify_calls(const gc_az *az)
{
    gc_az_call_class worst = GC_AZ_CALL_READS;
    for (size_t i = 0; i + 1 < az->n; i++) {
        if (!is_identifier(az, i) || !gc_az_punct(az, i + 1, '(') || names_no_call(az, i))
            continue;
        gc_az_call_class c = class_of_call(az, i);
        if (c > worst)
            worst = c;
    }
    return worst;
}

/* Names a row write puts before `(` that are no call: ON CONFLICT (...),
 * UPDATE ... SET (a, b) = ..., MERGE's THEN INSERT (...). */
static bool write_keyword_before_paren(const gc_az *az, size_t i)
{
    return gc_az_kw(az, i, "conflict") || gc_az_kw(az, i, "set") || gc_az_kw(az, i, "insert");
}

/* The sequence functions: they write a sequence of the member's own, never
 * a row through postgres_fdw. */
static bool is_sequence_call(const gc_az *az, size_t i)
{
    if (i >= 2 && gc_az_punct(az, i - 1, '.') && !gc_az_kw(az, i - 2, "pg_catalog"))
        return false;
    return gc_az_kw(az, i, "nextval") || gc_az_kw(az, i, "currval") ||
           gc_az_kw(az, i, "setval") || gc_az_kw(az, i, "lastval");
}

bool gc_az_write_calls_plain(const gc_az *az)
{
    const gc_analysis *out = az->out;
    for (size_t i = 0; i + 1 < az->n; i++) {
        if (!is_identifier(az, i) || !gc_az_punct(az, i + 1, '(') || names_no_call(az, i))
            continue;
        bool target = out->target_name_length > 0 &&
                      az->tok[i].offset == out->target_name_offset;
        if (target || write_keyword_before_paren(az, i) || is_sequence_call(az, i))
            continue;
        if (class_of_call(az, i) != GC_AZ_CALL_READS)
            return false;
    }
    return true;
}

/* Reads text as regclass does, `name` or `schema.name` (the lexer's
 * identifiers: unquoted folded, "..." kept), into *schema (NULL when
 * unqualified) and *name. False when the text is no such name. */
static bool regclass_name(gc_az *az, const char *text, char **schema, char **name)
{
    gc_sql_lexer lx;
    gc_sql_lexer_init(&lx, text, strlen(text));
    gc_sql_token tok[4];
    int n = 0;
    while (n < 4 && gc_sql_lexer_next_code(&lx, &tok[n]))
        n++;
    bool qualified = n == 3 && gc_sql_token_is_punct(&lx, &tok[1], '.');
    if (n != 1 && !qualified)
        return false;
    *schema = qualified ? gc_az_identifier_of(az, &lx, &tok[0]) : NULL;
    *name = gc_az_identifier_of(az, &lx, &tok[n - 1]);
    if (*name != NULL && (!qualified || *schema != NULL))
        return true;
    free(*schema);
    free(*name);
    *schema = *name = NULL;
    return false;
}

void gc_az_find_sequence(gc_az *az)
{
    gc_analysis *out = az->out;
    for (size_t i = az->stmt_begin; i + 2 < az->stmt_end; i++) {
        if (!(gc_az_kw(az, i, "nextval") || gc_az_kw(az, i, "setval")) ||
            !is_sequence_call(az, i) || !gc_az_punct(az, i + 1, '('))
            continue;
        size_t end = i + 2;
        while (end < az->stmt_end && !gc_az_punct(az, end, ',') && !gc_az_punct(az, end, ')'))
            end++;
        gc_value_source v;
        if (gc_az_parse_value(az, i + 2, end, &v) != end || v.literal == NULL) {
            free(v.literal);
            return;   /* the sequence comes from a parameter or an expression */
        }
        regclass_name(az, v.literal, &out->sequence_schema, &out->sequence);
        free(v.literal);
        return;
    }
}
