/*
 * locality.c — per-kernel locality hints by kernel name (locality.h).
 */
#include "locality.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Append n bytes of s to out (used bytes so far *used); 0 when it does not fit. */
static int append(char *out, size_t outlen, size_t *used, const char *s, size_t n)
{
    if (*used + n + 1 > outlen)
        return 0;
    memcpy(out + *used, s, n);
    *used += n;
    out[*used] = '\0';
    return 1;
}

/* The qualified name of an Itanium-mangled function without its parameters
 * or template arguments: "_Z4gemmPfS_S_" -> "gemm", "_ZN2ns4gemmEPf" ->
 * "ns::gemm", "_ZNSt3fooEv" -> "std::foo". *last points at the last
 * component inside out. 0 when `name` is not of a form handled here
 * (operators, constructors, local names, ...): such a kernel is then
 * matched by its mangled name only. */
static int demangle_name(const char *name, char *out, size_t outlen, const char **last)
{
    if (strncmp(name, "_Z", 2) != 0)
        return 0;
    const char *p = name + 2;
    if (*p == 'L')                       /* internal linkage (static) */
        p++;
    int nested = 0;
    if (*p == 'N') {                     /* N [CV-qualifiers] [ref] prefix... E */
        nested = 1;
        p++;
        while (*p == 'r' || *p == 'V' || *p == 'K')
            p++;
        if (*p == 'R' || *p == 'O')
            p++;
    }
    size_t used = 0;
    out[0] = '\0';
    for (;;) {
        if (nested && used == 0 && p[0] == 'S' && p[1] == 't') {   /* std:: */
            if (!append(out, outlen, &used, "std", 3))
                return 0;
            *last = out;
            p += 2;
            continue;
        }
        if (!isdigit((unsigned char)*p))
            break;
        char *end;
        unsigned long len = strtoul(p, &end, 10);
        if (len == 0 || strnlen(end, len) < len)
            return 0;
        if (used && !append(out, outlen, &used, "::", 2))
            return 0;
        *last = out + used;
        if (!append(out, outlen, &used, end, len))
            return 0;
        p = end + len;
        if (!nested || *p == 'I')        /* one name, or template arguments follow */
            break;
    }
    return used > 0 && **last != '\0';
}

int locality_kernel_matches(const char *pattern, const char *kernel_name)
{
    if (strcmp(pattern, kernel_name) == 0)
        return 1;
    char q[512];
    const char *last = NULL;
    if (!demangle_name(kernel_name, q, sizeof q, &last))
        return 0;
    return strcmp(pattern, q) == 0 || strcmp(pattern, last) == 0;
}

int locality_map_lookup(const locality_map *m, const char *kernel_name, uint32_t *hint)
{
    for (uint32_t i = 0; i < m->n; i++)
        if (locality_kernel_matches(m->e[i].kernel, kernel_name)) {
            *hint = m->e[i].hint;
            return 1;
        }
    return 0;
}

/* s[0..n) without leading and trailing spaces. */
static void trim(const char **s, size_t *n)
{
    while (*n && isspace((unsigned char)**s)) {
        (*s)++;
        (*n)--;
    }
    while (*n && isspace((unsigned char)(*s)[*n - 1]))
        (*n)--;
}

int locality_map_parse(locality_map *m, const char *spec, char *err, size_t errlen)
{
    m->n = 0;
    size_t used = 0;
    if (!spec)
        return 0;
    for (const char *p = spec; *p;) {
        const char *comma = strchr(p, ',');
        size_t len = comma ? (size_t)(comma - p) : strlen(p);
        const char *ent = p;
        size_t elen = len;
        p += len + (comma ? 1 : 0);
        trim(&ent, &elen);
        if (elen == 0)
            continue;                    /* "a=1,,b=2" or a trailing comma */
        const char *eq = memchr(ent, '=', elen);
        if (!eq) {
            snprintf(err, errlen, "--locality '%.*s': expected KERNEL=HINT", (int)elen, ent);
            return -1;
        }
        const char *name = ent, *val = eq + 1;
        size_t nlen = (size_t)(eq - ent), vlen = elen - nlen - 1;
        trim(&name, &nlen);
        trim(&val, &vlen);
        if (nlen == 0) {
            snprintf(err, errlen, "--locality '%.*s': no kernel name before '='", (int)elen, ent);
            return -1;
        }
        /* a hint is one digit 0..3 (seed 000 Table 6.1) or auto (detected,
         * csrc/timing/locality_detect.c) */
        int is_auto = vlen == 4 && strncmp(val, "auto", 4) == 0;
        if (!is_auto && (vlen != 1 || val[0] < '0' || val[0] > '3')) {
            snprintf(err, errlen, "--locality: kernel %.*s: hint '%.*s' is not one of 0..3 "
                     "(0 none, 1 many lines shared, 2 boundary lines shared, 3 some data "
                     "shared; seed 000 Table 6.1) or auto", (int)nlen, name, (int)vlen, val);
            return -1;
        }
        if (m->n == LOCALITY_MAX_ENTRIES || used + nlen + 1 > sizeof m->text) {
            snprintf(err, errlen, "--locality: more than %d kernels or %d characters",
                     LOCALITY_MAX_ENTRIES, LOCALITY_MAX_TEXT);
            return -1;
        }
        char *stored = m->text + used;
        memcpy(stored, name, nlen);
        stored[nlen] = '\0';
        for (uint32_t i = 0; i < m->n; i++)
            if (strcmp(m->e[i].kernel, stored) == 0) {
                snprintf(err, errlen, "--locality: kernel %s is given twice", stored);
                return -1;
            }
        used += nlen + 1;
        m->e[m->n].kernel = stored;
        m->e[m->n].hint = is_auto ? LOCALITY_AUTO : (uint32_t)(val[0] - '0');
        m->n++;
    }
    return 0;
}
