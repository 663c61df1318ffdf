#!/bin/bash
# Commit resolution of the global connection, end to end (docs/failover.md,
# "A COMMIT whose answer was lost"): a private 2 x 2 cluster (always taken
# down); commit_resolution.py drives the driver through unixODBC and calls
# back here (as a helper command) for superuser SQL and faults; the servers
# are the witnesses.
# usage: commit_resolution.sh GCCTL PY SPEC DIR
GCCTL=$1
PY=$2
SPEC=$3
DIR=$4
LIB=$(cd "$(dirname "$0")/../gcctl" && pwd)/lib.sh
source "$LIB"
own_cluster "$SPEC"

base=$(sed -n 's/^base: //p' "$DIR/local.state")
os_user=$(sed -n 's/^user: //p' "$DIR/local.state")
# A plain (not sharded) table `cr` on each group: the driver routes it by
# LocalityGroupPolicy. On G1 a deferred constraint trigger sleeps at COMMIT
# for rows tagged 'slow...', so a test can break the session while COMMIT
# runs, after the transaction id was sent. G2's copy has no trigger: a
# write run again there completes.
su_sql G1N1 "CREATE TABLE cr (id int, tag text);
  CREATE FUNCTION cr_slow() RETURNS trigger LANGUAGE plpgsql AS
    \$\$BEGIN IF NEW.tag LIKE 'slow%' THEN PERFORM pg_sleep(60); END IF; RETURN NULL; END\$\$;
  CREATE CONSTRAINT TRIGGER cr_slow AFTER INSERT ON cr DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION cr_slow();
  GRANT ALL ON cr TO app;" >/dev/null || fail "setup on G1N1"
su_sql G2N1 "CREATE TABLE cr (id int, tag text); GRANT ALL ON cr TO app;" >/dev/null \
    || fail "setup on G2N1"
wait_until G1N2 "SELECT count(*) FROM pg_class WHERE relname = 'cr'" 1
wait_until G2N2 "SELECT count(*) FROM pg_class WHERE relname = 'cr'" 1

# The helper commit_resolution.py calls.
cat >"$DIR/helper.sh" <<HELPER
#!/bin/bash
DIR=$DIR
source "$LIB"
case \$1 in
su) psql -X -q -At -h "$base/sock" -p "\$(port_of "\$2")" -U "$os_user" -d app -c "\$3" ;;
killpid) kill -9 "\$2" ;;
signal) kill -"\$2" "\$3" ;;
stop) "$GCCTL" local stop-member "\$2" --dir "$DIR" --mode immediate >/dev/null ;;
start) "$GCCTL" local start-member "\$2" --dir "$DIR" >/dev/null ;;
ready) for _ in \$(seq 1 100); do
           pg_isready -q -h 127.0.0.1 -p "\$(port_of "\$2")" && exit 0; sleep 0.1
       done; exit 1 ;;
esac
HELPER
chmod +x "$DIR/helper.sh"
run_client /usr/bin/python3 "$PY" gcommit "$DIR/helper.sh" \
    || fail "commit_resolution.py failed"
echo PASS
