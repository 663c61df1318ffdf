# Helpers shared by the cluster DDL tests (sourced after ../gcctl/lib.sh).

# on_every PRIMARY-QUERY EXPECTED WHAT: the same answer on each group's primary.
on_every() {
    for g in G1 G2; do
        got=$(sql "$(primary_of "$g")" "$1")
        [ "$got" = "$2" ] || fail "$3: group $g's primary answers '$got' to '$1', expected '$2'"
    done
}

# no_prepared_left WHAT: no prepared transaction on any group's primary.
no_prepared_left() {
    on_every "SELECT count(*) FROM pg_prepared_xacts" 0 "$1"
}

# app_owns_public_tables: gcctl creates the spec's tables as the superuser;
# DDL on them needs their owner, so the application role is made the owner.
app_owns_public_tables() {
    for g in G1 G2; do
        su_sql "$(primary_of "$g")" "DO \$\$ DECLARE r regclass; BEGIN
            FOR r IN SELECT c.oid FROM pg_class c WHERE c.relnamespace = 'public'::regnamespace
                     AND c.relkind IN ('r', 'p', 'f') LOOP
                EXECUTE format('ALTER TABLE %s OWNER TO app', r);
            END LOOP; END \$\$" >/dev/null
    done
}

# hold_commits MEMBER: synchronous replication to a standby that does not
# exist, so a commit (or PREPARE) there waits after it is durable locally.
hold_commits() {
    su_sql "$1" "ALTER SYSTEM SET synchronous_standby_names = 'gcodbc_no_such_standby'" >/dev/null
    su_sql "$1" "SELECT pg_reload_conf()" >/dev/null
    for _ in $(seq 1 50); do
        [ "$(su_sql "$1" "SHOW synchronous_standby_names")" = gcodbc_no_such_standby ] && return
        sleep 0.1
    done
}

# release_commits MEMBER: undoes hold_commits (waiting commits go on).
release_commits() {
    su_sql "$1" "ALTER SYSTEM RESET synchronous_standby_names" >/dev/null
    su_sql "$1" "SELECT pg_reload_conf()" >/dev/null
}

# held_backend MEMBER CONDITION: the pid of the backend waiting for
# synchronous replication whose pg_stat_activity row meets CONDITION (SQL),
# polled for up to 15 s; empty when none came.
held_backend() {
    local pid=""
    for _ in $(seq 1 150); do
        pid=$(su_sql "$1" "SELECT pid FROM pg_stat_activity WHERE wait_event = 'SyncRep' AND $2")
        [ -n "$pid" ] && break
        sleep 0.1
    done
    echo "$pid"
}

# wait_client PID WHAT: waits up to 30 s for a client in the background.
wait_client() {
    for _ in $(seq 1 300); do
        kill -0 "$1" 2>/dev/null || break
        sleep 0.1
    done
    if kill -0 "$1" 2>/dev/null; then
        kill "$1"
        fail "the client did not return within 30 s of $2"
    fi
    wait "$1" || fail "the client failed on $2"
}

# txn GROUP commit|rollback SQL...: one transaction (txn_client.py), the
# policy choosing GROUP.
txn() {
    local group=$1
    shift
    run_client "$PYTHON" "$(dirname "$CLIENT")/txn_client.py" \
        "DSN=gddl;LocalityGroupPolicy=1;LocalityGroupPath=$group" "$@" \
        || fail "the transaction client failed on: $*"
}

# first_words TEXT: the first two words of each line of TEXT (what a client
# answered, without its messages), on one line, each line's followed by a space.
first_words() {
    echo "$1" | awk '{ printf "%s%s ", $1, ($2 == "" ? "" : " " $2) }'
}
