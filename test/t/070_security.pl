# Security (issue 12, part 5).
#
# (a) Hostile objects on the search_path.  Traps, functions and operators
#     named like every built-in the install script and the C code's SPI
#     queries use (and the ones issue 12 names), are planted in public and in
#     trap_schema before CREATE EXTENSION, with the same signatures and with
#     signatures that beat the built-ins' polymorphic ones (to_jsonb(text)
#     beats to_jsonb(anyelement)); after CREATE EXTENSION the extension's own
#     functions and operators get same-signature traps in trap_schema too.
#     Every trap raises WARNING then EXCEPTION 'TRAP <name>'.  Then every
#     function, view and trigger of the extension (enumerated from pg_depend)
#     is exercised with search_path 'trap_schema, public' and, stricter,
#     'trap_schema, public, pg_catalog': no trap may fire.  Controls show the
#     traps are live: an unqualified call of ours does fire one.  A schema
#     kernelindex or a kidx_* function planted before CREATE EXTENSION makes
#     it fail rather than adopt the hostile object.
# (b) Volatility, strictness, parallel safety, SECURITY DEFINER/INVOKER,
#     leakproofness and SET options of every function, against the table
#     below (the one doc/reference.md shows); no SECURITY DEFINER function.
# (c) Every privilege PUBLIC has on the extension's schema, tables, views,
#     sequences, functions and type (defaults counted), against the list
#     below.
# (d) A role without rights cannot load, read or alter anything, directly or
#     through the extension's functions: 42501 every time, and nothing
#     changes; also with USAGE on the schema, and with INSERT on the two
#     COPY views and SELECT on kernelindex.runs only.
use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use FindBin;
use lib $FindBin::RealBin;
use KidxStore;

my $top = $ENV{KIDX_TOP} or die "KIDX_TOP is not set";
my $sample = "$top/test/data/liger_sample.csv";
my $bad_rows = "$top/test/data/liger_bad_rows.csv";
my @records = sort glob("$top/test/data/records/*.json");
die "no reference records" unless @records == 2;

my $node = PostgreSQL::Test::Cluster->new('security');
$node->init;
$node->start;
my $dir = PostgreSQL::Test::Utils::tempdir();

# ----------------------------------------------------------------------
# Running statements
# ----------------------------------------------------------------------

my $marker = '@@RESULT';

# Run statements ([tag, sql], ...) in one psql session, each reporting its
# SQLSTATE; returns ({tag => [sqlstate, message]}, whole stdout, stderr).
sub run_batch
{
	my ($db, $stmts, %o) = @_;
	my $script = "\\set VERBOSITY default\n";
	$script .= "SET search_path TO $o{path};\n" if defined $o{path};
	for my $s (grep { $_->[1] !~ /^\\copy/ } @$stmts)
	{
		my $sql = $s->[1];
		$sql .= ';' unless $sql =~ /^\\/ || $sql =~ /;\s*$/;
		$script .= "$sql\n\\echo $marker $s->[0] $marker :SQLSTATE :LAST_ERROR_MESSAGE\n";
	}
	my ($out, $err) = ('', '');
	$node->psql($db, $script, stdout => \$out, stderr => \$err, on_error_stop => 0,
		connstr => $node->connstr($db) . (defined $o{user} ? " user=$o{user}" : ''));
	my %res;
	for my $line (split /\n/, $out)
	{
		next unless $line =~ /^\Q$marker\E (.*) \Q$marker\E (\S*) ?(.*)$/;
		$res{$1} = [ $2, $3 ];
	}
	# psql sets no SQLSTATE for an error in the middle of a \copy FROM: each
	# \copy runs alone, judged by psql's exit status and its message.
	for my $s (grep { $_->[1] =~ /^\\copy/ } @$stmts)
	{
		my ($o1, $e1) = ('', '');
		my $ret = $node->psql($db, "\\set VERBOSITY verbose\n"
			  . (defined $o{path} ? "SET search_path TO $o{path};\n" : '') . "$s->[1]\n",
			stdout => \$o1, stderr => \$e1, on_error_stop => 1,
			connstr => $node->connstr($db) . (defined $o{user} ? " user=$o{user}" : ''));
		$err .= $e1;
		$res{ $s->[0] } = $ret == 0 ? [ '00000', '' ] :
		  $e1 =~ /ERROR:\s+([0-9A-Z]{5}):\s*(.*)/ ? [ $1, $2 ] : [ 'psql', $e1 ];
	}
	for my $s (@$stmts)
	{
		$res{ $s->[0] } //= [ 'none', 'no result (psql stopped?)' ];
	}
	return (\%res, $out, $err);
}

# Queries of the harness: built-ins only, pg_catalog only on the path.
sub hq
{
	my ($db, $sql) = @_;
	return $node->safe_psql($db, "SET search_path = pg_catalog;\n$sql");
}

sub sqlstr { my ($s) = @_; $s =~ s/'/''/g; return "'$s'"; }

# ----------------------------------------------------------------------
# Data
# ----------------------------------------------------------------------

my @record_docs = map { my $d = slurp_file($_); $d =~ s/\s+/ /g; $d } @records;
# Documents of other runs: the sample ten years later, exported from a clean
# database (the document path then stores new runs).
my $later_csv = "$dir/sample_later.csv";
{
	my @l = split /\r?\n/, slurp_file($sample);
	open my $fh, '>', $later_csv or die;
	print $fh shift(@l), "\n";
	for (@l)
	{
		s/,(\d{4})-(\d\d-\d\d \d\d:\d\d:\d\d),/sprintf(',%04d-%s,', $1 + 10, $2)/e;
		print $fh "$_\n";
	}
	close $fh;
}
my $later_docs = "$dir/sample_later.jsonl";
$node->safe_psql('postgres', 'CREATE DATABASE docsrc');
$node->safe_psql('docsrc', 'CREATE EXTENSION kernelindex');
$node->safe_psql('docsrc', "\\copy kernelindex.liger_rows FROM '$later_csv' WITH (FORMAT csv, HEADER MATCH)");
$node->safe_psql('docsrc',
	"\\copy (SELECT document FROM kernelindex.documents) TO '$later_docs' WITH (FORMAT csv, QUOTE E'\\x01', DELIMITER E'\\x02')");
my $doc_copy_opts = "WITH (FORMAT csv, QUOTE E'\\x01', DELIMITER E'\\x02')";
my $one_row = (split /\r?\n/, slurp_file($sample))[1];
my @one_row = $one_row =~ /("(?:[^"]|"")*"|[^,]*)(?:,|$)/g;
@one_row = map { s/^"(.*)"$/$1/s; s/""/"/g; $_ } @one_row[ 0 .. 14 ];
my $liger_row = 'ROW(' . join(', ', map { sqlstr($_) } @one_row) . ')::kernelindex.liger_rows';
my $row_values = '(' . join(', ', map { sqlstr($_) }
	@one_row[ 0 .. 12 ], '2031-01-01 00:00:00', $one_row[14]) . ')';

# ----------------------------------------------------------------------
# Every function of the extension, and how to call it
# ----------------------------------------------------------------------

# Values filled in from the store once it is loaded: %V{NAME} replaces %NAME%.
my %V;

# Calls with valid arguments, by signature (as regprocedure prints it with
# search_path = pg_catalog).  Builtins are qualified and operators written
# OPERATOR(schema.op): these statements must not fire a trap themselves.
my %call = (
	'public.kidx_digest_out(public.kidx_digest)' => 'SELECT public.kidx_digest_out(%D1%)',
	'public.kidx_digest_send(public.kidx_digest)' => 'SELECT public.kidx_digest_send(%D1%)',
	'public.kidx_digest_cmp(public.kidx_digest,public.kidx_digest)' => 'SELECT public.kidx_digest_cmp(%D1%, %D2%)',
	'public.kidx_digest_lt(public.kidx_digest,public.kidx_digest)' => 'SELECT public.kidx_digest_lt(%D1%, %D2%)',
	'public.kidx_digest_le(public.kidx_digest,public.kidx_digest)' => 'SELECT public.kidx_digest_le(%D1%, %D2%)',
	'public.kidx_digest_eq(public.kidx_digest,public.kidx_digest)' => 'SELECT public.kidx_digest_eq(%D1%, %D2%)',
	'public.kidx_digest_ne(public.kidx_digest,public.kidx_digest)' => 'SELECT public.kidx_digest_ne(%D1%, %D2%)',
	'public.kidx_digest_ge(public.kidx_digest,public.kidx_digest)' => 'SELECT public.kidx_digest_ge(%D1%, %D2%)',
	'public.kidx_digest_gt(public.kidx_digest,public.kidx_digest)' => 'SELECT public.kidx_digest_gt(%D1%, %D2%)',
	'public.kidx_digest_hash(public.kidx_digest)' => 'SELECT public.kidx_digest_hash(%D1%)',
	'public.kidx_digest_hash_extended(public.kidx_digest,bigint)' => 'SELECT public.kidx_digest_hash_extended(%D1%, 7::bigint)',
	'public.kidx_digest_smaller(public.kidx_digest,public.kidx_digest)' => 'SELECT public.kidx_digest_smaller(%D1%, %D2%)',
	'public.kidx_digest_larger(public.kidx_digest,public.kidx_digest)' => 'SELECT public.kidx_digest_larger(%D1%, %D2%)',
	'public.min(public.kidx_digest)' => 'SELECT public.min(digest) FROM kernelindex.runs',
	# window functions: over a few literal rows
	'kernelindex.change_point(double precision,double precision)' =>
	  'SELECT kernelindex.change_point(t.x, NULL) OVER (ORDER BY t.x) FROM (VALUES (1.0::double precision), (2.0)) t(x)',
	'kernelindex.change_point_levels(double precision,double precision)' =>
	  'SELECT kernelindex.change_point_levels(t.x, NULL) OVER (ORDER BY t.x) FROM (VALUES (1.0::double precision), (2.0)) t(x)',
	'kernelindex_internal.reference_value(boolean,text,anyelement)' =>
	  "SELECT kernelindex_internal.reference_value(t.r, t.l, t.x) OVER (ORDER BY t.r DESC, t.x) FROM (VALUES (true, 'a', 1), (false, 'b', 2)) t(r, l, x)",
	'kernelindex_internal.reference_in_release(boolean,text)' =>
	  "SELECT kernelindex_internal.reference_in_release(t.r, t.l) OVER (ORDER BY t.r DESC) FROM (VALUES (true, 'a'), (false, 'b')) t(r, l)",
	'kernelindex_internal.first_of_series(integer)' =>
	  'SELECT kernelindex_internal.first_of_series(t.i) OVER (ORDER BY t.x) FROM (VALUES (1, 1), (1, 2)) t(i, x)',
	'kernelindex_internal.first_of_release(integer,text)' =>
	  "SELECT kernelindex_internal.first_of_release(t.i, t.l) OVER (ORDER BY t.i) FROM (VALUES (1, 'a'), (1, 'b')) t(i, l)",
	'public.max(public.kidx_digest)' => 'SELECT public.max(digest) FROM kernelindex.runs',
	'public.kidx_digest_to_bytea(public.kidx_digest)' => 'SELECT public.kidx_digest_to_bytea(%D1%)',
	'public.kidx_digest_to_text(public.kidx_digest)' => 'SELECT public.kidx_digest_to_text(%D1%)',
	'public.kidx_digest_from_bytea(bytea)' => 'SELECT public.kidx_digest_from_bytea(public.kidx_digest_to_bytea(%D1%))',
	'public.kidx_canonical(jsonb)' => q{SELECT public.kidx_canonical('{"b": [1.5, "x\u0001", null], "a": 1e21, "é": -0}'::jsonb)},
	'public.kidx_canonical_digest(jsonb)' => 'SELECT public.kidx_canonical_digest(%B1%)',
	'public.kidx_resource_digest(jsonb)' => "SELECT public.kidx_resource_digest(%B1% OPERATOR(pg_catalog.->) 'run')",
	'public.kidx_ms_to_ns(numeric)' => "SELECT public.kidx_ms_to_ns('2.628607988357544'::numeric)",
	'public.kidx_ms_to_ns(text)' => "SELECT public.kidx_ms_to_ns(' 1e-05 '::text)",
	'public.kidx_ms_to_ns(double precision)' => "SELECT public.kidx_ms_to_ns('94.83366394042969'::double precision)",
	'public.kidx_mib_to_bytes(numeric)' => "SELECT public.kidx_mib_to_bytes('1.5'::numeric)",
	'public.kidx_mib_to_bytes(text)' => "SELECT public.kidx_mib_to_bytes('2.25'::text)",
	'public.kidx_mib_to_bytes(double precision)' => "SELECT public.kidx_mib_to_bytes('3.5'::double precision)",
	'public.kidx_comparability_key(public.kidx_digest,public.kidx_digest,public.kidx_digest)' =>
	  'SELECT public.kidx_comparability_key(%P1%, %W1%, %E1%)',
	'public.kidx_comparability_key(jsonb)' => 'SELECT public.kidx_comparability_key(%B1%)',
	'public.kidx_comparable(jsonb,jsonb)' => 'SELECT public.kidx_comparable(%B1%, %B2%)',
	'kernelindex.runs_comparable(kernelindex.runs,kernelindex.runs)' => 'SELECT kernelindex.runs_comparable(%R1%, %R2%)',
	'kernelindex.ingest_bundles(jsonb[])' => 'SELECT kernelindex.ingest_bundles(ARRAY[%B1%, %B2%])',
	'kernelindex.ingest_document(jsonb)' => 'SELECT kernelindex.ingest_document(%B1%)',
	'kernelindex_internal.run_bundle_of(kernelindex.runs,public.kidx_digest,public.kidx_digest,public.kidx_digest,public.kidx_digest,text,text,text,boolean)'
	  => 'SELECT kernelindex_internal.run_bundle_of(%R1%, %P1%, %W1%, %E1%, %I1%, %L1%, %N1%, %X1%, true)',
	'kernelindex.run_json(kernelindex.runs)' => 'SELECT kernelindex.run_json(%R1%)',
	'kernelindex.run_document(public.kidx_digest)' => 'SELECT kernelindex.run_document(%D1%)',
	'kernelindex.run_bundle(public.kidx_digest)' => 'SELECT kernelindex.run_bundle(%D1%)',
	'kernelindex.liger_row_fault(kernelindex.liger_rows)' => "SELECT kernelindex.liger_row_fault($liger_row)",
	'kernelindex.liger_slug(text)' => "SELECT kernelindex.liger_slug('NVIDIA A100-SXM4-80GB')",
		'kernelindex.liger_workload_label(text,text,jsonb,jsonb)' =>
	  q{SELECT kernelindex.liger_workload_label('sparsemax', 'V', '16384'::jsonb, '{"B": 4, "T": 512, "dim": -1, "dtype": "torch.float32", "extra": "x"}'::jsonb)},
		'kernelindex.liger_protocol(text,text)' => "SELECT kernelindex.liger_protocol('memory', 'sideways')",
	'kernelindex.liger_environment(text)' => "SELECT kernelindex.liger_environment('Quadro Unknown 9000')",
	'kernelindex.liger_implementation(text,text)' => "SELECT kernelindex.liger_implementation('sparsemax', 'torch')",
	'kernelindex.liger_workload(text,text,text,text,text)' =>
	  q{SELECT kernelindex.liger_workload('sparsemax', 'V', 'feature size', '16384', '{"B": 4, "T": 512, "dim": -1, "dtype": "torch.float32"}')},
	'kernelindex_internal.external_id_of(text,text,text,text,timestamp with time zone)' =>
	  "SELECT kernelindex_internal.external_id_of('labelled', 'sparsemax/forward', 'liger/nvidia-a100', 'n8', '2025-04-28 00:38:08.5+00'::timestamptz)",
	'kernelindex.release_version_key(text)' => "SELECT kernelindex.release_version_key('v0.5.10rc1')",
	'kernelindex.ratio(bigint,bigint)' => 'SELECT kernelindex.ratio(10, 4)',
	'kernelindex.bands_apart(bigint,bigint,bigint,bigint)' => 'SELECT kernelindex.bands_apart(1, 2, 3, 4)',
	'kernelindex.ns_to_ms(bigint)' => 'SELECT kernelindex.ns_to_ms(2628608)',
	'kernelindex.bytes_to_mib(bigint)' => 'SELECT kernelindex.bytes_to_mib(1572864)',
	'kernelindex_internal.dictionary_hash(text)' => "SELECT kernelindex_internal.dictionary_hash('sparsemax/backward'::text)",
	'kernelindex_internal.dictionary_hash(jsonb)' => q{SELECT kernelindex_internal.dictionary_hash('{"liger_version": "0.5.8"}'::jsonb)},
	'kernelindex_internal.template_hash(jsonb,text,text,integer,text,text)' =>
	  q{SELECT kernelindex_internal.template_hash('{"kind": "BenchmarkRun", "spec": {"timing": {"latencyNs": {}}}}'::jsonb, 'from_external_id', 'liger-', 100, 'stem', 'ms')});

# Functions that cannot be called from SQL, and the statements of the
# exercise (below) that run them.
my %indirect = (
	'public.kidx_digest_in(cstring)' => 'cast text to kidx_digest',
	'public.kidx_digest_recv(internal)' => 'binary COPY of digests in',
	'public.kidx_digest_sortsupport(internal)' => 'btree index on digests',
	'kernelindex_internal.runs_references_check()' => 'INSERT into runs',
	'kernelindex_internal.runs_references_guard()' => 'DELETE a title no run uses',
	'kernelindex_internal.identity_guard()' => 'UPDATE a row of comparability_keys (refused)',
	'kernelindex_internal.workloads_label_guard()' => "UPDATE the label of a workload (refused)",
	'kernelindex_internal.documents_begin()' => 'COPY documents in',
	'kernelindex_internal.documents_row()' => 'COPY documents in',
	'kernelindex_internal.documents_end()' => 'COPY documents in',
	'kernelindex_internal.liger_begin()' => 'COPY Liger CSV in',
	'kernelindex_internal.liger_row()' => 'COPY Liger CSV in',
	'kernelindex_internal.liger_end()' => 'COPY Liger CSV in',
	'kernelindex_internal.run_rows_begin()' => 'INSERT run_rows',
	'kernelindex_internal.run_rows_row()' => 'INSERT run_rows',
	'kernelindex_internal.run_rows_end()' => 'INSERT run_rows');

# The tables runs refer to (each guarded by three triggers), in the order of
# KidxStore::RUN_REFERENCES.
my @referenced;
{
	my %seen;
	@referenced = grep { !$seen{$_}++ } map { $_->[1] } @KidxStore::RUN_REFERENCES;
}

# The statements of the exercise that fire each trigger of the extension
# (and what the trigger then says, for those that refuse).
my %trigger_fired_by = (
	liger_begin => [ 'COPY Liger CSV in' ], liger_row => [ 'COPY Liger CSV in' ], liger_end => [ 'COPY Liger CSV in' ],
	run_rows_begin => [ 'INSERT run_rows' ], run_rows_row => [ 'INSERT run_rows' ], run_rows_end => [ 'INSERT run_rows' ],
	documents_begin => [ 'COPY documents in' ], documents_row => [ 'COPY documents in' ],
	documents_end => [ 'COPY documents in' ],
	runs_references_insert => [ 'INSERT into runs' ],
	runs_identity => [ 'UPDATE runs (refused)', qr/the latency_ns of a row of kernelindex.runs cannot be changed/ ],
	workloads_label => [ "UPDATE the label of a workload (refused)", qr/the label of workload .* cannot change/ ],
	(map { ("${_}_identity" => [ "UPDATE a row of $_ (refused)", qr/cannot be changed/ ]) }
	  qw(comparability_keys protocols environments workloads implementations)),
	(map { ("${_}_delete" => [ "DELETE a used row of $_ (refused)", qr/violates the reference from table "runs"/ ],
		"${_}_truncate" => [ "TRUNCATE $_ alone (refused)", qr/cannot truncate table "$_": runs refer to its rows/ ],
		/^run_/ ? ("${_}_update" => [ "UPDATE a row of $_ (refused)", qr/cannot be changed/ ]) : ()) } @referenced),
	# (the resources comparability keys name)
	map { ("${_}_delete" => [ "DELETE a used row of $_ (refused)", qr/violates the reference from table "comparability_keys"/ ],
		"${_}_truncate" => [ "TRUNCATE $_ alone (refused)", qr/cannot truncate table "$_": comparability keys refer to its rows/ ]) }
	  qw(protocols environments workloads));

# For a function this test does not know yet: arguments by type.
my %default_arg = (
	'text' => "'x'::text", 'integer' => '1', 'bigint' => '1::bigint', 'numeric' => '1.5::numeric',
	'double precision' => '1.5::double precision', 'boolean' => 'true', 'jsonb' => "'{}'::jsonb",
	'timestamp with time zone' => "'2025-01-01 00:00:00+00'::timestamptz",
	'public.kidx_digest' => '%D1%', 'jsonb[]' => 'ARRAY[%B1%]', 'text[]' => "ARRAY['x']",
	'integer[]' => 'ARRAY[1]', 'bytea' => "'\\x00'::bytea", 'kernelindex.runs' => '%R1%',
	'kernelindex.liger_rows' => $liger_row);

my $ext_functions = q{
SELECT p.oid::regprocedure, pg_get_function_identity_arguments(p.oid) FROM pg_proc p
JOIN pg_depend d ON d.classid = 'pg_proc'::regclass AND d.objid = p.oid
	AND d.refclassid = 'pg_extension'::regclass AND d.deptype = 'e'
JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'kernelindex'
ORDER BY 1::text};

# The statement calling a function; (statement, how) or (undef, indirect tag).
sub call_of
{
	my ($sig, $idargs) = @_;
	return ($call{$sig}, 'explicit') if exists $call{$sig};
	return (undef, $indirect{$sig}) if exists $indirect{$sig};
	my ($list) = $sig =~ /\((.*)\)$/;
	my @types = map { s/^\s+|\s+$//gr } split /,/, $list;
	return (undef, undef) if grep { !exists $default_arg{$_} } @types;
	(my $name = $sig) =~ s/\(.*//;
	return ("SELECT $name(" . join(', ', map { $default_arg{$_} } @types) . ')', 'generic');
}

sub fill
{
	my ($sql) = @_;
	$sql =~ s/%(\w+)%/exists $V{$1} ? $V{$1} : die "no value for %$1%"/ge;
	return $sql;
}

# Values of a loaded store, for the calls.
sub load_values
{
	my ($db) = @_;
	my @refcols = map { $_->[0] } @KidxStore::RUN_REFERENCES;
	my @r = split /\n/, hq($db, q{
SELECT r.digest::text, p.digest::text, w.digest::text, e.digest::text, i.digest::text,
	quote_nullable(w.label) || '::text', quote_nullable(n.value) || '::text', quote_nullable(x.value) || '::text', }
	  . join(", ", map { "coalesce(r.${_}::text, 'NULL')" } @refcols) . q{
FROM kernelindex.runs r
JOIN kernelindex.comparability_keys k ON k.key OPERATOR(public.=) r.comparability_key
JOIN kernelindex.protocols p ON p.id = k.protocol_id
JOIN kernelindex.workloads w ON w.id = k.workload_id
JOIN kernelindex.environments e ON e.id = k.environment_id
JOIN kernelindex.implementations i ON i.id = r.implementation_id
LEFT JOIN kernelindex.run_strings n ON n.id = r.name_id
LEFT JOIN kernelindex.run_strings x ON x.id = r.external_id_id
ORDER BY r.digest::text LIMIT 2});
	die "no runs in $db" unless @r == 2;
	for my $i (1, 2)
	{
		my ($d, $p, $w, $e, $impl, $label, $name, $xid, @refs) = split /\|/, $r[ $i - 1 ];
		$V{"D$i"} = "'$d'::public.kidx_digest";
		$V{"P$i"} = "'$p'::public.kidx_digest";
		$V{"W$i"} = "'$w'::public.kidx_digest";
		$V{"E$i"} = "'$e'::public.kidx_digest";
		$V{"I$i"} = "'$impl'::public.kidx_digest";
		$V{"L$i"} = $label;
		$V{"N$i"} = $name;
		$V{"X$i"} = $xid;
		# the run's reference columns but its key, as a VALUES list
		$V{"REFS$i"} = join(', ', @refs[ 1 .. $#refs ]);
		# the row of each table it refers to (the first of its columns that names one)
		for my $k (0 .. $#refcols)
		{
			my ($col, $table, $key) = @{ $KidxStore::RUN_REFERENCES[$k] };
			next if exists $V{"ROW_${table}_$i"} || $refs[$k] eq 'NULL';
			$V{"ROW_${table}_$i"} = $key eq 'key' ? "'$refs[$k]'::public.kidx_digest" : $refs[$k];
			$V{"COL_${table}_$i"} = $col;
		}
		$V{"B$i"} = sqlstr(hq($db, "SELECT kernelindex.run_document('$d'::public.kidx_digest)")) . '::jsonb';
		# the run's row as a literal: no table read, no operator
		$V{"R$i"} = sqlstr(hq($db, "SELECT r::text FROM kernelindex.runs r WHERE r.digest OPERATOR(public.=) $V{\"D$i\"}"))
		  . '::kernelindex.runs';
	}
	$V{REFCOLS} = join(', ', @refcols[ 1 .. $#refcols ]);
	$V{NEWDIGEST} = hq($db, "SELECT public.kidx_canonical_digest('{\"new\": 1}'::jsonb)::text");
	$V{KEY1} = hq($db, "SELECT comparability_key::text FROM kernelindex.runs WHERE digest OPERATOR(public.=) $V{D1}");
}

# The statements that load, export, delete and read, as a user would; the
# values they need come from %V (filled after the first loads).
sub exercise
{
	my ($prefix) = @_;
	my $r = $records[0];
	my @s = (
		[ 'INSERT documents', 'INSERT INTO kernelindex.documents VALUES (' . sqlstr($record_docs[0]) . '::jsonb), ('
			  . sqlstr($record_docs[1] =~ s/2025-/2024-/gr) . '::jsonb)', 'ok' ],
		[ 'ingest_document (reference record)', 'SELECT kernelindex.ingest_document(' . sqlstr($record_docs[1]) . '::jsonb)', 'ok' ],
		[ 'ingest_bundles (reference records, shifted)', 'SELECT kernelindex.ingest_bundles(ARRAY['
			  . join(', ', map { sqlstr(s/2025-/2023-/gr) . '::jsonb' } @record_docs) . '])', 'ok' ],
		[ 'COPY Liger CSV in', "COPY kernelindex.liger_rows FROM '$sample' WITH (FORMAT csv, HEADER MATCH)", 'ok' ],
		[ 'INSERT Liger row', "INSERT INTO kernelindex.liger_rows VALUES $row_values", 'ok' ],
		[ 'INSERT run_rows', q{INSERT INTO kernelindex.run_rows (harness, kernel, implementation, gpu, observed_at, unit, mean, stddev, samples, workload)}
			  . q{ VALUES ('traps', 'k', 'torch', 'NVIDIA L4', '2025-01-01T00:00:00Z', 'ms', '1.5', '0.1', '10', '{"n": 1}'),}
			  . q{ ('traps', 'k', 'triton', 'An unknown GPU', '2025-01-01T00:00:01Z', 'us', '1400', '90', '10', '{"n": 1}')}, 'ok' ],
		[ 'INSERT run_rows (refused)', q{INSERT INTO kernelindex.run_rows (harness, kernel, implementation, gpu, observed_at, unit, mean)}
			  . q{ VALUES ('traps', 'k', 'torch', 'NVIDIA L4', '2025-01-01T00:00:00Z', 'parsecs', '1')}, 'refused' ],
		[ 'SET quarantine', "SET kernelindex.on_bad_row = 'quarantine'", 'ok' ],
		[ 'COPY bad Liger CSV in (quarantine)', "COPY kernelindex.liger_rows FROM '$bad_rows' WITH (FORMAT csv, HEADER MATCH)", 'ok' ],
		[ 'RESET quarantine', 'RESET kernelindex.on_bad_row', 'ok' ],
		[ 'COPY bad Liger CSV in (refused)', "COPY kernelindex.liger_rows FROM '$bad_rows' WITH (FORMAT csv, HEADER MATCH)", 'refused' ],
		[ 'COPY documents in', "COPY kernelindex.documents FROM '$later_docs' $doc_copy_opts", 'ok' ],
		[ 'bad document refused', q{SELECT kernelindex.ingest_document('{"run": {"kind": "BenchmarkRun"}}'::jsonb)}, 'refused' ],
	);
	return @s if $prefix eq 'loads';
	@s = (
		[ 'INSERT into runs', 'INSERT INTO kernelindex.runs (comparability_key, digest, %REFCOLS%, observed_at, latency_ns)'
			  . " VALUES ('%KEY1%'::public.kidx_digest, '%NEWDIGEST%'::public.kidx_digest, %REFS1%, '2030-01-01 00:00:00+00', 1)", 'ok' ],
		[ 'UPDATE runs (refused)', "UPDATE kernelindex.runs SET latency_ns = 2 WHERE digest OPERATOR(public.=) '%NEWDIGEST%'::public.kidx_digest", 'refused' ],
		# what runs refer to is never changed, deleted or truncated away
		(map {
			my $t = $_;
			my $where = "WHERE " . ($t eq 'comparability_keys' ? 'key OPERATOR(public.=)' : 'id OPERATOR(pg_catalog.=)')
			  . " %ROW_${t}_1%";
			my $set = $t eq 'comparability_keys' ? "key = '%NEWDIGEST%'::public.kidx_digest"
			  : $t eq 'implementations' ? 'id = id OPERATOR(pg_catalog.+) 1000000' : 'value = value';
			([ "UPDATE a row of $t (refused)", "UPDATE kernelindex.$t SET $set $where", 'refused' ],
			 [ "DELETE a used row of $t (refused)", "DELETE FROM kernelindex.$t $where", 'refused' ],
			 [ "TRUNCATE $t alone (refused)", "TRUNCATE kernelindex.$t", 'refused' ])
		} @referenced),
		# what a resource is never changes, nor a workload's label; what a
		# comparability key names is never deleted or truncated away
		(map {
			([ "UPDATE a row of $_ (refused)", "UPDATE kernelindex.$_ SET id = id OPERATOR(pg_catalog.+) 1000000"
				  . " WHERE id OPERATOR(pg_catalog.=) (SELECT pg_catalog.min(id) FROM kernelindex.$_)", 'refused' ],
			 [ "DELETE a used row of $_ (refused)", "DELETE FROM kernelindex.$_"
				  . " WHERE id OPERATOR(pg_catalog.=) (SELECT pg_catalog.min(id) FROM kernelindex.$_)", 'refused' ],
			 [ "TRUNCATE $_ alone (refused)", "TRUNCATE kernelindex.$_", 'refused' ])
		} qw(protocols environments workloads)),
		[ "UPDATE the label of a workload (refused)", "UPDATE kernelindex.workloads"
			  . " SET document = pg_catalog.jsonb_set(document, '{metadata,labels,label}', '\"x\"'::jsonb)"
			  . " WHERE (document OPERATOR(pg_catalog.#>>) '{metadata,labels,label}') IS NOT NULL", 'refused' ],
		[ 'DELETE a run', "DELETE FROM kernelindex.runs WHERE digest OPERATOR(public.=) '%NEWDIGEST%'::public.kidx_digest", 'ok' ],
		[ 'export documents', "COPY (SELECT document FROM kernelindex.documents) TO '$dir/export_$prefix.jsonl' $doc_copy_opts", 'ok' ],
		[ 'cast text to kidx_digest', "SELECT '%NEWDIGEST%'::public.kidx_digest", 'ok' ],
		[ 'cast kidx_digest to text and bytea', 'SELECT %D1%::text, %D1%::bytea, public.kidx_digest_to_bytea(%D1%)::public.kidx_digest', 'ok' ],
		[ 'operators on digests', 'SELECT %D1% OPERATOR(public.=) %D2%, %D1% OPERATOR(public.<>) %D2%, %D1% OPERATOR(public.<) %D2%,'
			  . ' %D1% OPERATOR(public.<=) %D2%, %D1% OPERATOR(public.>) %D2%, %D1% OPERATOR(public.>=) %D2%', 'ok' ],
		[ 'comparable documents and runs', 'SELECT %B1% OPERATOR(public.~=~) %B2%, %R1% OPERATOR(public.~=~) %R2%', 'ok' ],
		[ 'binary COPY of digests out', "COPY (SELECT digest FROM kernelindex.runs) TO '$dir/digests_$prefix.bin' WITH (FORMAT binary)", 'ok' ],
		[ 'table of digests', "CREATE TABLE public.d_$prefix (d public.kidx_digest)", 'ok' ],
		[ 'binary COPY of digests in', "COPY public.d_$prefix FROM '$dir/digests_$prefix.bin' WITH (FORMAT binary)", 'ok' ],
		[ 'btree index on digests', "CREATE INDEX ON public.d_$prefix (d)", 'ok' ],
		[ 'hash index on digests', "CREATE INDEX ON public.d_$prefix USING hash (d)", 'ok' ],
		[ 'sort digests', "SELECT d FROM public.d_$prefix ORDER BY d LIMIT 3", 'ok' ],
		[ 'hash join: no merge join', 'SET enable_mergejoin = off', 'ok' ],
		[ 'hash join: no nested loop', 'SET enable_nestloop = off', 'ok' ],
		[ 'hash join on digests', "SELECT pg_catalog.count(*) FROM public.d_$prefix a JOIN kernelindex.runs r ON r.digest OPERATOR(public.=) a.d", 'ok' ],
		[ 'hash join: reset merge join', 'RESET enable_mergejoin', 'ok' ],
		[ 'hash join: reset nested loop', 'RESET enable_nestloop', 'ok' ],
		[ 'hash partitioned table of digests', "CREATE TABLE public.p_$prefix (d public.kidx_digest) PARTITION BY HASH (d)", 'ok' ],
		[ 'hash partition 0', "CREATE TABLE public.p0_$prefix PARTITION OF public.p_$prefix FOR VALUES WITH (MODULUS 2, REMAINDER 0)", 'ok' ],
		[ 'hash partition 1', "CREATE TABLE public.p1_$prefix PARTITION OF public.p_$prefix FOR VALUES WITH (MODULUS 2, REMAINDER 1)", 'ok' ],
		[ 'hash partitions on digests', "INSERT INTO public.p_$prefix SELECT d FROM public.d_$prefix", 'ok' ],
	);
	return @s if $prefix !~ /^end/;
	return (
		[ 'DELETE the runs of a title', 'DELETE FROM kernelindex.runs WHERE title_id OPERATOR(pg_catalog.=) %ROW_run_titles_2%', 'ok' ],
		[ 'DELETE a title no run uses', 'DELETE FROM kernelindex.run_titles WHERE id OPERATOR(pg_catalog.=) %ROW_run_titles_2%', 'ok' ],
		[ 'TRUNCATE the store', 'TRUNCATE ' . join(', ', map { "kernelindex.$_" }
			qw(runs comparability_keys protocols environments workloads implementations), @KidxStore::DICTIONARIES), 'ok' ]);
}

# ----------------------------------------------------------------------
# (a) Traps
# ----------------------------------------------------------------------

# The names the install script and the SPI queries of the C code use.
my $sharedir = `pg_config --sharedir`;
chomp $sharedir;
my $pkglibdir = `pg_config --pkglibdir`;
chomp $pkglibdir;
my ($version) = slurp_file("$sharedir/extension/kernelindex.control") =~ /default_version\s*=\s*'([^']+)'/;
# (and the upgrade scripts, which ALTER EXTENSION kernelindex UPDATE runs)
my $script = join("\n", map { slurp_file($_) } "$sharedir/extension/kernelindex--$version.sql",
	glob("$sharedir/extension/kernelindex--*--*.sql"));
my $so = slurp_file("$pkglibdir/kernelindex.so");
my @spi = grep { /\b(?:SELECT|INSERT|UPDATE|DELETE)\b/ && /\b(?:FROM|INTO|SET)\b/ } $so =~ /([\x20-\x7e]{16,})/g;
note 'SPI query texts found in kernelindex.so: ' . scalar @spi;
my (%fname, %oname);
for my $text ($script, @spi)
{
	(my $t = $text) =~ s{('(?:[^']|'')*')|(/\*.*?\*/)|(--[^\n]*)}{defined $1 ? "''" : ' '}gse;
	$fname{ lc $1 }++ while $t =~ /(?<![.\w"@])([A-Za-z_]\w*)\s*\(/g;
	$fname{ lc $1 }++ while $t =~ /\bpg_catalog\.([A-Za-z_]\w*)\s*\(/g;
	$oname{$1}++ while $t =~ /OPERATOR\(\s*[\w@"]+\.([^\s)]+)\s*\)/g;
	$t =~ s/OPERATOR\([^)]*\)//g;
	$oname{$1}++ while $t =~ /(?<![-+*\/<>=~!@#%^&|`?])([-+*\/<>=~!@#%^&|`?]+)(?![-+*\/<>=~!@#%^&|`?])/g;
}
# The ones issue 12 names, whether used or not.
$fname{$_}++ for qw(jsonb_build_object coalesce nullif lower split_part format count sum array_agg unnest
  to_jsonb jsonb_set string_agg min max substr replace regexp_replace);
$oname{$_}++ for split / /, '= <> || -> ->> #> #>> @> < <= > >= + - * ~ ?';
my $fnames = '{' . join(',', sort keys %fname) . '}';
my $onames = '{' . join(',', map { qq{"$_"} } sort keys %oname) . '}';
note 'operator tokens in the script and SPI queries (and named by issue 12): ' . join(' ', sort keys %oname);

# Plant traps in schema $nsp: for every pg_catalog function and operator of
# those names, or ($ext) every function and operator of the extension.
# Returns how many.
my $plant_sql = <<'SQL';
DO $plant$
DECLARE
	nsp text := __NSP__;
	fnames text[] := __FNAMES__;
	onames text[] := __ONAMES__;
	ext boolean := __EXT__;
	concrete text[] := ARRAY['text', 'jsonb', 'bigint', 'integer', 'numeric', 'boolean',
		'timestamp with time zone', 'double precision'];
	poly text := '\m(anyelement|anynonarray|anycompatible|anycompatiblenonarray|anyenum)\M';
	polyarr text := '\m(anyarray|anycompatiblearray)\M';
	p record; o record; v text; m int; lists text[]; a text; r text; l text; rt text;
	fn text; label text; body text; ddl text;
	planted int := 0; failed int := 0; hit text[] := '{}';
BEGIN
	FOR p IN
		SELECT pr.oid, pr.proname, pr.prokind, pg_get_function_arguments(pr.oid) AS args,
			pg_get_function_result(pr.oid) AS res
		FROM pg_proc pr
		WHERE pr.prokind IN ('f', 'a', 'w') AND CASE WHEN ext THEN pr.oid IN (
				SELECT d.objid FROM pg_depend d JOIN pg_extension e ON e.oid = d.refobjid
				WHERE d.classid = 'pg_proc'::regclass AND d.refclassid = 'pg_extension'::regclass
				AND d.deptype = 'e' AND e.extname = 'kernelindex')
			ELSE pr.pronamespace = 'pg_catalog'::regnamespace AND pr.proname = ANY (fnames) END
	LOOP
		FOREACH v IN ARRAY ARRAY['exact'] || concrete LOOP
			a := p.args;
			r := p.res;
			IF v <> 'exact' THEN
				CONTINUE WHEN a !~ (poly || '|' || polyarr || '|"any"');
				a := regexp_replace(regexp_replace(a, polyarr, v || '[]', 'g'), poly, v, 'g');
				r := regexp_replace(regexp_replace(r, polyarr, v || '[]', 'g'), poly, v, 'g');
			END IF;
			-- VARIADIC "any": 1 to 6 arguments of the type, or text and the type alternating
			lists := ARRAY[a];
			IF a ~ 'VARIADIC "any"' THEN
				lists := '{}';
				CONTINUE WHEN v = 'exact';
				FOR m IN 1 .. 6 LOOP
					lists := lists || replace(a, 'VARIADIC "any"', array_to_string(array_fill(v, ARRAY[m]), ', '));
					lists := lists || replace(a, 'VARIADIC "any"', (SELECT string_agg(CASE WHEN g.n % 2 = 1 THEN 'text' ELSE v END, ', ')
						FROM generate_series(1, m) AS g(n)));
				END LOOP;
			ELSIF v <> 'exact' THEN
				lists := ARRAY[replace(a, '"any"', v)];
			END IF;
			FOREACH l IN ARRAY lists LOOP
				label := nsp || '.' || p.proname || '(' || l || ')';
				body := format('BEGIN RAISE WARNING %L; RAISE EXCEPTION %L; END', 'TRAP ' || label, 'TRAP ' || label);
				BEGIN
					IF p.prokind = 'a' THEN
						fn := 'trap_sfunc_' || left(md5(label), 12);
						EXECUTE format('CREATE FUNCTION %I.%I(%s) RETURNS %s LANGUAGE plpgsql AS %L',
							nsp, fn, r || CASE WHEN l = '' THEN '' ELSE ', ' || l END, r, body);
						EXECUTE format('CREATE AGGREGATE %I.%I(%s) (SFUNC = %I.%I, STYPE = %s)',
							nsp, p.proname, CASE WHEN l = '' THEN '*' ELSE l END, nsp, fn, r);
					ELSE
						EXECUTE format('CREATE FUNCTION %I.%I(%s) RETURNS %s LANGUAGE plpgsql AS %L',
							nsp, p.proname, l, r, body);
					END IF;
					planted := planted + 1;
					hit := hit || p.proname::text;
				EXCEPTION WHEN others THEN
					failed := failed + 1;
				END;
			END LOOP;
		END LOOP;
	END LOOP;
	FOR o IN
		SELECT op.oprname, op.oprkind, op.oprleft::regtype::text AS lt, op.oprright::regtype::text AS rt0,
			op.oprresult::regtype::text AS res
		FROM pg_operator op
		WHERE CASE WHEN ext THEN op.oid IN (
				SELECT d.objid FROM pg_depend d JOIN pg_extension e ON e.oid = d.refobjid
				WHERE d.classid = 'pg_operator'::regclass AND d.refclassid = 'pg_extension'::regclass
				AND d.deptype = 'e' AND e.extname = 'kernelindex')
			ELSE op.oprnamespace = 'pg_catalog'::regnamespace AND op.oprname = ANY (onames) END
	LOOP
		FOREACH v IN ARRAY ARRAY['exact'] || concrete LOOP
			l := o.lt; rt := o.rt0; r := o.res;
			IF v <> 'exact' THEN
				CONTINUE WHEN (l || ' ' || rt) !~ (poly || '|' || polyarr);
				l := regexp_replace(regexp_replace(l, polyarr, v || '[]', 'g'), poly, v, 'g');
				rt := regexp_replace(regexp_replace(rt, polyarr, v || '[]', 'g'), poly, v, 'g');
				r := regexp_replace(regexp_replace(r, polyarr, v || '[]', 'g'), poly, v, 'g');
			END IF;
			label := nsp || '.' || o.oprname || ' (' || l || ', ' || rt || ')';
			fn := 'trap_op_' || left(md5(label), 12);
			body := format('BEGIN RAISE WARNING %L; RAISE EXCEPTION %L; END', 'TRAP ' || label, 'TRAP ' || label);
			BEGIN
				IF o.oprkind = 'l' THEN
					EXECUTE format('CREATE FUNCTION %I.%I(%s) RETURNS %s LANGUAGE plpgsql AS %L', nsp, fn, rt, r, body);
					EXECUTE format('CREATE OPERATOR %I.%s (RIGHTARG = %s, FUNCTION = %I.%I)', nsp, o.oprname, rt, nsp, fn);
				ELSE
					EXECUTE format('CREATE FUNCTION %I.%I(%s, %s) RETURNS %s LANGUAGE plpgsql AS %L', nsp, fn, l, rt, r, body);
					EXECUTE format('CREATE OPERATOR %I.%s (LEFTARG = %s, RIGHTARG = %s, FUNCTION = %I.%I)',
						nsp, o.oprname, l, rt, nsp, fn);
				END IF;
				planted := planted + 1;
				hit := hit || o.oprname::text;
			EXCEPTION WHEN others THEN
				failed := failed + 1;
			END;
		END LOOP;
	END LOOP;
	RAISE NOTICE 'planted % traps in % (% signatures not creatable), names: %', planted, nsp, failed,
		(SELECT string_agg(DISTINCT x, ' ') FROM unnest(hit) x);
END
$plant$;
SQL

sub plant
{
	my ($db, $nsp, $ext) = @_;
	my $sql = $plant_sql;
	$sql =~ s/__NSP__/sqlstr($nsp)/e;
	$sql =~ s/__FNAMES__/sqlstr($fnames)/e;
	$sql =~ s/__ONAMES__/sqlstr($onames)/e;
	$sql =~ s/__EXT__/$ext ? 'true' : 'false'/e;
	my ($out, $err) = ('', '');
	my $ret = $node->psql($db, "SET search_path = pg_catalog;\n$sql", stdout => \$out, stderr => \$err, on_error_stop => 1);
	die "planting traps failed: $err" if $ret != 0;
	my ($n, $failed, $names) = $err =~ /planted (\d+) traps in \S+ \((\d+) signatures not creatable\), names: (.*)/;
	die "planting traps said: $err" unless defined $n;
	note "planted $n traps in $nsp" . ($ext ? " (copies of the extension's own functions and operators)" : '')
	  . " ($failed signatures plpgsql cannot take skipped): $names";
	return $n;
}

# Check a batch of results: no trap anywhere, statements as expected.
sub check_batch
{
	my ($what, $stmts, $res, $out, $err) = @_;
	my @fired;
	for my $s (@$stmts)
	{
		my ($state, $msg) = @{ $res->{ $s->[0] } };
		my $expect = $s->[2] // 'ok';
		if ("$msg" =~ /TRAP|trap_schema/)
		{
			push @fired, "$s->[0]: $msg";
			next;
		}
		if ($expect eq 'ok')
		{
			is($state, '00000', "$what: $s->[0]" . ($state eq '00000' ? '' : ": $msg"));
		}
		elsif ($expect eq 'refused')
		{
			isnt($state, '00000', "$what: $s->[0]: refused ($state: $msg)");
		}
		else
		{
			note "$what: $s->[0]: " . ($state eq '00000' ? 'ran' : "raised $state: $msg");
		}
	}
	my @warnings = grep { /TRAP/ } split /\n/, $err;
	push @fired, @warnings;
	is(scalar @fired, 0, "$what: no trap fired") or diag join("\n", @fired);
}

my @views = split /\n/, hq('docsrc', q{
SELECT c.oid::regclass FROM pg_class c JOIN pg_depend d ON d.classid = 'pg_class'::regclass AND d.objid = c.oid
	AND d.refclassid = 'pg_extension'::regclass AND d.deptype = 'e'
JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'kernelindex'
WHERE c.relkind = 'v' ORDER BY 1::text});
my @tables = split /\n/, hq('docsrc', q{
SELECT c.oid::regclass FROM pg_class c JOIN pg_depend d ON d.classid = 'pg_class'::regclass AND d.objid = c.oid
	AND d.refclassid = 'pg_extension'::regclass AND d.deptype = 'e'
JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'kernelindex'
WHERE c.relkind = 'r' ORDER BY 1::text});
note 'views of the extension: ' . join(' ', @views);
note 'tables of the extension: ' . join(' ', @tables);

for my $path ('trap_schema, public', 'trap_schema, public, pg_catalog')
{
	my $db = $path =~ /pg_catalog/ ? 'traps_strict' : 'traps';
	my $what = "search_path '$path'";
	$node->safe_psql('postgres', "CREATE DATABASE $db");
	$node->safe_psql($db, 'CREATE SCHEMA trap_schema');
	plant($db, 'trap_schema', 0);
	plant($db, 'public', 0);

	# CREATE EXTENSION with the traps in place, from a session whose
	# search_path puts them first.
	# (SCHEMA public: without it the extension would go to the first schema
	# of that path, trap_schema itself.)
	my ($res, $out, $err) = run_batch($db, [ [ 'CREATE EXTENSION', 'CREATE EXTENSION kernelindex SCHEMA public' ] ], path => $path);
	check_batch("$what: before CREATE EXTENSION", [ [ 'CREATE EXTENSION', '', 'ok' ] ], $res, $out, $err);

	# Traps planted after CREATE EXTENSION: the extension's own names.
	plant($db, 'trap_schema', 1);

	# Load through every path, then call everything.
	my @loads = exercise('loads');
	($res, $out, $err) = run_batch($db, [ map { [ $_->[0], $_->[1] ] } @loads ], path => $path);
	check_batch("$what: load", \@loads, $res, $out, $err);
	my %all = %$res;
	load_values($db);

	my @stmts = map { [ $_->[0], fill($_->[1]), $_->[2] ] } exercise("mid_$db");
	my %how;
	for my $f (split /\n/, hq($db, $ext_functions))
	{
		my ($sig, $idargs) = split /\|/, $f, 2;
		my ($sql, $how) = call_of($sig, $idargs // '');
		if (defined $sql)
		{
			push @stmts, [ "call $sig", fill($sql), $how eq 'generic' ? 'try' : 'ok' ];
			$how{$sig} = $how;
		}
		else
		{
			$how{$sig} = defined $how ? "through '$how'" : undef;
		}
	}
	push @stmts, map { [ "read $_", "SELECT * FROM $_", 'ok' ] } @views, @tables;
	push @stmts, map { [ $_->[0], fill($_->[1]), $_->[2] ] } exercise("end_$db");
	($res, $out, $err) = run_batch($db, \@stmts, path => $path);
	check_batch("$what: use", \@stmts, $res, $out, $err);
	%all = (%all, %$res);
	for my $sig (sort keys %how)
	{
		ok(defined $how{$sig}, "$what: $sig is exercised" . (defined $how{$sig} ? " ($how{$sig})" : ': add it to %call or %indirect'));
		if (defined $how{$sig} && $how{$sig} =~ /^through '(.*)'$/)
		{
			# a trigger that only refuses runs through a statement it refuses
			my $state = $all{$1}[0] // 'not run';
			if ($1 =~ /\(refused\)$/)
			{
				ok($state ne '00000' && $state ne 'not run', "$what: $sig ran through '$1' (refused: $state)");
			}
			else
			{
				is($state, '00000', "$what: $sig ran through '$1'");
			}
		}
	}
	for my $t (split /\n/, hq($db, q{
SELECT t.tgname || ' ON ' || t.tgrelid::regclass::text FROM pg_trigger t
WHERE NOT t.tgisinternal AND t.tgrelid IN (SELECT c.oid FROM pg_class c WHERE c.relnamespace = 'kernelindex'::regnamespace)
ORDER BY 1}))
	{
		my ($name) = split / /, $t;
		my $by = $trigger_fired_by{$name};
		if (!defined $by)
		{
			fail("$what: trigger $t is fired: add it to %trigger_fired_by");
			next;
		}
		my ($state, $msg) = @{ $all{ $by->[0] } // [ 'not run', '' ] };
		if (defined $by->[1])
		{
			like($msg, $by->[1], "$what: trigger $t fired by '$by->[0]' and refused it ($state)");
		}
		else
		{
			is($state, '00000', "$what: trigger $t fired by '$by->[0]'");
		}
	}
	is(hq($db, 'SELECT count(*) FROM kernelindex.runs'), '0', "$what: the store was emptied at the end (TRUNCATE ran)");

	# Controls: the traps are live; unqualified calls of ours do fire them.
	my @controls = (
		[ 'unqualified kidx_canonical()', q{SELECT kidx_canonical('{}'::jsonb)} ],
		[ 'unqualified to_jsonb(text)', q{SELECT to_jsonb('x'::text)} ]);
	push @controls, [ 'unqualified lower(text)', q{SELECT lower('X'::text)} ] if $path =~ /pg_catalog/;
	($res, $out, $err) = run_batch($db, \@controls, path => $path);
	for my $c (@controls)
	{
		like($res->{ $c->[0] }[1], qr/^TRAP trap_schema\./, "$what: control: $c->[0] fires its trap ($res->{$c->[0]}[1])");
	}
}

# Hostile objects planted where the install script creates its own: the
# extension refuses to install rather than adopt them.
$node->safe_psql('postgres', 'CREATE DATABASE hostile_schema');
$node->safe_psql('hostile_schema', 'CREATE ROLE mallory; CREATE SCHEMA kernelindex AUTHORIZATION mallory');
my ($ret, $o, $e) = $node->psql('hostile_schema', 'CREATE EXTENSION kernelindex');
isnt($ret, 0, "a schema kernelindex created beforehand (owned by another role) makes CREATE EXTENSION fail");
like($e, qr/schema "kernelindex" already exists/, "  ... because the schema exists ($e)");
$node->safe_psql('postgres', 'CREATE DATABASE hostile_function');
$node->safe_psql('hostile_function',
	q{CREATE FUNCTION public.kidx_canonical(jsonb) RETURNS text LANGUAGE sql AS $$SELECT 'TRAP'$$});
($ret, $o, $e) = $node->psql('hostile_function', 'CREATE EXTENSION kernelindex');
isnt($ret, 0, 'a function public.kidx_canonical(jsonb) created beforehand makes CREATE EXTENSION fail');
like($e, qr/already exists/, "  ... because the function exists ($e)");

my $log = slurp_file($node->logfile);
my @log_fired = grep { /(?:WARNING|ERROR):\s+TRAP/ } split /\n/, $log;
# The controls fire 2 + 3 traps, each a WARNING and an ERROR.
is(scalar @log_fired, 2 * 5, 'the server log shows the traps of the controls and no other')
  or diag join("\n", @log_fired);

# ----------------------------------------------------------------------
# (b) Volatility, strictness, parallel safety, security
# ----------------------------------------------------------------------

$node->safe_psql('postgres', 'CREATE DATABASE sec');
$node->safe_psql('sec', 'CREATE EXTENSION kernelindex');

# signature | volatility | strict | parallel | security | leakproof | language | SET,
# from the table of doc/reference.md's "Function attributes and privileges",
# the one place they are stated.
my $reference = slurp_file("$top/doc/reference.md");
my ($attr_section) = $reference =~ /^## Function attributes and privileges\n(.*?)^#/ms
  or die "doc/reference.md has no section \"Function attributes and privileges\"";
my $expected_functions = '';
for my $row (grep { /^\| `/ } split /\n/, $attr_section)
{
	my @cell = map { s/^\s+|\s+$//gr =~ s/`//gr } split /\|/, substr($row, 1);
	my $set = $cell[7] // '';
	$expected_functions .= join(' | ', @cell[ 0 .. 6 ]) . ' |' . ($set ne '' ? " $set" : '') . "\n";
}
note "doc/reference.md states the attributes of " . (() = $expected_functions =~ /\n/g) . " functions";

my $functions = hq('sec', q{
SELECT p.oid::regprocedure::text || ' | '
	|| CASE p.provolatile WHEN 'i' THEN 'immutable' WHEN 's' THEN 'stable' ELSE 'volatile' END || ' | '
	|| CASE WHEN p.proisstrict THEN 'strict' ELSE 'called on null input' END || ' | '
	|| CASE p.proparallel WHEN 's' THEN 'safe' WHEN 'r' THEN 'restricted' ELSE 'unsafe' END || ' | '
	|| CASE WHEN p.prosecdef THEN 'definer' ELSE 'invoker' END || ' | '
	|| CASE WHEN p.proleakproof THEN 'leakproof' ELSE '' END || ' | '
	|| l.lanname || ' |'
	|| CASE WHEN p.prokind = 'a' THEN ' (aggregate)' ELSE coalesce(' ' || array_to_string(p.proconfig, ', '), '') END
FROM pg_proc p JOIN pg_language l ON l.oid = p.prolang
JOIN pg_depend d ON d.classid = 'pg_proc'::regclass AND d.objid = p.oid
	AND d.refclassid = 'pg_extension'::regclass AND d.deptype = 'e'
JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'kernelindex'
ORDER BY p.oid::regprocedure::text COLLATE "C"});
note "functions of the extension (signature | volatility | strict | parallel | security | leakproof | language | SET):\n$functions";
is("$functions\n", $expected_functions, 'every function has the volatility, strictness, parallel safety, security, leakproofness and settings doc/reference.md states');
my @definer = grep { / \| definer \| / } split /\n/, $functions;
is(scalar @definer, 0, 'no function is SECURITY DEFINER') or diag join("\n", @definer);

# ----------------------------------------------------------------------
# (c) What PUBLIC may do
# ----------------------------------------------------------------------

my $public = hq('sec', q{
SELECT * FROM (
SELECT 'schema ' || n.nspname AS object, a.privilege_type FROM pg_namespace n,
	aclexplode(coalesce(n.nspacl, acldefault('n', n.nspowner))) a
WHERE n.nspname IN ('kernelindex', 'kernelindex_internal') AND a.grantee = 0
UNION ALL
SELECT CASE c.relkind WHEN 'r' THEN 'table ' WHEN 'v' THEN 'view ' WHEN 'S' THEN 'sequence ' ELSE c.relkind::text || ' ' END
	|| c.oid::regclass::text, a.privilege_type FROM pg_class c,
	aclexplode(coalesce(c.relacl, acldefault((CASE c.relkind WHEN 'S' THEN 's' ELSE 'r' END)::"char", c.relowner))) a
WHERE c.relnamespace IN ('kernelindex'::regnamespace, 'kernelindex_internal'::regnamespace)
	AND c.relkind IN ('r', 'v', 'S', 'm', 'p', 'f') AND a.grantee = 0
UNION ALL
SELECT 'function ' || p.oid::regprocedure::text, a.privilege_type
FROM pg_proc p JOIN pg_depend d ON d.classid = 'pg_proc'::regclass AND d.objid = p.oid
	AND d.refclassid = 'pg_extension'::regclass AND d.deptype = 'e'
JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'kernelindex',
	aclexplode(coalesce(p.proacl, acldefault('f', p.proowner))) a
WHERE a.grantee = 0
UNION ALL
SELECT 'type ' || t.oid::regtype::text, a.privilege_type
FROM pg_type t JOIN pg_depend d ON d.classid = 'pg_type'::regclass AND d.objid = t.oid
	AND d.refclassid = 'pg_extension'::regclass AND d.deptype = 'e'
JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'kernelindex',
	aclexplode(coalesce(t.typacl, acldefault('T', t.typowner))) a
WHERE a.grantee = 0
	-- an array type or a table's row type goes with its base object (from
	-- PostgreSQL 17 on, an extension member too)
	AND NOT (t.typelem <> 0 AND t.typlen = -1)
	AND NOT EXISTS (SELECT 1 FROM pg_class r WHERE r.oid = t.typrelid AND r.relkind <> 'c')
) s ORDER BY s.object COLLATE "C", 2});
# Expected: EXECUTE on every function of the table above (the default);
# USAGE on the type (the default); nothing on the schema kernelindex (so no
# table, view, sequence or function in it is reachable), and nothing on any
# of its tables, views or sequences; USAGE on kernelindex_internal and
# SELECT on its two security_invoker views, which the Citus forms of
# run_document() and run_bundle() read as their caller.
my @expected_public = sort { $a cmp $b } (
	(map { 'function ' . (split / \| /)[0] . '|EXECUTE' } split /\n/, $expected_functions),
	'type public.kidx_digest|USAGE', 'schema kernelindex_internal|USAGE',
	'view kernelindex_internal.key_resources|SELECT', 'view kernelindex_internal.run_refs|SELECT');
note "PUBLIC's privileges:\n$public";
is($public, join("\n", @expected_public),
	"PUBLIC's privileges are exactly EXECUTE on the functions, USAGE on the type and on kernelindex_internal, SELECT on its two security_invoker views");
unlike($public, qr/^(?:schema kernelindex|(?:table|view|sequence) kernelindex\.[^|]*)\|/m,
	'PUBLIC has no privilege on the schema kernelindex, its tables, views or sequences');
is(hq('sec', q{SELECT string_agg(c.oid::regclass::text, ',' ORDER BY c.relname) FROM pg_class c
	WHERE c.relnamespace = 'kernelindex_internal'::regnamespace AND c.relkind = 'v'
	AND has_table_privilege('public', c.oid, 'SELECT')
	AND NOT coalesce('security_invoker=true' = ANY (c.reloptions), false)}), '',
	'every relation PUBLIC may read checks the reader\'s privileges on its tables (security_invoker)');

# ----------------------------------------------------------------------
# (d) A role without rights
# ----------------------------------------------------------------------

$node->safe_psql('sec', 'SELECT kernelindex.ingest_document(' . sqlstr($_) . '::jsonb)') for @record_docs;
$node->safe_psql('sec', "\\copy kernelindex.liger_rows FROM '$sample' WITH (FORMAT csv, HEADER MATCH)");
$node->safe_psql('sec', "SET kernelindex.on_bad_row = 'quarantine'; \\copy kernelindex.liger_rows FROM '$bad_rows' WITH (FORMAT csv, HEADER MATCH)");
$node->safe_psql('sec', 'CREATE ROLE nobody LOGIN');
%V = ();
load_values('sec');

# Every row of every table, and every sequence.
my @sequences = split /\n/, hq('sec', q{
SELECT c.oid::regclass FROM pg_class c WHERE c.relnamespace = 'kernelindex'::regnamespace AND c.relkind = 'S' ORDER BY 1::text});
my $state_sql = join("\nUNION ALL ",
	(map { "SELECT '$_', count(*)::text || ' ' || coalesce(md5(string_agg(t::text, ',' ORDER BY t::text)), '') FROM $_ t" } @tables),
	(map { "SELECT '$_', last_value::text || is_called::text FROM $_" } @sequences),
	"SELECT 'objects', md5(string_agg(c.oid::regclass::text || c.relkind::text || coalesce(c.relacl::text, ''), ',' ORDER BY c.oid)) FROM pg_class c WHERE c.relnamespace = 'kernelindex'::regnamespace",
	"SELECT 'functions', md5(string_agg(p.oid::regprocedure::text || p.prosrc || coalesce(p.proacl::text, '') || p.prosecdef::text, ',' ORDER BY p.oid)) FROM pg_proc p WHERE p.pronamespace IN ('kernelindex'::regnamespace, 'public'::regnamespace)",
	"SELECT 'extension', extversion || extowner::text FROM pg_extension WHERE extname = 'kernelindex'");

my $sample_docs = "$dir/sec_documents.jsonl";
$node->safe_psql('sec',
	"\\copy (SELECT document FROM kernelindex.documents) TO '$sample_docs' $doc_copy_opts");

# A column of each table that may be assigned (not generated, not identity).
my %plain = map { split /\|/ } split /\n/, hq('sec', q{
SELECT DISTINCT ON (a.attrelid) a.attrelid::regclass, quote_ident(a.attname) FROM pg_attribute a
WHERE a.attrelid IN (SELECT c.oid FROM pg_class c WHERE c.relnamespace = 'kernelindex'::regnamespace AND c.relkind = 'r')
	AND a.attnum > 0 AND NOT a.attisdropped AND a.attidentity = '' AND a.attgenerated = ''
ORDER BY a.attrelid, a.attnum});

sub nobody_statements
{
	my ($stage) = @_;
	my @s = (
		[ 'load: \copy Liger CSV', "\\copy kernelindex.liger_rows FROM '$later_csv' WITH (FORMAT csv, HEADER MATCH)" ],
		[ 'load: INSERT Liger row', "INSERT INTO kernelindex.liger_rows VALUES $row_values" ],
		[ 'load: \copy documents', "\\copy kernelindex.documents FROM '$later_docs' $doc_copy_opts" ],
		[ 'load: INSERT document', 'INSERT INTO kernelindex.documents VALUES (' . sqlstr($record_docs[0] =~ s/2025-/2022-/gr) . '::jsonb)' ],
		[ 'load: ingest_document', 'SELECT kernelindex.ingest_document(' . sqlstr($record_docs[1] =~ s/2025-/2022-/gr) . '::jsonb)' ],
		[ 'load: ingest_bundles', 'SELECT kernelindex.ingest_bundles(ARRAY[' . sqlstr($record_docs[1] =~ s/2025-/2021-/gr) . '::jsonb])' ],
		[ 'read: run_document of a known run', "SELECT kernelindex.run_document($V{D1})" ],
		[ 'read: run_bundle of a known run', "SELECT kernelindex.run_bundle($V{D1})" ],
		[ 'read: export documents', "\\copy (SELECT document FROM kernelindex.documents) TO '$dir/nobody_$stage.jsonl' $doc_copy_opts" ]);
	for my $t (@tables, @views)
	{
		next if $stage eq 'select_runs' && $t eq 'kernelindex.runs';
		push @s, [ "read: SELECT $t", "SELECT * FROM $t LIMIT 1" ];
	}
	for my $f (split /\n/, hq('sec', $ext_functions))
	{
		my ($sig, $idargs) = split /\|/, $f, 2;
		next unless $sig =~ /^kernelindex(?:_internal)?\./;
		my ($sql) = call_of($sig, $idargs // '');
		next unless defined $sql;
		next if $sig =~ /ingest_/;    # the loads above
		push @s, [ "function: $sig", fill($sql) ];
	}
	for my $t (@tables)
	{
		push @s, [ "alter: UPDATE $t", "UPDATE $t SET $plain{$t} = $plain{$t}" ],
		  [ "alter: DELETE $t", "DELETE FROM $t" ],
		  [ "alter: TRUNCATE $t", "TRUNCATE $t CASCADE" ],
		  [ "alter: ALTER TABLE $t", "ALTER TABLE $t ADD COLUMN hostile integer" ],
		  [ "alter: DROP TABLE $t", "DROP TABLE $t CASCADE" ];
		push @s, [ "alter: GRANT on $t", "GRANT ALL ON $t TO nobody" ] unless $stage eq 'select_runs' && $t eq 'kernelindex.runs';
	}
	push @s, [ "alter: INSERT INTO $_", "INSERT INTO $_ DEFAULT VALUES" ] for grep { !/runs$/ } @tables;
	push @s, [ 'alter: INSERT INTO kernelindex.runs',
		"INSERT INTO kernelindex.runs (comparability_key, digest, $V{REFCOLS}, observed_at) VALUES ('$V{KEY1}', '$V{NEWDIGEST}', $V{REFS1}, now())" ];
	for my $v (@views)
	{
		push @s, [ "alter: ALTER VIEW $v", "ALTER VIEW $v RENAME TO hostile" ], [ "alter: DROP VIEW $v", "DROP VIEW $v CASCADE" ];
	}
	for my $q (@sequences)
	{
		push @s, [ "alter: nextval $q", "SELECT nextval('$q')" ], [ "alter: setval $q", "SELECT setval('$q', 1000000)" ];
	}
	push @s,
	  [ 'alter: CREATE TABLE in kernelindex', 'CREATE TABLE kernelindex.hostile (x integer)' ],
	  [ 'alter: CREATE FUNCTION in kernelindex', q{CREATE FUNCTION kernelindex.hostile() RETURNS integer LANGUAGE sql AS 'SELECT 1'} ],
	  [ 'alter: replace kernelindex.liger_slug', q{CREATE OR REPLACE FUNCTION kernelindex.liger_slug(s text) RETURNS text LANGUAGE sql AS 'SELECT s'} ],
	  [ 'alter: ALTER FUNCTION run_document SECURITY DEFINER', 'ALTER FUNCTION kernelindex.run_document(public.kidx_digest) SECURITY DEFINER' ],
	  [ 'alter: DROP FUNCTION run_document', 'DROP FUNCTION kernelindex.run_document(public.kidx_digest)' ],
	  [ 'alter: DROP FUNCTION kidx_canonical', 'DROP FUNCTION public.kidx_canonical(jsonb)' ],
	  [ 'alter: DROP TYPE kidx_digest', 'DROP TYPE public.kidx_digest CASCADE' ],
	  [ 'alter: DROP OPERATOR =', 'DROP OPERATOR public.= (public.kidx_digest, public.kidx_digest)' ],
	  [ 'alter: COMMENT ON TABLE runs', q{COMMENT ON TABLE kernelindex.runs IS 'hostile'} ],
	  [ 'alter: DISABLE TRIGGER', 'ALTER TABLE kernelindex.runs DISABLE TRIGGER runs_references_insert' ],
	  [ 'alter: ALTER EXTENSION', 'ALTER EXTENSION kernelindex DROP TABLE kernelindex.runs' ],
	  [ 'alter: DROP EXTENSION', 'DROP EXTENSION kernelindex CASCADE' ],
	  [ 'alter: DROP SCHEMA kernelindex', 'DROP SCHEMA kernelindex CASCADE' ];
	return @s;
}

# The functions that read or write tables, and which; every other function
# of the extension touches no table and may run once the schema is usable.
my %reads = (
	'kernelindex.ingest_bundles' => 'all', 'kernelindex.ingest_document' => 'all',
	'kernelindex_internal.run_bundle_of' => 'protocols, workloads, environments, implementations, the dictionaries',
	'kernelindex.run_json' => 'comparability_keys, protocols, workloads, environments, implementations, the dictionaries',
	'kernelindex.run_document' => 'runs, comparability_keys, the resources, the dictionaries',
	'kernelindex.run_bundle' => 'runs, comparability_keys, the resources, the dictionaries',
	'kernelindex_internal.run_bundle_citus' => 'runs, comparability_keys, the resources, the dictionaries',
	'kernelindex.liger_protocol' => 'liger_passes', 'kernelindex.liger_environment' => 'gpus',
	'kernelindex.liger_implementation' => 'kernels, providers', 'kernelindex.liger_workload' => 'kernels',
	'kernelindex.liger_workload_label' => 'kernels');
# Functions refused for another reason first (and 42501 after it).
my %refused_otherwise = (
	'kernelindex.distribute' => [ '55000', 'needs Citus; with Citus, its ALTER TABLEs need the tables\' owner (42501)' ]);

my %grants = (
	none => '',
	usage => 'GRANT USAGE ON SCHEMA kernelindex TO nobody',
	select_runs => 'GRANT INSERT ON kernelindex.liger_rows, kernelindex.documents TO nobody; GRANT SELECT ON kernelindex.runs TO nobody');
for my $stage ('none', 'usage', 'select_runs')
{
	$node->safe_psql('sec', $grants{$stage}) if $grants{$stage} ne '';
	my $what = { none => 'nobody without any grant', usage => 'nobody with USAGE on schema kernelindex',
		select_runs => 'nobody with USAGE, INSERT on liger_rows and documents, SELECT on runs' }->{$stage};
	my $state = hq('sec', $state_sql);
	my @s = nobody_statements($stage);
	my ($res, $out, $err) = run_batch('sec', \@s, user => 'nobody');
	my (%by_state, @wrong);
	for my $s (@s)
	{
		my ($state, $msg) = @{ $res->{ $s->[0] } };
		my $fn = $s->[0] =~ /^function: ([^(]*)/ ? $1 : undef;
		# (every role may name kernelindex_internal's functions: those that
		# read no table run even for a role without any grant)
		my $may_run = defined $fn && ($stage ne 'none' || $fn =~ /^kernelindex_internal\./)
		  && (!exists $reads{$fn} || ($stage eq 'select_runs' && $reads{$fn} eq 'runs'));
		if (defined $fn && $stage ne 'none' && exists $refused_otherwise{$fn})
		{
			my ($code, $why) = @{ $refused_otherwise{$fn} };
			push @wrong, "$s->[0]: $state $msg" unless $state eq $code || $state eq '42501';
			$by_state{"$state $msg ($why)"}++;
			next;
		}
		if ($may_run)
		{
			push @wrong, "$s->[0] should run: $state $msg" unless $state eq '00000';
			$by_state{'ran (reads no table it may not read)'}++;
			next;
		}
		push @wrong, "$s->[0]: $state $msg" unless $state eq '42501';
		$by_state{"42501 $msg"}++ if $state eq '42501';
	}
	note "$what: " . scalar(@s) . " statements:\n" . join("\n", map { "  $by_state{$_} x $_" } sort keys %by_state);
	is(scalar @wrong, 0, "$what: every load, read and change fails with 42501 (permission denied)")
	  or diag join("\n", @wrong);
	is(hq('sec', $state_sql), $state, "$what: nothing changed");
}

# ----------------------------------------------------------------------
# (e) A loader with the grants doc/reference.md gives: it loads, and removes nothing
# ----------------------------------------------------------------------

my ($loader_grants) = $attr_section =~ /^(GRANT USAGE ON SCHEMA kernelindex TO kidx_loader;.*?)^```/ms
  or die 'doc/reference.md has no loader recipe (GRANT ... TO kidx_loader)';
$node->safe_psql('postgres', 'CREATE DATABASE loader');
$node->safe_psql('loader', 'CREATE EXTENSION kernelindex; CREATE ROLE kidx_loader LOGIN');
$node->safe_psql('loader', $loader_grants);
my @loads = (
	[ 'CSV', "\\copy kernelindex.liger_rows FROM '$sample' WITH (FORMAT csv, HEADER MATCH)" ],
	[ 'CSV again', "\\copy kernelindex.liger_rows FROM '$sample' WITH (FORMAT csv, HEADER MATCH)" ],
	[ 'documents', "\\copy kernelindex.documents FROM '$later_docs' $doc_copy_opts" ],
	[ 'ingest_document', 'SELECT kernelindex.ingest_document(' . sqlstr($record_docs[0]) . '::jsonb)' ]);
for my $l (@loads)
{
	my ($ret, $o, $e) = $node->psql('loader', $l->[1], connstr => $node->connstr('loader') . ' user=kidx_loader');
	is($ret, 0, "kidx_loader (doc/reference.md's grants): $l->[0] loads") or diag $e;
}
# The same loads by the owner, in a database of their own: the same runs.
$node->safe_psql('postgres', 'CREATE DATABASE loader_ref');
$node->safe_psql('loader_ref', 'CREATE EXTENSION kernelindex');
$node->safe_psql('loader_ref', $_->[1]) for @loads;
my $runs_sql = "SELECT count(*) || ' ' || md5(string_agg(digest::text, ',' ORDER BY digest::text)) FROM kernelindex.runs";
my $as_owner = hq('loader', $runs_sql);
is($as_owner, hq('loader_ref', $runs_sql), "kidx_loader's loads stored the runs the owner's do ($as_owner)");
# What the loader may not do: remove runs or what they refer to, change
# what runs refer to (its UPDATE serves to fill in a resource's document),
# drop or disable anything.
my $store_rows = KidxStore::rows_sql([ split / /, hq('loader', KidxStore::tables_sql()) ]);
my $loaded = hq('loader', $store_rows);
my $ref_of = hq('loader', 'SELECT ' . join(', ', map { "(SELECT $_->[0]::text FROM kernelindex.runs ORDER BY digest LIMIT 1)" }
	@KidxStore::RUN_REFERENCES));
my @ref_of = split /\|/, $ref_of;
my %row_of;
for my $k (0 .. $#KidxStore::RUN_REFERENCES)
{
	my ($col, $table, $key) = @{ $KidxStore::RUN_REFERENCES[$k] };
	$row_of{$table} //= "$key = '$ref_of[$k]'" if $ref_of[$k] ne '';
}
my @refused = ('DELETE FROM kernelindex.runs', 'DROP TABLE kernelindex.runs CASCADE',
	'ALTER TABLE kernelindex.runs DISABLE TRIGGER ALL',
	(map { ("TRUNCATE kernelindex.$_ CASCADE", "DELETE FROM kernelindex.$_", "ALTER TABLE kernelindex.$_ DISABLE TRIGGER ALL") }
		@referenced));
for my $s (@refused)
{
	my ($ret, $o, $e) = $node->psql('loader', $s, connstr => $node->connstr('loader') . ' user=kidx_loader');
	like($e, qr/permission denied|must be owner/, "kidx_loader: $s is refused");
}
for my $t (@referenced)
{
	my $set = $t eq 'comparability_keys' ? "key = '$V{NEWDIGEST}'" : $t eq 'implementations' ? 'id = id + 1000000' : 'value = value';
	my $s = "UPDATE kernelindex.$t SET $set WHERE $row_of{$t}";
	my ($ret, $o, $e) = $node->psql('loader', $s, connstr => $node->connstr('loader') . ' user=kidx_loader');
	like($e, qr/cannot be changed/, "kidx_loader: $s is refused");
}
is(hq('loader', $runs_sql), $as_owner, 'kidx_loader removed nothing');
is(hq('loader', $store_rows), $loaded, 'kidx_loader changed no row of any table');

$node->stop;
done_testing();
