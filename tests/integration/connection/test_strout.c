/*
 * gc_strout, the one place strings leave the driver for application
 * buffers: ODBC's truncation rules for ANSI and wide buffers, lengths in
 * bytes or characters, never a split UTF-8 sequence or surrogate pair.
 * Needs no server (links the core library directly).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdbool.h>
#include <string.h>

#include "core/gc_strout.h"

static int failures;

#define CHECK(cond, ...)                                                    \
    do {                                                                    \
        if (!(cond)) {                                                      \
            failures++;                                                     \
            fprintf(stderr, "FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond); \
            fprintf(stderr, __VA_ARGS__);                                   \
            fputc('\n', stderr);                                            \
        }                                                                   \
    } while (0)

static gc_diag diag;

/* Whether a record with this SQLSTATE was added since the last clear
 * (records are kept in ODBC's order, errors first, not in arrival order). */
static bool has_state(const char *state)
{
    for (int i = 0; i < diag.count; i++)
        if (strcmp(diag.records[i].sqlstate, state) == 0)
            return true;
    return false;
}

static void ansi_fits_and_truncates_on_character_boundary(void)
{
    char buf[8];
    SQLLEN len = -1;
    gc_strout out = { .buffer = buf, .buffer_length = sizeof buf, .wide = false,
                      .unit = GC_LEN_BYTES };
    gc_diag_clear(&diag);
    CHECK(gc_strout_put(&out, "abc", &len, &diag) == SQL_SUCCESS && len == 3 &&
              strcmp(buf, "abc") == 0, "len=%ld", (long)len);
    /* exactly one byte too long for the NUL */
    CHECK(gc_strout_put(&out, "abcdefgh", &len, &diag) == SQL_SUCCESS_WITH_INFO && len == 8 &&
              strcmp(buf, "abcdefg") == 0 && has_state("01004"),
          "buf=%s", buf);
    /* "abcdef" + U+00E9 (2 bytes): 7 bytes of room would split it */
    CHECK(gc_strout_put(&out, "abcdef\xc3\xa9x", &len, &diag) == SQL_SUCCESS_WITH_INFO &&
              len == 9 && strcmp(buf, "abcdef") == 0, "buf=%s", buf);
    /* NULL string is "" */
    CHECK(gc_strout_put(&out, NULL, &len, &diag) == SQL_SUCCESS && len == 0 && buf[0] == 0,
          "null");
}

static void length_only_and_bad_lengths(void)
{
    SQLLEN len = -1;
    gc_strout none = { .buffer = NULL, .buffer_length = 0, .wide = false,
                       .unit = GC_LEN_BYTES };
    gc_diag_clear(&diag);
    CHECK(gc_strout_put(&none, "hello", &len, &diag) == SQL_SUCCESS && len == 5 &&
              diag.count == 0, "length query");
    char buf[4] = "zzz";
    gc_strout zero = { .buffer = buf, .buffer_length = 0, .wide = false,
                       .unit = GC_LEN_BYTES };
    CHECK(gc_strout_put(&zero, "hello", &len, &diag) == SQL_SUCCESS_WITH_INFO &&
              strcmp(buf, "zzz") == 0, "zero-length buffer must not be written");
    gc_strout neg = { .buffer = buf, .buffer_length = -1, .wide = false,
                      .unit = GC_LEN_BYTES };
    CHECK(gc_strout_put(&neg, "hello", &len, &diag) == SQL_ERROR &&
              has_state("HY090"), "negative length");
    SQLSMALLINT small = 0;
    gc_strout ok = { .buffer = buf, .buffer_length = sizeof buf, .wide = false,
                     .unit = GC_LEN_BYTES };
    CHECK(gc_strout_put_small(&ok, "hi", &small, &diag) == SQL_SUCCESS && small == 2, "small");
}

static void wide_counts_in_units_or_bytes(void)
{
    SQLWCHAR w[4];
    SQLLEN len = -1;
    gc_diag_clear(&diag);
    gc_strout chars = { .buffer = w, .buffer_length = 4, .wide = true, .unit = GC_LEN_CHARS };
    CHECK(gc_strout_put(&chars, "h\xc3\xa9", &len, &diag) == SQL_SUCCESS && len == 2 &&
              w[0] == 'h' && w[1] == 0xe9 && w[2] == 0, "wide chars len=%ld", (long)len);
    gc_strout bytes = { .buffer = w, .buffer_length = sizeof w, .wide = true,
                        .unit = GC_LEN_BYTES };
    CHECK(gc_strout_put(&bytes, "abcdef", &len, &diag) == SQL_SUCCESS_WITH_INFO && len == 12 &&
              w[0] == 'a' && w[2] == 'c' && w[3] == 0, "wide bytes len=%ld", (long)len);
    /* U+1F600 is a surrogate pair: with room for 2 units + NUL it fits, with
     * room for 1 unit + NUL it must not be split. */
    const char *emoji = "a\xf0\x9f\x98\x80";
    gc_strout three = { .buffer = w, .buffer_length = 4, .wide = true, .unit = GC_LEN_CHARS };
    CHECK(gc_strout_put(&three, emoji, &len, &diag) == SQL_SUCCESS && len == 3 &&
              w[1] == 0xd83d && w[2] == 0xde00, "pair fits");
    gc_strout two = { .buffer = w, .buffer_length = 3, .wide = true, .unit = GC_LEN_CHARS };
    CHECK(gc_strout_put(&two, emoji, &len, &diag) == SQL_SUCCESS_WITH_INFO && len == 3 &&
              w[0] == 'a' && w[1] == 0, "pair split");
    /* invalid UTF-8 is refused, not passed on */
    CHECK(gc_strout_put(&chars, "\xff", &len, &diag) == SQL_ERROR, "invalid utf-8");
}

int main(void)
{
    gc_diag_init(&diag);
    ansi_fits_and_truncates_on_character_boundary();
    length_only_and_bad_lengths();
    wide_counts_in_units_or_bytes();
    gc_diag_free(&diag);
    printf("test_strout: %s\n", failures == 0 ? "all checks passed" : "FAILED");
    return failures == 0 ? 0 : 1;
}
