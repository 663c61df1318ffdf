/*
 * gc_servers: the seed member addresses of a connection, from the Servers key
 * ("host:port,host:port", IPv6 as "[::1]:5432") or from Host/Port.
 */
#ifndef GC_SERVERS_H
#define GC_SERVERS_H

#include <stdbool.h>
#include <stddef.h>

#include "config/gc_settings.h"
#include "util/gc_error.h"

#define GC_DEFAULT_PORT "5432"

typedef struct gc_server_address {
    char *host;   /* without IPv6 brackets, as libpq wants it */
    char *port;   /* decimal 1..65535 */
} gc_server_address;

typedef struct gc_server_list {
    gc_server_address *items;
    size_t count;
} gc_server_list;

/* Parses a Servers value into out (caller frees with gc_server_list_free).
 * An entry without a port gets GC_DEFAULT_PORT. A bad list: false with err
 * HY024 naming Servers and what is wrong. */
bool gc_servers_parse(const char *text, gc_server_list *out, gc_error *err);
void gc_server_list_free(gc_server_list *list);

/* Every seed address of s: Servers when set, else Host with Port. No
 * address at all: false with err 08001. Caller frees out. */
bool gc_settings_servers(const gc_settings *s, gc_server_list *out, gc_error *err);

/* Syntax checks used by the key table (gc_key_check_fn). */
bool gc_servers_check(const char *value, char *why, size_t why_size);
bool gc_servers_check_port(const char *value, char *why, size_t why_size);

#endif
