/*
 * libFuzzer target for value conversion, both ways:
 *   - a parameter: any bytes as the value of any C type the driver reads,
 *     bound for any SQL type, with any column size, decimal digits and
 *     length indicator: converted, or refused with one of the SQLSTATEs
 *     gc_convert.h documents; a converted value has its text;
 *   - a result value: any text as a value of any PostgreSQL type the
 *     driver maps, read into any C type with any buffer (none, too small,
 *     large), piece after piece as SQLGetData does: each call gives a
 *     documented return code and SQLSTATE, never writes past the buffer,
 *     and stops.
 * The first six bytes choose; the rest is the value. A violated invariant
 * aborts, which libFuzzer reports as a crash; ASan reports reads past the
 * value and writes past the buffers.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "convert/gc_convert.h"
#include "fuzz_target.h"

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static const SQLSMALLINT c_types[] = {
    SQL_C_CHAR, SQL_C_WCHAR, SQL_C_BINARY, SQL_C_BIT, SQL_C_STINYINT, SQL_C_UTINYINT,
    SQL_C_TINYINT, SQL_C_SSHORT, SQL_C_USHORT, SQL_C_SHORT, SQL_C_SLONG, SQL_C_ULONG,
    SQL_C_LONG, SQL_C_SBIGINT, SQL_C_UBIGINT, SQL_C_FLOAT, SQL_C_DOUBLE, SQL_C_NUMERIC,
    SQL_C_TYPE_DATE, SQL_C_TYPE_TIME, SQL_C_TYPE_TIMESTAMP, SQL_C_DATE, SQL_C_TIME,
    SQL_C_TIMESTAMP, SQL_C_GUID, SQL_C_DEFAULT, SQL_C_INTERVAL_YEAR, SQL_C_INTERVAL_MONTH,
    SQL_C_INTERVAL_DAY, SQL_C_INTERVAL_HOUR, SQL_C_INTERVAL_MINUTE, SQL_C_INTERVAL_SECOND,
    SQL_C_INTERVAL_YEAR_TO_MONTH, SQL_C_INTERVAL_DAY_TO_HOUR, SQL_C_INTERVAL_DAY_TO_MINUTE,
    SQL_C_INTERVAL_DAY_TO_SECOND, SQL_C_INTERVAL_HOUR_TO_MINUTE,
    SQL_C_INTERVAL_HOUR_TO_SECOND, SQL_C_INTERVAL_MINUTE_TO_SECOND,
};

static const SQLSMALLINT sql_types[] = {
    SQL_CHAR, SQL_VARCHAR, SQL_LONGVARCHAR, SQL_WCHAR, SQL_WVARCHAR, SQL_WLONGVARCHAR,
    SQL_DECIMAL, SQL_NUMERIC, SQL_BIT, SQL_TINYINT, SQL_SMALLINT, SQL_INTEGER, SQL_BIGINT,
    SQL_REAL, SQL_FLOAT, SQL_DOUBLE, SQL_BINARY, SQL_VARBINARY, SQL_LONGVARBINARY,
    SQL_TYPE_DATE, SQL_TYPE_TIME, SQL_TYPE_TIMESTAMP, SQL_DATE, SQL_TIME, SQL_TIMESTAMP,
    SQL_GUID, SQL_INTERVAL_YEAR, SQL_INTERVAL_YEAR_TO_MONTH, SQL_INTERVAL_DAY,
    SQL_INTERVAL_HOUR_TO_MINUTE, SQL_INTERVAL_DAY_TO_SECOND, SQL_INTERVAL_SECOND,
};

/* bool, bytea, "char", name, int8, int2, int4, text, oid, json, xml, float4,
 * float8, money, macaddr, inet, cidr, bpchar, varchar, date, time,
 * timestamp, timestamptz, interval, timetz, bit, varbit, numeric, uuid,
 * jsonb, int4[], and two the driver does not know. */
static const Oid pg_types[] = {
    16, 17, 18, 19, 20, 21, 23, 25, 26, 114, 142, 700, 701, 790, 829, 869, 650, 1042,
    1043, 1082, 1083, 1114, 1184, 1186, 1266, 1560, 1562, 1700, 2950, 3802, 1007, 0, 99999,
};

static bool sqlstate_in(const gc_error *err, const char *const *states, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(err->sqlstate, states[i]) == 0)
            return true;
    return false;
}

static void parameter(const uint8_t *choice, const uint8_t *value, size_t len)
{
    static const char *const refused[] = {
        "22003", "22018", "22007", "22008", "22015", "07006", "HY003", "HY004", "HY009",
        "HY090", "HY001", "07S01",
    };
    SQLSMALLINT c_type = c_types[choice[1] % COUNT(c_types)];
    SQLSMALLINT sql_type = sql_types[choice[2] % COUNT(sql_types)];
    /* Room for any fixed-size C struct the type may say the value is, and
     * a terminator after the bytes given (for WCHAR a zero unit at an even
     * offset, whether the length is odd or even). */
    size_t room = (len < 64 ? 64 : len) + 3;
    uint8_t *buffer = calloc(1, room);
    if (buffer == NULL)
        return;
    memcpy(buffer, value, len);
    SQLLEN indicator;
    switch (choice[5] & 3) {
    case 0: indicator = SQL_NTS; break;
    case 1: indicator = (SQLLEN)len; break;
    case 2: indicator = (SQLLEN)(len / 2); break;
    default: indicator = SQL_NULL_DATA; break;
    }
    gc_param_value out = {0};
    gc_error err;
    gc_error_clear(&err);
    SQLRETURN rc = gc_convert_param_from_c(c_type, sql_type, choice[3],
                                           (SQLSMALLINT)(int8_t)choice[4], buffer,
                                           (SQLLEN)len, indicator, &out, &err);
    if (rc == SQL_ERROR) {
        CHECK(sqlstate_in(&err, refused, COUNT(refused)));
    } else {
        CHECK(rc == SQL_SUCCESS || rc == SQL_SUCCESS_WITH_INFO);
        CHECK((out.data == NULL) == (indicator == SQL_NULL_DATA));
        if (out.data != NULL) {
            size_t text_len;
            char *text = gc_param_value_text(&out, &text_len);
            CHECK(text == NULL || strlen(text) == text_len);
            free(text);
        }
    }
    gc_param_value_free(&out);
    free(buffer);
}

static void result_value(const uint8_t *choice, const uint8_t *value, size_t len)
{
    static const char *const failed[] = {
        "22003", "22018", "22007", "22008", "22015", "22002", "07006", "HY003", "HY001",
    };
    static const char *const warned[] = { "01004", "01S07" };
    enum { GUARD = 16 };
    uint8_t buffer[128 + GUARD];
    memset(buffer, 0xA5, sizeof buffer);
    SQLLEN length = 0, indicator = 0;
    gc_fetch_target target = {0};
    target.c_type = c_types[choice[1] % COUNT(c_types)];
    target.buffer = (choice[3] & 0x80) ? NULL : buffer;
    target.buffer_length = choice[3] & 0x7f;
    target.length = &length;
    target.indicator = (choice[5] & 1) ? NULL : &indicator;
    target.precision = choice[4] % 40;
    target.scale = (SQLSMALLINT)((int8_t)choice[5] >> 2);
    target.interval_leading_precision = choice[4] % 12;
    target.lf_to_crlf = (choice[0] & 2) != 0;
    target.null_date_as_empty = (choice[0] & 4) != 0;
    bool is_null = (choice[0] & 8) != 0;
    /* Piece by piece only where a piece fits: a buffer too small for one
     * character and its terminator gets 01004 and nothing, call after call. */
    bool piecewise = (choice[0] & 16) == 0 && target.buffer != NULL && target.buffer_length >= 8;
    bool variable = target.c_type == SQL_C_CHAR || target.c_type == SQL_C_WCHAR ||
                    target.c_type == SQL_C_BINARY;
    Oid pg_type = pg_types[choice[2] % COUNT(pg_types)];
    size_t piece = 0;
    /* A value of n bytes comes out in at most n pieces of one byte, then
     * SQL_NO_DATA; a fixed-size type in one call. */
    for (size_t call = 0; call <= 2 * len + 4; call++) {
        gc_error err;
        gc_error_clear(&err);
        SQLRETURN rc = gc_convert_value_to_c(pg_type, (const char *)value, len, is_null,
                                             &target, piecewise ? &piece : NULL, &err);
        for (size_t i = variable ? (size_t)target.buffer_length : 128; i < sizeof buffer; i++)
            CHECK(buffer[i] == 0xA5);
        if (rc == SQL_ERROR) {
            CHECK(sqlstate_in(&err, failed, COUNT(failed)));
            return;
        }
        CHECK(rc == SQL_SUCCESS || rc == SQL_SUCCESS_WITH_INFO || rc == SQL_NO_DATA);
        if (rc == SQL_SUCCESS_WITH_INFO)
            CHECK(sqlstate_in(&err, warned, COUNT(warned)));
        if (rc == SQL_NO_DATA || !piecewise || piece == GC_PIECE_DONE)
            return;
    }
    CHECK(!"a value that never ends");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    size_t len;
    uint8_t *value = fuzz_input_copy(data, size, 6, false, &len);
    if (value == NULL)
        return 0;
    if (data[0] & 1)
        parameter(data, value, len);
    else
        result_value(data, value, len);
    free(value);
    return 0;
}
