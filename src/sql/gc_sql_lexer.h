/*
 * gc_sql_lexer: a tokenizer for PostgreSQL SQL text, following PostgreSQL's
 * lexical rules. standard_conforming_strings is on unless the caller says
 * the server has it off (gc_sql_lexer_set_standard_strings): then a
 * backslash escapes the next byte in plain '...' and N'...' strings too, as
 * in E'...', so 'it\'s' is one literal.
 *
 * It is an iterator over a (text, length) pair: no allocation, no copying;
 * each token is a kind plus a byte offset and length into the caller's text,
 * which must outlive the lexer. Whitespace is skipped; comments are returned
 * as tokens so a caller that copies text (the rewriter) keeps them, and
 * gc_sql_lexer_next_code() skips them for a caller that analyses text.
 *
 *     gc_sql_lexer lx;
 *     gc_sql_token tok;
 *     gc_sql_lexer_init(&lx, text, len);
 *     while (gc_sql_lexer_next(&lx, &tok)) ...
 *
 * A string, quoted identifier, dollar quote or block comment that reaches the
 * end of the text is returned with `unterminated` set and runs to the end, so
 * callers fail (SQLSTATE 42601) instead of guessing.
 *
 * The `?` decision: a `?` is an ODBC parameter marker, as in every ODBC
 * driver, except where it is part of one of the PostgreSQL operators `?|`,
 * `?&`, `?#`, `?-|` or `@?` written without spaces. `?||` is a marker
 * followed by the concatenation operator, `?-` a marker followed by minus, and
 * `??` two markers (no JDBC-style `??` escape). To apply the jsonb key-exists
 * operator `?` itself, write the function jsonb_exists(a, b).
 */
#ifndef GC_SQL_LEXER_H
#define GC_SQL_LEXER_H

#include <stdbool.h>
#include <stddef.h>

typedef enum gc_sql_token_kind {
    GC_SQL_TOK_IDENT,            /* unquoted identifier or keyword: select, t1, a$b */
    GC_SQL_TOK_QUOTED_IDENT,     /* "quoted ""identifier""" */
    GC_SQL_TOK_UNICODE_IDENT,    /* U&"d\0061ta" */
    GC_SQL_TOK_STRING,           /* 'standard '' string' */
    GC_SQL_TOK_ESCAPE_STRING,    /* E'C-style \' escapes' */
    GC_SQL_TOK_UNICODE_STRING,   /* U&'d\0061ta' */
    GC_SQL_TOK_NATIONAL_STRING,  /* N'...' */
    GC_SQL_TOK_BIT_STRING,       /* B'1010' */
    GC_SQL_TOK_HEX_STRING,       /* X'1F' */
    GC_SQL_TOK_DOLLAR_STRING,    /* $$...$$ or $tag$...$tag$ */
    GC_SQL_TOK_NUMBER,           /* 42, 1.5, .5, 1.5e10 */
    GC_SQL_TOK_OPERATOR,         /* + <= <> :: := .. ->> @> || ?| ... */
    GC_SQL_TOK_PUNCT,            /* one of ( ) , ; [ ] . : { } */
    GC_SQL_TOK_PARAM_MARKER,     /* ? */
    GC_SQL_TOK_POSITIONAL_PARAM, /* $1 */
    GC_SQL_TOK_LINE_COMMENT,     /* -- to the end of the line (newline excluded) */
    GC_SQL_TOK_BLOCK_COMMENT,    /* nested slash-star comments */
    GC_SQL_TOK_OTHER             /* any other byte: a lone $, a backslash, ... */
} gc_sql_token_kind;

typedef struct gc_sql_token {
    gc_sql_token_kind kind;
    size_t offset;       /* byte offset of the first byte in the text */
    size_t length;       /* bytes, never 0 */
    bool unterminated;   /* string, identifier, dollar quote or comment ran off the end */
} gc_sql_token;

typedef struct gc_sql_lexer {
    const char *text;    /* not owned */
    size_t length;
    size_t pos;          /* next byte to scan */
    bool standard_strings;   /* the server's standard_conforming_strings */
} gc_sql_lexer;

/* Starts at the beginning of text, with standard_conforming_strings on. */
void gc_sql_lexer_init(gc_sql_lexer *lx, const char *text, size_t length);

/* Follows the server's standard_conforming_strings: off makes backslashes
 * escape in plain and N'' strings (PostgreSQL's rule before 9.1). */
void gc_sql_lexer_set_standard_strings(gc_sql_lexer *lx, bool on);

/* Scans the next token into *tok; false at the end of the text. A copy of a
 * lexer is an independent iterator (use it to look ahead). */
bool gc_sql_lexer_next(gc_sql_lexer *lx, gc_sql_token *tok);

/* Like gc_sql_lexer_next but skips terminated comments (an unterminated one
 * is returned, so the caller sees the error). */
bool gc_sql_lexer_next_code(gc_sql_lexer *lx, gc_sql_token *tok);

/* Pointer to the token's first byte in the lexer's text. */
const char *gc_sql_token_text(const gc_sql_lexer *lx, const gc_sql_token *tok);

/* True for an unquoted identifier equal to `word`, ignoring ASCII case
 * ("select" matches SELECT, Select; never "select" or a string 'select'). */
bool gc_sql_token_is_keyword(const gc_sql_lexer *lx, const gc_sql_token *tok,
                             const char *word);

/* True for a PUNCT token that is the character c. */
bool gc_sql_token_is_punct(const gc_sql_lexer *lx, const gc_sql_token *tok, char c);

/* True for an OPERATOR token whose text is exactly op. */
bool gc_sql_token_is_operator(const gc_sql_lexer *lx, const gc_sql_token *tok,
                              const char *op);

bool gc_sql_token_is_comment(const gc_sql_token *tok);

/* True for an identifier, unquoted or quoted (not U&"..."): a name. */
bool gc_sql_token_is_name(const gc_sql_token *tok);

/* True for every kind of string literal, dollar quotes included. */
bool gc_sql_token_is_string(const gc_sql_token *tok);

/* The identifier a token names, as PostgreSQL sees it: an unquoted identifier
 * is folded to lower case (ASCII only, as PostgreSQL does for UTF-8), a quoted
 * one loses its quotes and "" becomes ". Writes at most cap bytes including a
 * NUL into buf (when cap > 0) and returns the full length, like snprintf.
 * Returns 0 for any other kind (a U&"..." identifier included). */
size_t gc_sql_token_identifier(const gc_sql_lexer *lx, const gc_sql_token *tok,
                               char *buf, size_t cap);

/* The number of a positional parameter ($12 -> 12), saturating at
 * 0xFFFFFFFF; 0 for any other kind. */
unsigned long gc_sql_token_param_number(const gc_sql_lexer *lx, const gc_sql_token *tok);

/* A short description of a kind for messages: "string literal",
 * "quoted identifier", "dollar-quoted string", "block comment", ... */
const char *gc_sql_token_kind_name(gc_sql_token_kind kind);

/* ASCII-only case-insensitive comparison of n bytes with a NUL-terminated
 * word; true when they are equal and word has exactly n bytes. */
bool gc_sql_ascii_equal_ci(const char *s, size_t n, const char *word);

/* Whether text (len bytes) is exactly the n words given, in any case,
 * separated and surrounded by white space, optionally followed by `;`:
 * how the driver recognizes the statements it answers itself (SHOW GLOBAL
 * CONNECTION, ALTER SYSTEM RECONNECT GLOBAL CONNECTION). */
bool gc_sql_text_is_words(const char *text, size_t len, const char *const *words, size_t n);

#endif
