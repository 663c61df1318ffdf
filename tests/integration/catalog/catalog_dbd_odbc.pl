# Catalog functions as a Perl DBI application calls them through DBD::ODBC:
# table_info (including its catalog/schema/type listing forms), column_info,
# primary_key_info, foreign_key_info, statistics_info, type_info, against the
# DSN in GC_TEST_DSN, in a schema of its own (catalog_pl).
use strict;
use warnings;
use DBI;

my $schema = 'catalog_pl';
my $dsn = $ENV{GC_TEST_DSN} || 'gcodbc_test';
my %attrs = (RaiseError => 1, PrintError => 0, AutoCommit => 1);
# The schema is made and dropped through a second connection of the same DSN
# with GlobalConnection=No: the DSN itself on a single server, the first seed
# server (where statements without a sharding key run) through a global
# connection, whose cluster cannot hold an index on a table that is foreign
# on the other groups (docs/testing.md).
my $setup = DBI->connect("dbi:ODBC:DSN=$dsn;GlobalConnection=No", undef, undef, {%attrs})
    or die "connect: $DBI::errstr\n";
my $dbh = DBI->connect("dbi:ODBC:DSN=$dsn", undef, undef, {%attrs})
    or die "connect: $DBI::errstr\n";

sub check {
    my ($ok, $what) = @_;
    return if $ok;
    print "FAIL: $what\n";
    exit 1;
}

$setup->do("DROP SCHEMA IF EXISTS $schema CASCADE");
$setup->do("CREATE SCHEMA $schema");
$setup->do("CREATE TABLE $schema.dept (id int PRIMARY KEY, name varchar(30))");
$setup->do("CREATE TABLE $schema.emp (id int, seq int, dept_id int REFERENCES $schema.dept(id),"
         . " nm text NOT NULL, PRIMARY KEY (id, seq))");
$setup->do("CREATE UNIQUE INDEX emp_nm_key ON $schema.emp (nm)");
$setup->do("CREATE VIEW $schema.emp_v AS SELECT id, nm FROM $schema.emp");
my ($db) = $dbh->selectrow_array('SELECT current_database()');

my $rows = $dbh->table_info(undef, $schema, undef, undef)->fetchall_arrayref({});
check(join(',', map { "$_->{TABLE_NAME}:$_->{TABLE_TYPE}" } @$rows)
      eq 'dept:TABLE,emp:TABLE,emp_v:VIEW', 'table_info(schema)');
check($rows->[0]{TABLE_CAT} eq $db, 'table_info TABLE_CAT is the database');

$rows = $dbh->table_info(undef, $schema, '%', 'VIEW')->fetchall_arrayref({});
check(@$rows == 1 && $rows->[0]{TABLE_NAME} eq 'emp_v', 'table_info(type VIEW)');

# DBD::ODBC passes the catalog only when SQLGetInfo(SQL_CATALOG_NAME) says
# the driver has catalogs; the driver says so (the current database).
check($dbh->get_info(10003) eq 'Y', 'get_info(SQL_CATALOG_NAME) is Y');
$rows = $dbh->table_info('%', '', '')->fetchall_arrayref({});
check(@$rows == 1 && $rows->[0]{TABLE_CAT} eq $db, 'table_info catalogs');
$rows = $dbh->table_info('', '%', '')->fetchall_arrayref({});
check((grep { $_->{TABLE_SCHEM} eq $schema } @$rows) == 1, 'table_info schemas');
$rows = $dbh->table_info('', '', '', '%')->fetchall_arrayref({});
check((grep { $_->{TABLE_TYPE} eq 'VIEW' } @$rows) == 1, 'table_info types');

my @tables = $dbh->tables(undef, $schema, undef, 'TABLE');
check(@tables == 2, 'tables(): ' . join(',', @tables));

$rows = $dbh->column_info(undef, $schema, 'emp', undef)->fetchall_arrayref({});
check(join(',', map { $_->{COLUMN_NAME} } @$rows) eq 'id,seq,dept_id,nm', 'column_info names');
check($rows->[3]{NULLABLE} == 0 && $rows->[3]{IS_NULLABLE} eq 'NO', 'column_info nm NOT NULL');
check($rows->[0]{TYPE_NAME} eq 'int4' && $rows->[0]{DATA_TYPE} == 4, 'column_info id int4');

my @pk = $dbh->primary_key(undef, $schema, 'emp');
check(join(',', @pk) eq 'id,seq', 'primary_key: ' . join(',', @pk));
$rows = $dbh->primary_key_info(undef, $schema, 'emp')->fetchall_arrayref({});
check(join(',', map { "$_->{COLUMN_NAME}$_->{KEY_SEQ}" } @$rows) eq 'id1,seq2', 'primary_key_info');

$rows = $dbh->foreign_key_info(undef, $schema, 'dept', undef, undef, undef)->fetchall_arrayref({});
check(@$rows == 1 && $rows->[0]{FKCOLUMN_NAME} eq 'dept_id', 'foreign_key_info');

$rows = $dbh->statistics_info(undef, $schema, 'emp', 1, 1)->fetchall_arrayref({});
my @idx = map { $_->{INDEX_NAME} } grep { defined $_->{INDEX_NAME} } @$rows;
check(join(',', @idx) eq 'emp_nm_key,emp_pkey,emp_pkey', 'statistics_info: ' . join(',', @idx));

my @ti = $dbh->type_info(DBI::SQL_INTEGER());
check(@ti == 1 && $ti[0]{TYPE_NAME} eq 'int4', 'type_info(SQL_INTEGER)');

$dbh->disconnect;
$setup->do("DROP SCHEMA $schema CASCADE");
$setup->disconnect;
print "DBD::ODBC catalog checks passed\n";
