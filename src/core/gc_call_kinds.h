/*
 * gc_call_kinds: a connection's memory of whether a called name is a
 * procedure or a function (gc_call.c asks the catalog once per name and
 * connection until the connection runs DDL): the last few names asked, each
 * with the DDL epoch it was asked in. The connection owns one
 * (gc_conn.call_kinds, zeroed at allocation) and forgets it at disconnect.
 */
#ifndef GC_CALL_KINDS_H
#define GC_CALL_KINDS_H

#define GC_CALL_KINDS_SLOTS 8

typedef struct gc_call_kinds {
    struct {
        char *name;               /* owned; "schema.name" as written */
        int kind;
        unsigned epoch;
    } slot[GC_CALL_KINDS_SLOTS];
    int next;                     /* the slot the next name takes */
} gc_call_kinds;

/* The kind remembered for key in DDL epoch `epoch`, or 0 when none. */
int gc_call_kinds_find(const gc_call_kinds *k, const char *key, unsigned epoch);

/* Remembers kind for key, asked in `epoch`, in the oldest slot (nothing on
 * out-of-memory). */
void gc_call_kinds_remember(gc_call_kinds *k, const char *key, int kind, unsigned epoch);

/* Forgets (frees) every name. */
void gc_call_kinds_forget(gc_call_kinds *k);

#endif
