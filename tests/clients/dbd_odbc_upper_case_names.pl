#!/usr/bin/perl
# Catalog functions given a name in upper case, as DBI applications write
# unquoted names (ODBC folds them to upper case, PostgreSQL to lower case):
# column_info, primary_key_info, table_info, statistics_info and
# foreign_key_info on 'UPPER_NAME' find the table PostgreSQL stores as
# upper_name, as psqlODBC finds it (it tries the name again in lower case
# when nothing matched it as written). A name that matches as written is
# not folded, a mixed-case name is not folded, and a name that exists in
# neither case still gives an empty set, not an error. Runs against the
# DSN in GC_TEST_DSN (gcodbc, psqlODBC, and a global connection).
use strict;
use warnings;
use DBI;
use Test::More;

my $dsn = $ENV{GC_TEST_DSN} or BAIL_OUT('GC_TEST_DSN names the DSN to test');
my $dbh = DBI->connect("dbi:ODBC:DSN=$dsn", undef, undef,
    { RaiseError => 1, PrintError => 0, AutoCommit => 1 });
ok($dbh, "connect to $dsn");

# Table names of their own per DSN: the psqlODBC and gcodbc runs may share
# a server.
my $parent = lc("upper_parent_$dsn");
my $child = lc("upper_child_$dsn");
my $exact = "UPPER_EXACT_$dsn";

# Rows of a catalog statement handle (undef: the call gave no handle).
sub rows_of {
    my ($sth) = @_;
    return undef unless $sth;
    return $sth->fetchall_arrayref({});
}

$dbh->do("DROP TABLE IF EXISTS $child");
$dbh->do("DROP TABLE IF EXISTS $parent");
$dbh->do(qq{DROP TABLE IF EXISTS "$exact"});
$dbh->do(qq{DROP TABLE IF EXISTS } . lc($exact));
# Unquoted: PostgreSQL stores the names in lower case.
$dbh->do("CREATE TABLE $parent (ID int PRIMARY KEY, LABEL text)");
$dbh->do("CREATE TABLE $child (ID int PRIMARY KEY, PARENT_ID int REFERENCES $parent (ID))");
# The same name twice: quoted in upper case, and in lower case.
$dbh->do(qq{CREATE TABLE "$exact" (upper_only int)});
$dbh->do("CREATE TABLE " . lc($exact) . " (lower_only int, lower_two int)");

my $PARENT = uc($parent);
my $CHILD = uc($child);

my $cols = rows_of($dbh->column_info(undef, undef, $PARENT, undef));
is_deeply([map { $_->{COLUMN_NAME} } @$cols], ['id', 'label'],
    'column_info with the table name in upper case finds the lower-case table');
$cols = rows_of($dbh->column_info(undef, undef, $PARENT, 'LABEL'));
is_deeply([map { $_->{COLUMN_NAME} } @$cols], ['label'],
    'column_info with table and column in upper case');

my $pk = rows_of($dbh->primary_key_info(undef, undef, $PARENT));
is_deeply([map { $_->{COLUMN_NAME} } @$pk], ['id'],
    'primary_key_info with the table name in upper case');

my $tables = rows_of($dbh->table_info(undef, undef, $PARENT, 'TABLE'));
is_deeply([map { $_->{TABLE_NAME} } @$tables], [$parent],
    'table_info with the table name in upper case');

my $fk = rows_of($dbh->foreign_key_info(undef, undef, $PARENT, undef, undef, $CHILD));
is_deeply([map { "$_->{FKTABLE_NAME}.$_->{FKCOLUMN_NAME}" } @$fk], ["$child.parent_id"],
    'foreign_key_info with both table names in upper case');

my $stats = rows_of($dbh->statistics_info(undef, undef, $CHILD, 1, 1));
ok((grep { defined $_->{INDEX_NAME} && $_->{INDEX_NAME} eq "${child}_pkey" } @$stats),
    'statistics_info with the table name in upper case lists the primary key');

# A name that matches as written is taken as written: only the quoted
# upper-case table's column, not the lower-case table's.
$cols = rows_of($dbh->column_info(undef, undef, $exact, undef));
is_deeply([map { $_->{COLUMN_NAME} } @$cols], ['upper_only'],
    'an upper-case name that exists as written is not folded');

# Mixed case is not folded (psqlODBC folds names in upper case only).
my $mixed = ucfirst($parent);
$cols = rows_of($dbh->column_info(undef, undef, $mixed, undef));
is(scalar(@$cols), 0, "a mixed-case name ($mixed) finds nothing");

# A name that exists in neither case: an empty set, not an error.
$cols = rows_of($dbh->column_info(undef, undef, 'NO_SUCH_TABLE_ANYWHERE', undef));
is(scalar(@$cols), 0, 'an upper-case name of no table gives an empty set');
$pk = rows_of($dbh->primary_key_info(undef, undef, 'NO_SUCH_TABLE_ANYWHERE'));
is(scalar(@$pk), 0, 'primary_key_info of no table gives an empty set');

# The statement is usable again after the second try.
is($dbh->selectrow_array("SELECT count(*) FROM $parent"), 0, 'the connection goes on');

$dbh->do("DROP TABLE $child");
$dbh->do("DROP TABLE $parent");
$dbh->do(qq{DROP TABLE "$exact"});
$dbh->do("DROP TABLE " . lc($exact));
$dbh->disconnect;
done_testing();
