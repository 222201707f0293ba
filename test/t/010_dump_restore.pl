# pg_dump then pg_restore into a new database keeps every row of the store
# (documents and Liger CSV rows), the restore passes the statement-level
# reference checks of kernelindex.runs, and the restored store keeps working
# (identity sequences restored too).
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

# Copies of ../shared/reference/records, kept with the tests.
my $records = "$ENV{KIDX_TOP}/test/data/records";

my @files = sort glob("$records/*.json");
my $node = PostgreSQL::Test::Cluster->new('dump');
$node->init;
$node->start;
$node->safe_psql('postgres', 'CREATE DATABASE src');
$node->safe_psql('src', 'CREATE EXTENSION kernelindex');

# Ingest every reference record, plus one more run of the same series.
for my $f (@files)
{
	my $doc = slurp_file($f);
	$doc =~ s/\$kidx\$//g;
	$node->safe_psql('src', "SELECT kernelindex.ingest_document(\$kidx\$$doc\$kidx\$)");
	$node->safe_psql('src',
		"SELECT kernelindex.ingest_document(replace(\$kidx\$$doc\$kidx\$, '2025-', '2024-')::jsonb)");
}

my $summary = q{
SELECT (SELECT count(*) FROM kernelindex.runs) || '/' ||
       (SELECT count(*) FROM kernelindex.protocols) || '/' ||
       (SELECT count(*) FROM kernelindex.environments) || '/' ||
       (SELECT count(*) FROM kernelindex.workloads) || '/' ||
       (SELECT count(*) FROM kernelindex.implementations) || '/' ||
       (SELECT count(*) FROM kernelindex.comparability_keys) || '/' ||
       (SELECT count(*) FROM kernelindex.run_series) || ' ' ||
       (SELECT md5(string_agg(kidx_canonical(document), E'\n' ORDER BY kidx_canonical(document)))
        FROM kernelindex.documents)};
my $before = $node->safe_psql('src', $summary);
is((split / /, $before)[0], '4/2/2/2/2/2/2', 'source store loaded')
  if @files == 2;

# And the rows of a Liger CSV sample.
my $sample = "$ENV{KIDX_TOP}/test/data/liger_sample.csv";
$node->safe_psql('src', "\\copy kernelindex.liger_rows FROM '$sample' WITH (FORMAT csv, HEADER MATCH)");
my $runs = $node->safe_psql('src', 'SELECT count(*) FROM kernelindex.runs');
cmp_ok($runs, '>', 4 + 20, 'Liger sample loaded');
$before = $node->safe_psql('src', $summary);

my $dump = $node->basedir . '/src.dump';
$node->command_ok([ 'pg_dump', '-Fc', '-d', $node->connstr('src'), '-f', $dump ], 'pg_dump');
$node->safe_psql('postgres', 'CREATE DATABASE dst');
$node->command_ok([ 'pg_restore', '--exit-on-error', '-d', $node->connstr('dst'), $dump ], 'pg_restore');

my $after = $node->safe_psql('dst', $summary);
is($after, $before, 'every row and every exported document survives dump and restore');

# The restored store accepts new data (sequences restored, no id clashes).
my $doc = slurp_file($files[0]);
$node->safe_psql('dst',
	"SELECT kernelindex.ingest_document(replace(\$kidx\$$doc\$kidx\$, '2025-', '2023-')::jsonb)");
is($node->safe_psql('dst', 'SELECT count(*) FROM kernelindex.runs'),
	$runs + 1, 'restored store ingests a new run');
$node->safe_psql('dst', "\\copy kernelindex.liger_rows FROM '$sample' WITH (FORMAT csv, HEADER MATCH)");
is($node->safe_psql('dst', 'SELECT count(*) FROM kernelindex.runs'),
	$runs + 1, 'loading the sample again into the restored store changes nothing');
is($node->safe_psql('dst', 'SELECT count(*) FROM kernelindex.run_series'),
	$node->safe_psql('src', 'SELECT count(*) FROM kernelindex.run_series'),
	'a new run of a known series reuses it after restore');

$node->stop;
done_testing();
