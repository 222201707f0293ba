# What the TAP tests know of the store's tables, in one place: the
# dictionaries, what a run refers to, and three queries over them.
#
#   snapshot_sql(@q)  the store by value: one row (what, count, md5) per
#                     table, comparing digests, keys and values, never the
#                     surrogate ids (two stores loaded apart may number
#                     their rows differently and still be equal)
#   dangling_sql()    one row (what, count) per reference a run or a
#                     comparability key makes: rows that point at nothing
#   duplicates_sql()  one row (what, count) per identity: rows stored twice
#   tables_sql()      the names of the tables of kernelindex, space-separated
#   rows_sql(\@t, @q) every row of the tables @t exactly (ids included): one
#                     row (what, "count md5") per table, for a store compared
#                     with itself (before and after a crash, a dump and its
#                     restore), with the extra queries of two columns given
#
# The tests use it with `use lib $FindBin::RealBin; use KidxStore;`.
package KidxStore;

use strict;
use warnings;

# The dictionaries of what runs repeat (kernelindex.run_*: id, hash, value).
our @DICTIONARIES = qw(run_titles run_statuses run_sources run_benchmarks run_strings run_labels
  run_templates);

# Every reference of kernelindex.runs: column, referenced table, its key.
our @RUN_REFERENCES = (
	[ 'comparability_key', 'comparability_keys', 'key' ],
	[ 'implementation_id', 'implementations', 'id' ],
	[ 'template_id', 'run_templates', 'id' ],
	[ 'labels_id', 'run_labels', 'id' ],
	[ 'title_id', 'run_titles', 'id' ],
	[ 'status_id', 'run_statuses', 'id' ],
	[ 'source_id', 'run_sources', 'id' ],
	[ 'benchmark_id', 'run_benchmarks', 'id' ],
	[ 'name_id', 'run_strings', 'id' ],
	[ 'external_id_id', 'run_strings', 'id' ]);

# A dictionary value as text that identifies it (templates with their rules).
sub dictionary_value
{
	my ($table, $alias) = @_;
	return "kidx_canonical(pg_catalog.jsonb_build_array($alias.value, $alias.name_form, $alias.name_prefix,"
	  . " $alias.name_cut, $alias.external_id_form, $alias.native_unit))"
	  if $table eq 'run_templates';
	return "kidx_canonical($alias.value)" if $table eq 'run_labels';
	return "$alias.value";
}

# A run by value: its digest, key and numbers, its implementation's digest
# and every dictionary value it names (NULL where it names none, or nothing).
my $run_by_value = q{pg_catalog.md5(pg_catalog.jsonb_build_array(r.digest, r.comparability_key, i.digest,
	pg_catalog.jsonb_build_array(tp.value, tp.name_form, tp.name_prefix, tp.name_cut, tp.external_id_form, tp.native_unit),
	l.value, ti.value, st.value, so.value, b.value, n.value, x.value,
	r.observed_at AT TIME ZONE 'UTC', r.latency_ns, r.latency_ns_p20, r.latency_ns_p80,
	r.peak_bytes, r.peak_bytes_p20, r.peak_bytes_p80, r.native_p20, r.native_p50, r.native_p80,
	r.external_key)::text)};
my $run_joins = q{kernelindex.runs r
	LEFT JOIN kernelindex.implementations i ON i.id = r.implementation_id
	LEFT JOIN kernelindex.run_templates tp ON tp.id = r.template_id
	LEFT JOIN kernelindex.run_labels l ON l.id = r.labels_id
	LEFT JOIN kernelindex.run_titles ti ON ti.id = r.title_id
	LEFT JOIN kernelindex.run_statuses st ON st.id = r.status_id
	LEFT JOIN kernelindex.run_sources so ON so.id = r.source_id
	LEFT JOIN kernelindex.run_benchmarks b ON b.id = r.benchmark_id
	LEFT JOIN kernelindex.run_strings n ON n.id = r.name_id
	LEFT JOIN kernelindex.run_strings x ON x.id = r.external_id_id};

# The store by value: rows (what, count, md5), ordered; with the extra
# queries of the same three columns given.
sub snapshot_sql
{
	my (@extra) = @_;
	my @parts = (
		"SELECT 'runs', count(*), md5(string_agg(digest::text, ',' ORDER BY digest)) FROM kernelindex.runs",
		"SELECT 'runs by value', count(*), md5(string_agg(v, ',' ORDER BY d)) FROM"
		  . " (SELECT r.digest AS d, $run_by_value AS v FROM $run_joins) s",
		(map { "SELECT '$_', count(*), md5(string_agg(digest::text, ',' ORDER BY digest)) FROM kernelindex.$_" }
			qw(protocols environments workloads implementations)),
		"SELECT 'comparability_keys', count(*), md5(string_agg(k.key::text || ' ' || p.digest::text || ' '"
		  . " || w.digest::text || ' ' || e.digest::text, ',' ORDER BY k.key)) FROM kernelindex.comparability_keys k"
		  . " LEFT JOIN kernelindex.protocols p ON p.id = k.protocol_id"
		  . " LEFT JOIN kernelindex.workloads w ON w.id = k.workload_id"
		  . " LEFT JOIN kernelindex.environments e ON e.id = k.environment_id",
		(map { my $v = dictionary_value($_, 't');
			"SELECT '$_', count(*), md5(string_agg($v, E'\\n' ORDER BY $v COLLATE \"C\")) FROM kernelindex.$_ t" }
			@DICTIONARIES),
		"SELECT 'rejected_rows', count(*), '' FROM kernelindex.rejected_rows",
		@extra);
	return "SELECT * FROM (\n" . join("\nUNION ALL ", @parts) . "\n) s ORDER BY 1";
}

# References that resolve to nothing: rows (what, count); every count 0.
sub dangling_sql
{
	my @parts = map {
		my ($col, $table, $key) = @$_;
		"SELECT 'runs whose $col names no row of $table', count(*) FROM kernelindex.runs r"
		  . " WHERE r.$col IS NOT NULL AND NOT EXISTS (SELECT 1 FROM kernelindex.$table t WHERE t.$key = r.$col)"
	} @RUN_REFERENCES;
	push @parts, map {
		my ($col, $table) = @$_;
		"SELECT 'comparability keys whose $col names no row of $table', count(*) FROM kernelindex.comparability_keys k"
		  . " WHERE NOT EXISTS (SELECT 1 FROM kernelindex.$table t WHERE t.id = k.$col)"
	} ([ 'protocol_id', 'protocols' ], [ 'workload_id', 'workloads' ], [ 'environment_id', 'environments' ]);
	return join("\nUNION ALL ", @parts);
}

# Identities stored twice: rows (what, count); every count 0.
sub duplicates_sql
{
	my @parts = (
		(map { "SELECT 'duplicate $_ (digest)', count(*) - count(DISTINCT digest) FROM kernelindex.$_" }
			qw(protocols environments workloads implementations)),
		"SELECT 'duplicate comparability_keys (key)', count(*) - count(DISTINCT key) FROM kernelindex.comparability_keys",
		"SELECT 'duplicate comparability_keys (protocol, workload, environment)', count(*)"
		  . " - count(DISTINCT (protocol_id, workload_id, environment_id)) FROM kernelindex.comparability_keys",
		(map { my $v = dictionary_value($_, 't');
			("SELECT 'duplicate $_ (hash)', count(*) - count(DISTINCT t.hash) FROM kernelindex.$_ t",
			 "SELECT 'duplicate $_ (value)', count(*) - count(DISTINCT $v) FROM kernelindex.$_ t") }
			@DICTIONARIES),
		"SELECT 'duplicate runs (comparability_key, digest)', count(*) - count(DISTINCT (comparability_key, digest)) FROM kernelindex.runs",
		"SELECT 'duplicate runs (digest)', count(*) - count(DISTINCT digest) FROM kernelindex.runs",
		"SELECT 'duplicate runs (comparability_key, external_key)', count(*) - count(DISTINCT (comparability_key, external_key))"
		  . " FROM kernelindex.runs WHERE external_key IS NOT NULL");
	return join("\nUNION ALL ", @parts);
}

# The tables of kernelindex (the store's, the catalogs, rejected_rows).
sub tables_sql
{
	return q{SELECT string_agg(c.relname, ' ' ORDER BY c.relname) FROM pg_class c
WHERE c.relnamespace = 'kernelindex'::regnamespace AND c.relkind = 'r'};
}

# Every row of the tables given, exactly: rows (what, "count md5"), ordered.
sub rows_sql
{
	my ($tables, @extra) = @_;
	my @parts = (
		(map { "SELECT 'table $_', count(*) || ' ' || coalesce(md5(string_agg(md5(t::text), ','"
			  . " ORDER BY md5(t::text))), '') FROM kernelindex.$_ t" } @$tables),
		@extra);
	return "SELECT * FROM (\n" . join("\nUNION ALL ", @parts) . "\n) s ORDER BY 1";
}

1;
