/*
 * fuzz_target.h: what the libFuzzer targets of tests/unit share. The first
 * bytes of an input choose what to run; the rest is copied to a buffer of
 * exactly its length, so AddressSanitizer reports any read past it. A
 * violated invariant aborts, which libFuzzer reports as a crash.
 */
#ifndef GC_FUZZ_TARGET_H
#define GC_FUZZ_TARGET_H

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(cond) do { if (!(cond)) abort(); } while (0)

/* A malloc'd copy of data[skip..size), with a NUL after it when
 * terminated; its length (without the NUL) in *len. NULL when the input is
 * shorter than skip or memory runs out. */
static inline void *fuzz_input_copy(const uint8_t *data, size_t size, size_t skip,
                                    bool terminated, size_t *len)
{
    if (size < skip)
        return NULL;
    *len = size - skip;
    size_t bytes = *len + (terminated ? 1 : 0);
    unsigned char *copy = malloc(bytes > 0 ? bytes : 1);
    if (copy == NULL)
        return NULL;
    memcpy(copy, data + skip, *len);
    if (terminated)
        copy[*len] = '\0';
    return copy;
}

#endif
