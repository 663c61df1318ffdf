/* Partition bounds from pg_get_expr text, and choosing a partition (see header). */
#include "placement/gc_shardmap_bound.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "placement/gc_pghash.h"
#include "sql/gc_sql_lexer.h"

/* One item of a bound's value list, before it is typed. */
typedef struct bound_item {
    enum { ITEM_VALUE, ITEM_NULL, ITEM_MINVALUE, ITEM_MAXVALUE } kind;
    char *text;     /* ITEM_VALUE: the literal's value (heap) */
} bound_item;

static bool next(gc_sql_lexer *lx, gc_sql_token *tok)
{
    return gc_sql_lexer_next_code(lx, tok) && !tok->unterminated;
}

/* The value of a string literal token ('..' with '' doubled, or E'..' with
 * backslash escapes as pg_get_expr writes them). Heap; NULL when malformed. */
static char *string_value(const gc_sql_lexer *lx, const gc_sql_token *tok)
{
    const char *s = gc_sql_token_text(lx, tok);
    size_t n = tok->length, i = 0;
    bool escapes = tok->kind == GC_SQL_TOK_ESCAPE_STRING;
    if (tok->kind != GC_SQL_TOK_STRING && !escapes)
        return NULL;
    if (escapes)
        i = 1;
    char *out = malloc(n + 1);
    size_t o = 0;
    if (!out)
        return NULL;
    for (i++; i + 1 < n; i++) {
        if (s[i] == '\'' && s[i + 1] == '\'') {
            out[o++] = '\'';
            i++;
        } else if (escapes && s[i] == '\\' && i + 2 < n) {
            out[o++] = s[++i];      /* \\ and \' : the only escapes it writes */
        } else {
            out[o++] = s[i];
        }
    }
    out[o] = '\0';
    return out;
}

/* Skips a '::type' cast after a literal: tokens up to the ',' or ')' that
 * ends the item (parentheses of a type modifier nested). */
static bool skip_cast(gc_sql_lexer *lx)
{
    gc_sql_lexer look = *lx;
    gc_sql_token tok;
    if (!next(&look, &tok) || !gc_sql_token_is_operator(&look, &tok, "::"))
        return true;
    *lx = look;
    int depth = 0;
    for (;;) {
        look = *lx;
        if (!next(&look, &tok))
            return false;
        if (depth == 0 && (gc_sql_token_is_punct(&look, &tok, ',') ||
                           gc_sql_token_is_punct(&look, &tok, ')')))
            return true;
        if (gc_sql_token_is_punct(&look, &tok, '('))
            depth++;
        else if (gc_sql_token_is_punct(&look, &tok, ')'))
            depth--;
        *lx = look;
    }
}

static void free_items(bound_item *items, int n)
{
    for (int i = 0; i < n; i++)
        free(items[i].text);
    free(items);
}

/* Reads "( item, item, ... )" into a new array; *n gets the count. */
static bool read_items(gc_sql_lexer *lx, bound_item **out, int *n)
{
    gc_sql_token tok;
    bound_item *items = NULL;
    int count = 0, slots = 0;   /* items filled, items initialized */
    if (!next(lx, &tok) || !gc_sql_token_is_punct(lx, &tok, '('))
        return false;
    for (;;) {
        bound_item *grown = realloc(items, sizeof *items * (size_t)(count + 1));
        if (!grown)
            goto bad;
        items = grown;
        bound_item *it = &items[count];
        memset(it, 0, sizeof *it);
        slots = count + 1;
        if (!next(lx, &tok))
            goto bad;
        bool negative = false;
        if (gc_sql_token_is_operator(lx, &tok, "-")) {
            negative = true;
            if (!next(lx, &tok) || tok.kind != GC_SQL_TOK_NUMBER)
                goto bad;
        }
        if (tok.kind == GC_SQL_TOK_NUMBER) {
            it->kind = ITEM_VALUE;
            it->text = malloc(tok.length + 2);
            if (!it->text)
                goto bad;
            size_t at = 0;
            if (negative)
                it->text[at++] = '-';
            memcpy(it->text + at, gc_sql_token_text(lx, &tok), tok.length);
            it->text[at + tok.length] = '\0';
        } else if (gc_sql_token_is_string(&tok)) {
            it->kind = ITEM_VALUE;
            if (!(it->text = string_value(lx, &tok)))
                goto bad;
        } else if (gc_sql_token_is_keyword(lx, &tok, "null")) {
            it->kind = ITEM_NULL;
        } else if (gc_sql_token_is_keyword(lx, &tok, "minvalue")) {
            it->kind = ITEM_MINVALUE;
        } else if (gc_sql_token_is_keyword(lx, &tok, "maxvalue")) {
            it->kind = ITEM_MAXVALUE;
        } else if (gc_sql_token_is_keyword(lx, &tok, "true") ||
                   gc_sql_token_is_keyword(lx, &tok, "false")) {
            it->kind = ITEM_VALUE;
            if (!(it->text = strdup(gc_sql_token_is_keyword(lx, &tok, "true") ? "true" : "false")))
                goto bad;
        } else {
            goto bad;
        }
        count++;
        if (!skip_cast(lx) || !next(lx, &tok))
            goto bad;
        if (gc_sql_token_is_punct(lx, &tok, ')'))
            break;
        if (!gc_sql_token_is_punct(lx, &tok, ','))
            goto bad;
    }
    *out = items;
    *n = count;
    return true;
bad:
    free_items(items, slots);
    return false;
}

/* Types the items of a range bound row into datums. */
static bool range_row(const bound_item *items, int n, const gc_keytype *types,
                      gc_range_datum *out, const char **why)
{
    for (int i = 0; i < n; i++) {
        if (items[i].kind == ITEM_MINVALUE) {
            out[i].kind = GC_RANGE_MINVALUE;
        } else if (items[i].kind == ITEM_MAXVALUE) {
            out[i].kind = GC_RANGE_MAXVALUE;
        } else if (items[i].kind == ITEM_VALUE) {
            out[i].kind = GC_RANGE_VALUE;
            if (!gc_keyval_parse(types[i], -1, items[i].text, strlen(items[i].text),
                                 &out[i].value, why) ||
                !gc_keyval_own(&out[i].value))
                return false;
        } else {
            *why = "NULL in a range bound";
            return false;
        }
    }
    return true;
}

static bool read_uint_after(gc_sql_lexer *lx, const char *word, uint64_t *v)
{
    gc_sql_token tok;
    if (!next(lx, &tok) || !gc_sql_token_is_keyword(lx, &tok, word) || !next(lx, &tok) ||
        tok.kind != GC_SQL_TOK_NUMBER)
        return false;
    char *end;
    char buf[32];
    if (tok.length >= sizeof buf)
        return false;
    memcpy(buf, gc_sql_token_text(lx, &tok), tok.length);
    buf[tok.length] = '\0';
    *v = strtoull(buf, &end, 10);
    return *end == '\0';
}

/* Parses one bound (see header). */
bool gc_part_bound_parse(const char *text, const gc_keytype *types, int nkeys,
                         gc_part_bound *out, const char **why)
{
    gc_sql_lexer lx;
    gc_sql_token tok;
    bound_item *lo = NULL, *hi = NULL;
    int nlo = 0, nhi = 0;
    memset(out, 0, sizeof *out);
    *why = "partition bound not understood";
    gc_sql_lexer_init(&lx, text, strlen(text));
    if (!next(&lx, &tok))
        return false;
    if (gc_sql_token_is_keyword(&lx, &tok, "default")) {
        out->kind = GC_BOUND_DEFAULT;
        return !next(&lx, &tok);
    }
    if (!gc_sql_token_is_keyword(&lx, &tok, "for") || !next(&lx, &tok) ||
        !gc_sql_token_is_keyword(&lx, &tok, "values") || !next(&lx, &tok))
        return false;
    if (gc_sql_token_is_keyword(&lx, &tok, "with")) {
        out->kind = GC_BOUND_HASH;
        if (!next(&lx, &tok) || !gc_sql_token_is_punct(&lx, &tok, '(') ||
            !read_uint_after(&lx, "modulus", &out->modulus) || !next(&lx, &tok) ||
            !gc_sql_token_is_punct(&lx, &tok, ',') ||
            !read_uint_after(&lx, "remainder", &out->remainder) || !next(&lx, &tok) ||
            !gc_sql_token_is_punct(&lx, &tok, ')') || out->modulus == 0)
            return false;
        return !next(&lx, &tok);
    }
    if (gc_sql_token_is_keyword(&lx, &tok, "in")) {
        out->kind = GC_BOUND_LIST;
        if (nkeys != 1 || !read_items(&lx, &lo, &nlo))
            return false;
        out->values = calloc((size_t)nlo, sizeof *out->values);
        bool ok = out->values != NULL && !next(&lx, &tok);
        for (int i = 0; ok && i < nlo; i++) {
            if (lo[i].kind == ITEM_NULL) {
                out->has_null = true;
            } else if (lo[i].kind != ITEM_VALUE) {
                ok = false;
            } else {
                gc_keyval *v = &out->values[out->nvalues];
                ok = gc_keyval_parse(types[0], -1, lo[i].text, strlen(lo[i].text), v, why) &&
                     gc_keyval_own(v);
                out->nvalues += ok;
            }
        }
        free_items(lo, nlo);
        if (!ok)
            gc_part_bound_free(out);
        return ok;
    }
    if (!gc_sql_token_is_keyword(&lx, &tok, "from"))
        return false;
    out->kind = GC_BOUND_RANGE;
    bool ok = read_items(&lx, &lo, &nlo) && next(&lx, &tok) &&
              gc_sql_token_is_keyword(&lx, &tok, "to") && read_items(&lx, &hi, &nhi) &&
              !next(&lx, &tok) && nlo == nkeys && nhi == nkeys;
    if (ok) {
        out->ncols = nkeys;
        out->lower = calloc((size_t)nkeys, sizeof *out->lower);
        out->upper = calloc((size_t)nkeys, sizeof *out->upper);
        ok = out->lower && out->upper && range_row(lo, nlo, types, out->lower, why) &&
             range_row(hi, nhi, types, out->upper, why);
    }
    if (lo)
        free_items(lo, nlo);
    if (hi)
        free_items(hi, nhi);
    if (!ok)
        gc_part_bound_free(out);
    return ok;
}

void gc_part_bound_free(gc_part_bound *b)
{
    for (int i = 0; i < b->ncols; i++) {
        if (b->lower)
            gc_keyval_free(&b->lower[i].value);
        if (b->upper)
            gc_keyval_free(&b->upper[i].value);
    }
    for (int i = 0; i < b->nvalues; i++)
        gc_keyval_free(&b->values[i]);
    free(b->lower);
    free(b->upper);
    free(b->values);
    memset(b, 0, sizeof *b);
}

/* Row-wise comparison of a key with a range bound (see header). */
int gc_range_compare_key(const gc_range_datum *bound, const gc_keyval *key, int n)
{
    for (int i = 0; i < n; i++) {
        if (bound[i].kind == GC_RANGE_MINVALUE)
            return 1;
        if (bound[i].kind == GC_RANGE_MAXVALUE)
            return -1;
        int c = gc_keyval_compare(&key[i], &bound[i].value);
        if (c != 0)
            return c;
    }
    return 0;
}

static int default_or_none(const gc_part_bound *bounds, int nparts, const char **why)
{
    for (int i = 0; i < nparts; i++)
        if (bounds[i].kind == GC_BOUND_DEFAULT)
            return i;
    *why = "no partition takes the key (the server would refuse the row)";
    return -1;
}

bool gc_hash_slots_build(const gc_part_bound *bounds, int nparts, gc_hash_slots *slots)
{
    slots->modulus = 0;
    slots->slot = NULL;
    uint64_t greatest = 0;
    for (int i = 0; i < nparts; i++) {
        if (bounds[i].kind != GC_BOUND_HASH || bounds[i].modulus == 0)
            return true;
        if (bounds[i].modulus > greatest)
            greatest = bounds[i].modulus;
    }
    if (greatest == 0 || greatest > GC_HASH_SLOTS_MAX)
        return true;
    for (int i = 0; i < nparts; i++)
        if (greatest % bounds[i].modulus != 0)
            return true;
    int *slot = malloc((size_t)greatest * sizeof *slot);
    if (slot == NULL)
        return false;
    for (uint64_t r = 0; r < greatest; r++)
        slot[r] = -1;
    for (int i = 0; i < nparts; i++)
        for (uint64_t r = bounds[i].remainder; r < greatest; r += bounds[i].modulus)
            if (slot[r] < 0)
                slot[r] = i;
    slots->modulus = greatest;
    slots->slot = slot;
    return true;
}

void gc_hash_slots_free(gc_hash_slots *slots)
{
    free(slots->slot);
    slots->slot = NULL;
    slots->modulus = 0;
}

/* Chooses the partition of a key (see header). */
int gc_part_choose(char strategy, const gc_part_bound *bounds, int nparts,
                   const gc_keyval *key, int nkeys, const char **why)
{
    return gc_part_choose_slotted(strategy, bounds, nparts, NULL, key, nkeys, why);
}

int gc_part_choose_slotted(char strategy, const gc_part_bound *bounds, int nparts,
                           const gc_hash_slots *slots, const gc_keyval *key, int nkeys,
                           const char **why)
{
    if (strategy == 'h') {
        uint64_t hashes[32];
        bool nulls[32];
        if (nkeys > 32) {
            *why = "too many key columns";
            return -1;
        }
        for (int i = 0; i < nkeys; i++) {
            nulls[i] = key[i].is_null;
            hashes[i] = 0;
            if (!nulls[i] && !gc_keyval_hash(&key[i], GC_PGHASH_PARTITION_SEED, &hashes[i])) {
                *why = "key value cannot be hashed";
                return -1;
            }
        }
        uint64_t row = gc_pghash_row(hashes, nulls, (size_t)nkeys);
        if (slots != NULL && slots->modulus > 0) {
            int i = slots->slot[row % slots->modulus];
            if (i >= 0)
                return i;
            *why = "no hash partition takes the key (the server would refuse the row)";
            return -1;
        }
        for (int i = 0; i < nparts; i++)
            if (bounds[i].kind == GC_BOUND_HASH &&
                gc_pghash_in_partition(row, bounds[i].modulus, bounds[i].remainder))
                return i;
        *why = "no hash partition takes the key (the server would refuse the row)";
        return -1;
    }
    if (strategy == 'l') {
        assert(nkeys == 1);
        for (int i = 0; i < nparts; i++) {
            if (bounds[i].kind != GC_BOUND_LIST)
                continue;
            if (key[0].is_null) {
                if (bounds[i].has_null)
                    return i;
                continue;
            }
            for (int v = 0; v < bounds[i].nvalues; v++)
                if (gc_keyval_compare(&key[0], &bounds[i].values[v]) == 0)
                    return i;
        }
        return default_or_none(bounds, nparts, why);
    }
    assert(strategy == 'r');
    for (int i = 0; i < nkeys; i++)
        if (key[i].is_null)     /* a range partition never holds NULL */
            return default_or_none(bounds, nparts, why);
    for (int i = 0; i < nparts; i++) {
        const gc_part_bound *b = &bounds[i];
        if (b->kind == GC_BOUND_RANGE && b->ncols == nkeys &&
            gc_range_compare_key(b->lower, key, nkeys) >= 0 &&
            gc_range_compare_key(b->upper, key, nkeys) < 0)
            return i;
    }
    return default_or_none(bounds, nparts, why);
}
