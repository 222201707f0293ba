# runs.series_id is checked per statement, not by a row-level foreign key:
# the check must be as strong as one.  Loads race deletes of the series they
# use, under READ COMMITTED, REPEATABLE READ and SERIALIZABLE, in both
# orders (the delete waits for the load, the load waits for the delete),
# through the documents view, Liger CSV and plain INSERTs into runs; after
# each race no run points at nothing, and the loser fails with 23503 or
# 40001.  With the checks disabled the same races leave orphans, so the
# test can fail.
use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use IPC::Run;
use Test::More;

my $top = $ENV{KIDX_TOP} or die "KIDX_TOP is not set";
my $sample = "$top/test/data/liger_sample.csv";

my $node = PostgreSQL::Test::Cluster->new('references');
$node->init;
$node->append_conf('postgresql.conf', "deadlock_timeout = 100ms\nlock_timeout = 30s\n");
$node->start;
$node->safe_psql('postgres', 'CREATE DATABASE refs');
$node->safe_psql('refs', 'CREATE EXTENSION kernelindex');
$node->safe_psql('refs', "\\copy kernelindex.liger_rows FROM '$sample' WITH (FORMAT csv, HEADER MATCH)");

my $orphans = q{SELECT count(*) FROM kernelindex.runs r
	WHERE NOT EXISTS (SELECT 1 FROM kernelindex.run_series s WHERE s.id = r.series_id)};

# A psql session we feed statement by statement.
sub session
{
	my ($in, $out, $err) = ('', '', '');
	my $h = IPC::Run::start(
		[ 'psql', '-X', '-q', '-At', '-v', 'ON_ERROR_STOP=0', '-d', $node->connstr('refs') ],
		'<', \$in, '>', \$out, '2>', \$err);
	my $s = { h => $h, in => \$in, out => \$out, err => \$err };
	run_wait($s, '\set VERBOSITY sqlstate');
	$s->{pid} = run_wait($s, 'SELECT pg_backend_pid()');
	return $s;
}

my $marker = 0;

# Send SQL and wait until it has run; its output (without the marker).
sub run_wait
{
	my ($s, $sql) = @_;
	my $m = 'done' . ++$marker;
	${ $s->{out} } = '';
	${ $s->{in} } .= ($sql =~ /^\\/ ? $sql : "$sql;") . "\n\\echo $m\n";
	$s->{h}->pump until ${ $s->{out} } =~ /$m/;
	(my $res = ${ $s->{out} }) =~ s/\n?$m\n?//;
	chomp $res;
	return $res;
}

# Send SQL without waiting; the marker to wait for later.
sub run_nowait
{
	my ($s, $sql) = @_;
	my $m = 'done' . ++$marker;
	${ $s->{out} } = '';
	${ $s->{in} } .= "$sql;\n\\echo $m\n";
	$s->{h}->pump_nb;
	return $m;
}

# Wait for what run_nowait sent.
sub wait_for
{
	my ($s, $m) = @_;
	$s->{h}->pump until ${ $s->{out} } =~ /$m/;
}

# Wait until a session waits for a lock.
sub blocked
{
	my ($s) = @_;
	return $node->poll_query_until('refs',
		"SELECT wait_event_type = 'Lock' FROM pg_stat_activity WHERE pid = $s->{pid}");
}

# The SQLSTATEs a session reported since it was last asked.
sub errors
{
	my ($s) = @_;
	my @codes = ${ $s->{err} } =~ /ERROR:\s+(\w{5})/g;
	${ $s->{err} } = '';
	return join(',', @codes);
}

$node->safe_psql('refs', 'CREATE TABLE csv_rows (n serial, LIKE kernelindex.liger_rows)');
$node->safe_psql('refs',
	"\\copy csv_rows (kernel_name, kernel_provider, kernel_operation_mode, metric_name, metric_unit, x_name, x_label, x_value, y_value_50, y_value_20, y_value_80, extra_benchmark_config_str, gpu_name, \"timestamp\", liger_version) FROM '$sample' WITH (FORMAT csv, HEADER MATCH)"
);

# A series with runs, and a statement that stores a new run of it.
sub victim
{
	my ($how) = @_;
	my $year = 2030 + ++$marker;
	my ($id, $load);
	if ($how eq 'csv')
	{
		# a row of the sample whose run is still stored: its series
		my $row = $node->safe_psql('refs', q{
			SELECT r.series_id || ' ' || x.n FROM csv_rows x
			JOIN kernelindex.run_facts f ON f.external_id = x.kernel_name || '/' || x.kernel_operation_mode || '/'
				|| x.kernel_provider || '/' || kernelindex.liger_slug(x.gpu_name) || '/' || f.workload_label || '/'
				|| to_char(x."timestamp"::timestamp, 'YYYY-MM-DD-HH24-MI-SS')
			JOIN kernelindex.runs r ON r.digest::text = f.run_digest
			WHERE x.metric_name = 'speed' ORDER BY r.series_id LIMIT 1});
		my $n;
		($id, $n) = split / /, $row;
		$load = "INSERT INTO kernelindex.liger_rows SELECT kernel_name, kernel_provider, kernel_operation_mode,"
		  . " metric_name, metric_unit, x_name, x_label, x_value, y_value_50, y_value_20, y_value_80,"
		  . " extra_benchmark_config_str, gpu_name, '$year-01-01 00:00:00', liger_version FROM csv_rows WHERE n = $n";
	}
	else
	{
		$id = $node->safe_psql('refs',
			'SELECT min(series_id) FROM kernelindex.runs r JOIN kernelindex.run_series s ON s.id = r.series_id '
			  . "WHERE s.metric = 'latency'");
		$load = $how eq 'document' ?
		  "INSERT INTO kernelindex.documents SELECT replace(kernelindex.run_document(digest)::text,"
		  . " to_char(observed_at AT TIME ZONE 'UTC', 'YYYY-'), '$year-')::jsonb"
		  . " FROM kernelindex.runs WHERE series_id = $id LIMIT 1" :
		  "INSERT INTO kernelindex.runs (comparability_key, digest, observed_at, latency_ns, series_id)"
		  . " SELECT comparability_key, sha256(('$year' || digest::text)::bytea)::kidx_digest, observed_at, latency_ns, series_id"
		  . " FROM kernelindex.runs WHERE series_id = $id LIMIT 1";
	}
	die "no series left" unless $id;
	my $delete = "DELETE FROM kernelindex.runs WHERE series_id = $id; DELETE FROM kernelindex.run_series WHERE id = $id;";
	return ($id, $load, $delete);
}

my $loader = session();
my $deleter = session();

# One race: who goes first, and which isolation level.
sub race
{
	my ($level, $first, $how) = @_;
	my ($id, $load, $delete) = victim($how);
	my $begin = "BEGIN ISOLATION LEVEL $level;";
	my $name = "$level, $how, $first first";

	run_wait($loader, $begin);
	run_wait($deleter, $begin);
	# Both transactions take their snapshot before either acts.
	run_wait($loader, 'SELECT count(*) FROM kernelindex.run_series');
	run_wait($deleter, 'SELECT count(*) FROM kernelindex.run_series');
	if ($first eq 'load')
	{
		run_wait($loader, $load);
		my $m = run_nowait($deleter, $delete);
		ok(blocked($deleter), "$name: the delete waits for the load");
		run_wait($loader, 'COMMIT;');
		wait_for($deleter, $m);
		run_wait($deleter, 'COMMIT;');
	}
	else
	{
		run_wait($deleter, $delete);
		my $m = run_nowait($loader, $load);
		ok(blocked($loader), "$name: the load waits for the delete");
		run_wait($deleter, 'COMMIT;');
		wait_for($loader, $m);
		run_wait($loader, 'COMMIT;');
	}
	my $le = errors($loader);
	my $de = errors($deleter);
	is($node->safe_psql('refs', $orphans), '0', "$name: no run points at nothing");
	like("$le;$de", qr/^(|23503|40001);(|23503|40001)$/, "$name: only reference or serialization errors ($le;$de)");
	return ($le, $de);
}

for my $level ('READ COMMITTED', 'REPEATABLE READ', 'SERIALIZABLE')
{
	for my $how ('document', 'csv', 'insert')
	{
		my ($le, $de) = race($level, 'load', $how);
		isnt($de, '', "$level, $how: a delete after the load commits is refused");
		race($level, 'delete', $how);
	}
}

# A load holds kernelindex.runs as an INSERT does: TRUNCATE, ALTER TABLE and
# CREATE INDEX wait for it (lock_timeout: 55P03) instead of going through,
# through the CSV and the documents path alike.
for my $how ('csv', 'document')
{
	my ($id, $load) = victim($how);
	my $before = $node->safe_psql('refs', 'SELECT count(*) FROM kernelindex.runs');
	run_wait($loader, "BEGIN; $load");
	errors($loader);
	for my $ddl ('TRUNCATE kernelindex.runs', 'ALTER TABLE kernelindex.runs ADD COLUMN x integer',
		'CREATE INDEX ON kernelindex.runs (latency_ns)')
	{
		run_wait($deleter, "SET lock_timeout = '200ms'; $ddl; RESET lock_timeout");
		is(errors($deleter), '55P03', "$how: $ddl waits for an uncommitted load");
	}
	run_wait($loader, 'COMMIT');
	is(errors($loader), '', "$how: the load commits");
	is($node->safe_psql('refs', 'SELECT count(*) FROM kernelindex.runs'), $before + 1,
		"$how: its run is there");
}

# The control: without the checks, the same race leaves a run without series.
$node->safe_psql('refs',
	'ALTER TABLE kernelindex.runs DISABLE TRIGGER runs_references_insert; '
	  . 'ALTER TABLE kernelindex.run_series DISABLE TRIGGER run_series_delete');
{
	my ($id, $load, $delete) = victim('insert');
	run_wait($loader, "BEGIN; $load");
	run_wait($deleter, "BEGIN; $delete COMMIT;");
	run_wait($loader, 'COMMIT;');
	errors($loader);
	errors($deleter);
	cmp_ok($node->safe_psql('refs', $orphans), '>', 0,
		'control: with the checks disabled the race leaves an orphan');
}

$loader->{h}->finish;
$deleter->{h}->finish;
$node->stop;
done_testing();
