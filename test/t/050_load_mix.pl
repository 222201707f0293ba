# Concurrency under load (issue 12, part 4).  pgbench runs 8 clients
# (KIDX_LOAD_MIX_CLIENTS) for a bounded time (30 s, KIDX_LOAD_MIX_SECONDS)
# over a mix of Liger CSV loads of overlapping files (some in upstream order,
# some reversed or shuffled), document loads of overlapping JSON-lines files
# (sharing runs with the CSV files too), and readers of the BI views and of
# run_document.  Under READ COMMITTED nothing may fail: no failed or aborted
# transaction, no ERROR and no deadlock in the server log.  Afterwards no
# resource is stored twice and the store equals one serial load of the union
# of all the files in a fresh database.
use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use IPC::Run;
use List::Util qw(shuffle);
use Test::More;
use FindBin;
use lib $FindBin::RealBin;
use KidxStore;
use Time::Local qw(timegm);

my $top = $ENV{KIDX_TOP} or die "KIDX_TOP is not set";
my $shared = $ENV{KIDX_SHARED} // "$top/../shared";
my $base = "$shared/data/liger/all_benchmark_data.csv";
$base = "$top/test/data/liger_sample.csv" unless -r $base;
die "$base absent" unless -r $base;
my $seconds = $ENV{KIDX_LOAD_MIX_SECONDS} // 30;
my $clients = $ENV{KIDX_LOAD_MIX_CLIENTS} // 8;

my $dir = PostgreSQL::Test::Utils::tempdir();
srand(12);

# Blocks of rows: a quarter of the base file (a different quarter for each
# block, so that each has every kernel) with its timestamps shifted by a
# whole number of days beyond the file's span per block, and block k > 0 its
# own release (0.5.8 -> 0.5.8.k), so that release_changes has pairs to show.
# Small files make short loads: many transactions in the time given.
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
my $shift = (int(($tmax - $tmin) / 86400) + 1) * 86400;
my $nblocks = 8;
my $part = @base >= 400 ? 4 : 1;
my @blocks;
for my $k (0 .. $nblocks - 1)
{
	my $i = 0;
	push @blocks, [ map {
		(my $l = $_) =~ s{$tsre}{
			my @t = gmtime(timegm($6, $5, $4, $3, $2 - 1, $1) + $k * $shift);
			my $v = $7 eq '' || $k == 0 ? $7 : "$7.$k";
			sprintf(',%04d-%02d-%02d %02d:%02d:%02d,%s', $t[5] + 1900, $t[4] + 1, @t[3, 2, 1, 0], $v)
		}e;
		$l
	} grep { $i++ % $part == $k % $part } @base ];
}

sub write_lines
{
	my ($file, $head, @lines) = @_;
	open my $fh, '>', $file or die "cannot write $file: $!";
	print $fh "$head\n" if defined $head;
	print $fh "$_\n" for @lines;
	close $fh;
	chmod 0644, $file;
	return scalar @lines;
}

# CSV files over blocks 0-4, overlapping, in several row orders.
my @b = map { @{ $blocks[$_] } } 0 .. 4;
my @csv = (
	[ 'blocks 0-2', map { @{ $blocks[$_] } } 0 .. 2 ],
	[ 'blocks 1-3 reversed', reverse map { @{ $blocks[$_] } } 1 .. 3 ],
	[ 'blocks 2-4 shuffled', shuffle map { @{ $blocks[$_] } } 2 .. 4 ],
	[ 'blocks 0 and 4 shuffled', shuffle map { @{ $blocks[$_] } } 0, 4 ],
	[ 'half of blocks 0-4 at random', grep { rand() < 0.5 } @b ]);
my @csv_files;
for my $i (0 .. $#csv)
{
	my ($what, @lines) = @{ $csv[$i] };
	my $f = "$dir/load_" . ($i + 1) . '.csv';
	my $n = write_lines($f, $header, @lines);
	note "CSV file $f: $what, $n rows";
	push @csv_files, $f;
}

my $node = PostgreSQL::Test::Cluster->new('load_mix');
$node->init;
$node->append_conf('postgresql.conf',
	"deadlock_timeout = 100ms\nlog_lock_waits = on\nmax_connections = " . ($clients + 32) . "\nlog_statement = none\n"
	  # autovacuum analyzes (and vacuums) the growing tables during the mix,
	  # as it would on a live server: readers get plans, vacuum joins the mix
	  . "autovacuum_naptime = 1s\nlog_autovacuum_min_duration = 0\n");
$node->start;

# From template0: CREATE DATABASE terminates the autovacuum workers
# connected to its template, each logging "FATAL:  terminating autovacuum
# process due to administrator command", and with a naptime of 1 s one is
# often in template1 (right after start, analyzing the catalogs initdb left,
# for 0.1 s or, under load, much longer): noise that the check of the server
# log below took for an error (issue 20).  Autovacuum never enters
# template0, which accepts no connections.
sub new_db
{
	my ($db) = @_;
	$node->safe_psql('postgres', "CREATE DATABASE $db TEMPLATE template0");
	$node->safe_psql($db, 'CREATE EXTENSION kernelindex');
}

my $csv_copy = "COPY kernelindex.liger_rows FROM '%s' WITH (FORMAT csv, HEADER MATCH)";
my $doc_copy = "COPY kernelindex.documents FROM '%s' WITH (FORMAT csv, QUOTE E'\\x01', DELIMITER E'\\x02')";

# Documents of blocks 3-7 (blocks 3 and 4 are in the CSV files too), exported
# from another database, in overlapping files.
new_db('doc_source');
my $src = "$dir/doc_source.csv";
write_lines($src, $header, map { @{ $blocks[$_] } } 3 .. 7);
$node->safe_psql('doc_source', sprintf($csv_copy, $src));
my $export = "$dir/export.jsonl";
$node->safe_psql('doc_source',
	"\\copy (SELECT document FROM kernelindex.documents) TO '$export' WITH (FORMAT csv, QUOTE E'\\x01', DELIMITER E'\\x02')");
my @docs = split /\n/, slurp_file($export);
my $q = int(@docs / 4);
my @doc = (
	[ 'first half', @docs[ 0 .. 2 * $q - 1 ] ],
	[ 'middle half reversed', reverse @docs[ $q .. 3 * $q - 1 ] ],
	[ 'last half shuffled', shuffle @docs[ 2 * $q .. $#docs ] ],
	[ 'a third at random', grep { rand() < 0.33 } @docs ]);
my @doc_files;
for my $i (0 .. $#doc)
{
	my ($what, @lines) = @{ $doc[$i] };
	my $f = "$dir/docs_" . ($i + 1) . '.jsonl';
	my $n = write_lines($f, undef, @lines);
	note "document file $f: $what of the export of doc_source, $n bundles";
	push @doc_files, $f;
}

# The reference: one serial load of every file, in a fresh database.
new_db('serial');
$node->safe_psql('serial', sprintf($csv_copy, $_)) for @csv_files;
$node->safe_psql('serial', sprintf($doc_copy, $_)) for @doc_files;

# The pgbench scripts: one per file and per reader, so that pgbench counts
# each one's transactions.
my @views = qw(speedups latest_runs release_speedups run_facts speedup_since release_changes);
my (@scripts, %script_of);
my $n = 0;
for my $f (@csv_files)
{
	push @scripts, [ 'load CSV ' . ($f =~ s{.*/}{}r), sprintf("$csv_copy;\n", $f), 1 ];
}
for my $f (@doc_files)
{
	push @scripts, [ 'load documents ' . ($f =~ s{.*/}{}r), sprintf("$doc_copy;\n", $f), 1 ];
}
for my $v (@views)
{
	push @scripts, [ "read $v", "SELECT count(*) FROM kernelindex.$v;\n", 1 ];
}
push @scripts, [ 'read run_document',
	"\\set n random(0, 999)\nSELECT kernelindex.run_document(digest) IS NULL FROM kernelindex.runs OFFSET :n LIMIT 1;\n", 1 ];
my @args;
for my $s (@scripts)
{
	my $f = "$dir/script_" . ++$n . '.sql';
	write_lines($f, undef, $s->[1]);
	push @args, '-f', "$f\@$s->[2]";
	$script_of{$f} = $s->[0];
}

new_db('mix');
note "pgbench: $clients clients, 2 threads, $seconds s, " . scalar(@scripts) . ' scripts: '
  . join(', ', map { "$_->[0] (weight $_->[2])" } @scripts);
# Every script must run at least once (so that every file is loaded): a
# slow machine gets up to two more rounds of the same mix.
my %ran;
for my $round (1 .. 3)
{
	my ($out, $err) = ('', '');
	my $ok = IPC::Run::run(
		[ 'pgbench', '-n', '-c', $clients, '-j', 2, '-T', $seconds, @args, $node->connstr('mix') ],
		'>', \$out, '2>', \$err);
	note "pgbench round $round output:\n$out";
	note "pgbench stderr:\n$err" if $err ne '';
	ok($ok, "pgbench round $round exits 0");
	# (Anchored: each script's own lines say "number of failed transactions" too.)
	like($out, qr/^number of transactions actually processed: \d+/m, "pgbench round $round ran to the end");
	like($out, qr/^number of failed transactions: 0 /m, "pgbench round $round: no failed transaction");
	unlike("$out$err", qr/aborted|ERROR|deadlock/i, "pgbench round $round: no client aborted, no error, no deadlock");
	while ($out =~ /SQL script \d+: (\S+)\n - weight: \d+ \([^)]*\)\n - (\d+) transactions/g)
	{
		$ran{$1} += $2;
	}
	last unless grep { !$ran{$_} } keys %script_of;
	note 'some script did not run yet: another round';
}
for my $f (sort keys %script_of)
{
	cmp_ok($ran{$f} // 0, '>', 0, "$script_of{$f}: ran " . ($ran{$f} // 0) . ' times');
}

my $log = slurp_file($node->logfile);
# Two kinds of autovacuum trouble are no client's error, and are counted
# apart: a task cancelled for a lock a client wants (logged as an ERROR),
# and, on a loaded machine, a worker slower to start than the naptime (1 s):
# the launcher gives up on it ("took too long to start; canceled", a
# WARNING) and starts another, and the late one may then find no free slot
# and log "FATAL:  sorry, too many clients already", once per give-up at
# most.  (A client refused so would fail pgbench or the test itself.)
my @cancelled = $log =~ /ERROR:\s+canceling autovacuum task/g;
note 'autovacuum tasks cancelled: ' . scalar @cancelled;
my $slow = () = $log =~ /WARNING:\s+autovacuum worker took too long to start; canceled/g;
my @errors = grep { !/canceling autovacuum task/ } $log =~ /^.*(?:ERROR|FATAL|PANIC):.*$/mg;
my $refused = grep { /FATAL:\s+sorry, too many clients already/ } @errors;
note "autovacuum workers given up on for a slow start: $slow; \"too many clients\" FATALs: $refused";
@errors = grep { !/FATAL:\s+sorry, too many clients already/ } @errors if $refused <= $slow;
note "server log errors:\n" . join("\n", @errors) if @errors;
is(scalar @errors, 0, 'no ERROR, FATAL or PANIC in the server log');
unlike($log, qr/deadlock detected/, 'no deadlock in the server log');
my $waits = () = $log =~ /still waiting for/g;
my $analyzed = () = $log =~ /automatic analyze of table "mix\.kernelindex/g;
note "automatic analyzes of kernelindex tables during the mix: $analyzed";
note "lock waits longer than deadlock_timeout (100 ms) in the server log: $waits";

# No resource, key, dictionary value (hash or value) or run twice; every
# reference of a run or a comparability key resolves (test/t/KidxStore.pm).
my $dups = $node->safe_psql('mix', KidxStore::duplicates_sql() . "\nUNION ALL " . KidxStore::dangling_sql());
my $dupsum = 0;
for (split /\n/, $dups)
{
	my ($what, $k) = split /\|/;
	note "$what: $k";
	$dupsum += $k;
}
is($dupsum, 0, 'no resource, key, dictionary value or run is stored twice; every reference resolves');

# Equal to the serial load: digests of every resource table and the runs,
# the keys of keys, every dictionary's values, the rebuilt documents, and
# the row count of every table of kernelindex but rejected_rows.  But for
# run_strings and run_templates: how a run's externalId is held depends on
# whether its workload's document was stored when the run came (a bundle
# without its workload stores the externalId's stem whole; a Liger row, or
# a bundle with it, stores it without the workload's label), so that a mix
# of document and CSV loads holds some runs one way and some the other;
# the documents they rebuild are the same (compared below).
my %by_arrival = map { $_ => 1 } qw(run_strings run_templates);
my $tables = $node->safe_psql('mix', q{
SELECT string_agg(c.relname, ' ' ORDER BY c.relname) FROM pg_class c
WHERE c.relnamespace = 'kernelindex'::regnamespace AND c.relkind = 'r' AND c.relname <> 'rejected_rows'
  AND c.relname NOT IN ('run_strings', 'run_templates')});
my $snapshot = join("\nUNION ALL ",
	map({ "SELECT '$_ rows', count(*)::text FROM kernelindex.$_" } split / /, $tables),
	map({ "SELECT '$_ digests', md5(string_agg(digest::text, ',' ORDER BY digest)) FROM kernelindex.$_" }
		qw(protocols environments workloads implementations runs)),
	"SELECT 'comparability_keys keys', md5(string_agg(key::text, ',' ORDER BY key)) FROM kernelindex.comparability_keys",
	map({ my $v = KidxStore::dictionary_value($_, 't');
		"SELECT '$_ values', md5(string_agg($v, E'\\n' ORDER BY $v COLLATE \"C\")) FROM kernelindex.$_ t" }
		grep { !$by_arrival{$_} } @KidxStore::DICTIONARIES),
	"SELECT 'documents', md5(string_agg(kidx_canonical(document), E'\\n' ORDER BY kidx_canonical(document))) FROM kernelindex.documents");
$snapshot = "SELECT * FROM ($snapshot) s ORDER BY 1";
my $mix = $node->safe_psql('mix', $snapshot);
my $serial = $node->safe_psql('serial', $snapshot);
note "the store after the mix:\n$mix";
is($mix, $serial, 'the store after the mix equals one serial load of the union of all files');
like($mix, qr/^runs rows\|[1-9]/m, 'the mix stored runs');
is($node->safe_psql('mix', 'SELECT count(*) FROM kernelindex.rejected_rows'), '0', 'no rejected row');

$node->stop;
done_testing();
