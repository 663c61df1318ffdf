/*
 * Reads a cluster spec with libyaml's document API: the whole file becomes a
 * node tree whose marks give line and column, then each known key is copied
 * into gcctl_spec. Unknown keys are errors, so a typo never goes unnoticed.
 */
#include "gcctl_spec.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <yaml.h>

#include "config/gc_yaml_file.h"

/* A spec lists members and tables; far more than any cluster needs. */
#define SPEC_MAX_BYTES (16u * 1024u * 1024u)

typedef struct parse_ctx {
    yaml_document_t doc;
    const char *file;
    gc_error *err;
} parse_ctx;

static gcctl_pos node_pos(const yaml_node_t *n)
{
    gcctl_pos p = { (int)n->start_mark.line + 1, (int)n->start_mark.column + 1 };
    return p;
}

static bool fail_at(parse_ctx *ctx, const yaml_node_t *n, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Sets the error to "file:line:column: message" and returns false. */
static bool fail_at(parse_ctx *ctx, const yaml_node_t *n, const char *fmt, ...)
{
    char msg[GC_ERROR_MESSAGE_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    gcctl_pos p = node_pos(n);
    gc_error_set(ctx->err, "HY000", 0, "%s:%d:%d: %s", ctx->file, p.line, p.column, msg);
    return false;
}

static yaml_node_t *node_at(parse_ctx *ctx, int index)
{
    return yaml_document_get_node(&ctx->doc, index);
}

static const char *scalar_text(const yaml_node_t *n)
{
    return (const char *)n->data.scalar.value;
}

/* A plain (unquoted) null: empty, ~, null. */
static bool scalar_is_null(const yaml_node_t *n)
{
    if (n->type != YAML_SCALAR_NODE || n->data.scalar.style != YAML_PLAIN_SCALAR_STYLE)
        return false;
    const char *s = scalar_text(n);
    return s[0] == '\0' || strcmp(s, "~") == 0 || strcasecmp(s, "null") == 0;
}

/* Copies a scalar string; the caller owns the result. */
static bool get_string(parse_ctx *ctx, yaml_node_t *n, const char *what, char **out)
{
    if (n->type != YAML_SCALAR_NODE)
        return fail_at(ctx, n, "%s must be a string", what);
    if (scalar_text(n)[0] == '\0')
        return fail_at(ctx, n, "%s must not be empty", what);
    free(*out);
    *out = gcctl_xstrdup(scalar_text(n));
    return true;
}

static bool get_int(parse_ctx *ctx, yaml_node_t *n, const char *what, long lo, long hi, long *out)
{
    if (n->type != YAML_SCALAR_NODE)
        return fail_at(ctx, n, "%s must be an integer", what);
    const char *s = scalar_text(n);
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno != 0 || end == s || *end != '\0' || v < lo || v > hi)
        return fail_at(ctx, n, "%s must be an integer from %ld to %ld, not '%s'", what, lo, hi, s);
    *out = v;
    return true;
}

static bool get_bool(parse_ctx *ctx, yaml_node_t *n, const char *what, bool *out)
{
    if (n->type == YAML_SCALAR_NODE) {
        const char *s = scalar_text(n);
        if (strcasecmp(s, "true") == 0 || strcasecmp(s, "yes") == 0) { *out = true; return true; }
        if (strcasecmp(s, "false") == 0 || strcasecmp(s, "no") == 0) { *out = false; return true; }
    }
    return fail_at(ctx, n, "%s must be true or false", what);
}

/* A list of strings, or one string taken as a list of one. */
static bool get_strlist(parse_ctx *ctx, yaml_node_t *n, const char *what, gcctl_strlist *out)
{
    gcctl_strlist_free(out);
    if (n->type == YAML_SCALAR_NODE) {
        char *s = NULL;
        if (!get_string(ctx, n, what, &s))
            return false;
        gcctl_strlist_push(out, s);
        free(s);
        return true;
    }
    if (n->type != YAML_SEQUENCE_NODE)
        return fail_at(ctx, n, "%s must be a list of strings", what);
    for (yaml_node_item_t *it = n->data.sequence.items.start; it < n->data.sequence.items.top; it++) {
        yaml_node_t *item = node_at(ctx, *it);
        char *s = NULL;
        if (!get_string(ctx, item, what, &s))
            return false;
        gcctl_strlist_push(out, s);
        free(s);
    }
    return true;
}

/* Bound values: a scalar or a list of scalars; plain null becomes SQL NULL,
 * plain minvalue/maxvalue become keywords. The caller owns *out. */
static bool get_values(parse_ctx *ctx, yaml_node_t *n, const char *what,
                       gcctl_value **out, size_t *count)
{
    yaml_node_item_t one = 0;
    yaml_node_item_t *start, *top;
    if (n->type == YAML_SEQUENCE_NODE) {
        start = n->data.sequence.items.start;
        top = n->data.sequence.items.top;
    } else if (n->type == YAML_SCALAR_NODE) {
        one = (yaml_node_item_t)(n - ctx->doc.nodes.start) + 1;
        start = &one;
        top = &one + 1;
    } else {
        return fail_at(ctx, n, "%s must be a value or a list of values", what);
    }
    *count = (size_t)(top - start);
    *out = gcctl_xcalloc(*count ? *count : 1, sizeof **out);
    for (size_t i = 0; i < *count; i++) {
        yaml_node_t *item = node_at(ctx, start[i]);
        if (item->type != YAML_SCALAR_NODE)
            return fail_at(ctx, item, "%s: each value must be a scalar", what);
        gcctl_value *v = &(*out)[i];
        if (scalar_is_null(item)) {
            v->is_null = true;
            continue;
        }
        const char *s = scalar_text(item);
        v->text = gcctl_xstrdup(s);
        v->is_keyword = item->data.scalar.style == YAML_PLAIN_SCALAR_STYLE &&
                        (strcasecmp(s, "minvalue") == 0 || strcasecmp(s, "maxvalue") == 0);
    }
    return true;
}

/* Iterates over a mapping's pairs, setting K and V to each key and value node. */
#define FOR_EACH_PAIR(ctx, map, K, V)                                                 \
    for (yaml_node_pair_t *pair_ = (map)->data.mapping.pairs.start;                  \
         pair_ < (map)->data.mapping.pairs.top &&                                   \
         ((K) = node_at((ctx), pair_->key), (V) = node_at((ctx), pair_->value)) != NULL; \
         pair_++)

static bool expect_mapping(parse_ctx *ctx, yaml_node_t *n, const char *what)
{
    if (n->type != YAML_MAPPING_NODE)
        return fail_at(ctx, n, "%s must be a mapping (key: value)", what);
    return true;
}

static bool parse_member(parse_ctx *ctx, yaml_node_t *n, gcctl_member *m)
{
    if (!expect_mapping(ctx, n, "a member"))
        return false;
    m->pos = node_pos(n);
    yaml_node_t *k, *v;
    FOR_EACH_PAIR(ctx, n, k, v) {
        const char *key = k->type == YAML_SCALAR_NODE ? scalar_text(k) : "";
        long port = 0;
        if (strcmp(key, "name") == 0) {
            if (!get_string(ctx, v, "member name", &m->name)) return false;
        } else if (strcmp(key, "group") == 0) {
            if (!get_string(ctx, v, "member group", &m->group)) return false;
        } else if (strcmp(key, "host") == 0) {
            if (!get_string(ctx, v, "member host", &m->host)) return false;
        } else if (strcmp(key, "port") == 0) {
            if (!get_int(ctx, v, "member port", 0, 65535, &port)) return false;
            m->port = (int)port;
        } else {
            return fail_at(ctx, k, "unknown member key '%s' (expected name, group, host, port)", key);
        }
    }
    if (!m->name) return fail_at(ctx, n, "member without a name");
    if (!m->group) return fail_at(ctx, n, "member %s has no group", m->name);
    if (!m->host) m->host = gcctl_xstrdup("127.0.0.1");
    return true;
}

static bool parse_shard(parse_ctx *ctx, yaml_node_t *n, gcctl_shard *s)
{
    if (!expect_mapping(ctx, n, "a shard"))
        return false;
    s->pos = node_pos(n);
    yaml_node_t *k, *v;
    FOR_EACH_PAIR(ctx, n, k, v) {
        const char *key = k->type == YAML_SCALAR_NODE ? scalar_text(k) : "";
        if (strcmp(key, "name") == 0) {
            if (!get_string(ctx, v, "shard name", &s->name)) return false;
        } else if (strcmp(key, "group") == 0) {
            if (!get_string(ctx, v, "shard group", &s->group)) return false;
        } else if (strcmp(key, "from") == 0) {
            if (!get_values(ctx, v, "from", &s->from, &s->nfrom)) return false;
        } else if (strcmp(key, "to") == 0) {
            if (!get_values(ctx, v, "to", &s->to, &s->nto)) return false;
        } else if (strcmp(key, "values") == 0) {
            if (v->type != YAML_SEQUENCE_NODE)
                return fail_at(ctx, v, "values must be a list");
            if (!get_values(ctx, v, "values", &s->values, &s->nvalues)) return false;
        } else if (strcmp(key, "default") == 0) {
            if (!get_bool(ctx, v, "default", &s->is_default)) return false;
        } else {
            return fail_at(ctx, k, "unknown shard key '%s' (expected name, group, from, to, values, default)", key);
        }
    }
    if (!s->group)
        return fail_at(ctx, n, "shard without a group");
    return true;
}

static bool parse_sharding(parse_ctx *ctx, yaml_node_t *n, gcctl_table *t)
{
    if (!expect_mapping(ctx, n, "sharding"))
        return false;
    yaml_node_t *k, *v, *shards = NULL, *method = NULL;
    FOR_EACH_PAIR(ctx, n, k, v) {
        const char *key = k->type == YAML_SCALAR_NODE ? scalar_text(k) : "";
        if (strcmp(key, "method") == 0) {
            method = v;
        } else if (strcmp(key, "key") == 0) {
            if (!get_strlist(ctx, v, "sharding key", &t->key)) return false;
        } else if (strcmp(key, "shards") == 0) {
            shards = v;
        } else {
            return fail_at(ctx, k, "unknown sharding key '%s' (expected method, key, shards)", key);
        }
    }
    if (!method)
        return fail_at(ctx, n, "sharding needs a method (hash, range or list)");
    const char *m = method->type == YAML_SCALAR_NODE ? scalar_text(method) : "";
    if (strcasecmp(m, "hash") == 0) t->method = GCCTL_HASH;
    else if (strcasecmp(m, "range") == 0) t->method = GCCTL_RANGE;
    else if (strcasecmp(m, "list") == 0) t->method = GCCTL_LIST;
    else return fail_at(ctx, method, "unknown sharding method '%s' (expected hash, range or list)", m);
    if (t->key.n == 0)
        return fail_at(ctx, n, "sharding needs a key (a list of columns)");
    if (!shards)
        return fail_at(ctx, n, "sharding needs shards");
    if (shards->type == YAML_SCALAR_NODE) {
        long count = 0;
        if (t->method != GCCTL_HASH)
            return fail_at(ctx, shards, "only hash sharding takes a shard count; list the shards");
        if (!get_int(ctx, shards, "shards", 1, 1024, &count)) return false;
        /* Groups are dealt later, once all groups are known. */
        t->nshards = (size_t)count;
        t->shards = gcctl_xcalloc(t->nshards, sizeof *t->shards);
        for (size_t i = 0; i < t->nshards; i++) {
            t->shards[i].remainder = (int)i;
            t->shards[i].pos = node_pos(shards);
        }
        return true;
    }
    if (shards->type != YAML_SEQUENCE_NODE)
        return fail_at(ctx, shards, "shards must be a count (hash) or a list of shards");
    t->nshards = (size_t)(shards->data.sequence.items.top - shards->data.sequence.items.start);
    if (t->nshards == 0)
        return fail_at(ctx, shards, "shards must not be empty");
    t->shards = gcctl_xcalloc(t->nshards, sizeof *t->shards);
    for (size_t i = 0; i < t->nshards; i++) {
        t->shards[i].remainder = (int)i;
        if (!parse_shard(ctx, node_at(ctx, shards->data.sequence.items.start[i]), &t->shards[i]))
            return false;
    }
    return true;
}

static bool parse_uniques(parse_ctx *ctx, yaml_node_t *n, gcctl_table *t)
{
    if (n->type != YAML_SEQUENCE_NODE)
        return fail_at(ctx, n, "unique must be a list of column lists");
    size_t count = (size_t)(n->data.sequence.items.top - n->data.sequence.items.start);
    t->uniques = gcctl_xcalloc(count ? count : 1, sizeof *t->uniques);
    t->nuniques = count;
    for (size_t i = 0; i < count; i++)
        if (!get_strlist(ctx, node_at(ctx, n->data.sequence.items.start[i]), "unique", &t->uniques[i]))
            return false;
    return true;
}

/* The column name is the first word of a definition ("id bigint not null"),
 * or a double-quoted identifier. Returns a new string. */
static char *column_name_of(const char *def)
{
    while (*def == ' ' || *def == '\t') def++;
    if (*def == '"') {
        const char *end = strchr(def + 1, '"');
        size_t len = end ? (size_t)(end - def - 1) : strlen(def + 1);
        char *s = gcctl_xcalloc(len + 1, 1);
        memcpy(s, def + 1, len);
        return s;
    }
    size_t len = strcspn(def, " \t");
    char *s = gcctl_xcalloc(len + 1, 1);
    for (size_t i = 0; i < len; i++)   /* unquoted names fold to lower case */
        s[i] = (char)((def[i] >= 'A' && def[i] <= 'Z') ? def[i] + 32 : def[i]);
    return s;
}

static bool parse_table(parse_ctx *ctx, yaml_node_t *n, gcctl_table *t)
{
    if (!expect_mapping(ctx, n, "a table"))
        return false;
    t->pos = node_pos(n);
    yaml_node_t *k, *v, *sharding = NULL;
    FOR_EACH_PAIR(ctx, n, k, v) {
        const char *key = k->type == YAML_SCALAR_NODE ? scalar_text(k) : "";
        if (strcmp(key, "name") == 0) {
            if (!get_string(ctx, v, "table name", &t->name)) return false;
        } else if (strcmp(key, "columns") == 0) {
            if (!get_strlist(ctx, v, "columns", &t->columns)) return false;
        } else if (strcmp(key, "primary_key") == 0) {
            if (!get_strlist(ctx, v, "primary_key", &t->primary_key)) return false;
        } else if (strcmp(key, "unique") == 0) {
            if (!parse_uniques(ctx, v, t)) return false;
        } else if (strcmp(key, "group") == 0) {
            if (!get_string(ctx, v, "table group", &t->group)) return false;
        } else if (strcmp(key, "sharding") == 0) {
            sharding = v;
        } else {
            return fail_at(ctx, k, "unknown table key '%s' (expected name, columns, primary_key, unique, group, sharding)", key);
        }
    }
    if (!t->name)
        return fail_at(ctx, n, "table without a name");
    if (t->columns.n == 0)
        return fail_at(ctx, n, "table %s has no columns", t->name);
    for (size_t i = 0; i < t->columns.n; i++) {
        char *name = column_name_of(t->columns.items[i]);
        gcctl_strlist_push(&t->column_names, name);
        free(name);
    }
    if (sharding) {
        if (t->group)
            return fail_at(ctx, n, "table %s has both group (solo) and sharding; choose one", t->name);
        return parse_sharding(ctx, sharding, t);
    }
    if (!t->group)
        return fail_at(ctx, n, "table %s needs sharding or a group (solo table)", t->name);
    t->method = GCCTL_SOLO;
    return true;
}

static bool parse_root(parse_ctx *ctx, yaml_node_t *root, gcctl_spec *spec)
{
    if (!expect_mapping(ctx, root, "the spec"))
        return false;
    yaml_node_t *k, *v;
    FOR_EACH_PAIR(ctx, root, k, v) {
        const char *key = k->type == YAML_SCALAR_NODE ? scalar_text(k) : "";
        if (strcmp(key, "cluster") == 0) {
            if (!get_string(ctx, v, "cluster", &spec->cluster)) return false;
        } else if (strcmp(key, "database") == 0) {
            if (!get_string(ctx, v, "database", &spec->database)) return false;
        } else if (strcmp(key, "user") == 0) {
            if (!get_string(ctx, v, "user", &spec->user)) return false;
        } else if (strcmp(key, "password") == 0) {
            if (!get_string(ctx, v, "password", &spec->password)) return false;
        } else if (strcmp(key, "admin") == 0) {
            if (!get_string(ctx, v, "admin", &spec->admin)) return false;
        } else if (strcmp(key, "superuser") == 0) {
            if (!get_string(ctx, v, "superuser", &spec->superuser)) return false;
        } else if (strcmp(key, "superuser_password") == 0) {
            if (!get_string(ctx, v, "superuser_password", &spec->superuser_password)) return false;
        } else if (strcmp(key, "replication") == 0) {
            /* The value is checked by gcctl_spec_check, which knows the modes. */
            if (!get_string(ctx, v, "replication", &spec->replication_text)) return false;
            spec->replication_pos = node_pos(v);
        } else if (strcmp(key, "ha") == 0) {
            if (!get_bool(ctx, v, "ha", &spec->ha)) return false;
        } else if (strcmp(key, "members") == 0) {
            if (v->type != YAML_SEQUENCE_NODE)
                return fail_at(ctx, v, "members must be a list");
            size_t count = (size_t)(v->data.sequence.items.top - v->data.sequence.items.start);
            spec->members = gcctl_xcalloc(count ? count : 1, sizeof *spec->members);
            spec->nmembers = count;
            for (size_t i = 0; i < count; i++)
                if (!parse_member(ctx, node_at(ctx, v->data.sequence.items.start[i]), &spec->members[i]))
                    return false;
        } else if (strcmp(key, "tables") == 0) {
            if (v->type != YAML_SEQUENCE_NODE)
                return fail_at(ctx, v, "tables must be a list");
            size_t count = (size_t)(v->data.sequence.items.top - v->data.sequence.items.start);
            spec->tables = gcctl_xcalloc(count ? count : 1, sizeof *spec->tables);
            spec->ntables = count;
            for (size_t i = 0; i < count; i++)
                if (!parse_table(ctx, node_at(ctx, v->data.sequence.items.start[i]), &spec->tables[i]))
                    return false;
        } else {
            return fail_at(ctx, k, "unknown key '%s' (expected cluster, database, user, password, admin, superuser, superuser_password, replication, ha, members, tables)", key);
        }
    }
    if (!spec->cluster) return fail_at(ctx, root, "the spec needs 'cluster' (the cluster name)");
    if (!spec->database) return fail_at(ctx, root, "the spec needs 'database'");
    if (!spec->user) return fail_at(ctx, root, "the spec needs 'user' (the application role)");
    if (!spec->password) return fail_at(ctx, root, "the spec needs 'password' (of the application role)");
    if (spec->nmembers == 0) return fail_at(ctx, root, "the spec needs 'members' (at least one)");
    return true;
}

/* Parses path into spec (zeroed first). On failure spec may hold partial data:
 * the caller still calls gcctl_spec_free. */
bool gcctl_spec_parse(const char *path, gcctl_spec *spec, gc_error *err)
{
    memset(spec, 0, sizeof *spec);
    spec->ha = true;   /* the default: groups with a standby fail over by themselves */
    spec->file = gcctl_xstrdup(path);
    char problem[256];
    size_t len = 0;
    char *text = gc_yaml_file_read(path, SPEC_MAX_BYTES, &len, problem, sizeof problem);
    if (!text) {
        gc_error_set(err, "HY000", 0, "%s: %s", path, problem);
        return false;
    }
    yaml_mark_t too_deep;
    if (!gc_yaml_depth_within(text, len, GC_YAML_MAX_DEPTH, &too_deep)) {
        gc_error_set(err, "HY000", 0, "%s:%d:%d: YAML error: nested deeper than %d levels", path,
                     (int)too_deep.line + 1, (int)too_deep.column + 1, GC_YAML_MAX_DEPTH);
        free(text);
        return false;
    }
    yaml_parser_t parser;
    parse_ctx ctx = { .file = path, .err = err };
    yaml_parser_initialize(&parser);
    yaml_parser_set_input_string(&parser, (const unsigned char *)text, len);
    bool ok = yaml_parser_load(&parser, &ctx.doc) != 0;
    if (!ok) {
        const yaml_mark_t *m = parser.problem ? &parser.problem_mark : &parser.context_mark;
        gc_error_set(err, "HY000", 0, "%s:%d:%d: YAML error: %s%s%s", path,
                     (int)m->line + 1, (int)m->column + 1,
                     parser.problem ? parser.problem : "unreadable",
                     parser.context ? " " : "", parser.context ? parser.context : "");
    } else {
        yaml_node_t *root = yaml_document_get_root_node(&ctx.doc);
        if (!root) {
            gc_error_set(err, "HY000", 0, "%s:1:1: the spec is empty", path);
            ok = false;
        } else {
            ok = parse_root(&ctx, root, spec);
        }
        yaml_document_delete(&ctx.doc);
    }
    yaml_parser_delete(&parser);
    free(text);
    return ok;
}

bool gcctl_spec_load(const char *path, gcctl_spec *spec, gc_error *err)
{
    return gcctl_spec_parse(path, spec, err) && gcctl_spec_check(spec, err);
}
