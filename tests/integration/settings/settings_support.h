/*
 * settings_support: small ODBC and witness helpers shared by the settings
 * tests (on top of the routing tests' rt_witness). Each helper fails the
 * test (rt_fail) when something it needs does not work.
 */
#ifndef SETTINGS_SUPPORT_H
#define SETTINGS_SUPPORT_H

#include <stddef.h>

#include "rt_witness.h"

/* SQLExecDirect of sql on a fresh statement of dbc. Returns the return
 * code; state gets the first diagnostic's SQLSTATE ("" when none) and msg
 * its message (both may be NULL). */
SQLRETURN st_exec(SQLHDBC dbc, const char *sql, char state[6], char *msg, size_t msg_size);
/* st_exec that must succeed. */
void st_exec_ok(SQLHDBC dbc, const char *sql);
/* The member that ran the connection's last statement (GCODBC_ATTR_LAST_MEMBER). */
void st_last_member(SQLHDBC dbc, char *buf, size_t size);
/* Index of the member named name in c (fails when unknown). */
int st_member_index(const rt_cluster *c, const char *name);
/* Runs sql as the superuser on member m; returns the first value of the
 * first row as a long (0 when no row). */
long st_su_long(rt_cluster *c, int m, const char *sql);
/* Sum of pg_stat_statements.calls on member m of the statements the
 * application role (app) ran, in every database. */
long st_app_calls(rt_cluster *c, int m);

#endif
