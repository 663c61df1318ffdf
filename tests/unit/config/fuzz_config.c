/*
 * libFuzzer target for the configuration layer: what an application or an
 * odbc.ini hands the driver before any server is reached. The first byte
 * picks the input, the rest is its text:
 *   0  a connection string (SQLDriverConnect): it parses or fails with
 *      01S00; one that parses is written back pair by pair and parses to
 *      the same pairs; its keys make settings (a refused value is HY024),
 *      and the completed connection string of those settings (the output
 *      SQLDriverConnect returns) makes the same settings again;
 *   1  a Servers list: parsed, or HY024 / 08001;
 *   2  psqlODBC's encoded values: ConnSettings and pqopt percent-decoding,
 *      the CX mask, ExtraSysTablePrefixes' option bits;
 *   3  a locator file: loaded, or 08001 naming where it is wrong.
 * HY001 is allowed everywhere (out of memory). A violated invariant aborts,
 * which libFuzzer reports as a crash; ASan reports reads past the text.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "config/gc_connstr.h"
#include "config/gc_locator.h"
#include "config/gc_psqlodbc.h"
#include "config/gc_servers.h"
#include "config/gc_settings.h"
#include "fuzz_target.h"

static bool sqlstate_is(const gc_error *err, const char *a, const char *b)
{
    return strcmp(err->sqlstate, a) == 0 || (b != NULL && strcmp(err->sqlstate, b) == 0) ||
           strcmp(err->sqlstate, "HY001") == 0;
}

/* Settings from a connection string's pairs, as SQLDriverConnect applies
 * them (no DSN is loaded: the fuzzer reads no odbc.ini). False when the
 * string does not parse. */
static bool settings_from(const char *text, size_t len, gc_settings *s)
{
    gc_connstr cs = {0};
    gc_error err;
    gc_settings_init(s);
    bool parsed = gc_connstr_parse(text, len, &cs, &err);
    if (!parsed)
        CHECK(sqlstate_is(&err, "01S00", NULL));
    for (size_t i = 0; parsed && i < cs.count; i++) {
        gc_error refused;
        gc_error_clear(&refused);
        if (!gc_settings_set(s, cs.pairs[i].key, cs.pairs[i].value, NULL, &refused))
            CHECK(sqlstate_is(&refused, "HY024", NULL));
    }
    gc_connstr_free(&cs);
    return parsed;
}

static void pairs_write_back(const char *text, size_t len)
{
    gc_connstr first = {0}, again = {0};
    gc_error err;
    if (gc_connstr_parse(text, len, &first, &err)) {
        gc_strbuf sb;
        gc_strbuf_init(&sb);
        for (size_t i = 0; i < first.count; i++)
            gc_connstr_append_pair(&sb, first.pairs[i].key, first.pairs[i].value);
        CHECK(gc_connstr_parse(sb.data != NULL ? sb.data : "", sb.len, &again, &err));
        CHECK(again.count == first.count);
        for (size_t i = 0; i < first.count; i++) {
            CHECK(strcmp(first.pairs[i].key, again.pairs[i].key) == 0);
            CHECK(strcmp(first.pairs[i].value, again.pairs[i].value) == 0);
        }
        gc_strbuf_free(&sb);
    }
    gc_connstr_free(&first);
    gc_connstr_free(&again);
}

static void connection_string(const char *text, size_t len)
{
    pairs_write_back(text, len);
    gc_settings made, remade;
    if (settings_from(text, len, &made)) {
        char *completed = gc_settings_to_connection_string(&made);
        CHECK(completed != NULL);
        CHECK(settings_from(completed, strlen(completed), &remade));
        char *completed_again = gc_settings_to_connection_string(&remade);
        CHECK(completed_again != NULL && strcmp(completed, completed_again) == 0);
        gc_server_list servers = {0};
        gc_error err;
        if (gc_settings_servers(&made, &servers, &err))
            gc_server_list_free(&servers);
        else
            CHECK(sqlstate_is(&err, "HY024", "08001"));
        free(completed);
        free(completed_again);
        gc_settings_free(&remade);
    }
    gc_settings_free(&made);
}

static void servers_list(const char *text)
{
    gc_server_list servers = {0};
    gc_error err;
    if (gc_servers_parse(text, &servers, &err)) {
        CHECK(servers.count > 0);
        gc_server_list_free(&servers);
    } else {
        CHECK(sqlstate_is(&err, "HY024", "08001"));
    }
    char why[256];
    (void)gc_servers_check(text, why, sizeof why);
    (void)gc_servers_check_port(text, why, sizeof why);
}

static void psqlodbc_values(const char *text)
{
    free(gc_psqlodbc_decode_percent(text));
    free(gc_psqlodbc_decode_conn_settings(text));
    gc_settings s;
    gc_settings_init(&s);
    (void)gc_psqlodbc_apply_cx(text, &s);
    gc_settings_free(&s);
    char why[256];
    (void)gc_psqlodbc_check_extra_options(text, why, sizeof why);
    (void)gc_psqlodbc_cvt_null_date(text);
}

static void locator_file(const char *text, size_t len)
{
    gc_error err;
    gc_locator *locator = gc_locator_parse(text, len, "fuzz", &err);
    if (locator == NULL)
        CHECK(sqlstate_is(&err, "08001", NULL));
    gc_locator_free(locator);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    size_t len;
    char *text = fuzz_input_copy(data, size, 1, true, &len);
    if (text == NULL)
        return 0;
    switch (data[0] % 4) {
    case 0: connection_string(text, len); break;
    case 1: servers_list(text); break;
    case 2: psqlodbc_values(text); break;
    default: locator_file(text, len); break;
    }
    free(text);
    return 0;
}
