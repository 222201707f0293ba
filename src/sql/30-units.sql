/* ---------------------------------------------------------------------
 * 3. Units: exact decimal scaling, rounded half away from zero
 * --------------------------------------------------------------------- */

CREATE FUNCTION @extschema@.kidx_ms_to_ns(numeric)
RETURNS bigint
AS 'MODULE_PATHNAME', 'kidx_ms_to_ns_numeric' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.kidx_ms_to_ns(numeric) IS
'milliseconds to whole nanoseconds, exact, rounded half away from zero';

CREATE FUNCTION @extschema@.kidx_ms_to_ns(text)
RETURNS bigint
AS 'MODULE_PATHNAME', 'kidx_ms_to_ns_text' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.kidx_ms_to_ns(text) IS
'milliseconds written as decimal text (as harness CSVs write them) to whole nanoseconds, exact, rounded half away from zero';

CREATE FUNCTION @extschema@.kidx_ms_to_ns(double precision)
RETURNS bigint
AS 'MODULE_PATHNAME', 'kidx_ms_to_ns_float8' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.kidx_ms_to_ns(double precision) IS
'milliseconds to whole nanoseconds via the shortest round-trip decimal of the double, exact, rounded half away from zero';

CREATE FUNCTION @extschema@.kidx_mib_to_bytes(numeric)
RETURNS bigint
AS 'MODULE_PATHNAME', 'kidx_mib_to_bytes_numeric' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.kidx_mib_to_bytes(numeric) IS
'MiB (2^20 bytes) to whole bytes, exact, rounded half away from zero';

CREATE FUNCTION @extschema@.kidx_mib_to_bytes(text)
RETURNS bigint
AS 'MODULE_PATHNAME', 'kidx_mib_to_bytes_text' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.kidx_mib_to_bytes(text) IS
'MiB written as decimal text to whole bytes, exact, rounded half away from zero';

CREATE FUNCTION @extschema@.kidx_mib_to_bytes(double precision)
RETURNS bigint
AS 'MODULE_PATHNAME', 'kidx_mib_to_bytes_float8' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.kidx_mib_to_bytes(double precision) IS
'MiB to whole bytes via the shortest round-trip decimal of the double, exact, rounded half away from zero';
