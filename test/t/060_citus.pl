# Scale-out on Citus: a coordinator and two workers on loopback, the store
# distributed by kernelindex.distribute() (runs by comparability key, every
# other table a reference table), give the same answers as one server.  The
# upstream Liger file is loaded by CSV on both, then a document export of it
# by COPY into the documents view (and the reference records through
# ingest_document) into a second database on both; runs, their digests,
# exported documents, run_document() and every BI view are compared row for
# row.  Also: distribute() fails cleanly without Citus and is idempotent,
# runs really live in the workers' shards, and what runs refer to is still
# enforced (a foreign key on Citus).  Skipped when Citus is not installed.
use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $pkglibdir = `pg_config --pkglibdir`;
chomp $pkglibdir;
plan skip_all => "Citus is not installed (no citus.so in $pkglibdir), so the Citus test did not run"
  unless -e "$pkglibdir/citus.so";
my $shared = $ENV{KIDX_SHARED};
my $csv = defined $shared ? "$shared/data/liger/all_benchmark_data.csv" : undef;
plan skip_all => "the upstream file data/liger/all_benchmark_data.csv is absent (KIDX_SHARED), so the Citus test did not run"
  unless defined $csv && -e $csv;
my $top = $ENV{KIDX_TOP} or die "KIDX_TOP is not set";

# --- A plain server, and a coordinator with two workers ---------------------

my $single = PostgreSQL::Test::Cluster->new('single');
$single->init;
$single->start;

my @citus;
for my $name (qw(coordinator worker1 worker2))
{
	my $n = PostgreSQL::Test::Cluster->new($name);
	$n->init;
	$n->append_conf('postgresql.conf',
		"shared_preload_libraries = 'citus'\nlisten_addresses = '127.0.0.1'\n"
		  . "max_connections = 200\nmax_worker_processes = 32\n");
	$n->start;
	push @citus, $n;
}
my ($coord, @workers) = @citus;

# A database of that name on every node, with Citus and kernelindex.
# (With $existing, the database is there on the coordinator, with
# kernelindex: Citus comes after it.)
sub citus_database
{
	my ($db, $existing) = @_;
	for my $n (@citus)
	{
		$n->safe_psql('postgres', "CREATE DATABASE $db")
		  unless $db eq 'postgres' || ($existing && $n == $coord);
		$n->safe_psql($db, 'CREATE EXTENSION citus');
	}
	$coord->safe_psql($db,
		"SELECT citus_set_coordinator_host('127.0.0.1', " . $coord->port . ')');
	$coord->safe_psql($db, "SELECT citus_add_node('127.0.0.1', " . $_->port . ')')
	  for @workers;
	$coord->safe_psql($db, 'CREATE EXTENSION kernelindex') unless $existing;
	return;
}

citus_database('postgres');
$single->safe_psql('postgres', 'CREATE EXTENSION kernelindex');

# --- distribute() without Citus -------------------------------------------

my ($rc, $out, $err) = $single->psql('postgres',
	"\\set VERBOSITY verbose\nSELECT kernelindex.distribute()");
isnt($rc, 0, 'distribute() fails on a server without Citus');
like($err, qr/ERROR:  55000: kernelindex\.distribute\(\) needs the Citus extension/,
	'... with SQLSTATE 55000 and a message naming what is missing');
like($err, qr/HINT:  Install Citus from its own packages/, '... and a hint how to install Citus');
is($single->safe_psql('postgres',
		"SELECT count(*) FROM pg_trigger WHERE tgrelid = 'kernelindex.runs'::regclass"),
	'2', '... and changes nothing');

# --- distribute() on the coordinator ---------------------------------------

$coord->safe_psql('postgres', 'SELECT kernelindex.distribute()');
my $layout = q{SELECT string_agg(p.logicalrelid::text || ':' || p.partmethod::text
	|| COALESCE(':' || column_to_column_name(p.logicalrelid, p.partkey), ''), ' ' ORDER BY p.logicalrelid::text)
	FROM pg_dist_partition p};
my $distributed = $coord->safe_psql('postgres', $layout);
is($distributed,
	join(' ', sort(
		'kernelindex.runs:h:comparability_key',
		map { "kernelindex.$_:n" } qw(protocols environments workloads implementations
		  comparability_keys run_series gpus kernels providers liger_passes rejected_rows))),
	'runs distributed by comparability key, every other table a reference table');
$coord->safe_psql('postgres', 'SELECT kernelindex.distribute()');
is($coord->safe_psql('postgres', $layout), $distributed, 'distribute() a second time changes nothing');
($rc, $out, $err) = $workers[0]->psql('postgres', "\\set VERBOSITY verbose\nSELECT kernelindex.distribute()");
like($err, qr/ERROR:  55000: kernelindex\.distribute\(\) must run on the Citus coordinator/,
	'distribute() on a worker fails with 55000');
is($coord->safe_psql('postgres', q{SELECT count(DISTINCT placement.groupid) FROM pg_dist_placement placement
	JOIN pg_dist_shard s USING (shardid) WHERE s.logicalrelid = 'kernelindex.runs'::regclass}),
	'2', 'the shards of runs are on both workers');

# --- What Citus needs of the type and of the keys ---------------------------

# Citus hashes the distribution column with the default hash operator class
# of its type, and prunes and colocates with the default btree class: both
# must exist, share the one equality operator, and hash equal values alike.
my $opclasses = q{SELECT am.amname || ':' || opc.opcname || ':' || o.amopopr::regoperator::text
	|| COALESCE(':' || p.amproc::regprocedure::text, '')
	FROM pg_opclass opc JOIN pg_am am ON am.oid = opc.opcmethod
	JOIN pg_amop o ON o.amopfamily = opc.opcfamily AND o.amoplefttype = opc.opcintype
		AND o.amoprighttype = opc.opcintype
		AND o.amopstrategy = CASE am.amname WHEN 'btree' THEN 3 ELSE 1 END
	LEFT JOIN pg_amproc p ON am.amname = 'hash' AND p.amprocfamily = opc.opcfamily
		AND p.amproclefttype = opc.opcintype AND p.amprocrighttype = opc.opcintype AND p.amprocnum = 1
	WHERE opc.opcintype = 'kidx_digest'::regtype AND opc.opcdefault ORDER BY 1};
is($coord->safe_psql('postgres', $opclasses),
	"btree:kidx_digest_ops:=(kidx_digest,kidx_digest)\n"
	  . "hash:kidx_digest_hash_ops:=(kidx_digest,kidx_digest):kidx_digest_hash(kidx_digest)",
	'kidx_digest has a default btree class and a default hash class with support function 1, both with the one =');
# Every unique constraint or index of runs includes the distribution column
# (on one server too: distribute() adds none to runs).
my $unique = q{SELECT count(*) FROM pg_index i
	WHERE i.indrelid = 'kernelindex.runs'::regclass AND i.indisunique
	  AND NOT (SELECT a.attnum FROM pg_attribute a WHERE a.attrelid = i.indrelid
		AND a.attname = 'comparability_key') = ANY (i.indkey::int2[])};
my $nunique = q{SELECT count(*) FROM pg_index i WHERE i.indrelid = 'kernelindex.runs'::regclass AND i.indisunique};
is($single->safe_psql('postgres', $nunique), '2', 'runs has two unique indexes (primary key, externalId)');
is($_->safe_psql('postgres', $unique), '0',
	'every unique index of runs includes comparability_key (' . $_->name . ')')
  for ($single, $coord);

# --- CSV in, on both ------------------------------------------------------

my $copy_csv = "\\copy kernelindex.liger_rows FROM '$csv' WITH (FORMAT csv, HEADER MATCH)";
$_->safe_psql('postgres', $copy_csv) for ($single, $coord);
my $lines = () = slurp_file($csv) =~ /\n/g;
is($coord->safe_psql('postgres', 'SELECT count(*) FROM kernelindex.runs'),
	$lines - 1, 'every upstream row is a run on the cluster');
is($coord->safe_psql('postgres',
		q{SELECT sum(result::bigint) FROM run_command_on_shards('kernelindex.runs', 'SELECT count(*) FROM %s')}),
	$lines - 1, '... stored in the shards on the workers');
is($coord->safe_psql('postgres', q{SELECT pg_relation_size('kernelindex.runs')}),
	'0', q{... and none in the coordinator's table});
$coord->safe_psql('postgres', $copy_csv);
is($coord->safe_psql('postgres', 'SELECT count(*) FROM kernelindex.runs'),
	$lines - 1, 'loading the file again changes nothing (idempotent)');
$single->safe_psql('postgres', $copy_csv);

# Support function 1 agrees with =: a digest and a copy of it made through
# its text form hash alike, and a hash join on digests (which uses the hash
# class) pairs each run with itself alone.
is($coord->safe_psql('postgres', q{SELECT count(*) FROM kernelindex.runs r
	WHERE r.comparability_key::text::kidx_digest <> r.comparability_key
	   OR kidx_digest_hash(r.comparability_key) <> kidx_digest_hash(r.comparability_key::text::kidx_digest)
	   OR kidx_digest_hash_extended(r.digest, 42) <> kidx_digest_hash_extended(r.digest::text::kidx_digest, 42)}),
	'0', 'equal digests hash equal (hash support functions 1 and 2)');
is($single->safe_psql('postgres', q{SET enable_mergejoin = off; SET enable_nestloop = off;
	SELECT count(*) FROM kernelindex.runs a JOIN kernelindex.runs b ON a.digest = b.digest}),
	$lines - 1, 'a hash join on digests pairs each run with itself alone');
# Pruning: a comparability key routes a query to the one shard that holds
# its runs, and every run is found by a query for its key.
my $some_key = $coord->safe_psql('postgres', 'SELECT min(comparability_key) FROM kernelindex.run_series');
like($coord->safe_psql('postgres', "EXPLAIN (COSTS off) SELECT count(*) FROM kernelindex.runs
	WHERE comparability_key = '$some_key'"),
	qr/Task Count: 1\b/, 'a query by comparability key is pruned to one shard');
{
	my (undef, undef, $e) = $coord->psql('postgres', q{DO $$
	DECLARE k kidx_digest; n bigint := 0; m bigint;
	BEGIN
		FOR k IN SELECT DISTINCT comparability_key FROM kernelindex.run_series LOOP
			EXECUTE 'SELECT count(*) FROM kernelindex.runs WHERE comparability_key = $1' INTO m USING k;
			n := n + m;
		END LOOP;
		RAISE NOTICE 'runs found by key: %', n;
	END $$});
	like($e, qr/runs found by key: ${\($lines - 1)}\b/, 'each run is found on the shard its key is routed to');
}

# The same rows a year later as release 0.9.0, so that every series has a
# successor and release_changes has rows to compare.
my $next = $single->basedir . '/next_release.csv';
{
	my @l = split /\r?\n/, slurp_file($csv);
	open my $fh, '>', $next or die $!;
	print $fh shift(@l), "\n";
	for (@l)
	{
		s/,(\d{4})(-\d\d-\d\d \d\d:\d\d:\d\d),[^,]*$/',' . ($1 + 1) . "$2,0.9.0"/e
		  or die "unexpected line: $_";
		print $fh "$_\n";
	}
	close $fh;
	chmod 0644, $next;
}
$_->safe_psql('postgres', "\\copy kernelindex.liger_rows FROM '$next' WITH (FORMAT csv, HEADER MATCH)")
  for ($single, $coord);
is($coord->safe_psql('postgres', 'SELECT count(*) FROM kernelindex.runs'),
	2 * ($lines - 1), 'and the next release of every run');

# --- Row for row ---------------------------------------------------------

# Every relation the comparison reads, each ordered by its whole row.
my @views = qw(run_facts latest_runs speedups release_runs release_changes
  speedup_since releases series_facts series_latest series_reference);
my %queries = (
	runs => q{SELECT r.digest::text, r.comparability_key::text, r.series_id, r.observed_at,
		r.latency_ns, r.latency_ns_p20, r.latency_ns_p80, r.peak_bytes, r.peak_bytes_p20,
		r.peak_bytes_p80, r.native_p20, r.native_p50, r.native_p80, r.external_key
		FROM kernelindex.runs r ORDER BY 1},
	resources => q{SELECT k, digest::text, id, kidx_canonical(document) FROM (
		SELECT 'protocol' AS k, digest, id, document FROM kernelindex.protocols
		UNION ALL SELECT 'environment', digest, id, document FROM kernelindex.environments
		UNION ALL SELECT 'workload', digest, id, document FROM kernelindex.workloads
		UNION ALL SELECT 'implementation', digest, id, document FROM kernelindex.implementations) t
		ORDER BY 1, 2},
	run_series => q{SELECT id, key::text, comparability_key::text, implementation_id,
		kidx_canonical(template), name_stem, name_cut, external_id_stem, native_unit
		FROM kernelindex.run_series ORDER BY id},
	documents => q{SELECT kidx_canonical(d.document) FROM kernelindex.documents d ORDER BY 1},
	map { $_ => "SELECT t::text FROM kernelindex.$_ t ORDER BY 1" } @views);

# release_speedups: the geometric mean sums doubles, in an order the plan
# chooses, so it may differ in its last bits; compared to 1e-12.
my $speedups = q{SELECT (to_jsonb(t) - 'geomean_speedup')::text, t.geomean_speedup
	FROM kernelindex.release_speedups t ORDER BY 1};

# The first line where two outputs differ, for the log.
sub first_difference
{
	my ($s, $c) = @_;
	my @s = split /\n/, $s;
	my @c = split /\n/, $c;
	for my $i (0 .. ($#s > $#c ? $#s : $#c))
	{
		next if defined $s[$i] && defined $c[$i] && $s[$i] eq $c[$i];
		return "line " . ($i + 1) . "\n  one server: " . ($s[$i] // '(none)')
		  . "\n  cluster:    " . ($c[$i] // '(none)');
	}
	return 'no difference';
}

# The same rows on both, relation by relation.
sub compare
{
	my ($db, $what) = @_;
	for my $name (sort keys %queries)
	{
		my $c = $coord->safe_psql($db, $queries{$name});
		my $s = $single->safe_psql($db, $queries{$name});
		my $n = () = $s =~ /^/mg;
		$n = 0 if $s eq '';
		ok($c eq $s, "$what: $name, $n rows, the same on the cluster as on one server")
		  or diag(first_difference($s, $c));
	}
	my @c = map { [ split /\|/, $_, 2 ] } split /\n/, $coord->safe_psql($db, $speedups);
	my @s = map { [ split /\|/, $_, 2 ] } split /\n/, $single->safe_psql($db, $speedups);
	my $same = @c == @s;
	for my $i (0 .. $#s)
	{
		last unless $same;
		my ($a, $b) = ($s[$i], $c[$i]);
		$same = $a->[0] eq $b->[0]
		  && ((($a->[1] // '') eq ($b->[1] // ''))
			|| (length $a->[1] && length $b->[1]
				&& abs($a->[1] - $b->[1]) <= 1e-12 * abs($a->[1])));
	}
	ok($same, "$what: release_speedups, " . scalar(@s) . ' rows, the same (geomean to 1e-12)');
	return;
}

compare('postgres', 'CSV');

# run_document() of the two reference runs (lines 692 and 1424 of the file)
# and of a hundred others, called on the coordinator.
my $digests = $single->safe_psql('postgres', q{SELECT string_agg(digest::text, ',' ORDER BY digest)
	FROM (SELECT digest FROM kernelindex.runs ORDER BY digest LIMIT 100) d});
$digests .= ',' . $single->safe_psql('postgres', q{SELECT string_agg(r.run_digest, ',')
	FROM kernelindex.run_facts r WHERE r.external_id IN
	('sparsemax/backward/torch/nvidia-geforce-rtx-3090/features16384-tokens2048-fp32/2025-04-28-00-38-25',
	 'fused_linear_grpo_loss_sequence/forward/torch/nvidia-a100-sxm4-80gb/batch8-seq1024-vocab128256-bf16/2025-08-05-00-08-54')});
my $rundocs = "SELECT d::text, kidx_canonical(kernelindex.run_document(d)), "
  . "kidx_resource_digest(kernelindex.run_document(d) -> 'run') = d, "
  . "kidx_canonical(kernelindex.run_bundle(d)) FROM unnest('{$digests}'::kidx_digest[]) d ORDER BY 1";
my $rd = $single->safe_psql('postgres', $rundocs);
is($coord->safe_psql('postgres', $rundocs), $rd, 'run_document() and run_bundle() give the same documents');
my $n = () = $rd =~ /sha256:/g;
cmp_ok($n, '>=', 102, '... of the two reference runs and a hundred others');
unlike($rd, qr/\|f\|/, '... each of which digests to its run');

# --- Documents in, on both ------------------------------------------------

my $jsonl = $single->basedir . '/documents.jsonl';
my $fmt = q{WITH (FORMAT csv, QUOTE E'\x01', DELIMITER E'\x02')};
$single->safe_psql('postgres', "\\copy (SELECT document FROM kernelindex.documents) TO '$jsonl' $fmt");
citus_database('docs');
$coord->safe_psql('docs', 'SELECT kernelindex.distribute()');
$single->safe_psql('postgres', 'CREATE DATABASE docs');
$single->safe_psql('docs', 'CREATE EXTENSION kernelindex');
# Fifty of the bundles again, through ingest_bundles(), from a literal
# array: on Citus a transaction that has read runs in parallel cannot write
# the reference tables the runs refer to (README).
my @jsonl = split /\n/, slurp_file($jsonl);
my $bundles = 'SELECT kernelindex.ingest_bundles(ARRAY['
  . join(', ', map { "\$kidx\$$_\$kidx\$" } @jsonl[ 0 .. 49 ]) . ']::jsonb[])';
for my $node ($single, $coord)
{
	for my $f (sort glob("$top/test/data/records/*.json"))
	{
		my $doc = slurp_file($f);
		$node->safe_psql('docs', "SELECT kernelindex.ingest_document(\$kidx\$$doc\$kidx\$)");
	}
	$node->safe_psql('docs', "\\copy kernelindex.documents FROM '$jsonl' $fmt");
	$node->safe_psql('docs', $bundles);
}
is($coord->safe_psql('docs', 'SELECT count(*) FROM kernelindex.runs'),
	$single->safe_psql('docs', 'SELECT count(*) FROM kernelindex.runs'), 'documents loaded on both');
compare('docs', 'documents');

# --- Bad rows, quarantined ------------------------------------------------

my $bad = $single->basedir . '/bad.csv';
{
	my @l = split /\r?\n/, slurp_file($csv);
	(my $row = $l[1]) =~ s/,speed,ms,/,latency,ms,/;
	open my $fh, '>', $bad or die $!;
	print $fh "$l[0]\n$row\n$l[2]\n";
	close $fh;
	chmod 0644, $bad;
}
for my $node ($single, $coord)
{
	$node->safe_psql('docs', "SET kernelindex.on_bad_row = 'quarantine';\n"
		  . "\\copy kernelindex.liger_rows FROM '$bad' WITH (FORMAT csv, HEADER MATCH)");
}
my $rejected = q{SELECT row_number, column_name, bad_value, reason, kernel_name FROM kernelindex.rejected_rows ORDER BY 1};
is($coord->safe_psql('docs', $rejected), $single->safe_psql('docs', $rejected),
	'a bad row is quarantined the same way on the cluster');

# --- A store loaded on one server, distributed afterwards ------------------

# kernelindex created and loaded before Citus: distribute() has Citus create
# the extension on the workers and moves the stored rows into the shards.
$coord->safe_psql('postgres', 'CREATE DATABASE existing');
$coord->safe_psql('existing', 'CREATE EXTENSION kernelindex');
$coord->safe_psql('existing', $copy_csv);
my %before = map { $_ => $coord->safe_psql('existing', $queries{$_}) } qw(runs run_series speedups);
my $members = q{SELECT pg_describe_object(d.classid, d.objid, d.objsubid) COLLATE "C"
	FROM pg_depend d JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'kernelindex' WHERE d.deptype = 'e'
	ORDER BY 1};
my $members_before = $coord->safe_psql('existing', $members);
citus_database('existing', 1);
# distribute() redefines some views and functions, the extension's own only.
$coord->safe_psql('existing', 'ALTER EXTENSION kernelindex DROP VIEW kernelindex.releases');
($rc, $out, $err) = $coord->psql('existing', "\\set VERBOSITY verbose\nSELECT kernelindex.distribute()");
like($err, qr/ERROR:  55000: kernelindex\.distribute\(\) redefines only objects of the kernelindex extension; not of it: kernelindex\.releases\n/,
	'distribute() refuses to redefine a view that is not the extension\'s (55000)');
is($coord->safe_psql('existing', 'SELECT count(*) FROM pg_dist_partition'), '0', '... and changes nothing');
$coord->safe_psql('existing', 'ALTER EXTENSION kernelindex ADD VIEW kernelindex.releases');
$coord->safe_psql('existing', 'SELECT kernelindex.distribute()');
is($coord->safe_psql('existing',
		q{SELECT sum(result::bigint) FROM run_command_on_shards('kernelindex.runs', 'SELECT count(*) FROM %s')}),
	$lines - 1, 'an existing store: distribute() moves its runs into the shards');
is($coord->safe_psql('existing', $queries{$_}), $before{$_}, "... $_ the same as before")
  for sort keys %before;
is($coord->safe_psql('existing', $members), $members_before,
	'... and every object of the extension, the redefined views and functions too, is still a member of it');
$coord->safe_psql('existing', $copy_csv);
is($coord->safe_psql('existing', 'SELECT count(*) FROM kernelindex.runs'), $lines - 1,
	'... and loading the file again stores nothing new');

# --- What runs refer to is still enforced ----------------------------------

sub sqlstate
{
	my ($node, $db, $sql) = @_;
	my (undef, undef, $e) = $node->psql($db, "\\set VERBOSITY sqlstate\n$sql");
	return $e =~ /ERROR:\s+(\w{5})/ ? $1 : "no error ($e)";
}
my $used = $coord->safe_psql('postgres', 'SELECT min(series_id) FROM kernelindex.runs');
is(sqlstate($coord, 'postgres', "DELETE FROM kernelindex.run_series WHERE id = $used"),
	'23503', 'deleting a series runs use fails with 23503');
is(sqlstate($coord, 'postgres', "UPDATE kernelindex.run_series SET name_cut = 1 WHERE id = $used"),
	'0A000', 'changing a series is refused');
is(sqlstate($coord, 'postgres', 'TRUNCATE kernelindex.run_series'),
	'0A000', 'truncating the series while runs remain is refused');
# (As the batch writer inserts on Citus: a plain INSERT ... SELECT goes by
# COPY, whose errors Citus reports as XX000.)
is(sqlstate($coord, 'postgres', q{INSERT INTO kernelindex.runs (comparability_key, digest, observed_at, series_id)
	SELECT comparability_key, ('sha256:' || repeat('0', 64))::kidx_digest, now(), series_id + 1000000
	FROM kernelindex.runs LIMIT 1 ON CONFLICT (comparability_key, digest) DO NOTHING}),
	'23503', 'a run naming a series that does not exist fails with 23503');
my $key = $coord->safe_psql('postgres', "SELECT comparability_key FROM kernelindex.run_series WHERE id = $used");
is(sqlstate($coord, 'postgres', qq{INSERT INTO kernelindex.runs (comparability_key, digest, observed_at, series_id)
	SELECT '$key', ('sha256:' || repeat('1', 64))::kidx_digest, now(), s.id
	FROM kernelindex.run_series s WHERE s.comparability_key <> '$key' LIMIT 1
	ON CONFLICT (comparability_key, digest) DO NOTHING}),
	'23503', 'a run whose series has another comparability key fails with 23503');
{
	my @l = split /\r?\n/, slurp_file($csv);
	(my $row = $l[691]) =~ s/^((?:[^,]*,){8})[^,]*/${1}2.7/;
	my $f = $single->basedir . '/collision.csv';
	open my $fh, '>', $f or die $!;
	print $fh "$l[0]\n$row\n";
	close $fh;
	chmod 0644, $f;
	is(sqlstate($coord, 'postgres', "\\copy kernelindex.liger_rows FROM '$f' WITH (FORMAT csv, HEADER MATCH)"),
		'23505', q{a new run with a stored run's externalId fails with 23505});
}
# Loads refuse a missing reference as on one server: a bundle without its
# protocol, naming one that is not stored (23503), and nothing is stored.
{
	my ($f) = sort glob("$top/test/data/records/*.json");
	my $doc = slurp_file($f);
	$doc =~ s/"protocolDigest"\s*:\s*"sha256:[0-9a-f]{64}"/"protocolDigest": "sha256:@{['f' x 64]}"/ or die 'no protocolDigest';
	my $sql = "SELECT kernelindex.ingest_document(jsonb_set(\$kidx\$$doc\$kidx\$::jsonb #- '{protocol}', '{run,metadata,name}', '\"missing-protocol\"'))";
	for my $node ($single, $coord)
	{
		my $what = $node == $coord ? 'coordinator' : 'one server';
		my $before = $node->safe_psql('postgres', 'SELECT count(*) FROM kernelindex.runs');
		is(sqlstate($node, 'postgres', $sql), '23503', "$what: a document naming a protocol neither given nor stored fails with 23503");
		is($node->safe_psql('postgres', 'SELECT count(*) FROM kernelindex.runs'), $before, "$what: ... and stores nothing");
	}
}
is($coord->safe_psql('postgres', q{SELECT count(*) FROM kernelindex.runs r
	WHERE NOT EXISTS (SELECT 1 FROM kernelindex.run_series s WHERE s.id = r.series_id)}),
	'0', 'no run points at nothing');

$_->stop for ($single, @citus);
done_testing();
