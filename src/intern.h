/*-------------------------------------------------------------------------
 *
 * intern.h
 *	  Byte strings numbered in the order they are first met: a hash probe
 *	  finds a string's number, a new string gets the next one.  The
 *	  dictionaries of a statement and the Liger path's groups and caches
 *	  use it (simplehash underneath).
 *
 *-------------------------------------------------------------------------
 */
#ifndef KIDX_INTERN_H
#define KIDX_INTERN_H

typedef struct InternTable InternTable;

/* A new table; it and the strings it keeps live in cxt. */
extern InternTable *intern_create(MemoryContext cxt);

/*
 * The number of the string bytes[0..len): its existing number, or the next
 * one (*isnew then says so; the table keeps a copy of the bytes).
 */
extern int	intern_add(InternTable *t, const char *bytes, int len, bool *isnew);

/* The number of a string, or -1 if it is not there. */
extern int	intern_find(InternTable *t, const char *bytes, int len);

/* The bytes of a number (NUL-terminated; the length in *len if not NULL). */
extern const char *intern_bytes(InternTable *t, int n, int *len);

/* How many strings the table holds. */
extern int	intern_count(InternTable *t);

#endif							/* KIDX_INTERN_H */
