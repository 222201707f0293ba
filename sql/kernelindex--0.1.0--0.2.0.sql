/*
 * kernelindex upgrade script: 0.1.0 to 0.2.0 (ALTER EXTENSION kernelindex UPDATE).
 *
 * Brings a database created at 0.1.0 (sql/kernelindex--0.1.0.sql, the
 * release tagged v0.1.0) to what a fresh CREATE EXTENSION of 0.2.0 makes
 * (the parts in src/sql), moving the stored data where 0.2.0 stores it otherwise.
 * test/t/080_upgrade.pl loads real data into 0.1.0, runs this script, and
 * compares the database with a fresh 0.2.0 loaded with the same data: the
 * same objects, rows, documents and digests.  doc/CHANGELOG.md lists what
 * changed.
 */

\echo Use "ALTER EXTENSION kernelindex UPDATE" to load this file. \quit
