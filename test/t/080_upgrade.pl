# Upgrading a database from each release (issue 24), as a DBA does: a
# cluster runs the release's own build (made from its commit by test/run.sh,
# in a copy of the PostgreSQL installation of its own: KIDX_RELEASE_TREES),
# a database created at that version is loaded with real data (the upstream
# Liger file, or the sample where ../shared is absent; a history of three
# more releases of it; quarantined bad rows; run documents, with statistics
# the release keeps in its templates; catalog rows a user added), then the
# new version's files are installed over the release's (a package upgrade),
# the server restarted and ALTER EXTENSION kernelindex UPDATE run.  A
# database created fresh at the new version in the same cluster, loaded with
# the same data in the same order, must then be the same:
#  - the same objects: pg_dump --schema-only --binary-upgrade (which dumps
#    the extension's member objects one by one) of both, entry by entry,
#    with OIDs and the dump's random \restrict key left out;
#  - the same configuration tables registered for pg_dump, with the same
#    conditions;
#  - the same rows in every table of kernelindex (ids included), the same
#    sequence states, the same rows in every view, the same documents and
#    bundles byte for byte, the same run digests;
# and it stays so when both load more (a further release, more documents).
# Updating back to the release is refused with PostgreSQL's message.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use File::Copy qw(copy);
use File::Basename qw(basename);
use IPC::Run;

my $top = $ENV{KIDX_TOP} or die "KIDX_TOP is not set";
my @releases = split ' ', ($ENV{KIDX_RELEASES} // '');
plan skip_all => 'no release was built for this run (KIDX_RELEASES; test/run.sh builds them from doc/CHANGELOG.md)'
  unless @releases;

my $shared = $ENV{KIDX_SHARED} // "$top/../shared";
my $upstream = "$shared/data/liger/all_benchmark_data.csv";
my $csv = -r $upstream ? $upstream : "$top/test/data/liger_sample.csv";
note(-r $upstream ? "data: the upstream Liger file" : "data: test/data/liger_sample.csv (../shared is absent)");

# The version in development and where its files are (the run's install).
my $pkglibdir = `pg_config --pkglibdir`;
chomp $pkglibdir;
my $sharedir = `pg_config --sharedir`;
chomp $sharedir;
my ($version) = slurp_file("$sharedir/extension/kernelindex.control") =~ /default_version\s*=\s*'([^']+)'/;

my $tmp = PostgreSQL::Test::Utils::tempdir();

# A Liger file as a later release measured it: the same rows, a new
# liger_version and times some hours later (so that every row is a new run
# of the same series).
sub release_file
{
	my ($step) = @_;
	my @lines = split /\r?\n/, slurp_file($csv);
	my $out = shift(@lines) . "\n";
	for my $line (@lines)
	{
		next if $line eq '';
		# timestamp and liger_version are the last two fields (no quotes in them)
		$line =~ s/,(\d{4}-\d\d-\d\d) (\d\d):(\d\d):(\d\d),([^,]*)$/sprintf(",%s %02d:%s:%s,9.%d.0", $1, ($2 + $step) % 24, $3, $4, $step)/e
		  or die "unexpected line $line";
		$out .= "$line\n";
	}
	my $f = "$tmp/release-$step.csv";
	open my $fh, '>', $f or die;
	print $fh $out;
	close $fh;
	return $f;
}

# Run documents (one bundle a line) from the two reference records: the
# records themselves, and runs of the same series measured again whose
# measurements carry what harnesses other than Liger report (mean,
# standard deviation, min, max, samples) and a primary statistic other than
# the median.
sub documents_file
{
	my ($name, @shift) = @_;
	my @out;
	for my $f (sort glob("$top/test/data/records/*.json"))
	{
		my $doc = slurp_file($f);
		$doc =~ s/\s*\n\s*/ /g;
		push @out, $doc if !@shift;
		for my $s (@shift)
		{
			my $d = $doc;
			# (the run's members come first in the records: the first
			# metadata.name is the run's)
			$d =~ s/"observedAt":\s*"2025-(\d\d)-(\d\d)T/"observedAt": "20$s-$1-$2T/ or die "no observedAt in $f";
			$d =~ s/"externalId":\s*"([^"]*)"/"externalId": "$1-$s"/ or die "no externalId in $f";
			$d =~ s/"name":\s*"liger-([^"]*)"/"name": "other-$s-$1"/ or die "no name in $f";
			$d =~ s/"measurements":\s*\[/"measurements": [{"unit": "ns", "value": ${s}00001, "metric": "latency", "statistic": "mean"}, {"unit": "ns", "value": ${s}7, "metric": "latency", "statistic": "stddev"}, {"unit": "ns", "value": ${s}00000, "metric": "latency", "statistic": "min"}, {"unit": "ns", "value": ${s}00099, "metric": "latency", "statistic": "max"}, {"unit": "count", "value": $s, "metric": "latency", "statistic": "samples"}, / or die "no measurements in $f";
			$d =~ s/("timing":\s*\{[^{}]*\{[^{}]*\}[^{}]*"primaryStatistic":\s*)"median"/$1"mean"/ or die "no timing in $f" if $s % 2;
			push @out, $d;
		}
	}
	my $file = "$tmp/$name.jsonl";
	open my $fh, '>', $file or die;
	print $fh join("\n", @out), "\n";
	close $fh;
	return $file;
}

my @rel = map { release_file($_) } 1 .. 4;
my $docs1 = documents_file('documents-1');
my $docs2 = documents_file('documents-2', 31, 32, 33);
my $docs3 = documents_file('documents-3', 41, 42);
my $bad = "$top/test/data/liger_bad_rows.csv";
my $copy_docs = "WITH (FORMAT csv, QUOTE e'\\x01', DELIMITER e'\\x02')";

# What a user loads before the update, in order.
my @before = (
	"INSERT INTO kernelindex.gpus (name, vendor, product, form_factor, architecture) VALUES ('NVIDIA GeForce RTX 4060 Laptop GPU', 'nvidia', 'NVIDIA GeForce RTX 4060', 'Laptop', 'sm_89')",
	"INSERT INTO kernelindex.kernels (name, title) VALUES ('my_kernel', 'My kernel')",
	"INSERT INTO kernelindex.providers (name, title) VALUES ('my_provider', 'My provider')",
	"\\copy kernelindex.liger_rows FROM '$csv' WITH (FORMAT csv, HEADER MATCH)",
	"\\copy kernelindex.liger_rows FROM '$rel[0]' WITH (FORMAT csv, HEADER MATCH)",
	"\\copy kernelindex.liger_rows FROM '$rel[1]' WITH (FORMAT csv, HEADER MATCH)",
	"\\copy kernelindex.documents FROM '$docs1' $copy_docs",
	"\\copy kernelindex.documents FROM '$docs2' $copy_docs",
	"SET kernelindex.on_bad_row = 'quarantine';\n\\copy kernelindex.liger_rows FROM '$bad' WITH (FORMAT csv, HEADER MATCH)");
# And after it.
my @after = (
	"\\copy kernelindex.liger_rows FROM '$rel[2]' WITH (FORMAT csv, HEADER MATCH)",
	"\\copy kernelindex.liger_rows FROM '$csv' WITH (FORMAT csv, HEADER MATCH)",
	"\\copy kernelindex.documents FROM '$docs3' $copy_docs",
	"\\copy kernelindex.liger_rows FROM '$rel[3]' WITH (FORMAT csv, HEADER MATCH)");

# Load in order; each step in a session of its own (as a user's scripts).
sub load
{
	my ($node, $db, @steps) = @_;
	$node->safe_psql($db, $_) for @steps;
}

# The objects of a database: pg_dump --schema-only --binary-upgrade, as
# entries (each "-- Name: ...; Type: ..." header with what follows), without
# what is not a definition (OIDs of the binary upgrade, the dump's random
# \restrict key, its header).
sub objects
{
	my ($node, $db) = @_;
	my ($out, $err) = ('', '');
	IPC::Run::run([ 'pg_dump', '--schema-only', '--binary-upgrade', '-d', $node->connstr($db) ],
		'>', \$out, '2>', \$err) or die "pg_dump failed: $err";
	my %entries;
	my @parts = split /^(?=--\n-- Name: )/m, $out;
	shift @parts;    # the header: versions, SET lines
	for my $p (@parts)
	{
		$p =~ s/^SELECT pg_catalog\.binary_upgrade_set_next_\w+\(.*\);\n//mg;
		$p =~ s/^-- For binary upgrade, must preserve .*\n//mg;
		# (transaction ids of the tables: where each database's history stands)
		$p =~ s/^-- For binary upgrade, set (heap|toast)'s relfrozenxid and relminmxid\nUPDATE pg_catalog\.pg_class\nSET relfrozenxid = '\d+', relminmxid = '\d+'\nWHERE oid = [^\n]*;\n//mg;
		$p =~ s/^\\(un)?restrict \S+\n//mg;
		# the extension's configuration tables: by OID here, compared below
		$p =~ s/(binary_upgrade_create_empty_extension\('kernelindex', '[^']*', \w+, ')[^']*(', ).*$/$1VERSION$2.../m;
		$p =~ s/\n+$/\n/;
		my ($name) = $p =~ /^--\n-- Name: ([^\n]*)/ or die "no name in $p";
		$name =~ s/; Owner: .*$//;
		$entries{$name} .= $p;
	}
	return \%entries;
}

# The tables registered for pg_dump, with their conditions.
my $config_sql = q{
SELECT string_agg(c.oid::regclass::text || ' ' || quote_literal(e.extcondition[c.i]), E'\n' ORDER BY 1)
FROM pg_extension e, LATERAL unnest(e.extconfig) WITH ORDINALITY AS c(oid, i)
WHERE e.extname = 'kernelindex'};

# Every relation of schema kernelindex a user reads (tables and views), and
# the sequences.
my $relations_sql = q{
SELECT string_agg(c.relname || ' ' || c.relkind::text, E'\n' ORDER BY c.relname COLLATE "C")
FROM pg_class c WHERE c.relnamespace = 'kernelindex'::regnamespace AND c.relkind IN ('r', 'v', 'S')};

# The columns that may differ between two databases loaded with the same
# data, and why: when a bad row was quarantined (the time of its load); the
# ids of run templates (0.1.0 kept each run that reports a mean, standard
# deviation, min, max or samples with a template of its own, its values in
# it; the upgrade stores those runs again as 0.2.0 does, typed and sharing a
# template, and removes the old ones, so the templates it makes have later
# ids, with gaps, where a fresh load numbers them in order).  Templates are
# compared by value, runs by the value of their template, and the state of
# the templates' sequence is left out.
my %varies = (rejected_rows => [qw(rejected_at)], run_templates => [qw(id)]);
my %renumbered = (run_templates_id_seq => 1);

# Every row of a relation, sorted, as text (every column, in order, but
# those of %varies).
sub rows
{
	my ($node, $db, $rel, $kind) = @_;
	return '(renumbered)' if $renumbered{$rel};
	return $node->safe_psql($db, "SELECT last_value, is_called FROM kernelindex.$rel") if $kind eq 'S';
	return $node->safe_psql($db, q{SELECT s.r FROM (SELECT ((pg_catalog.to_jsonb(t) - 'template_id')
		|| pg_catalog.jsonb_build_object('template', tp.hash))::text AS r
		FROM kernelindex.runs t JOIN kernelindex.run_templates tp ON tp.id = t.template_id) s
		ORDER BY s.r COLLATE "C"}) if $rel eq 'runs';
	my $row = $varies{$rel}
	  ? "(pg_catalog.to_jsonb(t) - '{" . join(',', @{ $varies{$rel} }) . "}'::text[])::text"
	  : 't::text';
	return $node->safe_psql($db, "SELECT s.r FROM (SELECT $row AS r FROM kernelindex.$rel t) s ORDER BY s.r COLLATE \"C\"");
}

# Compare the two databases; $when says at which step.
sub compare
{
	my ($node, $up, $fresh, $when) = @_;
	my $a = objects($node, $up);
	my $b = objects($node, $fresh);
	my @only_up = grep { !exists $b->{$_} } sort keys %$a;
	my @only_fresh = grep { !exists $a->{$_} } sort keys %$b;
	is(join("\n", @only_up), '', "$when: no object only in the upgraded database");
	is(join("\n", @only_fresh), '', "$when: no object only in the fresh database");
	my @differ = grep { exists $b->{$_} && $a->{$_} ne $b->{$_} && !/^(\S+); Type: SEQUENCE SET;/ } sort keys %$a;
	push @differ, grep { /^(\S+); Type: SEQUENCE SET;/ && !$renumbered{$1} && exists $b->{$_} && $a->{$_} ne $b->{$_} } sort keys %$a;
	is(join("\n", @differ), '', "$when: every object is defined the same way (" . scalar(keys %$a) . ' objects)');
	for my $name (@differ[0 .. ($#differ < 2 ? $#differ : 2)])
	{
		diag("upgraded:\n$a->{$name}\nfresh:\n$b->{$name}");
	}
	is($node->safe_psql($up, $config_sql), $node->safe_psql($fresh, $config_sql),
		"$when: the same tables are registered for pg_dump, with the same conditions");
	my $rels = $node->safe_psql($up, $relations_sql);
	is($rels, $node->safe_psql($fresh, $relations_sql), "$when: the same tables, views and sequences");
	my @bad;
	my $n = 0;
	for my $line (split /\n/, $rels)
	{
		my ($rel, $kind) = split / /, $line;
		my $x = rows($node, $up, $rel, $kind);
		my $y = rows($node, $fresh, $rel, $kind);
		$n++;
		next if $x eq $y;
		push @bad, $rel;
		my @xl = split /\n/, $x;
		my @yl = split /\n/, $y;
		my $i = 0;
		$i++ while $i < @xl && $i < @yl && $xl[$i] eq $yl[$i];
		diag("$rel: " . scalar(@xl) . " rows upgraded, " . scalar(@yl) . " fresh; first difference at row "
			  . ($i + 1) . ":\n  upgraded: " . ($xl[$i] // '(none)') . "\n  fresh:    " . ($yl[$i] // '(none)'));
	}
	is(join(' ', @bad), '', "$when: every row of the $n tables, views and sequences is the same");
	my $docs = q{SELECT md5(string_agg(d::text, E'\n' ORDER BY d::text COLLATE "C")) || ' ' || count(*)
		FROM (SELECT document AS d FROM kernelindex.documents) s};
	is($node->safe_psql($up, $docs), $node->safe_psql($fresh, $docs), "$when: the same documents, byte for byte");
	my $digests = q{SELECT md5(string_agg(digest::text || ' ' || kidx_resource_digest(kernelindex.run_document(digest) -> 'run')::text, E'\n' ORDER BY digest)) || ' ' || count(*) FROM kernelindex.runs};
	is($node->safe_psql($up, $digests), $node->safe_psql($fresh, $digests),
		"$when: the same runs, each the digest of its document");
}

for my $release (@releases)
{
	# A copy of the release's installation: the package upgrade below
	# changes it, and other tests use the release as built.
	my $built = "$ENV{KIDX_RELEASE_TREES}/$release";
	my $tree = "$tmp/release-$release";
	system_or_bail('cp', '-a', $built, $tree);
	my $install_path = slurp_file("$built/install_path");
	chomp $install_path;
	$install_path =~ s/^\Q$built\E/$tree/ or die "install_path $install_path is not in $built";
	my $node = PostgreSQL::Test::Cluster->new("from_$release", install_path => $install_path);
	$node->init;
	$node->start;
	$node->safe_psql('postgres', 'CREATE DATABASE upgraded');
	$node->safe_psql('upgraded', 'CREATE EXTENSION kernelindex');
	is($node->safe_psql('upgraded', "SELECT extversion FROM pg_extension WHERE extname = 'kernelindex'"),
		$release, "$release: a database created by the release's own build is at $release");
	load($node, 'upgraded', @before);
	my $runs = $node->safe_psql('upgraded', 'SELECT count(*) FROM kernelindex.runs');
	note("$release: $runs runs loaded");

	# The package upgrade: the new version's library and scripts over the
	# release's, then a restart.
	$node->stop;
	my ($old_lib, $old_share) = (`$install_path/bin/pg_config --pkglibdir`, `$install_path/bin/pg_config --sharedir`);
	chomp($old_lib, $old_share);
	copy("$pkglibdir/kernelindex.so", "$old_lib/kernelindex.so") or die "copy: $!";
	for my $f (glob("$sharedir/extension/kernelindex*"))
	{
		copy($f, "$old_share/extension/" . basename($f)) or die "copy $f: $!";
	}
	$node->start;
	is($node->safe_psql('upgraded', "SELECT extversion FROM pg_extension WHERE extname = 'kernelindex'"),
		$release, "$release: after the package upgrade the database is still at $release");
	my ($rc, $out, $err) = $node->psql('upgraded',
		"\\copy kernelindex.liger_rows FROM '$csv' WITH (FORMAT csv, HEADER MATCH)");
	like($err, qr/ERROR:  kernelindex's library is version \Q$version\E, but the extension in database "upgraded" is at version \Q$release\E\nHINT:  Run ALTER EXTENSION kernelindex UPDATE/,
		"$release: until it is updated, a load is refused (55000), saying what to run");
	($rc, $out, $err) = $node->psql('upgraded', 'SELECT kernelindex.run_document(digest) FROM kernelindex.runs LIMIT 1');
	like($err, qr/kernelindex's library is version \Q$version\E/, "$release: so is an export");
	is($node->safe_psql('upgraded', "SELECT count(*) = $runs FROM kernelindex.runs"), 't',
		"$release: its runs are all there");
	is($node->safe_psql('upgraded', q{SELECT kidx_canonical('{"b": 1e21, "a": [0.000001]}')}),
		'{"a":[0.000001],"b":1e+21}', "$release: functions that do not read the store work");
	$node->safe_psql('upgraded', 'ALTER EXTENSION kernelindex UPDATE');
	is($node->safe_psql('upgraded', "SELECT extversion FROM pg_extension WHERE extname = 'kernelindex'"),
		$version, "$release: ALTER EXTENSION kernelindex UPDATE brings it to $version");

	$node->safe_psql('postgres', 'CREATE DATABASE fresh');
	$node->safe_psql('fresh', 'CREATE EXTENSION kernelindex');
	load($node, 'fresh', @before);
	compare($node, 'upgraded', 'fresh', "$release -> $version");

	# The release's install script, kept in the tree, with the new library.
	$node->safe_psql('postgres', 'CREATE DATABASE created_at_release');
	$node->safe_psql('created_at_release', "CREATE EXTENSION kernelindex VERSION '$release'");
	$node->safe_psql('created_at_release', 'ALTER EXTENSION kernelindex UPDATE');
	my $x = objects($node, 'created_at_release');
	my $y = objects($node, 'fresh');
	my %names = map { $_ => 1 } grep { !/; Type: SEQUENCE SET;/ } (keys %$x, keys %$y);
	is(join("\n", grep { ($x->{$_} // '') ne ($y->{$_} // '') } sort keys %names), '',
		"$release: CREATE EXTENSION kernelindex VERSION '$release' then UPDATE makes the objects of a fresh $version (the state of its sequences aside: the fresh database holds data)");

	load($node, $_, @after) for qw(upgraded fresh);
	compare($node, 'upgraded', 'fresh', "$release -> $version, after more loads");

	($rc, $out, $err) = $node->psql('upgraded', "ALTER EXTENSION kernelindex UPDATE TO '$release'");
	isnt($rc, 0, "$release: updating back to $release is refused");
	like($err, qr/extension "kernelindex" has no update path from version "\Q$version\E" to version "\Q$release\E"/,
		"$release: with a message naming both versions");
	$node->stop;
}

done_testing();
