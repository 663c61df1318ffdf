/*
 * gc_sequence_sql: what the driver and gcctl share about the sequences of
 * a cluster: the interleave's stride (each group's copy of a sequence
 * steps by it from the group's position, so no value comes from two
 * groups: docs/cluster.md, "Sequences of sharded tables"), and the SQL
 * that finds the sequences a relation's columns own.
 */
#ifndef GC_SEQUENCE_SQL_H
#define GC_SEQUENCE_SQL_H

/* The step of every interleaved copy, and so the most groups a cluster
 * may have (gcctl refuses a spec with more). */
#define GC_SEQUENCE_STRIDE 100

/* SQL condition: the pg_depend row `d` (an alias) says sequence d.objid is
 * owned by column d.refobjsubid of relation d.refobjid: a serial's ('a')
 * or an identity's ('i'). */
#define GC_SQL_DEPEND_OWNS_SEQUENCE(d)                                         \
    d ".classid = 'pg_catalog.pg_class'::pg_catalog.regclass"                \
    " AND " d ".refclassid = 'pg_catalog.pg_class'::pg_catalog.regclass"     \
    " AND " d ".deptype IN ('a', 'i')"

#endif
