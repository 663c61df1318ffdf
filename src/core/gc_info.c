/*
 * gc_info: SQLGetInfo.
 *
 * Fixed answers are one table (item, type, value); answers that depend on
 * the session (server version, user, database) or on other modules' tables
 * (the {fn} escapes the SQL rewriter knows) are computed below it.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "gcodbc.h"
#include "core/gc_conn_kind.h"
#include "core/gc_info.h"
#include "core/gc_stmt.h"
#include "core/gc_strout.h"
#include "sql/gc_sql_escape_fn.h"


typedef enum info_kind { INFO_STR, INFO_USMALLINT, INFO_UINTEGER } info_kind;

typedef struct info_item {
    SQLUSMALLINT id;
    info_kind kind;
    SQLUINTEGER number;
    const char *string;
} info_item;

#define STR(id, s) { id, INFO_STR, 0, s }
#define U16(id, v) { id, INFO_USMALLINT, (SQLUINTEGER)(v), NULL }
#define U32(id, v) { id, INFO_UINTEGER, (SQLUINTEGER)(v), NULL }

/* Conversions CAST can do between SQL types, for the SQL_CONVERT_* items. */
#define CVT_NUMBERS (SQL_CVT_BIGINT | SQL_CVT_DECIMAL | SQL_CVT_DOUBLE | SQL_CVT_FLOAT | \
                     SQL_CVT_INTEGER | SQL_CVT_NUMERIC | SQL_CVT_REAL | SQL_CVT_SMALLINT)
#define CVT_TEXT (SQL_CVT_CHAR | SQL_CVT_VARCHAR | SQL_CVT_LONGVARCHAR | \
                  SQL_CVT_WCHAR | SQL_CVT_WVARCHAR | SQL_CVT_WLONGVARCHAR)
#define CVT_BINARY (SQL_CVT_BINARY | SQL_CVT_VARBINARY | SQL_CVT_LONGVARBINARY)
#define CVT_DATETIME (SQL_CVT_DATE | SQL_CVT_TIME | SQL_CVT_TIMESTAMP)
/* What static and keyset-driven cursors both do (docs/cursors.md). */
#define SCROLLABLE_CA1 (SQL_CA1_NEXT | SQL_CA1_ABSOLUTE | SQL_CA1_RELATIVE | SQL_CA1_BOOKMARK | \
                        SQL_CA1_LOCK_NO_CHANGE | SQL_CA1_LOCK_EXCLUSIVE |                     \
                        SQL_CA1_POS_POSITION | SQL_CA1_POS_REFRESH | SQL_CA1_POS_UPDATE |     \
                        SQL_CA1_POS_DELETE | SQL_CA1_BULK_ADD |                               \
                        SQL_CA1_BULK_UPDATE_BY_BOOKMARK | SQL_CA1_BULK_DELETE_BY_BOOKMARK |   \
                        SQL_CA1_BULK_FETCH_BY_BOOKMARK)
#define SCROLLABLE_CA2 (SQL_CA2_READ_ONLY_CONCURRENCY | SQL_CA2_OPT_VALUES_CONCURRENCY |     \
                        SQL_CA2_SENSITIVITY_ADDITIONS | SQL_CA2_SENSITIVITY_DELETIONS |       \
                        SQL_CA2_SENSITIVITY_UPDATES | SQL_CA2_MAX_ROWS_SELECT | SQL_CA2_CRC_EXACT)

static const info_item info_table[] = {
    /* Driver and data source */
    STR(SQL_DRIVER_NAME, "libgcodbc.so"),
    /* Our own version, never a psqlODBC one (docs/connection-attributes.md). */
    STR(SQL_DRIVER_VER, GCODBC_PSQLODBC_LEVEL),
    STR(SQL_DRIVER_ODBC_VER, "03.51"),
    STR(SQL_DBMS_NAME, "PostgreSQL"),
    STR(SQL_ACCESSIBLE_PROCEDURES, "N"),
    STR(SQL_ACCESSIBLE_TABLES, "N"),
    U16(SQL_ACTIVE_ENVIRONMENTS, 0),
    U16(SQL_MAX_DRIVER_CONNECTIONS, 0),
    U16(SQL_MAX_CONCURRENT_ACTIVITIES, 0),
    U32(SQL_ODBC_INTERFACE_CONFORMANCE, SQL_OIC_CORE),
    U16(SQL_ODBC_API_CONFORMANCE, SQL_OAC_LEVEL1),
    U16(SQL_ODBC_SQL_CONFORMANCE, SQL_OSC_CORE),
    U16(SQL_ODBC_SAG_CLI_CONFORMANCE, SQL_OSCC_COMPLIANT),
    U32(SQL_SQL_CONFORMANCE, SQL_SC_SQL92_ENTRY),
    U32(SQL_STANDARD_CLI_CONFORMANCE, SQL_SCC_XOPEN_CLI_VERSION1 | SQL_SCC_ISO92_CLI),
    STR(SQL_XOPEN_CLI_YEAR, "1995"),
    STR(SQL_SEARCH_PATTERN_ESCAPE, "\\"),
    U16(SQL_FILE_USAGE, SQL_FILE_NOT_SUPPORTED),
    U32(SQL_DTC_TRANSITION_COST, 0),
    STR(SQL_ROW_UPDATES, "N"),

    /* Names and identifiers */
    STR(SQL_IDENTIFIER_QUOTE_CHAR, "\""),
    U16(SQL_IDENTIFIER_CASE, SQL_IC_LOWER),
    U16(SQL_QUOTED_IDENTIFIER_CASE, SQL_IC_SENSITIVE),
    STR(SQL_SPECIAL_CHARACTERS, "$"),
    /* The catalog is the current database: PostgreSQL accepts db.schema.table
     * for it, and the catalog functions report it as TABLE_CAT. */
    STR(SQL_CATALOG_NAME, "Y"),
    STR(SQL_CATALOG_NAME_SEPARATOR, "."),
    STR(SQL_CATALOG_TERM, "database"),
    U16(SQL_CATALOG_LOCATION, SQL_CL_START),
    U32(SQL_CATALOG_USAGE, SQL_CU_DML_STATEMENTS),
    STR(SQL_SCHEMA_TERM, "schema"),
    U32(SQL_SCHEMA_USAGE, SQL_SU_DML_STATEMENTS | SQL_SU_PROCEDURE_INVOCATION |
                              SQL_SU_TABLE_DEFINITION | SQL_SU_INDEX_DEFINITION |
                              SQL_SU_PRIVILEGE_DEFINITION),
    STR(SQL_TABLE_TERM, "table"),
    STR(SQL_PROCEDURE_TERM, "function"),
    STR(SQL_PROCEDURES, "Y"),
    STR(SQL_COLUMN_ALIAS, "Y"),
    U16(SQL_CORRELATION_NAME, SQL_CN_ANY),
    STR(SQL_COLLATION_SEQ, ""),
    STR(SQL_KEYWORDS,
        "ANALYSE,ANALYZE,ARRAY,ASYMMETRIC,BIGINT,BOOLEAN,CONCURRENTLY,"
        "DO,FREEZE,ILIKE,ISNULL,LIMIT,NOTNULL,OFFSET,OVERLAPS,PLACING,"
        "RETURNING,SIMILAR,SYMMETRIC,TABLESAMPLE,VARIADIC,VERBOSE,WINDOW"),

    /* Limits (0 = no fixed limit) */
    U16(SQL_MAX_CATALOG_NAME_LEN, 63),
    U16(SQL_MAX_SCHEMA_NAME_LEN, GC_PG_MAX_IDENTIFIER),
    U16(SQL_MAX_TABLE_NAME_LEN, GC_PG_MAX_IDENTIFIER),
    U16(SQL_MAX_COLUMN_NAME_LEN, GC_PG_MAX_IDENTIFIER),
    U16(SQL_MAX_CURSOR_NAME_LEN, GC_MAX_CURSOR_NAME),
    U16(SQL_MAX_IDENTIFIER_LEN, GC_PG_MAX_IDENTIFIER),
    U16(SQL_MAX_PROCEDURE_NAME_LEN, GC_PG_MAX_IDENTIFIER),
    U16(SQL_MAX_USER_NAME_LEN, GC_PG_MAX_IDENTIFIER),
    U16(SQL_MAX_COLUMNS_IN_GROUP_BY, 0),
    U16(SQL_MAX_COLUMNS_IN_INDEX, 32),
    U16(SQL_MAX_COLUMNS_IN_ORDER_BY, 0),
    U16(SQL_MAX_COLUMNS_IN_SELECT, 1664),
    U16(SQL_MAX_COLUMNS_IN_TABLE, 1600),
    U16(SQL_MAX_TABLES_IN_SELECT, 0),
    U32(SQL_MAX_INDEX_SIZE, 0),
    U32(SQL_MAX_ROW_SIZE, 0),
    STR(SQL_MAX_ROW_SIZE_INCLUDES_LONG, "Y"),
    U32(SQL_MAX_STATEMENT_LEN, 0),
    U32(SQL_MAX_CHAR_LITERAL_LEN, 0),
    U32(SQL_MAX_BINARY_LITERAL_LEN, 0),
    U32(SQL_MAX_ASYNC_CONCURRENT_STATEMENTS, 0),

    /* Transactions */
    U16(SQL_TXN_CAPABLE, SQL_TC_ALL),
    U32(SQL_TXN_ISOLATION_OPTION, SQL_TXN_READ_UNCOMMITTED | SQL_TXN_READ_COMMITTED |
                                      SQL_TXN_REPEATABLE_READ | SQL_TXN_SERIALIZABLE),
    STR(SQL_MULTIPLE_ACTIVE_TXN, "Y"),
    /* Results are read (or buffered) before COMMIT/ROLLBACK is sent and
     * server-side prepared statements outlive transactions. */
    U16(SQL_CURSOR_COMMIT_BEHAVIOR, SQL_CB_PRESERVE),
    U16(SQL_CURSOR_ROLLBACK_BEHAVIOR, SQL_CB_PRESERVE),

    /* Cursors and fetching (docs/cursors.md): forward-only cursors stream,
     * static ones are buffered and scroll, keyset-driven ones also re-read
     * each rowset by primary key.
     * Dynamic requests become static (01S02), so they offer nothing. */
    U32(SQL_SCROLL_OPTIONS, SQL_SO_FORWARD_ONLY | SQL_SO_STATIC | SQL_SO_KEYSET_DRIVEN),
    U32(SQL_FETCH_DIRECTION, SQL_FD_FETCH_NEXT | SQL_FD_FETCH_FIRST | SQL_FD_FETCH_LAST |
                             SQL_FD_FETCH_PRIOR | SQL_FD_FETCH_ABSOLUTE |
                             SQL_FD_FETCH_RELATIVE | SQL_FD_FETCH_BOOKMARK),
    U32(SQL_SCROLL_CONCURRENCY, SQL_SCCO_READ_ONLY | SQL_SCCO_OPT_VALUES | SQL_SCCO_LOCK |
                                    SQL_SCCO_OPT_ROWVER),
    U32(SQL_FORWARD_ONLY_CURSOR_ATTRIBUTES1, SQL_CA1_NEXT | SQL_CA1_LOCK_NO_CHANGE |
                                                 SQL_CA1_POS_POSITION),
    U32(SQL_FORWARD_ONLY_CURSOR_ATTRIBUTES2, SQL_CA2_READ_ONLY_CONCURRENCY |
                                                 SQL_CA2_MAX_ROWS_SELECT),
    U32(SQL_STATIC_CURSOR_ATTRIBUTES1, SCROLLABLE_CA1),
    U32(SQL_STATIC_CURSOR_ATTRIBUTES2, SCROLLABLE_CA2),
    /* What a static cursor does, others' updates and deletions seen, and
     * locking and row-version concurrency. */
    U32(SQL_KEYSET_CURSOR_ATTRIBUTES1, SCROLLABLE_CA1),
    U32(SQL_KEYSET_CURSOR_ATTRIBUTES2, SCROLLABLE_CA2 | SQL_CA2_LOCK_CONCURRENCY |
                                           SQL_CA2_OPT_ROWVER_CONCURRENCY),
    U32(SQL_DYNAMIC_CURSOR_ATTRIBUTES1, 0),
    U32(SQL_DYNAMIC_CURSOR_ATTRIBUTES2, 0),
    U32(SQL_CURSOR_SENSITIVITY, SQL_INSENSITIVE),
    /* A static cursor sees the changes it made itself. */
    U32(SQL_STATIC_SENSITIVITY, SQL_SS_ADDITIONS | SQL_SS_DELETIONS | SQL_SS_UPDATES),
    /* A bookmark is a row's number in the buffered set: valid while the
     * cursor is open, through scrolling and transaction ends. */
    U32(SQL_BOOKMARK_PERSISTENCE, SQL_BP_SCROLL | SQL_BP_TRANSACTION),
    /* No SQL_LCK_UNLOCK: a row lock lasts until the transaction ends. */
    U32(SQL_LOCK_TYPES, SQL_LCK_NO_CHANGE | SQL_LCK_EXCLUSIVE),
    U32(SQL_POS_OPERATIONS, SQL_POS_POSITION | SQL_POS_REFRESH | SQL_POS_UPDATE |
                            SQL_POS_DELETE | SQL_POS_ADD),
    U32(SQL_POSITIONED_STATEMENTS, 0),
    /* SQL_GD_BLOCK: on the row SQLSetPos positions in a rowset, whatever
     * the cursor (a forward-only one keeps its last rowset's rows). */
    U32(SQL_GETDATA_EXTENSIONS, SQL_GD_ANY_COLUMN | SQL_GD_ANY_ORDER | SQL_GD_BOUND |
                                    SQL_GD_BLOCK),

    /* Statements and parameters */
    U32(SQL_ASYNC_MODE, SQL_AM_NONE),
    U32(SQL_ASYNC_DBC_FUNCTIONS, SQL_ASYNC_DBC_NOT_CAPABLE),
    STR(SQL_DESCRIBE_PARAMETER, "Y"),
    STR(SQL_NEED_LONG_DATA_LEN, "N"),
    STR(SQL_MULT_RESULT_SETS, "Y"),
    U32(SQL_BATCH_SUPPORT, SQL_BS_SELECT_EXPLICIT | SQL_BS_ROW_COUNT_EXPLICIT),
    U32(SQL_BATCH_ROW_COUNT, SQL_BRC_EXPLICIT),
    STR(SQL_EXPRESSIONS_IN_ORDERBY, "Y"),
    STR(SQL_ORDER_BY_COLUMNS_IN_SELECT, "N"),
    U16(SQL_GROUP_BY, SQL_GB_GROUP_BY_CONTAINS_SELECT),
    STR(SQL_LIKE_ESCAPE_CLAUSE, "Y"),
    STR(SQL_OUTER_JOINS, "Y"),
    U32(SQL_OJ_CAPABILITIES, SQL_OJ_LEFT | SQL_OJ_RIGHT | SQL_OJ_FULL | SQL_OJ_NESTED |
                                 SQL_OJ_NOT_ORDERED | SQL_OJ_INNER |
                                 SQL_OJ_ALL_COMPARISON_OPS),
    STR(SQL_INTEGRITY, "Y"),
    U16(SQL_CONCAT_NULL_BEHAVIOR, SQL_CB_NULL),
    U16(SQL_NULL_COLLATION, SQL_NC_HIGH),
    U16(SQL_NON_NULLABLE_COLUMNS, SQL_NNC_NON_NULL),
    U32(SQL_SUBQUERIES, SQL_SQ_CORRELATED_SUBQUERIES | SQL_SQ_COMPARISON |
                            SQL_SQ_EXISTS | SQL_SQ_IN | SQL_SQ_QUANTIFIED),
    U32(SQL_UNION, SQL_U_UNION | SQL_U_UNION_ALL),
    U32(SQL_AGGREGATE_FUNCTIONS, SQL_AF_ALL | SQL_AF_AVG | SQL_AF_COUNT |
                                     SQL_AF_DISTINCT | SQL_AF_MAX | SQL_AF_MIN | SQL_AF_SUM),
    U32(SQL_DATETIME_LITERALS, SQL_DL_SQL92_DATE | SQL_DL_SQL92_TIME |
                                   SQL_DL_SQL92_TIMESTAMP),
    U32(SQL_TIMEDATE_ADD_INTERVALS, SQL_FN_TSI_FRAC_SECOND | SQL_FN_TSI_SECOND |
                                        SQL_FN_TSI_MINUTE | SQL_FN_TSI_HOUR |
                                        SQL_FN_TSI_DAY | SQL_FN_TSI_WEEK |
                                        SQL_FN_TSI_MONTH | SQL_FN_TSI_QUARTER |
                                        SQL_FN_TSI_YEAR),
    U32(SQL_TIMEDATE_DIFF_INTERVALS, SQL_FN_TSI_FRAC_SECOND | SQL_FN_TSI_SECOND |
                                         SQL_FN_TSI_MINUTE | SQL_FN_TSI_HOUR |
                                         SQL_FN_TSI_DAY | SQL_FN_TSI_WEEK |
                                         SQL_FN_TSI_MONTH | SQL_FN_TSI_QUARTER |
                                         SQL_FN_TSI_YEAR),
    U32(SQL_CONVERT_FUNCTIONS, SQL_FN_CVT_CAST | SQL_FN_CVT_CONVERT),

    /* DDL and DML */
    U32(SQL_ALTER_DOMAIN, SQL_AD_ADD_DOMAIN_CONSTRAINT | SQL_AD_DROP_DOMAIN_CONSTRAINT |
                              SQL_AD_ADD_DOMAIN_DEFAULT | SQL_AD_DROP_DOMAIN_DEFAULT),
    U32(SQL_ALTER_TABLE, SQL_AT_ADD_COLUMN_DEFAULT | SQL_AT_ADD_COLUMN_SINGLE |
                             SQL_AT_ADD_CONSTRAINT | SQL_AT_ADD_TABLE_CONSTRAINT |
                             SQL_AT_DROP_COLUMN_CASCADE | SQL_AT_DROP_COLUMN_RESTRICT |
                             SQL_AT_DROP_TABLE_CONSTRAINT_CASCADE |
                             SQL_AT_DROP_TABLE_CONSTRAINT_RESTRICT |
                             SQL_AT_SET_COLUMN_DEFAULT),
    U32(SQL_CREATE_SCHEMA, SQL_CS_CREATE_SCHEMA | SQL_CS_AUTHORIZATION),
    U32(SQL_DROP_SCHEMA, SQL_DS_DROP_SCHEMA | SQL_DS_CASCADE | SQL_DS_RESTRICT),
    U32(SQL_CREATE_TABLE, SQL_CT_CREATE_TABLE | SQL_CT_TABLE_CONSTRAINT |
                              SQL_CT_COLUMN_CONSTRAINT | SQL_CT_COLUMN_DEFAULT |
                              SQL_CT_LOCAL_TEMPORARY | SQL_CT_GLOBAL_TEMPORARY |
                              SQL_CT_COMMIT_PRESERVE | SQL_CT_COMMIT_DELETE),
    U32(SQL_DROP_TABLE, SQL_DT_DROP_TABLE | SQL_DT_CASCADE | SQL_DT_RESTRICT),
    U32(SQL_CREATE_VIEW, SQL_CV_CREATE_VIEW | SQL_CV_CHECK_OPTION | SQL_CV_CASCADED |
                             SQL_CV_LOCAL),
    U32(SQL_DROP_VIEW, SQL_DV_DROP_VIEW | SQL_DV_CASCADE | SQL_DV_RESTRICT),
    U32(SQL_CREATE_DOMAIN, SQL_CDO_CREATE_DOMAIN | SQL_CDO_DEFAULT | SQL_CDO_CONSTRAINT),
    U32(SQL_DROP_DOMAIN, SQL_DD_DROP_DOMAIN | SQL_DD_CASCADE | SQL_DD_RESTRICT),
    U32(SQL_CREATE_ASSERTION, 0),
    U32(SQL_DROP_ASSERTION, 0),
    U32(SQL_CREATE_CHARACTER_SET, 0),
    U32(SQL_DROP_CHARACTER_SET, 0),
    U32(SQL_CREATE_COLLATION, 0),
    U32(SQL_DROP_COLLATION, 0),
    U32(SQL_CREATE_TRANSLATION, 0),
    U32(SQL_DROP_TRANSLATION, 0),
    U32(SQL_DDL_INDEX, SQL_DI_CREATE_INDEX | SQL_DI_DROP_INDEX),
    U32(SQL_INDEX_KEYWORDS, SQL_IK_ASC | SQL_IK_DESC),
    U32(SQL_INSERT_STATEMENT, SQL_IS_INSERT_LITERALS | SQL_IS_INSERT_SEARCHED |
                                  SQL_IS_SELECT_INTO),
    U32(SQL_INFO_SCHEMA_VIEWS, 0),
    U32(SQL_SQL92_DATETIME_FUNCTIONS, SQL_SDF_CURRENT_DATE | SQL_SDF_CURRENT_TIME |
                                          SQL_SDF_CURRENT_TIMESTAMP),
    U32(SQL_SQL92_FOREIGN_KEY_DELETE_RULE, SQL_SFKD_CASCADE | SQL_SFKD_NO_ACTION |
                                               SQL_SFKD_SET_DEFAULT | SQL_SFKD_SET_NULL),
    U32(SQL_SQL92_FOREIGN_KEY_UPDATE_RULE, SQL_SFKU_CASCADE | SQL_SFKU_NO_ACTION |
                                               SQL_SFKU_SET_DEFAULT | SQL_SFKU_SET_NULL),
    U32(SQL_SQL92_GRANT, SQL_SG_DELETE_TABLE | SQL_SG_INSERT_TABLE |
                             SQL_SG_INSERT_COLUMN | SQL_SG_REFERENCES_TABLE |
                             SQL_SG_REFERENCES_COLUMN | SQL_SG_SELECT_TABLE |
                             SQL_SG_UPDATE_TABLE | SQL_SG_UPDATE_COLUMN |
                             SQL_SG_USAGE_ON_DOMAIN | SQL_SG_WITH_GRANT_OPTION),
    U32(SQL_SQL92_REVOKE, SQL_SR_DELETE_TABLE | SQL_SR_INSERT_TABLE |
                              SQL_SR_INSERT_COLUMN | SQL_SR_REFERENCES_TABLE |
                              SQL_SR_REFERENCES_COLUMN | SQL_SR_SELECT_TABLE |
                              SQL_SR_UPDATE_TABLE | SQL_SR_UPDATE_COLUMN |
                              SQL_SR_USAGE_ON_DOMAIN | SQL_SR_GRANT_OPTION_FOR |
                              SQL_SR_CASCADE | SQL_SR_RESTRICT),
    U32(SQL_SQL92_NUMERIC_VALUE_FUNCTIONS, SQL_SNVF_BIT_LENGTH | SQL_SNVF_CHAR_LENGTH |
                                               SQL_SNVF_CHARACTER_LENGTH |
                                               SQL_SNVF_EXTRACT | SQL_SNVF_OCTET_LENGTH |
                                               SQL_SNVF_POSITION),
    U32(SQL_SQL92_PREDICATES, SQL_SP_BETWEEN | SQL_SP_COMPARISON | SQL_SP_EXISTS |
                                  SQL_SP_IN | SQL_SP_ISNOTNULL | SQL_SP_ISNULL |
                                  SQL_SP_LIKE | SQL_SP_OVERLAPS |
                                  SQL_SP_QUANTIFIED_COMPARISON | SQL_SP_UNIQUE),
    U32(SQL_SQL92_RELATIONAL_JOIN_OPERATORS, SQL_SRJO_CROSS_JOIN | SQL_SRJO_EXCEPT_JOIN |
                                                 SQL_SRJO_FULL_OUTER_JOIN |
                                                 SQL_SRJO_INNER_JOIN |
                                                 SQL_SRJO_INTERSECT_JOIN |
                                                 SQL_SRJO_LEFT_OUTER_JOIN |
                                                 SQL_SRJO_NATURAL_JOIN |
                                                 SQL_SRJO_RIGHT_OUTER_JOIN),
    U32(SQL_SQL92_ROW_VALUE_CONSTRUCTOR, SQL_SRVC_VALUE_EXPRESSION | SQL_SRVC_NULL |
                                             SQL_SRVC_DEFAULT | SQL_SRVC_ROW_SUBQUERY),
    U32(SQL_SQL92_STRING_FUNCTIONS, SQL_SSF_CONVERT | SQL_SSF_LOWER | SQL_SSF_UPPER |
                                        SQL_SSF_SUBSTRING | SQL_SSF_TRANSLATE |
                                        SQL_SSF_TRIM_BOTH | SQL_SSF_TRIM_LEADING |
                                        SQL_SSF_TRIM_TRAILING),
    U32(SQL_SQL92_VALUE_EXPRESSIONS, SQL_SVE_CASE | SQL_SVE_CAST | SQL_SVE_COALESCE |
                                         SQL_SVE_NULLIF),

    /* CONVERT/CAST between SQL types */
    U32(SQL_CONVERT_BIGINT, CVT_NUMBERS | CVT_TEXT | SQL_CVT_BIT),
    U32(SQL_CONVERT_INTEGER, CVT_NUMBERS | CVT_TEXT | SQL_CVT_BIT),
    U32(SQL_CONVERT_SMALLINT, CVT_NUMBERS | CVT_TEXT),
    U32(SQL_CONVERT_TINYINT, 0),
    U32(SQL_CONVERT_DECIMAL, CVT_NUMBERS | CVT_TEXT),
    U32(SQL_CONVERT_NUMERIC, CVT_NUMBERS | CVT_TEXT),
    U32(SQL_CONVERT_DOUBLE, CVT_NUMBERS | CVT_TEXT),
    U32(SQL_CONVERT_FLOAT, CVT_NUMBERS | CVT_TEXT),
    U32(SQL_CONVERT_REAL, CVT_NUMBERS | CVT_TEXT),
    U32(SQL_CONVERT_BIT, SQL_CVT_BIT | SQL_CVT_INTEGER | CVT_TEXT),
    U32(SQL_CONVERT_CHAR, CVT_NUMBERS | CVT_TEXT | CVT_DATETIME | SQL_CVT_BIT | SQL_CVT_GUID),
    U32(SQL_CONVERT_VARCHAR, CVT_NUMBERS | CVT_TEXT | CVT_DATETIME | SQL_CVT_BIT | SQL_CVT_GUID),
    U32(SQL_CONVERT_LONGVARCHAR, CVT_NUMBERS | CVT_TEXT | CVT_DATETIME | SQL_CVT_BIT |
                                     SQL_CVT_GUID),
    U32(SQL_CONVERT_WCHAR, CVT_NUMBERS | CVT_TEXT | CVT_DATETIME | SQL_CVT_BIT | SQL_CVT_GUID),
    U32(SQL_CONVERT_WVARCHAR, CVT_NUMBERS | CVT_TEXT | CVT_DATETIME | SQL_CVT_BIT | SQL_CVT_GUID),
    U32(SQL_CONVERT_WLONGVARCHAR, CVT_NUMBERS | CVT_TEXT | CVT_DATETIME | SQL_CVT_BIT |
                                      SQL_CVT_GUID),
    U32(SQL_CONVERT_DATE, SQL_CVT_DATE | SQL_CVT_TIMESTAMP | CVT_TEXT),
    U32(SQL_CONVERT_TIME, SQL_CVT_TIME | CVT_TEXT),
    U32(SQL_CONVERT_TIMESTAMP, CVT_DATETIME | CVT_TEXT),
    U32(SQL_CONVERT_BINARY, CVT_BINARY | CVT_TEXT),
    U32(SQL_CONVERT_VARBINARY, CVT_BINARY | CVT_TEXT),
    U32(SQL_CONVERT_LONGVARBINARY, CVT_BINARY | CVT_TEXT),
    U32(SQL_CONVERT_GUID, SQL_CVT_GUID | CVT_TEXT),
    U32(SQL_CONVERT_INTERVAL_YEAR_MONTH, 0),
    U32(SQL_CONVERT_INTERVAL_DAY_TIME, 0),
};

static const info_item *info_find(SQLUSMALLINT id)
{
    for (size_t i = 0; i < sizeof info_table / sizeof info_table[0]; i++) {
        if (info_table[i].id == id)
            return &info_table[i];
    }
    return NULL;
}

/* Bitmask of the {fn} functions of one category the rewriter supports. */
typedef struct fn_bit { const char *name; SQLUINTEGER bit; } fn_bit;

static const fn_bit string_fn_bits[] = {
    {"ASCII", SQL_FN_STR_ASCII}, {"BIT_LENGTH", SQL_FN_STR_BIT_LENGTH},
    {"CHAR", SQL_FN_STR_CHAR}, {"CHAR_LENGTH", SQL_FN_STR_CHAR_LENGTH},
    {"CHARACTER_LENGTH", SQL_FN_STR_CHARACTER_LENGTH}, {"CONCAT", SQL_FN_STR_CONCAT},
    {"DIFFERENCE", SQL_FN_STR_DIFFERENCE}, {"INSERT", SQL_FN_STR_INSERT},
    {"LCASE", SQL_FN_STR_LCASE}, {"LEFT", SQL_FN_STR_LEFT}, {"LENGTH", SQL_FN_STR_LENGTH},
    {"LOCATE", SQL_FN_STR_LOCATE}, {"LTRIM", SQL_FN_STR_LTRIM},
    {"OCTET_LENGTH", SQL_FN_STR_OCTET_LENGTH}, {"POSITION", SQL_FN_STR_POSITION},
    {"REPEAT", SQL_FN_STR_REPEAT}, {"REPLACE", SQL_FN_STR_REPLACE},
    {"RIGHT", SQL_FN_STR_RIGHT}, {"RTRIM", SQL_FN_STR_RTRIM},
    {"SOUNDEX", SQL_FN_STR_SOUNDEX}, {"SPACE", SQL_FN_STR_SPACE},
    {"SUBSTRING", SQL_FN_STR_SUBSTRING}, {"UCASE", SQL_FN_STR_UCASE}, {NULL, 0},
};
static const fn_bit numeric_fn_bits[] = {
    {"ABS", SQL_FN_NUM_ABS}, {"ACOS", SQL_FN_NUM_ACOS}, {"ASIN", SQL_FN_NUM_ASIN},
    {"ATAN", SQL_FN_NUM_ATAN}, {"ATAN2", SQL_FN_NUM_ATAN2}, {"CEILING", SQL_FN_NUM_CEILING},
    {"COS", SQL_FN_NUM_COS}, {"COT", SQL_FN_NUM_COT}, {"DEGREES", SQL_FN_NUM_DEGREES},
    {"EXP", SQL_FN_NUM_EXP}, {"FLOOR", SQL_FN_NUM_FLOOR}, {"LOG", SQL_FN_NUM_LOG},
    {"LOG10", SQL_FN_NUM_LOG10}, {"MOD", SQL_FN_NUM_MOD}, {"PI", SQL_FN_NUM_PI},
    {"POWER", SQL_FN_NUM_POWER}, {"RADIANS", SQL_FN_NUM_RADIANS}, {"RAND", SQL_FN_NUM_RAND},
    {"ROUND", SQL_FN_NUM_ROUND}, {"SIGN", SQL_FN_NUM_SIGN}, {"SIN", SQL_FN_NUM_SIN},
    {"SQRT", SQL_FN_NUM_SQRT}, {"TAN", SQL_FN_NUM_TAN}, {"TRUNCATE", SQL_FN_NUM_TRUNCATE},
    {NULL, 0},
};
static const fn_bit timedate_fn_bits[] = {
    {"CURDATE", SQL_FN_TD_CURDATE}, {"CURRENT_DATE", SQL_FN_TD_CURRENT_DATE},
    {"CURRENT_TIME", SQL_FN_TD_CURRENT_TIME},
    {"CURRENT_TIMESTAMP", SQL_FN_TD_CURRENT_TIMESTAMP}, {"CURTIME", SQL_FN_TD_CURTIME},
    {"DAYNAME", SQL_FN_TD_DAYNAME}, {"DAYOFMONTH", SQL_FN_TD_DAYOFMONTH},
    {"DAYOFWEEK", SQL_FN_TD_DAYOFWEEK}, {"DAYOFYEAR", SQL_FN_TD_DAYOFYEAR},
    {"EXTRACT", SQL_FN_TD_EXTRACT}, {"HOUR", SQL_FN_TD_HOUR}, {"MINUTE", SQL_FN_TD_MINUTE},
    {"MONTH", SQL_FN_TD_MONTH}, {"MONTHNAME", SQL_FN_TD_MONTHNAME}, {"NOW", SQL_FN_TD_NOW},
    {"QUARTER", SQL_FN_TD_QUARTER}, {"SECOND", SQL_FN_TD_SECOND},
    {"TIMESTAMPADD", SQL_FN_TD_TIMESTAMPADD}, {"TIMESTAMPDIFF", SQL_FN_TD_TIMESTAMPDIFF},
    {"WEEK", SQL_FN_TD_WEEK}, {"YEAR", SQL_FN_TD_YEAR}, {NULL, 0},
};
static const fn_bit system_fn_bits[] = {
    {"DATABASE", SQL_FN_SYS_DBNAME}, {"IFNULL", SQL_FN_SYS_IFNULL},
    {"USER", SQL_FN_SYS_USERNAME}, {NULL, 0},
};

static SQLUINTEGER escape_function_mask(const fn_bit *bits)
{
    SQLUINTEGER mask = 0;
    size_t n = gc_sql_escape_function_count();
    for (size_t i = 0; i < n; i++) {
        const gc_sql_fn_mapping *f = gc_sql_escape_function_at(i);
        for (const fn_bit *b = bits; b->name != NULL; b++) {
            if (strcmp(b->name, f->odbc_name) == 0)
                mask |= b->bit;
        }
    }
    return mask;
}

/* SQL_DBMS_VER in ODBC's ##.##.#### form (major, minor, release) from
 * PQserverVersion: from 10 on a version is major.minor, so 150004 gives
 * "15.04.0000" (as psqlODBC's later releases say it); versions before 10
 * used three parts. */
static void dbms_version(const gc_conn *c, char *buf, size_t size)
{
    int v = gc_conn_is_connected(c) ? gc_session_server_version(c->session) : 0;
    if (v >= 100000)
        snprintf(buf, size, "%02d.%02d.0000", v / 10000, v % 10000);
    else
        snprintf(buf, size, "%02d.%02d.%04d", v / 10000, (v / 100) % 100, v % 100);
}

static SQLRETURN put_number(info_kind kind, SQLUINTEGER v, SQLPOINTER value,
                            SQLSMALLINT *string_length)
{
    if (kind == INFO_USMALLINT) {
        if (value != NULL)
            *(SQLUSMALLINT *)value = (SQLUSMALLINT)v;
        if (string_length != NULL)
            *string_length = (SQLSMALLINT)sizeof(SQLUSMALLINT);
    } else {
        if (value != NULL)
            *(SQLUINTEGER *)value = v;
        if (string_length != NULL)
            *string_length = (SQLSMALLINT)sizeof(SQLUINTEGER);
    }
    return SQL_SUCCESS;
}

static SQLRETURN put_handle(SQLULEN v, SQLPOINTER value, SQLSMALLINT *string_length)
{
    if (value != NULL)
        *(SQLULEN *)value = v;
    if (string_length != NULL)
        *string_length = (SQLSMALLINT)sizeof(SQLULEN);
    return SQL_SUCCESS;
}

SQLRETURN gc_info_get(gc_conn *c, SQLUSMALLINT info_type, SQLPOINTER value,
                      SQLSMALLINT buffer_length, SQLSMALLINT *string_length,
                      bool wide)
{
    gc_strout out = { .buffer = value, .buffer_length = buffer_length,
                      .wide = wide, .unit = GC_LEN_BYTES };
    bool connected = gc_conn_is_connected(c);
    char buf[64];
    const char *s = NULL;

    switch (info_type) {
    case SQL_DBMS_VER:
        dbms_version(c, buf, sizeof buf);
        s = buf;
        break;
    case SQL_DATA_SOURCE_NAME:
        s = c->settings.dsn != NULL ? c->settings.dsn : "";
        break;
    case SQL_DATABASE_NAME:
        s = connected ? gc_session_database(c->session) : c->settings.database;
        break;
    case SQL_USER_NAME:
        s = connected ? gc_session_user(c->session) : c->settings.uid;
        break;
    case SQL_SERVER_NAME:
        s = connected ? gc_session_host(c->session) : c->settings.host;
        break;
    case SQL_DATA_SOURCE_READ_ONLY:
        s = c->access_mode == SQL_MODE_READ_ONLY ? "Y" : "N";
        break;
    case SQL_DEFAULT_TXN_ISOLATION: {
        /* What the server gives a transaction that asks for nothing. */
        SQLUINTEGER level = SQL_TXN_READ_COMMITTED;
        const char *iso =
            connected ? gc_session_parameter(c->session, "default_transaction_isolation") : NULL;
        if (iso != NULL && strcmp(iso, "serializable") == 0)
            level = SQL_TXN_SERIALIZABLE;
        else if (iso != NULL && strcmp(iso, "repeatable read") == 0)
            level = SQL_TXN_REPEATABLE_READ;
        return put_number(INFO_UINTEGER, level, value, string_length);
    }
    case SQL_PARAM_ARRAY_ROW_COUNTS:
    case SQL_PARAM_ARRAY_SELECTS: {
        /* Each row's count and result set, whether the rows are pipelined
         * or run one by one (docs/parameter-arrays.md). */
        SQLUINTEGER v = info_type == SQL_PARAM_ARRAY_ROW_COUNTS ? SQL_PARC_BATCH : SQL_PAS_BATCH;
        return put_number(INFO_UINTEGER, v, value, string_length);
    }
    case SQL_STRING_FUNCTIONS:
        return put_number(INFO_UINTEGER, escape_function_mask(string_fn_bits), value,
                          string_length);
    case SQL_NUMERIC_FUNCTIONS:
        return put_number(INFO_UINTEGER, escape_function_mask(numeric_fn_bits), value,
                          string_length);
    case SQL_TIMEDATE_FUNCTIONS:
        return put_number(INFO_UINTEGER, escape_function_mask(timedate_fn_bits), value,
                          string_length);
    case SQL_SYSTEM_FUNCTIONS:
        return put_number(INFO_UINTEGER, escape_function_mask(system_fn_bits), value,
                          string_length);
    case SQL_DRIVER_HENV:
        return put_handle((SQLULEN)(uintptr_t)c->env, value, string_length);
    case SQL_DRIVER_HDBC:
        return put_handle((SQLULEN)(uintptr_t)c, value, string_length);
    case SQL_DRIVER_HSTMT:
    case SQL_DRIVER_HDESC:
        /* On input value holds the application's handle: the driver's handle
         * is that same pointer, since the driver manager passes ours. */
        if (value == NULL) {
            gc_diag_add(&c->h.diag, "HY009", 0, "invalid use of null pointer");
            return SQL_ERROR;
        }
        return put_handle(*(SQLULEN *)value, value, string_length);
    default: {
        const info_item *item = info_find(info_type);
        if (item == NULL) {
            gc_diag_add(&c->h.diag, "HY096", 0, "information type %u out of range",
                        (unsigned)info_type);
            return SQL_ERROR;
        }
        if (item->kind != INFO_STR)
            return put_number(item->kind, item->number, value, string_length);
        s = item->string;
        break;
    }
    }
    return gc_strout_put_small(&out, s != NULL ? s : "", string_length, &c->h.diag);
}
