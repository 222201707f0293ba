/* ---------------------------------------------------------------------
 * 2. Canonical JSON (RFC 8785) and digests
 * --------------------------------------------------------------------- */

CREATE FUNCTION @extschema@.kidx_canonical(jsonb)
RETURNS text
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.kidx_canonical(jsonb) IS
'RFC 8785 canonical JSON text of a value; numbers a double cannot carry exactly are an error';

CREATE FUNCTION @extschema@.kidx_canonical_digest(jsonb)
RETURNS @extschema@.kidx_digest
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.kidx_canonical_digest(jsonb) IS
'SHA-256 of the RFC 8785 canonical JSON of a value';

CREATE FUNCTION @extschema@.kidx_resource_digest(jsonb)
RETURNS @extschema@.kidx_digest
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.kidx_resource_digest(jsonb) IS
'identity digest of a resource: SHA-256 of the canonical JSON of {apiVersion, kind, spec}';
