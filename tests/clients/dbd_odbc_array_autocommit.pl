#!/usr/bin/perl
# DBI's execute_array through DBD::ODBC's native parameter arrays, in
# autocommit, with a row that fails (a duplicate key), as psqlODBC runs it:
# - a prepared statement, which DBD::ODBC describes before it runs it, goes
#   row by row, each row its own transaction: the rows before the failing
#   one stay, the rows after it are not run;
# - executed again, the same statement handle goes row by row again;
# - a statement sent with SQLExecDirect (odbc_exec_direct) goes as one
#   batch: the failing row undoes the rows before it.
# The prepared statement's error is the server's 23505. Runs against the DSN in
# GC_TEST_DSN (gcodbc and psqlODBC, and a global connection, which does the
# same on the member the table's rows go to: docs/parameter-arrays.md).
use strict;
use warnings;
use DBI;
use Test::More;

my $dsn = $ENV{GC_TEST_DSN} or BAIL_OUT('GC_TEST_DSN names the DSN to test');
my $dbh = DBI->connect("dbi:ODBC:DSN=$dsn", undef, undef,
    { RaiseError => 0, PrintError => 0, PrintWarn => 0, AutoCommit => 1 });
ok($dbh, "connect to $dsn");
# DBD::ODBC's own array code, not DBI's row-by-row fallback.
$ENV{ODBC_DISABLE_ARRAY_OPERATIONS} = 0;

my $table = lc("array_ac_$dsn");

sub keys_in_table {
    return join(',', map { $_->[0] } @{ $dbh->selectall_arrayref("SELECT a FROM $table ORDER BY a") });
}

sub fresh_table {
    $dbh->do("DROP TABLE IF EXISTS $table");
    $dbh->do("CREATE TABLE $table (a int PRIMARY KEY)") or BAIL_OUT($dbh->errstr);
}

# Every row good: all of them in, the count of rows executed returned.
fresh_table();
my $sth = $dbh->prepare("INSERT INTO $table VALUES (?)");
my @status;
is($sth->execute_array({ ArrayTupleStatus => \@status }, [1, 2, 3, 4, 5]), 5,
    'an array of good rows returns 5');
is(keys_in_table(), '1,2,3,4,5', 'all five rows are in');

# Row 4 repeats row 1: rows 1 to 3 stay, row 5 is not run.
fresh_table();
$sth = $dbh->prepare("INSERT INTO $table VALUES (?)");
my $ret = $sth->execute_array({ ArrayTupleStatus => \@status }, [1, 2, 3, 1, 5]);
ok(!defined $ret, 'the array with a duplicate key fails');
is($sth->state, '23505', 'with the server\'s SQLSTATE 23505');
is(keys_in_table(), '1,2,3', 'the rows before the failing one are committed, the one after is not run');

# The same statement handle again: row by row again.
$ret = $sth->execute_array({ ArrayTupleStatus => \@status }, [11, 12, 13, 11, 15]);
ok(!defined $ret, 'executed again, the array fails at its fourth row');
is(keys_in_table(), '1,2,3,11,12,13', 'its first three rows are committed too');

# SQLExecDirect: one batch, undone by its failing row.
fresh_table();
$sth = $dbh->prepare("INSERT INTO $table VALUES (?)", { odbc_exec_direct => 1 });
{
    # DBD::ODBC warns that it cannot describe a statement it sends directly
    # (with either driver); the warning is its own, not the array's.
    local $SIG{__WARN__} = sub { };
    $ret = $sth->execute_array({ ArrayTupleStatus => \@status }, [1, 2, 3, 1, 5]);
}
ok(!defined $ret, 'the array sent directly fails');
is(keys_in_table(), '', 'its failing row undoes the whole batch');

$dbh->do("DROP TABLE $table");
$dbh->disconnect;
done_testing();
