/*
 * gc_exec_array_windows: a global autocommit array whose rows write on
 * several members, run window by window, so that each window of
 * batch-size rows is one transaction, as a general connection's batch is
 * (docs/parameter-arrays.md).
 *
 * Windows whose rows all go to one member go as that member's batches
 * (consecutive ones on the same member in one round trip); a window that
 * reaches several runs as a transaction across groups (the rows on their
 * owners, two steps) and commits in two phases. Windows of one row (a
 * statement psqlODBC runs row by row) are tried BatchSize rows together
 * first. A window that fails (a row, its commit, a session) is undone on
 * every member and ends the array: the rows after it are not run.
 */
#include <string.h>

#include "core/gc_conn_kind.h"
#include "core/gc_exec_array_internal.h"
#include "global/gc_global.h"

/* How a run of rows ended (run_rows). */
typedef enum run_outcome {
    RUN_COMMITTED,       /* every row ran, and committed */
    RUN_ROW_FAILED,      /* a row failed, the run stopped or a session broke:
                            the failing row's window did not commit */
    RUN_COMMIT_REFUSED,  /* across groups: the servers refused the commit
                            (a deferred constraint); nothing of it applied */
    RUN_COMMIT_UNKNOWN,  /* across groups: whether the commit applied is not
                            known (08007) */
} run_outcome;

/* members_of_rows' answers besides a member's index. */
#define NO_MEMBER (-1)          /* no row of them was routed */
#define SEVERAL_MEMBERS (-2)

/* The one member the rows first .. end - 1 were routed to (member_of),
 * NO_MEMBER or SEVERAL_MEMBERS. */
static int members_of_rows(const array_run *a, SQLULEN first, SQLULEN end)
{
    int member = NO_MEMBER;
    for (SQLULEN r = first; r < end; r++) {
        if (a->member_of[r] < 0)
            continue;
        if (member != NO_MEMBER && a->member_of[r] != member)
            return SEVERAL_MEMBERS;
        member = a->member_of[r];
    }
    return member;
}

void gc_exec_array_note_members(array_run *a)
{
    for (SQLULEN r = a->first; r < a->end; r++)
        a->member_of[r] = a->values[r] != NULL ? a->lane_of[r] : NO_MEMBER;
}

bool gc_exec_array_noted_several_members(const array_run *a)
{
    return members_of_rows(a, a->first, a->end) == SEVERAL_MEMBERS;
}

/* The row whose window failed in a->first .. a->end: the first that
 * failed; when a session broke or the run stopped with none failed, the
 * last one sent (its window's end was not confirmed). a->end when the
 * run went well. */
static SQLULEN first_failed_row(const array_run *a)
{
    SQLULEN last_sent = a->first;
    for (SQLULEN r = a->first; r < a->end; r++) {
        if (a->fate[r] == ROW_FAILED)
            return r;
        if (a->fate[r] != ROW_SKIPPED)
            last_sent = r;
    }
    return a->lost || a->stopped ? last_sent : a->end;
}

/* Opens a window's transaction across groups. The connection's autocommit
 * is off for it, so that routing, the implicit BEGIN and SQLEndTran's
 * end_tran treat its rows as a transaction's statements, with no copy of
 * that path; no other call sees the attribute meanwhile, as the
 * connection's lock is held for the whole array. Its rows are one
 * transaction, not batches: end_window_transaction undoes all of this. */
static void open_window_transaction(array_run *a)
{
    gc_conn *c = a->s->conn;
    c->autocommit = false;
    a->in_transaction = true;
    a->batch_size = 0;
    a->writes_mark = gc_global_writes_mark(c->global);
}

/* Ends the window's transaction as SQLEndTran does (in two phases when it
 * wrote in several groups): committed when `commit`, else rolled back
 * (RUN_ROW_FAILED); autocommit and the windows' batches are back. What
 * ending it says is about the window's last row. */
static run_outcome end_window_transaction(array_run *a, bool commit)
{
    gc_stmt *s = a->s;
    gc_conn *c = s->conn;
    gc_diag outer;
    gc_diag_set_aside(&c->h.diag, &outer);
    bool ended = SQL_SUCCEEDED(c->kind->end_tran(c, commit));
    c->autocommit = true;
    a->in_transaction = false;
    a->batch_size = a->window_size;
    run_outcome outcome = !commit ? RUN_ROW_FAILED
                          : ended ? RUN_COMMITTED
                          : gc_diag_has_sqlstate(&c->h.diag, "08007") ? RUN_COMMIT_UNKNOWN
                          : RUN_COMMIT_REFUSED;
    gc_diag_take_back(&c->h.diag, &outer, &s->h.diag, (SQLLEN)a->end);
    return outcome;
}

/* The end of the window of size rows from row first: the next window's
 * first row, or the array's end. */
static SQLULEN window_end(const array_run *a, SQLULEN first, SQLULEN size)
{
    return a->rows - first > size ? first + size : a->rows;
}

/* The end of the run of windows from `first` (a multiple of size) that
 * goes as one: a window reaching several members alone; otherwise it and
 * the windows after it whose rows go to the same member (or to none),
 * which that member's pipeline takes as batches in one round trip, as a
 * general connection's. *across says which. */
static SQLULEN end_of_run(const array_run *a, SQLULEN first, SQLULEN size, bool *across)
{
    SQLULEN end = window_end(a, first, size);
    int member = members_of_rows(a, first, end);
    *across = member == SEVERAL_MEMBERS;
    while (!*across && end < a->rows) {
        SQLULEN next = window_end(a, end, size);
        int next_member = members_of_rows(a, end, next);
        if (next_member == SEVERAL_MEMBERS ||
            (member != NO_MEMBER && next_member != NO_MEMBER && next_member != member))
            break;
        if (member == NO_MEMBER)
            member = next_member;
        end = next;
    }
    return end;
}

/* Runs the rows first .. end - 1 (a run of end_of_run's): across groups
 * as one transaction, ended as SQLEndTran ends one. Unless all went well,
 * *failed_at is the row whose window did not commit (first_failed_row;
 * first when the commit failed). */
static run_outcome run_rows(array_run *a, SQLULEN first, SQLULEN end, bool across,
                            SQLULEN *failed_at)
{
    a->first = first;
    a->end = end;
    a->n_lanes = 0;
    memset(a->lanes, 0, (size_t)a->lanes_cap * sizeof(lane));
    if (across)
        open_window_transaction(a);
    gc_error err;
    gc_error_clear(&err);
    gc_exec_array_per_member.queue(a, &err);
    if (a->spans) {
        /* Routed apart from the others only now: not run here. */
        gc_error across_groups;
        gc_error_set(&across_groups, "HY000", 0, "a row of the window is a write "
                     "across groups, which a parameter array runs only from its first row");
        gc_diag_add_error_at(&a->s->h.diag, &across_groups, (SQLLEN)first + 1,
                             SQL_NO_COLUMN_NUMBER);
        a->spans = false;
        a->stopped = true;
    }
    gc_exec_array_collect_lanes(a);
    gc_exec_array_per_member.finish(a);
    *failed_at = first_failed_row(a);
    run_outcome outcome = *failed_at == end ? RUN_COMMITTED : RUN_ROW_FAILED;
    if (across)
        outcome = end_window_transaction(a, outcome == RUN_COMMITTED);
    if (outcome == RUN_COMMIT_REFUSED || outcome == RUN_COMMIT_UNKNOWN)
        *failed_at = first;
    return outcome;
}

/* Rows that go one window each (a statement psqlODBC runs row by row:
 * batches of one) and reach several members: the rows first .. end - 1
 * are tried as one transaction across groups, which gives what running
 * them one by one gives when none fails, without a round trip at each
 * change of member. When a row fails, a session breaks or the commit is
 * refused, nothing of them stays: the transaction's diagnostics are
 * dropped and the rows are made ready to go again one window at a time,
 * so that exactly the rows before the failing one stay. A commit of
 * unknown outcome (RUN_COMMIT_UNKNOWN) keeps its diagnostics. */
static run_outcome try_rows_together(array_run *a, SQLULEN first, SQLULEN end)
{
    gc_stmt *s = a->s;
    gc_diag kept;
    gc_diag_set_aside(&s->h.diag, &kept);
    SQLULEN failed_at;
    run_outcome outcome = run_rows(a, first, end, true, &failed_at);
    if (outcome == RUN_COMMITTED || outcome == RUN_COMMIT_UNKNOWN) {
        gc_diag_take_back(&s->h.diag, &kept, &s->h.diag, SQL_NO_ROW_NUMBER);
        return outcome;
    }
    gc_trace_write(s->conn->trace, GC_TRACE_INFO, "rows %lu-%lu tried as one transaction "
                   "did not commit (%s): they go again a window at a time",
                   (unsigned long)first + 1, (unsigned long)end,
                   outcome == RUN_COMMIT_REFUSED ? "its commit was refused" : "a row failed");
    gc_diag_take_back(&s->h.diag, &kept, NULL, SQL_NO_ROW_NUMBER);
    gc_exec_array_restart_rows(a, first, end);
    return outcome;
}

void gc_exec_array_run_windows(array_run *a)
{
    gc_conn *c = a->s->conn;
    SQLULEN size = a->window_size = a->batch_size;
    SQLULEN together = c->psqlodbc_batch_size;    /* rows tried together */
    SQLULEN one_by_one_until = 0;    /* rows tried together that failed */
    gc_trace_write(c->trace, GC_TRACE_DEBUG, "the array's rows reach several members: "
                   "a transaction per window of %lu rows", (unsigned long)size);
    for (SQLULEN first = 0; first < a->rows; first = a->end) {
        SQLULEN end = window_end(a, first, together);
        if (size == 1 && together > 1 && first >= one_by_one_until &&
            members_of_rows(a, first, end) == SEVERAL_MEMBERS) {
            run_outcome outcome = try_rows_together(a, first, end);
            if (outcome == RUN_COMMITTED)
                continue;
            if (outcome == RUN_COMMIT_UNKNOWN) {
                gc_exec_array_undo_batch(a, GC_ARRAY_ANY_LANE, first, end - 1);
                a->stopped = true;
                break;
            }
            one_by_one_until = end;
        }
        bool across;
        SQLULEN failed_at;
        end = end_of_run(a, first, size, &across);
        if (run_rows(a, first, end, across, &failed_at) != RUN_COMMITTED) {
            /* The windows before the failing row's committed. */
            SQLULEN window = failed_at - failed_at % size;
            gc_exec_array_undo_batch(a, GC_ARRAY_ANY_LANE, window,
                                     window_end(a, window, size) - 1);
            a->stopped = true;
            break;
        }
    }
}
