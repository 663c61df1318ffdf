/*
 * gc_servers: parsing of the Servers key and the Host/Port pair.
 */
#include "config/gc_servers.h"

#include <assert.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* True when text[0..len) is a decimal port 1..65535. */
static bool port_is_valid(const char *text, size_t len)
{
    if (len == 0 || len > 5)
        return false;
    long value = 0;
    for (size_t i = 0; i < len; i++) {
        if (!isdigit((unsigned char)text[i]))
            return false;
        value = value * 10 + (text[i] - '0');
    }
    return value >= 1 && value <= 65535;
}

static char *dup_range(const char *start, size_t len)
{
    char *copy = malloc(len + 1);
    if (copy != NULL) {
        memcpy(copy, start, len);
        copy[len] = '\0';
    }
    return copy;
}

/* Splits one trimmed entry ("h", "h:p", "[v6]", "[v6]:p") into host and port
 * ranges. Returns NULL on success or a static reason. */
static const char *split_entry(const char *entry, size_t len,
                               const char **host, size_t *host_len,
                               const char **port, size_t *port_len)
{
    *port = NULL;
    *port_len = 0;
    if (len == 0)
        return "empty entry";
    if (entry[0] == '[') {
        const char *close = memchr(entry, ']', len);
        if (close == NULL)
            return "missing ']' after an IPv6 address";
        *host = entry + 1;
        *host_len = (size_t)(close - entry - 1);
        size_t rest = len - (size_t)(close - entry) - 1;
        if (rest > 0) {
            if (close[1] != ':')
                return "expected ':port' after ']'";
            *port = close + 2;
            *port_len = rest - 1;
        }
    } else {
        const char *colon = memchr(entry, ':', len);
        if (colon != NULL && memchr(colon + 1, ':', len - (size_t)(colon - entry) - 1))
            return "an IPv6 address needs brackets, as in [::1]:5432";
        *host = entry;
        *host_len = colon ? (size_t)(colon - entry) : len;
        if (colon != NULL) {
            *port = colon + 1;
            *port_len = len - (size_t)(colon - entry) - 1;
        }
    }
    if (*host_len == 0)
        return "empty host name";
    if (*port != NULL && !port_is_valid(*port, *port_len))
        return "port must be a number from 1 to 65535";
    return NULL;
}

/* Walks the comma-separated entries of text; with out == NULL it only
 * checks. Returns NULL on success or a static reason (list untouched). */
static const char *walk_servers(const char *text, gc_server_list *out)
{
    const char *p = text;
    for (;;) {
        const char *end = strchr(p, ',');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        const char *start = p;
        while (len > 0 && isspace((unsigned char)*start)) {
            start++;
            len--;
        }
        while (len > 0 && isspace((unsigned char)start[len - 1]))
            len--;
        const char *host, *port;
        size_t host_len, port_len;
        const char *why = split_entry(start, len, &host, &host_len, &port, &port_len);
        if (why != NULL)
            return why;
        if (out != NULL) {
            gc_server_address *grown =
                realloc(out->items, (out->count + 1) * sizeof *out->items);
            if (grown == NULL)
                return "out of memory";
            out->items = grown;
            gc_server_address *addr = &out->items[out->count];
            addr->host = dup_range(host, host_len);
            addr->port = port ? dup_range(port, port_len) : strdup(GC_DEFAULT_PORT);
            if (addr->host == NULL || addr->port == NULL) {
                free(addr->host);
                free(addr->port);
                return "out of memory";
            }
            out->count++;
        }
        if (end == NULL)
            return NULL;
        p = end + 1;
    }
}

bool gc_servers_check(const char *value, char *why, size_t why_size)
{
    const char *reason = walk_servers(value, NULL);
    if (reason != NULL)
        snprintf(why, why_size, "%s", reason);
    return reason == NULL;
}

bool gc_servers_check_port(const char *value, char *why, size_t why_size)
{
    if (port_is_valid(value, strlen(value)))
        return true;
    snprintf(why, why_size, "a number from 1 to 65535");
    return false;
}

/* Parses text into a new list owned by the caller (freed with
 * gc_server_list_free, also after a failure). */
bool gc_servers_parse(const char *text, gc_server_list *out, gc_error *err)
{
    assert(text != NULL && out != NULL);
    out->items = NULL;
    out->count = 0;
    const char *why = walk_servers(text, out);
    if (why == NULL)
        return true;
    gc_server_list_free(out);
    if (strcmp(why, "out of memory") == 0)
        gc_error_set(err, "HY001", 0, "out of memory parsing Servers");
    else
        gc_error_set(err, "HY024", 0,
                     "invalid value for Servers: %s (expected host:port,host:port)", why);
    return false;
}

void gc_server_list_free(gc_server_list *list)
{
    if (list == NULL)
        return;
    for (size_t i = 0; i < list->count; i++) {
        free(list->items[i].host);
        free(list->items[i].port);
    }
    free(list->items);
    list->items = NULL;
    list->count = 0;
}

/* Servers wins over Host/Port; Host alone takes Port (default 5432). */
bool gc_settings_servers(const gc_settings *s, gc_server_list *out, gc_error *err)
{
    out->items = NULL;
    out->count = 0;
    if (s->servers != NULL && s->servers[0] != '\0')
        return gc_servers_parse(s->servers, out, err);
    if (s->host == NULL || s->host[0] == '\0') {
        gc_error_set(err, "08001", 0,
                     "no server to connect to: set Servers (host:port,...) or Host and Port");
        return false;
    }
    out->items = calloc(1, sizeof *out->items);
    if (out->items == NULL) {
        gc_error_set(err, "HY001", 0, "out of memory");
        return false;
    }
    out->count = 1;
    out->items[0].host = strdup(s->host);
    out->items[0].port = strdup(s->port && s->port[0] ? s->port : GC_DEFAULT_PORT);
    if (out->items[0].host == NULL || out->items[0].port == NULL) {
        gc_server_list_free(out);
        gc_error_set(err, "HY001", 0, "out of memory");
        return false;
    }
    return true;
}

/* The first seed address; host and port are malloc'd for the caller. */
bool gc_settings_first_server(const gc_settings *s, char **host, char **port,
                              gc_error *err)
{
    *host = NULL;
    *port = NULL;
    gc_server_list list;
    if (!gc_settings_servers(s, &list, err))
        return false;
    assert(list.count > 0);
    *host = list.items[0].host;
    *port = list.items[0].port;
    list.items[0].host = NULL;
    list.items[0].port = NULL;
    gc_server_list_free(&list);
    return true;
}
