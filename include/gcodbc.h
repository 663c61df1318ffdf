/*
 * gcodbc.h: what applications may use of gcodbc beyond standard ODBC.
 *
 * The driver's version, and the global connection's driver-specific
 * connection attributes (docs/global-connection.md).
 */
#ifndef GCODBC_H
#define GCODBC_H

#define GCODBC_VERSION_MAJOR 0
#define GCODBC_VERSION_MINOR 1
#define GCODBC_VERSION_PATCH 0
/* As SQLGetInfo(SQL_DRIVER_VER) reports it: ODBC's "##.##.####" form. */
#define GCODBC_DRIVER_VER "00.01.0000"

/* Driver-specific connection attributes start here (ODBC reserves values
 * from SQL_DRIVER_CONN_ATTR_BASE, 0x4000, for drivers). */
#define GCODBC_ATTR_BASE 0x4000

/* SQLGetConnectAttr, read-only, a character string: the name of the member
 * that ran the connection's last statement ("G2N1"); "" before the first
 * statement. On a general connection: the server's host. */
#define GCODBC_ATTR_LAST_MEMBER (GCODBC_ATTR_BASE + 1)
/* SQLGetConnectAttr, read-only, an SQLBIGINT: the cluster catalog version
 * (gcluster.version) the connection's topology and shard map come from;
 * -1 on a general connection or when the members came from a locator file. */
#define GCODBC_ATTR_CATALOG_VERSION (GCODBC_ATTR_BASE + 2)

#endif
