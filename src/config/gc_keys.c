/*
 * gc_keys: the connection key table and the code that reads and writes one
 * key's value in gc_settings. Adding a key is adding a row here (and a field
 * in gc_settings); parsing, defaults, the output connection string and the
 * documentation follow from the row.
 */
#include "config/gc_keys.h"

#include <assert.h>
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "config/gc_servers.h"

#define FIELD(f) offsetof(gc_settings, f)

static const char *const sslmode_choices[] = {
    "disable", "allow", "prefer", "require", "verify-ca", "verify-full", NULL,
};

/* RollbackOnError: gcodbc's level, or psqlODBC's Protocol value `7.4[-level]`. */
static const char *const rollback_choices[] = {
    "0", "1", "2", "7.4", "7.4-0", "7.4-1", "7.4-2", NULL,
};

const gc_key gc_keys[] = {
    /* Where to connect */
    { .name = "DSN", .type = GC_KEY_STRING, .offset = FIELD(dsn),
      .flags = GC_KEY_NOT_IN_DSN, .value_hint = "data source name",
      .doc = "Data source name: the odbc.ini section to read. Its entries are "
             "read first; the connection string's own attributes then override "
             "them, wherever they stand in the string." },
    { .name = "Driver", .type = GC_KEY_STRING, .offset = FIELD(driver),
      .value_hint = "driver name or path",
      .doc = "The driver, as named in odbcinst.ini or as a path to the shared "
             "library. Used by the driver manager for DSN-less connections; "
             "usually written braced, as in `Driver={gcodbc}`." },
    { .name = "Servers", .type = GC_KEY_STRING, .offset = FIELD(servers),
      .check = gc_servers_check, .value_hint = "`host:port,host:port`",
      .doc = "Seed members, comma-separated. IPv6 addresses go in brackets "
             "(`[::1]:5432`); a missing port means 5432. A global connection "
             "learns the other members from the cluster catalog; a general "
             "connection uses the first one. When set, Host and Port are not "
             "used." },
    { .name = "Host", .aliases = { "Server", "Servername", NULL },
      .type = GC_KEY_STRING, .offset = FIELD(host), .value_hint = "host name or address",
      .doc = "One seed member's host, the GOLDILOCKS way (`HOST`); used with Port "
             "when Servers is not set." },
    { .name = "Port", .type = GC_KEY_STRING, .offset = FIELD(port),
      .default_value = GC_DEFAULT_PORT, .check = gc_servers_check_port,
      .value_hint = "1 to 65535",
      .doc = "The port that goes with Host (GOLDILOCKS `PORT`)." },
    { .name = "Locator", .goldilocks = "LOCATOR_FILE", .type = GC_KEY_STRING,
      .offset = FIELD(locator), .value_hint = "file path",
      .doc = "A YAML file listing the members (name, group, host, port), as "
             "written by gcctl. Its members are seeds, and the fallback when no "
             "seed answers. A locator that cannot be read or parsed fails the "
             "connection with SQLSTATE 08001 and a message giving file, line "
             "and column." },
    { .name = "Database", .aliases = { "DB", NULL }, .type = GC_KEY_STRING,
      .offset = FIELD(database), .value_hint = "database name",
      .doc = "The PostgreSQL database on every member. Unset: libpq's default "
             "(the user name)." },
    { .name = "UID", .aliases = { "User", "Username", NULL }, .type = GC_KEY_STRING,
      .offset = FIELD(uid), .value_hint = "role name",
      .doc = "The PostgreSQL role to connect as, on every member." },
    { .name = "PWD", .aliases = { "Password", NULL }, .type = GC_KEY_STRING,
      .offset = FIELD(pwd), .flags = GC_KEY_SECRET, .value_hint = "password",
      .doc = "The role's password. Never written to the trace log nor to error "
             "messages; it is part of the completed connection string that "
             "SQLDriverConnect returns, as ODBC requires." },
    /* Global connection */
    { .name = "GlobalConnection", .goldilocks = "LOCALITY_AWARE_TRANSACTION",
      .type = GC_KEY_BOOL, .default_value = "No", .offset = FIELD(global_connection),
      .doc = "Yes: a global connection, holding a session on every member and "
             "sending each transaction to the member that holds its data. No: a "
             "general connection to one member, with no routing." },
    { .name = "LocalityMemberPolicy", .goldilocks = "LOCALITY_MEMBER_POLICY",
      .type = GC_KEY_INT, .min = 0, .max = 4, .default_value = "0",
      .offset = FIELD(locality_member_policy),
      .doc = "Which member of the chosen group runs a transaction. PostgreSQL "
             "standbys refuse writes, so DML always runs on the group's primary "
             "(MASTER); the policies differ in where reads go. 0: SELECT on the "
             "primary. 1 and 2: SELECT on any member. 3: SELECT on a standby "
             "(SLAVE), the primary when none is up. 4: the first available "
             "member in LocalityMemberPath order that can serve the statement, "
             "else the primary. See docs/routing-policies.md." },
    { .name = "LocalityMemberPath", .goldilocks = "LOCALITY_MEMBER_PATH",
      .type = GC_KEY_STRING, .offset = FIELD(locality_member_path),
      .value_hint = "member names, as in `G1N2,G2N2,G1N1`",
      .doc = "Member preference order for LocalityMemberPolicy 4." },
    { .name = "LocalityGroupPolicy", .goldilocks = "LOCALITY_GROUP_POLICY",
      .type = GC_KEY_INT, .min = 0, .max = 2, .default_value = "0",
      .offset = FIELD(locality_group_policy),
      .doc = "Which group runs a statement when no group follows from a sharding "
             "key. 0: a random group. 1: LocalityGroupPath order, then random. "
             "2: the order in which members were connected." },
    { .name = "LocalityGroupPath", .goldilocks = "LOCALITY_GROUP_PATH",
      .type = GC_KEY_STRING, .offset = FIELD(locality_group_path),
      .value_hint = "group names, as in `G2,G1`",
      .doc = "Group preference order for LocalityGroupPolicy 1." },
    { .name = "LocalityOnDemand", .type = GC_KEY_BOOL, .default_value = "No",
      .offset = FIELD(locality_on_demand),
      .doc = "Yes: open a member session only when a statement first needs that "
             "member, instead of connecting to every member at connect time." },
    { .name = "GlobalSession", .goldilocks = "USE_GLOBAL_SESSION",
      .type = GC_KEY_BOOL, .default_value = "No", .offset = FIELD(global_session),
      .doc = "Yes: the global connections of one process to the same cluster and "
             "role share member sessions, each borrowed for one transaction, so "
             "server sessions follow concurrent transactions instead of "
             "connections times members. DDL is refused under a global session." },
    { .name = "DirectExecuteRouting", .type = GC_KEY_BOOL, .default_value = "No",
      .offset = FIELD(direct_execute_routing),
      .doc = "Yes: route SQLExecDirect statements by the sharding-key literals they "
             "contain too. No (the GOLDILOCKS rule): SQLExecDirect goes to a member "
             "chosen by the locality policies; only prepared statements are "
             "routed by key." },
    { .name = "ResolveLostWrites", .type = GC_KEY_BOOL, .default_value = "Yes",
      .offset = FIELD(resolve_lost_writes),
      .doc = "Yes: an autocommit INSERT, UPDATE, DELETE or MERGE carries its "
             "transaction id in the same exchange, so when its member fails before "
             "answering the driver finds out whether it committed (success, a silent "
             "re-run elsewhere, or 40003). No: one statement less per write; a lost "
             "answer is reported as the error that came and never re-run "
             "(docs/failover.md)." },
    /* TLS */
    { .name = "SSLMode", .type = GC_KEY_ENUM, .choices = sslmode_choices,
      .offset = FIELD(sslmode),
      .doc = "libpq's sslmode for every member session. Unset: libpq's default "
             "(`prefer`)." },
    { .name = "SSLRootCert", .type = GC_KEY_STRING, .offset = FIELD(sslrootcert),
      .value_hint = "file path",
      .doc = "File of trusted certificate authorities (libpq's sslrootcert)." },
    { .name = "SSLCert", .type = GC_KEY_STRING, .offset = FIELD(sslcert),
      .value_hint = "file path",
      .doc = "Client certificate file (libpq's sslcert)." },
    { .name = "SSLKey", .type = GC_KEY_STRING, .offset = FIELD(sslkey),
      .value_hint = "file path",
      .doc = "Client private key file (libpq's sslkey)." },
    /* Timing */
    { .name = "ConnectTimeout", .type = GC_KEY_INT, .min = 1, .max = 3600,
      .default_value = "10", .offset = FIELD(connect_timeout),
      .doc = "Seconds to wait for one member session to be established before "
             "that member counts as unreachable." },
    { .name = "ReconnectInterval", .type = GC_KEY_INT, .min = 1, .max = 3600,
      .default_value = "1", .offset = FIELD(reconnect_interval),
      .doc = "Seconds before the first attempt to reconnect a member that went "
             "down; later attempts back off from it, with jitter. A statement "
             "that has nowhere better to run tries one reconnect sooner "
             "(docs/failover.md, Reconnecting)." },
    { .name = "MemberTimeout", .type = GC_KEY_INT, .min = 1, .max = 3600,
      .default_value = "5", .offset = FIELD(member_timeout),
      .doc = "Seconds without an answer from a member, while the driver is "
             "checking its health, after which the member is marked down." },
    { .name = "TopologyRefresh", .type = GC_KEY_INT, .min = 1, .max = 86400,
      .default_value = "10", .offset = FIELD(topology_refresh),
      .doc = "Upper bound, in seconds, between checks of the catalog version, in "
             "case a change notification (NOTIFY) was missed." },
    /* Behaviour */
    { .name = "FetchWindowRows", .type = GC_KEY_INT, .min = 1, .max = 10000000,
      .default_value = "1000", .offset = FIELD(fetch_window_rows),
      .doc = "Rows per window when the driver streams a result. The driver fetches "
             "large results window by window, so a result larger than memory never "
             "has to fit in it; a larger window means fewer round trips and more "
             "memory per statement." },
    { .name = "RollbackOnError", .aliases = { "Protocol", NULL }, .type = GC_KEY_ENUM,
      .choices = rollback_choices, .default_value = "2", .offset = FIELD(rollback_on_error),
      .doc = "What the driver does when a statement fails inside a transaction "
             "(docs/transactions.md). 0: nothing; the transaction stays aborted "
             "(25P02) until SQLEndTran. 1: it rolls the whole transaction back, so "
             "the next statement starts a new one. 2: it rolls back only the failed "
             "statement (a savepoint is set before each statement in a "
             "transaction, sent in the same round trip); the transaction goes on. "
             "psqlODBC's `Protocol=7.4-0`, `7.4-1`, `7.4-2` mean the same; `7.4` "
             "alone is the default." },
    { .name = "ApplicationName", .type = GC_KEY_STRING,
      .offset = FIELD(application_name), .value_hint = "text",
      .doc = "application_name of every member session, shown in "
             "pg_stat_activity." },
    /* Trace */
    { .name = "LogLevel", .type = GC_KEY_INT, .min = 0, .max = 3,
      .default_value = "0", .offset = FIELD(log_level),
      .doc = "Trace log detail. 0: off. 1: errors. 2: connections and routing "
             "decisions. 3: every call and statement. Passwords are never "
             "written." },
    { .name = "LogFile", .type = GC_KEY_STRING, .offset = FIELD(log_file),
      .value_hint = "file path",
      .doc = "File the trace log is appended to. Unset: standard error. Each line starts "
             "with the UTC time, the process id in brackets and `gcodbc #N:`, N numbering "
             "the connections of the process in the order they were opened, so that "
             "connections sharing one file can be told apart." },
};

const size_t gc_keys_count = sizeof gc_keys / sizeof gc_keys[0];

/* Case-insensitive lookup over every spelling of every key. */
const gc_key *gc_keys_find(const char *spelling)
{
    if (spelling == NULL)
        return NULL;
    for (size_t i = 0; i < gc_keys_count; i++) {
        const gc_key *key = &gc_keys[i];
        if (strcasecmp(key->name, spelling) == 0)
            return key;
        if (key->goldilocks != NULL && strcasecmp(key->goldilocks, spelling) == 0)
            return key;
        for (size_t a = 0; key->aliases[a] != NULL; a++)
            if (strcasecmp(key->aliases[a], spelling) == 0)
                return key;
    }
    return NULL;
}

bool gc_key_parse_bool(const char *text, bool *out)
{
    static const char *const yes[] = { "yes", "1", "true", "on", NULL };
    static const char *const no[] = { "no", "0", "false", "off", NULL };
    for (size_t i = 0; yes[i] != NULL; i++) {
        if (strcasecmp(text, yes[i]) == 0) {
            *out = true;
            return true;
        }
        if (strcasecmp(text, no[i]) == 0) {
            *out = false;
            return true;
        }
    }
    return false;
}

static bool parse_int(const char *text, int min, int max, int *out)
{
    errno = 0;
    char *end;
    long value = strtol(text, &end, 10);
    if (end == text || errno != 0)
        return false;
    while (isspace((unsigned char)*end))
        end++;
    if (*end != '\0' || value < min || value > max)
        return false;
    *out = (int)value;
    return true;
}

void gc_key_describe_values(const gc_key *key, gc_strbuf *out)
{
    switch (key->type) {
    case GC_KEY_STRING:
        gc_strbuf_append_str(out, key->value_hint ? key->value_hint : "text");
        break;
    case GC_KEY_BOOL:
        gc_strbuf_append_str(out, "Yes or No (also 1/0, true/false, on/off)");
        break;
    case GC_KEY_INT:
        gc_strbuf_appendf(out, "integer %d to %d", key->min, key->max);
        break;
    case GC_KEY_ENUM:
        gc_strbuf_append_str(out, "one of ");
        for (size_t i = 0; key->choices[i] != NULL; i++)
            gc_strbuf_appendf(out, "%s%s", i ? ", " : "", key->choices[i]);
        break;
    }
}

/* Fills err with HY024 for a bad value of key. */
static void set_bad_value(const gc_key *key, const char *spelling, const char *value,
                          const char *why, gc_error *err)
{
    gc_strbuf accepted;
    gc_strbuf_init(&accepted);
    gc_key_describe_values(key, &accepted);
    char named[160];
    if (spelling != NULL && strcmp(spelling, key->name) != 0)
        snprintf(named, sizeof named, "%s (%s)", spelling, key->name);
    else
        snprintf(named, sizeof named, "%s", key->name);
    bool secret = (key->flags & GC_KEY_SECRET) != 0;
    gc_error_set(err, "HY024", 0, "invalid value %s%s%s for %s: %s; accepted: %s",
                 secret ? "" : "'", secret ? "(hidden)" : value, secret ? "" : "'",
                 named, why ? why : "not accepted",
                 accepted.data ? accepted.data : "?");
    gc_strbuf_free(&accepted);
}

/* Parses and stores; see gc_keys.h. Strings are copied, old ones freed. */
bool gc_key_store(const gc_key *key, const char *spelling, const char *value,
                  gc_settings *s, gc_error *err)
{
    assert(key != NULL && s != NULL && value != NULL);
    char *field = (char *)s + key->offset;
    if (value[0] == '\0')
        value = key->default_value;   /* an empty value means "the default" */
    /* Every bool and int key has a default (checked by the table tests). */
    assert(value != NULL || key->type == GC_KEY_STRING || key->type == GC_KEY_ENUM);

    switch (key->type) {
    case GC_KEY_BOOL: {
        bool parsed;
        if (!gc_key_parse_bool(value, &parsed)) {
            set_bad_value(key, spelling, value, NULL, err);
            return false;
        }
        *(bool *)field = parsed;
        return true;
    }
    case GC_KEY_INT: {
        int parsed;
        if (!parse_int(value, key->min, key->max, &parsed)) {
            set_bad_value(key, spelling, value, "out of range or not a number", err);
            return false;
        }
        *(int *)field = parsed;
        return true;
    }
    case GC_KEY_ENUM:
    case GC_KEY_STRING: {
        const char *keep = value;
        if (value != NULL && key->type == GC_KEY_ENUM) {
            keep = NULL;
            for (size_t i = 0; key->choices[i] != NULL; i++)
                if (strcasecmp(key->choices[i], value) == 0)
                    keep = key->choices[i];
            if (keep == NULL) {
                set_bad_value(key, spelling, value, NULL, err);
                return false;
            }
        }
        char why[128];
        if (keep != NULL && key->check != NULL && !key->check(keep, why, sizeof why)) {
            set_bad_value(key, spelling, value, why, err);
            return false;
        }
        char *copy = NULL;
        if (keep != NULL && (copy = strdup(keep)) == NULL) {
            gc_error_set(err, "HY001", 0, "out of memory storing %s", key->name);
            return false;
        }
        free(*(char **)field);
        *(char **)field = copy;
        return true;
    }
    }
    assert(!"unknown key type");
    return false;
}

char *gc_key_format(const gc_key *key, const gc_settings *s, bool *oom)
{
    const char *field = (const char *)s + key->offset;
    const char *text = NULL;
    char number[24];
    *oom = false;
    switch (key->type) {
    case GC_KEY_BOOL:
        text = *(const bool *)field ? "Yes" : "No";
        break;
    case GC_KEY_INT:
        snprintf(number, sizeof number, "%d", *(const int *)field);
        text = number;
        break;
    case GC_KEY_ENUM:
    case GC_KEY_STRING:
        text = *(char *const *)field;
        break;
    }
    if (text == NULL)
        return NULL;
    char *copy = strdup(text);
    *oom = copy == NULL;
    return copy;
}

bool gc_key_is_default(const gc_key *key, const gc_settings *s)
{
    const char *field = (const char *)s + key->offset;
    switch (key->type) {
    case GC_KEY_BOOL: {
        bool def = false;
        if (key->default_value != NULL)
            gc_key_parse_bool(key->default_value, &def);
        return *(const bool *)field == def;
    }
    case GC_KEY_INT: {
        int def = 0;
        if (key->default_value != NULL)
            parse_int(key->default_value, INT_MIN, INT_MAX, &def);
        return *(const int *)field == def;
    }
    case GC_KEY_ENUM:
    case GC_KEY_STRING: {
        const char *value = *(char *const *)field;
        if (value == NULL || key->default_value == NULL)
            return value == key->default_value;
        return strcmp(value, key->default_value) == 0;
    }
    }
    return false;
}
