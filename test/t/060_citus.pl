# Scale-out on Citus: a coordinator and two workers on loopback, the store
# distributed by kernelindex.distribute() (runs by comparability key, every
# other table a reference table), give the same answers as one server.
#
# - distribute(): what it makes of every table of kernelindex (read from the
#   catalog, so that a new table cannot be forgotten), the reference
#   triggers kept on runs and on each shard and placement (runs declare no
#   foreign key), the triggers kept and dropped, the
#   Citus forms of run_bundles, run_document and run_bundle swapped in; it
#   fails cleanly without Citus and on a worker, and is idempotent.
# - Where the shards are: pg_dist_partition and pg_dist_shard (citus_tables
#   lists none of kernelindex's tables, which belong to an extension).
# - Loads: the upstream Liger file and a next release of it by CSV; a
#   document export of that store, and the whole bundles (with workload and
#   implementation documents, so that the BI views have rows), by COPY into
#   documents and by ingest_bundles(), into a second database; every reload
#   changes no row and no sequence.
# - Row for row against one server: the store by value, every view of
#   kernelindex (read from the catalog; each must have rows), the documents
#   byte for byte (canonical JSON) with their digests, release_speedups to
#   the last bit (and the same bits under other plans: its sum is exact).
# - Routing: a query by comparability key on runs reaches the one shard the
#   key hashes to (from EXPLAIN (FORMAT JSON): one task, that shard, its
#   node), and so does the routed form of a BI query by key (speedups of one
#   key, written over runs), which gives the view's rows.
# - Bad input: every bad Liger row and every faulty document of the
#   catalogues in test/data fails with the same SQLSTATE, message and
#   detail on both; a bad row is quarantined alike.
# - References: a run naming nothing, through each reference column, is
#   refused (23503); a value runs use cannot be deleted (23503), changed
#   (0A000) or truncated away (23503; with runs named first in the
#   command it can); no run points at nothing; last, loads race deletes
#   of what they name, in both orders.
# - A store loaded on one server and distributed afterwards; pg_dump of the
#   coordinator restored into a new database and distributed again (the
#   same rows, ids and sequences); a third worker added and the shards
#   rebalanced (the same answers, and loads work).
# Skipped when Citus is not installed.
use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use JSON::PP;
use Time::HiRes qw(time);
use FindBin;
use lib $FindBin::RealBin;
use KidxStore;
use KidxSession;

my $pkglibdir = `pg_config --pkglibdir`;
chomp $pkglibdir;
plan skip_all => "Citus is not installed (no citus.so in $pkglibdir), so the Citus test did not run"
  unless -e "$pkglibdir/citus.so";
my $shared = $ENV{KIDX_SHARED};
my $csv = defined $shared ? "$shared/data/liger/all_benchmark_data.csv" : undef;
plan skip_all => "the upstream file data/liger/all_benchmark_data.csv is absent (KIDX_SHARED), so the Citus test did not run"
  unless defined $csv && -e $csv;
my $top = $ENV{KIDX_TOP} or die "KIDX_TOP is not set";
my $started = time;

# --- A plain server, and a coordinator with two workers (a third joins later)

my $single = PostgreSQL::Test::Cluster->new('single');
$single->init;
$single->start;

my @citus;
for my $name (qw(coordinator worker1 worker2 worker3))
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
my $worker3 = pop @workers;

# A database of that name on the coordinator and the first two workers,
# with Citus, the workers added, and kernelindex.  (With $existing, the
# database is there on the coordinator, with kernelindex: Citus comes after
# it.)
sub citus_database
{
	my ($db, $existing) = @_;
	for my $n ($coord, @workers)
	{
		$n->safe_psql('postgres', "CREATE DATABASE $db")
		  unless $db eq 'postgres' || ($existing && $n == $coord);
		$n->safe_psql($db, 'CREATE EXTENSION IF NOT EXISTS citus');
	}
	$coord->safe_psql($db,
		"SELECT citus_set_coordinator_host('127.0.0.1', " . $coord->port . ')');
	$coord->safe_psql($db, "SELECT citus_add_node('127.0.0.1', " . $_->port . ')')
	  for @workers;
	$coord->safe_psql($db, 'CREATE EXTENSION IF NOT EXISTS kernelindex');
	return;
}

# distribute(), timed.
my %distribute_seconds;
sub distribute
{
	my ($db) = @_;
	my $t = time;
	$coord->safe_psql($db, 'SELECT kernelindex.distribute()');
	$distribute_seconds{$db} //= sprintf('%.1f', time - $t);
	return;
}

# The SQLSTATE a statement fails with.
sub sqlstate
{
	my ($node, $db, $sql) = @_;
	my (undef, undef, $e) = $node->psql($db, "\\set VERBOSITY sqlstate\n$sql");
	return $e =~ /ERROR:\s+(\w{5})/ ? $1 : "no error ($e)";
}

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

citus_database('postgres');
$single->safe_psql('postgres', 'CREATE EXTENSION kernelindex');

# What the one server has: its tables, views, triggers.
my @tables = split / /, $single->safe_psql('postgres', KidxStore::tables_sql());
my @views = split / /, $single->safe_psql('postgres', q{SELECT string_agg(c.relname, ' ' ORDER BY c.relname)
	FROM pg_class c WHERE c.relnamespace = 'kernelindex'::regnamespace AND c.relkind = 'v'
	AND c.relname NOT IN ('liger_rows', 'run_rows')});
# (Of the extension's tables and views: the coordinator holds shards of the
# reference tables too.)
my $triggers = q{SELECT string_agg(t.tgrelid::regclass::text || ' ' || t.tgname, E'\n'
		ORDER BY t.tgrelid::regclass::text COLLATE "C", t.tgname COLLATE "C")
	FROM pg_trigger t WHERE NOT t.tgisinternal
	AND t.tgrelid IN (SELECT d.objid FROM pg_depend d JOIN pg_extension e ON e.oid = d.refobjid
		WHERE e.extname = 'kernelindex' AND d.classid = 'pg_class'::regclass AND d.deptype = 'e')};
my $definitions = q{SELECT pg_get_viewdef('kernelindex.run_bundles'), pg_get_functiondef('kernelindex.run_document(kidx_digest)'::regprocedure),
	pg_get_functiondef('kernelindex.run_bundle(kidx_digest)'::regprocedure)};
my $one_server_triggers = $single->safe_psql('postgres', $triggers);
my $one_server_definitions = $single->safe_psql('postgres', $definitions);

# --- distribute() without Citus -------------------------------------------

my ($rc, $out, $err) = $single->psql('postgres',
	"\\set VERBOSITY verbose\nSELECT kernelindex.distribute()");
isnt($rc, 0, 'distribute() fails on a server without Citus');
like($err, qr/ERROR:  55000: kernelindex\.distribute\(\) needs the Citus extension/,
	'... with SQLSTATE 55000 and a message naming what is missing');
like($err, qr/HINT:  Install Citus from its own packages/, '... and a hint how to install Citus');
is($single->safe_psql('postgres', $triggers) . $single->safe_psql('postgres', $definitions),
	$one_server_triggers . $one_server_definitions, '... and changes no trigger, view or function');

# --- distribute() on the coordinator ---------------------------------------

distribute('postgres');
my $layout = q{SELECT string_agg(p.logicalrelid::text || ':' || p.partmethod::text
	|| COALESCE(':' || column_to_column_name(p.logicalrelid, p.partkey), ''), ' ' ORDER BY p.logicalrelid::text COLLATE "C")
	FROM pg_dist_partition p};
my $distributed = $coord->safe_psql('postgres', $layout);
is($distributed,
	join(' ', sort map { $_ eq 'runs' ? 'kernelindex.runs:h:comparability_key' : "kernelindex.$_:n" } @tables),
	'runs distributed by comparability key, every other table of kernelindex a reference table (' . scalar(@tables) . ' tables)');
my $constraints = q{SELECT string_agg(c.conrelid::regclass::text || ' ' || c.conname || ' ' || pg_get_constraintdef(c.oid), E'\n'
		ORDER BY c.conrelid::regclass::text COLLATE "C", c.conname COLLATE "C")
	FROM pg_constraint c WHERE c.conrelid IN (SELECT d.objid FROM pg_depend d JOIN pg_extension e ON e.oid = d.refobjid
		WHERE e.extname = 'kernelindex' AND d.classid = 'pg_class'::regclass AND d.deptype = 'e')};
my $after_first = join("\n", map { $coord->safe_psql('postgres', $_) } $layout, $triggers, $constraints, $definitions);
distribute('postgres');
is(join("\n", map { $coord->safe_psql('postgres', $_) } $layout, $triggers, $constraints, $definitions), $after_first,
	'distribute() a second time changes nothing (tables, triggers, constraints, definitions)');
($rc, $out, $err) = $workers[0]->psql('postgres', "\\set VERBOSITY verbose\nSELECT kernelindex.distribute()");
like($err, qr/ERROR:  55000: kernelindex\.distribute\(\) must run on the Citus coordinator/,
	'distribute() on a worker fails with 55000');

# What runs refer to: the C code's list and the test's list.  On Citus
# runs declare no foreign key: the reference triggers stay, on runs and on
# every shard and placement, and read the server's own copies.
my $references = join("\n", map { join('|', @$_) } @KidxStore::RUN_REFERENCES);
is($single->safe_psql('postgres', 'SELECT column_name, table_name, key_column FROM kernelindex_internal.run_references()'),
	$references, 'kernelindex_internal.run_references() names every reference column of runs (as KidxStore knows them)');
is($coord->safe_psql('postgres', q{SELECT count(*) FROM pg_constraint c
	WHERE c.conrelid = 'kernelindex.runs'::regclass AND c.contype = 'f'}),
	'0', 'on Citus runs declare no foreign key (their references are checked per statement, as on one server)');
my %key_guarded = map { $_ => 1 } qw(protocols workloads environments);
my $kept = join("\n", grep { !/^kernelindex\.(\w+) \1_(delete|truncate)$/ || !$key_guarded{$1} } split /\n/, $one_server_triggers);
is($coord->safe_psql('postgres', $triggers), $kept,
	'... the guards of deletes and truncates of what comparability keys name are dropped (foreign keys between reference tables), every other trigger kept');
# Each shard of runs has the check of its new runs, each placement of a
# table runs name the guards of its deletes and truncates.
my %referenced = map { $_->[1] => 1 } @KidxStore::RUN_REFERENCES;
for my $w (@workers)
{
	my $shards = $w->safe_psql('postgres', q{SELECT count(*) FROM pg_dist_shard s JOIN pg_dist_placement p USING (shardid)
		WHERE s.logicalrelid = 'kernelindex.runs'::regclass AND p.groupid = (SELECT groupid FROM pg_dist_local_group)});
	# (Citus hides shards from pg_class unless told otherwise)
	is($w->safe_psql('postgres', q{SET citus.override_table_visibility = off;
		SELECT count(*) FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
		WHERE c.relname ~ '^runs_[0-9]+$' AND t.tgname ~ '^runs_references_insert_[0-9]+$'}),
		$shards, $w->name . ": each of its $shards shards of runs has runs_references_insert");
	is($w->safe_psql('postgres', q{SET citus.override_table_visibility = off;
		SELECT string_agg(DISTINCT regexp_replace(c.relname, '_[0-9]+$', ''), ' ' ORDER BY regexp_replace(c.relname, '_[0-9]+$', ''))
		FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
		WHERE c.relname ~ '_[0-9]+$' AND t.tgname ~ '_delete_[0-9]+$'}),
		join(' ', sort keys %referenced), $w->name . ': the placement of each table runs name has the guard of its deletes');
}
# The Citus forms swapped in (one server keeps its own, which differ).
is($coord->safe_psql('postgres', q{SELECT pg_get_viewdef('kernelindex.run_bundles') = pg_get_viewdef('kernelindex_internal.run_bundles_citus')}),
	't', 'run_bundles has the definition of run_bundles_citus');
is($single->safe_psql('postgres', q{SELECT pg_get_viewdef('kernelindex.run_bundles') = pg_get_viewdef('kernelindex_internal.run_bundles_citus')}),
	'f', '... which on one server it has not');
like($coord->safe_psql('postgres', $definitions),
	qr/RETURN kernelindex_internal\.run_bundle_citus\(run, false\).*RETURN kernelindex_internal\.run_bundle_citus\(run, true\)/s,
	'run_document() and run_bundle() call run_bundle_citus()');

# Where the shards are: citus_tables leaves out tables of an extension;
# pg_dist_shard and pg_dist_placement have them all.
is($coord->safe_psql('postgres', q{SELECT count(*) FROM citus_tables WHERE table_name::text LIKE 'kernelindex.%'}),
	'0', 'citus_tables lists none of the tables of kernelindex (they belong to an extension)');
# (doc/citus.md's query; its rows sorted here, whatever the collation.)
my $shards = q{SELECT s.logicalrelid::regclass AS table_name, count(DISTINCT s.shardid) AS shards,
       string_agg(DISTINCT n.nodename || ':' || n.nodeport, ', ') AS nodes
FROM pg_dist_shard s
JOIN pg_dist_placement p USING (shardid)
JOIN pg_dist_node n USING (groupid)
WHERE s.logicalrelid::regclass::text LIKE 'kernelindex.%'
GROUP BY 1 ORDER BY s.logicalrelid::regclass::text;};
{
	my @w = sort map { '127.0.0.1:' . $_->port } @workers;
	my @all = sort map { '127.0.0.1:' . $_->port } $coord, @workers;
	my @rows = map { my ($t, $n, $nodes) = split /\|/; "$t|$n|" . join(', ', sort split /, /, $nodes) }
	  split /\n/, $coord->safe_psql('postgres', $shards);
	is(join("\n", sort @rows),
		join("\n", map { $_ eq 'runs' ? 'kernelindex.runs|4|' . join(', ', @w) : "kernelindex.$_|1|" . join(', ', @all) } sort @tables),
		'pg_dist_shard: runs in 4 shards (two per worker) on the two workers, each other table one shard on every node');
}

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

# Every row of every table exactly (ids too) and every sequence: a reload
# must change none.
my $sequences = $single->safe_psql('postgres', q{SELECT string_agg(c.relname, ' ' ORDER BY c.relname) FROM pg_class c
	WHERE c.relnamespace = 'kernelindex'::regnamespace AND c.relkind = 'S'});
my $exact = KidxStore::rows_sql(\@tables,
	map { "SELECT 'sequence $_', last_value || ' ' || is_called FROM kernelindex.$_" } split / /, $sequences);

my $copy_csv = "\\copy kernelindex.liger_rows FROM '$csv' WITH (FORMAT csv, HEADER MATCH)";
my %load_seconds;
for my $node ($single, $coord)
{
	my $t = time;
	$node->safe_psql('postgres', $copy_csv);
	$load_seconds{ $node->name } = sprintf('%.2f', time - $t);
}
my $lines = () = slurp_file($csv) =~ /\n/g;
is($coord->safe_psql('postgres', 'SELECT count(*) FROM kernelindex.runs'),
	$lines - 1, 'every upstream row is a run on the cluster');

# Another harness's real results, through run_rows (its own harness row,
# a reference table on the cluster), on both: KernelBench's timings
# (test/data/harnesses, converted by test/harnesses/to_run_rows.py).
my @kernelbench = sort grep { -f && !/LICENSE|SOURCE\.md/ } glob("$top/test/data/harnesses/kernelbench/* $top/test/data/harnesses/kernelbench/*/*");
my $run_rows_csv = PostgreSQL::Test::Utils::tempdir() . '/kernelbench.csv';
system("python3 '$top/test/harnesses/to_run_rows.py' kernelbench " . join(' ', map { "'$_'" } @kernelbench)
	  . " > '$run_rows_csv'") == 0 or die "to_run_rows.py failed";
chmod 0644, $run_rows_csv;
my ($run_rows_columns) = split /\n/, slurp_file($run_rows_csv);
my $run_rows_lines = () = slurp_file($run_rows_csv) =~ /\n/g;
for my $node ($single, $coord)
{
	$node->safe_psql('postgres', q{INSERT INTO kernelindex.harnesses (name, title, reference_implementation)
		VALUES ('kernelbench', 'KernelBench', 'torch')});
	$node->safe_psql('postgres', "SET client_min_messages = warning;\n"
		  . "\\copy kernelindex.run_rows ($run_rows_columns) FROM '$run_rows_csv' WITH (FORMAT csv, HEADER MATCH)");
}
# And a release history with change points (change_points and
# series_change_points compared below need series long enough): three
# kernels, two implementations, 24 releases, triton 30% slower from 1.0.12.
my $history_csv = PostgreSQL::Test::Utils::tempdir() . '/history.csv';
{
	open my $fh, '>', $history_csv or die "$history_csv: $!";
	print $fh "harness,kernel,implementation,gpu,observed_at,release,unit,median\n";
	for my $k (1 .. 3)
	{
		for my $impl (qw(torch triton))
		{
			for my $r (0 .. 23)
			{
				my $v = 100 * $k * ($impl eq 'triton' && $r >= 12 ? 1.3 : 1) + (($r * 7 + $k) % 11) / 10;
				printf $fh "history,kernel%d,%s,NVIDIA H100,2026-01-%02d 12:00:00,1.0.%d,us,%.1f\n",
				  $k, $impl, $r + 1, $r, $v;
			}
		}
	}
	close $fh;
	chmod 0644, $history_csv;
}
for my $node ($single, $coord)
{
	$node->safe_psql('postgres', "SET client_min_messages = warning;\n"
		  . "\\copy kernelindex.run_rows (harness, kernel, implementation, gpu, observed_at, release, unit, median) FROM '$history_csv' WITH (FORMAT csv, HEADER MATCH)");
}
is($coord->safe_psql('postgres', q{SELECT count(*) || ' ' || string_agg(DISTINCT release_after || ' ' || direction, ',')
	FROM kernelindex.change_points WHERE kernel LIKE 'kernel_'}),
	'3 1.0.12 regression', 'change_points on the cluster: the three planted regressions, at 1.0.12');
my $kb = $run_rows_lines - 1 + 144;
is($coord->safe_psql('postgres', q{SELECT count(*) FROM kernelindex.runs r
	JOIN kernelindex.comparability_keys k ON k.key = r.comparability_key
	JOIN kernelindex.protocols p ON p.id = k.protocol_id WHERE p.harness = 'kernelbench'}),
	$run_rows_lines - 1, 'every KernelBench row of run_rows is a run on the cluster');
is($coord->safe_psql('postgres',
		q{SELECT sum(result::bigint) FROM run_command_on_shards('kernelindex.runs', 'SELECT count(*) FROM %s')}),
	$lines - 1 + $kb, '... stored in the shards on the workers');
is($coord->safe_psql('postgres', q{SELECT pg_relation_size('kernelindex.runs')}),
	'0', q{... and none in the coordinator's table});
{
	my $before = $coord->safe_psql('postgres', $exact);
	$coord->safe_psql('postgres', $copy_csv);
	my $after = $coord->safe_psql('postgres', $exact);
	ok($after eq $before, 'loading the file again changes no row of any table and no sequence (idempotent)')
	  or diag(first_difference($before, $after));
}

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
	$lines - 1 + $kb, 'a hash join on digests pairs each run with itself alone');

# --- Routed by key ----------------------------------------------------------

# The distributed jobs of a plan (EXPLAIN (FORMAT JSON)): for each, its
# task count, its subplans, the nodes and the relations its tasks read.
sub citus_jobs
{
	my ($node, $db, $sql) = @_;
	my $plan = decode_json($node->safe_psql($db, "EXPLAIN (COSTS off, FORMAT JSON) $sql"));
	my @jobs;
	my ($walk, $relations);
	$relations = sub {
		my ($n, $into) = @_;
		if (ref $n eq 'HASH')
		{
			$into->{ $n->{'Relation Name'} } = 1 if defined $n->{'Relation Name'};
			$relations->($_, $into) for values %$n;
		}
		elsif (ref $n eq 'ARRAY')
		{
			$relations->($_, $into) for @$n;
		}
	};
	$walk = sub {
		my ($n) = @_;
		if (ref $n eq 'HASH')
		{
			if (my $dq = $n->{'Distributed Query'})
			{
				my $job = $dq->{Job} // {};
				my %rels;
				$relations->($_->{'Remote Plan'}, \%rels) for @{ $job->{Tasks} // [] };
				push @jobs, {
					tasks => $job->{'Task Count'},
					subplans => scalar @{ $dq->{Subplans} // [] },
					nodes => [ map { $_->{Node} } @{ $job->{Tasks} // [] } ],
					relations => [ sort keys %rels ] };
				$walk->($dq->{Subplans});
				return;
			}
			$walk->($_) for values %$n;
		}
		elsif (ref $n eq 'ARRAY')
		{
			$walk->($_) for @$n;
		}
	};
	$walk->($plan);
	return @jobs;
}

# Whether a plan is one task on the shard of runs a key hashes to, on the
# node that holds it: (ok, what it is).
sub routed_to_key
{
	my ($db, $sql, $key) = @_;
	my ($shard, $port) = split /\|/, $coord->safe_psql($db, qq{SELECT s.shardid, n.nodeport
		FROM pg_dist_shard s JOIN pg_dist_placement p USING (shardid) JOIN pg_dist_node n USING (groupid)
		WHERE s.shardid = get_shard_id_for_distribution_column('kernelindex.runs', '$key')});
	my @jobs = citus_jobs($coord, $db, $sql);
	my $what = join('; ', map { "$_->{tasks} task(s), $_->{subplans} subplan(s), reading "
		  . join(',', grep { /^runs_/ } @{ $_->{relations} }) . ' on ' . join(',', @{ $_->{nodes} }) } @jobs);
	my $ok = @jobs == 1 && $jobs[0]{tasks} == 1 && $jobs[0]{subplans} == 0
	  && join(',', grep { /^runs_/ } @{ $jobs[0]{relations} }) eq "runs_$shard"
	  && @{ $jobs[0]{nodes} } == 1 && $jobs[0]{nodes}[0] =~ /\bport=$port\b/;
	return ($ok, $what);
}

my $some_key = $coord->safe_psql('postgres', 'SELECT min(key) FROM kernelindex.comparability_keys');
{
	my ($ok, $what) = routed_to_key('postgres',
		"SELECT count(*) FROM kernelindex.runs WHERE comparability_key = '$some_key'", $some_key);
	ok($ok, 'a query by comparability key on runs is one task, on the shard the key hashes to and its node')
	  or diag($what);
	($ok, $what) = routed_to_key('postgres',
		"SELECT count(*) FROM kernelindex.runs WHERE comparability_key::text = '$some_key'", $some_key);
	ok(!$ok && $what =~ /^4 task/, '... and a filter on the key as text is not (4 tasks, one a shard): the check tells them apart')
	  or diag($what);
}
{
	my (undef, undef, $e) = $coord->psql('postgres', q{DO $$
	DECLARE k kidx_digest; n bigint := 0; m bigint;
	BEGIN
		FOR k IN SELECT key FROM kernelindex.comparability_keys LOOP
			EXECUTE 'SELECT count(*) FROM kernelindex.runs WHERE comparability_key = $1' INTO m USING k;
			n := n + m;
		END LOOP;
		RAISE NOTICE 'runs found by key: %', n;
	END $$});
	like($e, qr/runs found by key: ${\($lines - 1 + $kb)}\b/, 'each run is found on the shard its key is routed to');
}

# The same rows a year later as release 0.9.0, so that every series has a
# successor and release_changes has rows to compare.
sub shifted_release
{
	my ($file, $years, $version, $max) = @_;
	my @l = split /\r?\n/, slurp_file($csv);
	my $header = shift @l;
	@l = @l[ 0 .. $max - 1 ] if defined $max;
	open my $fh, '>', $file or die $!;
	print $fh "$header\n";
	for (@l)
	{
		s/,(\d{4})(-\d\d-\d\d \d\d:\d\d:\d\d),[^,]*$/',' . ($1 + $years) . "$2,$version"/e
		  or die "unexpected line: $_";
		print $fh "$_\n";
	}
	close $fh;
	chmod 0644, $file;
	return;
}
my $next = $single->basedir . '/next_release.csv';
shifted_release($next, 1, '0.9.0');
$_->safe_psql('postgres', "\\copy kernelindex.liger_rows FROM '$next' WITH (FORMAT csv, HEADER MATCH)")
  for ($single, $coord);
is($coord->safe_psql('postgres', 'SELECT count(*) FROM kernelindex.runs'),
	2 * ($lines - 1) + $kb, 'and the next release of every run');

# --- Row for row ---------------------------------------------------------

# Per view: its rows (text, in C order) as a count and an md5; and the
# documents in canonical JSON, and release_speedups' geometric mean as its
# eight bytes.  One row (what|count|md5) each.
my @view_parts = (
	(map { "SELECT 'view $_', count(*), md5(string_agg(t::text, E'\\n' ORDER BY t::text COLLATE \"C\")) FROM kernelindex.$_ t" } @views),
	"SELECT 'documents, canonical', count(*), md5(string_agg(kidx_canonical(d.document), E'\\n' ORDER BY kidx_canonical(d.document) COLLATE \"C\")) FROM kernelindex.documents d",
	"SELECT 'release_speedups, geomean bits', count(*), md5(string_agg((to_jsonb(t) - 'geomean_speedup')::text || ' ' || float8send(t.geomean_speedup)::text, E'\\n' ORDER BY (to_jsonb(t) - 'geomean_speedup')::text COLLATE \"C\")) FROM kernelindex.release_speedups t");
my $view_sums = "SET extra_float_digits = 1;\n" . join(";\n", @view_parts) . ";\n";
my $store_by_value = KidxStore::snapshot_sql();

# The same store, views and documents on both, relation by relation; every
# view has rows.
sub compare
{
	my ($db, $what, $cdb) = @_;
	$cdb //= $db;
	my $s = $single->safe_psql($db, $store_by_value);
	my $c = $coord->safe_psql($cdb, $store_by_value);
	ok($c eq $s, "$what: the store by value (runs, resources, keys, every dictionary) the same on the cluster")
	  or diag(first_difference($s, $c));
	is($coord->safe_psql($cdb, 'SELECT sum(n) FROM (' . KidxStore::dangling_sql() . ') d (what, n)'),
		'0', "$what: no reference of a run or a key on the cluster names nothing");
	is($coord->safe_psql($cdb, 'SELECT sum(n) FROM (' . KidxStore::duplicates_sql() . ') d (what, n)'),
		'0', "$what: nothing stored twice on the cluster");
	my %s = map { my ($k, $n, $m) = split /\|/; ($k => [ $n, $m // '' ]) } split /\n/, $single->safe_psql($db, $view_sums);
	my %c = map { my ($k, $n, $m) = split /\|/; ($k => [ $n, $m // '' ]) } split /\n/, $coord->safe_psql($cdb, $view_sums);
	for my $k (sort keys %s)
	{
		my $same = defined $c{$k} && $c{$k}[0] eq $s{$k}[0] && $c{$k}[1] eq $s{$k}[1];
		ok($same && $s{$k}[0] > 0, "$what: $k, $s{$k}[0] rows, the same on the cluster as on one server")
		  or do
		{
			my ($v) = $k =~ /^view (\w+)$/;
			next unless $v;
			my $rows = "SELECT t::text FROM kernelindex.$v t ORDER BY t::text COLLATE \"C\"";
			diag(first_difference($single->safe_psql($db, $rows), $coord->safe_psql($cdb, $rows)));
		};
	}
	is($coord->safe_psql($cdb, q{SELECT count(*) FROM kernelindex.run_bundles b
		WHERE kidx_resource_digest(b.document -> 'run') IS DISTINCT FROM b.digest::kidx_digest
		   OR kidx_resource_digest(b.bundle -> 'run') IS DISTINCT FROM b.digest::kidx_digest}),
		'0', "$what: every document exported by the cluster digests to its run");
	return;
}

compare('postgres', 'CSV');

# --- release_speedups: a fixed result -------------------------------------

# The geometric mean sums the logarithms exactly (numeric): the same bits
# whatever the order the rows come in, under any plan.  (A mean of doubles
# summed in two orders differs in its last bits in some groups: the check
# would see an order-dependent sum.)
{
	my $bits = q{SELECT string_agg((to_jsonb(t) - 'geomean_speedup')::text || ' ' || float8send(t.geomean_speedup)::text,
		E'\n' ORDER BY (to_jsonb(t) - 'geomean_speedup')::text COLLATE "C") FROM kernelindex.release_speedups t};
	my $plain = $single->safe_psql('postgres', $bits);
	my %other = (
		'sorted aggregation' => 'SET enable_hashagg = off; SET enable_incremental_sort = off;',
		'parallel plans' => 'SET parallel_setup_cost = 0; SET parallel_tuple_cost = 0; SET min_parallel_table_scan_size = 0;'
		  . ' SET max_parallel_workers_per_gather = 4; SET force_parallel_mode = on;',
		'no hash joins' => 'SET enable_hashjoin = off;');
	for my $k (sort keys %other)
	{
		is($single->safe_psql('postgres', "$other{$k}\n$bits"), $plain,
			"release_speedups: the same bits on one server with $k");
	}
	is($coord->safe_psql('postgres', $bits), $plain, 'release_speedups: the same bits on the cluster');
	is($coord->safe_psql('postgres', $bits), $plain, '... and again');
	cmp_ok($single->safe_psql('postgres', q{SELECT count(*) FILTER (WHERE a <> b) FROM (
		SELECT exp(sum(ln(ratio) ORDER BY ratio) / count(*)) AS a, exp(sum(ln(ratio) ORDER BY ratio DESC) / count(*)) AS b
		FROM kernelindex.release_runs WHERE NOT is_reference AND ratio > 0
		GROUP BY release, kernel, pass, metric, gpu, gpu_form_factor, provider) x}),
		'>', 0, 'control: a geometric mean of doubles summed in two orders differs in some groups');
}

# --- Documents one at a time ---------------------------------------------

# run_document() and run_bundle() of the two reference runs (lines 692 and
# 1424 of the file) and of a hundred others, called on the coordinator.
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

# A reader granted what doc/bi.md grants (USAGE on kernelindex, SELECT on
# its tables and views) reads documents on Citus as on one server, though
# the Citus forms live in kernelindex_internal; a role without SELECT on
# runs is refused, as on one server.  Citus makes the roles and the
# grants on the tables on the workers too, not the grant on the
# extension's schema: that one is made on every node (doc/citus.md,
# "Roles and grants").
for my $node ($single, $coord)
{
	$node->safe_psql('postgres', q{CREATE ROLE kidx_doc_reader LOGIN; CREATE ROLE kidx_no_reader LOGIN;
		GRANT USAGE ON SCHEMA kernelindex TO kidx_doc_reader, kidx_no_reader;
		GRANT SELECT ON ALL TABLES IN SCHEMA kernelindex TO kidx_doc_reader});
}
$_->safe_psql('postgres', 'GRANT USAGE ON SCHEMA kernelindex TO kidx_doc_reader, kidx_no_reader') for @workers;
my $as_reader = "SET ROLE kidx_doc_reader; $rundocs";
is($coord->safe_psql('postgres', $as_reader), $rd, 'a BI reader gets the same documents from run_document() and run_bundle() on Citus');
is($coord->safe_psql('postgres', q{SET ROLE kidx_doc_reader; SELECT count(*) FROM kernelindex.documents}),
	$single->safe_psql('postgres', q{SET ROLE kidx_doc_reader; SELECT count(*) FROM kernelindex.documents}),
	'... and every document from the view documents');
my $one_digest = (split /,/, $digests)[0];
for my $node ($single, $coord)
{
	my ($rc, $out, $err) = $node->psql('postgres', "SET ROLE kidx_no_reader; SELECT kernelindex.run_document('$one_digest')");
	like($err, qr/permission denied for table runs/,
		'a role with USAGE on kernelindex but no SELECT on runs is refused its documents (' . $node->name . ')');
}

# --- Routed BI query by key --------------------------------------------------

# The BI views expose the key as text, which Citus cannot route (doc/citus.md);
# a BI query for one comparability key routed to its shard is written over
# runs with the key as kidx_digest: here the speedups of one key (each run
# of a non-reference implementation against the reference's latest run of
# the same release, else of any release), as doc/citus.md shows it.
my $routed = q{WITH f AS (
	SELECT r.digest, r.observed_at, r.latency_ns, r.peak_bytes, i.provider,
		COALESCE(pv.is_reference, false) AS is_reference, l.release
	FROM kernelindex.runs r
	JOIN kernelindex.implementations i ON i.id = r.implementation_id
	LEFT JOIN kernelindex.providers pv ON pv.name = i.provider
	LEFT JOIN kernelindex.run_labels l ON l.id = r.labels_id
	WHERE r.comparability_key = '%KEY%'
)
SELECT f.provider, f.release, f.observed_at, f.latency_ns, ref.latency_ns AS reference_latency_ns,
	kernelindex.ratio(ref.latency_ns, f.latency_ns) AS speedup,
	f.peak_bytes, ref.peak_bytes AS reference_peak_bytes,
	kernelindex.ratio(ref.peak_bytes, f.peak_bytes) AS memory_ratio, f.digest::text AS run_digest
FROM f
CROSS JOIN LATERAL (
	SELECT g.latency_ns, g.peak_bytes FROM f g WHERE g.is_reference
	ORDER BY g.release IS NOT DISTINCT FROM f.release DESC, g.observed_at DESC, g.digest DESC
	LIMIT 1) ref
WHERE NOT f.is_reference
ORDER BY f.digest};
my $from_view = q{SELECT provider, release, observed_at, latency_ns, reference_latency_ns, speedup,
	peak_bytes, reference_peak_bytes, memory_ratio, run_digest
FROM kernelindex.speedups WHERE comparability_key = '%KEY%' ORDER BY run_digest};
{
	my @keys = split /\n/, $single->safe_psql('postgres', q{SELECT DISTINCT comparability_key FROM kernelindex.speedups
		WHERE kernel = 'sparsemax' AND gpu = 'NVIDIA GeForce RTX 3090' ORDER BY 1});
	my ($same, $rows, $routed_ok, @not) = (0, 0, 0);
	for my $k (@keys)
	{
		(my $q = $routed) =~ s/%KEY%/$k/;
		(my $v = $from_view) =~ s/%KEY%/$k/;
		my $view_rows = $single->safe_psql('postgres', $v);
		$same++ if $coord->safe_psql('postgres', $q) eq $view_rows && $view_rows ne '';
		$rows += () = $view_rows =~ /^/mg;
		my ($ok, $what) = routed_to_key('postgres', $q, $k);
		$ok ? $routed_ok++ : push @not, $what;
	}
	cmp_ok(scalar(@keys), '>=', 10, 'sparsemax on the GeForce RTX 3090 has ' . scalar(@keys) . ' comparability keys with speedups');
	is($same, scalar(@keys), "the routed speedups of each key on the cluster are the view's rows on one server ($rows rows)");
	is($routed_ok, scalar(@keys), '... and each is one task on the shard of its key') or diag(join("\n", @not));
	my ($k) = @keys;
	my @jobs = citus_jobs($coord, 'postgres', "SELECT * FROM kernelindex.speedups WHERE comparability_key = '$k'");
	note('speedups filtered by comparability_key (text) on the cluster: '
		  . join('; ', map { "$_->{tasks} task(s), $_->{subplans} subplan(s)" } @jobs));
	# Pushed down: the whole view in each shard's task, nothing pulled to
	# the coordinator as an intermediate result first.
	is(join(' ', scalar(@jobs), map { "$_->{tasks}/$_->{subplans}" } @jobs), '1 4/0',
		'speedups runs inside the shards: one distributed job of 4 tasks (one a shard), no subplan');
}
# The change points of each series are found inside the shards: the
# window over a series is partitioned by its key first (series_change_points
# wholly; change_points' store-wide rank then orders the change rows alone
# on the coordinator).
# What the coordinator gets besides the result is the release order
# (kernelindex.release_ranks, one row a release label, as distributed
# subplans); no run: the intermediate results are a few kB, while the runs
# the windows read are far more.
for my $v (qw(series_change_points change_points))
{
	my $plan = $coord->safe_psql('postgres', "EXPLAIN (ANALYZE, COSTS off, TIMING off, SUMMARY off) SELECT * FROM kernelindex.$v");
	my $bytes = 0;
	$bytes += $1 * ($2 eq 'bytes' ? 1 : $2 eq 'kB' ? 1024 : 1048576) while $plan =~ /Intermediate Data Size: (\d+) (bytes|kB|MB)/g;
	my $runs = $coord->safe_psql('postgres', q{SELECT sum(result::bigint) FROM run_command_on_shards('kernelindex.runs', 'SELECT pg_relation_size(''%s'')')});
	my @jobs = citus_jobs($coord, 'postgres', "SELECT * FROM kernelindex.$v");
	note("$v on the cluster: " . join('; ', map { "$_->{tasks} task(s), $_->{subplans} subplan(s)" } @jobs)
		  . "; intermediate results $bytes bytes; runs' shards $runs bytes");
	ok((grep { $_->{tasks} == 4 } @jobs) && $bytes < 65536 && $bytes * 100 < $runs,
		"$v: each series' window runs inside the shards; the coordinator gets the release order only ($bytes bytes of intermediate results, runs $runs bytes)");
}

# --- Documents in, on both ------------------------------------------------

# The export of the CSV store twice: its documents (bundles {run, protocol,
# environment}: workloads and implementations known by digest only) and
# its whole bundles (with their documents, which fill them in).
my $fmt = q{WITH (FORMAT csv, QUOTE E'\x01', DELIMITER E'\x02')};
my $jsonl = $single->basedir . '/documents.jsonl';
my $whole = $single->basedir . '/bundles.jsonl';
$single->safe_psql('postgres', "\\copy (SELECT document FROM kernelindex.documents) TO '$jsonl' $fmt");
$single->safe_psql('postgres', "\\copy (SELECT bundle FROM kernelindex.run_bundles) TO '$whole' $fmt");
citus_database('docs');
# A shard count the DBA sets is the one distribute() uses.
$coord->safe_psql('docs', 'SET citus.shard_count = 6; SELECT kernelindex.distribute()');
is($coord->safe_psql('docs', q{SELECT count(*) FROM pg_dist_shard WHERE logicalrelid = 'kernelindex.runs'::regclass}),
	'6', 'distribute() makes the shards of runs citus.shard_count says where the DBA has set it (6)');
$single->safe_psql('postgres', 'CREATE DATABASE docs');
$single->safe_psql('docs', 'CREATE EXTENSION kernelindex');
# Fifty of the bundles again, through ingest_bundles(), from a literal
# array: on Citus a transaction that has read runs in parallel cannot write
# the reference tables the runs refer to (doc/citus.md).
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
	is($node->safe_psql('docs', 'SELECT count(*) FROM kernelindex.workloads WHERE document IS NOT NULL'),
		'0', $node->name . ': the documents hold no workload document');
	$node->safe_psql('docs', "\\copy kernelindex.documents FROM '$whole' $fmt");
	is($node->safe_psql('docs', $bundles), '0', $node->name . ': fifty bundles again store nothing new');
}
is($coord->safe_psql('docs', 'SELECT count(*) FROM kernelindex.runs'),
	2 * ($lines - 1) + $kb + 2, 'documents loaded on the cluster: every run of the export and the two reference records');
is($coord->safe_psql('docs', 'SELECT count(*) FROM kernelindex.workloads WHERE document IS NULL'),
	$single->safe_psql('docs', 'SELECT count(*) FROM kernelindex.workloads WHERE document IS NULL'),
	'... the whole bundles filled in the workload documents as on one server');
{
	my $before = $coord->safe_psql('docs', $exact);
	$coord->safe_psql('docs', "\\copy kernelindex.documents FROM '$whole' $fmt");
	$coord->safe_psql('docs', "\\copy kernelindex.documents FROM '$jsonl' $fmt");
	my $after = $coord->safe_psql('docs', $exact);
	ok($after eq $before, 'loading the documents again changes no row of any table and no sequence (idempotent)')
	  or diag(first_difference($before, $after));
}
compare('docs', 'documents');

# --- Bad input: the same errors --------------------------------------------

# Each bad Liger row (test/data/liger_bad_rows.csv, good ones among them)
# and each faulty document (test/data/bad_documents.tsv, applied to a
# reference record as regress documents does) alone, in a subtransaction:
# what is stored, or the SQLSTATE, message and detail.
my $bad_input = <<"SQL";
SET client_min_messages = notice;
CREATE TEMP TABLE bad_rows (LIKE kernelindex.liger_rows);
\\copy bad_rows FROM '$top/test/data/liger_bad_rows.csv' WITH (FORMAT csv, HEADER MATCH)
\\set ref `cat '$top/test/data/records/sparsemax-backward-torch-rtx3090.json'`
CREATE TEMP TABLE base (name text PRIMARY KEY, doc jsonb);
INSERT INTO base VALUES ('sparsemax', :'ref'::jsonb),
	('sparsemax-noprotocol', :'ref'::jsonb - 'protocol'),
	('sparsemax-noenvironment', :'ref'::jsonb - 'environment');
CREATE TEMP TABLE faults (n serial, fault text, base text, op text, path text, value text);
\\copy faults (fault, base, op, path, value) FROM '$top/test/data/bad_documents.tsv' WITH (FORMAT text, HEADER true)
CREATE TEMP TABLE cat AS
SELECT f.n, f.fault,
	CASE f.op
		WHEN 'replace' THEN f.value::jsonb
		WHEN 'set' THEN jsonb_set(b.doc, f.path::text[], f.value::jsonb, true)
		WHEN 'delete' THEN b.doc #- f.path::text[]
	END AS doc
FROM faults f LEFT JOIN base b ON b.name = f.base;
DO \$\$
DECLARE
	r record;
	msg text;
	det text;
	got text;
BEGIN
	FOR r IN SELECT b, row_number() OVER () AS n FROM bad_rows b LOOP
		BEGIN
			INSERT INTO kernelindex.liger_rows SELECT (r.b).*;
			RAISE NOTICE 'row %: stored', r.n;
		EXCEPTION WHEN OTHERS THEN
			GET STACKED DIAGNOSTICS msg = MESSAGE_TEXT, det = PG_EXCEPTION_DETAIL;
			RAISE NOTICE 'row %: % [%] %', r.n, SQLSTATE, msg, det;
		END;
	END LOOP;
	FOR r IN SELECT c.n, c.fault, c.doc FROM cat c ORDER BY c.n LOOP
		BEGIN
			got := kernelindex.ingest_document(r.doc)::text;
			RAISE NOTICE 'document % (%): stored %', r.n, r.fault, got;
		EXCEPTION WHEN OTHERS THEN
			GET STACKED DIAGNOSTICS msg = MESSAGE_TEXT, det = PG_EXCEPTION_DETAIL;
			RAISE NOTICE 'document % (%): % [%] %', r.n, r.fault, SQLSTATE, msg, det;
		END;
	END LOOP;
END
\$\$;
SQL
{
	my %errors;
	for my $node ($single, $coord)
	{
		my ($r, undef, $e) = $node->psql('docs', $bad_input, on_error_stop => 1);
		is($r, 0, $node->name . ': the bad input ran') or diag($e);
		$errors{ $node->name } = join("\n", map { s/^.*?NOTICE:  //r } grep { /NOTICE:  (row|document) / } split /\n/, $e);
	}
	my $s = $errors{single};
	my $nrows = () = $s =~ /^row \d+: \w{5} /mg;
	my $ndocs = () = $s =~ /^document \d+ .*?: \w{5} /mg;
	ok($errors{coordinator} eq $s,
		"every bad row ($nrows) and faulty document ($ndocs) fails with the same SQLSTATE, message and detail on the cluster")
	  or diag(first_difference($s, $errors{coordinator}));
	cmp_ok($nrows, '>=', 15, '... bad rows refused');
	cmp_ok($ndocs, '>=', 60, '... faulty documents refused');
	my $sv = $single->safe_psql('docs', $store_by_value);
	my $cv = $coord->safe_psql('docs', $store_by_value);
	ok($cv eq $sv, '... and both stores hold the same (the good rows among them)') or diag(first_difference($sv, $cv));
}

# Bad rows quarantined.
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
my $rejected_rows = $single->safe_psql('docs', $rejected);
isnt($rejected_rows, '', 'a bad row is quarantined on one server');
is($coord->safe_psql('docs', $rejected), $rejected_rows, '... and the same way on the cluster');

# --- What runs refer to is still enforced ----------------------------------

# A run naming nothing through each reference column: a stored run's row
# with a new digest, no externalId and that column naming no row, inserted
# as one row (Citus routes it to the shard of its key).
my $run_digest = $single->safe_psql('postgres', 'SELECT min(digest) FROM kernelindex.runs');
for my $ref (@KidxStore::RUN_REFERENCES)
{
	my ($col, $table) = @$ref;
	my %got;
	for my $node ($single, $coord)
	{
		my $missing = $col eq 'comparability_key' ? q{'sha256:} . ('f' x 64) . q{'}
		  : $node->safe_psql('postgres', "SELECT max(id) + 1000000 FROM kernelindex.$table");
		my $values = $node->safe_psql('postgres', qq{SELECT string_agg(CASE a.attname
				WHEN '$col' THEN \$v\$$missing\$v\$
				WHEN 'digest' THEN quote_literal('sha256:' || repeat('0', 64))
				WHEN 'external_key' THEN 'NULL'
				ELSE quote_nullable(x.j ->> a.attname) END, ', ' ORDER BY a.attnum)
			FROM pg_attribute a, (SELECT to_jsonb(r) AS j FROM kernelindex.runs r WHERE r.digest = '$run_digest') x
			WHERE a.attrelid = 'kernelindex.runs'::regclass AND a.attnum > 0 AND NOT a.attisdropped});
		$got{ $node->name } = sqlstate($node, 'postgres', "INSERT INTO kernelindex.runs VALUES ($values)");
	}
	is("$got{single} $got{coordinator}", '23503 23503', "a run whose $col names no row of $table fails with 23503 on both");
}
# (A multi-row INSERT ... SELECT into runs goes through COPY on Citus,
# whose errors it reports as XX000; the loaders insert with ON CONFLICT.)
for my $form ([ 'INSERT ... SELECT', '' ], [ 'INSERT ... SELECT ... ON CONFLICT DO NOTHING', ' ON CONFLICT (comparability_key, digest) DO NOTHING' ])
{
	my $sql = q{INSERT INTO kernelindex.runs (comparability_key, digest, observed_at, implementation_id, template_id, status_id)
		SELECT comparability_key, ('sha256:' || repeat('0', 64))::kidx_digest, now(), implementation_id, template_id + 1000000, status_id
		FROM kernelindex.runs LIMIT 1} . $form->[1];
	my $c = $form->[1] eq '' ? 'XX000' : '23503';
	is(sqlstate($single, 'postgres', $sql) . ' ' . sqlstate($coord, 'postgres', $sql), "23503 $c",
		"$form->[0] of a run naming no template: 23503 on one server, $c on the cluster");
}
# What a run names cannot be deleted, changed or truncated away.
my %tables_of = map { $_->[1] => 1 } @KidxStore::RUN_REFERENCES;
for my $table (sort keys %tables_of)
{
	my @cols = map { $_->[0] } grep { $_->[1] eq $table } @KidxStore::RUN_REFERENCES;
	my $key = (grep { $_->[1] eq $table } @KidxStore::RUN_REFERENCES)[0][2];
	my (%delete, %update, %truncate, %kept);
	for my $node ($single, $coord)
	{
		my $used = $node->safe_psql('postgres',
			'SELECT quote_literal(least(' . join(', ', map { "min($_)" } @cols) . ')) FROM kernelindex.runs');
		my $count = "SELECT count(*) FROM kernelindex.$table WHERE $key = $used";
		$delete{ $node->name } = sqlstate($node, 'postgres', "DELETE FROM kernelindex.$table WHERE $key = $used");
		$kept{ $node->name } = $node->safe_psql('postgres', $count);
		$truncate{ $node->name } = sqlstate($node, 'postgres', "TRUNCATE kernelindex.$table");
		my (undef, undef, $e) = $node->psql('postgres', $table =~ /^run_/
			? "UPDATE kernelindex.$table SET value = value WHERE $key = $used"
			: $table eq 'comparability_keys' ? "UPDATE kernelindex.$table SET protocol_id = protocol_id + 1 WHERE $key = $used"
			: "UPDATE kernelindex.$table SET digest = ('sha256:' || repeat('e', 64))::kidx_digest WHERE $key = $used");
		# (messages from a shard name it: <table>_<shard id>)
		($update{ $node->name }) = $e =~ /ERROR:\s+(.*)/;
		$update{ $node->name } = defined $update{ $node->name }
		  ? $update{ $node->name } =~ s/(kernelindex\.\w+?)_\d{6,}\b/$1/gr : "no error ($e)";
	}
	is("$delete{single} $delete{coordinator}", '23503 23503', "deleting a row of $table runs use fails with 23503 on both");
	is("$kept{single} $kept{coordinator}", '1 1', '... and the row is still there');
	is("$truncate{single} $truncate{coordinator}", '23503 23503', "truncating $table alone fails with 23503 on both");
	# With runs in the same command, named first, it goes through on both
	# (rolled back); named after it, only one server takes it: Citus
	# truncates the shards of each table by a trigger of its own, table by
	# table, so the guard of $table still sees the runs.
	my $both = "BEGIN; TRUNCATE kernelindex.runs, kernelindex.$table; ROLLBACK";
	is(sqlstate($single, 'postgres', $both) . ' ' . sqlstate($coord, 'postgres', $both), 'no error () no error ()',
		"TRUNCATE kernelindex.runs, kernelindex.$table goes through on both");
	my $after = "BEGIN; TRUNCATE kernelindex.$table, kernelindex.runs; ROLLBACK";
	is(sqlstate($single, 'postgres', $after) . ' ' . sqlstate($coord, 'postgres', $after), 'no error () 23503',
		"TRUNCATE kernelindex.$table, kernelindex.runs: through on one server, 23503 on the cluster (the hint names runs first)");
	is($update{coordinator}, $update{single}, "changing a row of $table runs use fails alike on both (shard names aside): $update{single}");
}
# A stored run never changes: runs_identity stays on the shards.
{
	my %e;
	for my $node ($single, $coord)
	{
		my (undef, undef, $err) = $node->psql('postgres',
			"\\set VERBOSITY verbose\nUPDATE kernelindex.runs SET latency_ns = 1 WHERE digest = '$run_digest'");
		($e{ $node->name }) = $err =~ /ERROR:\s+(.*)/;
		$e{ $node->name } = defined $e{ $node->name } ? $e{ $node->name } =~ s/(kernelindex\.\w+?)_\d{6,}\b/$1/gr : "no error ($err)";
	}
	like($e{single}, qr/^0A000: /, "changing a stored run fails with 0A000 on one server: $e{single}");
	is($e{coordinator}, $e{single}, '... and alike on the cluster (shard names aside)');
}
{
	my @l = split /\r?\n/, slurp_file($csv);
	(my $row = $l[691]) =~ s/^((?:[^,]*,){8})[^,]*/${1}2.7/;
	my $f = $single->basedir . '/collision.csv';
	open my $fh, '>', $f or die $!;
	print $fh "$l[0]\n$row\n";
	close $fh;
	chmod 0644, $f;
	my $copy = "\\copy kernelindex.liger_rows FROM '$f' WITH (FORMAT csv, HEADER MATCH)";
	is(sqlstate($single, 'postgres', $copy) . ' ' . sqlstate($coord, 'postgres', $copy), '23505 23505',
		q{a new run with a stored run's externalId fails with 23505 on both});
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
is($coord->safe_psql('postgres', 'SELECT sum(n) FROM (' . KidxStore::dangling_sql() . ') d (what, n)'), '0',
	'no run or key on the cluster points at nothing');


# --- A store loaded on one server, distributed afterwards ------------------

# kernelindex created and loaded before Citus: distribute() has Citus create
# the extension on the workers and moves the stored rows into the shards.
$coord->safe_psql('postgres', 'CREATE DATABASE existing');
$coord->safe_psql('existing', 'CREATE EXTENSION kernelindex');
$coord->safe_psql('existing', $copy_csv);
my $existing_before = $coord->safe_psql('existing', $exact);
my $existing_views = $coord->safe_psql('existing', $view_sums);
my $members = q{SELECT pg_describe_object(d.classid, d.objid, d.objsubid) COLLATE "C"
	FROM pg_depend d JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'kernelindex' WHERE d.deptype = 'e'
	ORDER BY 1};
my $members_before = $coord->safe_psql('existing', $members);
citus_database('existing', 1);
# distribute() redefines views and functions from forms of the extension's
# own only.
$coord->safe_psql('existing', 'ALTER EXTENSION kernelindex DROP VIEW kernelindex_internal.run_bundles_citus');
($rc, $out, $err) = $coord->psql('existing', "\\set VERBOSITY verbose\nSELECT kernelindex.distribute()");
like($err, qr/ERROR:  55000: kernelindex\.distribute\(\) redefines only objects of the kernelindex extension, with forms of its own; not of it: kernelindex_internal\.run_bundles_citus\n/,
	'distribute() refuses to take a form from a view that is not the extension\'s (55000)');
is($coord->safe_psql('existing', 'SELECT count(*) FROM pg_dist_partition'), '0', '... and changes nothing');
$coord->safe_psql('existing', 'ALTER EXTENSION kernelindex ADD VIEW kernelindex_internal.run_bundles_citus');
distribute('existing');
is($coord->safe_psql('existing',
		q{SELECT sum(result::bigint) FROM run_command_on_shards('kernelindex.runs', 'SELECT count(*) FROM %s')}),
	$lines - 1, 'an existing store: distribute() moves its runs into the shards');
{
	my $after = $coord->safe_psql('existing', $exact);
	ok($after eq $existing_before, '... every row of every table (ids too) and every sequence as before')
	  or diag(first_difference($existing_before, $after));
	$after = $coord->safe_psql('existing', $view_sums);
	ok($after eq $existing_views, '... every view and document as before') or diag(first_difference($existing_views, $after));
}
is($coord->safe_psql('existing', $members), $members_before,
	'... and every object of the extension, the redefined views and functions too, is still a member of it');
$coord->safe_psql('existing', $copy_csv);
is($coord->safe_psql('existing', $exact), $existing_before, '... and loading the file again changes nothing');

# --- Dump and restore of a distributed store -------------------------------

# pg_dump of the coordinator holds the runs as plain data (Citus reads them
# from the shards) and nothing of Citus's distribution: restored into a new
# database, the store is on the coordinator until distribute() runs again.
my $dump = $coord->basedir . '/store.dump';
my $original = $coord->safe_psql('postgres', $exact);
my $original_views = $coord->safe_psql('postgres', $view_sums);
$coord->command_ok([ 'pg_dump', '-Fc', '-d', $coord->connstr('postgres'), '-f', $dump ], 'pg_dump of the coordinator');
$coord->safe_psql('postgres', 'CREATE DATABASE restored');
$coord->command_ok([ 'pg_restore', '--exit-on-error', '-d', $coord->connstr('restored'), $dump ],
	'pg_restore into a new database on the coordinator');
is($coord->safe_psql('restored', 'SELECT count(*) FROM pg_dist_partition'), '0',
	'... which holds no distributed table');
is($coord->safe_psql('restored', 'SELECT count(*) FROM kernelindex.runs'), 2 * ($lines - 1) + $kb,
	"... and every run, in the coordinator's own table");
citus_database('restored', 1);
distribute('restored');
is($coord->safe_psql('restored', $layout), $distributed, 'distribute() again: the layout of the original');
{
	my $after = $coord->safe_psql('restored', $exact);
	ok($after eq $original, '... every row of every table (ids too) and every sequence of the original')
	  or diag(first_difference($original, $after));
	$after = $coord->safe_psql('restored', $view_sums);
	ok($after eq $original_views, '... every view and document of the original') or diag(first_difference($original_views, $after));
	$coord->safe_psql('restored', "\\copy kernelindex.liger_rows FROM '$next' WITH (FORMAT csv, HEADER MATCH)");
	is($coord->safe_psql('restored', $exact), $original, '... and loading a file again changes nothing');
}

# --- A third worker, and the shards rebalanced -----------------------------

# (shard_transfer_mode block_writes: the default, logical replication, needs
# wal_level = logical on every node; doc/citus.md.)
$worker3->safe_psql('postgres', 'CREATE EXTENSION citus');
$coord->safe_psql('postgres', "SELECT citus_add_node('127.0.0.1', " . $worker3->port . ')');
{
	my $t = time;
	$coord->safe_psql('postgres', q{SELECT citus_rebalance_start(shard_transfer_mode => 'block_writes')});
	$coord->safe_psql('postgres', q{SET statement_timeout = '600s'; SELECT citus_rebalance_wait()});
	# The moved shards' old placements are dropped now, not by Citus's
	# maintenance daemon while the comparisons below read (once here its
	# drop and a comparison ended in "canceling the transaction since it
	# was involved in a distributed deadlock").
	$coord->safe_psql('postgres', 'CALL citus_cleanup_orphaned_resources()');
	note(sprintf('rebalance onto the third worker: %.1f s', time - $t));
}
is($coord->safe_psql('postgres', q{SELECT state FROM citus_rebalance_status() ORDER BY job_id DESC LIMIT 1}),
	'finished', 'citus_rebalance_start() onto a third worker finished');
is($coord->safe_psql('postgres', q{SELECT count(DISTINCT p.groupid) FROM pg_dist_placement p
	JOIN pg_dist_shard s USING (shardid) WHERE s.logicalrelid = 'kernelindex.runs'::regclass}),
	'3', '... the shards of runs are on the three workers');
is($coord->safe_psql('postgres', q{SELECT count(*) FROM pg_dist_shard s
	JOIN pg_dist_placement p USING (shardid) JOIN pg_dist_node n USING (groupid)
	WHERE s.logicalrelid::text LIKE 'kernelindex.%' AND s.logicalrelid <> 'kernelindex.runs'::regclass
	  AND n.nodeport = } . $worker3->port), scalar(@tables) - 1, '... and the reference tables on it too');
{
	my $after = $coord->safe_psql('postgres', $exact);
	ok($after eq $original, '... every row of every table and every sequence as before')
	  or diag(first_difference($original, $after));
}
my $third = $single->basedir . '/third_release.csv';
shifted_release($third, 2, '0.10.0', 300);
$_->safe_psql('postgres', "\\copy kernelindex.liger_rows FROM '$third' WITH (FORMAT csv, HEADER MATCH)")
  for ($single, $coord);
compare('postgres', 'after rebalancing, with a third release');

# Last, as it changes the cluster's store: loads race deletes on the
# cluster as on one server (test/t/030_references.pl races every path and
# isolation level there): a document naming a row of each reference
# column, stored while a transaction deletes the runs naming the row and
# the row, in both orders, under READ COMMITTED.  The check of
# the new runs (on their shard) locks the row's placement on that worker
# FOR KEY SHARE, which the delete of that placement waits for, or waits for
# the delete; the loser fails with 23503 and no run points at nothing.
{
	my $loader = session($coord->connstr('postgres'));
	my $deleter = session($coord->connstr('postgres'));
	# Does a backend of some worker wait for a lock?
	my $blocked = sub {
		for (1 .. 300)
		{
			return 1 if grep { $_->safe_psql('postgres',
				"SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'") > 0 } @citus;
			Time::HiRes::sleep(0.1);
		}
		return 0;
	};
	my $year = 2040;
	my %raced;
	for my $ref (@KidxStore::RUN_REFERENCES)
	{
		my ($col, $table, $key) = @$ref;
		for my $first ('load', 'delete')
		{
			my $digest = $coord->safe_psql('postgres',
				"SELECT digest FROM kernelindex.runs WHERE $col IS NOT NULL AND latency_ns IS NOT NULL ORDER BY digest LIMIT 1");
			if ($digest eq '')
			{
				note "Citus race: no run of the cluster names a row by $col, not raced";
				last;
			}
			$year++;
			# (the document made on the coordinator: run_document() over the
			# rows of runs would be pushed down to the shards)
			my $doc = $coord->safe_psql('postgres', "SELECT replace(kernelindex.run_document('$digest')::text,"
				  . " to_char((SELECT observed_at FROM kernelindex.runs WHERE digest = '$digest') AT TIME ZONE 'UTC', 'YYYY-'), '$year-')");
			my $load = "INSERT INTO kernelindex.documents VALUES (\$kidx\$$doc\$kidx\$::jsonb)";
			# the row the new run names (a run of another year may name
			# another template): loaded once, and rolled back
			my $value = $coord->safe_psql('postgres', "BEGIN; $load; SELECT $col FROM kernelindex.runs"
				  . " WHERE observed_at >= '$year-01-01' AND observed_at < '@{[$year + 1]}-01-01'; ROLLBACK");
			isnt($value, '', "Citus race, $col ($table): a run of $year names a row by it too") or next;
			$raced{$col}++;
			my @cols = map { $_->[0] } grep { $_->[1] eq $table } @KidxStore::RUN_REFERENCES;
			my $delete = 'DELETE FROM kernelindex.runs WHERE ' . join(' OR ', map { "$_ = '$value'" } @cols) . ';'
			  . " DELETE FROM kernelindex.$table WHERE $key = '$value'";
			my $name = "Citus race, $col ($table), $first first";
			run_wait($_, 'BEGIN ISOLATION LEVEL READ COMMITTED') for $loader, $deleter;
			if ($first eq 'load')
			{
				run_wait($loader, $load);
				my $m = run_nowait($deleter, $delete);
				ok($blocked->(), "$name: the delete waits for the load");
				run_wait($loader, 'COMMIT');
				wait_for($deleter, $m);
				run_wait($deleter, 'COMMIT');
			}
			else
			{
				run_wait($deleter, $delete);
				my $m = run_nowait($loader, $load);
				ok($blocked->(), "$name: the load waits for the delete");
				run_wait($deleter, 'COMMIT');
				wait_for($loader, $m);
				run_wait($loader, 'COMMIT');
			}
			my ($le, $de) = (errors($loader), errors($deleter));
			if ($first eq 'load')
			{
				is("$le;$de", ';23503', "$name: the load goes through, the delete fails with 23503");
			}
			else
			{
				# (a load that waited for a delete may store a dictionary value again)
				like("$le;$de", qr/^(23503|);$/, "$name: the delete goes through, the load fails with 23503 or stores its value again ($le)");
			}
			is($coord->safe_psql('postgres', 'SELECT sum(n) FROM (' . KidxStore::dangling_sql() . ') d (what, n)'), '0',
				"$name: no run points at nothing");
		}
	}
	is(join(' ', map { $raced{$_} // 0 } qw(comparability_key implementation_id template_id)), '2 2 2',
		'Citus races: the comparability key, the implementation and the template raced in both orders');
	$_->{h}->finish for $loader, $deleter;
}

note("distribute() seconds by database: " . join(', ', map { "$_ $distribute_seconds{$_}" } sort keys %distribute_seconds));
note("upstream CSV load seconds: " . join(', ', map { "$_ $load_seconds{$_}" } sort keys %load_seconds));
note(sprintf('060_citus: %.0f s', time - $started));
$_->stop for ($single, @citus);
done_testing();
