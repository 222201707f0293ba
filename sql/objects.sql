-- Every object users see is documented, dumped when it holds data, and the
-- extension's catalogs are consistent.

-- Every table, view, sequence and column of schema kernelindex has a COMMENT.
SELECT c.relname, a.attname
FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
JOIN pg_attribute a ON a.attrelid = c.oid
WHERE n.nspname = 'kernelindex' AND c.relkind IN ('r', 'v', 'u', 'p') AND a.attnum > 0
  AND NOT a.attisdropped AND col_description(c.oid, a.attnum) IS NULL
ORDER BY 1, 2;
SELECT c.relname, c.relkind
FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
WHERE n.nspname = 'kernelindex' AND c.relkind IN ('r', 'v', 'u', 'p', 'S')
  AND obj_description(c.oid, 'pg_class') IS NULL
ORDER BY 1;

-- What users do not call lives in kernelindex_internal: every relation and
-- function there, each with a COMMENT saying what it is for.
SELECT c.relname, c.relkind, obj_description(c.oid, 'pg_class') IS NOT NULL AS commented
FROM pg_class c
WHERE c.relnamespace = 'kernelindex_internal'::regnamespace AND c.relkind IN ('r', 'v', 'S')
ORDER BY c.relname COLLATE "C";
SELECT p.oid::regprocedure AS function, obj_description(p.oid, 'pg_proc') IS NOT NULL AS commented
FROM pg_proc p
WHERE p.pronamespace = 'kernelindex_internal'::regnamespace
ORDER BY p.oid::regprocedure::text COLLATE "C";

-- Every trigger on the extension's tables and views has a COMMENT.
SELECT t.tgrelid::regclass AS relation, t.tgname
FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid JOIN pg_namespace n ON n.oid = c.relnamespace
WHERE n.nspname = 'kernelindex' AND NOT t.tgisinternal
  AND obj_description(t.oid, 'pg_trigger') IS NULL
ORDER BY 1, 2;
SELECT count(*) AS triggers
FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid JOIN pg_namespace n ON n.oid = c.relnamespace
WHERE n.nspname = 'kernelindex' AND NOT t.tgisinternal;

-- Every function, type, operator, operator class and cast of the extension
-- has a COMMENT (an array type, or the row type of a table or view, is
-- documented by what it belongs to: PostgreSQL 17 and later list those as
-- extension members too).
WITH x AS (SELECT oid FROM pg_extension WHERE extname = 'kernelindex')
SELECT pg_describe_object(d.classid, d.objid, 0) AS undocumented
FROM pg_depend d, x
WHERE d.refobjid = x.oid AND d.deptype = 'e'
  AND d.classid IN ('pg_proc'::regclass, 'pg_type'::regclass, 'pg_operator'::regclass,
                    'pg_opclass'::regclass, 'pg_opfamily'::regclass, 'pg_cast'::regclass)
  AND obj_description(d.objid, d.classid::regclass::text) IS NULL
  AND NOT (d.classid = 'pg_type'::regclass
           AND EXISTS (SELECT 1 FROM pg_type t WHERE t.oid = d.objid
                       AND ((t.typelem <> 0 AND t.typlen = -1)
                            OR EXISTS (SELECT 1 FROM pg_class c
                                       WHERE c.oid = t.typrelid AND c.relkind <> 'c'))))
ORDER BY 1;

-- Every table that holds user data is dumped by pg_dump (extconfig); the
-- catalogs dump only the rows users add; liger_rows is empty whenever a
-- transaction commits.
SELECT c.relname, c.relkind,
       coalesce(x.cond, '(not dumped)') AS dump_condition
FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
LEFT JOIN (SELECT unnest(extconfig) AS oid, unnest(extcondition) AS cond
           FROM pg_extension WHERE extname = 'kernelindex') x ON x.oid = c.oid
WHERE n.nspname = 'kernelindex' AND c.relkind IN ('r', 'p', 'S')
ORDER BY 1;

-- Functions: volatility, strictness and parallel safety as declared.
SELECT p.oid::regprocedure AS function, p.provolatile AS volatility, p.proisstrict AS strict,
       p.proparallel AS parallel, l.lanname AS language
FROM pg_proc p JOIN pg_language l ON l.oid = p.prolang
WHERE p.oid IN (SELECT objid FROM pg_depend
                WHERE refobjid = (SELECT oid FROM pg_extension WHERE extname = 'kernelindex')
                  AND classid = 'pg_proc'::regclass AND deptype = 'e')
ORDER BY p.oid::regprocedure::text COLLATE "C";
