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
/* gcodbc's own version in ODBC's "##.##.####" form, as the driver-specific
 * attribute GCODBC_ATTR_DRIVER_VERSION reports it. */
#define GCODBC_DRIVER_VER "00.01.0000"
/* What SQLGetInfo(SQL_DRIVER_VER) reports: the psqlODBC release whose
 * behaviour gcodbc matches. Clients read SQL_DRIVER_VER to decide which
 * psqlODBC workarounds to apply (pyodbc's own PostgreSQL tests expect ODBC
 * 2's column names below 13.02): gcodbc behaves as that release does, so it
 * says so (docs/connection-attributes.md). */
#define GCODBC_PSQLODBC_LEVEL "13.02.0000"

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
/* SQLGetConnectAttr, read-only, a character string: gcodbc's own version,
 * GCODBC_DRIVER_VER ("00.01.0000"); SQL_DRIVER_VER says the psqlODBC
 * release gcodbc behaves as. */
#define GCODBC_ATTR_DRIVER_VERSION (GCODBC_ATTR_BASE + 3)

#endif
