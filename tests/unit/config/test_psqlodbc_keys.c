/*
 * psqlODBC's keys: every key of its list is known, its spellings and
 * abbreviations set the same fields, CX unfolds into the keys it stands for,
 * keys without effect are accepted and stored nowhere, and unknown keys are
 * counted with a bounded list of names.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/gc_keys.h"
#include "config/gc_psqlodbc.h"
#include "config/gc_settings.h"

static void set_ok(gc_settings *s, const char *key, const char *value)
{
    gc_error err;
    gc_error_clear(&err);
    if (!gc_settings_set(s, key, value, NULL, &err))
        fail_msg("%s=%s failed: %s", key, value, err.message);
}

static void parse_ok(gc_settings *s, const char *connstr)
{
    gc_error err;
    gc_error_clear(&err);
    if (!gc_settings_from_connection_string(s, connstr, strlen(connstr), NULL, &err))
        fail_msg("%s: %s", connstr, err.message);
}

/* psqlODBC's keys and abbreviations, as its dlg_specific.h names them
 * (Protocol, the rollback level, is checked on its own below). */
static const char *const psqlodbc_keys[] = {
    "Description", "Servername", "Port", "Database", "UID", "Username", "Password",
    "Debug", "B2", "Fetch", "A7", "Socket", "A8", "ReadOnly", "A0", "CommLog", "B3",
    "Optimizer", "B4", "Ksqo", "B5", "ConnSettings", "A6", "UniqueIndex",
    "UnknownSizes", "A9", "CancelAsFreeStmt", "C1", "UseDeclareFetch", "B6",
    "TextAsLongVarchar", "B7", "UnknownsAsLongVarchar", "B8", "BoolsAsChar", "B9",
    "MaxVarcharSize", "B0", "MaxLongVarcharSize", "B1", "FakeOidIndex", "A2",
    "ShowOidColumn", "A3", "RowVersioning", "A4", "ShowSystemTables", "A5", "Lie",
    "Parse", "C0", "ExtraSysTablePrefixes", "C2", "TranslationName", "TranslationDLL",
    "TranslationOption", "DisallowPremature", "C3", "UpdatableCursors", "C4",
    "LFConversion", "C5", "TrueIsMinus1", "C6", "BI", "ByteaAsLongVarBinary", "C7",
    "UseServerSidePrepare", "C8", "LowerCaseIdentifier", "C9", "SSLmode", "CA", "AB",
    "Logdir", "GssAuthUseGSS", "D0", "KeepaliveTime", "D1", "KeepaliveInterval", "D2",
    "Dtclog", "PreferLibpq", "D3", "XaOpt", "D4", "D6", "pqopt", "OptionalErrors",
    "BatchSize", "IgnoreTimeout", "FetchRefcursors", "CX",
};

static void test_every_psqlodbc_key_is_known(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof psqlodbc_keys / sizeof psqlodbc_keys[0]; i++)
        if (gc_keys_find(psqlodbc_keys[i]) == NULL)
            fail_msg("psqlODBC key %s is unknown", psqlodbc_keys[i]);
}

static void test_psqlodbc_spellings_and_abbreviations_set_the_fields(void **state)
{
    (void)state;
    gc_settings s;
    gc_settings_init(&s);
    parse_ok(&s, "Driver={x};Servername=db1;Port=6000;Database=app;Username=alice;"
                 "Password={p;w};SSLmode=require;A0=1;B9=1;B7=0;B8=0;B0=300;B1=1000;"
                 "A9=1;C7=0;BI=12;A6={SET search_path = a};pqopt={gssencmode=disable};"
                 "D1=40;D2=7;B2=1;B3=1;Logdir=/tmp;BatchSize=10");
    assert_string_equal(s.host, "db1");
    assert_string_equal(s.port, "6000");
    assert_string_equal(s.database, "app");
    assert_string_equal(s.uid, "alice");
    assert_string_equal(s.pwd, "p;w");
    assert_string_equal(s.sslmode, "require");
    assert_true(s.read_only);
    assert_true(s.bools_as_char);
    assert_false(s.text_as_longvarchar);
    assert_false(s.unknowns_as_longvarchar);
    assert_int_equal(s.max_varchar_size, 300);
    assert_int_equal(s.max_longvarchar_size, 1000);
    assert_int_equal(s.unknown_sizes, 1);
    assert_false(s.bytea_as_longvarbinary);
    assert_string_equal(s.int8_as, "12");
    assert_string_equal(s.conn_settings, "SET search_path = a");
    assert_string_equal(s.pqopt, "gssencmode=disable");
    assert_int_equal(s.keepalive_time, 40);
    assert_int_equal(s.keepalive_interval, 7);
    assert_true(s.debug);
    assert_true(s.comm_log);
    assert_string_equal(s.log_dir, "/tmp");
    assert_int_equal(s.batch_size, 10);
    assert_int_equal(s.unknown_key_count, 0);
    /* the abbreviation CA of SSLmode too */
    set_ok(&s, "CA", "verify-full");
    assert_string_equal(s.sslmode, "verify-full");
    gc_settings_free(&s);
}

static void test_keys_without_effect_are_accepted_stored_nowhere_and_not_echoed(void **state)
{
    (void)state;
    gc_settings s;
    gc_settings_init(&s);
    parse_ok(&s, "Driver=x;UseDeclareFetch=1;Fetch=5000;Parse=1;ShowOidColumn=1;"
                 "Description={my data source};UniqueIndex=1;XaOpt=1");
    assert_int_equal(s.unknown_key_count, 0);
    assert_null(s.unknown_keys);
    /* nothing of them comes back in the completed connection string */
    char *out = gc_settings_to_connection_string(&s);
    assert_string_equal(out, "Driver=x;");
    free(out);
    gc_settings_free(&s);
}

static void test_cx_sets_the_keys_its_bits_stand_for(void **state)
{
    (void)state;
    gc_settings s;
    gc_settings_init(&s);
    /* 28 bits: ReadOnly (15), BoolsAsChar (18), Debug (11), UnknownSizes
     * "don't know" (6); TextAsLongVarchar (16), ByteaAsLongVarBinary (24)
     * and UnknownsAsLongVarchar (17) clear. */
    unsigned long mask = 1ul << 15 | 1ul << 18 | 1ul << 11 | 1ul << 6;
    char connstr[128];
    snprintf(connstr, sizeof connstr, "Driver=x;CX=1c%lx", mask);
    parse_ok(&s, connstr);
    assert_true(s.read_only);
    assert_true(s.bools_as_char);
    assert_true(s.debug);
    assert_int_equal(s.unknown_sizes, 1);
    assert_false(s.text_as_longvarchar);
    assert_false(s.bytea_as_longvarbinary);
    assert_false(s.unknowns_as_longvarchar);
    assert_false(s.comm_log);
    /* a key written after CX overrides its bit; asmax (7) is UnknownSizes 0 */
    snprintf(connstr, sizeof connstr, "Driver=x;CX=1c%lx;B9=0", 1ul << 7 | 1ul << 16);
    parse_ok(&s, connstr);
    assert_false(s.bools_as_char);
    assert_true(s.text_as_longvarchar);
    assert_false(s.read_only);
    assert_int_equal(s.unknown_sizes, 0);
    /* only the bits the count names count: 16 here */
    set_ok(&s, "CX", "10ffffffff");
    assert_true(s.read_only);          /* bit 15 */
    assert_false(s.bools_as_char);     /* bit 18: beyond the count, unchanged */
    assert_int_equal(s.unknown_sizes, 1);
    gc_settings_free(&s);
}

static void test_one_digit_cx_lfconversion_and_extra_options(void **state)
{
    (void)state;
    gc_settings s;
    gc_settings_init(&s);
    assert_false(s.lf_conversion);
    /* One digit: psqlODBC's first three bits, LFConversion first. */
    set_ok(&s, "CX", "1");
    assert_true(s.lf_conversion);
    set_ok(&s, "CX", "6");
    assert_false(s.lf_conversion);
    set_ok(&s, "LFConversion", "1");
    assert_true(s.lf_conversion);
    /* Two digits: a count and no mask, every counted bit clear. */
    set_ok(&s, "CX", "03");
    assert_false(s.lf_conversion);
    /* AB in psqlODBC's three number forms; bit 0x8 is the empty-date one. */
    assert_false(gc_psqlodbc_cvt_null_date(s.extra_options));
    const char *with_bit[] = { "0x08", "0X1f", "8", "010", "24" };
    for (size_t i = 0; i < sizeof with_bit / sizeof with_bit[0]; i++) {
        set_ok(&s, "AB", with_bit[i]);
        assert_true(gc_psqlodbc_cvt_null_date(s.extra_options));
    }
    set_ok(&s, "ExtraOptions", "0x7");
    assert_false(gc_psqlodbc_cvt_null_date(s.extra_options));
    const char *bad[] = { "0x", "abc", "-8", "08", " 8" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        gc_error err;
        gc_error_clear(&err);
        assert_false(gc_settings_set(&s, "AB", bad[i], NULL, &err));
        assert_string_equal(err.sqlstate, "HY024");
    }
    gc_settings_free(&s);
}

static void test_bad_cx_fails_with_HY024_and_changes_nothing(void **state)
{
    (void)state;
    const char *bad[] = { "", "g", "1cxyz", "g1ff", "1c11111111111111111" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        gc_settings s;
        gc_settings_init(&s);
        gc_error err;
        gc_error_clear(&err);
        assert_false(gc_settings_set(&s, "CX", bad[i], NULL, &err));
        assert_string_equal(err.sqlstate, "HY024");
        assert_true(s.text_as_longvarchar);
        assert_false(s.read_only);
        gc_settings_free(&s);
    }
}

/* FetchWindowRows (rows read ahead at execute) and psqlODBC's Protocol
 * (the rollback level, also by its abbreviation A1) are keys. */
static void test_fetch_window_rows_and_protocol_are_known(void **state)
{
    (void)state;
    gc_settings s;
    gc_settings_init(&s);
    parse_ok(&s, "Driver=x;FetchWindowRows=50;Protocol=7.4-1");
    assert_int_equal(s.unknown_key_count, 0);
    assert_int_equal(s.fetch_window_rows, 50);
    assert_string_equal(s.rollback_on_error, "7.4-1");
    gc_settings_free(&s);
    gc_settings_init(&s);
    parse_ok(&s, "Driver=x;A1=7.4-0");
    assert_int_equal(s.unknown_key_count, 0);
    assert_string_equal(s.rollback_on_error, "7.4-0");
    gc_settings_free(&s);
}

static void test_unknown_keys_are_counted_and_only_the_first_names_kept(void **state)
{
    (void)state;
    gc_settings s;
    gc_settings_init(&s);
    char long_name[200];
    memset(long_name, 'k', sizeof long_name - 1);
    long_name[sizeof long_name - 1] = '\0';
    gc_settings_note_unknown_key(&s, long_name);
    for (int i = 1; i < 100; i++) {
        char name[32];
        snprintf(name, sizeof name, "Unknown%d", i);
        gc_settings_note_unknown_key(&s, name);
    }
    assert_int_equal(s.unknown_key_count, 100);
    size_t commas = 0;
    for (const char *p = s.unknown_keys; *p != '\0'; p++)
        commas += *p == ',';
    assert_int_equal(commas, GC_SETTINGS_UNKNOWN_KEPT - 1);
    assert_non_null(strstr(s.unknown_keys, "Unknown15"));
    assert_null(strstr(s.unknown_keys, "Unknown16"));
    /* a long name is cut */
    assert_int_equal(strcspn(s.unknown_keys, ","), GC_SETTINGS_UNKNOWN_NAME_MAX);
    gc_settings_free(&s);
    assert_null(s.unknown_keys);
    assert_int_equal(s.unknown_key_count, 0);
}

static void test_percent_decoding_as_psqlodbc_writes_it(void **state)
{
    (void)state;
    char *out = gc_psqlodbc_decode_percent("SET%20search_path%3Da%3Bb 100% %4");
    assert_string_equal(out, "SET search_path=a;b 100% %4");
    free(out);
    out = gc_psqlodbc_decode_percent("");
    assert_string_equal(out, "");
    free(out);
    /* A '+' stays a '+' in pqopt; ConnSettings reads it as a space, as
     * psqlODBC does, and %2B is the '+' there. */
    out = gc_psqlodbc_decode_percent("a+b");
    assert_string_equal(out, "a+b");
    free(out);
    out = gc_psqlodbc_decode_conn_settings("set+search_path+to+x%2By%20");
    assert_string_equal(out, "set search_path to x+y ");
    free(out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_psqlodbc_key_is_known),
        cmocka_unit_test(test_psqlodbc_spellings_and_abbreviations_set_the_fields),
        cmocka_unit_test(test_keys_without_effect_are_accepted_stored_nowhere_and_not_echoed),
        cmocka_unit_test(test_cx_sets_the_keys_its_bits_stand_for),
        cmocka_unit_test(test_one_digit_cx_lfconversion_and_extra_options),
        cmocka_unit_test(test_bad_cx_fails_with_HY024_and_changes_nothing),
        cmocka_unit_test(test_fetch_window_rows_and_protocol_are_known),
        cmocka_unit_test(test_unknown_keys_are_counted_and_only_the_first_names_kept),
        cmocka_unit_test(test_percent_decoding_as_psqlodbc_writes_it),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
