/* ---------------------------------------------------------------------
 * 1. The kidx_digest type
 * --------------------------------------------------------------------- */

CREATE TYPE @extschema@.kidx_digest;

CREATE FUNCTION @extschema@.kidx_digest_in(cstring)
RETURNS @extschema@.kidx_digest
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE FUNCTION @extschema@.kidx_digest_out(@extschema@.kidx_digest)
RETURNS cstring
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE FUNCTION @extschema@.kidx_digest_recv(internal)
RETURNS @extschema@.kidx_digest
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE FUNCTION @extschema@.kidx_digest_send(@extschema@.kidx_digest)
RETURNS bytea
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE TYPE @extschema@.kidx_digest (
	INPUT = @extschema@.kidx_digest_in,
	OUTPUT = @extschema@.kidx_digest_out,
	RECEIVE = @extschema@.kidx_digest_recv,
	SEND = @extschema@.kidx_digest_send,
	INTERNALLENGTH = 32,
	ALIGNMENT = char,
	STORAGE = plain
);

COMMENT ON TYPE @extschema@.kidx_digest IS
'SHA-256 digest in 32 bytes; text form sha256:<64 lowercase hex digits>';
COMMENT ON FUNCTION @extschema@.kidx_digest_in(cstring) IS
'text input of kidx_digest: sha256:<64 lowercase hex digits>';
COMMENT ON FUNCTION @extschema@.kidx_digest_out(@extschema@.kidx_digest) IS
'text output of kidx_digest';
COMMENT ON FUNCTION @extschema@.kidx_digest_recv(internal) IS
'binary input of kidx_digest: exactly 32 bytes';
COMMENT ON FUNCTION @extschema@.kidx_digest_send(@extschema@.kidx_digest) IS
'binary output of kidx_digest: the 32 bytes';

CREATE FUNCTION @extschema@.kidx_digest_cmp(@extschema@.kidx_digest, @extschema@.kidx_digest)
RETURNS integer
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION @extschema@.kidx_digest_cmp(@extschema@.kidx_digest, @extschema@.kidx_digest) IS
'three-way comparison of digests in byte order: -1, 0 or 1';

CREATE FUNCTION @extschema@.kidx_digest_lt(@extschema@.kidx_digest, @extschema@.kidx_digest)
RETURNS boolean
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION @extschema@.kidx_digest_lt(@extschema@.kidx_digest, @extschema@.kidx_digest) IS
'implementation of < for kidx_digest';

CREATE FUNCTION @extschema@.kidx_digest_le(@extschema@.kidx_digest, @extschema@.kidx_digest)
RETURNS boolean
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION @extschema@.kidx_digest_le(@extschema@.kidx_digest, @extschema@.kidx_digest) IS
'implementation of <= for kidx_digest';

CREATE FUNCTION @extschema@.kidx_digest_eq(@extschema@.kidx_digest, @extschema@.kidx_digest)
RETURNS boolean
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION @extschema@.kidx_digest_eq(@extschema@.kidx_digest, @extschema@.kidx_digest) IS
'implementation of = for kidx_digest';

CREATE FUNCTION @extschema@.kidx_digest_ne(@extschema@.kidx_digest, @extschema@.kidx_digest)
RETURNS boolean
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION @extschema@.kidx_digest_ne(@extschema@.kidx_digest, @extschema@.kidx_digest) IS
'implementation of <> for kidx_digest';

CREATE FUNCTION @extschema@.kidx_digest_ge(@extschema@.kidx_digest, @extschema@.kidx_digest)
RETURNS boolean
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION @extschema@.kidx_digest_ge(@extschema@.kidx_digest, @extschema@.kidx_digest) IS
'implementation of >= for kidx_digest';

CREATE FUNCTION @extschema@.kidx_digest_gt(@extschema@.kidx_digest, @extschema@.kidx_digest)
RETURNS boolean
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION @extschema@.kidx_digest_gt(@extschema@.kidx_digest, @extschema@.kidx_digest) IS
'implementation of > for kidx_digest';

CREATE OPERATOR @extschema@.< (
	LEFTARG = @extschema@.kidx_digest, RIGHTARG = @extschema@.kidx_digest,
	FUNCTION = @extschema@.kidx_digest_lt,
	COMMUTATOR = OPERATOR(@extschema@.>), NEGATOR = OPERATOR(@extschema@.>=),
	RESTRICT = scalarltsel, JOIN = scalarltjoinsel
);
COMMENT ON OPERATOR @extschema@.< (@extschema@.kidx_digest, @extschema@.kidx_digest) IS 'less than';

CREATE OPERATOR @extschema@.<= (
	LEFTARG = @extschema@.kidx_digest, RIGHTARG = @extschema@.kidx_digest,
	FUNCTION = @extschema@.kidx_digest_le,
	COMMUTATOR = OPERATOR(@extschema@.>=), NEGATOR = OPERATOR(@extschema@.>),
	RESTRICT = scalarlesel, JOIN = scalarlejoinsel
);
COMMENT ON OPERATOR @extschema@.<= (@extschema@.kidx_digest, @extschema@.kidx_digest) IS 'less than or equal';

CREATE OPERATOR @extschema@.= (
	LEFTARG = @extschema@.kidx_digest, RIGHTARG = @extschema@.kidx_digest,
	FUNCTION = @extschema@.kidx_digest_eq,
	COMMUTATOR = OPERATOR(@extschema@.=), NEGATOR = OPERATOR(@extschema@.<>),
	RESTRICT = eqsel, JOIN = eqjoinsel,
	HASHES, MERGES
);
COMMENT ON OPERATOR @extschema@.= (@extschema@.kidx_digest, @extschema@.kidx_digest) IS 'equal';

CREATE OPERATOR @extschema@.<> (
	LEFTARG = @extschema@.kidx_digest, RIGHTARG = @extschema@.kidx_digest,
	FUNCTION = @extschema@.kidx_digest_ne,
	COMMUTATOR = OPERATOR(@extschema@.<>), NEGATOR = OPERATOR(@extschema@.=),
	RESTRICT = neqsel, JOIN = neqjoinsel
);
COMMENT ON OPERATOR @extschema@.<> (@extschema@.kidx_digest, @extschema@.kidx_digest) IS 'not equal';

CREATE OPERATOR @extschema@.>= (
	LEFTARG = @extschema@.kidx_digest, RIGHTARG = @extschema@.kidx_digest,
	FUNCTION = @extschema@.kidx_digest_ge,
	COMMUTATOR = OPERATOR(@extschema@.<=), NEGATOR = OPERATOR(@extschema@.<),
	RESTRICT = scalargesel, JOIN = scalargejoinsel
);
COMMENT ON OPERATOR @extschema@.>= (@extschema@.kidx_digest, @extschema@.kidx_digest) IS 'greater than or equal';

CREATE OPERATOR @extschema@.> (
	LEFTARG = @extschema@.kidx_digest, RIGHTARG = @extschema@.kidx_digest,
	FUNCTION = @extschema@.kidx_digest_gt,
	COMMUTATOR = OPERATOR(@extschema@.<), NEGATOR = OPERATOR(@extschema@.<=),
	RESTRICT = scalargtsel, JOIN = scalargtjoinsel
);
COMMENT ON OPERATOR @extschema@.> (@extschema@.kidx_digest, @extschema@.kidx_digest) IS 'greater than';

CREATE FUNCTION @extschema@.kidx_digest_sortsupport(internal)
RETURNS void
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.kidx_digest_sortsupport(internal) IS
'btree sort support for kidx_digest (abbreviated keys)';

CREATE OPERATOR CLASS @extschema@.kidx_digest_ops
DEFAULT FOR TYPE @extschema@.kidx_digest USING btree AS
	OPERATOR 1 @extschema@.<,
	OPERATOR 2 @extschema@.<=,
	OPERATOR 3 @extschema@.=,
	OPERATOR 4 @extschema@.>=,
	OPERATOR 5 @extschema@.>,
	FUNCTION 1 @extschema@.kidx_digest_cmp(@extschema@.kidx_digest, @extschema@.kidx_digest),
	FUNCTION 2 @extschema@.kidx_digest_sortsupport(internal),
	FUNCTION 4 pg_catalog.btequalimage(oid);
COMMENT ON OPERATOR CLASS @extschema@.kidx_digest_ops USING btree IS
'byte order of kidx_digest (deduplication-safe)';
COMMENT ON OPERATOR FAMILY @extschema@.kidx_digest_ops USING btree IS
'byte order of kidx_digest';

CREATE FUNCTION @extschema@.kidx_digest_hash(@extschema@.kidx_digest)
RETURNS integer
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION @extschema@.kidx_digest_hash(@extschema@.kidx_digest) IS
'32-bit hash of a digest (hash support function 1)';

CREATE FUNCTION @extschema@.kidx_digest_hash_extended(@extschema@.kidx_digest, bigint)
RETURNS bigint
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION @extschema@.kidx_digest_hash_extended(@extschema@.kidx_digest, bigint) IS
'seeded 64-bit hash of a digest (hash support function 2)';

CREATE OPERATOR CLASS @extschema@.kidx_digest_hash_ops
DEFAULT FOR TYPE @extschema@.kidx_digest USING hash AS
	OPERATOR 1 @extschema@.=,
	FUNCTION 1 @extschema@.kidx_digest_hash(@extschema@.kidx_digest),
	FUNCTION 2 @extschema@.kidx_digest_hash_extended(@extschema@.kidx_digest, bigint);
COMMENT ON OPERATOR CLASS @extschema@.kidx_digest_hash_ops USING hash IS
'hashing of kidx_digest (hash joins, hash aggregation, PARTITION BY HASH)';
COMMENT ON OPERATOR FAMILY @extschema@.kidx_digest_hash_ops USING hash IS
'hashing of kidx_digest';

CREATE FUNCTION @extschema@.kidx_digest_smaller(@extschema@.kidx_digest, @extschema@.kidx_digest)
RETURNS @extschema@.kidx_digest
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.kidx_digest_smaller(@extschema@.kidx_digest, @extschema@.kidx_digest) IS
'the smaller of two digests';

CREATE FUNCTION @extschema@.kidx_digest_larger(@extschema@.kidx_digest, @extschema@.kidx_digest)
RETURNS @extschema@.kidx_digest
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.kidx_digest_larger(@extschema@.kidx_digest, @extschema@.kidx_digest) IS
'the larger of two digests';

CREATE AGGREGATE @extschema@.min(@extschema@.kidx_digest) (
	SFUNC = @extschema@.kidx_digest_smaller,
	STYPE = @extschema@.kidx_digest,
	COMBINEFUNC = @extschema@.kidx_digest_smaller,
	SORTOP = OPERATOR(@extschema@.<),
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.min(@extschema@.kidx_digest) IS
'smallest digest in byte order';

CREATE AGGREGATE @extschema@.max(@extschema@.kidx_digest) (
	SFUNC = @extschema@.kidx_digest_larger,
	STYPE = @extschema@.kidx_digest,
	COMBINEFUNC = @extschema@.kidx_digest_larger,
	SORTOP = OPERATOR(@extschema@.>),
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.max(@extschema@.kidx_digest) IS
'largest digest in byte order';

CREATE FUNCTION @extschema@.kidx_digest_to_bytea(@extschema@.kidx_digest)
RETURNS bytea
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION @extschema@.kidx_digest_to_bytea(@extschema@.kidx_digest) IS
'the 32 bytes of a digest';

CREATE FUNCTION @extschema@.kidx_digest_to_text(@extschema@.kidx_digest)
RETURNS text
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION @extschema@.kidx_digest_to_text(@extschema@.kidx_digest) IS
'the text form sha256:<hex> of a digest, as text';

CREATE FUNCTION @extschema@.kidx_digest_from_bytea(bytea)
RETURNS @extschema@.kidx_digest
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.kidx_digest_from_bytea(bytea) IS
'a digest from exactly 32 bytes';

CREATE CAST (@extschema@.kidx_digest AS bytea)
	WITH FUNCTION @extschema@.kidx_digest_to_bytea(@extschema@.kidx_digest);
CREATE CAST (bytea AS @extschema@.kidx_digest)
	WITH FUNCTION @extschema@.kidx_digest_from_bytea(bytea);
CREATE CAST (@extschema@.kidx_digest AS text)
	WITH FUNCTION @extschema@.kidx_digest_to_text(@extschema@.kidx_digest) AS ASSIGNMENT;
CREATE CAST (text AS @extschema@.kidx_digest) WITH INOUT;
COMMENT ON CAST (@extschema@.kidx_digest AS bytea) IS 'the 32 bytes of a digest';
COMMENT ON CAST (bytea AS @extschema@.kidx_digest) IS 'a digest from exactly 32 bytes';
COMMENT ON CAST (@extschema@.kidx_digest AS text) IS 'the text form sha256:<hex>';
COMMENT ON CAST (text AS @extschema@.kidx_digest) IS 'parse the text form sha256:<hex>';
