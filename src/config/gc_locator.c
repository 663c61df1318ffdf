/*
 * gc_locator: the locator file, read with libyaml's document loader (which
 * keeps the line and column of every node for error messages).
 */
#include "config/gc_locator.h"

#include <assert.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <yaml.h>

#include "config/gc_yaml_file.h"

/* A locator file is a few lines; anything this large is not one. */
#define LOCATOR_MAX_BYTES (4u * 1024u * 1024u)

/* What one parse needs to hand around. */
typedef struct locator_parse {
    yaml_document_t *doc;
    const char *source;
    gc_error *err;
} locator_parse;

static void fail_at(locator_parse *lp, yaml_mark_t mark, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Sets 08001 "locator SOURCE:LINE:COLUMN: message". */
static void fail_at(locator_parse *lp, yaml_mark_t mark, const char *fmt, ...)
{
    char what[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    gc_error_set(lp->err, "08001", 0, "locator %s:%zu:%zu: %s", lp->source,
                 (size_t)mark.line + 1, (size_t)mark.column + 1, what);
}

static bool scalar_is(const yaml_node_t *node, const char *text)
{
    return node->type == YAML_SCALAR_NODE &&
           node->data.scalar.length == strlen(text) &&
           memcmp(node->data.scalar.value, text, node->data.scalar.length) == 0;
}

/* A malloc'd copy of a scalar node's text; NULL (with err) when the node is
 * not a scalar, is empty, or memory ran out. */
static char *scalar_copy(locator_parse *lp, const yaml_node_t *node, const char *what)
{
    if (node->type != YAML_SCALAR_NODE || node->data.scalar.length == 0) {
        fail_at(lp, node->start_mark, "%s must be a non-empty plain value", what);
        return NULL;
    }
    size_t len = node->data.scalar.length;
    if (memchr(node->data.scalar.value, '\0', len) != NULL) {
        fail_at(lp, node->start_mark, "%s contains a NUL character", what);
        return NULL;
    }
    char *copy = malloc(len + 1);
    if (copy == NULL) {
        gc_error_set(lp->err, "HY001", 0, "out of memory reading locator %s", lp->source);
        return NULL;
    }
    memcpy(copy, node->data.scalar.value, len);
    copy[len] = '\0';
    return copy;
}

static bool parse_port(locator_parse *lp, const yaml_node_t *node, int *port)
{
    if (node->type == YAML_SCALAR_NODE && node->data.scalar.length > 0 &&
        node->data.scalar.length <= 5) {
        long value = 0;
        size_t i;
        for (i = 0; i < node->data.scalar.length; i++) {
            unsigned char c = node->data.scalar.value[i];
            if (c < '0' || c > '9')
                break;
            value = value * 10 + (c - '0');
        }
        if (i == node->data.scalar.length && value >= 1 && value <= 65535) {
            *port = (int)value;
            return true;
        }
    }
    fail_at(lp, node->start_mark, "port must be a number from 1 to 65535");
    return false;
}

/* Fills member from one item of the members sequence. */
static bool parse_member(locator_parse *lp, const yaml_node_t *item, size_t index,
                         gc_locator_member *member)
{
    if (item->type != YAML_MAPPING_NODE) {
        fail_at(lp, item->start_mark,
                "member %zu must be a mapping {name, group, host, port}", index + 1);
        return false;
    }
    bool have_port = false;
    for (yaml_node_pair_t *pair = item->data.mapping.pairs.start;
         pair < item->data.mapping.pairs.top; pair++) {
        yaml_node_t *key = yaml_document_get_node(lp->doc, pair->key);
        yaml_node_t *value = yaml_document_get_node(lp->doc, pair->value);
        assert(key != NULL && value != NULL);
        char **field = NULL;
        if (scalar_is(key, "name"))
            field = &member->name;
        else if (scalar_is(key, "group"))
            field = &member->group;
        else if (scalar_is(key, "host"))
            field = &member->host;
        if (field != NULL || scalar_is(key, "port")) {
            if ((field != NULL && *field != NULL) || (field == NULL && have_port)) {
                fail_at(lp, key->start_mark, "member %zu: duplicate key", index + 1);
                return false;
            }
        }
        if (field != NULL) {
            if ((*field = scalar_copy(lp, value, (const char *)key->data.scalar.value)) == NULL)
                return false;
        } else if (scalar_is(key, "port")) {
            if (!parse_port(lp, value, &member->port))
                return false;
            have_port = true;
        }
        /* other keys: written by a newer gcctl, not needed here */
    }
    const char *missing = member->name == NULL ? "name"
                        : member->group == NULL ? "group"
                        : member->host == NULL ? "host"
                        : !have_port ? "port" : NULL;
    if (missing != NULL) {
        fail_at(lp, item->start_mark, "member %zu has no '%s'", index + 1, missing);
        return false;
    }
    return true;
}

/* Fills locator->members from the members sequence node. */
static bool parse_members(locator_parse *lp, const yaml_node_t *node, gc_locator *locator)
{
    if (node->type != YAML_SEQUENCE_NODE) {
        fail_at(lp, node->start_mark, "'members' must be a list");
        return false;
    }
    size_t count = (size_t)(node->data.sequence.items.top - node->data.sequence.items.start);
    if (count == 0) {
        fail_at(lp, node->start_mark, "'members' lists no member");
        return false;
    }
    locator->members = calloc(count, sizeof *locator->members);
    if (locator->members == NULL) {
        gc_error_set(lp->err, "HY001", 0, "out of memory reading locator %s", lp->source);
        return false;
    }
    for (size_t i = 0; i < count; i++) {
        yaml_node_t *item = yaml_document_get_node(lp->doc, node->data.sequence.items.start[i]);
        assert(item != NULL);
        locator->member_count = i + 1;   /* so gc_locator_free sees it */
        if (!parse_member(lp, item, i, &locator->members[i]))
            return false;
        for (size_t j = 0; j < i; j++) {
            if (strcmp(locator->members[j].name, locator->members[i].name) == 0) {
                fail_at(lp, item->start_mark, "member name '%s' appears twice",
                        locator->members[i].name);
                return false;
            }
        }
    }
    return true;
}

static bool parse_root(locator_parse *lp, gc_locator *locator)
{
    yaml_node_t *root = yaml_document_get_root_node(lp->doc);
    if (root == NULL) {
        yaml_mark_t start = { 0, 0, 0 };
        fail_at(lp, start, "the file is empty; expected 'cluster' and 'members'");
        return false;
    }
    if (root->type != YAML_MAPPING_NODE) {
        fail_at(lp, root->start_mark, "expected a mapping with 'cluster' and 'members'");
        return false;
    }
    const yaml_node_t *members = NULL;
    for (yaml_node_pair_t *pair = root->data.mapping.pairs.start;
         pair < root->data.mapping.pairs.top; pair++) {
        yaml_node_t *key = yaml_document_get_node(lp->doc, pair->key);
        yaml_node_t *value = yaml_document_get_node(lp->doc, pair->value);
        assert(key != NULL && value != NULL);
        if (scalar_is(key, "cluster")) {
            free(locator->cluster);
            if ((locator->cluster = scalar_copy(lp, value, "cluster")) == NULL)
                return false;
        } else if (scalar_is(key, "members")) {
            members = value;
        }
    }
    if (members == NULL) {
        fail_at(lp, root->start_mark, "no 'members' list");
        return false;
    }
    return parse_members(lp, members, locator);
}

gc_locator *gc_locator_parse(const char *text, size_t len, const char *source,
                             gc_error *err)
{
    assert(text != NULL || len == 0);
    gc_locator *locator = calloc(1, sizeof *locator);
    if (locator == NULL) {
        gc_error_set(err, "HY001", 0, "out of memory reading locator %s", source);
        return NULL;
    }
    yaml_parser_t parser;
    yaml_document_t doc;
    if (!yaml_parser_initialize(&parser)) {
        free(locator);
        gc_error_set(err, "HY001", 0, "out of memory reading locator %s", source);
        return NULL;
    }
    const char *input = text ? text : "";
    yaml_parser_set_input_string(&parser, (const unsigned char *)input, len);
    locator_parse lp = { .doc = &doc, .source = source, .err = err };
    yaml_mark_t too_deep;
    bool ok = gc_yaml_depth_within(input, len, GC_YAML_MAX_DEPTH, &too_deep);
    if (!ok) {
        fail_at(&lp, too_deep, "nested deeper than %d levels; a locator is 3 deep", GC_YAML_MAX_DEPTH);
    } else if (yaml_parser_load(&parser, &doc) == 0) {
        ok = false;
        fail_at(&lp, parser.problem_mark, "%s%s%s",
                parser.problem ? parser.problem : "YAML syntax error",
                parser.context ? " " : "", parser.context ? parser.context : "");
    } else {
        ok = parse_root(&lp, locator);
        yaml_document_delete(&doc);
    }
    yaml_parser_delete(&parser);
    if (!ok) {
        gc_locator_free(locator);
        return NULL;
    }
    return locator;
}

gc_locator *gc_locator_load(const char *path, gc_error *err)
{
    assert(path != NULL);
    char problem[256];
    size_t len = 0;
    char *text = gc_yaml_file_read(path, LOCATOR_MAX_BYTES, &len, problem, sizeof problem);
    if (text == NULL) {
        gc_error_set(err, "08001", 0, "locator %s: %s", path, problem);
        return NULL;
    }
    gc_locator *locator = gc_locator_parse(text, len, path, err);
    free(text);
    return locator;
}

void gc_locator_free(gc_locator *locator)
{
    if (locator == NULL)
        return;
    for (size_t i = 0; i < locator->member_count; i++) {
        free(locator->members[i].name);
        free(locator->members[i].group);
        free(locator->members[i].host);
    }
    free(locator->members);
    free(locator->cluster);
    free(locator);
}
