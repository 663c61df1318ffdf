/* Two more ways to ask whether the connection is global: the setting read
 * through a pointer, a kind compared with one of the kinds. */
static int gc_y(gc_conn *c, const gc_settings *settings)
{
    if (settings->global_connection)
        return 0;
    return c->kind == &gc_conn_kind_global;
}
