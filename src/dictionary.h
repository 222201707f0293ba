/*-------------------------------------------------------------------------
 *
 * dictionary.h
 *	  The dictionaries of the values runs repeat (titles, statuses,
 *	  sources, benchmarks, name and externalId strings, label sets,
 *	  templates): a value is stored once, with a small integer id that runs
 *	  refer to, and a hash that identifies it (the first 16 bytes of SHA-256
 *	  of its canonical JSON).
 *
 *	  Ingestion interns a statement's values in memory (a hash probe per
 *	  value) and stores the new ones with one INSERT per dictionary per
 *	  statement (DictSet); export looks values up by id, once per query
 *	  (DictCache).
 *
 *-------------------------------------------------------------------------
 */
#ifndef KIDX_DICTIONARY_H
#define KIDX_DICTIONARY_H

#include "run_store.h"

/* The values one statement brings, by dictionary. */
typedef struct DictSet DictSet;

/* A new set; everything it keeps lives in cxt. */
extern DictSet *dict_set_create(MemoryContext cxt);

/* The set's index of a string of a text dictionary (NULL: -1). */
extern int	dict_text(DictSet *ds, DictKind kind, const char *s);

/* The string of a set's index of a text dictionary (-1: NULL). */
extern const char *dict_text_value(DictSet *ds, DictKind kind, int index);

/* The set's index of a label set (NULL: -1). */
extern int	dict_labels(DictSet *ds, Jsonb *labels);

/*
 * The set's index of a template; the set's copy of it, laid out, in
 * *interned (for the run's digest).
 */
extern int	dict_template(DictSet *ds, const RunTemplate *t, RunTemplate **interned);

/*
 * Store the set's new values and learn every value's id (SPI connected):
 * INSERT ... ON CONFLICT DO NOTHING in hash order, then the ids.
 */
extern void dict_store(DictSet *ds);

/* The id of a value of the set (index -1: 0). */
extern int32 dict_id(DictSet *ds, DictKind kind, int index);

/* Values looked up by id, for one query. */
typedef struct DictCache DictCache;

extern DictCache *dict_cache_create(MemoryContext cxt);
extern const char *dict_cache_text(DictCache *dc, DictKind kind, int32 id);
extern Jsonb *dict_cache_labels(DictCache *dc, int32 id);
extern RunTemplate *dict_cache_template(DictCache *dc, int32 id);

/* The dictionary hash of a string, a label set or any jsonb value. */
extern void dict_hash_text(const char *s, int len, pg_uuid_t *result);
extern void dict_hash_jsonb(Jsonb *jb, pg_uuid_t *result);

#endif							/* KIDX_DICTIONARY_H */
