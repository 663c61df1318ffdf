/*
 * Reading data sources from real odbc.ini files through unixODBC: a
 * temporary ODBCSYSINI dir (system odbc.ini and odbcinst.ini) and ODBCINI
 * (user odbc.ini), set before the first call.
 *
 * unixODBC caches entries it has read for a short while by section and
 * entry, so every test reads its own DSN and the files never change.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config/gc_settings.h"

static char dir[] = "/tmp/gc_config_dsn_XXXXXX";
static char sys_ini[64], user_ini[64], inst_ini[64];

static const char system_odbc_ini[] =
    "[cfg_values]\n"
    "Driver = gcodbc\n"
    "Servers = dsnhost:1111,dsnhost:2222\n"
    "UID = dsnuser\n"
    "PWD = dsnpw\n"
    "Database = dsndb\n"
    "LOCALITY_MEMBER_POLICY = 2\n"
    "GlobalConnection = Yes\n"
    "LogLevel = 1\n"
    "Description = a known key without effect\n"
    "NotOneOfOurs = secret value\n"
    "\n"
    "[cfg_override]\n"
    "Driver = gcodbc\n"
    "UID = dsnuser\n"
    "Database = dsndb\n"
    "LogLevel = 1\n"
    "Locator = dsn.yaml\n"
    "MaxVarcharSize = 200\n"
    "\n"
    "[cfg_aliases]\n"
    "Driver = gcodbc\n"
    "Servername = aliashost\n"
    "PORT = 6543\n"
    "Username = aliasuser\n"
    "Password = aliaspw\n"
    "DB = aliasdb\n"
    "LOCATOR_FILE = cluster.yaml\n"
    "USE_GLOBAL_SESSION = on\n"
    "LOCALITY_AWARE_TRANSACTION = true\n"
    "locality_group_policy = 1\n"
    "LOCALITY_GROUP_PATH = G2,G1\n"
    "\n"
    "[cfg_psqlodbc]\n"
    "Description = a data source written for psqlODBC\n"
    "Driver = psqlodbc\n"
    "Servername = pghost\n"
    "Port = 5433\n"
    "Database = pgdb\n"
    "Username = pguser\n"
    "Password = pgpw\n"
    "SSLmode = disable\n"
    "ReadOnly = 1\n"
    "BoolsAsChar = 1\n"
    "TextAsLongVarchar = 0\n"
    "MaxVarcharSize = 255\n"
    "MaxLongVarcharSize = 8190\n"
    "UseDeclareFetch = 1\n"
    "Fetch = 100\n"
    "ConnSettings = SET%20search_path%3Dpublic\n"
    "UseServerSidePrepare = 1\n"
    "ShowOidColumn = 0\n"
    "FakeOidIndex = 0\n"
    "RowVersioning = 0\n"
    "ShowSystemTables = 0\n"
    "Protocol = 7.4\n"
    "\n"
    "[cfg_name_beats_alias]\n"
    "Driver = gcodbc\n"
    "User = from_alias\n"
    "UID = from_name\n"
    "\n"
    "[cfg_bad_value]\n"
    "Driver = gcodbc\n"
    "LogLevel = loud\n";

static const char user_odbc_ini[] =
    "[cfg_user]\n"
    "Driver = gcodbc\n"
    "Servers = userhost:7777\n";

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static int setup(void **state)
{
    (void)state;
    if (mkdtemp(dir) == NULL)
        return -1;
    snprintf(sys_ini, sizeof sys_ini, "%s/odbc.ini", dir);
    snprintf(user_ini, sizeof user_ini, "%s/user-odbc.ini", dir);
    snprintf(inst_ini, sizeof inst_ini, "%s/odbcinst.ini", dir);
    write_file(sys_ini, system_odbc_ini);
    write_file(user_ini, user_odbc_ini);
    write_file(inst_ini, "[gcodbc]\nDriver = libgcodbc.so\n");
    setenv("ODBCSYSINI", dir, 1);
    setenv("ODBCINI", user_ini, 1);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    unlink(sys_ini);
    unlink(user_ini);
    unlink(inst_ini);
    rmdir(dir);
    return 0;
}

static void connect_ok(gc_settings *s, const char *text)
{
    gc_settings_init(s);
    gc_error err;
    gc_error_clear(&err);
    if (!gc_settings_from_connection_string(s, text, strlen(text), NULL, &err))
        fail_msg("%s: %s %s", text, err.sqlstate, err.message);
}

static void test_dsn_values_are_loaded(void **state)
{
    (void)state;
    gc_settings s;
    gc_settings_init(&s);
    gc_error err;
    gc_error_clear(&err);
    assert_true(gc_settings_load_dsn(&s, "cfg_values", NULL, &err));
    assert_string_equal(s.dsn, "cfg_values");
    assert_string_equal(s.driver, "gcodbc");
    assert_string_equal(s.servers, "dsnhost:1111,dsnhost:2222");
    assert_string_equal(s.uid, "dsnuser");
    assert_string_equal(s.pwd, "dsnpw");
    assert_string_equal(s.database, "dsndb");
    assert_int_equal(s.locality_member_policy, 2);
    assert_true(s.global_connection);
    assert_int_equal(s.log_level, 1);
    gc_settings_free(&s);
}

static void test_connection_string_overrides_dsn_wherever_it_stands(void **state)
{
    (void)state;
    gc_settings s;
    /* string keys before and after DSN= both win over the DSN */
    connect_ok(&s, "UID=struser;DSN=cfg_override;LogLevel=3;Locator=;db={str db}");
    assert_string_equal(s.dsn, "cfg_override");
    assert_string_equal(s.uid, "struser");
    assert_int_equal(s.log_level, 3);
    assert_null(s.locator);                      /* an empty value clears */
    assert_string_equal(s.database, "str db");
    assert_int_equal(s.max_varchar_size, 200);   /* not overridden: from the DSN */
    gc_settings_free(&s);
}

static void test_dsn_keys_are_read_under_their_aliases(void **state)
{
    (void)state;
    gc_settings s;
    connect_ok(&s, "dsn=cfg_aliases");
    assert_string_equal(s.host, "aliashost");
    assert_string_equal(s.port, "6543");
    assert_string_equal(s.uid, "aliasuser");
    assert_string_equal(s.pwd, "aliaspw");
    assert_string_equal(s.database, "aliasdb");
    assert_string_equal(s.locator, "cluster.yaml");
    assert_true(s.global_session);
    assert_true(s.global_connection);
    assert_int_equal(s.locality_group_policy, 1);
    assert_string_equal(s.locality_group_path, "G2,G1");
    char *host = NULL, *port = NULL;
    gc_error err;
    gc_error_clear(&err);
    assert_true(gc_settings_first_server(&s, &host, &port, &err));
    assert_string_equal(host, "aliashost");
    assert_string_equal(port, "6543");
    free(host);
    free(port);
    gc_settings_free(&s);
}

static void test_key_name_wins_over_alias_within_a_dsn(void **state)
{
    (void)state;
    gc_settings s;
    connect_ok(&s, "DSN=cfg_name_beats_alias");
    assert_string_equal(s.uid, "from_name");
    gc_settings_free(&s);
}

static void test_user_odbc_ini_is_read_too(void **state)
{
    (void)state;
    gc_settings s;
    connect_ok(&s, "DSN=cfg_user");
    assert_string_equal(s.servers, "userhost:7777");
    gc_settings_free(&s);
}

static void test_missing_dsn_fails_with_IM002(void **state)
{
    (void)state;
    gc_settings s;
    gc_settings_init(&s);
    gc_error err;
    gc_error_clear(&err);
    assert_false(gc_settings_load_dsn(&s, "cfg_absent", NULL, &err));
    assert_string_equal(err.sqlstate, "IM002");
    assert_non_null(strstr(err.message, "cfg_absent"));
    gc_error_clear(&err);
    assert_false(gc_settings_load_dsn(&s, "", NULL, &err));
    assert_string_equal(err.sqlstate, "IM002");
    gc_settings_free(&s);
}

static void test_bad_value_in_dsn_fails_with_HY024_naming_dsn_and_key(void **state)
{
    (void)state;
    gc_settings s;
    gc_settings_init(&s);
    gc_error err;
    gc_error_clear(&err);
    const char *text = "DSN=cfg_bad_value";
    assert_false(gc_settings_from_connection_string(&s, text, strlen(text), NULL, &err));
    assert_string_equal(err.sqlstate, "HY024");
    assert_non_null(strstr(err.message, "cfg_bad_value"));
    assert_non_null(strstr(err.message, "LogLevel"));
    assert_non_null(strstr(err.message, "integer 0 to 3"));
    gc_settings_free(&s);
}

static void test_unknown_dsn_entries_are_traced_by_name(void **state)
{
    (void)state;
    char path[] = "/tmp/gc_config_dsn_trace_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    gc_trace *trace = gc_trace_open(path, GC_TRACE_INFO);
    gc_settings s;
    gc_settings_init(&s);
    gc_error err;
    gc_error_clear(&err);
    assert_true(gc_settings_load_dsn(&s, "cfg_values", trace, &err));
    gc_trace_close(trace);
    FILE *f = fopen(path, "r");
    char text[4096] = { 0 };
    size_t n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    unlink(path);
    assert_true(n > 0);
    assert_non_null(strstr(text, "'NotOneOfOurs'"));
    assert_null(strstr(text, "secret value"));
    assert_null(strstr(text, "'Description'"));   /* known: psqlODBC's */
    assert_null(strstr(text, "dsnpw"));
    /* remembered for the connection's 01S00 */
    assert_int_equal(s.unknown_key_count, 1);
    assert_string_equal(s.unknown_keys, "NotOneOfOurs");
    gc_settings_free(&s);
}

static void test_psqlodbc_dsn_is_read_with_its_own_spellings(void **state)
{
    (void)state;
    gc_settings s;
    connect_ok(&s, "DSN=cfg_psqlodbc");
    assert_string_equal(s.host, "pghost");
    assert_string_equal(s.port, "5433");
    assert_string_equal(s.database, "pgdb");
    assert_string_equal(s.uid, "pguser");
    assert_string_equal(s.pwd, "pgpw");
    assert_string_equal(s.sslmode, "disable");
    assert_true(s.read_only);
    assert_true(s.bools_as_char);
    assert_false(s.text_as_longvarchar);
    assert_int_equal(s.max_varchar_size, 255);
    assert_string_equal(s.conn_settings, "SET%20search_path%3Dpublic");
    /* every key of this DSN is known, Protocol (the rollback level) too */
    assert_int_equal(s.unknown_key_count, 0);
    gc_settings_free(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dsn_values_are_loaded),
        cmocka_unit_test(test_connection_string_overrides_dsn_wherever_it_stands),
        cmocka_unit_test(test_dsn_keys_are_read_under_their_aliases),
        cmocka_unit_test(test_key_name_wins_over_alias_within_a_dsn),
        cmocka_unit_test(test_user_odbc_ini_is_read_too),
        cmocka_unit_test(test_missing_dsn_fails_with_IM002),
        cmocka_unit_test(test_bad_value_in_dsn_fails_with_HY024_naming_dsn_and_key),
        cmocka_unit_test(test_unknown_dsn_entries_are_traced_by_name),
        cmocka_unit_test(test_psqlodbc_dsn_is_read_with_its_own_spellings),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
