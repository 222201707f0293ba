# Loads of any size in bounded memory (issue 27, item 1).  A server whose
# processes may use at most KIDX_LOAD_LIMIT_KB of address space (ulimit -v,
# 600 MB by default; its shared_buffers 32MB) loads, by COPY, a Liger file
# of KIDX_LOAD_ROWS varied rows (300,000 by default: every row its own
# workload and comparability key, the shape where a statement keeps the
# most) and then the bundles of 100,000 of those runs as documents.  The
# library of this build stores a statement in chunks of about
# kernelindex.load_memory (16MB here, DEBUG1 says each chunk) and loads
# both; the loading backend's anonymous memory, sampled from /proc while it
# loads, stays within a few times that.  The same loads under the same
# limit with the 0.1.0 library (which kept a statement's rows until its
# end: about 3.5 kB a varied row) fail with "out of memory" and store
# nothing, so the limit is one the old code meets (skipped where no release
# was built: KIDX_RELEASES).
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use IPC::Run;
use Time::HiRes qw(usleep);

my $limit_kb = $ENV{KIDX_LOAD_LIMIT_KB} // 600_000;
my $rows = $ENV{KIDX_LOAD_ROWS} // 300_000;
my $docs = int($rows / 3);
my $tmp = PostgreSQL::Test::Utils::tempdir();

# The Liger file: sparsemax, two providers, every row a new x value.
my $csv = "$tmp/varied.csv";
open my $fh, '>', $csv or die;
print $fh "kernel_name,kernel_provider,kernel_operation_mode,metric_name,metric_unit,x_name,x_label,x_value,"
  . "y_value_50,y_value_20,y_value_80,extra_benchmark_config_str,gpu_name,timestamp,liger_version\n";
for my $g (1 .. $rows)
{
	my @t = gmtime(1735689600 + $g);
	printf $fh "sparsemax,%s,forward,speed,ms,V,feature size,%d,%.3f,%.3f,%.3f,"
	  . "\"{\"\"B\"\": 4, \"\"T\"\": 512, \"\"dim\"\": -1, \"\"dtype\"\": \"\"torch.float32\"\"}\","
	  . "NVIDIA GeForce RTX 3090,%04d-%02d-%02d %02d:%02d:%02d,0.5.8\n",
	  ($g % 2 ? 'liger' : 'torch'), 1000 + $g, 1 + $g / 1000, 0.5 + $g / 1000, 2 + $g / 1000,
	  $t[5] + 1900, $t[4] + 1, $t[3], $t[2], $t[1], $t[0];
}
close $fh;

# A cluster whose processes may use at most $limit_kb of address space.
sub limited_node
{
	my ($name, %params) = @_;
	my $node = PostgreSQL::Test::Cluster->new($name, %params);
	$node->init;
	$node->append_conf('postgresql.conf', "shared_buffers = 32MB\njit = off\nmax_connections = 10\n");
	my $pg_ctl = $params{install_path} ? "$params{install_path}/bin/pg_ctl" : 'pg_ctl';
	system_or_bail('sh', '-c', "ulimit -v $limit_kb && exec \"\$0\" -D \"\$1\" -l \"\$2\" -w -s start",
		$pg_ctl, $node->data_dir, $node->logfile);
	$node->_update_pid(1);
	return $node;
}

# COPY a file into a view of kernelindex in a session whose backend's
# anonymous memory is sampled every 20 ms: (psql's exit code, its stderr,
# the peak RssAnon in kB).
sub sampled_copy
{
	my ($node, $db, $target, $file, $with, $settings) = @_;
	my ($out, $err) = ('', '');
	my $script = "$tmp/copy.sql";
	open my $sf, '>', $script or die;
	print $sf "SELECT pg_backend_pid();\n$settings\n\\copy $target FROM '$file' WITH ($with)\n";
	close $sf;
	my $h = IPC::Run::start([ 'psql', '-X', '-At', '-v', 'ON_ERROR_STOP=1', '-d', $node->connstr($db), '-f', $script ],
		'<', '/dev/null', '>', \$out, '2>', \$err);
	my ($pid, $peak) = (undef, 0);
	while ($h->pumpable)
	{
		$h->pump_nb;
		($pid) = $out =~ /^(\d+)$/m unless $pid;
		if ($pid && open(my $st, '<', "/proc/$pid/status"))
		{
			local $/;
			my ($anon) = <$st> =~ /^RssAnon:\s+(\d+) kB/m;
			$peak = $anon if defined $anon && $anon > $peak;
		}
		usleep(20_000);
	}
	$h->finish;
	return ($h->result(0), $err, $peak);
}

my $liger = 'FORMAT csv, HEADER MATCH';
my $jsonl = "FORMAT csv, QUOTE e'\\x01', DELIMITER e'\\x02'";
my $settings = "SET kernelindex.load_memory = '16MB';\nSET client_min_messages = debug1;";

my $node = limited_node('bounded');
$node->safe_psql('postgres', 'CREATE DATABASE kidx');
$node->safe_psql('kidx', 'CREATE EXTENSION kernelindex');
my ($rc, $err, $peak) = sampled_copy($node, 'kidx', 'kernelindex.liger_rows', $csv, $liger, $settings);
is($rc, 0, "$rows varied Liger rows load under a $limit_kb kB address-space limit") or diag($err);
is($node->safe_psql('kidx', 'SELECT count(*) FROM kernelindex.runs'), $rows, 'every row is a run');
my $chunks = () = $err =~ /DEBUG:  kernelindex: stored chunk/g;
cmp_ok($chunks, '>', 1, "the statement was stored in $chunks chunks of about 16MB");
cmp_ok($peak, '<', 200_000, "the loading backend's anonymous memory peaked at $peak kB (16MB chunks)");
note("Liger rows: $chunks chunks, peak RssAnon $peak kB; the first: " . join(" / ", (grep { /stored chunk/ } split /\n/, $err)[0 .. 1]));

my $bundles = "$tmp/bundles.jsonl";
$node->safe_psql('kidx', "\\copy (SELECT bundle FROM kernelindex.run_bundles ORDER BY digest LIMIT $docs) TO '$bundles' WITH ($jsonl)");
$node->safe_psql('postgres', 'CREATE DATABASE kidx_docs');
$node->safe_psql('kidx_docs', 'CREATE EXTENSION kernelindex');
($rc, $err, $peak) = sampled_copy($node, 'kidx_docs', 'kernelindex.documents', $bundles, $jsonl, $settings);
is($rc, 0, "$docs bundles load as documents under the same limit") or diag($err);
is($node->safe_psql('kidx_docs', 'SELECT count(*) FROM kernelindex.runs'), $docs, 'every bundle is a run');
$chunks = () = $err =~ /DEBUG:  kernelindex: stored chunk/g;
cmp_ok($chunks, '>', 1, "stored in $chunks chunks");
cmp_ok($peak, '<', 200_000, "the loading backend's anonymous memory peaked at $peak kB");
note("documents: $chunks chunks, peak RssAnon $peak kB");
is($node->safe_psql('kidx_docs', q{SELECT count(*) FROM kernelindex.run_bundles b
	WHERE b.bundle IS DISTINCT FROM kernelindex.run_bundle(b.digest::kidx_digest)}), '0',
	'every run comes back as its bundle');
$node->stop;

# The 0.1.0 library under the same limit.
my @releases = split ' ', ($ENV{KIDX_RELEASES} // '');
SKIP:
{
	skip 'no release was built (KIDX_RELEASES): the 0.1.0 library is not tried', 4
	  unless grep { $_ eq '0.1.0' } @releases;
	my $install_path = slurp_file("$ENV{KIDX_RELEASE_TREES}/0.1.0/install_path");
	chomp $install_path;
	my $old = limited_node('unbounded', install_path => $install_path);
	$old->safe_psql('postgres', 'CREATE DATABASE kidx');
	$old->safe_psql('kidx', "CREATE EXTENSION kernelindex VERSION '0.1.0'");
	($rc, $err) = sampled_copy($old, 'kidx', 'kernelindex.liger_rows', $csv, $liger, '');
	like($err, qr/ERROR:  out of memory/, '0.1.0 fails to load the Liger rows under the same limit: out of memory');
	is($old->safe_psql('kidx', 'SELECT count(*) FROM kernelindex.runs'), '0', 'and stores nothing');
	($rc, $err) = sampled_copy($old, 'kidx', 'kernelindex.documents', $bundles, $jsonl, '');
	like($err, qr/ERROR:  out of memory/, '0.1.0 fails to load the documents under the same limit: out of memory');
	is($old->safe_psql('kidx', 'SELECT count(*) FROM kernelindex.runs'), '0', 'and stores nothing');
	$old->stop;
}

done_testing();
