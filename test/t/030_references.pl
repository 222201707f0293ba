# What runs refer to (their comparability key, their implementation and the
# values of seven dictionaries: template, labels, title, status, source,
# benchmark, name and externalId strings) is checked per statement, not by
# row-level foreign keys: the checks must be as strong as foreign keys.
# Loads race deletes of each row a run names (a dictionary value, an
# implementation, a comparability key), one reference column at a time,
# under READ COMMITTED, REPEATABLE READ and SERIALIZABLE, in both orders
# (the delete waits for the load, the load waits for the delete), through
# the documents view, Liger CSV and plain INSERTs into runs; after each race
# no run points at nothing, through any reference column, and the loser
# fails with 23503 or 40001 (or, under READ COMMITTED, a load that waited
# for a delete stores the value again).  With the check of new runs
# disabled the same race leaves a run pointing at nothing, for every
# column and path; with the guard of a referenced table disabled a plain
# delete does: so the test can fail.  The same races for what comparability
# keys refer to (their protocol, workload and environment), at the end.
use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use FindBin;
use lib $FindBin::RealBin;
use KidxStore;
use KidxSession;

my $top = $ENV{KIDX_TOP} or die "KIDX_TOP is not set";
my $sample = "$top/test/data/liger_sample.csv";

my $node = PostgreSQL::Test::Cluster->new('references');
$node->init;
$node->append_conf('postgresql.conf', "deadlock_timeout = 100ms\nlock_timeout = 30s\n");
$node->start;
$node->safe_psql('postgres', 'CREATE DATABASE refs');
$node->safe_psql('refs', 'CREATE EXTENSION kernelindex');
$node->safe_psql('refs', "\\copy kernelindex.liger_rows FROM '$sample' WITH (FORMAT csv, HEADER MATCH)");

# Runs (and comparability keys) that point at nothing, through every
# reference column (test/t/KidxStore.pm): the sum, and what they are.
my $orphans = 'SELECT sum(n) FROM (' . KidxStore::dangling_sql() . ') s(what, n)';
my $orphans_by_column = 'SELECT what || \': \' || n FROM (' . KidxStore::dangling_sql() . ') s(what, n) WHERE n > 0';

# Every reference column of runs is raced below: the columns of runs that
# name rows elsewhere (comparability_key and the *_id columns) are those of
# KidxStore::RUN_REFERENCES.
is($node->safe_psql('refs', q{
SELECT string_agg(attname, ' ' ORDER BY attname) FROM pg_attribute
WHERE attrelid = 'kernelindex.runs'::regclass AND attnum > 0 AND NOT attisdropped
	AND (attname = 'comparability_key' OR attname LIKE '%\_id')}),
	join(' ', sort map { $_->[0] } @KidxStore::RUN_REFERENCES),
	'every reference column of kernelindex.runs is one the races cover');

my $marker = 0;

# Wait until a session waits for a lock.
sub blocked
{
	my ($s) = @_;
	return $node->poll_query_until('refs',
		"SELECT wait_event_type = 'Lock' FROM pg_stat_activity WHERE pid = $s->{pid}");
}

$node->safe_psql('refs', 'CREATE TABLE csv_rows (n serial, LIKE kernelindex.liger_rows)');
$node->safe_psql('refs',
	"\\copy csv_rows (kernel_name, kernel_provider, kernel_operation_mode, metric_name, metric_unit, x_name, x_label, x_value, y_value_50, y_value_20, y_value_80, extra_benchmark_config_str, gpu_name, \"timestamp\", liger_version) FROM '$sample' WITH (FORMAT csv, HEADER MATCH)"
);

# Runs whose name is not derived from their externalId (Liger's are): a run
# document with a name of its own, so that runs.name_id names a string.
my $named = $node->safe_psql('refs', q{
SELECT jsonb_set(replace(kernelindex.run_document(digest)::text, to_char(observed_at AT TIME ZONE 'UTC', 'YYYY-'), '2029-')::jsonb,
	'{run,metadata,name}', '"kidx-030-named-run"')
FROM kernelindex.runs WHERE latency_ns IS NOT NULL ORDER BY digest LIMIT 1});
$named =~ s/'/''/g;

# Put back what races deleted: the sample's runs and the named run
# (idempotent).  The sample's rows go in two statements, first those of
# comparability keys that are not stored, then all: a statement that brings
# runs of stored keys and of new keys at once fails today (42804 "rows
# returned by function are not all of the same row type", the store's
# batch writer frees one kind's buffered runs when it writes the other's),
# which is not what this test is about.
my $columns = 'kernel_name, kernel_provider, kernel_operation_mode, metric_name, metric_unit, x_name, x_label,'
  . ' x_value, y_value_50, y_value_20, y_value_80, extra_benchmark_config_str, gpu_name, "timestamp", liger_version';
$node->safe_psql('refs', q{CREATE VIEW csv_keys AS SELECT x.*, kidx_comparability_key(
	kidx_resource_digest(kernelindex.liger_protocol(metric_name, kernel_operation_mode)),
	kidx_resource_digest(kernelindex.liger_workload(kernel_name, x_name, x_label, x_value, extra_benchmark_config_str)),
	kidx_resource_digest(kernelindex.liger_environment(gpu_name))) AS key FROM csv_rows x});
sub replenish
{
	$node->safe_psql('refs',
		"INSERT INTO kernelindex.liger_rows SELECT $columns FROM csv_keys x"
		  . " WHERE NOT EXISTS (SELECT 1 FROM kernelindex.comparability_keys k WHERE k.key = x.key);\n"
		  . "INSERT INTO kernelindex.liger_rows SELECT $columns FROM csv_keys;\n"
		  . "SELECT kernelindex.ingest_document('$named'::jsonb)");
}
replenish();
is($node->safe_psql('refs', q{SELECT count(*) > 0 FROM kernelindex.runs WHERE name_id IS NOT NULL}),
	't', 'a run names its name string (runs.name_id)');

# The reference column $ref (an entry of KidxStore::RUN_REFERENCES): a row
# it names (the victim), a statement that stores a new run naming the same
# row through path $how, and a transaction's statements that delete the
# runs naming the row, then the row.
sub victim
{
	my ($how, $ref) = @_;
	my ($col, $table, $key) = @$ref;
	my $year = 2030 + ++$marker;
	my ($value, $load);
	replenish();
	if ($how eq 'csv')
	{
		# a row of the sample whose run is still stored: the row it names
		my $row = $node->safe_psql('refs', qq{
			SELECT r.$col || ' ' || x.n FROM csv_rows x
			JOIN kernelindex.run_facts f ON f.external_id = x.kernel_name || '/' || x.kernel_operation_mode || '/'
				|| x.kernel_provider || '/' || kernelindex.liger_slug(x.gpu_name) || '/' || f.workload_label || '/'
				|| to_char(x."timestamp"::timestamp, 'YYYY-MM-DD-HH24-MI-SS')
			JOIN kernelindex.runs r ON r.digest::text = f.run_digest
			WHERE x.metric_name = 'speed' AND r.$col IS NOT NULL ORDER BY x.n LIMIT 1});
		my $n;
		($value, $n) = split / /, $row;
		$load = "INSERT INTO kernelindex.liger_rows SELECT kernel_name, kernel_provider, kernel_operation_mode,"
		  . " metric_name, metric_unit, x_name, x_label, x_value, y_value_50, y_value_20, y_value_80,"
		  . " extra_benchmark_config_str, gpu_name, '$year-01-01 00:00:00', liger_version FROM csv_rows WHERE n = $n";
	}
	else
	{
		my $digest = $node->safe_psql('refs',
			"SELECT digest FROM kernelindex.runs WHERE $col IS NOT NULL AND latency_ns IS NOT NULL ORDER BY digest LIMIT 1");
		$value = $node->safe_psql('refs', "SELECT $col FROM kernelindex.runs WHERE digest = '$digest'");
		$load = $how eq 'document' ?
		  "INSERT INTO kernelindex.documents SELECT replace(kernelindex.run_document(digest)::text,"
		  . " to_char(observed_at AT TIME ZONE 'UTC', 'YYYY-'), '$year-')::jsonb"
		  . " FROM kernelindex.runs WHERE digest = '$digest'" :
		  "INSERT INTO kernelindex.runs (comparability_key, digest, implementation_id, template_id, labels_id,"
		  . " title_id, status_id, source_id, benchmark_id, name_id, external_id_id, observed_at, latency_ns)"
		  . " SELECT comparability_key, sha256(('$year' || digest::text)::bytea)::kidx_digest, implementation_id,"
		  . " template_id, labels_id, title_id, status_id, source_id, benchmark_id, name_id, external_id_id,"
		  . " observed_at, latency_ns FROM kernelindex.runs WHERE digest = '$digest'";
	}
	die "no run names a row of $table by $col" unless defined $value && $value ne '';
	# every run that names the row, through any column that refers to its table
	my @cols = map { $_->[0] } grep { $_->[1] eq $table } @KidxStore::RUN_REFERENCES;
	my $delete = 'DELETE FROM kernelindex.runs WHERE ' . join(' OR ', map { "$_ = '$value'" } @cols) . ';'
	  . " DELETE FROM kernelindex.$table WHERE $key = '$value';";
	return ($value, $load, $delete);
}

my $loader = session($node->connstr('refs'));
my $deleter = session($node->connstr('refs'));

# One race: who goes first, which isolation level, which path, which
# reference column.
sub race
{
	my ($level, $first, $how, $ref) = @_;
	my ($value, $load, $delete) = victim($how, $ref);
	my $begin = "BEGIN ISOLATION LEVEL $level;";
	my $name = "$level, $ref->[0] ($ref->[1]), $how, $first first";

	run_wait($loader, $begin);
	run_wait($deleter, $begin);
	# Both transactions take their snapshot before either acts.
	run_wait($loader, 'SELECT count(*) FROM kernelindex.runs');
	run_wait($deleter, 'SELECT count(*) FROM kernelindex.runs');
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
	is($node->safe_psql('refs', $orphans), '0', "$name: no run points at nothing")
	  or diag $node->safe_psql('refs', $orphans_by_column);
	like("$le;$de", qr/^(|23503|40001);(|23503|40001)$/, "$name: only reference or serialization errors ($le;$de)");
	return ($le, $de);
}

my %outcomes;
for my $level ('READ COMMITTED', 'REPEATABLE READ', 'SERIALIZABLE')
{
	for my $ref (@KidxStore::RUN_REFERENCES)
	{
		for my $how ('document', 'csv', 'insert')
		{
			# Liger runs' names derive from their externalIds: no CSV row
			# makes a run that names a name string.
			next if $how eq 'csv' && $ref->[0] eq 'name_id';
			my ($le, $de) = race($level, 'load', $how, $ref);
			isnt($de, '', "$level, $ref->[0], $how: a delete after the load commits is refused ($de)");
			$outcomes{"$level, load first: load '$le', delete '$de'"}++;
			($le, $de) = race($level, 'delete', $how, $ref);
			$outcomes{"$level, delete first: load '$le', delete '$de'"}++;
		}
	}
}
note "outcomes of the races (SQLSTATEs of the load and of the delete):\n"
  . join("\n", map { "  $outcomes{$_} x $_" } sort keys %outcomes);

# A load holds kernelindex.runs as an INSERT does: TRUNCATE, ALTER TABLE and
# CREATE INDEX wait for it (lock_timeout: 55P03) instead of going through,
# through the CSV and the documents path alike.
for my $how ('csv', 'document')
{
	my ($value, $load) = victim($how, $KidxStore::RUN_REFERENCES[0]);
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

# The controls.  Without the check of new runs (runs_references_insert),
# the race where the delete does not wait for the load leaves a run
# pointing at nothing, through every column and path: the check's lock is
# what makes the delete wait.  Without the guard of a referenced table
# (<table>_delete), deleting a row runs name leaves them pointing at nothing.
$node->safe_psql('refs', 'ALTER TABLE kernelindex.runs DISABLE TRIGGER runs_references_insert');
for my $ref (@KidxStore::RUN_REFERENCES)
{
	for my $how ('document', 'csv', 'insert')
	{
		next if $how eq 'csv' && $ref->[0] eq 'name_id';
		my ($value, $load, $delete) = victim($how, $ref);
		run_wait($loader, "BEGIN; $load");
		run_wait($deleter, "BEGIN; $delete COMMIT;");
		run_wait($loader, 'COMMIT;');
		my $e = errors($loader) . ';' . errors($deleter);
		my $dangling = $node->safe_psql('refs',
			"SELECT count(*) FROM kernelindex.runs WHERE $ref->[0] = '$value'"
			  . " AND NOT EXISTS (SELECT 1 FROM kernelindex.$ref->[1] t WHERE t.$ref->[2] = '$value')");
		cmp_ok($dangling, '>', 0,
			"control, $ref->[0] ($ref->[1]), $how: without the check of new runs the race leaves a run naming a deleted row ($e)");
		like($node->safe_psql('refs', $orphans_by_column), qr/^runs whose $ref->[0] names no row of $ref->[1]: [1-9]/m,
			"control, $ref->[0] ($ref->[1]), $how: the query the races use finds it");
		# clean up: the dangling runs go
		$node->safe_psql('refs', "DELETE FROM kernelindex.runs WHERE $ref->[0] = '$value'");
	}
}
$node->safe_psql('refs', 'ALTER TABLE kernelindex.runs ENABLE TRIGGER runs_references_insert');
is($node->safe_psql('refs', $orphans), '0', 'controls cleaned up: no run points at nothing');
my %guarded;
for my $ref (@KidxStore::RUN_REFERENCES)
{
	my ($col, $table, $key) = @$ref;
	next if $guarded{$table}++;
	my ($value, $load, $delete) = victim('insert', $ref);
	my $delete_row = "DELETE FROM kernelindex.$table WHERE $key = '$value'";
	my ($ret, $out, $err) = $node->psql('refs', $delete_row);
	like($err, qr/violates the reference from table "runs"/, "$table: deleting a row runs name is refused");
	$node->safe_psql('refs', "ALTER TABLE kernelindex.$table DISABLE TRIGGER ${table}_delete");
	$node->safe_psql('refs', $delete_row);
	cmp_ok($node->safe_psql('refs', $orphans), '>', 0,
		"control, $table: without ${table}_delete the same delete leaves runs pointing at nothing");
	$node->safe_psql('refs', "ALTER TABLE kernelindex.$table ENABLE TRIGGER ${table}_delete");
	$node->safe_psql('refs', 'DELETE FROM kernelindex.runs WHERE ' . join(' OR ',
		map { "$_->[0] = '$value'" } grep { $_->[1] eq $table } @KidxStore::RUN_REFERENCES));
	is($node->safe_psql('refs', $orphans), '0', "control, $table: cleaned up");
}

# What comparability keys refer to (their protocol, workload and
# environment), checked by the batch writer at once for a statement's new
# keys and guarded by <table>_delete: a load that stores a new key naming a
# resource races the delete of that resource (with the keys and runs that
# name it), under every isolation level, in both orders; after each race no
# key points at nothing, and the loser fails with 23503 or 40001.
my @KEY_REFERENCES = ([ 'protocol_id', 'protocols' ], [ 'workload_id', 'workloads' ],
	[ 'environment_id', 'environments' ]);
sub key_victim
{
	my ($col, $table) = @{ $_[0] };
	my $year = 2030 + ++$marker;
	replenish();
	my ($value, $n) = split / /, $node->safe_psql('refs', qq{
		SELECT k.$col || ' ' || x.n FROM csv_keys x JOIN kernelindex.comparability_keys k ON k.key = x.key
		WHERE x.metric_name = 'speed' ORDER BY x.n LIMIT 1});
	# a new key naming the row: a new GPU (a new environment), or for an
	# environment a new workload size
	my $gpu = $table eq 'environments' ? 'gpu_name' : "'NVIDIA KIDX $year'";
	my $x = $table eq 'environments' ? "'$year'" : 'x_value';
	my $load = "INSERT INTO kernelindex.liger_rows SELECT kernel_name, kernel_provider, kernel_operation_mode,"
	  . " metric_name, metric_unit, x_name, x_label, $x, y_value_50, y_value_20, y_value_80,"
	  . " extra_benchmark_config_str, $gpu, \"timestamp\", liger_version FROM csv_rows WHERE n = $n";
	my $delete = "DELETE FROM kernelindex.runs WHERE comparability_key IN"
	  . " (SELECT key FROM kernelindex.comparability_keys WHERE $col = $value);"
	  . " DELETE FROM kernelindex.comparability_keys WHERE $col = $value;"
	  . " DELETE FROM kernelindex.$table WHERE id = $value;";
	return ($value, $load, $delete);
}
for my $level ('READ COMMITTED', 'REPEATABLE READ', 'SERIALIZABLE')
{
	for my $ref (@KEY_REFERENCES)
	{
		for my $first ('load', 'delete')
		{
			my ($value, $load, $delete) = key_victim($ref);
			my $name = "$level, key's $ref->[0] ($ref->[1]), $first first";
			run_wait($_, "BEGIN ISOLATION LEVEL $level; SELECT count(*) FROM kernelindex.runs") for $loader, $deleter;
			my ($a, $b) = $first eq 'load' ? ($loader, $deleter) : ($deleter, $loader);
			run_wait($a, $first eq 'load' ? $load : $delete);
			my $m = run_nowait($b, $first eq 'load' ? $delete : $load);
			ok(blocked($b), "$name: the " . ($first eq 'load' ? 'delete' : 'load') . ' waits');
			run_wait($a, 'COMMIT;');
			wait_for($b, $m);
			run_wait($b, 'COMMIT;');
			my $le = errors($loader);
			my $de = errors($deleter);
			is($node->safe_psql('refs', $orphans), '0', "$name: no key points at nothing")
			  or diag $node->safe_psql('refs', $orphans_by_column);
			like("$le;$de", qr/^(|23503|40001);(|23503|40001)$/, "$name: only reference or serialization errors ($le;$de)");
			isnt($de, '', "$name: a delete after the load commits is refused ($de)") if $first eq 'load';
			isnt($le, '', "$name: a load after the delete commits is refused ($le)") if $first eq 'delete';
		}
	}
}
# Without the guard, deleting a resource a key names leaves the key pointing
# at nothing (the control); with it, the delete is refused, and so is a
# truncate of the table alone.
for my $ref (@KEY_REFERENCES)
{
	my ($col, $table) = @$ref;
	my ($value) = key_victim($ref);
	my $delete_row = "DELETE FROM kernelindex.$table WHERE id = $value";
	my ($ret, $out, $err) = $node->psql('refs', $delete_row);
	like($err, qr/violates the reference from table "comparability_keys"/, "$table: deleting a row a key names is refused");
	($ret, $out, $err) = $node->psql('refs', "TRUNCATE kernelindex.$table");
	like($err, qr/cannot truncate table "$table": comparability keys refer to its rows/,
		"$table: truncating it alone is refused");
	$node->safe_psql('refs', "ALTER TABLE kernelindex.$table DISABLE TRIGGER ${table}_delete");
	$node->safe_psql('refs', $delete_row);
	like($node->safe_psql('refs', $orphans_by_column), qr/^comparability keys whose $col names no row of $table: [1-9]/m,
		"control, $table: without ${table}_delete the same delete leaves keys pointing at nothing");
	$node->safe_psql('refs', "ALTER TABLE kernelindex.$table ENABLE TRIGGER ${table}_delete");
	$node->safe_psql('refs', "DELETE FROM kernelindex.runs WHERE comparability_key IN"
		  . " (SELECT key FROM kernelindex.comparability_keys WHERE $col = $value);"
		  . " DELETE FROM kernelindex.comparability_keys WHERE $col = $value");
	is($node->safe_psql('refs', $orphans), '0', "control, $table: cleaned up");
}

$loader->{h}->finish;
$deleter->{h}->finish;
$node->stop;
done_testing();
