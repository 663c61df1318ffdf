/*
 * gc_settings: every DSN / connection-string key of the driver, as values.
 *
 * All keys come from one table (gc_keys.c): name, GOLDILOCKS alias, type,
 * default, where the value lives in gc_settings, and its documentation.
 * Parsing, defaults, aliases, the output connection string and docs/ are all
 * made from that table. Related headers of this layer: gc_keys.h (the table),
 * gc_connstr.h (connection string grammar), gc_servers.h (all seed addresses
 * of Servers), gc_locator.h (the locator file). User-facing rules and
 * SQLSTATEs: docs/connection-keys.md.
 */
#ifndef GC_SETTINGS_H
#define GC_SETTINGS_H

#include <stdbool.h>
#include <stddef.h>

#include "util/gc_error.h"
#include "util/gc_trace.h"

typedef struct gc_settings {
    /* Where to connect */
    char *dsn;
    char *driver;
    char *servers;              /* "host:port,host:port"; Host/Port keys fill it too */
    char *host;                 /* HOST (GOLDILOCKS) / Server */
    char *port;                 /* PORT */
    char *locator;
    char *database;
    char *uid;
    char *pwd;
    /* Global connection */
    bool global_connection;
    int locality_member_policy;   /* 0..4 */
    char *locality_member_path;
    int locality_group_policy;    /* 0..2 */
    char *locality_group_path;
    bool locality_on_demand;
    bool global_session;
    int global_session_max;       /* GlobalSessionMax: 0 = no limit */
    int global_session_wait;      /* GlobalSessionWait, seconds */
    bool direct_execute_routing;
    bool resolve_lost_writes;
    int sequence_cache;           /* SequenceCache: keys drawn ahead, at most */
    /* TLS, passed to every member session */
    char *sslmode;
    char *sslrootcert;
    char *sslcert;
    char *sslkey;
    /* Timing, seconds */
    int connect_timeout;
    int reconnect_interval;
    int member_timeout;
    int topology_refresh;
    /* Behaviour */
    int fetch_window_rows;        /* FetchWindowRows: rows read ahead at execute */
    char *rollback_on_error;      /* RollbackOnError / psqlODBC Protocol: "0", "1",
                                     "2", "7.4", "7.4-0"... (gc_txn_guard.h) */
    char *application_name;
    /* Session set-up (psqlODBC's keys) */
    bool read_only;               /* ReadOnly: SQL_ATTR_ACCESS_MODE read-only */
    char *conn_settings;          /* ConnSettings: SQL run after connecting */
    char *pqopt;                  /* pqopt: extra libpq conninfo */
    int keepalive_time;           /* KeepaliveTime, seconds; <= 0: the driver's */
    int keepalive_interval;       /* KeepaliveInterval, seconds; <= 0: the driver's */
    bool fetch_refcursors;        /* FetchRefcursors: a result's refcursors are read
                                     and become its result sets (gc_refcursor.h) */
    /* How result columns are described (psqlODBC's type mapping keys) */
    bool bools_as_char;
    bool text_as_longvarchar;
    bool unknowns_as_longvarchar;
    bool bytea_as_longvarbinary;
    bool lf_conversion;           /* LFConversion: LF read as CR LF in character data */
    int max_varchar_size;         /* 0: no limit on VARCHAR */
    int batch_size;               /* psqlODBC's BatchSize: autocommit array rows per
                                     transaction (docs/parameter-arrays.md) */
    int max_longvarchar_size;
    int unknown_sizes;            /* 0 maximum, 1 unknown (0), 2 longest = maximum */
    char *int8_as;                /* BI: SQL type code int8 is described as */
    char *extra_options;          /* AB: psqlODBC's extra options mask (its bit
                                     0x8 sends empty date parameters as NULL) */
    /* Trace */
    int log_level;                /* gc_trace_level */
    char *log_file;
    char *log_dir;                /* Logdir: LogFile's directory when LogFile is unset */
    bool debug;                   /* psqlODBC's Debug: LogLevel 3 */
    bool comm_log;                /* psqlODBC's CommLog: LogLevel 2 at least */
    /* Not keys: the unknown keys met while reading, so the connection can
     * report them (01S00) and trace them once its trace log is open
     * (LogLevel and LogFile may come after them). Only the first
     * GC_SETTINGS_UNKNOWN_KEPT names are kept, comma-separated (NULL when
     * none); unknown_key_count counts them all. */
    char *unknown_keys;
    size_t unknown_key_count;
} gc_settings;

/* How many unknown key names are remembered (and how long each may be):
 * a connection string of 40,000 unknown keys must not cost 40,000 names. */
#define GC_SETTINGS_UNKNOWN_KEPT 16
#define GC_SETTINGS_UNKNOWN_NAME_MAX 64

/* Fills every field with its default from the key table. */
void gc_settings_init(gc_settings *s);
void gc_settings_free(gc_settings *s);

/* Sets one key by name or alias (case-insensitive). An unknown key is
 * ignored with a trace line, remembered (gc_settings_note_unknown_key) and
 * returns true; a bad value returns false with
 * err (SQLSTATE HY024 style message naming the key). An empty (or NULL)
 * value restores the key's default. */
bool gc_settings_set(gc_settings *s, const char *key, const char *value,
                     gc_trace *trace, gc_error *err);

/* Remembers that key is unknown: counted always, its name kept while fewer
 * than GC_SETTINGS_UNKNOWN_KEPT are. Constant time per key. */
void gc_settings_note_unknown_key(gc_settings *s, const char *key);

/* Reads every known key of DSN `dsn` from odbc.ini (SQLGetPrivateProfileString).
 * A DSN that does not exist: false with err IM002 ("data source not found"). */
bool gc_settings_load_dsn(gc_settings *s, const char *dsn, gc_trace *trace,
                          gc_error *err);

/* SQLDriverConnect: parses "KEY=value;KEY={va;lue};..." (braces quote, "}}" is
 * a literal "}"), loads the DSN it names (if any) and lets the string's values
 * override the DSN's. */
bool gc_settings_from_connection_string(gc_settings *s, const char *connstr,
                                        size_t len, gc_trace *trace, gc_error *err);

/* The completed connection string for SQLDriverConnect's output (malloc'd;
 * caller frees). Includes PWD as ODBC requires; never traced. */
char *gc_settings_to_connection_string(const gc_settings *s);

/* First "host" and "port" of Servers (or Host/Port) for a general connection.
 * Returns false with err when none is given. Out strings are malloc'd. */
bool gc_settings_first_server(const gc_settings *s, char **host, char **port,
                              gc_error *err);

#endif
