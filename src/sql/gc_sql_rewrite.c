/*
 * The rewriter: one pass over the lexer's tokens. Text between tokens
 * (whitespace) and every token it does not change are copied as they are;
 * markers and escapes are replaced. Escapes nest, so an escape's body and a
 * function's arguments are rewritten recursively into their own buffers and
 * then assembled (the function table may reorder arguments).
 *
 * `pos` tracks how far the source has been accounted for: copied into the
 * output or deliberately dropped (the braces and keywords of an escape, and
 * the whitespace around escape arguments).
 */
#include "sql/gc_sql_rewrite.h"

#include <assert.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sql/gc_sql_escape_fn.h"
#include "sql/gc_sql_lexer.h"
#include "util/gc_strbuf.h"

/* Escapes nest by recursion; the bound keeps hostile input off the stack. */
#define MAX_ESCAPE_DEPTH 64

/* Where rewrite_until stops (at nesting depth 0, the stop token unconsumed). */
enum {
    STOP_AT_END = 0,
    STOP_RBRACE = 1 << 0,
    STOP_COMMA = 1 << 1,
    STOP_RPAREN = 1 << 2,
};

typedef struct rewriter {
    const char *sql;
    size_t len;
    unsigned flags;
    gc_sql_lexer lx;
    gc_sql_token la;          /* lookahead token, valid when have_la */
    bool have_la;
    size_t pos;               /* source before this offset is accounted for */
    unsigned markers;
    unsigned max_positional;
    unsigned escape_depth;
    unsigned top_escapes;     /* escapes at the top level of the text */
    bool top_call;            /* one of them is {call} or {?= call} */
    bool return_value;        /* ... written {?= call}: its marker is the result */
    bool separate_next;       /* last output was generated: keep a following word apart */
    bool after_operand;       /* the last code token ends an operand (a word, a value, ')') */
    gc_error *err;
} rewriter;

static bool failed(const rewriter *rw)
{
    return gc_error_is_set(rw->err);
}

/* Bytes that would merge with a neighbour into one identifier, number or
 * parameter ($1 followed by 2 would read as $12). */
static bool is_word_byte(unsigned char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           c == '_' || c == '$' || c >= 0x80;
}

/* Bytes that would merge with a neighbour into one operator, or a comment. */
static bool is_symbol_byte(unsigned char c)
{
    return c != '\0' && strchr("~!@#^&|`?+-*/%<>=:.", c) != NULL;
}

/* True when generated text must not touch the text before it: two words
 * would become one, two symbols one operator ("-" and "-" a comment), a
 * word and a quote a prefixed string (x'1f'), two quotes one string. */
static bool needs_space(unsigned char before, unsigned char after)
{
    if (is_word_byte(before))
        return is_word_byte(after) || after == '\'' || after == '"';
    if (is_symbol_byte(before))
        return is_symbol_byte(after);
    return (before == '\'' || before == '"') && after == before;
}

static void syntax_error(rewriter *rw, size_t offset, const char *what)
{
    gc_error_set(rw->err, "42000", 0,
                 "syntax error in ODBC escape sequence at offset %zu: %s", offset, what);
}

static void unterminated_escape(rewriter *rw, size_t start)
{
    gc_error_set(rw->err, "42000", 0,
                 "syntax error in ODBC escape sequence at offset %zu: "
                 "unterminated escape (no closing '}')", start);
}

/* The next token without consuming it; false at the end of the text or on
 * an unterminated token (then err is set, 42601). */
static bool peek(rewriter *rw, gc_sql_token *tok)
{
    if (!rw->have_la) {
        if (!gc_sql_lexer_next(&rw->lx, &rw->la))
            return false;
        if (rw->la.unterminated) {
            gc_error_set(rw->err, "42601", 0, "unterminated %s starting at offset %zu",
                         gc_sql_token_kind_name(rw->la.kind), rw->la.offset);
            return false;
        }
        rw->have_la = true;
    }
    *tok = rw->la;
    return true;
}

static void consume(rewriter *rw)
{
    assert(rw->have_la);
    rw->have_la = false;
}

/* Consumes a token without output (escape syntax, comments inside it). */
static void drop(rewriter *rw, const gc_sql_token *tok)
{
    consume(rw);
    rw->pos = tok->offset + tok->length;
}

/* Like peek, but drops comments: inside an escape's syntax they carry nothing. */
static bool peek_code(rewriter *rw, gc_sql_token *tok)
{
    while (peek(rw, tok)) {
        if (!gc_sql_token_is_comment(tok))
            return true;
        drop(rw, tok);
    }
    return false;
}

static void emit_gap(rewriter *rw, gc_strbuf *sb, size_t upto)
{
    assert(upto >= rw->pos && upto <= rw->len);
    gc_strbuf_append(sb, rw->sql + rw->pos, upto - rw->pos);
    rw->pos = upto;
}

/* Appends generated text, with a space first when it would otherwise merge
 * with the word the output ends in. */
static void append_separated(gc_strbuf *sb, const char *text, size_t n)
{
    if (n > 0 && sb->len > 0 &&
        needs_space((unsigned char)sb->data[sb->len - 1], (unsigned char)text[0]))
        gc_strbuf_append_char(sb, ' ');
    gc_strbuf_append(sb, text, n);
}

/* Appends a consumed token as the output has it: markers numbered, a line
 * comment with its newline (so trimming that follows cannot join it to the
 * next line), everything else as written. */
static bool emit_token(rewriter *rw, gc_strbuf *sb, const gc_sql_token *tok)
{
    const char *text = rw->sql + tok->offset;
    size_t end = tok->offset + tok->length;
    bool separate = rw->separate_next;

    rw->separate_next = false;
    if (tok->kind == GC_SQL_TOK_PARAM_MARKER) {
        if (rw->markers == UINT_MAX) {
            gc_error_set(rw->err, "54000", 0, "too many parameter markers");
            return false;
        }
        rw->markers++;
        if (rw->flags & GC_SQL_MARKERS_TO_DOLLAR) {
            char num[16];
            int n = snprintf(num, sizeof num, "$%u", rw->markers);
            append_separated(sb, num, (size_t)n);
            rw->separate_next = true;
        } else {
            gc_strbuf_append_char(sb, '?');
        }
    } else if (separate) {
        append_separated(sb, text, tok->length);
    } else {
        gc_strbuf_append(sb, text, tok->length);
    }

    if (tok->kind == GC_SQL_TOK_POSITIONAL_PARAM) {
        unsigned long n = gc_sql_token_param_number(&rw->lx, tok);
        if (n > rw->max_positional)
            rw->max_positional = n > UINT_MAX ? UINT_MAX : (unsigned)n;
    } else if (tok->kind == GC_SQL_TOK_LINE_COMMENT && end < rw->len &&
               (rw->sql[end] == '\n' || rw->sql[end] == '\r')) {
        gc_strbuf_append_char(sb, rw->sql[end]);
        end++;
    }
    rw->pos = end;
    return true;
}

static bool rewrite_escape(rewriter *rw, gc_strbuf *sb);

/* Whether a token ends an operand, so that an operator after it is binary:
 * a word other than a keyword that starts a list, a value, or ')' / ']'. */
static bool ends_operand(const rewriter *rw, const gc_sql_token *tok)
{
    switch (tok->kind) {
    case GC_SQL_TOK_IDENT:
        return !gc_sql_token_is_keyword(&rw->lx, tok, "select") &&
               !gc_sql_token_is_keyword(&rw->lx, tok, "returning");
    case GC_SQL_TOK_OPERATOR:
    case GC_SQL_TOK_OTHER:
        return false;
    case GC_SQL_TOK_PUNCT:
        return gc_sql_token_is_punct(&rw->lx, tok, ')') ||
               gc_sql_token_is_punct(&rw->lx, tok, ']');
    default:
        return true;
    }
}

/* SQL Server's @@IDENTITY, which psqlODBC translates, where it stands as a
 * value (after SELECT, a comma or '(', not after an operand, where `@@` is
 * PostgreSQL's text-search match): written `@@identity` in any case, it
 * becomes lastval(), the value the session's last nextval() gave, which is
 * the key a serial or identity column just received. Consumes both tokens
 * and returns true when it rewrote them. */
static bool rewrite_identity(rewriter *rw, gc_strbuf *sb, const gc_sql_token *tok)
{
    if (rw->after_operand || !gc_sql_token_is_operator(&rw->lx, tok, "@@"))
        return false;
    gc_sql_lexer ahead = rw->lx;   /* rw->lx stands after the lookahead `tok` */
    gc_sql_token name;
    if (!gc_sql_lexer_next(&ahead, &name) || name.offset != tok->offset + tok->length ||
        !gc_sql_token_is_keyword(&ahead, &name, "identity"))
        return false;
    consume(rw);
    rw->lx = ahead;
    append_separated(sb, "lastval()", strlen("lastval()"));
    rw->pos = name.offset + name.length;
    rw->after_operand = true;
    return true;
}

/* Rewrites tokens into sb until one of `stops` at bracket depth 0 (left
 * unconsumed, *stop set, *stopped true) or the end of the text (*stopped
 * false; at STOP_AT_END the trailing whitespace is copied too). With
 * trim_leading the whitespace before the first token is dropped; the
 * whitespace before the stop token is always left out. */
static bool rewrite_until(rewriter *rw, gc_strbuf *sb, unsigned stops, bool trim_leading,
                          gc_sql_token *stop, bool *stopped)
{
    size_t depth = 0;
    bool first = true;
    bool escapes = (rw->flags & GC_SQL_TRANSLATE_ESCAPES) != 0;
    gc_sql_token tok;

    *stopped = false;
    for (;;) {
        if (!peek(rw, &tok)) {
            if (failed(rw))
                return false;
            if (stops == STOP_AT_END)
                emit_gap(rw, sb, rw->len);
            return true;
        }
        if (tok.kind == GC_SQL_TOK_PUNCT) {
            char c = rw->sql[tok.offset];
            bool is_stop = ((stops & STOP_COMMA) && c == ',') ||
                           ((stops & STOP_RPAREN) && c == ')') ||
                           ((stops & STOP_RBRACE) && c == '}');
            if (depth == 0 && is_stop) {
                *stop = tok;
                *stopped = true;
                return true;
            }
            if (escapes && c == '}') {
                syntax_error(rw, tok.offset, "'}' without a matching '{'");
                return false;
            }
            if (c == '(' || c == '[')
                depth++;
            else if ((c == ')' || c == ']') && depth > 0)
                depth--;
        }
        if (first && trim_leading)
            rw->pos = tok.offset;
        else
            emit_gap(rw, sb, tok.offset);
        first = false;
        if (escapes && gc_sql_token_is_punct(&rw->lx, &tok, '{')) {
            if (!rewrite_escape(rw, sb))
                return false;
            continue;
        }
        if (escapes && rewrite_identity(rw, sb, &tok))
            continue;
        consume(rw);
        if (!gc_sql_token_is_comment(&tok))
            rw->after_operand = ends_operand(rw, &tok);
        if (!emit_token(rw, sb, &tok))
            return false;
    }
}

/* Rewrites up to the escape's closing brace (left unconsumed) into body. */
static bool rewrite_body(rewriter *rw, gc_strbuf *body, size_t start)
{
    gc_sql_token stop;
    bool stopped;
    if (!rewrite_until(rw, body, STOP_RBRACE, true, &stop, &stopped))
        return false;
    if (!stopped) {
        unterminated_escape(rw, start);
        return false;
    }
    return true;
}

/* {d '...'}, {t '...'}, {ts '...'}, {guid '...'}, {escape '...'}: one string
 * literal, wrapped in before/after. */
static bool rewrite_literal_escape(rewriter *rw, gc_strbuf *rep, size_t start,
                                   const char *before, const char *after)
{
    gc_sql_token tok;
    if (!peek_code(rw, &tok)) {
        if (!failed(rw))
            unterminated_escape(rw, start);
        return false;
    }
    if (tok.kind != GC_SQL_TOK_STRING) {
        syntax_error(rw, tok.offset, "expected a quoted literal");
        return false;
    }
    drop(rw, &tok);
    gc_strbuf_append_str(rep, before);
    gc_strbuf_append(rep, rw->sql + tok.offset, tok.length);
    gc_strbuf_append_str(rep, after);
    return true;
}

/* {interval [+|-] 'literal' qualifier}: PostgreSQL takes no sign before the
 * literal, so a minus negates the whole interval. */
static bool rewrite_interval_escape(rewriter *rw, gc_strbuf *rep, size_t start)
{
    gc_sql_token tok;
    bool negate = false;
    if (peek_code(rw, &tok) &&
        (gc_sql_token_is_operator(&rw->lx, &tok, "-") || gc_sql_token_is_operator(&rw->lx, &tok, "+"))) {
        negate = rw->sql[tok.offset] == '-';
        drop(rw, &tok);
    }
    if (failed(rw))
        return false;
    gc_strbuf_append_str(rep, negate ? "(-INTERVAL " : "INTERVAL ");
    if (!rewrite_body(rw, rep, start))
        return false;
    if (negate)
        gc_strbuf_append_char(rep, ')');
    return true;
}

/* {call name[(args)]} -> SELECT * FROM name(args). The statement layer
 * makes it CALL for a procedure and leaves out output arguments
 * (docs/statements.md, "Output parameters"). */
static bool rewrite_call_escape(rewriter *rw, gc_strbuf *rep, size_t start)
{
    gc_sql_token tok;
    if (rw->escape_depth == 1)
        rw->top_call = true;
    gc_strbuf_append_str(rep, "SELECT * FROM ");
    size_t name_start = rep->len;
    while (peek_code(rw, &tok) &&
           (tok.kind == GC_SQL_TOK_IDENT || tok.kind == GC_SQL_TOK_QUOTED_IDENT ||
            tok.kind == GC_SQL_TOK_UNICODE_IDENT || gc_sql_token_is_punct(&rw->lx, &tok, '.'))) {
        drop(rw, &tok);
        gc_strbuf_append(rep, rw->sql + tok.offset, tok.length);
    }
    if (failed(rw))
        return false;
    if (rep->len == name_start) {
        if (rw->have_la)
            syntax_error(rw, rw->la.offset, "expected a procedure name after call");
        else
            unterminated_escape(rw, start);
        return false;
    }
    if (rw->have_la && gc_sql_token_is_punct(&rw->lx, &rw->la, '('))
        return rewrite_body(rw, rep, start);
    gc_strbuf_append_str(rep, "()");
    return true;
}

/* An argument list under construction. */
typedef struct arg_list {
    gc_strbuf *items;
    size_t count;
    size_t cap;
} arg_list;

static void arg_list_free(arg_list *args)
{
    for (size_t i = 0; i < args->count; i++)
        gc_strbuf_free(&args->items[i]);
    free(args->items);
}

/* A new empty argument at the end of the list; NULL when memory runs out. */
static gc_strbuf *arg_list_push(arg_list *args)
{
    if (args->count == args->cap) {
        size_t cap = args->cap ? args->cap * 2 : 4;
        gc_strbuf *items = realloc(args->items, cap * sizeof *items);
        if (items == NULL)
            return NULL;
        args->items = items;
        args->cap = cap;
    }
    gc_strbuf *arg = &args->items[args->count++];
    gc_strbuf_init(arg);
    return arg;
}

/* After the '(' of {fn name(...)}: rewrites each argument into its own buffer
 * and consumes the closing ')'. "f()" has no arguments; an empty one
 * elsewhere ("f(a,)") is a syntax error. */
static bool rewrite_fn_args(rewriter *rw, arg_list *args, size_t start)
{
    for (;;) {
        gc_sql_token stop;
        bool stopped;
        gc_strbuf *arg = arg_list_push(args);
        if (arg == NULL) {
            gc_error_set(rw->err, "HY001", 0, "out of memory");
            return false;
        }
        if (!rewrite_until(rw, arg, STOP_COMMA | STOP_RPAREN, true, &stop, &stopped))
            return false;
        if (!stopped) {
            unterminated_escape(rw, start);
            return false;
        }
        drop(rw, &stop);
        bool closing = rw->sql[stop.offset] == ')';
        if (arg->len == 0) {
            if (closing && args->count == 1) {
                args->count = 0;   /* f() */
                return true;
            }
            syntax_error(rw, stop.offset, "empty function argument");
            return false;
        }
        if (closing)
            return true;
    }
}

/* {fn name(args)}: a mapped ODBC function, or the call as written. */
static bool rewrite_fn_escape(rewriter *rw, gc_strbuf *rep, size_t start)
{
    gc_sql_token tok;
    gc_strbuf name;
    arg_list args = {NULL, 0, 0};
    bool qualified = false, parens = false, ok = false;
    const char **texts = NULL;

    gc_strbuf_init(&name);
    while (peek_code(rw, &tok) &&
           (tok.kind == GC_SQL_TOK_IDENT || tok.kind == GC_SQL_TOK_QUOTED_IDENT ||
            tok.kind == GC_SQL_TOK_UNICODE_IDENT || gc_sql_token_is_punct(&rw->lx, &tok, '.'))) {
        qualified = qualified || name.len > 0 || tok.kind != GC_SQL_TOK_IDENT;
        drop(rw, &tok);
        gc_strbuf_append(&name, rw->sql + tok.offset, tok.length);
    }
    if (failed(rw))
        goto done;
    if (name.len == 0) {
        if (rw->have_la)
            syntax_error(rw, rw->la.offset, "expected a function name after fn");
        else
            unterminated_escape(rw, start);
        goto done;
    }
    if (rw->have_la && gc_sql_token_is_punct(&rw->lx, &rw->la, '(')) {
        drop(rw, &rw->la);
        parens = true;
        if (!rewrite_fn_args(rw, &args, start))
            goto done;
    }
    texts = calloc(args.count + 1, sizeof *texts);
    if (texts == NULL || name.failed) {
        gc_error_set(rw->err, "HY001", 0, "out of memory");
        goto done;
    }
    for (size_t i = 0; i < args.count; i++) {
        if (args.items[i].failed) {
            gc_error_set(rw->err, "HY001", 0, "out of memory");
            goto done;
        }
        texts[i] = args.items[i].data;
        assert(texts[i] != NULL);   /* empty arguments were refused */
    }
    gc_sql_fn_result r = GC_SQL_FN_UNKNOWN;
    if (!qualified)
        r = gc_sql_escape_function(name.data, name.len, texts, args.count, rep, rw->err);
    if (r == GC_SQL_FN_FAILED) {
        char detail[GC_ERROR_MESSAGE_MAX];
        snprintf(detail, sizeof detail, "%s", rw->err->message);
        gc_error_set(rw->err, "42000", 0, "%s (ODBC escape at offset %zu)", detail, start);
        goto done;
    }
    if (r == GC_SQL_FN_UNKNOWN) {
        gc_strbuf_append(rep, name.data, name.len);
        if (parens) {
            gc_strbuf_append_char(rep, '(');
            for (size_t i = 0; i < args.count; i++) {
                if (i > 0)
                    gc_strbuf_append_str(rep, ", ");
                gc_strbuf_append_str(rep, texts[i]);
            }
            gc_strbuf_append_char(rep, ')');
        }
    }
    ok = true;
done:
    free(texts);
    arg_list_free(&args);
    gc_strbuf_free(&name);
    return ok;
}

/* {?= call name[(args)]}: the marker is parameter 1, the function's
 * result; it is counted but not written (the call's row carries it). */
static bool rewrite_return_call(rewriter *rw, gc_strbuf *rep, size_t start,
                                const gc_sql_token *marker)
{
    gc_sql_token tok;
    drop(rw, marker);
    if (rw->markers == UINT_MAX) {
        gc_error_set(rw->err, "54000", 0, "too many parameter markers");
        return false;
    }
    rw->markers++;
    if (!peek_code(rw, &tok) || !gc_sql_token_is_operator(&rw->lx, &tok, "=")) {
        if (!failed(rw))
            syntax_error(rw, marker->offset, "expected '=' after the result marker");
        return false;
    }
    drop(rw, &tok);
    if (!peek_code(rw, &tok) || tok.kind != GC_SQL_TOK_IDENT ||
        !gc_sql_ascii_equal_ci(rw->sql + tok.offset, tok.length, "call")) {
        if (!failed(rw))
            syntax_error(rw, rw->have_la ? rw->la.offset : start, "expected call after '?='");
        return false;
    }
    drop(rw, &tok);
    if (rw->escape_depth == 1)
        rw->return_value = true;
    return rewrite_call_escape(rw, rep, start);
}

/* Picks the escape's handler from its keyword and fills rep with its
 * replacement; the closing brace is left for the caller. */
static bool rewrite_escape_body(rewriter *rw, gc_strbuf *rep, size_t start)
{
    gc_sql_token kw;
    if (!peek_code(rw, &kw)) {
        if (!failed(rw))
            unterminated_escape(rw, start);
        return false;
    }
    if (kw.kind == GC_SQL_TOK_PARAM_MARKER)
        return rewrite_return_call(rw, rep, start, &kw);
    if (kw.kind != GC_SQL_TOK_IDENT) {
        syntax_error(rw, kw.offset, "expected an escape keyword after '{'");
        return false;
    }
    drop(rw, &kw);
    const char *word = rw->sql + kw.offset;
    size_t n = kw.length;
    if (gc_sql_ascii_equal_ci(word, n, "fn"))
        return rewrite_fn_escape(rw, rep, start);
    if (gc_sql_ascii_equal_ci(word, n, "d"))
        return rewrite_literal_escape(rw, rep, start, "DATE ", "");
    if (gc_sql_ascii_equal_ci(word, n, "t"))
        return rewrite_literal_escape(rw, rep, start, "TIME ", "");
    if (gc_sql_ascii_equal_ci(word, n, "ts"))
        return rewrite_literal_escape(rw, rep, start, "TIMESTAMP ", "");
    if (gc_sql_ascii_equal_ci(word, n, "guid"))
        return rewrite_literal_escape(rw, rep, start, "CAST(", " AS uuid)");
    if (gc_sql_ascii_equal_ci(word, n, "escape"))
        return rewrite_literal_escape(rw, rep, start, "ESCAPE ", "");
    if (gc_sql_ascii_equal_ci(word, n, "interval"))
        return rewrite_interval_escape(rw, rep, start);
    if (gc_sql_ascii_equal_ci(word, n, "call"))
        return rewrite_call_escape(rw, rep, start);
    if (gc_sql_ascii_equal_ci(word, n, "oj")) {
        if (!rewrite_body(rw, rep, start))
            return false;
        if (rep->len == 0) {
            syntax_error(rw, start, "empty outer join");
            return false;
        }
        return true;
    }
    gc_error_set(rw->err, "42000", 0,
                 "syntax error in ODBC escape sequence at offset %zu: unknown escape '{%.*s'",
                 start, (int)(n > 64 ? 64 : n), word);
    return false;
}

/* At a '{' (lookahead): rewrites one escape and appends its replacement. */
static bool rewrite_escape(rewriter *rw, gc_strbuf *sb)
{
    gc_sql_token open = {0}, close = {0};
    gc_strbuf rep;
    bool ok = false;

    peek(rw, &open);
    assert(gc_sql_token_is_punct(&rw->lx, &open, '{'));
    drop(rw, &open);
    if (rw->escape_depth >= MAX_ESCAPE_DEPTH) {
        syntax_error(rw, open.offset, "escapes nested too deeply");
        return false;
    }
    if (rw->escape_depth == 0)
        rw->top_escapes++;
    rw->escape_depth++;
    gc_strbuf_init(&rep);
    if (!rewrite_escape_body(rw, &rep, open.offset))
        goto done;
    if (!peek_code(rw, &close)) {
        if (!failed(rw))
            unterminated_escape(rw, open.offset);
        goto done;
    }
    if (!gc_sql_token_is_punct(&rw->lx, &close, '}')) {
        syntax_error(rw, close.offset, "expected '}'");
        goto done;
    }
    drop(rw, &close);
    if (rep.failed) {
        gc_error_set(rw->err, "HY001", 0, "out of memory");
        goto done;
    }
    if (rep.len > 0)
        append_separated(sb, rep.data, rep.len);
    rw->separate_next = true;
    ok = true;
done:
    rw->escape_depth--;
    gc_strbuf_free(&rep);
    return ok;
}

/* Whether the text is one escape: '{' first and '}' last, apart from
 * whitespace and a final semicolon. */
static bool is_only_escape(const char *sql, size_t len)
{
    size_t b = 0, e = len;
    while (b < e && strchr(" \t\r\n", sql[b]) != NULL)
        b++;
    while (e > b && strchr(" \t\r\n;", sql[e - 1]) != NULL)
        e--;
    return e - b >= 2 && sql[b] == '{' && sql[e - 1] == '}';
}

bool gc_sql_rewrite(const char *sql, size_t len, unsigned flags,
                    gc_sql_rewritten *out, gc_error *err)
{
    assert(sql != NULL || len == 0);
    rewriter rw = {.sql = sql ? sql : "", .len = len, .flags = flags, .err = err};
    gc_strbuf sb;
    gc_sql_token stop;
    bool stopped;

    memset(out, 0, sizeof *out);
    gc_error_clear(err);
    /* PostgreSQL receives statements as C strings (and rejects 0x00 in
     * text), so a NUL byte cannot be sent; say so instead of truncating. */
    const char *nul = len > 0 ? memchr(rw.sql, '\0', len) : NULL;
    if (nul != NULL) {
        gc_error_set(err, "22021", 0, "the statement contains a NUL byte at offset %zu",
                     (size_t)(nul - rw.sql));
        return false;
    }
    gc_sql_lexer_init(&rw.lx, rw.sql, len);
    gc_sql_lexer_set_standard_strings(&rw.lx, (flags & GC_SQL_BACKSLASH_STRINGS) == 0);
    gc_strbuf_init(&sb);
    if (!rewrite_until(&rw, &sb, STOP_AT_END, false, &stop, &stopped)) {
        gc_strbuf_free(&sb);
        return false;
    }
    assert(!stopped && rw.pos == len);
    if ((flags & GC_SQL_MARKERS_TO_DOLLAR) && rw.markers > 0 && rw.max_positional > 0) {
        gc_error_set(err, "42000", 0,
                     "the statement mixes ? parameter markers with $n positional parameters");
        gc_strbuf_free(&sb);
        return false;
    }
    size_t length = sb.len;
    out->text = gc_strbuf_take(&sb);
    if (out->text == NULL) {
        gc_error_set(err, "HY001", 0, "out of memory");
        return false;
    }
    out->length = length;
    out->marker_count = rw.markers;
    out->max_positional = rw.max_positional;
    out->param_count = rw.markers > 0 ? rw.markers : rw.max_positional;
    out->call_escape = rw.top_call && rw.top_escapes == 1 && is_only_escape(sql, len);
    out->return_value = out->call_escape && rw.return_value;
    return true;
}

void gc_sql_rewritten_free(gc_sql_rewritten *out)
{
    free(out->text);
    memset(out, 0, sizeof *out);
}
