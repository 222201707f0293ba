# Four sessions load the same Liger CSV at the same moment, and two sessions
# load overlapping parts of it: they end with exactly the store of one load
# (the same runs with the same values and dictionary values, resources, keys
# and dictionaries, compared by value), nothing stored twice and nothing
# pointing at nothing, with no error and no deadlock.
use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use IPC::Run;
use Test::More;
use FindBin;
use lib $FindBin::RealBin;
use KidxStore;

my $top = $ENV{KIDX_TOP} or die "KIDX_TOP is not set";
# The upstream file when ../shared has it (2,448 rows), else the sample.
my $shared = $ENV{KIDX_SHARED} // "$top/../shared";
my $csv = "$shared/data/liger/all_benchmark_data.csv";
$csv = "$top/test/data/liger_sample.csv" unless -r $csv;
die "$csv absent" unless -r $csv;
my $rows = () = slurp_file($csv) =~ /\n/g;
$rows--;    # the header
note "loading $csv ($rows rows)";

my $node = PostgreSQL::Test::Cluster->new('concurrent');
$node->init;
$node->append_conf('postgresql.conf', "deadlock_timeout = 100ms\nlog_lock_waits = on\n");
$node->start;

for my $db ('once', 'racing')
{
	$node->safe_psql('postgres', "CREATE DATABASE $db");
	$node->safe_psql($db, 'CREATE EXTENSION kernelindex');
}
$node->safe_psql('racing', 'CREATE TABLE barrier ()');

# What one load gives.
$node->safe_psql('once', "\\copy kernelindex.liger_rows FROM '$csv' WITH (FORMAT csv, HEADER MATCH)");

# The store by value (test/t/KidxStore.pm): runs (digests, and each with its
# values and dictionary values), resources, keys, every dictionary, rejected
# rows; and the COPY target, always empty.
my $snapshot = KidxStore::snapshot_sql("SELECT 'staged', count(*), '' FROM kernelindex.liger_rows");
my $once = $node->safe_psql('once', $snapshot);
like($once, qr/^runs\|$rows\|/m, "one load stores the $rows runs");

# Start one session per file in database $db, all queued on a barrier (a
# lock held while they start), release them together, and check each one.
sub race
{
	my ($db, $what, @files) = @_;
	my ($bin, $bout, $berr) = ('', '', '');
	my $holder = IPC::Run::start(
		[ 'psql', '-X', '-q', '-v', 'ON_ERROR_STOP=1', '-d', $node->connstr($db) ],
		'<', \$bin, '>', \$bout, '2>', \$berr);
	$bin .= "BEGIN;\nLOCK TABLE barrier IN ACCESS EXCLUSIVE MODE;\nSELECT 'locked';\n";
	$holder->pump until $bout =~ /locked/;

	my @sessions;
	for my $file (@files)
	{
		my ($out, $err) = ('', '');
		my $h = IPC::Run::start(
			[
				'psql', '-X', '-v', 'ON_ERROR_STOP=1', '-d', $node->connstr($db),
				'-c', 'SELECT count(*) FROM barrier',
				'-c', "\\copy kernelindex.liger_rows FROM '$file->[0]' WITH (FORMAT csv, HEADER MATCH)"
			],
			'>', \$out, '2>', \$err);
		push @sessions, { h => $h, out => \$out, err => \$err, rows => $file->[1] };
	}

	my $n = scalar @files;
	$node->poll_query_until($db,
		"SELECT count(*) = $n FROM pg_locks WHERE relation = 'barrier'::regclass AND NOT granted")
	  or die "the $n sessions did not reach the barrier";
	$bin .= "COMMIT;\n\\q\n";
	$holder->finish;

	my $i = 0;
	for my $s (@sessions)
	{
		$i++;
		$s->{h}->finish;
		is($s->{h}->result(0), 0, "$what: session $i exits 0");
		unlike(${ $s->{err} }, qr/ERROR|deadlock/i, "$what: session $i: no error, no deadlock");
		like(${ $s->{out} }, qr/COPY $s->{rows}/, "$what: session $i copied its $s->{rows} rows");
	}
}

# Nothing stored twice (no resource, key, dictionary value or run), nothing
# pointing at nothing.
sub no_duplicates
{
	my ($db, $what) = @_;
	my $bad = 0;
	for (split /\n/, $node->safe_psql($db, KidxStore::duplicates_sql() . "\nUNION ALL " . KidxStore::dangling_sql()))
	{
		my ($name, $n) = split /\|/;
		note "$what: $name: $n" if $n;
		$bad += $n;
	}
	is($bad, 0, "$what: nothing is stored twice, every reference resolves");
}

race('racing', 'same file', map { [ $csv, $rows ] } 1 .. 4);
is($node->safe_psql('racing', $snapshot), $once, 'four racing loads end with exactly the rows of one load');
no_duplicates('racing', 'four racing loads');

# Two overlapping files (the first two thirds, the last two thirds) at the
# same moment: together they are the whole file, loaded once (doc/architecture.md,
# "Invariants": loads are idempotent).
my @lines = split /\n/, slurp_file($csv);
my $header = shift @lines;
my $third = int(@lines / 3);
my $dir = PostgreSQL::Test::Utils::tempdir();
my @halves = ([ @lines[ 0 .. 2 * $third - 1 ] ], [ @lines[ $third .. $#lines ] ]);
my @overlap;
for my $k (0, 1)
{
	my $f = "$dir/overlap$k.csv";
	open my $fh, '>', $f or die "cannot write $f: $!";
	print $fh join("\n", $header, @{ $halves[$k] }), "\n";
	close $fh;
	chmod 0644, $f;
	push @overlap, [ $f, scalar @{ $halves[$k] } ];
}
$node->safe_psql('postgres', 'CREATE DATABASE overlapping');
$node->safe_psql('overlapping', 'CREATE EXTENSION kernelindex');
$node->safe_psql('overlapping', 'CREATE TABLE barrier ()');
race('overlapping', 'overlapping files', @overlap);
is($node->safe_psql('overlapping', $snapshot), $once,
	'two racing overlapping loads end with exactly the rows of one load of the whole file');
no_duplicates('overlapping', 'two racing overlapping loads');

my $log = slurp_file($node->logfile);
unlike($log, qr/deadlock detected/, 'no deadlock in the server log');

$node->stop;
done_testing();
