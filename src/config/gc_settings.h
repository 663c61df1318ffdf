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
    bool direct_execute_routing;
    bool resolve_lost_writes;
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
    int fetch_window_rows;        /* rows per streamed window when a cursor is used */
    char *rollback_on_error;      /* RollbackOnError / psqlODBC Protocol: "0", "1",
                                     "2", "7.4", "7.4-0"... (gc_txn_guard.h) */
    char *application_name;
    /* Trace */
    int log_level;                /* gc_trace_level */
    char *log_file;
    /* Not a key: names of the unknown keys met while reading, comma-separated
     * (NULL when none), so the connection can trace them once its trace log
     * is open: LogLevel and LogFile may come after them. */
    char *ignored_keys;
} gc_settings;

/* Fills every field with its default from the key table. */
void gc_settings_init(gc_settings *s);
void gc_settings_free(gc_settings *s);

/* Sets one key by name or alias (case-insensitive). An unknown key is
 * ignored with a trace line and returns true; a bad value returns false with
 * err (SQLSTATE HY024 style message naming the key). An empty (or NULL)
 * value restores the key's default. */
bool gc_settings_set(gc_settings *s, const char *key, const char *value,
                     gc_trace *trace, gc_error *err);

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
