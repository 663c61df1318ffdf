/* Where the kind is decided: its test of the setting does not count. */
const gc_conn_kind *gc_conn_kind_for(const gc_settings *settings)
{
    return settings->global_connection ? &gc_conn_kind_global : &gc_conn_kind_general;
}
