/* Fixed UTC offsets of TimeZone names (see header). */
#include "placement/gc_time_zone.h"

#include <string.h>
#include <strings.h>

/* Names of UTC itself in the time zone database, each also under "Etc/". */
static const char *const utc_names[] = {
    "UTC", "UCT", "GMT", "GMT0", "GMT+0", "GMT-0", "Greenwich", "Universal", "Zulu",
};

static bool is_utc_name(const char *name)
{
    for (size_t k = 0; k < sizeof utc_names / sizeof utc_names[0]; k++)
        if (strcasecmp(name, utc_names[k]) == 0)
            return true;
    return false;
}

static bool is_digit(char c)
{
    return c >= '0' && c <= '9';
}

static bool is_alpha(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/* Reads 1 or 2 digits at *p, at most max; advances *p. */
static bool read_number(const char **p, int max, int *out)
{
    if (!is_digit(**p))
        return false;
    int v = *(*p)++ - '0';
    if (is_digit(**p))
        v = v * 10 + (*(*p)++ - '0');
    *out = v;
    return v <= max;
}

/* A POSIX offset, [+|-]hh[:mm[:ss]], positive west of UTC as POSIX counts,
 * ending the text. */
static bool read_posix_offset(const char *p, int32_t *west_seconds)
{
    int sign = 1;
    if (*p == '+' || *p == '-')
        sign = *p++ == '-' ? -1 : 1;
    int h, m = 0, s = 0;
    if (!read_number(&p, 24, &h))
        return false;
    if (*p == ':' && (p++, !read_number(&p, 59, &m)))
        return false;
    if (*p == ':' && (p++, !read_number(&p, 59, &s)))
        return false;
    if (*p != '\0')
        return false;   /* a daylight-saving part, or anything else */
    *west_seconds = sign * (h * 3600 + m * 60 + s);
    return true;
}

/* The POSIX form without rules: "<abbr>offset" or an abbreviation of three
 * or more letters, then the offset. */
static bool posix_fixed(const char *zone, int32_t *east_seconds)
{
    const char *p = zone;
    if (*p == '<') {
        p = strchr(p, '>');
        if (p == NULL)
            return false;
        p++;
    } else {
        while (is_alpha(*p))
            p++;
        if (p - zone < 3)
            return false;
    }
    int32_t west;
    if (!read_posix_offset(p, &west))
        return false;
    *east_seconds = -west;
    return true;
}

bool gc_time_zone_fixed_offset(const char *zone, int32_t *east_seconds)
{
    if (zone == NULL)
        return false;
    const char *name = strncasecmp(zone, "Etc/", 4) == 0 ? zone + 4 : zone;
    if (is_utc_name(name)) {
        *east_seconds = 0;
        return true;
    }
    /* Etc/GMT+5 is five hours west of UTC: the POSIX sign. */
    if (name != zone && strncasecmp(name, "GMT", 3) == 0 && (name[3] == '+' || name[3] == '-')) {
        int32_t west;
        if (!read_posix_offset(name + 3, &west) || strchr(name + 3, ':') != NULL)
            return false;
        *east_seconds = -west;
        return true;
    }
    return name == zone && posix_fixed(zone, east_seconds);
}
