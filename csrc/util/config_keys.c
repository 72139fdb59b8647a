/*
 * config_keys.c — see config_keys.h.
 */
#include "config_keys.h"
#include "fail.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

const ck_key *ck_find(const ck_key *keys, size_t nkeys, const char *name)
{
    for (size_t i = 0; i < nkeys; i++)
        if (strcmp(keys[i].name, name) == 0)
            return &keys[i];
    return NULL;
}

/* Unsigned integer with optional 0x prefix and K/M/G suffix. */
static int parse_u64(const char *s, uint64_t *out)
{
    while (isspace((unsigned char)*s))
        s++;
    if (*s == '-' || *s == '\0')
        return -1;
    errno = 0;
    char *end;
    unsigned long long v = strtoull(s, &end, 0);
    if (errno || end == s)
        return -1;
    uint64_t mul = 1;
    if (*end == 'K' || *end == 'k') { mul = 1ull << 10; end++; }
    else if (*end == 'M' || *end == 'm') { mul = 1ull << 20; end++; }
    else if (*end == 'G' || *end == 'g') { mul = 1ull << 30; end++; }
    while (isspace((unsigned char)*end))
        end++;
    if (*end != '\0')
        return -1;
    if (mul > 1 && v > UINT64_MAX / mul)
        return -1;
    *out = (uint64_t)v * mul;
    return 0;
}

static int parse_bool(const char *s, uint32_t *out)
{
    static const char *const yes[] = { "1", "true", "yes", "on" };
    static const char *const no[] = { "0", "false", "no", "off" };
    for (size_t i = 0; i < 4; i++) {
        if (strcmp(s, yes[i]) == 0) { *out = 1; return 0; }
        if (strcmp(s, no[i]) == 0) { *out = 0; return 0; }
    }
    return -1;
}

static void enum_list(const ck_key *k, const char *sep, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (size_t i = 0; k->enum_names[i]; i++) {
        int n = snprintf(buf + used, len - used, "%s%s", i ? sep : "",
                         k->enum_names[i]);
        if (n < 0 || (size_t)n >= len - used)
            break;
        used += (size_t)n;
    }
}

int ck_set(const ck_key *keys, size_t nkeys, void *obj, const char *name,
           const char *value, char *err, size_t errlen)
{
    const ck_key *k = ck_find(keys, nkeys, name);
    if (!k)
        return smc_fail(err, errlen, "unknown configuration key '%s'", name);
    char *field = (char *)obj + k->offset;
    switch (k->type) {
    case CK_U32:
    case CK_U64: {
        uint64_t v;
        if (parse_u64(value, &v) != 0)
            return smc_fail(err, errlen, "key '%s': '%s' is not an unsigned integer",
                        name, value);
        if (v < k->min || v > k->max)
            return smc_fail(err, errlen,
                        "key '%s': value %" PRIu64 " out of range [%" PRIu64
                        ", %" PRIu64 "]", name, v, k->min, k->max);
        if (k->type == CK_U32)
            *(uint32_t *)field = (uint32_t)v;
        else
            *(uint64_t *)field = v;
        return 0;
    }
    case CK_BOOL: {
        uint32_t b;
        if (parse_bool(value, &b) != 0)
            return smc_fail(err, errlen, "key '%s': '%s' is not a boolean "
                        "(true/false/1/0/yes/no/on/off)", name, value);
        *(uint32_t *)field = b;
        return 0;
    }
    case CK_ENUM:
        for (uint32_t i = 0; k->enum_names[i]; i++) {
            if (strcmp(value, k->enum_names[i]) == 0) {
                *(uint32_t *)field = i;
                return 0;
            }
        }
        {
            char list[256];
            enum_list(k, "|", list, sizeof list);
            return smc_fail(err, errlen, "key '%s': '%s' is not one of %s", name,
                        value, list);
        }
    case CK_DOUBLE: {
        errno = 0;
        char *end;
        double d = strtod(value, &end);
        while (isspace((unsigned char)*end))
            end++;
        if (errno || end == value || *end != '\0' || !isfinite(d))
            return smc_fail(err, errlen, "key '%s': '%s' is not a number", name,
                        value);
        if (d < k->dmin || d > k->dmax)
            return smc_fail(err, errlen, "key '%s': value %g out of range [%g, %g]",
                        name, d, k->dmin, k->dmax);
        *(double *)field = d;
        return 0;
    }
    case CK_STR: {
        size_t n = strlen(value);
        if (n >= 2 && value[0] == '"' && value[n - 1] == '"') {  /* "" or "text" */
            value++;
            n -= 2;
        }
        if (n > k->max)
            return smc_fail(err, errlen, "key '%s': value longer than %" PRIu64
                        " characters", name, k->max);
        if (memchr(value, '#', n) || memchr(value, '"', n))
            return smc_fail(err, errlen, "key '%s': '#' and '\"' are not allowed in "
                        "the value", name);
        memset(field, 0, (size_t)k->max + 1);
        memcpy(field, value, n);
        return 0;
    }
    }
    return smc_fail(err, errlen, "key '%s': bad key type", name);
}

/* Trim leading/trailing white space in place; returns the start. */
static char *trim(char *s)
{
    while (isspace((unsigned char)*s))
        s++;
    size_t n = strlen(s);
    while (n && isspace((unsigned char)s[n - 1]))
        s[--n] = '\0';
    return s;
}

/* Split "key = value" in a writable buffer and set it. */
static int apply_line(const ck_key *keys, size_t nkeys, void *obj, char *line,
                      char *err, size_t errlen)
{
    char *eq = strchr(line, '=');
    if (!eq)
        return smc_fail(err, errlen, "expected 'key = value', got '%s'", trim(line));
    *eq = '\0';
    char *name = trim(line);
    char *value = trim(eq + 1);
    if (*name == '\0')
        return smc_fail(err, errlen, "missing key before '='");
    const ck_key *k = ck_find(keys, nkeys, name);
    if (*value == '\0' && !(k && k->type == CK_STR))   /* a string may be empty */
        return smc_fail(err, errlen, "key '%s': missing value", name);
    return ck_set(keys, nkeys, obj, name, value, err, errlen);
}

int ck_apply(const ck_key *keys, size_t nkeys, void *obj,
             const char *assignment, char *err, size_t errlen)
{
    char buf[512];
    if (strlen(assignment) >= sizeof buf)
        return smc_fail(err, errlen, "assignment too long: '%.40s...'", assignment);
    strcpy(buf, assignment);
    return apply_line(keys, nkeys, obj, buf, err, errlen);
}

int ck_load_text(const ck_key *keys, size_t nkeys, void *obj, const char *text,
                 const char *source, char *err, size_t errlen)
{
    unsigned lineno = 0;
    const char *p = text;
    while (*p) {
        lineno++;
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        char buf[512];
        if (len >= sizeof buf)
            return smc_fail(err, errlen, "%s:%u: line too long", source, lineno);
        memcpy(buf, p, len);
        buf[len] = '\0';
        char *hash = strchr(buf, '#');
        if (hash)
            *hash = '\0';
        char *line = trim(buf);
        if (*line) {
            char msg[400];
            if (apply_line(keys, nkeys, obj, line, msg, sizeof msg) != 0)
                return smc_fail(err, errlen, "%s:%u: %s", source, lineno, msg);
        }
        p += len;
        if (*p == '\n')
            p++;
    }
    return 0;
}

int ck_load_file(const ck_key *keys, size_t nkeys, void *obj, const char *path,
                 char *err, size_t errlen)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return smc_fail(err, errlen, "%s: cannot open: %s", path, strerror(errno));
    size_t cap = 4096, len = 0;
    char *text = malloc(cap);
    if (!text) {
        fclose(f);
        return smc_fail(err, errlen, "%s: out of memory", path);
    }
    size_t n;
    while ((n = fread(text + len, 1, cap - len - 1, f)) > 0) {
        len += n;
        if (cap - len <= 1) {
            char *bigger = realloc(text, cap * 2);
            if (!bigger) {
                free(text);
                fclose(f);
                return smc_fail(err, errlen, "%s: out of memory", path);
            }
            text = bigger;
            cap *= 2;
        }
    }
    int bad = ferror(f);
    fclose(f);
    if (bad) {
        free(text);
        return smc_fail(err, errlen, "%s: read error", path);
    }
    text[len] = '\0';
    if (memchr(text, '\0', len)) {
        free(text);
        return smc_fail(err, errlen, "%s: not a text file", path);
    }
    int rc = ck_load_text(keys, nkeys, obj, text, path, err, errlen);
    free(text);
    return rc;
}

int ck_check(const ck_key *keys, size_t nkeys, const void *obj, char *err,
             size_t errlen)
{
    for (size_t i = 0; i < nkeys; i++) {
        const ck_key *k = &keys[i];
        const char *field = (const char *)obj + k->offset;
        switch (k->type) {
        case CK_U32: {
            uint32_t v = *(const uint32_t *)field;
            if (v < k->min || v > k->max)
                return smc_fail(err, errlen, "key '%s': value %" PRIu32
                            " out of range [%" PRIu64 ", %" PRIu64 "]",
                            k->name, v, k->min, k->max);
            break;
        }
        case CK_U64: {
            uint64_t v = *(const uint64_t *)field;
            if (v < k->min || v > k->max)
                return smc_fail(err, errlen, "key '%s': value %" PRIu64
                            " out of range [%" PRIu64 ", %" PRIu64 "]",
                            k->name, v, k->min, k->max);
            break;
        }
        case CK_BOOL:
            if (*(const uint32_t *)field > 1)
                return smc_fail(err, errlen, "key '%s': not a boolean", k->name);
            break;
        case CK_ENUM: {
            uint32_t v = *(const uint32_t *)field, n = 0;
            while (k->enum_names[n])
                n++;
            if (v >= n)
                return smc_fail(err, errlen, "key '%s': enum index %" PRIu32
                            " out of range", k->name, v);
            break;
        }
        case CK_DOUBLE: {
            double d = *(const double *)field;
            if (!(d >= k->dmin && d <= k->dmax))
                return smc_fail(err, errlen, "key '%s': value %g out of range "
                            "[%g, %g]", k->name, d, k->dmin, k->dmax);
            break;
        }
        case CK_STR:
            if (!memchr(field, '\0', (size_t)k->max + 1))
                return smc_fail(err, errlen, "key '%s': string not terminated", k->name);
            break;
        }
    }
    return 0;
}

void ck_format(const ck_key *k, const void *obj, char *buf, size_t len)
{
    const char *field = (const char *)obj + k->offset;
    switch (k->type) {
    case CK_U32:
        snprintf(buf, len, "%" PRIu32, *(const uint32_t *)field);
        break;
    case CK_U64:
        snprintf(buf, len, "%" PRIu64, *(const uint64_t *)field);
        break;
    case CK_BOOL:
        snprintf(buf, len, "%s", *(const uint32_t *)field ? "true" : "false");
        break;
    case CK_ENUM: {
        uint32_t v = *(const uint32_t *)field, n = 0;
        while (k->enum_names[n])
            n++;
        snprintf(buf, len, "%s", v < n ? k->enum_names[v] : "?");
        break;
    }
    case CK_DOUBLE:
        snprintf(buf, len, "%.17g", *(const double *)field);
        break;
    case CK_STR:
        snprintf(buf, len, field[0] ? "%s" : "\"\"", field);
        break;
    }
}

void ck_print(const ck_key *keys, size_t nkeys, const void *obj, FILE *out)
{
    for (size_t i = 0; i < nkeys; i++) {
        char val[300];
        ck_format(&keys[i], obj, val, sizeof val);
        fprintf(out, "%-22s = %-10s # %s\n", keys[i].name, val, keys[i].doc);
    }
}

int ck_apply_sources(const ck_key *keys, size_t nkeys, void *obj, const ck_source *table,
                     char *err, size_t errlen)
{
    for (const ck_source *t = table; t->key; t++) {
        char a[256];
        snprintf(a, sizeof a, "%s=%s", t->key, t->value);
        if (ck_apply(keys, nkeys, obj, a, err, errlen) != 0)
            return -1;
    }
    return 0;
}

const ck_source *ck_sources_of(const ck_preset_sources *list, const char *preset)
{
    for (; list->preset; list++)
        if (strcmp(list->preset, preset) == 0)
            return list->sources;
    return NULL;
}

void ck_print_sourced(const ck_key *keys, size_t nkeys, const void *obj, size_t obj_size,
                      const ck_source *const *tables, FILE *out)
{
    void *scratch = malloc(obj_size);
    for (size_t i = 0; i < nkeys; i++) {
        char val[300];
        ck_format(&keys[i], obj, val, sizeof val);
        fprintf(out, "%-22s = %-10s # %s\n", keys[i].name, val, keys[i].doc);
        const ck_source *t = NULL;
        for (size_t j = 0; !t && tables && tables[j]; j++)
            for (const ck_source *e = tables[j]; e->key && !t; e++)
                if (strcmp(e->key, keys[i].name) == 0)
                    t = e;
        if (!t || !scratch)
            continue;
        /* the preset's value, formatted the same way: the source holds
         * only while the value is still the preset's */
        char a[256], pre[300], err[256];
        memcpy(scratch, obj, obj_size);
        snprintf(a, sizeof a, "%s=%s", t->key, t->value);
        if (ck_apply(keys, nkeys, scratch, a, err, sizeof err) != 0)
            continue;
        ck_format(&keys[i], scratch, pre, sizeof pre);
        if (strcmp(pre, val) == 0)
            fprintf(out, "%-35s #   source: %s\n", "", t->source);
        else
            fprintf(out, "%-35s #   changed from the preset's %s (source: %s)\n", "", pre,
                    t->source);
    }
    free(scratch);
}

static void range_text(const ck_key *k, char *buf, size_t len)
{
    switch (k->type) {
    case CK_U32:
    case CK_U64:
        snprintf(buf, len, "integer %" PRIu64 "..%" PRIu64, k->min, k->max);
        break;
    case CK_BOOL:
        snprintf(buf, len, "bool");
        break;
    case CK_ENUM: {
        char list[200];
        enum_list(k, ", ", list, sizeof list);   /* no '|' inside a table */
        snprintf(buf, len, "one of %s", list);
        break;
    }
    case CK_DOUBLE:
        snprintf(buf, len, "number %g..%g", k->dmin, k->dmax);
        break;
    case CK_STR:
        snprintf(buf, len, "text, up to %" PRIu64 " characters", k->max);
        break;
    }
}

void ck_markdown(const ck_key *keys, size_t nkeys, const void *obj, FILE *out)
{
    fprintf(out, obj ? "| key | type, range | value | description |\n"
                       "|---|---|---|---|\n"
                     : "| key | type, range | description |\n|---|---|---|\n");
    for (size_t i = 0; i < nkeys; i++) {
        char range[256], val[300];
        range_text(&keys[i], range, sizeof range);
        if (obj) {
            ck_format(&keys[i], obj, val, sizeof val);
            fprintf(out, "| `%s` | %s | %s | %s |\n", keys[i].name, range, val,
                    keys[i].doc);
        } else {
            fprintf(out, "| `%s` | %s | %s |\n", keys[i].name, range,
                    keys[i].doc);
        }
    }
}
