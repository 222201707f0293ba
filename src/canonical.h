/*-------------------------------------------------------------------------
 *
 * canonical.h
 *	  RFC 8785 canonical JSON of jsonb values, and SHA-256 digests of it.
 *
 *-------------------------------------------------------------------------
 */
#ifndef KIDX_CANONICAL_H
#define KIDX_CANONICAL_H

#include "lib/stringinfo.h"
#include "utils/jsonb.h"

#include "digest.h"

/* Where canonical bytes go: a text buffer or a running SHA-256. */
typedef struct CanonSink CanonSink;

/*
 * Start a sink that hashes everything written to it.  A backend has one
 * SHA-256 context: finish (or abandon) one digest sink before starting the
 * next; digest sinks do not nest.
 */
extern CanonSink *canon_sink_digest(void);

/* Start a sink that collects the canonical text (UTF-8). */
extern CanonSink *canon_sink_text(void);

/* The text a text sink has collected so far. */
extern StringInfo canon_sink_output(CanonSink *sink);

/* Write raw (already canonical) bytes to a sink. */
extern void canon_sink_write(CanonSink *sink, const char *data, size_t len);

/* Write the canonical form of a jsonb container to a sink. */
extern void canon_write_container(CanonSink *sink, JsonbContainer *container);

/* Write the canonical form of one scalar or container value to a sink. */
extern void canon_write_value(CanonSink *sink, JsonbValue *value);

/* Write a canonical JSON string literal (server-encoded text) to a sink. */
extern void canon_write_string(CanonSink *sink, const char *str, int len);

/*
 * The canonical text of one value in the server encoding, its length in
 * *len: what kidx_canonical() gives for that value as a document (a
 * refused number inside a container is named by its path in it).
 */
extern char *canon_value_text(JsonbValue *value, int *len);

/* Finish a digest sink and return the digest. */
extern void canon_sink_finish(CanonSink *sink, KidxDigest *result);

/* A number (numeric's text) as messages show it: whole if short, else 1e+400. */
extern char *canon_shown_number(const char *dec);

/* Append a member name to a JSON path: .key, or ."key" when not an identifier. */
extern void kidx_json_path_key(StringInfo path, const char *key, int len);

/* The SHA-256 of the canonical form of a whole jsonb document. */
extern void kidx_jsonb_digest(Jsonb *jb, KidxDigest *result);

/* The identity digest of a resource document: {apiVersion, kind, spec}. */
extern void kidx_jsonb_resource_digest(Jsonb *jb, KidxDigest *result);
extern void kidx_container_resource_digest(JsonbContainer *c, KidxDigest *result);

#endif							/* KIDX_CANONICAL_H */
