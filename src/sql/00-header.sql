/*
 * kernelindex install script.
 *
 * The Makefile concatenates the parts src/sql/NN-name.sql, by number, into
 * sql/kernelindex--<version>.sql, so that the version lives in the control
 * file only and each capability keeps its SQL beside its C.  The result reads
 * top to bottom as the data flows: the digest type, canonical JSON, units,
 * comparability, tables, catalogs, ingestion, views.  The type and the kidx_*
 * functions live in the schema the extension is created in (@extschema@);
 * tables, views and the ingestion functions live in schema kernelindex.
 */

\echo Use "CREATE EXTENSION kernelindex" to load this file. \quit

/*
 * Tables and views go to schema kernelindex, which this script creates: the
 * type and functions cannot live there too, nor in pg_catalog.
 */
DO $$
BEGIN
	IF '@extschema@' IN ('kernelindex', 'pg_catalog') THEN
		RAISE EXCEPTION 'kernelindex cannot be created in schema @extschema@'
			USING ERRCODE = 'invalid_schema_name',
			HINT = 'Create it in another schema (public by default); its tables and views go to schema kernelindex.';
	END IF;
END
$$;
