/* Three branches on whether the connection is global; what a comment says
 * (c->global == NULL) or a string holds does not count, nor does a name
 * that only ends in "global". */
static int gc_x(gc_conn *c, gc_stmt *s)
{
    if (c->global == NULL)
        return 0;
    bool global = c->global != NULL;
    const char *text = "if (c->global != NULL)";
    if (global)
        return 1;
    return c->kind->reruns(c) + (s->show_global ? 1 : 0) + (text != NULL);
}
