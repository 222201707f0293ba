# pg_dump then pg_restore into a new database keeps every row of every table
# of the store (resources, comparability keys, the dictionaries of what runs
# repeat, runs; documents and Liger CSV rows) and every exported document,
# the restore passes the statement-level reference checks of kernelindex.runs,
# and the restored store keeps working: its identity sequences are restored
# (a new value gets a new id, no clash), a new run reuses the dictionary
# values it shares with the stored runs, and loading the same rows again
# stores nothing.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use FindBin;
use lib $FindBin::RealBin;
use KidxStore;

# Copies of ../shared/reference/records, kept with the tests.
my $records = "$ENV{KIDX_TOP}/test/data/records";

my @files = sort glob("$records/*.json");
my $node = PostgreSQL::Test::Cluster->new('dump');
$node->init;
$node->start;
$node->safe_psql('postgres', 'CREATE DATABASE src');
$node->safe_psql('src', 'CREATE EXTENSION kernelindex');

# Ingest every reference record, plus one more run with the same values.
for my $f (@files)
{
	my $doc = slurp_file($f);
	$doc =~ s/\$kidx\$//g;
	$node->safe_psql('src', "SELECT kernelindex.ingest_document(\$kidx\$$doc\$kidx\$)");
	$node->safe_psql('src',
		"SELECT kernelindex.ingest_document(replace(\$kidx\$$doc\$kidx\$, '2025-', '2024-')::jsonb)");
}

# The tables of the store, in the order of the counts below.
my @store = (qw(runs protocols environments workloads implementations comparability_keys),
	@KidxStore::DICTIONARIES);
my $counts = 'SELECT ' . join(" || '/' || ", map { "(SELECT count(*) FROM kernelindex.$_)" } @store);

# Every row of every table of kernelindex (the catalogs and rejected_rows
# too), every sequence's state, every exported document.
my $tables = $node->safe_psql('src', KidxStore::tables_sql());
my $sequences = $node->safe_psql('src', q{
SELECT string_agg(c.relname, ' ' ORDER BY c.relname) FROM pg_class c
WHERE c.relnamespace = 'kernelindex'::regnamespace AND c.relkind = 'S'});
for my $t (@store)
{
	like(" $tables ", qr/ \Q$t\E /, "the store has the table $t");
}
my $summary = KidxStore::rows_sql([ split / /, $tables ],
	map({ "SELECT 'sequence $_', last_value || ' ' || is_called FROM kernelindex.$_" } split / /, $sequences),
	"SELECT 'documents', count(*) || ' ' || md5(string_agg(kidx_canonical(document), E'\\n' ORDER BY kidx_canonical(document) COLLATE \"C\")) FROM kernelindex.documents",
	"SELECT 'bundles', count(*) || ' ' || md5(string_agg(kidx_canonical(bundle), E'\\n' ORDER BY kidx_canonical(bundle) COLLATE \"C\")) FROM kernelindex.run_bundles");

is($node->safe_psql('src', $counts), '4/2/2/2/2/2/2/1/1/2/2/2/2',
	'source store loaded: 4 runs; 2 of each resource, key, title, benchmark, string, label set and template; 1 status and source')
  if @files == 2;

# And the rows of a Liger CSV sample.
my $sample = "$ENV{KIDX_TOP}/test/data/liger_sample.csv";
$node->safe_psql('src', "\\copy kernelindex.liger_rows FROM '$sample' WITH (FORMAT csv, HEADER MATCH)");
my $runs = $node->safe_psql('src', 'SELECT count(*) FROM kernelindex.runs');
cmp_ok($runs, '>', 4 + 20, 'Liger sample loaded');
my $before = $node->safe_psql('src', $summary);
my $src_counts = $node->safe_psql('src', $counts);
note "the store before pg_dump (runs/resources/keys/dictionaries): $src_counts";

my $dump = $node->basedir . '/src.dump';
$node->command_ok([ 'pg_dump', '-Fc', '-d', $node->connstr('src'), '-f', $dump ], 'pg_dump');
$node->safe_psql('postgres', 'CREATE DATABASE dst');
$node->command_ok([ 'pg_restore', '--exit-on-error', '-d', $node->connstr('dst'), $dump ], 'pg_restore');

my $after = $node->safe_psql('dst', $summary);
is($after, $before,
	'every row of every table (dictionaries included), every sequence and every exported document survives dump and restore');
is($node->safe_psql('dst', 'SELECT sum(n) FROM (' . KidxStore::dangling_sql() . ') s(what, n)'), '0',
	'after restore every reference of a run or a comparability key resolves');

# The restored store accepts new data (sequences restored, no id clashes).
my $doc = slurp_file($files[0]);
$node->safe_psql('dst',
	"SELECT kernelindex.ingest_document(replace(\$kidx\$$doc\$kidx\$, '2025-', '2023-')::jsonb)");
is($node->safe_psql('dst', 'SELECT count(*) FROM kernelindex.runs'),
	$runs + 1, 'restored store ingests a new run');
$node->safe_psql('dst', "\\copy kernelindex.liger_rows FROM '$sample' WITH (FORMAT csv, HEADER MATCH)");
is($node->safe_psql('dst', 'SELECT count(*) FROM kernelindex.runs'),
	$runs + 1, 'loading the sample again into the restored store changes nothing');
(my $expected = $src_counts) =~ s/^(\d+)/$1 + 1/e;
is($node->safe_psql('dst', $counts), $expected,
	'after restore a new run reuses every resource, key and dictionary value it shares with the stored runs');
# A new dictionary value after restore takes an id no stored value has.
$node->safe_psql('dst',
	"SELECT kernelindex.ingest_document(jsonb_set(replace(\$kidx\$$doc\$kidx\$, '2025-', '2022-')::jsonb,"
	  . " '{run,metadata,title}', '\"a title no run had\"'))");
my $titles = (split m{/}, $src_counts)[6] + 1;
is($node->safe_psql('dst', q{
SELECT count(*) || ' ' || count(DISTINCT id) || ' ' || (max(id) > (SELECT max(id) FROM kernelindex.run_titles
	WHERE value <> 'a title no run had'))::text FROM kernelindex.run_titles}),
	"$titles $titles true", 'a new title after restore is stored with a new id');

$node->stop;
done_testing();
