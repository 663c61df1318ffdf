/*
 * gc_session_sql: a scan over the code tokens of SQL text (comments skipped)
 * that stops at the first construct depending on one server session. The
 * rules and their reasons are listed in docs/session-dependent-sql.md; each
 * rule looks at the current token, a few tokens before it and a few after
 * (a copy of the lexer looks ahead), never at the text itself.
 */
#include "sql/gc_session_sql.h"

#include <assert.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "sql/gc_sql_lexer.h"

/* Enough for any name this module compares; longer identifiers match none. */
#define NAME_MAX_BYTES 64

typedef struct session_function {
    const char *name;    /* lower case, as PostgreSQL folds it */
    const char *reason;  /* completes "<name>() ... and is not allowed ..." */
} session_function;

static const char reason_session[] = "depends on one server session";
static const char reason_lock[] =
    "takes or releases a session-level lock held by one server session";

/* Called as name(...): the GOLDILOCKS session functions, then PostgreSQL's. */
static const session_function session_functions[] = {
    {"currval", reason_session},
    {"uuid", reason_session},
    {"version", reason_session},
    {"session_id", reason_session},
    {"session_serial", reason_session},
    {"user_id", reason_session},
    {"last_identity_value", reason_session},
    {"statement_view_scn", reason_session},
    {"statement_view_scn_gcn", reason_session},
    {"statement_view_scn_dcn", reason_session},
    {"statement_view_scn_lcn", reason_session},
    {"local_group_id", reason_session},
    {"local_group_name", reason_session},
    {"local_member_id", reason_session},
    {"local_member_name", reason_session},
    {"local_member_position", reason_session},
    {"lastval", reason_session},
    {"pg_backend_pid", reason_session},
    {"inet_server_addr", reason_session},
    {"inet_server_port", reason_session},
    {"pg_my_temp_schema", reason_session},
    {"pg_advisory_lock", reason_lock},
    {"pg_advisory_lock_shared", reason_lock},
    {"pg_try_advisory_lock", reason_lock},
    {"pg_try_advisory_lock_shared", reason_lock},
    {"pg_advisory_unlock", reason_lock},
    {"pg_advisory_unlock_shared", reason_lock},
    {"pg_advisory_unlock_all", reason_lock},
};

/* GOLDILOCKS pseudo columns: bare, unquoted, unqualified words. */
static const char *const pseudo_columns[] = {
    "CLUSTER_GROUP_ID", "CLUSTER_GROUP_NAME", "CLUSTER_MEMBER_ID",
    "CLUSTER_MEMBER_NAME", "CLUSTER_SHARD_ID",
};

/* Keywords after which `name (` names an object being defined or a table
 * with a column list (CREATE TABLE version (...), INSERT INTO uuid (...),
 * CREATE FUNCTION version(), AS alias(a, b)), not a function call. */
static const char *const definition_keywords[] = {
    "table", "into", "function", "procedure", "routine", "aggregate",
    "references", "view", "exists", "copy", "analyze", "analyse", "vacuum",
    "of", "as", "only", "type",
};

/* Statements in which no expression, hence no call, can appear. */
static const char *const statements_without_calls[] = {
    "drop", "comment", "grant", "revoke", "security",
};

typedef struct scan {
    gc_sql_lexer lx;               /* positioned after cur */
    const char *const *names;      /* member and group names, not owned */
    size_t n_names;
    gc_error *err;
    gc_sql_token cur;
    gc_sql_token prev, prev2;      /* code tokens before cur in this statement */
    bool has_prev, has_prev2;
    size_t index;                  /* cur's position in the statement */
    gc_sql_token start;            /* the statement's verb (EXPLAIN's target) */
    bool has_start;
    size_t start_index;            /* index of the verb; SIZE_MAX until known */
    bool explain;                  /* the statement is EXPLAIN */
    bool explain_parens;           /* inside EXPLAIN ( options ) */
    int depth;                     /* parenthesis depth in the statement */
    bool saw_index;                /* CREATE ... INDEX seen */
    bool any_session_setting;      /* one of them is a session-level SET / RESET */
    bool any_other;                /* one of them is something else */
} scan;

static bool next_code(gc_sql_lexer *lx, gc_sql_token *tok)
{
    return gc_sql_lexer_next_code(lx, tok);
}

/* The k-th code token after cur (k >= 1); false past the end. */
static bool peek(const scan *sc, int k, gc_sql_token *out)
{
    gc_sql_lexer copy = sc->lx;
    for (int i = 0; i < k; i++)
        if (!next_code(&copy, out))
            return false;
    return true;
}

static bool is_kw(const scan *sc, const gc_sql_token *tok, const char *word)
{
    return gc_sql_token_is_keyword(&sc->lx, tok, word);
}

static bool is_kw_in(const scan *sc, const gc_sql_token *tok,
                     const char *const *words, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (is_kw(sc, tok, words[i]))
            return true;
    return false;
}

static bool is_punct(const scan *sc, const gc_sql_token *tok, char c)
{
    return gc_sql_token_is_punct(&sc->lx, tok, c);
}

static bool peek_is_kw(const scan *sc, int k, const char *word)
{
    gc_sql_token t;
    return peek(sc, k, &t) && is_kw(sc, &t, word);
}

static bool peek_is_punct(const scan *sc, int k, char c)
{
    gc_sql_token t;
    return peek(sc, k, &t) && is_punct(sc, &t, c);
}

/* The identifier an IDENT or QUOTED_IDENT token names (folded as PostgreSQL
 * folds it) into buf; false for other tokens and names too long to match. */
static bool identifier(const scan *sc, const gc_sql_token *tok,
                       char buf[NAME_MAX_BYTES])
{
    if (tok->kind != GC_SQL_TOK_IDENT && tok->kind != GC_SQL_TOK_QUOTED_IDENT)
        return false;
    size_t n = gc_sql_token_identifier(&sc->lx, tok, buf, NAME_MAX_BYTES);
    return n > 0 && n < NAME_MAX_BYTES;
}

static int token_len(const gc_sql_token *tok)
{
    return tok->length > INT32_MAX ? INT32_MAX : (int)tok->length;
}

static const char *token_text(const scan *sc, const gc_sql_token *tok)
{
    return gc_sql_token_text(&sc->lx, tok);
}

/* Fills the error and returns false, so rules can `return refuse(...)`. */
static bool refuse(scan *sc, const char *construct, const char *reason)
{
    gc_error_set(sc->err, "0A000", GC_SESSION_SQL_NATIVE_REFUSED,
                 "%s %s and is not allowed in a global connection", construct, reason);
    return false;
}

/* CREATE [OR REPLACE] [GLOBAL|LOCAL] TEMP|TEMPORARY object. A temporary
 * table is allowed: the driver keeps it on its member session
 * (gc_temp_tables.h). A temporary view or sequence is not: nextval('s') and
 * a view's later uses name them where the driver does not look for them,
 * so a statement could run on a session that lacks them. EXPLAIN ANALYZE
 * of a CREATE TEMP TABLE ... AS would create a table the driver does not
 * see being created. */
static bool check_create_temporary(scan *sc)
{
    gc_sql_lexer copy = sc->lx;
    gc_sql_token t;
    while (next_code(&copy, &t)) {
        if (is_kw(sc, &t, "temp") || is_kw(sc, &t, "temporary")) {
            gc_sql_token object;
            bool has_object = next_code(&copy, &object);
            if (has_object && is_kw(sc, &object, "table") && !sc->explain)
                return true;
            char construct[96];
            if (has_object && object.kind == GC_SQL_TOK_IDENT && object.length < 32)
                snprintf(construct, sizeof construct, "CREATE %.*s %.*s",
                         token_len(&t), token_text(sc, &t),
                         token_len(&object), token_text(sc, &object));
            else
                snprintf(construct, sizeof construct, "CREATE %.*s",
                         token_len(&t), token_text(sc, &t));
            return refuse(sc, construct,
                          sc->explain ? "under EXPLAIN creates a temporary table the driver "
                                        "does not keep track of"
                                      : "creates a temporary object other than a table, "
                                        "which the driver cannot keep on its server session");
        }
        if (!is_kw(sc, &t, "or") && !is_kw(sc, &t, "replace") &&
            !is_kw(sc, &t, "global") && !is_kw(sc, &t, "local"))
            return true;
    }
    return true;
}

/* DECLARE name ... CURSOR WITH HOLD FOR query: the hold clause comes before
 * FOR, so the scan stops there (the query may say WITH for a CTE). */
static bool check_declare_with_hold(scan *sc)
{
    gc_sql_lexer copy = sc->lx;
    gc_sql_token t, prev_t = {0};
    bool has_prev_t = false;
    while (next_code(&copy, &t)) {
        if (is_kw(sc, &t, "for") || is_punct(sc, &t, ';'))
            return true;
        if (has_prev_t && is_kw(sc, &prev_t, "with") && is_kw(sc, &t, "hold"))
            return refuse(sc, "DECLARE ... CURSOR WITH HOLD",
                          "keeps a cursor open in one server session after its transaction");
        prev_t = t;
        has_prev_t = true;
    }
    return true;
}

/* Rules for the statement's verb: cur is the first token of a statement, or
 * of the statement an EXPLAIN explains. */
static bool check_statement_verb(scan *sc)
{
    const gc_sql_token *t = &sc->cur;
    if (is_kw(sc, t, "listen"))
        return refuse(sc, "LISTEN", "receives notifications in one server session");
    if (is_kw(sc, t, "unlisten"))
        return refuse(sc, "UNLISTEN", "stops notifications of one server session");
    if (is_kw(sc, t, "prepare")) {
        if (peek_is_kw(sc, 1, "transaction"))
            return refuse(sc, "PREPARE TRANSACTION",
                          "leaves a prepared transaction on one member, where the driver "
                          "cannot route COMMIT PREPARED");
        return refuse(sc, "PREPARE", "creates a prepared statement in one server session");
    }
    if (is_kw(sc, t, "execute"))
        return refuse(sc, "EXECUTE",
                      "runs a prepared statement that exists in one server session");
    if (is_kw(sc, t, "deallocate"))
        return refuse(sc, "DEALLOCATE",
                      "drops a prepared statement that exists in one server session");
    if ((is_kw(sc, t, "commit") || is_kw(sc, t, "rollback")) && peek_is_kw(sc, 1, "prepared"))
        return refuse(sc, is_kw(sc, t, "commit") ? "COMMIT PREPARED" : "ROLLBACK PREPARED",
                      "finishes a prepared transaction kept on one member, where the "
                      "driver cannot route it");
    if (is_kw(sc, t, "discard"))
        return refuse(sc, "DISCARD", "resets the state of one server session");
    if (is_kw(sc, t, "load"))
        return refuse(sc, "LOAD", "loads a library into one server session");
    if (is_kw(sc, t, "declare"))
        return check_declare_with_hold(sc);
    if (is_kw(sc, t, "create"))
        return check_create_temporary(sc);
    return true;
}

/* pg_temp names the session's temporary schema, pg_temp_N and
 * pg_toast_temp_N one numbered schema of one server session. pg_temp as a
 * qualifier (pg_temp.t) names a temporary table, which the driver keeps on
 * its member session (gc_temp_tables.h): allowed. The numbered ones are
 * always refused (the number differs between sessions). A bare unquoted
 * pg_temp is refused too (SET search_path = pg_temp makes CREATE TABLE
 * create temporary tables the driver would not see being created), except
 * as a later item of a list (SET search_path TO public, pg_temp: the
 * hardening PostgreSQL recommends). A bare quoted "pg_temp" is a column. */
static bool check_temp_schema(scan *sc)
{
    char name[NAME_MAX_BYTES];
    if (!identifier(sc, &sc->cur, name))
        return true;
    bool temp_schema = strcmp(name, "pg_temp") == 0;
    const char *numbered[] = {"pg_temp_", "pg_toast_temp_"};
    for (size_t i = 0; i < 2 && !temp_schema; i++) {
        size_t n = strlen(numbered[i]);
        if (strncmp(name, numbered[i], n) == 0 && name[n] != '\0' &&
            strspn(name + n, "0123456789") == strlen(name + n))
            temp_schema = true;
    }
    if (!temp_schema)
        return true;
    bool qualifies = peek_is_punct(sc, 1, '.');
    if (qualifies && strcmp(name, "pg_temp") == 0)
        return true;
    bool later_list_item = sc->has_prev && is_punct(sc, &sc->prev, ',');
    bool quoted_column = sc->cur.kind == GC_SQL_TOK_QUOTED_IDENT;
    if (!qualifies && (later_list_item || quoted_column))
        return true;
    char construct[NAME_MAX_BYTES + 8];
    snprintf(construct, sizeof construct, "%s", name);
    return refuse(sc, construct, "names the temporary schema of one server session");
}

static bool is_member_or_group_name(const scan *sc, const gc_sql_token *tok)
{
    for (size_t i = 0; i < sc->n_names; i++) {
        assert(sc->names[i] != NULL);
        if (tok->kind == GC_SQL_TOK_IDENT) {
            if (gc_sql_ascii_equal_ci(token_text(sc, tok), tok->length, sc->names[i]))
                return true;
        } else {
            char name[NAME_MAX_BYTES];
            if (identifier(sc, tok, name) && strcmp(name, sc->names[i]) == 0)
                return true;
        }
    }
    return false;
}

/* A GOLDILOCKS @domain clause: `@` immediately followed (no space) by LOCAL,
 * GLOBAL, CLUSTER or a member or group name. Every other `@` is PostgreSQL's
 * (absolute value, or part of @>, <@, @@, @?, which lex as other operators). */
static bool check_domain_clause(scan *sc)
{
    if (!gc_sql_token_is_operator(&sc->lx, &sc->cur, "@"))
        return true;
    gc_sql_token next;
    if (!peek(sc, 1, &next) || next.offset != sc->cur.offset + 1)
        return true;
    bool domain = (next.kind == GC_SQL_TOK_IDENT &&
                   (is_kw(sc, &next, "local") || is_kw(sc, &next, "global") ||
                    is_kw(sc, &next, "cluster"))) ||
                  ((next.kind == GC_SQL_TOK_IDENT || next.kind == GC_SQL_TOK_QUOTED_IDENT) &&
                   is_member_or_group_name(sc, &next));
    if (!domain)
        return true;
    char construct[128];
    snprintf(construct, sizeof construct, "the @domain clause @%.*s",
             next.length > 64 ? 64 : token_len(&next), token_text(sc, &next));
    return refuse(sc, construct, "depends on the member of one server session");
}

/* GOLDILOCKS' seq.CURRVAL (unquoted, qualified, not a call). */
static bool check_sequence_currval(scan *sc)
{
    if (sc->cur.kind != GC_SQL_TOK_IDENT || !is_kw(sc, &sc->cur, "currval") ||
        !sc->has_prev || !is_punct(sc, &sc->prev, '.') || peek_is_punct(sc, 1, '('))
        return true;
    return refuse(sc, "sequence.CURRVAL", reason_session);
}

/* Keywords after which a word is an alias or a table, not a pseudo column. */
static const char *const name_keywords[] = {"as", "from", "join", "into", "update", "table"};

/* GOLDILOCKS pseudo columns: a bare word, neither qualified (t.cluster_group_id
 * is a column), nor quoted, nor an alias (AS cluster_group_id), nor a table
 * (FROM cluster_shard_id), nor a call or a qualifier. */
static bool check_pseudo_column(scan *sc)
{
    if (sc->cur.kind != GC_SQL_TOK_IDENT)
        return true;
    for (size_t i = 0; i < sizeof pseudo_columns / sizeof pseudo_columns[0]; i++) {
        if (!gc_sql_ascii_equal_ci(token_text(sc, &sc->cur), sc->cur.length, pseudo_columns[i]))
            continue;
        if (sc->has_prev && (is_punct(sc, &sc->prev, '.') ||
                             is_kw_in(sc, &sc->prev, name_keywords,
                                      sizeof name_keywords / sizeof name_keywords[0])))
            return true;
        if (peek_is_punct(sc, 1, '(') || peek_is_punct(sc, 1, '.'))
            return true;
        char construct[64];
        snprintf(construct, sizeof construct, "the pseudo column %s", pseudo_columns[i]);
        return refuse(sc, construct, reason_session);
    }
    return true;
}

/* After `name (`: true when the parentheses are a CTE's column list, i.e.
 * `name (cols) AS [NOT] [MATERIALIZED] (`. A call never has AS ( after it. */
static bool parens_open_cte_columns(const scan *sc)
{
    gc_sql_lexer copy = sc->lx;
    gc_sql_token t;
    int depth = 0;
    while (next_code(&copy, &t)) {
        if (is_punct(sc, &t, '('))
            depth++;
        else if (is_punct(sc, &t, ')') && --depth == 0)
            break;
        else if (is_punct(sc, &t, ';'))
            return false;
    }
    if (depth != 0 || !next_code(&copy, &t) || !is_kw(sc, &t, "as") || !next_code(&copy, &t))
        return false;
    return is_punct(sc, &t, '(') || is_kw(sc, &t, "not") || is_kw(sc, &t, "materialized");
}

static const session_function *find_session_function(const char *name)
{
    for (size_t i = 0; i < sizeof session_functions / sizeof session_functions[0]; i++)
        if (strcmp(name, session_functions[i].name) == 0)
            return &session_functions[i];
    return NULL;
}

/* A call of a session function: name (optionally pg_catalog-qualified),
 * comments or spaces, then `(`. Other qualifiers name a user's schema and
 * so a user's function. */
static bool check_session_call(scan *sc)
{
    char name[NAME_MAX_BYTES];
    if (!identifier(sc, &sc->cur, name) || !peek_is_punct(sc, 1, '('))
        return true;
    const session_function *fn = find_session_function(name);
    if (fn == NULL)
        return true;
    if (sc->has_start &&
        is_kw_in(sc, &sc->start, statements_without_calls,
                 sizeof statements_without_calls / sizeof statements_without_calls[0]))
        return true;
    if (sc->has_prev && is_punct(sc, &sc->prev, '.')) {
        char schema[NAME_MAX_BYTES];
        if (!sc->has_prev2 || !identifier(sc, &sc->prev2, schema) ||
            strcmp(schema, "pg_catalog") != 0)
            return true;
    } else if (sc->has_prev) {
        const gc_sql_token *p = &sc->prev;
        if (is_punct(sc, p, ')') || p->kind == GC_SQL_TOK_QUOTED_IDENT)
            return true;   /* an alias with a column list: FROM f(x) version(a) */
        if (is_kw_in(sc, p, definition_keywords,
                     sizeof definition_keywords / sizeof definition_keywords[0]))
            return true;
        if (sc->saw_index && is_kw(sc, p, "on"))
            return true;   /* CREATE INDEX ... ON version (a) */
    }
    if (parens_open_cte_columns(sc))
        return true;
    char construct[NAME_MAX_BYTES + 4];
    snprintf(construct, sizeof construct, "%s()", name);
    return refuse(sc, construct, fn->reason);
}

/* Tracks where the statement's verb is: token 0, or for EXPLAIN the first
 * token after its options (EXPLAIN ANALYZE VERBOSE x, EXPLAIN (...) x). */
static void track_statement(scan *sc)
{
    const gc_sql_token *t = &sc->cur;
    if (is_punct(sc, t, '('))
        sc->depth++;
    else if (is_punct(sc, t, ')') && sc->depth > 0)
        sc->depth--;

    if (sc->index == 0) {
        sc->explain = is_kw(sc, t, "explain");
        sc->start_index = sc->explain ? 1 : 0;
    } else if (sc->explain) {
        if (sc->index == 1 && is_punct(sc, t, '(')) {
            sc->explain_parens = true;
            sc->start_index = SIZE_MAX;
        } else if (sc->explain_parens && sc->depth == 0) {
            sc->explain_parens = false;
            sc->start_index = sc->index + 1;
        } else if (sc->index == sc->start_index &&
                   (is_kw(sc, t, "analyze") || is_kw(sc, t, "analyse") ||
                    is_kw(sc, t, "verbose"))) {
            sc->start_index = sc->index + 1;
        }
    }
    if (sc->index == sc->start_index) {
        sc->start = *t;
        sc->has_start = true;
    }
    if (sc->has_start && is_kw(sc, &sc->start, "create") && is_kw(sc, t, "index"))
        sc->saw_index = true;
}

/* Whether cur, the first token of a statement, starts a session-level SET
 * or RESET: the kind the driver runs on every member and replays on
 * sessions opened later. SET LOCAL, SET TRANSACTION and SET CONSTRAINTS act
 * on the open transaction only and run where it runs. */
static bool starts_session_setting(const scan *sc)
{
    if (is_kw(sc, &sc->cur, "reset"))
        return true;
    return is_kw(sc, &sc->cur, "set") && !peek_is_kw(sc, 1, "local") &&
           !peek_is_kw(sc, 1, "transaction") && !peek_is_kw(sc, 1, "constraints");
}

/* Notes what kind of statement cur starts. A text mixing a
 * session-level SET / RESET with anything else is refused: the driver would
 * have to run the whole text on every member and replay it on later
 * sessions, running the other statements (an INSERT, say) several times. */
static bool check_mixed_setting(scan *sc)
{
    if (starts_session_setting(sc))
        sc->any_session_setting = true;
    else
        sc->any_other = true;
    if (!sc->any_session_setting || !sc->any_other)
        return true;
    gc_error_set(sc->err, "0A000", GC_SESSION_SQL_NATIVE_REFUSED,
                 "a session-level SET or RESET sent in one text with other statements is "
                 "not allowed in a global connection: the driver runs a SET on every member "
                 "session and again on sessions opened later, which would run the other "
                 "statements several times; send the SET alone");
    return false;
}

static bool check_token(scan *sc)
{
    if (sc->index == 0 && !check_mixed_setting(sc))
        return false;
    bool at_verb = sc->index == sc->start_index;
    if (at_verb && !check_statement_verb(sc))
        return false;
    /* CREATE TABLE t AS EXECUTE p */
    if (!at_verb && is_kw(sc, &sc->cur, "execute") && sc->has_start &&
        is_kw(sc, &sc->start, "create") && sc->has_prev && is_kw(sc, &sc->prev, "as"))
        return refuse(sc, "EXECUTE", "runs a prepared statement that exists in one server session");
    return check_temp_schema(sc) &&
           check_domain_clause(sc) && check_sequence_currval(sc) && check_pseudo_column(sc) &&
           check_session_call(sc);
}

static void start_statement(scan *sc)
{
    sc->has_prev = sc->has_prev2 = false;
    sc->index = 0;
    sc->has_start = false;
    sc->start_index = 0;
    sc->explain = sc->explain_parens = false;
    sc->depth = 0;
    sc->saw_index = false;
}

bool gc_session_sql_check_names(const char *sql, size_t len,
                                const char *const *names, size_t n,
                                gc_error *err)
{
    assert(sql != NULL || len == 0);
    assert(names != NULL || n == 0);
    assert(err != NULL);
    scan sc;
    memset(&sc, 0, sizeof sc);
    gc_sql_lexer_init(&sc.lx, sql == NULL ? "" : sql, len);
    sc.names = names;
    sc.n_names = n;
    sc.err = err;
    start_statement(&sc);
    while (next_code(&sc.lx, &sc.cur)) {
        if (is_punct(&sc, &sc.cur, ';')) {
            start_statement(&sc);
            continue;
        }
        track_statement(&sc);
        if (!check_token(&sc))
            return false;
        sc.prev2 = sc.prev;
        sc.has_prev2 = sc.has_prev;
        sc.prev = sc.cur;
        sc.has_prev = true;
        sc.index++;
    }
    return true;
}

bool gc_session_sql_check(const char *sql, size_t len, gc_error *err)
{
    return gc_session_sql_check_names(sql, len, NULL, 0, err);
}
