# The deadlock 050_load_mix.pl met once (issue 20), made certain.  Run
# bundles carry no workload and no implementation: a document load stores
# those known by digest only, as rows without document, and a later Liger
# CSV load of the same runs fills the documents in.  Two such loads at the
# same moment, of the same rows in opposite orders, must both succeed:
# whatever order each load meets the rows in, they must not deadlock.
#
# A BEFORE UPDATE trigger that sleeps 0.2 s per row widens the window
# between filling in one row and the next, so that each load has filled in
# (and so holds) its first rows before it reaches the other's.
use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use IPC::Run;
use Test::More;

my $top = $ENV{KIDX_TOP} or die "KIDX_TOP is not set";
my $csv = "$top/test/data/liger_sample.csv";

my $node = PostgreSQL::Test::Cluster->new('fill_in');
$node->init;
$node->append_conf('postgresql.conf', "deadlock_timeout = 100ms\nlog_lock_waits = on\n");
$node->start;
for my $db ('source', 'target')
{
	$node->safe_psql('postgres', "CREATE DATABASE $db TEMPLATE template0");
	$node->safe_psql($db, 'CREATE EXTENSION kernelindex');
}

# The runs of the sample as bundles, loaded into target: its workloads and
# implementations are then known by digest only.
my $dir = PostgreSQL::Test::Utils::tempdir();
my $opts = "WITH (FORMAT csv, QUOTE E'\\x01', DELIMITER E'\\x02')";
$node->safe_psql('source', "\\copy kernelindex.liger_rows FROM '$csv' WITH (FORMAT csv, HEADER MATCH)");
$node->safe_psql('source', "\\copy (SELECT document FROM kernelindex.documents) TO '$dir/runs.jsonl' $opts");
$node->safe_psql('target', "\\copy kernelindex.documents FROM '$dir/runs.jsonl' $opts");
my $unknown = q{SELECT (SELECT count(*) FROM kernelindex.workloads WHERE document IS NULL)
	|| ' ' || (SELECT count(*) FROM kernelindex.implementations WHERE document IS NULL)};
my ($workloads, $implementations) = split / /, $node->safe_psql('target', $unknown);
cmp_ok($workloads, '>=', 2, "the bundles leave $workloads workloads known by digest only");
cmp_ok($implementations, '>=', 2, "and $implementations implementations");

# The same rows in upstream order and reversed.
my @lines = split /\r?\n/, slurp_file($csv);
my $header = shift @lines;
my @files;
for my $f ([ 'upstream', @lines ], [ 'reversed', reverse @lines ])
{
	my ($name, @rows) = @$f;
	my $path = "$dir/$name.csv";
	open my $fh, '>', $path or die "cannot write $path: $!";
	print $fh join("\n", $header, @rows), "\n";
	close $fh;
	push @files, [ $name, $path, scalar @rows ];
}

$node->safe_psql('target', q{
CREATE TABLE barrier ();
CREATE FUNCTION public.slow_fill_in() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	PERFORM pg_sleep(0.2);
	RETURN NEW;
END $$;
CREATE TRIGGER slow_fill_in BEFORE UPDATE ON kernelindex.workloads
	FOR EACH ROW EXECUTE FUNCTION public.slow_fill_in();
CREATE TRIGGER slow_fill_in BEFORE UPDATE ON kernelindex.implementations
	FOR EACH ROW EXECUTE FUNCTION public.slow_fill_in();
});

# Both loads queued on a barrier (a lock held while they start), released together.
my ($bin, $bout, $berr) = ('', '', '');
my $holder = IPC::Run::start([ 'psql', '-X', '-q', '-v', 'ON_ERROR_STOP=1', '-d', $node->connstr('target') ],
	'<', \$bin, '>', \$bout, '2>', \$berr);
$bin .= "BEGIN;\nLOCK TABLE barrier IN ACCESS EXCLUSIVE MODE;\nSELECT 'locked';\n";
$holder->pump until $bout =~ /locked/;
my @sessions;
for my $f (@files)
{
	my ($name, $path, $rows) = @$f;
	my ($out, $err) = ('', '');
	my $h = IPC::Run::start(
		[
			'psql', '-X', '-v', 'ON_ERROR_STOP=1', '-d', $node->connstr('target'),
			'-c', 'SELECT count(*) FROM barrier',
			'-c', "\\copy kernelindex.liger_rows FROM '$path' WITH (FORMAT csv, HEADER MATCH)"
		],
		'>', \$out, '2>', \$err);
	push @sessions, { name => $name, h => $h, out => \$out, err => \$err, rows => $rows };
}
$node->poll_query_until('target',
	"SELECT count(*) = 2 FROM pg_locks WHERE relation = 'barrier'::regclass AND NOT granted")
  or die 'the two loads did not reach the barrier';
$bin .= "COMMIT;\n\\q\n";
$holder->finish;

for my $s (@sessions)
{
	$s->{h}->finish;
	note "load of the $s->{name} rows, stderr:\n${ $s->{err} }" if ${ $s->{err} } ne '';
	is($s->{h}->result(0), 0, "the load of the $s->{name} rows exits 0");
	unlike(${ $s->{err} }, qr/ERROR|deadlock/i, "the load of the $s->{name} rows: no error, no deadlock");
	like(${ $s->{out} }, qr/COPY $s->{rows}/, "the load of the $s->{name} rows copied its $s->{rows} rows");
}
is($node->safe_psql('target', $unknown), '0 0', 'every workload and implementation has its document');
unlike(slurp_file($node->logfile), qr/deadlock detected/, 'no deadlock in the server log');

$node->stop;
done_testing();
