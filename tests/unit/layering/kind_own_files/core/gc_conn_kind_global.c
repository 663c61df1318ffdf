/* A kind's own table: what it holds is not counted. */
static bool holds(const gc_conn *c)
{
    return c->global != NULL && c->kind == &gc_conn_kind_global;
}
