/* How PostgreSQL types describe themselves to ODBC, the parameter type
 * mapping, and C type sizes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "convert/gc_convert.h"

static gc_pgtype_info describe(Oid oid, int typmod)
{
    gc_pgtype_info info;
    memset(&info, 0x5A, sizeof info);
    gc_pgtype_describe(oid, typmod, &info);
    return info;
}

static void integer_types_map_to_odbc_integers(void **state)
{
    (void)state;
    gc_pgtype_info i = describe(GC_OID_INT2, -1);
    assert_int_equal(i.sql_type, SQL_SMALLINT);
    assert_int_equal(i.column_size, 5);
    assert_int_equal(i.default_c_type, SQL_C_SSHORT);
    assert_int_equal(i.num_prec_radix, 10);
    assert_false(i.is_unsigned);
    i = describe(GC_OID_INT4, -1);
    assert_int_equal(i.sql_type, SQL_INTEGER);
    assert_int_equal(i.column_size, 10);
    assert_int_equal(i.display_size, 11);
    assert_int_equal(i.default_c_type, SQL_C_SLONG);
    i = describe(GC_OID_INT8, -1);
    assert_int_equal(i.sql_type, SQL_BIGINT);
    assert_int_equal(i.column_size, 19);
    assert_int_equal(i.display_size, 20);
    assert_int_equal(i.default_c_type, SQL_C_SBIGINT);
    i = describe(GC_OID_OID, -1);
    assert_int_equal(i.sql_type, SQL_INTEGER);
    assert_true(i.is_unsigned);
    assert_int_equal(i.default_c_type, SQL_C_ULONG);
    i = describe(GC_OID_BOOL, -1);
    assert_int_equal(i.sql_type, SQL_BIT);
    assert_int_equal(i.default_c_type, SQL_C_BIT);
}

static void numeric_precision_and_scale_come_from_typmod(void **state)
{
    (void)state;
    gc_pgtype_info i = describe(GC_OID_NUMERIC, ((12 << 16) | 3) + 4);
    assert_int_equal(i.sql_type, SQL_NUMERIC);
    assert_int_equal(i.column_size, 12);
    assert_int_equal(i.decimal_digits, 3);
    assert_int_equal(i.display_size, 14);
    assert_int_equal(i.default_c_type, SQL_C_CHAR);
    i = describe(GC_OID_NUMERIC, -1);
    assert_int_equal(i.column_size, GC_NUMERIC_DEFAULT_PRECISION);
    assert_int_equal(i.decimal_digits, GC_NUMERIC_DEFAULT_SCALE);
}

static void floats_are_real_and_double(void **state)
{
    (void)state;
    gc_pgtype_info i = describe(GC_OID_FLOAT4, -1);
    assert_int_equal(i.sql_type, SQL_REAL);
    assert_int_equal(i.column_size, 7);
    assert_int_equal(i.default_c_type, SQL_C_FLOAT);
    i = describe(GC_OID_FLOAT8, -1);
    assert_int_equal(i.sql_type, SQL_DOUBLE);
    assert_int_equal(i.column_size, 15);
    assert_int_equal(i.default_c_type, SQL_C_DOUBLE);
}

/* money is psqlODBC's SQL_FLOAT, read as a double by default. */
static void money_is_a_float(void **state)
{
    (void)state;
    gc_pgtype_info i = describe(GC_OID_MONEY, -1);
    assert_string_equal(i.type_name, "money");
    assert_int_equal(i.sql_type, SQL_FLOAT);
    assert_int_equal(i.sql_wide_type, SQL_FLOAT);
    assert_int_equal(i.num_prec_radix, 10);
    assert_false(i.is_unsigned);
    assert_int_equal(i.default_c_type, SQL_C_DOUBLE);
}

static void character_types_carry_length_and_wide_twin(void **state)
{
    (void)state;
    gc_pgtype_info i = describe(GC_OID_VARCHAR, 20 + 4);
    assert_int_equal(i.sql_type, SQL_VARCHAR);
    assert_int_equal(i.sql_wide_type, SQL_WVARCHAR);
    assert_int_equal(i.column_size, 20);
    assert_true(i.case_sensitive);
    assert_int_equal(i.searchable, SQL_PRED_SEARCHABLE);
    assert_int_equal(i.default_c_type, SQL_C_CHAR);
    i = describe(GC_OID_VARCHAR, -1);
    assert_int_equal(i.sql_type, SQL_LONGVARCHAR);
    assert_int_equal(i.column_size, GC_PG_LONG_COLUMN_SIZE);
    i = describe(GC_OID_BPCHAR, 5 + 4);
    assert_int_equal(i.sql_type, SQL_CHAR);
    assert_int_equal(i.sql_wide_type, SQL_WCHAR);
    assert_int_equal(i.column_size, 5);
    i = describe(GC_OID_TEXT, -1);
    assert_int_equal(i.sql_type, SQL_LONGVARCHAR);
    assert_int_equal(i.sql_wide_type, SQL_WLONGVARCHAR);
    i = describe(GC_OID_NAME, -1);
    assert_int_equal(i.sql_type, SQL_VARCHAR);
    assert_int_equal(i.column_size, 63);
    i = describe(GC_OID_JSONB, -1);
    assert_int_equal(i.sql_type, SQL_LONGVARCHAR);
    i = describe(GC_OID_JSON, -1);
    assert_int_equal(i.sql_type, SQL_LONGVARCHAR);
    i = describe(123456, -1);
    assert_int_equal(i.sql_type, SQL_LONGVARCHAR);
    assert_non_null(i.type_name);
}

static void datetime_types_report_fraction_digits(void **state)
{
    (void)state;
    gc_pgtype_info i = describe(GC_OID_DATE, -1);
    assert_int_equal(i.sql_type, SQL_TYPE_DATE);
    assert_int_equal(i.column_size, 10);
    assert_int_equal(i.default_c_type, SQL_C_TYPE_DATE);
    i = describe(GC_OID_TIMESTAMP, -1);
    assert_int_equal(i.sql_type, SQL_TYPE_TIMESTAMP);
    assert_int_equal(i.column_size, 26);
    assert_int_equal(i.decimal_digits, 6);
    assert_int_equal(i.default_c_type, SQL_C_TYPE_TIMESTAMP);
    i = describe(GC_OID_TIMESTAMPTZ, 0);
    assert_int_equal(i.sql_type, SQL_TYPE_TIMESTAMP);
    assert_int_equal(i.column_size, 19);
    assert_int_equal(i.decimal_digits, 0);
    i = describe(GC_OID_TIME, 3);
    assert_int_equal(i.sql_type, SQL_TYPE_TIME);
    assert_int_equal(i.column_size, 12);
    assert_int_equal(i.decimal_digits, 3);
}

static void bytea_and_uuid(void **state)
{
    (void)state;
    gc_pgtype_info i = describe(GC_OID_BYTEA, -1);
    assert_int_equal(i.sql_type, SQL_LONGVARBINARY);
    assert_int_equal(i.default_c_type, SQL_C_BINARY);
    i = describe(GC_OID_UUID, -1);
    assert_int_equal(i.sql_type, SQL_GUID);
    assert_int_equal(i.column_size, 36);
    assert_int_equal(i.default_c_type, SQL_C_GUID);
}

static void sql_types_map_to_parameter_oids(void **state)
{
    (void)state;
    assert_int_equal(gc_sqltype_to_pg_oid(SQL_VARCHAR), 0);
    assert_int_equal(gc_sqltype_to_pg_oid(SQL_WLONGVARCHAR), 0);
    assert_int_equal(gc_sqltype_to_pg_oid(SQL_INTEGER), GC_OID_INT4);
    assert_int_equal(gc_sqltype_to_pg_oid(SQL_BIGINT), GC_OID_INT8);
    assert_int_equal(gc_sqltype_to_pg_oid(SQL_TINYINT), GC_OID_INT2);
    assert_int_equal(gc_sqltype_to_pg_oid(SQL_SMALLINT), GC_OID_INT2);
    assert_int_equal(gc_sqltype_to_pg_oid(SQL_BIT), 0);
    /* Declared after all where the server cannot infer them (42P18). */
    assert_int_equal(gc_sqltype_to_pg_oid_uninferred(SQL_BIT), GC_OID_BOOL);
    assert_int_equal(gc_sqltype_to_pg_oid_uninferred(SQL_VARCHAR), GC_OID_TEXT);
    assert_int_equal(gc_sqltype_to_pg_oid_uninferred(SQL_WLONGVARCHAR), GC_OID_TEXT);
    assert_int_equal(gc_sqltype_to_pg_oid_uninferred(SQL_INTEGER), GC_OID_INT4);
    assert_int_equal(gc_sqltype_to_pg_oid(SQL_DECIMAL), GC_OID_NUMERIC);
    assert_int_equal(gc_sqltype_to_pg_oid(SQL_REAL), GC_OID_FLOAT4);
    assert_int_equal(gc_sqltype_to_pg_oid(SQL_FLOAT), GC_OID_NUMERIC);
    assert_int_equal(gc_sqltype_to_pg_oid(SQL_TYPE_DATE), GC_OID_DATE);
    assert_int_equal(gc_sqltype_to_pg_oid(SQL_TYPE_TIME), GC_OID_TIME);
    assert_int_equal(gc_sqltype_to_pg_oid(SQL_TYPE_TIMESTAMP), GC_OID_TIMESTAMP);
    assert_int_equal(gc_sqltype_to_pg_oid(SQL_VARBINARY), GC_OID_BYTEA);
    assert_int_equal(gc_sqltype_to_pg_oid(SQL_GUID), GC_OID_UUID);
}

static void c_type_sizes_for_row_wise_binding(void **state)
{
    (void)state;
    assert_int_equal(gc_c_type_size(SQL_C_CHAR), 0);
    assert_int_equal(gc_c_type_size(SQL_C_WCHAR), 0);
    assert_int_equal(gc_c_type_size(SQL_C_BINARY), 0);
    assert_int_equal(gc_c_type_size(SQL_C_BIT), 1);
    assert_int_equal(gc_c_type_size(SQL_C_TINYINT), 1);
    assert_int_equal(gc_c_type_size(SQL_C_SHORT), 2);
    assert_int_equal(gc_c_type_size(SQL_C_LONG), 4);
    assert_int_equal(gc_c_type_size(SQL_C_ULONG), 4);
    assert_int_equal(gc_c_type_size(SQL_C_SBIGINT), 8);
    assert_int_equal(gc_c_type_size(SQL_C_FLOAT), 4);
    assert_int_equal(gc_c_type_size(SQL_C_DOUBLE), 8);
    assert_int_equal(gc_c_type_size(SQL_C_NUMERIC), sizeof(SQL_NUMERIC_STRUCT));
    assert_int_equal(gc_c_type_size(SQL_C_DATE), 6);
    assert_int_equal(gc_c_type_size(SQL_C_TYPE_TIME), 6);
    assert_int_equal(gc_c_type_size(SQL_C_TIMESTAMP), 16);
    assert_int_equal(gc_c_type_size(SQL_C_GUID), 16);
    assert_int_equal(gc_c_type_size(SQL_C_INTERVAL_DAY), sizeof(SQL_INTERVAL_STRUCT));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(integer_types_map_to_odbc_integers),
        cmocka_unit_test(numeric_precision_and_scale_come_from_typmod),
        cmocka_unit_test(floats_are_real_and_double),
        cmocka_unit_test(money_is_a_float),
        cmocka_unit_test(character_types_carry_length_and_wide_twin),
        cmocka_unit_test(datetime_types_report_fraction_digits),
        cmocka_unit_test(bytea_and_uuid),
        cmocka_unit_test(sql_types_map_to_parameter_oids),
        cmocka_unit_test(c_type_sizes_for_row_wise_binding),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
