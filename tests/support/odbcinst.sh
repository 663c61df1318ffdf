# shellcheck shell=bash
# odbcinst.sh: the odbcinst.ini every server fixture writes (sourced; defines
# one function). Both fixtures register the same two drivers under the same
# names, so a test's DSN means the same driver whichever fixture runs it.

# gc_write_odbcinst STATE_DIR DRIVER_SO PSQLODBC_SO: writes
# STATE_DIR/odbcinst.ini with drivers gcodbc (this build) and psqlodbc.
gc_write_odbcinst() {
  local state=$1 driver=$2 psqlodbc=$3
  cat >"$state/odbcinst.ini" <<INI
[ODBC]
Trace = No

[gcodbc]
Description = gcodbc, ODBC driver for sharded PostgreSQL clusters (this build)
Driver = $driver
# The driver locks per connection itself; let the driver manager not
# serialize calls, so the tests exercise the driver's own locking.
Threading = 0
# Keep the driver loaded until exit so leak reports can name its functions.
DontDLClose = 1

[psqlodbc]
Description = psqlODBC, PostgreSQL's ODBC driver (Unicode)
Driver = $psqlodbc
Threading = 0
INI
}
