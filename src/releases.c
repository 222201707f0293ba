/*-------------------------------------------------------------------------
 *
 * releases.c
 *	  Release labels in version order, for the views (the order itself is src/core/release.c).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "fmgr.h"
#include "utils/builtins.h"

#include "compat.h"

#include "core/release.h"

PG_FUNCTION_INFO_V1(kidx_release_version_key);

/*
 * kernelindex.release_version_key(text) -> bytea: a key that sorts release
 * labels in version order (0.5.10 after 0.5.9); NULL for a label that is
 * not a version.
 */
Datum
kidx_release_version_key(PG_FUNCTION_ARGS)
{
	text	   *label = PG_GETARG_TEXT_PP(0);
	unsigned char key[RELEASE_KEY_MAX];
	size_t		len = release_version_key(VARDATA_ANY(label), VARSIZE_ANY_EXHDR(label), key);
	bytea	   *result;

	if (len == 0)
		PG_RETURN_NULL();
	result = palloc(VARHDRSZ + len);
	SET_VARSIZE(result, VARHDRSZ + len);
	memcpy(VARDATA(result), key, len);
	PG_RETURN_BYTEA_P(result);
}
