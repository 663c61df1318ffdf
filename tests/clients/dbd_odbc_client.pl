#!/usr/bin/perl
# Perl DBI + DBD::ODBC (Debian's libdbd-odbc-perl) against the DSN in
# GC_TEST_DSN: connect, prepare/execute with placeholders, fetchall,
# transactions (AutoCommit off, rollback, commit), Unicode text, get_info,
# and server errors with their SQLSTATE.
use strict;
use warnings;
use utf8;
use DBI;
use Encode ();
use Test::More;

binmode(STDOUT, ':encoding(UTF-8)');
binmode(STDERR, ':encoding(UTF-8)');
binmode(Test::More->builder->$_, ':encoding(UTF-8)') for qw(output failure_output todo_output);

my $dsn = $ENV{GC_TEST_DSN} or BAIL_OUT('GC_TEST_DSN names the DSN to test');
my $table = "client_perl_$dsn";

# A new connection; dies on errors so a broken step fails the test run.
sub connect_dsn {
    my (%attrs) = @_;
    my $dbh = DBI->connect("dbi:ODBC:DSN=$dsn", undef, undef,
        { RaiseError => 1, PrintError => 0, AutoCommit => 1,
          odbc_ignore_named_placeholders => 1, %attrs });
    return $dbh;
}

my $dbh = connect_dsn();
ok($dbh, "connect to $dsn");

# DBD::ODBC would take "?::int" for a mix of "?" and a named placeholder
# ":int"; odbc_ignore_named_placeholders (set in connect_dsn) turns that off.

# get_info: 17 SQL_DBMS_NAME, 18 SQL_DBMS_VER, 6 SQL_DRIVER_NAME.
is($dbh->get_info(17), 'PostgreSQL', 'get_info(SQL_DBMS_NAME) is PostgreSQL');
like($dbh->get_info(18), qr/^\d\d\.\d/, 'get_info(SQL_DBMS_VER) looks like a version');
ok(length($dbh->get_info(6) // ''), 'get_info(SQL_DRIVER_NAME) is set');

$dbh->do("DROP TABLE IF EXISTS $table");
$dbh->do("CREATE TABLE $table (id int PRIMARY KEY, name text NOT NULL, score float8)");

# prepare once, execute many times with placeholders
my $ins = $dbh->prepare("INSERT INTO $table (id, name, score) VALUES (?, ?, ?)");
for my $i (1 .. 50) {
    $ins->execute($i, "name $i", $i / 4);
}
is($ins->rows, 1, 'an INSERT reports one row');

my $sel = $dbh->prepare("SELECT id, name, score FROM $table WHERE id BETWEEN ? AND ? ORDER BY id");
$sel->execute(10, 12);
is_deeply($sel->fetchall_arrayref,
    [[10, 'name 10', 2.5], [11, 'name 11', 2.75], [12, 'name 12', 3]],
    'fetchall_arrayref returns the placeholder-selected rows');
$sel->execute(49, 100);
is(scalar @{ $sel->fetchall_arrayref }, 2, 're-executing a prepared statement with new values');
is_deeply($dbh->selectrow_arrayref('SELECT CAST(? AS int) + 1', undef, 41), [42], 'CAST(? AS int) + 1 with 41 gives 42');
is($dbh->selectrow_array("SELECT count(*) FROM $table"), 50, 'all 50 rows inserted');

# transactions: AutoCommit off, rollback discards, commit keeps
{
    my $tx = connect_dsn(AutoCommit => 0);
    $tx->do("INSERT INTO $table (id, name) VALUES (?, ?)", undef, 100, 'rolled back');
    is($tx->selectrow_array("SELECT count(*) FROM $table WHERE id = 100"), 1, 'own insert visible in transaction');
    is($dbh->selectrow_array("SELECT count(*) FROM $table WHERE id = 100"), 0, 'uncommitted insert invisible to others');
    $tx->rollback;
    is($tx->selectrow_array("SELECT count(*) FROM $table WHERE id = 100"), 0, 'rollback discards the insert');
    $tx->do("INSERT INTO $table (id, name) VALUES (?, ?)", undef, 101, 'committed');
    $tx->commit;
    $tx->disconnect;
    is($dbh->selectrow_array("SELECT name FROM $table WHERE id = 101"), 'committed', 'commit keeps the insert');
}
{
    # begin_work on an AutoCommit connection, then rollback
    $dbh->begin_work;
    $dbh->do("DELETE FROM $table");
    is($dbh->selectrow_array("SELECT count(*) FROM $table"), 0, 'delete visible inside begin_work');
    $dbh->rollback;
    is($dbh->selectrow_array("SELECT count(*) FROM $table"), 51, 'rollback after begin_work restores the rows');
    ok($dbh->{AutoCommit}, 'AutoCommit is back on after the transaction');
}

# Unicode text both ways. A DBD::ODBC built with Unicode support uses the
# driver's W entry points and Perl character strings; Debian's is built
# without, so it goes through the ANSI entry points with UTF-8 bytes, which
# must reach the server as the same characters.
{
    my $wide = $dbh->{odbc_has_unicode};
    my $to_db   = sub { $wide ? $_[0] : Encode::encode('UTF-8', $_[0]) };
    my $from_db = sub { $wide ? $_[0] : Encode::decode('UTF-8', $_[0]) };
    my $path = $wide ? 'W entry points' : 'ANSI entry points, UTF-8';
    my @texts = ('한국어 텍스트', 'emoji 😀🎉', 'àéîõü ñ ç ß');
    my $uins = $dbh->prepare("INSERT INTO $table (id, name) VALUES (?, ?)");
    my $id = 200;
    $uins->execute($id++, $to_db->($_)) for @texts;
    my $rows = $dbh->selectall_arrayref(
        "SELECT name, char_length(name) FROM $table WHERE id >= 200 ORDER BY id");
    is_deeply([map { $from_db->($_->[0]) } @$rows], \@texts, "non-ASCII text comes back intact ($path)");
    is_deeply([map { $_->[1] } @$rows], [map { length } @texts],
        'the server counted characters, not bytes');
    is($from_db->($dbh->selectrow_array('SELECT CAST(? AS text)', undef, $to_db->('가나다'))), '가나다',
        'non-ASCII parameter echoed');
    is($from_db->($dbh->selectrow_array($to_db->("SELECT '✓ ünïcödé literal'"))), '✓ ünïcödé literal',
        'non-ASCII literal in SQL text');
}

# NULLs
is_deeply($dbh->selectrow_arrayref('SELECT NULL::int, CAST(? AS text)', undef, undef), [undef, undef],
    'NULL column and NULL parameter are undef');

# errors carry the server's SQLSTATE
{
    my $ok = eval { $dbh->do('SELECT 1/0'); 1 };
    ok(!$ok, 'division by zero raises an error');
    is($dbh->state, '22012', 'the error has SQLSTATE 22012');
    like($dbh->errstr, qr/division by zero/, 'the error has the server message');
    is($dbh->selectrow_array('SELECT 3'), 3, 'the connection works after the error');
}

$dbh->do("DROP TABLE $table");
$dbh->disconnect;
done_testing();
