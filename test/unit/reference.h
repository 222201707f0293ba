/*-------------------------------------------------------------------------
 *
 * reference.h
 *	  Slow, independent reference implementations used by the unit tests
 *	  and the fuzzers to check src/core.
 *
 * test/unit/reference.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef KIDX_TEST_REFERENCE_H
#define KIDX_TEST_REFERENCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../../src/core/decimal.h"
#include "../../src/core/jcs.h"

/* dec_scale_round_int64 by big-decimal string arithmetic */
extern dec_status ref_scale_round_int64(const char *s, size_t len,
										uint32_t multiplier, int64_t *result);

/* shortest digits of a finite double by trying both p-digit neighbours */
extern int	ref_format_double(double d, char *out);

/* jcs_number_from_decimal by strtod + ref_format_double + value compare */
extern jcs_num_status ref_number_from_decimal(const char *dec, size_t len,
											  char *out, size_t *outlen);

/* do two decimal number texts denote the same value? */
extern bool ref_decimal_equal(const char *a, const char *b);

/* is s[0..len) well-formed UTF-8 (no overlongs, surrogates, > U+10FFFF)? */
extern bool ref_utf8_valid(const char *s, size_t len);

/* compare valid UTF-8 strings by transcoding to UTF-16 */
extern int	ref_utf16_compare(const char *a, size_t alen,
							  const char *b, size_t blen);

/*
 * Decode a JSON string literal json[0..len) into out (at least len bytes),
 * checking that it is in RFC 8785 canonical form.  Returns false if it is
 * not a canonical JSON string literal.
 */
extern bool ref_json_string_decode(const char *json, size_t len,
								   char *out, size_t *outlen);

/* encode code point cp as UTF-8 into out; returns the byte count */
extern int	ref_utf8_encode(uint32_t cp, char *out);

#endif							/* KIDX_TEST_REFERENCE_H */
