/*
 * gc_conn_kind: which kind a connection is, decided here and nowhere else
 * (docs/architecture.md, "Connection kinds"): the connect opens with the
 * kind the settings call for, and that kind's open makes itself the
 * connection's.
 */
#include "core/gc_conn_kind.h"

#include "config/gc_settings.h"

const gc_conn_kind *gc_conn_kind_for(const gc_settings *settings)
{
    return settings->global_connection ? &gc_conn_kind_global : &gc_conn_kind_general;
}
