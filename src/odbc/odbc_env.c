/*
 * odbc_env: environment attributes.
 */
#include "odbc/odbc_entry.h"

SQLRETURN SQL_API SQLSetEnvAttr(SQLHENV henv, SQLINTEGER attr, SQLPOINTER value,
                                SQLINTEGER length)
{
    gc_env *e = gc_odbc_enter_env(henv);
    if (e == NULL)
        return SQL_INVALID_HANDLE;
    return gc_odbc_leave_env(e, gc_env_set_attr(e, attr, value, length));
}

SQLRETURN SQL_API SQLGetEnvAttr(SQLHENV henv, SQLINTEGER attr, SQLPOINTER value,
                                SQLINTEGER buffer_length, SQLINTEGER *string_length)
{
    gc_env *e = gc_odbc_enter_env(henv);
    if (e == NULL)
        return SQL_INVALID_HANDLE;
    return gc_odbc_leave_env(e, gc_env_get_attr(e, attr, value, buffer_length,
                                                string_length));
}
