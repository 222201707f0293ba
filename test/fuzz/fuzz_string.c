/*-------------------------------------------------------------------------
 *
 * fuzz_string.c
 *	  libFuzzer harness for jcs_write_string.
 *
 * Invariants: the output is a JSON string literal in RFC 8785 canonical
 * form that decodes back to the input bytes; escapes are emitted in chunks
 * (at most two writes per escaped byte plus the quotes).
 *
 * test/fuzz/fuzz_string.c
 *
 *-------------------------------------------------------------------------
 */
#include <string.h>

#include "fuzz_common.h"

typedef struct
{
	char	   *buf;
	size_t		len;
	size_t		cap;
	size_t		calls;
} fuzz_sink;

/* Writer callback appending to a growing buffer. */
static void
sink_write(void *arg, const char *data, size_t len)
{
	fuzz_sink  *s = (fuzz_sink *) arg;

	FUZZ_ASSERT(len > 0, "empty write");
	if (s->len + len > s->cap)
	{
		s->cap = (s->len + len) * 2;
		s->buf = realloc(s->buf, s->cap);
	}
	memcpy(s->buf + s->len, data, len);
	s->len += len;
	s->calls++;
}

/* One fuzz iteration. */
int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_sink	s = {NULL, 0, 0, 0};
	char	   *dec;
	size_t		dlen = 0;
	size_t		i,
				escapes = 0;

	jcs_write_string((const char *) data, size, sink_write, &s);
	dec = malloc(s.len + 1);
	FUZZ_ASSERT(ref_json_string_decode(s.buf, s.len, dec, &dlen),
				"not a canonical JSON string: %.*s", (int) s.len, s.buf);
	FUZZ_ASSERT(dlen == size && memcmp(dec, data, size) == 0,
				"does not decode back");
	for (i = 0; i < size; i++)
		if (data[i] < 0x20 || data[i] == '"' || data[i] == '\\')
			escapes++;
	FUZZ_ASSERT(s.calls <= 2 * escapes + 3, "%zu writes for %zu escapes",
				s.calls, escapes);
	free(dec);
	free(s.buf);
	return 0;
}
