/*
 * config_keys.h — one generic mechanism for "configuration as a key table".
 *
 * A configuration is a plain C struct. A key table describes its fields once:
 * name ("l1d.sets"), type, offset into the struct, allowed range and a one-line
 * doc string. From that single table this module
 *
 *   - sets a field from text, checking type and range   (ck_set)
 *   - applies "key=value" strings (command line)         (ck_apply)
 *   - reads "key = value" lines from a file, '#' starts a comment, errors
 *     name the file and line                              (ck_load_file)
 *   - range-checks a whole struct (e.g. a preset)         (ck_check)
 *   - prints every key with its value                     (ck_print)
 *   - writes the Markdown key table for docs/             (ck_markdown)
 *
 * Every error names the key (and file:line when there is one) in the caller's
 * error buffer and makes the call return -1; nothing here aborts or exits.
 *
 * Integer values accept decimal, 0x-hex and a K/M/G suffix (x1024, x1024^2,
 * x1024^3). Booleans accept 0/1/true/false/yes/no/on/off. Enums accept one of
 * the names listed in the key (stored as its index, a uint32_t). Strings
 * (a path) are stored in a char array of the struct; "" or nothing after
 * '=' is the empty string, and '#' is refused (it starts a comment).
 */
#ifndef SMC_CONFIG_KEYS_H
#define SMC_CONFIG_KEYS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum ck_type {
    CK_U32,     /* uint32_t, range [min, max] */
    CK_U64,     /* uint64_t, range [min, max] */
    CK_BOOL,    /* uint32_t holding 0 or 1 */
    CK_ENUM,    /* uint32_t holding an index into enum_names */
    CK_DOUBLE,  /* double, range [dmin, dmax] */
    CK_STR      /* char[max + 1], at most max characters, NUL-terminated */
} ck_type;

typedef struct ck_key {
    const char *name;               /* "l1d.sets" */
    ck_type     type;
    size_t      offset;             /* offsetof(struct, field) */
    uint64_t    min, max;           /* CK_U32 / CK_U64 */
    double      dmin, dmax;         /* CK_DOUBLE */
    const char *const *enum_names;  /* CK_ENUM: NULL-terminated list */
    const char *doc;                /* one line, shown in print and Markdown */
} ck_key;

/* Convenience initialisers for key tables. */
#define CK_KEY_U32(nm, st, fld, lo, hi, dc) \
    { nm, CK_U32, offsetof(st, fld), lo, hi, 0, 0, NULL, dc }
#define CK_KEY_U64(nm, st, fld, lo, hi, dc) \
    { nm, CK_U64, offsetof(st, fld), lo, hi, 0, 0, NULL, dc }
#define CK_KEY_BOOL(nm, st, fld, dc) \
    { nm, CK_BOOL, offsetof(st, fld), 0, 1, 0, 0, NULL, dc }
#define CK_KEY_ENUM(nm, st, fld, names, dc) \
    { nm, CK_ENUM, offsetof(st, fld), 0, 0, 0, 0, names, dc }
#define CK_KEY_DOUBLE(nm, st, fld, lo, hi, dc) \
    { nm, CK_DOUBLE, offsetof(st, fld), 0, 0, lo, hi, NULL, dc }
#define CK_KEY_STR(nm, st, fld, dc) \
    { nm, CK_STR, offsetof(st, fld), 0, sizeof(((st *)0)->fld) - 1, 0, 0, NULL, dc }

/* The key called `name`, or NULL. */
const ck_key *ck_find(const ck_key *keys, size_t nkeys, const char *name);

/* Parse `value` for key `name` and store it in `obj`. On error (unknown key,
 * unparsable or out-of-range value) writes a message naming the key into
 * err and returns -1; `obj` is unchanged. */
int ck_set(const ck_key *keys, size_t nkeys, void *obj, const char *name,
           const char *value, char *err, size_t errlen);

/* Apply one "key=value" string (spaces around '=' allowed). */
int ck_apply(const ck_key *keys, size_t nkeys, void *obj,
             const char *assignment, char *err, size_t errlen);

/* Apply "key = value" lines from text; `source` names it in messages
 * ("file.cfg"), errors read "file.cfg:12: ...". Blank lines and '#'
 * comments are ignored. Stops at the first error. */
int ck_load_text(const ck_key *keys, size_t nkeys, void *obj, const char *text,
                 const char *source, char *err, size_t errlen);

/* ck_load_text on the contents of a file. */
int ck_load_file(const ck_key *keys, size_t nkeys, void *obj, const char *path,
                 char *err, size_t errlen);

/* Check that every field of `obj` is within its key's range. */
int ck_check(const ck_key *keys, size_t nkeys, const void *obj, char *err,
             size_t errlen);

/* Format the value of `key` in `obj` into buf ("32", "true", "on_fill"). */
void ck_format(const ck_key *key, const void *obj, char *buf, size_t len);

/* Print "key = value  # doc" for every key: the output is itself a valid
 * input to ck_load_text. */
void ck_print(const ck_key *keys, size_t nkeys, const void *obj, FILE *out);

/* A preset written as a table: each value with where it comes from (a
 * paper's table, a simulator's option or source file, or "assumed: why").
 * The table ends with a NULL key. One place holds the number and its
 * source, so that `smcosim config` can show both. */
typedef struct ck_source {
    const char *key, *value, *source;
} ck_source;

/* Apply every "key = value" of the table (-1 and a message naming the key
 * when one is refused). */
int ck_apply_sources(const ck_key *keys, size_t nkeys, void *obj, const ck_source *table,
                     char *err, size_t errlen);

/* The source tables of a program's presets: {preset name, table}, ending
 * with a NULL name. ck_sources_of gives a preset's table, or NULL for a
 * preset written without one. */
typedef struct ck_preset_sources {
    const char *preset;
    const ck_source *sources;
} ck_preset_sources;
const ck_source *ck_sources_of(const ck_preset_sources *list, const char *preset);

/* ck_print, and under a key whose value a table sets: "#   source: ..."
 * while the value is the table's, else what it was changed from (still
 * valid input to ck_load_text). tables: NULL-terminated, or NULL; obj_size:
 * sizeof *obj. */
void ck_print_sourced(const ck_key *keys, size_t nkeys, const void *obj, size_t obj_size,
                      const ck_source *const *tables, FILE *out);

/* Markdown table | key | type/range | value | description |; `obj` gives the
 * value column (NULL: no value column). */
void ck_markdown(const ck_key *keys, size_t nkeys, const void *obj, FILE *out);

#ifdef __cplusplus
}
#endif
#endif /* SMC_CONFIG_KEYS_H */
