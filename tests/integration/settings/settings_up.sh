#!/bin/bash
# Fixture: the routing tests' cluster_up.sh with the settings cluster, then,
# on every primary (standbys replicate them), the local objects the tests
# read: schema s2 and a table `probe` in both s2 and public (what an
# unqualified name means depends on search_path), and the tables, sequence,
# function and role the refused-construct near misses use.
# usage: settings_up.sh GCCTL SPEC DIR ROUTING_SRC
GCCTL=$1
SPEC=$2
DIR=$3
ROUTING_SRC=$4
bash "$ROUTING_SRC/cluster_up.sh" "$GCCTL" "$SPEC" "$DIR" 2000 || exit 1
source "$ROUTING_SRC/../gcctl/lib.sh"
trap '[ -e "$DIR/settings_ready" ] || "$GCCTL" local down --dir "$DIR" >/dev/null 2>&1 || true' EXIT
rm -f "$DIR/settings_ready"
objects="
CREATE SCHEMA s2 AUTHORIZATION app;
CREATE TABLE public.probe (a int); CREATE TABLE s2.probe (a int);
CREATE TABLE nm (a int, version int, uuid int, currval int, session_id int,
                 prepare int, execute int, hold int, load int, cluster_group_id int);
INSERT INTO nm VALUES (1, 1, 1, 1, 1, 1, 1, 1, 1, 1);
CREATE TABLE version (a int); CREATE TABLE temp (a int);
CREATE TABLE temp_data (a int); CREATE TABLE pg_temp_stats (a int);
CREATE SEQUENCE nm_seq;
CREATE FUNCTION my_uuid() RETURNS int LANGUAGE sql AS 'SELECT 1';
GRANT ALL ON public.probe, s2.probe, nm, version, temp, temp_data, pg_temp_stats, nm_seq TO app;
DO \$\$ BEGIN
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'settings_reader') THEN
    CREATE ROLE settings_reader;
  END IF;
END \$\$;
GRANT settings_reader TO app;
GRANT USAGE ON SCHEMA public, s2 TO settings_reader;
GRANT SELECT ON ALL TABLES IN SCHEMA public TO settings_reader;
"
for g in G1 G2; do
    su_sql "$(primary_of "$g")" "$objects" >/dev/null
done
# A role only G1 knows: SET ROLE to it works on G1's members and fails on
# G2's, which shows whether a failed SET is undone everywhere.
su_sql G1N1 "DO \$\$ BEGIN
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'only_g1') THEN CREATE ROLE only_g1; END IF;
END \$\$; GRANT only_g1 TO app" >/dev/null
for m in $(members); do
    wait_until "$m" "SELECT count(*) FROM nm, pg_namespace n WHERE n.nspname = 's2'" 1
done
touch "$DIR/settings_ready"
echo "settings cluster ready"
