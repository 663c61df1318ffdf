/*
 * gc_outcome: the rules of a global connection's statement lifecycle, as
 * pure decisions (docs/failover.md). Each function takes plain facts about
 * what happened (the statement's result, the member session's state, the
 * transaction's pin, what the transaction-id exchange said) and returns
 * what to do about it: an action, and the SQLSTATE / native error to
 * report when there is one. No libpq, no handles, no state: the caller
 * gathers the facts, carries out the action and writes the messages.
 * Unit-tested case by case in tests/unit/outcome.
 */
#ifndef GC_OUTCOME_H
#define GC_OUTCOME_H

#include <stdbool.h>

/* The native error of 40001 that means "the transaction was rolled back,
 * nothing of it applied, running it again is safe" (docs/failover.md). */
#define GC_NATIVE_TXN_LOST 19068

/* What became of a transaction whose answer was lost (gc_xact_status.h). */
typedef enum gc_xact_outcome {
    GC_XACT_COMMITTED,
    GC_XACT_NOT_COMMITTED,
    GC_XACT_UNKNOWN,
} gc_xact_outcome;

/* An error or information to report: sqlstate "" when there is none. */
typedef struct gc_outcome_report {
    char sqlstate[6];
    int native;
} gc_outcome_report;

/* --- after a statement ran on a member session (gc_route_done) --- */

/* The server's view of the session's transaction after the statement. */
typedef enum gc_session_txn {
    GC_SESSION_IDLE,            /* no transaction open */
    GC_SESSION_IN_TRANSACTION,  /* open, or open and failed */
    GC_SESSION_OTHER,           /* busy, or unknown (the session broke) */
} gc_session_txn;

typedef struct gc_statement_facts {
    bool failed;              /* the statement returned an error */
    bool member_broke;        /* its session broke while it ran */
    bool pinned_here;         /* the open transaction is pinned to this member */
    bool pinned_elsewhere;    /* ... to another member */
    bool holds_transaction;   /* this member holds a part of the open transaction */
    bool is_commit;           /* SQL COMMIT not sent with its transaction id */
    bool autocommit;
    gc_session_txn session;   /* when the member did not break */
} gc_statement_facts;

typedef enum gc_after_action {
    GC_AFTER_KEEP,            /* nothing changes */
    GC_AFTER_PIN,             /* the statement opened a transaction: pin it here */
    GC_AFTER_RELEASE,         /* the pinned transaction ended in SQL: release the pin */
    GC_AFTER_MEMBER_FAILED,   /* mark the member down; the statement's own error stands */
    GC_AFTER_TXN_LOST,        /* mark it down; report (replacing the diagnostics) */
    GC_AFTER_COMMIT_UNKNOWN,  /* mark it down; report; release the pin */
} gc_after_action;

typedef struct gc_after_statement {
    gc_after_action action;
    gc_outcome_report report;
    bool clear_lost;          /* the "transaction lost" mark is told now, once */
} gc_after_statement;

gc_after_statement gc_outcome_after_statement(const gc_statement_facts *f);

/* Whether the "transaction lost" mark ends once the statement reported
 * it: a transaction begun in SQL (autocommit on) is told once; with
 * autocommit off every statement is told until SQLEndTran. */
bool gc_outcome_lost_told_once(bool autocommit);

/* --- before sending (gc_route_statement) --- */

/* Whether the routed member's session may be used without the look for a
 * dead session: an autocommit read-only statement outside a transaction,
 * which runs again elsewhere when the session breaks under it. */
bool gc_outcome_skips_alive_check(bool transaction, bool autocommit, bool read_only);

typedef struct gc_unusable_facts {
    bool waited_in_vain;      /* no shared session came free in time (HYT00) */
    bool pinned;              /* the member holds the open transaction */
    bool txn_lost;            /* the transaction is marked lost */
    bool autocommit;
} gc_unusable_facts;

typedef enum gc_unusable_action {
    GC_UNUSABLE_REPORT,        /* report the error that came; stop */
    GC_UNUSABLE_ROUTE_AGAIN,   /* nothing was sent or begun there: choose again */
    GC_UNUSABLE_TXN_LOST,      /* report the lost transaction; stop */
    GC_UNUSABLE_PIN_LOST,      /* release the pin, report 08S01; stop */
} gc_unusable_action;

typedef struct gc_unusable_verdict {
    gc_unusable_action action;
    gc_outcome_report report;  /* TXN_LOST, PIN_LOST */
    bool clear_lost;
} gc_unusable_verdict;

/* The member routing chose could not be opened or was found dead before
 * anything was sent. */
gc_unusable_verdict gc_outcome_chosen_unusable(const gc_unusable_facts *f);

/* --- running again (gc_route_may_rerun) --- */

typedef struct gc_rerun_facts {
    bool autocommit;
    bool in_transaction;      /* a BEGIN held back in SQL, or a pin */
    bool read_only;           /* by the statement's analysis */
    bool known_not_applied;   /* the failed write was settled as not applied */
    bool member_broke;
} gc_rerun_facts;

/* Whether a failed statement runs again elsewhere, silently: it broke with
 * its member and cannot have taken effect. */
bool gc_outcome_may_rerun(const gc_rerun_facts *f);

/* --- a statement sent with its transaction id (COMMIT, autocommit write) --- */

/* What the exchange with the member said. */
typedef enum gc_exchange {
    GC_EXCHANGE_COMMITTED,     /* answered: it committed */
    GC_EXCHANGE_REFUSED,       /* answered: the server's error, nothing committed */
    GC_EXCHANGE_BROKE_BEFORE,  /* the session broke before it could apply */
    GC_EXCHANGE_ANSWER_LOST,   /* the session broke after sending: ask what became of it */
} gc_exchange;

/* The exchange from the run's plain facts: answered_ok (the commit or the
 * write was answered with success), member_broke (the session is down),
 * not_committed (the run knows nothing could have committed). */
gc_exchange gc_outcome_exchange(bool answered_ok, bool member_broke, bool not_committed);

typedef struct gc_settle_facts {
    bool is_commit;           /* a COMMIT; else an autocommit write */
    gc_exchange exchange;
    bool no_id_on_member;     /* the id query answered: no transaction id */
    bool may_write_elsewhere; /* it may have written another group through postgres_fdw */
    bool remote_commit_failed;/* the server's error came from postgres_fdw's remote COMMIT */
    bool asked;               /* pg_xact_status was asked: `resolved` holds the answer */
    gc_xact_outcome resolved;
} gc_settle_facts;

typedef enum gc_settle_action {
    GC_SETTLE_ASK,             /* ask pg_xact_status, then decide again with `asked` */
    GC_SETTLE_COMMITTED,       /* success; report is 01000 when the answer was lost */
    GC_SETTLE_WROTE_NOTHING,   /* COMMIT of a transaction that wrote nothing: 01000 */
    GC_SETTLE_REFUSED,         /* the server's error; report (08007 / 40003) goes first */
    GC_SETTLE_RERUN,           /* a write that did not apply: it may run again */
    GC_SETTLE_LOST,            /* a COMMIT that did not apply: 40001 / 19068 */
    GC_SETTLE_UNKNOWN,         /* 08007 (COMMIT), 40003 (write) */
} gc_settle_action;

typedef struct gc_settle_verdict {
    gc_settle_action action;
    gc_outcome_report report;
    bool why_elsewhere;        /* UNKNOWN because of postgres_fdw, not the answer */
} gc_settle_verdict;

gc_settle_verdict gc_outcome_settle(const gc_settle_facts *f);

/* --- committing --- */

/* How SQL COMMIT runs on a global connection's pinned member. */
typedef enum gc_sql_commit {
    GC_SQL_COMMIT_WITH_ID,     /* one group: sent with its transaction id */
    GC_SQL_COMMIT_SPREAD,      /* several groups: two-phase commit */
    GC_SQL_COMMIT_REFUSED,     /* COMMIT AND CHAIN across groups: 0A000 */
} gc_sql_commit;

gc_sql_commit gc_outcome_sql_commit(bool spread, bool and_chain);

typedef struct gc_end_tran_facts {
    bool commit;              /* SQL_COMMIT; else SQL_ROLLBACK */
    bool pinned;              /* a member holds the open transaction */
    bool spread;              /* it wrote in several groups */
    bool txn_lost;            /* it was lost with its member */
    bool pinned_in_transaction; /* the pinned session has a transaction open, not failed */
} gc_end_tran_facts;

typedef enum gc_end_tran_action {
    GC_END_SPREAD_COMMIT,      /* two-phase commit of every part */
    GC_END_LOST,               /* nothing to send; report says whether it fails */
    GC_END_COMMIT_WITH_ID,     /* COMMIT with its transaction id on the pinned member */
    GC_END_ON_MEMBER,          /* COMMIT or ROLLBACK on the pinned member */
    GC_END_NOTHING,            /* no transaction: nothing to send */
} gc_end_tran_action;

typedef struct gc_end_tran_verdict {
    gc_end_tran_action action;
    gc_outcome_report report;  /* GC_END_LOST with COMMIT: 40001 / 19068 */
    bool release_pin;          /* before anything is sent */
} gc_end_tran_verdict;

/* SQLEndTran on a global connection. */
gc_end_tran_verdict gc_outcome_end_tran(const gc_end_tran_facts *f);

/* --- a member that failed while rows were fetched --- */

typedef enum gc_fetch_action {
    GC_FETCH_TXN_LOST,         /* the transaction is lost (as gc_outcome_after_statement) */
    GC_FETCH_REPORT,           /* report replaces the diagnostics */
} gc_fetch_action;

typedef struct gc_fetch_verdict {
    gc_fetch_action action;
    gc_outcome_report report;  /* 40001 / 19068 (incomplete read), 40003 (write) */
} gc_fetch_verdict;

gc_fetch_verdict gc_outcome_fetch_failed(bool holds_transaction, bool read_only);

#endif
