/*-------------------------------------------------------------------------
 *
 * jsonb_build.h
 *	  Writing resource documents member by member with pushJsonbValue, for
 *	  the paths that build them from catalogs (Liger rows, run_rows).
 *	  Strings are pushed by pointer: they must live until the document is
 *	  made (JsonbValueToJsonb).
 *
 *-------------------------------------------------------------------------
 */
#ifndef KIDX_JSONB_BUILD_H
#define KIDX_JSONB_BUILD_H

#include "utils/jsonb.h"

/* Push an object member's key. */
extern void jb_key(JsonbParseState **st, const char *key);

/* Push a member whose value is a string, or JSON null for NULL. */
extern void jb_string(JsonbParseState **st, const char *key, const char *val);

/* Push a string member, left out for NULL (as jsonb_strip_nulls does). */
extern void jb_string_or_none(JsonbParseState **st, const char *key, const char *val);

/* Push a member whose value is a JSON value, or JSON null for NULL. */
extern void jb_value(JsonbParseState **st, const char *key, JsonbValue *val);

/* Begin an object: the document (key NULL) or a member's value. */
extern void jb_begin(JsonbParseState **st, const char *key);

/* End an object; the document when it is the outermost one. */
extern JsonbValue *jb_end(JsonbParseState **st);

/* Begin a resource document: apiVersion, kind, and the metadata object. */
extern void jb_resource(JsonbParseState **st, const char *kind);

#endif							/* KIDX_JSONB_BUILD_H */
