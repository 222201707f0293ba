# Crash safety (issue 12, part 3).  The server is killed with SIGKILL in the
# middle of a large Liger CSV COPY into kernelindex.liger_rows (the upstream
# file replicated with shifted timestamps, ~160,000 rows) and in the middle
# of a large document COPY into kernelindex.documents (an export of whole
# bundles, with their workloads and implementations, made with \copy
# (SELECT bundle FROM kernelindex.run_bundles) TO in another database,
# ~60,000 bundles, so that a clean load of it is the store it came from):
# while the rows are being read (pg_stat_progress_copy shows them counted)
# and while the runs are being written (the COPY's backend holds
# kernelindex.runs' indexes and the heap has grown); killing
# every server process at once (the postmaster stopped, its children killed,
# then $node->kill9: a power cut, minus the page cache, so fsync = off does
# not matter), only the COPY's backend (the postmaster then resets every
# session and recovers), and only the postmaster ($node->kill9: the backend
# runs on alone).  After each restart every reference resolves (every
# reference column of runs: comparability key, implementation, the seven
# dictionaries; and of comparability keys), nothing is stored twice (no
# resource, key, dictionary value or run), the btree indexes agree with
# their tables (amcheck), every run has its document, and the interrupted
# COPY is wholly absent: every row of every table of kernelindex as before
# it, ids included (or, when its backend outlived the postmaster and
# committed, wholly there: the store of one clean load).  Re-running the
# load then gives exactly the store of one clean load in a fresh database:
# the same runs (digests, and each with its values and dictionary values),
# resources, keys and dictionaries, compared by value.
# KIDX_CRASH_ROWS and KIDX_CRASH_DOCS set the sizes.
use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use IPC::Run;
use Test::More;
use Time::HiRes qw(time usleep);
use Time::Local qw(timegm);
use FindBin;
use lib $FindBin::RealBin;
use KidxStore;

my $top = $ENV{KIDX_TOP} or die "KIDX_TOP is not set";
my $shared = $ENV{KIDX_SHARED} // "$top/../shared";
my $base = "$shared/data/liger/all_benchmark_data.csv";
$base = "$top/test/data/liger_sample.csv" unless -r $base;
die "$base absent" unless -r $base;

# About this many rows in the large CSV (several seconds of COPY).
my $target_rows = $ENV{KIDX_CRASH_ROWS} // 160000;
# The documents: an export of a store of about this many runs.
my $target_docs = $ENV{KIDX_CRASH_DOCS} // 60000;

my $dir = PostgreSQL::Test::Utils::tempdir();

# The base file replicated in blocks, each block's timestamps shifted by a
# whole number of days beyond the base file's span, so that no two rows of
# the result are the same run.
my @base = split /\r?\n/, slurp_file($base);
my $header = shift @base;
my $tsre = qr/,(\d{4})-(\d\d)-(\d\d) (\d\d):(\d\d):(\d\d),([^,]*)$/;
my ($tmin, $tmax);
for (@base)
{
	/$tsre/ or die "no timestamp in: $_";
	my $t = timegm($6, $5, $4, $3, $2 - 1, $1);
	$tmin = $t if !defined $tmin || $t < $tmin;
	$tmax = $t if !defined $tmax || $t > $tmax;
}
my $blocks = int(($target_rows + @base - 1) / @base);
my $shift = (int(($tmax - $tmin) / 86400) + 1) * 86400;
# A short base file (the sample) needs many blocks: shift by hours then
# (rows that come out equal are one run; the comparisons still hold).
$shift = 3600 if (gmtime($tmin))[5] + 1900 + $blocks * $shift / (365 * 86400) > 9000;

sub write_blocks
{
	my ($file, $from, $to) = @_;
	open my $fh, '>', $file or die "cannot write $file: $!";
	print $fh "$header\n";
	for my $k ($from .. $to - 1)
	{
		for my $line (@base)
		{
			(my $l = $line) =~ s{$tsre}{
				my @t = gmtime(timegm($6, $5, $4, $3, $2 - 1, $1) + $k * $shift);
				sprintf(',%04d-%02d-%02d %02d:%02d:%02d,%s', $t[5] + 1900, $t[4] + 1, @t[3, 2, 1, 0], $7)
			}e;
			print $fh "$l\n";
		}
	}
	close $fh;
	chmod 0644, $file;
	return ($to - $from) * @base;
}

my $big = "$dir/big.csv";
my $big_rows = write_blocks($big, 0, $blocks);
my $first = "$dir/first_block.csv";
my $first_rows = write_blocks($first, 0, 1);
my $doc_blocks = int(($target_docs + @base - 1) / @base);
my $mid = "$dir/doc_source.csv";
write_blocks($mid, 0, $doc_blocks);
note sprintf('large CSV: %s replicated %d times (timestamps shifted by %d s a block): %d rows, %.1f MB',
	$base, $blocks, $shift, $big_rows, (-s $big) / 1e6);

my $node = PostgreSQL::Test::Cluster->new('crash');
$node->init;
# A crashed backend makes the postmaster reset and recover, not exit; no
# autovacuum, so that only the COPY writes.
$node->append_conf('postgresql.conf', "restart_after_crash = on\nautovacuum = off\nmax_wal_size = 1GB\n");
$node->start;

sub new_db
{
	my ($db) = @_;
	$node->safe_psql('postgres', "CREATE DATABASE $db");
	$node->safe_psql($db, 'CREATE EXTENSION kernelindex');
}

my $csv_copy = "COPY kernelindex.liger_rows FROM '%s' WITH (FORMAT csv, HEADER MATCH)";
my $doc_copy = "COPY kernelindex.documents FROM '%s' WITH (FORMAT csv, QUOTE E'\\x01', DELIMITER E'\\x02')";

# The store by value (test/t/KidxStore.pm): runs (digests, and each with
# its values and dictionary values), resources, keys with their resources,
# every dictionary, rejected rows; what a clean load in another database
# must equal.
my $snapshot = KidxStore::snapshot_sql();

# Every row of every table of kernelindex in $db, ids included: what a
# database must hold again after a COPY that did not commit.
sub rows_in
{
	my ($db) = @_;
	return $node->safe_psql($db, KidxStore::rows_sql([ split / /, $node->safe_psql($db, KidxStore::tables_sql()) ]));
}

sub runs_in { return $node->safe_psql($_[0], 'SELECT count(*) FROM kernelindex.runs'); }

# What one clean load of each input gives, in fresh databases.
my $t0 = time;
new_db('csv_clean');
$node->safe_psql('csv_clean', sprintf($csv_copy, $big));
my $csv_clean = $node->safe_psql('csv_clean', $snapshot);
my $csv_clean_runs = runs_in('csv_clean');
note sprintf('clean load of the large CSV in a fresh database: %d runs in %.1f s', $csv_clean_runs, time - $t0);
is($csv_clean_runs, $big_rows, "a clean load stores one run per CSV row ($big_rows)")
  if $shift > 3600;

# The document export, made in another database.
my $docs = "$dir/documents.jsonl";
new_db('doc_source');
$node->safe_psql('doc_source', sprintf($csv_copy, $mid));
$node->safe_psql('doc_source',
	"\\copy (SELECT bundle FROM kernelindex.run_bundles) TO '$docs' WITH (FORMAT csv, QUOTE E'\\x01', DELIMITER E'\\x02')");
chmod 0644, $docs;
my @doc_lines = split /\n/, slurp_file($docs);
my $doc_count = @doc_lines;
undef @doc_lines;
# The documents of the first block alone (what the victims of the document
# COPYs hold before it, as those of the CSV COPYs hold the first block's
# rows): the export of a database loaded with that block.
my $doc_first = "$dir/documents_first.jsonl";
new_db('doc_first_source');
$node->safe_psql('doc_first_source', sprintf($csv_copy, $first));
$node->safe_psql('doc_first_source',
	"\\copy (SELECT bundle FROM kernelindex.run_bundles) TO '$doc_first' WITH (FORMAT csv, QUOTE E'\\x01', DELIMITER E'\\x02')");
chmod 0644, $doc_first;
note sprintf('document export of database doc_source: %d bundles, %.1f MB', $doc_count, (-s $docs) / 1e6);
$t0 = time;
new_db('doc_clean');
$node->safe_psql('doc_clean', sprintf($doc_copy, $docs));
my $doc_clean = $node->safe_psql('doc_clean', $snapshot);
my $doc_clean_runs = runs_in('doc_clean');
note sprintf('clean load of the documents in a fresh database: %d runs in %.1f s', $doc_clean_runs, time - $t0);
is($doc_clean_runs, $doc_count, 'a clean document load stores one run per bundle');
is($doc_clean, $node->safe_psql('doc_source', $snapshot),
	'the clean document load holds exactly the store the export came from');

# After a restart: references, indexes, documents.  Every count must be 0.
sub check_references
{
	my ($db, $what) = @_;
	my $runs = runs_in($db);
	my $rebuild = $runs <= 20000 ?
	  q{SELECT 'runs run_document(digest) returns NULL for', count(*) FILTER (WHERE d IS NULL)
		FROM (SELECT digest, kernelindex.run_document(digest) AS d FROM kernelindex.runs OFFSET 0) x
		UNION ALL SELECT 'runs whose rebuilt document has another digest', count(*)
		FROM (SELECT digest, kernelindex.run_document(digest) AS d FROM kernelindex.runs OFFSET 0) x
		WHERE kidx_resource_digest(d -> 'run') <> digest} :
	  # run_document costs about a millisecond a call: every run through the
	  # documents view (the same C function), a sample through run_document.
	  q{SELECT 'runs the documents view rebuilds no document of their digest for', (SELECT count(*) FROM kernelindex.runs)
			- (SELECT count(*) FROM kernelindex.documents d
			   JOIN kernelindex.runs r ON r.digest = kidx_resource_digest(d.document -> 'run'))
		UNION ALL SELECT 'runs of a sample of 2000 run_document(digest) returns NULL for', count(*)
		FROM (SELECT digest FROM kernelindex.runs ORDER BY digest LIMIT 2000) s
		WHERE kernelindex.run_document(digest) IS NULL};
	my $out = $node->safe_psql($db, KidxStore::dangling_sql() . "\nUNION ALL " . KidxStore::duplicates_sql()
		  . "\nUNION ALL $rebuild");
	# amcheck raises an error (failing safe_psql) for an index that disagrees
	# with its table.
	my $indexes = $node->safe_psql($db, q{
SELECT c.relname, bt_index_check(c.oid, true) FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
JOIN pg_am am ON am.oid = c.relam
WHERE am.amname = 'btree' AND c.relnamespace = 'kernelindex'::regnamespace});
	my $nidx = () = $indexes =~ /\n/g;
	note "  $what: bt_index_check(heapallindexed) passed on " . ($nidx + 1) . ' btree indexes of kernelindex';
	my $bad = 0;
	for my $line (split /\n/, $out)
	{
		my ($name, $n) = split /\|/, $line;
		note "  $what: $name: $n";
		$bad += $n;
	}
	is($bad, 0, "$what: every reference resolves, nothing is stored twice, every index agrees, every run has its document ($runs runs)");
}

# The live processes whose parent is the postmaster.
sub children
{
	my ($pm) = @_;
	my @kids;
	opendir my $d, '/proc' or die "no /proc: $!";
	for my $p (grep { /^\d+$/ } readdir $d)
	{
		open my $fh, '<', "/proc/$p/stat" or next;
		my $st = <$fh>;
		close $fh;
		push @kids, $p if defined $st && $st =~ /\)\s+([^Z])\s+(\d+)/ && $2 == $pm;
	}
	closedir $d;
	return @kids;
}

# A process is gone once reaped: a zombie postmaster still holds its
# postmaster.pid (a new postmaster would refuse to start).
sub alive
{
	my ($p) = @_;
	return -e "/proc/$p" ? 1 : 0;
}

sub wait_gone
{
	my (@pids) = @_;
	my $deadline = time + $PostgreSQL::Test::Utils::timeout_default;
	while (grep { alive($_) } @pids)
	{
		die "server processes @pids did not exit" if time > $deadline;
		usleep(50_000);
	}
}

sub postmaster_pid
{
	my @l = split /\n/, slurp_file($node->data_dir . '/postmaster.pid');
	return $l[0];
}

# One crash: start the COPY, wait until it is demonstrably in $phase, kill
# as $how says, restart, check.
my $copies = 0;
sub crash
{
	my (%arg) = @_;
	my ($db, $kind, $file, $phase, $how, $total) = @arg{qw(db kind file phase how total)};
	my $what = "$kind COPY killed ($how) while $phase";
	my $before = rows_in($db);
	my $runs_before = runs_in($db);
	my $heap_before = $node->safe_psql($db, "SELECT pg_relation_size('kernelindex.runs')");
	my $lsn0 = $node->safe_psql($db, 'SELECT pg_current_wal_insert_lsn()');
	my $app = 'kidx_crash_copy_' . ++$copies;
	my $sql = sprintf($kind eq 'CSV' ? $csv_copy : $doc_copy, $file);
	my ($out, $err) = ('', '');
	my $t = time;
	my $h = IPC::Run::start(
		[ 'psql', '-X', '-v', 'ON_ERROR_STOP=1', '-d', $node->connstr($db) . " application_name=$app", '-c', $sql ],
		'>', \$out, '2>', \$err);

	# The progress of the COPY, seen from another session.
	my $probe = qq{
SELECT a.pid, coalesce(p.tuples_processed, -1),
	pg_relation_size('kernelindex.runs') - $heap_before,
	pg_wal_lsn_diff(pg_current_wal_insert_lsn(), '$lsn0')::bigint,
	EXISTS (SELECT 1 FROM pg_locks l JOIN pg_class c ON c.oid = l.relation
		WHERE l.pid = a.pid AND (c.oid = 'kernelindex.runs'::regclass
			OR c.oid IN (SELECT indexrelid FROM pg_index WHERE indrelid = 'kernelindex.runs'::regclass)))
FROM pg_stat_activity a LEFT JOIN pg_stat_progress_copy p ON p.pid = a.pid
WHERE a.application_name = '$app'};
	my ($pid, $tuples, $grown, $wal, $writing);
	my $deadline = time + $PostgreSQL::Test::Utils::timeout_default;
	for (;;)
	{
		$h->pump_nb;
		die "$what: the COPY ended before it could be interrupted: $out $err" unless $h->pumpable;
		die "$what: timed out waiting" if time > $deadline;
		my $row = $node->safe_psql($db, $probe);
		if ($row ne '')
		{
			($pid, $tuples, $grown, $wal, $writing) = split /\|/, $row;
			last if $phase eq 'reading rows' && $tuples >= $total / 10 && $tuples < $total;
			last if $phase eq 'writing runs' && $writing eq 't' && $grown >= 1 << 20;
		}
		usleep(20_000);
	}
	note sprintf('%s: after %.1f s: %d of %d rows read, runs heap +%.1f MB, WAL +%.1f MB, %s',
		$what, time - $t, $tuples, $total, $grown / 1e6, $wal / 1e6,
		$writing eq 't' ? 'writing kernelindex.runs' : 'not yet writing kernelindex.runs');

	my $pm = postmaster_pid();
	my @kids = children($pm);
	if ($how eq 'every server process')
	{
		# Freeze the postmaster so it forks nothing more, kill all its
		# children, then the postmaster itself.
		kill 'STOP', $pm;
		@kids = children($pm);
		kill 'KILL', @kids;
		$node->kill9;
		wait_gone($pm, @kids);
		$h->finish;
		$node->start;
	}
	elsif ($how eq 'the COPY backend')
	{
		kill 'KILL', $pid;
		$h->finish;
		$node->poll_query_until('postgres', 'SELECT true')
		  or die "the server did not come back after its backend was killed";
	}
	elsif ($how eq 'the postmaster only')
	{
		$node->kill9;
		$h->finish;    # the backend carries on alone
		wait_gone($pm, @kids, $pid);
		$node->start;
	}
	else { die "unknown kill $how" }
	my $completed = $out =~ /^COPY \d+/m ? 1 : 0;
	$err =~ s/\s+/ /g;
	note "$what: psql said: " . ($out =~ s/\s+/ /gr) . ' ' . $err;
	note sprintf('%s: server back after %.1f s', $what, time - $t);

	check_references($db, $what);
	my $runs_after = runs_in($db);
	note "$what: runs before the COPY: $runs_before, after the restart: $runs_after";
	if ($how eq 'the postmaster only' && $completed)
	{
		is($node->safe_psql($db, $snapshot), $arg{clean},
			"$what: the backend outlived the postmaster and committed: the COPY is wholly there");
	}
	else
	{
		ok(!$completed, "$what: the COPY did not complete");
		is($runs_after, $runs_before, "$what: the run count is the count before the COPY");
		is(rows_in($db), $before,
			"$what: every row of every table (ids included) is as before the COPY: the COPY is wholly absent");
	}
	return $completed;
}

# Crash, crash again, then load again: the victim databases.  A backend
# that outlives the postmaster may commit, so that case has a database of
# its own, where the re-run follows whatever it left.
sub rerun
{
	my ($db, $kind, $file, $clean, $clean_runs) = @_;
	my $t = time;
	$node->safe_psql($db, sprintf($kind eq 'CSV' ? $csv_copy : $doc_copy, $file));
	note sprintf('%s: %s load re-run after the crashes: %.1f s', $db, $kind, time - $t);
	check_references($db, "$db: $kind load re-run");
	is(runs_in($db), $clean_runs, "$db: $kind re-run: as many runs as a clean load in a fresh database");
	is($node->safe_psql($db, $snapshot), $clean,
		"$db: $kind re-run: the same runs (digests, values, dictionary values), resources, keys and dictionaries as a clean load");
}

my %victims = (
	CSV => [ [ 'csv_victim', 'reading rows', 'every server process' ],
		[ 'csv_victim', 'writing runs', 'every server process' ],
		[ 'csv_victim', 'writing runs', 'the COPY backend' ],
		[ 'csv_orphan', 'writing runs', 'the postmaster only' ] ],
	document => [ [ 'doc_victim', 'reading rows', 'every server process' ],
		[ 'doc_victim', 'writing runs', 'every server process' ],
		[ 'doc_orphan', 'writing runs', 'the postmaster only' ] ]);
my %input = (
	CSV => [ $big, $first, $big_rows, $csv_clean, $csv_clean_runs ],
	document => [ $docs, $doc_first, $doc_count, $doc_clean, $doc_clean_runs ]);
my $crashes = 0;
for my $kind ('CSV', 'document')
{
	my ($file, $preload, $total, $clean, $clean_runs) = @{ $input{$kind} };
	my %dbs;
	for my $v (@{ $victims{$kind} })
	{
		my ($db, $phase, $how) = @$v;
		unless ($dbs{$db}++)
		{
			# One block (its runs) already stored.
			new_db($db);
			$node->safe_psql($db, sprintf($kind eq 'CSV' ? $csv_copy : $doc_copy, $preload));
			$node->safe_psql($db, 'CREATE EXTENSION amcheck');
		}
		crash(db => $db, kind => $kind, file => $file, phase => $phase, how => $how,
			total => $total, clean => $clean);
		$crashes++;
	}
	rerun($_, $kind, $file, $clean, $clean_runs) for sort keys %dbs;
}

my $log = slurp_file($node->logfile);
my $recoveries = () = $log =~ /automatic recovery in progress/g;
note "crash recoveries in the server log: $recoveries";
cmp_ok($recoveries, '>=', $crashes, 'every crash was recovered from (the log shows each recovery)');

$node->stop;
done_testing();
