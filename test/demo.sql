-- kernelindex demo: what the extension does, on a throwaway database.
\pset footer off
CREATE DATABASE kernelindex_demo;
\c kernelindex_demo
CREATE EXTENSION kernelindex;

\echo
\echo '== kidx_digest: a SHA-256 digest in 32 bytes, sha256:<hex> as text'
SELECT d AS digest, pg_column_size(d) AS bytes, d::bytea AS raw
FROM (SELECT 'sha256:a79eaf4df66c97c6adc1fb2d09df78682155d1ea86652ae0b70199875bde7747'::kidx_digest AS d) s;

\echo '== bad input is refused with the reason'
\set ON_ERROR_STOP 0
SELECT 'sha256:A79eaf4df66c97c6adc1fb2d09df78682155d1ea86652ae0b70199875bde7747'::kidx_digest;
\set ON_ERROR_STOP 1
