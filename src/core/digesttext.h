/*-------------------------------------------------------------------------
 *
 * digesttext.h
 *	  The text form of a SHA-256 content digest: "sha256:" followed by
 *	  exactly 64 lowercase hexadecimal digits (the OCI digest grammar
 *	  restricted to SHA-256), parsed with the position of the first fault.
 *
 * This file is free of PostgreSQL headers; it needs only C99 and libc.
 *
 * src/core/digesttext.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef KIDX_DIGESTTEXT_H
#define KIDX_DIGESTTEXT_H

#include <stddef.h>

#define DIGEST_TEXT_PREFIX "sha256:"
#define DIGEST_TEXT_PREFIX_LEN 7
#define DIGEST_TEXT_BYTES 32
#define DIGEST_TEXT_HEX_LEN (2 * DIGEST_TEXT_BYTES)
#define DIGEST_TEXT_LEN (DIGEST_TEXT_PREFIX_LEN + DIGEST_TEXT_HEX_LEN)

typedef enum
{
	DIGEST_TEXT_OK,
	DIGEST_TEXT_PREFIX_MISSING, /* does not start with "sha256:" */
	DIGEST_TEXT_UPPERCASE,		/* an uppercase hex digit A-F at offset */
	DIGEST_TEXT_NOT_HEX,		/* another character at offset */
	DIGEST_TEXT_LENGTH			/* only hex digits, but not 64 of them */
} digest_text_status;

/* Where the first fault of a digest text is, for messages. */
typedef struct DigestTextFault
{
	size_t		offset;			/* UPPERCASE, NOT_HEX: byte offset of the
								 * character (everything before it is ASCII,
								 * so offset + 1 is its character position) */
	size_t		charlen;		/* NOT_HEX: its byte length (its encoding's
								 * rule, cut at the end of the input) */
	size_t		hexlen;			/* LENGTH: bytes after the prefix */
} DigestTextFault;

/* The byte length of the character at s (the server encoding's rule). */
typedef int (*digest_mblen_fn) (const unsigned char *s);

/*
 * Parse s[0..len) (no NUL needed).  On DIGEST_TEXT_OK the 32 bytes are in
 * out; otherwise out is untouched and *fault says where the first fault
 * is.  mblen gives the length of a non-ASCII character, for the fault only
 * (NULL: one byte).
 */
extern digest_text_status digest_text_parse(const char *s, size_t len,
											digest_mblen_fn mblen,
											unsigned char *out,
											DigestTextFault *fault);

/* Write the text form of 32 bytes into buf (DIGEST_TEXT_LEN + 1 bytes). */
extern void digest_text_format(const unsigned char *digest, char *buf);

#endif							/* KIDX_DIGESTTEXT_H */
