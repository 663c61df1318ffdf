/*
 * gc_exec_array_internal: what the parameter array's two files share, the
 * run of one array (gc_exec_array.c: rows on pipelines, their answers)
 * and the windows of a global autocommit array that reaches several
 * members (gc_exec_array_windows.c).
 */
#ifndef GC_EXEC_ARRAY_INTERNAL_H
#define GC_EXEC_ARRAY_INTERNAL_H

#include <libpq-fe.h>
#include <sql.h>
#include <sqlext.h>
#include <stdbool.h>

#include "core/gc_exec_array.h"
#include "core/gc_param.h"
#include "core/gc_stmt.h"
#include "global/gc_global.h"

/* What a row became. */
typedef enum row_fate {
    ROW_SKIPPED = 0,     /* ignored (SQL_PARAM_IGNORE) or never reached */
    ROW_QUEUED,          /* sent; its answer decides */
    ROW_FAILED,          /* failed: conversion, routing or the server's error */
    ROW_RAN,             /* the server ran it */
    ROW_RAN_WITH_INFO,   /* ran with a warning: a value's conversion, a notice */
} row_fate;

/* The pipeline of one member session: a general connection has one, a
 * global connection one per member its rows were routed to. */
typedef struct lane {
    gc_session *m;
    int member;              /* the global connection's member index; -1 general */
    bool begin_queued;       /* the driver's BEGIN goes first (manual commit) */
    bool savepoint_queued;   /* global transaction: the array's savepoint goes first */
    char stmt[32];           /* the statement's name: "" (unnamed) unless batched, whose
                                BEGIN and COMMIT would replace the unnamed one */
    bool prepare_queued;
    bool lost;               /* the session broke */
    bool batch_open;         /* autocommit: a batch's BEGIN is queued, its end not yet */
    SQLULEN batch_window;    /* ... the batch's rows are of window r / batch_size */
    SQLULEN last_queued;     /* the last row queued on the lane */
} lane;

/* One execution of an array. */
typedef struct gc_array_run {
    gc_stmt *s;
    SQLULEN rows;
    SQLULEN first, end;      /* the rows sent now: all of them, or one run of
                                windows (gc_exec_array_run_windows) */
    unsigned char *fate;     /* row_fate per row; owned */
    lane *lanes;             /* owned */
    int n_lanes, lanes_cap;
    int *lane_of;            /* each row's lane (lane per member); owned, NULL: lane 0 */
    gc_param_value **values; /* global: a routed row's values until queued; owned */
    SQLULEN batch_size;      /* autocommit: each window of this many rows is one
                                BEGIN ... COMMIT on each lane; 0: none */
    unsigned char *marks;    /* what the pipeline holds around each row of a batch
                                (gc_exec_array.c); owned */
    bool in_transaction;     /* global connection in a transaction (two steps) */
    gc_writes_mark writes_mark; /* ... its record of tables written before the
                                array (gc_global_writes_mark) */
    bool stopped;            /* a row failed before it was sent (conversion,
                                routing): the rows after it were not run */
    SQLULEN stopped_at;      /* ... that row */
    bool writes_elsewhere;   /* global: a row's write may reach another group
                                through postgres_fdw (gc_global_may_write_elsewhere) */
    PGresult **answers;      /* per row, its result; then the results in row order;
                                owned until published */
    bool published;
    SQLLEN total;            /* sum of the rows' row counts */
    bool server_failed;      /* the server refused a row (or the text) */
    SQLULEN first_refused;   /* ... the first row it refused; rows: none */
    bool lost;               /* a session broke */
    bool parse_reported;     /* a refused text is reported once, not per member */
    bool type_refused;       /* the text was refused for a declared parameter type
                                (42804, 42883) */
    int uninferred;          /* the parameter whose type the server could not
                                infer (gc_param_uninferred), -1: none */
    bool spans;              /* a row is a write across groups: the array runs
                                row by row instead (nothing was sent) */
    bool windowed;           /* global autocommit rows reach several members: the
                                array runs window by window */
    int *member_of;          /* ... each row's member, as routed before; owned */
    SQLULEN window_size;     /* ... the window's rows (batch_size, which is 0 while
                                a window is a transaction across groups) */
} array_run;

/* gc_exec_array.c, for the windows. */

/* Reads every lane's answers (bounded by the query timeout), leaves
 * pipeline mode, and fails the rows of lanes whose session broke. */
void gc_exec_array_collect_lanes(array_run *a);

/* gc_exec_array_undo_batch's lane for rows undone on every lane. */
#define GC_ARRAY_ANY_LANE (-1)

/* The autocommit batch of lane l's rows first .. last was rolled back:
 * the rows of it that ran are undone with it (SQL_PARAM_ERROR, their
 * results gone). */
void gc_exec_array_undo_batch(array_run *a, int l, SQLULEN first, SQLULEN last);

/* The rows first .. end - 1 go again as if never tried: their values,
 * fates and results are dropped, and the run's state (stopped, a session
 * lost, a server's refusal) starts again. The members noted stay. */
void gc_exec_array_restart_rows(array_run *a, SQLULEN first, SQLULEN end);

/* gc_exec_array_windows.c. */

/* Notes the member of each routed row of a->first .. a->end - 1 in
 * member_of. */
void gc_exec_array_note_members(array_run *a);

/* Whether the rows noted by gc_exec_array_note_members reach several
 * members. */
bool gc_exec_array_noted_several_members(const array_run *a);

/* Runs a global autocommit array whose rows reach several members window
 * by window (docs/parameter-arrays.md); a window that fails ends it, with
 * a->stopped. */
void gc_exec_array_run_windows(array_run *a);

#endif
