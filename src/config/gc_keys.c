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
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "config/gc_psqlodbc.h"
#include "config/gc_servers.h"

#define FIELD(f) offsetof(gc_settings, f)

/* psqlODBC's BI: SQL type codes int8 may be described as (0: SQL_BIGINT). */
static const char *const int8_as_choices[] = {
    "0", "-5", "2", "3", "4", "8", "12", NULL,
};

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
    { .name = "Host", .aliases = { "Server", NULL }, .psqlodbc = "Servername",
      .type = GC_KEY_STRING, .offset = FIELD(host), .value_hint = "host name or address",
      .doc = "One seed member's host, the GOLDILOCKS way (`HOST`); used with Port "
             "when Servers is not set." },
    { .name = "Port", .psqlodbc = "Port", .type = GC_KEY_STRING, .offset = FIELD(port),
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
    { .name = "Database", .aliases = { "DB", NULL }, .psqlodbc = "Database",
      .type = GC_KEY_STRING,
      .offset = FIELD(database), .value_hint = "database name",
      .doc = "The PostgreSQL database on every member. Unset: libpq's default "
             "(the user name)." },
    { .name = "UID", .aliases = { "User", NULL }, .psqlodbc = "Username",
      .type = GC_KEY_STRING,
      .offset = FIELD(uid), .value_hint = "role name",
      .doc = "The PostgreSQL role to connect as, on every member." },
    { .name = "PWD", .psqlodbc = "Password", .type = GC_KEY_STRING,
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
      .doc = "Member preference order for LocalityMemberPolicy 4. Names the cluster "
             "does not have are ignored and named in a 01000 warning at connect "
             "(SQL_SUCCESS_WITH_INFO)." },
    { .name = "LocalityGroupPolicy", .goldilocks = "LOCALITY_GROUP_POLICY",
      .type = GC_KEY_INT, .min = 0, .max = 2, .default_value = "0",
      .offset = FIELD(locality_group_policy),
      .doc = "Which group runs a statement when no group follows from a sharding "
             "key. 0: a random group. 1: LocalityGroupPath order, then random. "
             "2: the order in which members were connected." },
    { .name = "LocalityGroupPath", .goldilocks = "LOCALITY_GROUP_PATH",
      .type = GC_KEY_STRING, .offset = FIELD(locality_group_path),
      .value_hint = "group names, as in `G2,G1`",
      .doc = "Group preference order for LocalityGroupPolicy 1. Names the cluster "
             "does not have are ignored and named in a 01000 warning at connect "
             "(SQL_SUCCESS_WITH_INFO)." },
    { .name = "LocalityOnDemand", .type = GC_KEY_BOOL, .default_value = "No",
      .offset = FIELD(locality_on_demand),
      .doc = "Yes: open a member session only when a statement first needs that "
             "member, instead of connecting to every member at connect time." },
    { .name = "GlobalSession", .goldilocks = "USE_GLOBAL_SESSION",
      .type = GC_KEY_BOOL, .default_value = "No", .offset = FIELD(global_session),
      .doc = "Yes: the global connections of one process to the same cluster, "
             "database, role and session-affecting keys share member sessions, each "
             "borrowed for one transaction, autocommit statement or streaming result "
             "and given back after it, so server sessions follow concurrent "
             "transactions instead of connections x members. DDL and temporary "
             "tables are refused (0A000) under it (docs/global-connection.md, "
             "\"The global session\")." },
    { .name = "GlobalSessionMax", .type = GC_KEY_INT, .min = 0, .max = 100000,
      .default_value = "0", .offset = FIELD(global_session_max),
      .doc = "With GlobalSession=Yes: the most shared sessions the process keeps "
             "open to one member (borrowed and idle); a connection that needs one "
             "more waits for one to be given back. 0: no limit." },
    { .name = "GlobalSessionWait", .type = GC_KEY_INT, .min = 1, .max = 3600,
      .default_value = "30", .offset = FIELD(global_session_wait),
      .doc = "With GlobalSessionMax reached: seconds a connection waits for a "
             "shared session of a member before the statement fails with HYT00." },
    { .name = "DirectExecuteRouting", .type = GC_KEY_BOOL, .default_value = "No",
      .offset = FIELD(direct_execute_routing),
      .doc = "Yes: route SQLExecDirect statements by the sharding-key literals they "
             "contain too. No (the GOLDILOCKS rule): SQLExecDirect goes to a member "
             "chosen by the locality policies; only prepared statements (and, "
             "whatever this says, a write in a transaction, a write's parameter "
             "array, or an upsert `INSERT ... ON CONFLICT (...)`) are routed by key." },
    { .name = "ResolveLostWrites", .type = GC_KEY_BOOL, .default_value = "Yes",
      .offset = FIELD(resolve_lost_writes),
      .doc = "Yes: an autocommit INSERT, UPDATE, DELETE or MERGE carries its "
             "transaction id in the same exchange, so when its member fails before "
             "answering the driver finds out whether it committed (success, a silent "
             "re-run elsewhere, or 40003). No: one statement less per write; a lost "
             "answer is reported as the error that came and never re-run "
             "(docs/failover.md)." },
    { .name = "SequenceCache", .type = GC_KEY_INT, .min = 1, .max = 10000,
      .default_value = "32", .offset = FIELD(sequence_cache),
      .doc = "Keys a global connection draws ahead from a sharded table's sequence "
             "for INSERTs that leave the key to it, at most: the first draw takes "
             "only what its INSERT needs, each later one as many more as the "
             "connection drew of that sequence before, up to this many; the rest "
             "serve its next INSERTs without a round trip. 1: every INSERT draws "
             "its own (docs/global-connection.md, \"INSERT without the key\")." },
    /* TLS */
    { .name = "SSLMode", .psqlodbc = "SSLmode", .psqlodbc_abbrev = "CA",
      .psqlodbc_default = "disable", .type = GC_KEY_ENUM, .choices = sslmode_choices,
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
             "that member counts as unreachable. A global connection waits for all "
             "its members at once, and for an address that did not answer only once "
             "per connect: silent members hold up a connect for ConnectTimeout at "
             "most (docs/global-connection.md, \"Connecting\")." },
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
      .doc = "Rows the driver reads ahead when a statement executes (with at most "
             "1 MiB of values): a result that fits is complete when SQLExecute "
             "returns, so SQLRowCount is exact and an error within it fails "
             "SQLExecute; a larger result streams on, one row at a time "
             "(docs/statements.md, \"Results\")." },
    { .name = "RollbackOnError", .psqlodbc = "Protocol", .psqlodbc_abbrev = "A1",
      .type = GC_KEY_ENUM,
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
    /* Session set-up (psqlODBC's keys) */
    { .name = "ReadOnly", .psqlodbc = "ReadOnly", .psqlodbc_abbrev = "A0",
      .type = GC_KEY_BOOL, .default_value = "No", .offset = FIELD(read_only),
      .doc = "Yes: the connection starts read-only, as if the application had set "
             "SQL_ATTR_ACCESS_MODE to SQL_MODE_READ_ONLY before connecting: every "
             "session runs `SET SESSION CHARACTERISTICS AS TRANSACTION READ ONLY`, so "
             "the server refuses writes (25006), and SQLGetConnectAttr reports it. "
             "The application may set the attribute back." },
    { .name = "ConnSettings", .psqlodbc = "ConnSettings", .psqlodbc_abbrev = "A6",
      .type = GC_KEY_STRING, .offset = FIELD(conn_settings), .value_hint = "SQL text",
      .doc = "SQL run once right after connecting, before SQLDriverConnect returns "
             "(several statements separated by `;` are allowed), typically `SET` "
             "statements. `%XX` sequences are decoded first and a `+` is read as a "
             "space, as psqlODBC does (it writes this key percent-encoded): write "
             "`%25` for a `%`, `%2B` for a `+`. A statement "
             "that fails fails the connection with the server's SQLSTATE. On a "
             "global connection the text runs as the application's own SET would: on "
             "every member, all or none, and again on members opened later; so there "
             "it may hold only SET and RESET statements (else 08001)." },
    { .name = "pqopt", .psqlodbc = "pqopt", .type = GC_KEY_STRING, .offset = FIELD(pqopt),
      .value_hint = "libpq options, as in `keepalives_idle=30 gssencmode=disable`",
      .doc = "More libpq connection options for every member session, written as a "
             "libpq conninfo string (`keyword=value` pairs separated by spaces). They "
             "come after the driver's own, so they win over them, except "
             "`client_encoding` and `options`, which the driver relies on. `%XX` "
             "sequences are decoded first, as for ConnSettings (a `+` stays a `+` here). A string libpq cannot "
             "parse fails the connection with 08001." },
    { .name = "KeepaliveTime", .psqlodbc = "KeepaliveTime", .psqlodbc_abbrev = "D1",
      .psqlodbc_default = "-1", .type = GC_KEY_INT, .min = -1, .max = 86400,
      .default_value = "0", .offset = FIELD(keepalive_time),
      .doc = "Seconds of idleness before TCP keepalive probes start (libpq's "
             "keepalives_idle). 0 or -1: the driver's own choice (30, or what "
             "MemberTimeout implies on a global connection)." },
    { .name = "KeepaliveInterval", .psqlodbc = "KeepaliveInterval",
      .psqlodbc_abbrev = "D2", .psqlodbc_default = "-1", .type = GC_KEY_INT,
      .min = -1, .max = 86400, .default_value = "0", .offset = FIELD(keepalive_interval),
      .doc = "Seconds between unanswered TCP keepalive probes (libpq's "
             "keepalives_interval). 0 or -1: the driver's own choice." },
    /* How result columns are described (psqlODBC's type mapping keys) */
    { .name = "BoolsAsChar", .psqlodbc = "BoolsAsChar", .psqlodbc_abbrev = "B9",
      .psqlodbc_default = "1", .type = GC_KEY_BOOL, .default_value = "No",
      .offset = FIELD(bools_as_char),
      .doc = "Yes: boolean columns are described as SQL_VARCHAR of 5 characters "
             "(SQLDescribeCol, SQLColAttribute, SQLGetTypeInfo) and read as the text "
             "`1` or `0` by default. No: SQL_BIT. gcodbc's default is No, because "
             "applications that look at the type (pyodbc) then get a boolean; a "
             "psqlODBC DSN that relies on psqlODBC's default says `BoolsAsChar=1`." },
    { .name = "TextAsLongVarchar", .psqlodbc = "TextAsLongVarchar",
      .psqlodbc_abbrev = "B7", .type = GC_KEY_BOOL, .default_value = "Yes",
      .offset = FIELD(text_as_longvarchar),
      .doc = "Yes: `text` columns are SQL_LONGVARCHAR of MaxLongVarcharSize "
             "characters. No: SQL_VARCHAR of MaxVarcharSize characters (255 when "
             "MaxVarcharSize is 0)." },
    { .name = "UnknownsAsLongVarchar", .psqlodbc = "UnknownsAsLongVarchar",
      .psqlodbc_abbrev = "B8", .psqlodbc_default = "0", .type = GC_KEY_BOOL,
      .default_value = "Yes", .offset = FIELD(unknowns_as_longvarchar),
      .doc = "Yes: columns of types the driver has no ODBC type for (arrays, "
             "`inet`, `unknown`, user types, ...) are SQL_LONGVARCHAR of "
             "MaxLongVarcharSize characters. No: SQL_VARCHAR of MaxVarcharSize "
             "characters (255 when MaxVarcharSize is 0). gcodbc's default keeps the "
             "long type, which never makes an application cut values short." },
    { .name = "MaxVarcharSize", .psqlodbc = "MaxVarcharSize", .psqlodbc_abbrev = "B0",
      .psqlodbc_default = "255", .type = GC_KEY_INT, .min = 0, .max = 1073741823,
      .default_value = "0", .offset = FIELD(max_varchar_size),
      .doc = "The longest VARCHAR: `varchar(n)` and `char(n)` columns longer than "
             "this are described as SQL_LONGVARCHAR, and `varchar` without a length "
             "is SQL_VARCHAR of this size (as in psqlODBC). 0, gcodbc's default: no "
             "limit, so `varchar(n)` is always SQL_VARCHAR of n and `varchar` "
             "without a length is SQL_LONGVARCHAR." },
    { .name = "MaxLongVarcharSize", .psqlodbc = "MaxLongVarcharSize",
      .psqlodbc_abbrev = "B1", .type = GC_KEY_INT, .min = 1, .max = 1073741823,
      .default_value = "8190", .offset = FIELD(max_longvarchar_size),
      .doc = "Column size reported for SQL_LONGVARCHAR columns whose length the "
             "server does not give (`text`, `varchar` without a length, unknown "
             "types) and for bytea as SQL_LONGVARBINARY." },
    { .name = "UnknownSizes", .psqlodbc = "UnknownSizes", .psqlodbc_abbrev = "A9",
      .type = GC_KEY_INT, .min = 0, .max = 2, .default_value = "0",
      .offset = FIELD(unknown_sizes),
      .doc = "What column size to report for a character column whose length the "
             "server does not give (text, varchar without a length, unknown). 0: the "
             "maximum (MaxVarcharSize or MaxLongVarcharSize). 1: unknown, reported "
             "as 0, while the display size and octet length keep the maximum. 2: the "
             "longest value in the result (SQL_VARCHAR up to MaxVarcharSize, 255 "
             "when 0), when the whole result arrived with the first FetchWindowRows "
             "rows; a result still streaming, or whose values are all empty or NULL, "
             "keeps the maximum." },
    { .name = "ByteaAsLongVarBinary", .psqlodbc = "ByteaAsLongVarBinary",
      .psqlodbc_abbrev = "C7", .psqlodbc_default = "0", .type = GC_KEY_BOOL,
      .default_value = "Yes", .offset = FIELD(bytea_as_longvarbinary),
      .doc = "Yes: `bytea` columns are SQL_LONGVARBINARY. No: SQL_VARBINARY of "
             "MaxVarcharSize bytes (255 when MaxVarcharSize is 0). gcodbc's default "
             "is Yes: a bytea has no length limit." },
    { .name = "BI", .psqlodbc = "BI", .type = GC_KEY_ENUM, .choices = int8_as_choices,
      .default_value = "0", .offset = FIELD(int8_as),
      .doc = "The ODBC SQL type `int8` (bigint) columns are described as, by its "
             "code: 0 or -5 SQL_BIGINT, 2 SQL_NUMERIC(19,0), 3 SQL_DECIMAL(19,0), "
             "4 SQL_INTEGER, 8 SQL_DOUBLE, 12 SQL_VARCHAR(20); for applications that "
             "cannot take 64-bit integers." },
    /* Trace */
    { .name = "LogLevel", .type = GC_KEY_INT, .min = 0, .max = 3,
      .default_value = "0", .offset = FIELD(log_level),
      .doc = "Trace log detail. 0: off. 1: errors. 2: connections and routing "
             "decisions. 3: every call and statement. Passwords are never "
             "written." },
    { .name = "LogFile", .type = GC_KEY_STRING, .offset = FIELD(log_file),
      .value_hint = "file path",
      .doc = "File the trace log is appended to. Unset: `Logdir`'s file, else standard "
             "error (a trace only Debug or CommLog turned on: the temporary directory, "
             "below). Each line starts "
             "with the UTC time, the process id in brackets and `gcodbc #N:`, N numbering "
             "the connections of the process in the order they were opened, so that "
             "connections sharing one file can be told apart." },
    { .name = "Logdir", .psqlodbc = "Logdir", .type = GC_KEY_STRING,
      .offset = FIELD(log_dir), .value_hint = "directory",
      .doc = "psqlODBC's log directory: when LogFile is unset and a trace is on, the "
             "trace goes to `gcodbc_PID.log` in this directory." },
    { .name = "Debug", .psqlodbc = "Debug", .psqlodbc_abbrev = "B2", .type = GC_KEY_BOOL,
      .default_value = "No", .offset = FIELD(debug),
      .doc = "psqlODBC's debug log, mapped to the trace: Yes raises LogLevel to 3. When "
             "it (or CommLog) alone turns the trace on, with neither LogFile nor Logdir "
             "set, the trace goes to `gcodbc_PID.log` in the temporary directory "
             "(`TMPDIR`, else `/tmp`), where psqlODBC writes its logs, not to standard "
             "error." },
    { .name = "CommLog", .psqlodbc = "CommLog", .psqlodbc_abbrev = "B3",
      .type = GC_KEY_BOOL, .default_value = "No", .offset = FIELD(comm_log),
      .doc = "psqlODBC's communication log, mapped to the trace: Yes raises "
             "LogLevel to 2 at least (connections, statements' routing). Where it goes: "
             "as for Debug." },
    /* psqlODBC's keys that have no effect here: accepted so that its DSNs
     * work, each with the reason. */
    { .name = "Description", .psqlodbc = "Description", .type = GC_KEY_ACCEPTED,
      .doc = "A data source's description, for ODBC administrators; the driver has "
             "no use for it." },
    /* The driver manager's keys, which psqlODBC's own regression DSN and
     * many others carry in the data source's section. */
    { .name = "Trace", .type = GC_KEY_ACCEPTED,
      .doc = "The driver manager's call trace switch (unixODBC reads it from the "
             "[ODBC] section of odbcinst.ini); in a data source it is accepted without "
             "effect and without 01S00. The driver's own trace is LogLevel." },
    { .name = "TraceFile", .type = GC_KEY_ACCEPTED,
      .doc = "The driver manager's trace file, as Trace: accepted without effect. The "
             "driver's own trace file is LogFile." },
    { .name = "CX", .psqlodbc = "CX", .type = GC_KEY_CX_MASK,
      .doc = "psqlODBC's abbreviated options: two hex digits giving how many bits "
             "count, then a hex mask of Yes/No options. Each bit sets the key it "
             "stands for, in the string's order (a later key overrides it): "
             "LFConversion, UpdatableCursors, DisallowPremature, UniqueIndex, "
             "UnknownSizes, Optimizer, CommLog, Debug, Parse, CancelAsFreeStmt, "
             "UseDeclareFetch, ReadOnly, TextAsLongVarchar, UnknownsAsLongVarchar, "
             "BoolsAsChar, RowVersioning, ShowSystemTables, ShowOidColumn, "
             "FakeOidIndex, TrueIsMinus1, ByteaAsLongVarBinary, UseServerSidePrepare, "
             "LowerCaseIdentifier, GssAuthUseGSS. A single hex digit is a mask of the "
             "first three (CX=1: LFConversion), as psqlODBC reads it. A value that is "
             "not hex: HY024." },
    { .name = "UseDeclareFetch", .psqlodbc = "UseDeclareFetch", .psqlodbc_default = "0",
      .psqlodbc_abbrev = "B6",
      .type = GC_KEY_ACCEPTED,
      .doc = "psqlODBC fetches SELECT results through a cursor, Fetch rows at a "
             "time, so a large result never has to fit in memory. gcodbc keeps that "
             "bound without a cursor: results stream in libpq's single-row mode and "
             "a forward-only statement holds one row at a time (measured: 5,000,000 "
             "rows read with 4 kB of growth; docs/statements.md, \"Results\"). As "
             "with psqlODBC's default, a statement whose session another statement "
             "needs keeps the rest of its rows in memory (same page)." },
    { .name = "Fetch", .psqlodbc = "Fetch", .psqlodbc_abbrev = "A7",
      .psqlodbc_default = "100",
      
      .type = GC_KEY_ACCEPTED,
      .doc = "Rows per FETCH with UseDeclareFetch; see UseDeclareFetch: rows stream "
             "one at a time, so there is no batch size to choose (gcodbc's "
             "FetchWindowRows sets how many rows are read ahead at execute)." },
    { .name = "UseServerSidePrepare", .psqlodbc = "UseServerSidePrepare",
      .psqlodbc_default = "1",
      
      .psqlodbc_abbrev = "C8", .type = GC_KEY_ACCEPTED,
      .doc = "gcodbc always prepares on the server (SQLPrepare sends Parse) and sends "
             "parameters separately from the text, which is psqlODBC's behaviour "
             "with this key on, its default." },
    { .name = "Parse", .psqlodbc = "Parse", .psqlodbc_default = "0",
      .psqlodbc_abbrev = "C0", .type = GC_KEY_ACCEPTED,
      .doc = "psqlODBC can describe a statement by parsing its text itself; gcodbc "
             "always asks the server (Describe), which is exact, so a client-side "
             "parser has nothing to add." },
    { .name = "DisallowPremature", .psqlodbc = "DisallowPremature",
      .psqlodbc_default = "0",
      
      .psqlodbc_abbrev = "C3", .type = GC_KEY_ACCEPTED,
      .doc = "About describing a statement before it runs: gcodbc describes a "
             "prepared statement on the server without running it." },
    { .name = "UpdatableCursors", .psqlodbc = "UpdatableCursors", .psqlodbc_default = "1",
      .psqlodbc_abbrev = "C4", .type = GC_KEY_ACCEPTED,
      .doc = "What cursors gcodbc offers is set by the statement attributes "
             "(SQL_ATTR_CURSOR_TYPE, SQL_ATTR_CONCURRENCY) and answered truthfully by "
             "SQLGetInfo, not by a DSN switch." },
    { .name = "RowVersioning", .psqlodbc = "RowVersioning", .psqlodbc_default = "0",
      .psqlodbc_abbrev = "A4",
      .type = GC_KEY_ACCEPTED,
      .doc = "psqlODBC's optimistic concurrency through xmin for its updatable "
             "cursors; gcodbc's concurrency follows SQL_ATTR_CONCURRENCY." },
    { .name = "ShowOidColumn", .psqlodbc = "ShowOidColumn", .psqlodbc_default = "0",
      .psqlodbc_abbrev = "A3",
      .type = GC_KEY_ACCEPTED,
      .doc = "Tables have no oid column since PostgreSQL 12 (WITH OIDS is gone), so "
             "there is none to show." },
    { .name = "FakeOidIndex", .psqlodbc = "FakeOidIndex", .psqlodbc_default = "0",
      .psqlodbc_abbrev = "A2",
      .type = GC_KEY_ACCEPTED,
      .doc = "An index on the oid column, for the same tables: none exist on "
             "PostgreSQL 12 and later." },
    { .name = "ShowSystemTables", .psqlodbc = "ShowSystemTables", .psqlodbc_default = "0",
      .psqlodbc_abbrev = "A5",
      .type = GC_KEY_ACCEPTED,
      .doc = "SQLTables answers by its own arguments: system tables are listed when "
             "the application names a schema or asks for the SYSTEM TABLE type." },
    { .name = "ExtraSysTablePrefixes", .psqlodbc = "ExtraSysTablePrefixes",
      .psqlodbc_default = "dd_;",
      
      .psqlodbc_abbrev = "C2", .type = GC_KEY_ACCEPTED,
      .doc = "Prefixes of tables psqlODBC hides as system tables; gcodbc hides no "
             "user table by its name." },
    { .name = "LowerCaseIdentifier", .psqlodbc = "LowerCaseIdentifier",
      .psqlodbc_default = "0",
      
      .psqlodbc_abbrev = "C9", .type = GC_KEY_ACCEPTED,
      .doc = "Catalog functions take identifiers as the application writes them "
             "and follow SQL_ATTR_METADATA_ID; no folding switch." },
    { .name = "UniqueIndex", .psqlodbc = "UniqueIndex", .psqlodbc_default = "1",
      .type = GC_KEY_ACCEPTED,
      .doc = "SQLStatistics always reports unique indexes as the server knows them." },
    { .name = "LFConversion", .psqlodbc = "LFConversion", .psqlodbc_default = "0",
      .psqlodbc_abbrev = "C5",
      .type = GC_KEY_BOOL, .default_value = "No", .offset = FIELD(lf_conversion),
      .doc = "Yes: a line feed in character data (text types, read as SQL_C_CHAR or "
             "SQL_C_WCHAR) reaches the application as CR LF, and the reported "
             "length counts the added CRs; a LF already after a CR stays alone. No "
             "(the default, psqlODBC's outside Windows): line ends as stored. "
             "Parameters are sent as the application gives them." },
    { .name = "TrueIsMinus1", .psqlodbc = "TrueIsMinus1", .psqlodbc_default = "0",
      .psqlodbc_abbrev = "C6",
      .type = GC_KEY_ACCEPTED,
      .doc = "For applications (old Access) that take true as -1; gcodbc reads true "
             "as 1, as ODBC's SQL_BIT conversions say." },
    { .name = "CancelAsFreeStmt", .psqlodbc = "CancelAsFreeStmt", .psqlodbc_default = "0",
      .psqlodbc_abbrev = "C1", .type = GC_KEY_ACCEPTED,
      .doc = "SQLCancel cancels what runs and SQLFreeStmt closes, as ODBC 3 says." },
    { .name = "Optimizer", .psqlodbc = "Optimizer", .psqlodbc_default = "0",
      .psqlodbc_abbrev = "B4",
      .type = GC_KEY_ACCEPTED,
      .doc = "Turned off the genetic query optimizer; set `geqo` in ConnSettings for "
             "that." },
    { .name = "Ksqo", .psqlodbc = "Ksqo", .psqlodbc_abbrev = "B5",
      .type = GC_KEY_ACCEPTED,
      .doc = "Keyset query optimization for servers before 7.1; nothing to do." },
    { .name = "Lie", .psqlodbc = "Lie", .psqlodbc_default = "0", .type = GC_KEY_ACCEPTED,
      .doc = "Made psqlODBC claim features it lacks; gcodbc answers SQLGetInfo and "
             "SQLGetFunctions truthfully." },
    { .name = "Socket", .psqlodbc = "Socket", .psqlodbc_abbrev = "A8",
      .type = GC_KEY_ACCEPTED,
      .doc = "psqlODBC's socket buffer size; libpq sizes its own buffers." },
    { .name = "PreferLibpq", .psqlodbc = "PreferLibpq", .psqlodbc_abbrev = "D3",
      .type = GC_KEY_ACCEPTED,
      .doc = "gcodbc always connects through libpq." },
    { .name = "GssAuthUseGSS", .psqlodbc = "GssAuthUseGSS", .psqlodbc_default = "0",
      .psqlodbc_abbrev = "D0",
      .type = GC_KEY_ACCEPTED,
      .doc = "libpq negotiates GSSAPI by itself when the server asks for it; use "
             "pqopt (`gssencmode=...`) to steer it." },
    { .name = "BatchSize", .psqlodbc = "BatchSize", .psqlodbc_default = "100",
      .type = GC_KEY_INT, .min = 1, .max = 1000000000, .default_value = "100",
      .offset = FIELD(batch_size),
      .doc = "Rows of an autocommit parameter array that form one transaction, as "
             "in psqlODBC: a failing row undoes its batch and the rows after it are "
             "not run. All batches go in one pipeline (docs/parameter-arrays.md). "
             "Read at connect; SQL_ATTR_PGOPT_BATCHSIZE changes it later." },
    { .name = "IgnoreTimeout", .psqlodbc = "IgnoreTimeout", .psqlodbc_default = "0",
      .type = GC_KEY_ACCEPTED,
      .doc = "Made psqlODBC ignore SQL_ATTR_QUERY_TIMEOUT; gcodbc honours the "
             "attribute, and an application that wants no timeout leaves it at 0." },
    { .name = "FetchRefcursors", .psqlodbc = "FetchRefcursors", .psqlodbc_default = "0",
      .type = GC_KEY_BOOL, .default_value = "No", .offset = FIELD(fetch_refcursors),
      .doc = "Yes: when a statement's result has refcursor columns (a function or "
             "procedure that opens cursors), the driver reads every cursor it names "
             "(`FETCH ALL`, in column order) and those rows become the statement's "
             "result sets, the first at once, the next through SQLMoreResults; output "
             "parameters still get the call's values. The cursors live only in a "
             "transaction: with autocommit on, such a result is an error (HY000). No: "
             "a refcursor is read as the cursor's name (docs/cursors.md)." },
    { .name = "OptionalErrors", .psqlodbc = "OptionalErrors", .psqlodbc_default = "0",
      .type = GC_KEY_ACCEPTED,
      .doc = "Unsupported optional features get their ODBC error (HYC00, HY092) "
             "whatever this says." },
    { .name = "NumericAs", .psqlodbc = "NumericAs", .psqlodbc_abbrev = "D6",
      .type = GC_KEY_ACCEPTED,
      .doc = "How psqlODBC describes `numeric` without a precision; gcodbc describes "
             "it as SQL_NUMERIC(28,6), psqlODBC's default (docs/types.md)." },
    { .name = "AB", .aliases = { "ExtraOptions", NULL }, .psqlodbc = "AB",
      .type = GC_KEY_STRING, .offset = FIELD(extra_options),
      .check = gc_psqlodbc_check_extra_options, .value_hint = "`0x` hex, octal or decimal mask",
      .doc = "psqlODBC's extra options mask. Bit 0x8: an empty string bound to a "
             "parameter the server infers as date, timestamp or timestamptz is sent "
             "as NULL (the statement is described once to learn the types). The "
             "other bits (Windows and MS Access workarounds, keepalive off) have no "
             "effect here. Not a number: HY024." },
    { .name = "XaOpt", .psqlodbc = "XaOpt", .psqlodbc_default = "1",
      .psqlodbc_abbrev = "D4", .type = GC_KEY_ACCEPTED,
      .doc = "Windows MSDTC transactions; not on Unix." },
    { .name = "Dtclog", .psqlodbc = "Dtclog", .type = GC_KEY_ACCEPTED,
      .doc = "Windows MSDTC logging; not on Unix." },
    { .name = "TranslationName", .psqlodbc = "TranslationName", .type = GC_KEY_ACCEPTED,
      .doc = "Windows translation DLLs; the driver talks UTF-8 and converts for the "
             "wide (W) functions itself." },
    { .name = "TranslationDLL", .psqlodbc = "TranslationDLL", .type = GC_KEY_ACCEPTED,
      .doc = "The Windows translation DLL itself; see TranslationName." },
    { .name = "TranslationOption", .psqlodbc = "TranslationOption",
      .type = GC_KEY_ACCEPTED,
      .doc = "The Windows translation DLL's option; see TranslationName." },
};

const size_t gc_keys_count = sizeof gc_keys / sizeof gc_keys[0];

/* Adds spelling to out[0..n) unless it is NULL or already there. */
static size_t add_spelling(const char **out, size_t n, const char *spelling)
{
    if (spelling == NULL)
        return n;
    for (size_t i = 0; i < n; i++)
        if (strcasecmp(out[i], spelling) == 0)
            return n;
    out[n] = spelling;
    return n + 1;
}

size_t gc_key_spellings(const gc_key *key, const char **out)
{
    size_t n = add_spelling(out, 0, key->name);
    n = add_spelling(out, n, key->goldilocks);
    for (size_t a = 0; key->aliases[a] != NULL; a++)
        n = add_spelling(out, n, key->aliases[a]);
    n = add_spelling(out, n, key->psqlodbc);
    n = add_spelling(out, n, key->psqlodbc_abbrev);
    assert(n <= GC_KEY_MAX_SPELLINGS);
    return n;
}

bool gc_key_has_field(const gc_key *key)
{
    return key->type != GC_KEY_ACCEPTED && key->type != GC_KEY_CX_MASK;
}

/* Every spelling of every key, sorted ignoring case, built once: a lookup is
 * a binary search, so a connection string of many unknown keys costs a few
 * comparisons per key, not one per spelling of the table. */
#define SPELLING_INDEX_MAX 1024

typedef struct spelling_entry {
    const char *spelling;
    const gc_key *key;
} spelling_entry;

static spelling_entry spelling_index[SPELLING_INDEX_MAX];
static size_t spelling_index_count;
static pthread_once_t spelling_index_once = PTHREAD_ONCE_INIT;

static int compare_entries(const void *a, const void *b)
{
    return strcasecmp(((const spelling_entry *)a)->spelling,
                      ((const spelling_entry *)b)->spelling);
}

static void build_spelling_index(void)
{
    size_t n = 0;
    for (size_t i = 0; i < gc_keys_count; i++) {
        const char *spellings[GC_KEY_MAX_SPELLINGS];
        size_t k = gc_key_spellings(&gc_keys[i], spellings);
        assert(n + k <= SPELLING_INDEX_MAX);
        for (size_t j = 0; j < k && n < SPELLING_INDEX_MAX; j++)
            spelling_index[n++] = (spelling_entry){ spellings[j], &gc_keys[i] };
    }
    qsort(spelling_index, n, sizeof spelling_index[0], compare_entries);
    spelling_index_count = n;
}

const gc_key *gc_keys_find(const char *spelling)
{
    if (spelling == NULL)
        return NULL;
    pthread_once(&spelling_index_once, build_spelling_index);
    spelling_entry wanted = { spelling, NULL };
    const spelling_entry *found = bsearch(&wanted, spelling_index, spelling_index_count,
                                          sizeof spelling_index[0], compare_entries);
    return found != NULL ? found->key : NULL;
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
    case GC_KEY_ACCEPTED:
        gc_strbuf_append_str(out, "any (no effect)");
        break;
    case GC_KEY_CX_MASK:
        gc_strbuf_append_str(out, "hex digits");
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
    if (key->type == GC_KEY_ACCEPTED)
        return true;   /* no effect here; the table's doc says why */
    if (key->type == GC_KEY_CX_MASK) {
        if (!gc_psqlodbc_apply_cx(value, s)) {
            set_bad_value(key, spelling, value, "not a psqlODBC option mask", err);
            return false;
        }
        return true;
    }
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
    case GC_KEY_ACCEPTED:
    case GC_KEY_CX_MASK:
        break;   /* handled above */
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
    case GC_KEY_ACCEPTED:
    case GC_KEY_CX_MASK:
        break;   /* nothing stored: never in the output string */
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
    case GC_KEY_ACCEPTED:
    case GC_KEY_CX_MASK:
        return true;
    }
    return false;
}
