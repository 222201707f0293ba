/*-------------------------------------------------------------------------
 *
 * jsonb_build.c
 *	  Writing resource documents member by member (see jsonb_build.h).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "jsonb_build.h"
#include "run_layout.h"

/* Push an object member's key. */
void
jb_key(JsonbParseState **st, const char *key)
{
	JsonbValue	v;

	v.type = jbvString;
	v.val.string.val = (char *) key;
	v.val.string.len = strlen(key);
	pushJsonbValue(st, WJB_KEY, &v);
}

/* Push a member whose value is a string, or JSON null for NULL. */
void
jb_string(JsonbParseState **st, const char *key, const char *val)
{
	JsonbValue	v;

	jb_key(st, key);
	if (val == NULL)
		v.type = jbvNull;
	else
	{
		v.type = jbvString;
		v.val.string.val = (char *) val;
		v.val.string.len = strlen(val);
	}
	pushJsonbValue(st, WJB_VALUE, &v);
}

/* Push a string member, left out for NULL (as jsonb_strip_nulls does). */
void
jb_string_or_none(JsonbParseState **st, const char *key, const char *val)
{
	if (val != NULL)
		jb_string(st, key, val);
}

/* Push a member whose value is a JSON value, or JSON null for NULL. */
void
jb_value(JsonbParseState **st, const char *key, JsonbValue *val)
{
	JsonbValue	null;

	jb_key(st, key);
	if (val == NULL)
	{
		null.type = jbvNull;
		val = &null;
	}
	pushJsonbValue(st, WJB_VALUE, val);
}

/* Begin an object: the document (key NULL) or a member's value. */
void
jb_begin(JsonbParseState **st, const char *key)
{
	if (key != NULL)
		jb_key(st, key);
	pushJsonbValue(st, WJB_BEGIN_OBJECT, NULL);
}

/* End an object; the document when it is the outermost one. */
JsonbValue *
jb_end(JsonbParseState **st)
{
	return pushJsonbValue(st, WJB_END_OBJECT, NULL);
}

/* Begin a resource document: apiVersion, kind, and the metadata object. */
void
jb_resource(JsonbParseState **st, const char *kind)
{
	jb_begin(st, NULL);
	jb_string(st, "apiVersion", KIDX_API_VERSION);
	jb_string(st, "kind", kind);
	jb_begin(st, "metadata");
}

