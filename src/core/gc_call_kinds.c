/*
 * gc_call_kinds: the called names a connection has looked up.
 */
#include "core/gc_call_kinds.h"

#include <stdlib.h>
#include <string.h>

int gc_call_kinds_find(const gc_call_kinds *k, const char *key, unsigned epoch)
{
    for (int i = 0; i < GC_CALL_KINDS_SLOTS; i++)
        if (k->slot[i].name != NULL && k->slot[i].epoch == epoch &&
            strcmp(k->slot[i].name, key) == 0)
            return k->slot[i].kind;
    return 0;
}

void gc_call_kinds_remember(gc_call_kinds *k, const char *key, int kind, unsigned epoch)
{
    char *copy = strdup(key);
    if (copy == NULL)
        return;
    int i = k->next;
    free(k->slot[i].name);
    k->slot[i].name = copy;
    k->slot[i].kind = kind;
    k->slot[i].epoch = epoch;
    k->next = (i + 1) % GC_CALL_KINDS_SLOTS;
}

void gc_call_kinds_forget(gc_call_kinds *k)
{
    for (int i = 0; i < GC_CALL_KINDS_SLOTS; i++) {
        free(k->slot[i].name);
        k->slot[i].name = NULL;
    }
    k->next = 0;
}
