/*-------------------------------------------------------------------------
 *
 * fuzz_common.h
 *	  Shared helpers for the libFuzzer harnesses of src/core.
 *
 * test/fuzz/fuzz_common.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef KIDX_FUZZ_COMMON_H
#define KIDX_FUZZ_COMMON_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "../unit/reference.h"

/* Report a violated invariant and crash so that libFuzzer keeps the input. */
#define FUZZ_ASSERT(cond, ...) \
	do { \
		if (!(cond)) \
		{ \
			fprintf(stderr, "invariant failed: %s\n", #cond); \
			fprintf(stderr, __VA_ARGS__); \
			fputc('\n', stderr); \
			abort(); \
		} \
	} while (0)

extern int	LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#endif							/* KIDX_FUZZ_COMMON_H */
