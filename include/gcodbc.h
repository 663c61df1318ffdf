/*
 * gcodbc.h: what applications may use of gcodbc beyond standard ODBC.
 *
 * Today: the driver's version. The global connection's driver-specific
 * connection attributes (the member that ran the last statement, the
 * catalog version) will be declared here, in the range below.
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

#endif
