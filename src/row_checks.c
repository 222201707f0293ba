/*-------------------------------------------------------------------------
 *
 * row_checks.c
 *	  Checks of CSV row fields without raising errors (see row_checks.h).
 *	  They use the parsers' error-returning entry points: pg_parse_json()
 *	  for JSON, ParseDateTime()/DecodeDateTime() and src/core's RFC 3339
 *	  parser for times.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <ctype.h>

#include "common/jsonapi.h"
#include "mb/pg_wchar.h"
#include "miscadmin.h"
#include "nodes/pg_list.h"
#include "utils/datetime.h"
#include "utils/timestamp.h"

#include "compat.h"
#include "core/jcs.h"
#include "core/runfmt.h"
#include "messages.h"
#include "row_checks.h"

/* State of the JSON walk over a JSON object field. */
typedef struct JsonCheck
{
	int			depth;
	bool		top_is_object;
	char	   *bad_number;		/* first number a double cannot carry */
	char	   *duplicate_key;	/* first key found twice in one object */
	List	   *keys[ROW_JSON_MAX_DEPTH + 1];	/* keys of each open object */
} JsonCheck;

/* A value as a fault shows it; see row_checks.h. */
char *
row_shown_value(const char *value)
{
	if (value == NULL)
		return pstrdup("");
	return kidx_shown(value, strlen(value));
}

/* True if s is empty or only white space. */
bool
row_is_blank(const char *s)
{
	for (; *s; s++)
		if (!isspace((unsigned char) *s))
			return false;
	return true;
}

/* True if s (trimmed) follows the JSON number grammar. */
bool
row_is_json_number(const char *s)
{
	if (*s == '-')
		s++;
	if (*s == '0')
		s++;
	else if (*s >= '1' && *s <= '9')
		while (isdigit((unsigned char) *s))
			s++;
	else
		return false;
	if (*s == '.')
	{
		s++;
		if (!isdigit((unsigned char) *s))
			return false;
		while (isdigit((unsigned char) *s))
			s++;
	}
	if (*s == 'e' || *s == 'E')
	{
		s++;
		if (*s == '+' || *s == '-')
			s++;
		if (!isdigit((unsigned char) *s))
			return false;
		while (isdigit((unsigned char) *s))
			s++;
	}
	return *s == '\0';
}

/* The trimmed part of s: its start and length. */
void
row_trim_range(const char *s, const char **start, int *len)
{
	const char *end;

	while (isspace((unsigned char) *s))
		s++;
	end = s + strlen(s);
	while (end > s && isspace((unsigned char) end[-1]))
		end--;
	*start = s;
	*len = end - s;
}

/* Trimmed copy of s. */
char *
row_trimmed(const char *s)
{
	const char *start;
	int			len;

	row_trim_range(s, &start, &len);
	return pnstrdup(start, len);
}

/* JSON walk: note the top-level container; start the object's keys. */
static KIDX_JSON_ACTION
config_object_start(void *state)
{
	JsonCheck *c = (JsonCheck *) state;

	if (c->depth++ == 0)
		c->top_is_object = true;
	c->keys[c->depth] = NIL;
	return KIDX_JSON_OK;
}

/* Order of two keys (C strings) of an object. */
static int
key_cmp(const ListCell *a, const ListCell *b)
{
	return strcmp((const char *) lfirst(a), (const char *) lfirst(b));
}

/*
 * JSON walk: leave an object; a key must not repeat in it (jsonb would keep
 * the last value and drop the other without a word).  Its keys are sorted
 * and neighbours compared: an object of many keys costs n log n, not n^2.
 */
static KIDX_JSON_ACTION
config_object_end(void *state)
{
	JsonCheck *c = (JsonCheck *) state;
	List	   *keys = c->keys[c->depth];
	ListCell   *lc;
	const char *prev = NULL;

	if (c->duplicate_key == NULL && list_length(keys) > 1)
	{
		list_sort(keys, key_cmp);
		foreach(lc, keys)
		{
			if (prev != NULL && strcmp(prev, (char *) lfirst(lc)) == 0)
			{
				c->duplicate_key = pstrdup(prev);
				break;
			}
			prev = (char *) lfirst(lc);
		}
	}
	list_free_deep(keys);
	c->keys[c->depth] = NIL;
	c->depth--;
	return KIDX_JSON_OK;
}

/* JSON walk: keep a key of the open object (config_object_end checks them). */
static KIDX_JSON_ACTION
config_field_start(void *state, char *fname, bool isnull)
{
	JsonCheck *c = (JsonCheck *) state;

	CHECK_FOR_INTERRUPTS();
	if (c->duplicate_key != NULL || fname == NULL)
		return KIDX_JSON_OK;
	c->keys[c->depth] = lappend(c->keys[c->depth], pstrdup(fname));
	return KIDX_JSON_OK;
}

/* JSON walk: enter an array. */
static KIDX_JSON_ACTION
config_array_start(void *state)
{
	((JsonCheck *) state)->depth++;
	return KIDX_JSON_OK;
}

/* JSON walk: leave an array. */
static KIDX_JSON_ACTION
config_array_end(void *state)
{
	((JsonCheck *) state)->depth--;
	return KIDX_JSON_OK;
}

/* JSON walk: every number must be one a double carries exactly. */
static KIDX_JSON_ACTION
config_scalar(void *state, char *token, JsonTokenType tokentype)
{
	JsonCheck *c = (JsonCheck *) state;
	char		buf[JCS_NUMBER_BUFLEN];
	size_t		buflen;

	if (tokentype != JSON_TOKEN_NUMBER || c->bad_number != NULL)
		return KIDX_JSON_OK;
	if (jcs_number_from_decimal(token, strlen(token), buf, &buflen) != JCS_NUM_OK)
		c->bad_number = pstrdup(token);
	return KIDX_JSON_OK;
}

/*
 * The nesting depth of arrays and objects in a JSON text (brackets outside
 * string literals), counted only as far as one past limit.  In every server
 * encoding the bytes of a multibyte character are not ASCII, so no byte of
 * one is taken for a bracket or a quote.
 */
static int
json_nesting_depth(const char *s, int limit)
{
	int			depth = 0;
	int			max = 0;
	bool		in_string = false;

	for (; *s && max <= limit; s++)
	{
		if (in_string)
		{
			if (*s == '\\' && s[1] != '\0')
				s++;
			else if (*s == '"')
				in_string = false;
			continue;
		}
		if (*s == '"')
			in_string = true;
		else if ((*s == '[' || *s == '{') && ++depth > max)
			max = depth;
		else if (*s == ']' || *s == '}')
			depth--;
	}
	return max;
}

/* Reason a JSON object text cannot be used; see row_checks.h. */
const char *
row_json_object_fault(const char *value, int *sqlstate)
{
	JsonLexContext *lex;
	JsonSemAction sem;
	JsonCheck state;
	JsonParseErrorType err;

	memset(&sem, 0, sizeof(sem));
	memset(&state, 0, sizeof(state));
	sem.semstate = &state;
	sem.object_start = config_object_start;
	sem.object_end = config_object_end;
	sem.array_start = config_array_start;
	sem.array_end = config_array_end;
	sem.object_field_start = config_field_start;
	sem.scalar = config_scalar;

	if (json_nesting_depth(value, ROW_JSON_MAX_DEPTH) > ROW_JSON_MAX_DEPTH)
		return psprintf("nested deeper than %d levels", ROW_JSON_MAX_DEPTH);
	lex = kidx_json_lexer((char *) value, strlen(value), GetDatabaseEncoding(), true);
	err = pg_parse_json(lex, &sem);
	if (err != JSON_SUCCESS)
		return psprintf("malformed JSON (%s)", json_errdetail(err, lex));
	if (!state.top_is_object)
		return "not a JSON object";
	if (state.duplicate_key != NULL)
		return psprintf("the key \"%s\" appears twice in one object",
						row_shown_value(state.duplicate_key));
	if (state.bad_number != NULL)
	{
		*sqlstate = ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE;
		return psprintf("the number %s " KIDX_DOUBLE_CANNOT_CARRY " (write it as a string)",
						state.bad_number);
	}
	return NULL;
}

/* Reason a timestamp without time zone cannot be used; see row_checks.h. */
const char *
row_timestamp_fault(const char *value, Timestamp *ts)
{
	int64_t		usec;
	char		workbuf[MAXDATELEN + MAXDATEFIELDS];
	char	   *field[MAXDATEFIELDS];
	int			ftype[MAXDATEFIELDS];
	int			nf;
	int			dtype;
	struct pg_tm tt;
	fsec_t		fsec;

	/* What harnesses write, YYYY-MM-DD HH:MM:SS[.ffffff], parsed directly. */
	if (runfmt_plain_timestamp(value, strlen(value), &usec))
	{
		*ts = usec;
		return NULL;
	}

	/* Digits and date/time punctuation only: no "now", "yesterday", zones. */
	if (!isdigit((unsigned char) value[strspn(value, " ")]) ||
		strspn(value, "0123456789-:. T") != strlen(value))
		return "not a date and time YYYY-MM-DD HH:MM:SS";
	if (ParseDateTime(value, workbuf, sizeof(workbuf), field, ftype,
					  MAXDATEFIELDS, &nf) != 0)
		return "not a date and time";
	/* No tzp: a time zone in the value is refused (Liger writes UTC). */
	if (kidx_decode_datetime(field, ftype, nf, &dtype, &tt, &fsec, NULL) != 0)
		return "not a valid date and time without time zone";
	if (dtype != DTK_DATE)
		return "not a date and time";
	/* what PostgreSQL would quietly turn into another instant */
	if (strchr(value, ':') == NULL)
		return "a date without a time of day";
	if (tt.tm_sec >= 60)
		return "second 60: a leap second cannot be stored";
	if (tt.tm_hour >= 24)
		return "hour 24 is not a time of day";
	if (tm2timestamp(&tt, fsec, NULL, ts) != 0 || tt.tm_year < 1 ||
		tt.tm_year > 9999)
		return "out of range";
	return NULL;
}

/*
 * The reason of an RFC 3339 text with a field out of its range, from the
 * sentence saying which ("The day is not a day of its month.").
 */
static const char *
rfc3339_fault(const char *sentence)
{
	char	   *s = psprintf("not a valid date and time (RFC 3339): %s", sentence);
	char	   *first = s + strlen("not a valid date and time (RFC 3339): ");
	size_t		len = strlen(s);

	*first = pg_ascii_tolower((unsigned char) *first);
	if (len > 0 && s[len - 1] == '.')
		s[len - 1] = '\0';
	return s;
}

/* Reason an instant cannot be used; see row_checks.h. */
const char *
row_timestamptz_fault(const char *value, TimestampTz *ts)
{
	const char *t;
	int			len;
	int64_t		usec;
	Rfc3339		r;
	rfc3339_status status;
	char	   *v;
	char		workbuf[MAXDATELEN + MAXDATEFIELDS];
	char	   *field[MAXDATEFIELDS];
	int			ftype[MAXDATEFIELDS];
	int			nf;
	int			dtype;
	int			tz;
	struct pg_tm tt;
	fsec_t		fsec;

	row_trim_range(value, &t, &len);
	if (runfmt_plain_timestamp(t, len, &usec))
	{
		*ts = usec;
		return NULL;
	}
	status = rfc3339_parse(t, len, &r);
	switch (status)
	{
		case RFC3339_OK:
			if (!IS_VALID_TIMESTAMP(r.usec))
				return "out of range";
			*ts = r.usec;
			return NULL;
		case RFC3339_SYNTAX:
			break;
		default:
			return rfc3339_fault(rfc3339_status_text(status));
	}

	/* PostgreSQL's input, for digits, punctuation, offsets and UTC only */
	v = pnstrdup(t, len);
	if (len == 0 || !isdigit((unsigned char) v[0]) ||
		strspn(v, "0123456789-:.+ TZUC") != (size_t) len)
		return "not a date and time (RFC 3339, such as 2025-04-28T00:38:25Z)";
	if (ParseDateTime(v, workbuf, sizeof(workbuf), field, ftype,
					  MAXDATEFIELDS, &nf) != 0 ||
		kidx_decode_datetime(field, ftype, nf, &dtype, &tt, &fsec, &tz) != 0 ||
		dtype != DTK_DATE)
		return "not a date and time (RFC 3339, such as 2025-04-28T00:38:25Z)";
	if (strchr(v, ':') == NULL)
		return "a date without a time of day";
	if (tt.tm_sec >= 60)
		return "second 60: a leap second cannot be stored";
	if (tt.tm_hour >= 24)
		return "hour 24 is not a time of day";
	/* (a value without an offset or zone is UTC, as in Liger's files) */
	if (strpbrk(v + 10, "+Z") == NULL && strstr(v + 10, "-") == NULL)
		tz = 0;
	if (tm2timestamp(&tt, fsec, &tz, ts) != 0 || tt.tm_year < 1 || tt.tm_year > 9999)
		return "out of range";
	return NULL;
}
