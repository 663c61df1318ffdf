/*
 * gc_hex: hexadecimal digits, the one reader every layer uses (bytea and
 * GUID text, SQL string escapes, key values, psqlODBC's option masks).
 */
#ifndef GC_HEX_H
#define GC_HEX_H

/* The value of a hex digit (either case), -1 for anything else. */
int gc_hex_value(char c);

#endif
