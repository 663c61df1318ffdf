/*
 * libFuzzer target for key placement: a sharding key's value arrives as the
 * text of a literal or a bound parameter, whatever the application wrote.
 * The first byte picks the key type and whether it has a typmod, the rest
 * is the text. The text either parses (with a reason when it cannot be
 * placed exactly), and then hashes to the same value twice, compares equal
 * to itself and to a copy it owns; or it does not. The time zone parser
 * (SET TIME ZONE's value, for keys of local time) and the local-time test
 * run over the same text. A violated invariant aborts, which libFuzzer
 * reports as a crash; ASan reports reads past the text (not NUL-terminated).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "placement/gc_keyval.h"
#include "placement/gc_pghash.h"
#include "placement/gc_time_zone.h"
#include "fuzz_target.h"

/* A typmod from the selector byte: none, precision and scale for numeric
 * (as the server stores them: + 4), or for every other type the same small
 * number, a length to the character types and an odd one to the rest. */
static int32_t typmod_of(gc_keytype type, uint8_t selector)
{
    if (!(selector & 0x80))
        return -1;
    if (type == GC_KEY_NUMERIC)
        return ((int32_t)(selector & 0x3f) << 16 | (selector & 0x07)) + 4;
    return (selector & 0x3f) + 4;
}

static void key_value(gc_keytype type, int32_t typmod, const char *text, size_t len)
{
    gc_keyval value, copy;
    const char *why = NULL;
    if (!gc_keyval_parse(type, typmod, text, len, &value, &why)) {
        CHECK(why != NULL);
        return;
    }
    uint64_t first = 0, second = 0;
    bool hashed = gc_keyval_hash(&value, GC_PGHASH_PARTITION_SEED, &first);
    CHECK(hashed == gc_keyval_hash(&value, GC_PGHASH_PARTITION_SEED, &second));
    CHECK(!hashed || first == second);
    if (!value.is_null)
        CHECK(gc_keyval_compare(&value, &value) == 0);
    if (gc_keyval_parse(type, typmod, text, len, &copy, &why)) {
        if (gc_keyval_own(&copy) && !value.is_null && !copy.is_null)
            CHECK(gc_keyval_compare(&value, &copy) == 0);
        gc_keyval_free(&copy);
    }
    gc_keyval_free(&value);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* The key text without a terminator, as a parameter value may come;
     * the time zone with one, as a setting does. */
    size_t len;
    char *text = fuzz_input_copy(data, size, 1, false, &len);
    char *zone = fuzz_input_copy(data, size, 1, true, &len);
    if (text == NULL || zone == NULL) {
        free(text);
        free(zone);
        return 0;
    }
    gc_keytype type = (gc_keytype)(1 + (data[0] & 0x7f) % GC_KEY_NUMERIC);
    key_value(type, typmod_of(type, data[0]), text, len);
    bool has_time;
    (void)gc_keyval_timestamp_is_local(text, len, &has_time);
    int32_t east_seconds;
    (void)gc_time_zone_fixed_offset(zone, &east_seconds);
    free(text);
    free(zone);
    return 0;
}
