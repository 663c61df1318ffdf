/* The server as oracle: for a few thousand random values of every key type,
 * the client's H(value, seed) must equal the server's own extended hash, the
 * support functions must be the ones the client reproduces, and multi-column
 * rows with NULLs must land where satisfies_hash_partition() says. Needs the
 * pg_server fixture (GC_TEST_STATE_DIR/admin_conninfo). */
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libpq-fe.h>

#include "placement/gc_pghash.h"

#define VALUES_PER_TYPE 3000
#define SEED GC_PGHASH_PARTITION_SEED
#define SEED_SQL "x'7A5B22367996DCFD'::int8"

static int failures;
static uint64_t rng_state = UINT64_C(0x9E3779B97F4A7C15);
static bool server_utf8;

static void fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("FAIL: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    failures++;
}

static uint64_t rnd(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

static uint64_t rnd_below(uint64_t n)
{
    return rnd() % n;
}

/* Days from 2000-01-01 to the proleptic Gregorian date y-m-d. */
static int64_t days_since_2000(int64_t y, int m, int d)
{
    y -= m <= 2;
    int64_t era = (y >= 0 ? y : y - 399) / 400;
    int64_t yoe = y - era * 400;
    int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    /* 719468 moves the origin to 1970-01-01, 10957 more to 2000-01-01. */
    return era * 146097 + doe - 719468 - 10957;
}

/* An array literal under construction, every element double-quoted. */
typedef struct array_text {
    char *buf;
    size_t len, cap;
} array_text;

static void at_putc(array_text *a, char ch)
{
    if (a->len + 2 > a->cap) {
        a->cap = a->cap ? a->cap * 2 : 4096;
        a->buf = realloc(a->buf, a->cap);
        if (a->buf == NULL) {
            perror("realloc");
            exit(2);
        }
    }
    a->buf[a->len++] = ch;
    a->buf[a->len] = '\0';
}

static void at_element(array_text *a, const char *v, size_t n)
{
    at_putc(a, a->len == 0 ? '{' : ',');
    at_putc(a, '"');
    for (size_t i = 0; i < n; i++) {
        if (v[i] == '"' || v[i] == '\\')
            at_putc(a, '\\');
        at_putc(a, v[i]);
    }
    at_putc(a, '"');
}

/* One type under test: gen() writes a value's text (server input syntax)
 * into text (NUL-terminated, returns its length) and sets its expected H. */
typedef struct type_case {
    const char *name;
    const char *array_type;   /* element type of the parameter array */
    const char *hash_expr;    /* server expression over v */
    size_t (*gen)(char *text, size_t cap, uint64_t *expected);
} type_case;

static size_t gen_int2(char *t, size_t cap, uint64_t *h)
{
    int16_t v = (int16_t)rnd();
    *h = gc_pghash_int2(v, SEED);
    return (size_t)snprintf(t, cap, "%d", v);
}

static size_t gen_int4(char *t, size_t cap, uint64_t *h)
{
    int32_t v = (int32_t)rnd();
    *h = gc_pghash_int4(v, SEED);
    return (size_t)snprintf(t, cap, "%" PRId32, v);
}

static size_t gen_int8(char *t, size_t cap, uint64_t *h)
{
    int64_t v = rnd_below(2) ? (int64_t)rnd() : (int64_t)(int32_t)rnd();
    *h = gc_pghash_int8(v, SEED);
    return (size_t)snprintf(t, cap, "%" PRId64, v);
}

static size_t gen_oid(char *t, size_t cap, uint64_t *h)
{
    uint32_t v = (uint32_t)rnd();
    *h = gc_pghash_oid(v, SEED);
    return (size_t)snprintf(t, cap, "%" PRIu32, v);
}

static size_t gen_bool(char *t, size_t cap, uint64_t *h)
{
    bool v = rnd_below(2);
    *h = gc_pghash_bool(v, SEED);
    return (size_t)snprintf(t, cap, "%s", v ? "true" : "false");
}

/* "char" travels as an int4 in -128..127 and is cast on the server. */
static size_t gen_char(char *t, size_t cap, uint64_t *h)
{
    int v = (int)rnd_below(256) - 128;
    *h = gc_pghash_char((char)(signed char)v, SEED);
    return (size_t)snprintf(t, cap, "%d", v);
}

static size_t gen_date(char *t, size_t cap, uint64_t *h)
{
    int y = 1 + (int)rnd_below(9999), m = 1 + (int)rnd_below(12), d = 1 + (int)rnd_below(28);
    *h = gc_pghash_date((int32_t)days_since_2000(y, m, d), SEED);
    return (size_t)snprintf(t, cap, "%04d-%02d-%02d", y, m, d);
}

/* Timestamps from 0001 to 9999; tz adds a random UTC offset. */
static size_t gen_ts_common(char *t, size_t cap, uint64_t *h, bool tz)
{
    if (rnd_below(100) == 0) {
        bool pos = rnd_below(2);
        *h = gc_pghash_timestamp(pos ? INT64_MAX : INT64_MIN, SEED);
        return (size_t)snprintf(t, cap, "%s", pos ? "infinity" : "-infinity");
    }
    int y = 1 + (int)rnd_below(9999), m = 1 + (int)rnd_below(12), d = 1 + (int)rnd_below(28);
    int hh = (int)rnd_below(24), mi = (int)rnd_below(60), ss = (int)rnd_below(60);
    int us = (int)rnd_below(1000000);
    int off_min = tz ? (int)rnd_below(15 * 60 * 2 + 1) - 15 * 60 : 0;
    off_min -= off_min % 15;
    int64_t usecs = ((days_since_2000(y, m, d) * 24 + hh) * 60 + mi) * 60 + ss;
    usecs = usecs * 1000000 + us - (int64_t)off_min * 60 * 1000000;
    *h = gc_pghash_timestamp(usecs, SEED);
    int n = snprintf(t, cap, "%04d-%02d-%02d %02d:%02d:%02d.%06d", y, m, d, hh, mi, ss, us);
    if (tz)
        n += snprintf(t + n, cap - (size_t)n, "%c%02d:%02d", off_min < 0 ? '-' : '+',
                      abs(off_min) / 60, abs(off_min) % 60);
    return (size_t)n;
}

static size_t gen_timestamp(char *t, size_t cap, uint64_t *h)
{
    return gen_ts_common(t, cap, h, false);
}

static size_t gen_timestamptz(char *t, size_t cap, uint64_t *h)
{
    return gen_ts_common(t, cap, h, true);
}

/* Random text of 0..40 characters; UTF-8 up to 4 bytes when the server
 * encoding is UTF8. No NUL; spaces are frequent at the end for bpchar. */
static size_t gen_string(char *t, size_t cap)
{
    size_t n = 0, chars = (size_t)rnd_below(41);
    for (size_t i = 0; i < chars && n + 5 < cap; i++) {
        uint32_t kind = server_utf8 ? (uint32_t)rnd_below(8) : 0;
        uint32_t cp;
        if (kind < 5)
            cp = 0x20 + (uint32_t)rnd_below(0x5f);
        else if (kind == 5)
            cp = 0x80 + (uint32_t)rnd_below(0x780);
        else if (kind == 6)
            cp = 0xE000 + (uint32_t)rnd_below(0x1000);
        else
            cp = 0x10000 + (uint32_t)rnd_below(0x10000);
        if (cp < 0x80) {
            t[n++] = (char)cp;
        } else if (cp < 0x800) {
            t[n++] = (char)(0xC0 | cp >> 6);
            t[n++] = (char)(0x80 | (cp & 0x3F));
        } else if (cp < 0x10000) {
            t[n++] = (char)(0xE0 | cp >> 12);
            t[n++] = (char)(0x80 | ((cp >> 6) & 0x3F));
            t[n++] = (char)(0x80 | (cp & 0x3F));
        } else {
            t[n++] = (char)(0xF0 | cp >> 18);
            t[n++] = (char)(0x80 | ((cp >> 12) & 0x3F));
            t[n++] = (char)(0x80 | ((cp >> 6) & 0x3F));
            t[n++] = (char)(0x80 | (cp & 0x3F));
        }
    }
    t[n] = '\0';
    return n;
}

static size_t gen_text(char *t, size_t cap, uint64_t *h)
{
    size_t n = gen_string(t, cap);
    *h = gc_pghash_text(t, n, SEED);
    return n;
}

static size_t gen_bpchar(char *t, size_t cap, uint64_t *h)
{
    size_t n = gen_string(t, cap - 8);
    for (size_t k = rnd_below(4); k > 0; k--)
        t[n++] = ' ';
    t[n] = '\0';
    *h = gc_pghash_bpchar(t, n, SEED);
    return n;
}

static size_t gen_bytea(char *t, size_t cap, uint64_t *h)
{
    unsigned char raw[40];
    size_t n = (size_t)rnd_below(sizeof raw + 1), len = 0;
    len += (size_t)snprintf(t, cap, "\\x");
    for (size_t i = 0; i < n; i++) {
        raw[i] = (unsigned char)rnd();
        len += (size_t)snprintf(t + len, cap - len, "%02x", raw[i]);
    }
    *h = gc_pghash_bytea(raw, n, SEED);
    return len;
}

static size_t gen_uuid(char *t, size_t cap, uint64_t *h)
{
    unsigned char u[16];
    size_t len = 0;
    for (int i = 0; i < 16; i++) {
        u[i] = (unsigned char)rnd();
        len += (size_t)snprintf(t + len, cap - len, "%s%02x",
                                (i == 4 || i == 6 || i == 8 || i == 10) ? "-" : "", u[i]);
    }
    *h = gc_pghash_uuid(u, SEED);
    return len;
}

/* Numeric text in many shapes: signs, leading and trailing zeros, long
 * digit runs, 'e' notation, zeros and the special values. */
static size_t gen_numeric(char *t, size_t cap, uint64_t *h)
{
    static const char *specials[] = { "NaN", "Infinity", "-Infinity", "0", "-0.000", "0e10" };
    size_t n = 0;
    if (rnd_below(50) == 0) {
        n = (size_t)snprintf(t, cap, "%s", specials[rnd_below(6)]);
    } else {
        if (rnd_below(2))
            t[n++] = '-';
        size_t lead_zeros = rnd_below(4) == 0 ? rnd_below(6) : 0;
        for (size_t i = 0; i < lead_zeros; i++)
            t[n++] = '0';
        size_t int_digits = (size_t)rnd_below(rnd_below(4) == 0 ? 60 : 12);
        for (size_t i = 0; i < int_digits; i++)
            t[n++] = (char)('0' + (rnd_below(5) == 0 ? 0 : rnd_below(10)));
        size_t frac_digits = (size_t)rnd_below(rnd_below(4) == 0 ? 60 : 10);
        if (frac_digits > 0 || int_digits + lead_zeros == 0) {
            t[n++] = '.';
            if (frac_digits == 0)
                frac_digits = 1;
            for (size_t i = 0; i < frac_digits; i++)
                t[n++] = (char)('0' + (rnd_below(5) == 0 ? 0 : rnd_below(10)));
        }
        if (rnd_below(8) == 0)
            n += (size_t)snprintf(t + n, cap - n, "e%d", (int)rnd_below(80) - 40);
        t[n] = '\0';
    }
    if (!gc_pghash_numeric_text(t, n, SEED, h))
        fail("numeric text %s refused by the client", t);
    return n;
}

static const type_case cases[] = {
    { "int2", "int2", "hashint2extended(v, " SEED_SQL ")", gen_int2 },
    { "int4", "int4", "hashint4extended(v, " SEED_SQL ")", gen_int4 },
    { "int8", "int8", "hashint8extended(v, " SEED_SQL ")", gen_int8 },
    { "oid", "oid", "hashoidextended(v, " SEED_SQL ")", gen_oid },
    { "bool", "bool", "hashcharextended(v::int4::\"char\", " SEED_SQL ")", gen_bool },
    { "\"char\"", "int4", "hashcharextended(v::\"char\", " SEED_SQL ")", gen_char },
    { "date", "date", "hashint4extended(v - date '2000-01-01', " SEED_SQL ")", gen_date },
    { "timestamp", "timestamp", "timestamp_hash_extended(v, " SEED_SQL ")", gen_timestamp },
    { "timestamptz", "timestamptz", "timestamp_hash_extended(v::timestamp, " SEED_SQL ")", gen_timestamptz },
    { "text", "text", "hashtextextended(v, " SEED_SQL ")", gen_text },
    { "varchar", "varchar", "hashtextextended(v, " SEED_SQL ")", gen_text },
    { "bpchar", "bpchar", "hashbpcharextended(v, " SEED_SQL ")", gen_bpchar },
    { "uuid", "uuid", "uuid_hash_extended(v, " SEED_SQL ")", gen_uuid },
    { "numeric", "numeric", "hash_numeric_extended(v, " SEED_SQL ")", gen_numeric },
};

static PGconn *connect_admin(void)
{
    const char *dir = getenv("GC_TEST_STATE_DIR");
    if (dir == NULL) {
        fprintf(stderr, "GC_TEST_STATE_DIR is not set\n");
        exit(2);
    }
    char path[4096], conninfo[4096];
    snprintf(path, sizeof path, "%s/admin_conninfo", dir);
    FILE *f = fopen(path, "r");
    if (f == NULL || fgets(conninfo, sizeof conninfo, f) == NULL) {
        fprintf(stderr, "cannot read %s\n", path);
        exit(2);
    }
    fclose(f);
    conninfo[strcspn(conninfo, "\r\n")] = '\0';
    PGconn *conn = PQconnectdb(conninfo);
    if (PQstatus(conn) != CONNECTION_OK) {
        fprintf(stderr, "connect: %s", PQerrorMessage(conn));
        exit(2);
    }
    return conn;
}

static void exec_ok(PGconn *conn, const char *sql)
{
    PGresult *r = PQexec(conn, sql);
    if (PQresultStatus(r) != PGRES_COMMAND_OK && PQresultStatus(r) != PGRES_TUPLES_OK)
        fail("%s: %s", sql, PQerrorMessage(conn));
    PQclear(r);
}

/* The hash support function (number 2) of each key column's default opclass,
 * read the way the shard-map loader will read it: they must be the functions
 * this test compares against. */
static void check_support_functions(PGconn *conn)
{
    static const char *const expect[][2] = {
        { "k_int2", "hashint2extended" },  { "k_int4", "hashint4extended" },
        { "k_int8", "hashint8extended" },  { "k_oid", "hashoidextended" },
        { "k_bool", "hashcharextended" },  { "k_char", "hashcharextended" },
        { "k_date", "hashint4extended" },  { "k_ts", "timestamp_hash_extended" },
        { "k_tstz", "timestamp_hash_extended" }, { "k_text", "hashtextextended" },
        { "k_varchar", "hashtextextended" }, { "k_bpchar", "hashbpcharextended" },
        { "k_bytea", "hashvarlenaextended" }, { "k_uuid", "uuid_hash_extended" },
        { "k_numeric", "hash_numeric_extended" },
    };
    exec_ok(conn, "CREATE TEMP TABLE placement_keys (k_int2 int2, k_int4 int4, k_int8 int8,"
                  " k_oid oid, k_bool bool, k_char \"char\", k_date date, k_ts timestamp,"
                  " k_tstz timestamptz, k_text text, k_varchar varchar, k_bpchar bpchar,"
                  " k_bytea bytea, k_uuid uuid, k_numeric numeric) PARTITION BY HASH (k_int2,"
                  " k_int4, k_int8, k_oid, k_bool, k_char, k_date, k_ts, k_tstz, k_text,"
                  " k_varchar, k_bpchar, k_bytea, k_uuid, k_numeric)");
    PGresult *r = PQexec(conn,
        "SELECT a.attname, ap.amproc::regproc::text"
        " FROM pg_partitioned_table pt"
        " CROSS JOIN LATERAL unnest(pt.partattrs::int2[]) WITH ORDINALITY k(attnum, ord)"
        " JOIN pg_attribute a ON a.attrelid = pt.partrelid AND a.attnum = k.attnum"
        " JOIN pg_opclass opc ON opc.oid = pt.partclass[k.ord - 1]"
        " LEFT JOIN pg_amproc ap ON ap.amprocfamily = opc.opcfamily"
        "  AND ap.amproclefttype = opc.opcintype AND ap.amprocrighttype = opc.opcintype"
        "  AND ap.amprocnum = 2"
        " WHERE pt.partrelid = 'placement_keys'::regclass ORDER BY k.ord");
    if (PQresultStatus(r) != PGRES_TUPLES_OK || PQntuples(r) != 15) {
        fail("support function query: %s", PQerrorMessage(conn));
    } else {
        for (int i = 0; i < 15; i++) {
            if (strcmp(PQgetvalue(r, i, 0), expect[i][0]) != 0 ||
                strcmp(PQgetvalue(r, i, 1), expect[i][1]) != 0)
                fail("support function of %s is %s, expected %s", PQgetvalue(r, i, 0),
                     PQgetvalue(r, i, 1), expect[i][1]);
        }
    }
    PQclear(r);
}

/* Sends VALUES_PER_TYPE random values of one type in one array and compares
 * the server's hashes with the client's. Returns the number compared. */
static int compare_type(PGconn *conn, const type_case *tc)
{
    static uint64_t expected[VALUES_PER_TYPE];
    static char texts[VALUES_PER_TYPE][200];
    array_text arr = { 0 };
    for (int i = 0; i < VALUES_PER_TYPE; i++) {
        size_t n = tc->gen(texts[i], sizeof texts[i], &expected[i]);
        at_element(&arr, texts[i], n);
    }
    at_putc(&arr, '}');
    char sql[512];
    snprintf(sql, sizeof sql, "SELECT %s FROM unnest($1::%s[]) WITH ORDINALITY u(v, i) ORDER BY i",
             tc->hash_expr, tc->array_type);
    const char *params[1] = { arr.buf };
    PGresult *r = PQexecParams(conn, sql, 1, NULL, params, NULL, NULL, 0);
    int compared = 0, mismatches = 0;
    if (PQresultStatus(r) != PGRES_TUPLES_OK || PQntuples(r) != VALUES_PER_TYPE) {
        fail("%s: %s", tc->name, PQerrorMessage(conn));
    } else {
        for (int i = 0; i < VALUES_PER_TYPE; i++) {
            uint64_t server = (uint64_t)strtoll(PQgetvalue(r, i, 0), NULL, 10);
            compared++;
            if (server != expected[i] && mismatches++ < 5)
                fail("%s '%s': server %016" PRIx64 " client %016" PRIx64, tc->name, texts[i],
                     server, expected[i]);
        }
    }
    PQclear(r);
    free(arr.buf);
    printf("%-12s %d values compared, %d mismatches\n", tc->name, compared, mismatches);
    if (mismatches > 5)
        failures += mismatches - 5;
    return compared;
}

/* Rows of (int8, text, date) with NULLs: the client's partition for modulus
 * 7 must satisfy satisfies_hash_partition() on the server. Returns the number
 * of rows checked. */
static int compare_rows(PGconn *conn)
{
    enum { ROWS = 3000, MODULUS = 7 };
    exec_ok(conn, "CREATE TEMP TABLE placement_rows (a int8, b text, c date)"
                  " PARTITION BY HASH (a, b, c)");
    array_text a = { 0 }, b = { 0 }, c = { 0 }, rem = { 0 };
    for (int i = 0; i < ROWS; i++) {
        char ta[64], tb[200], tc[64], tr[16];
        uint64_t h[3];
        bool nulls[3] = { rnd_below(5) == 0, rnd_below(5) == 0, rnd_below(5) == 0 };
        size_t na = gen_int8(ta, sizeof ta, &h[0]);
        size_t nb = gen_text(tb, sizeof tb, &h[1]);
        size_t nc = gen_date(tc, sizeof tc, &h[2]);
        uint64_t row = gc_pghash_row(h, nulls, 3);
        int r = -1;
        for (int k = 0; k < MODULUS; k++)
            if (gc_pghash_in_partition(row, MODULUS, (uint64_t)k))
                r = k;
        size_t nr = (size_t)snprintf(tr, sizeof tr, "%d", r);
        /* An unquoted NULL element is SQL NULL. */
        if (nulls[0]) { at_putc(&a, a.len ? ',' : '{'); at_putc(&a, 'N'); at_putc(&a, 'U'); at_putc(&a, 'L'); at_putc(&a, 'L'); }
        else at_element(&a, ta, na);
        if (nulls[1]) { at_putc(&b, b.len ? ',' : '{'); at_putc(&b, 'N'); at_putc(&b, 'U'); at_putc(&b, 'L'); at_putc(&b, 'L'); }
        else at_element(&b, tb, nb);
        if (nulls[2]) { at_putc(&c, c.len ? ',' : '{'); at_putc(&c, 'N'); at_putc(&c, 'U'); at_putc(&c, 'L'); at_putc(&c, 'L'); }
        else at_element(&c, tc, nc);
        at_element(&rem, tr, nr);
    }
    at_putc(&a, '}'); at_putc(&b, '}'); at_putc(&c, '}'); at_putc(&rem, '}');
    const char *params[4] = { a.buf, b.buf, c.buf, rem.buf };
    PGresult *r = PQexecParams(conn,
        "SELECT count(*) FILTER (WHERE NOT satisfies_hash_partition('placement_rows'::regclass,"
        " 7, r, a, b, c)), count(*) FROM unnest($1::int8[], $2::text[], $3::date[], $4::int4[])"
        " u(a, b, c, r)", 4, NULL, params, NULL, NULL, 0);
    int checked = 0;
    if (PQresultStatus(r) != PGRES_TUPLES_OK) {
        fail("row check: %s", PQerrorMessage(conn));
    } else {
        int wrong = atoi(PQgetvalue(r, 0, 0));
        checked = atoi(PQgetvalue(r, 0, 1));
        printf("%-12s %d rows placed, %d misplaced\n", "(int8,text,date)", checked, wrong);
        if (wrong != 0 || checked != ROWS)
            fail("%d of %d rows misplaced", wrong, checked);
    }
    PQclear(r);
    free(a.buf); free(b.buf); free(c.buf); free(rem.buf);
    return checked;
}

/* bytea's support function takes an internal argument and cannot be called
 * from SQL, so bytea values are checked through satisfies_hash_partition()
 * with two moduli, which together pin down 61 bits of the row hash. Returns
 * the number of values checked. */
static int compare_bytea(PGconn *conn)
{
    enum { M1 = 2147483647, M2 = 1073741824 };
    exec_ok(conn, "CREATE TEMP TABLE placement_bytea (k bytea) PARTITION BY HASH (k)");
    array_text v = { 0 }, r1 = { 0 }, r2 = { 0 };
    for (int i = 0; i < VALUES_PER_TYPE; i++) {
        char tv[200], t1[16], t2[16];
        uint64_t h;
        size_t nv = gen_bytea(tv, sizeof tv, &h);
        uint64_t row = gc_pghash_row(&h, NULL, 1);
        size_t n1 = (size_t)snprintf(t1, sizeof t1, "%" PRIu64, row % M1);
        size_t n2 = (size_t)snprintf(t2, sizeof t2, "%" PRIu64, row % M2);
        at_element(&v, tv, nv);
        at_element(&r1, t1, n1);
        at_element(&r2, t2, n2);
    }
    at_putc(&v, '}'); at_putc(&r1, '}'); at_putc(&r2, '}');
    const char *params[3] = { v.buf, r1.buf, r2.buf };
    PGresult *r = PQexecParams(conn,
        "SELECT count(*) FILTER (WHERE NOT (satisfies_hash_partition('placement_bytea'::regclass,"
        " 2147483647, r1, v) AND satisfies_hash_partition('placement_bytea'::regclass,"
        " 1073741824, r2, v))), count(*) FROM unnest($1::bytea[], $2::int4[], $3::int4[])"
        " u(v, r1, r2)", 3, NULL, params, NULL, NULL, 0);
    int checked = 0;
    if (PQresultStatus(r) != PGRES_TUPLES_OK) {
        fail("bytea check: %s", PQerrorMessage(conn));
    } else {
        int wrong = atoi(PQgetvalue(r, 0, 0));
        checked = atoi(PQgetvalue(r, 0, 1));
        printf("%-12s %d values compared, %d mismatches\n", "bytea", checked, wrong);
        if (wrong != 0 || checked != VALUES_PER_TYPE)
            fail("bytea: %d of %d values misplaced", wrong, checked);
    }
    PQclear(r);
    free(v.buf); free(r1.buf); free(r2.buf);
    return checked;
}

int main(void)
{
    PGconn *conn = connect_admin();
    exec_ok(conn, "SET TimeZone = 'UTC'");
    exec_ok(conn, "SET client_encoding = 'UTF8'");
    server_utf8 = strcmp(PQparameterStatus(conn, "server_encoding"), "UTF8") == 0;
    check_support_functions(conn);
    int total = 0;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        total += compare_type(conn, &cases[i]);
    total += compare_bytea(conn);
    total += compare_rows(conn);
    PQfinish(conn);
    printf("%d values compared with the server, %d failures\n", total, failures);
    return failures == 0 ? 0 : 1;
}
