#!/bin/bash
# A broken spec is refused with one line naming file:line:column and the
# problem, and a non-zero exit; the example spec passes.
# usage: spec_errors.sh GCCTL SOURCE_DIR
GCCTL=$1
SRC=$2
DIR=unused
source "$SRC/lib.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

"$GCCTL" check "$SRC/../../../examples/cluster.yaml" >/dev/null || fail "the example spec is refused"

head='cluster: x
database: app
user: app
password: p
'
# expect NAME EXPECTED-MESSAGE-PART: the spec on stdin must be refused so.
expect() {
    local name=$1 want=$2 out rc
    cat > "$work/$name.yaml"
    out=$("$GCCTL" check "$work/$name.yaml" 2>&1)
    rc=$?
    [ $rc -ne 0 ] || fail "$name: accepted, expected '$want'"
    [ "$(printf '%s\n' "$out" | wc -l)" -eq 1 ] || fail "$name: more than one line: $out"
    case "$out" in
        *"$want"*) echo "ok: $name -> $out" ;;
        *) fail "$name: got '$out', expected '$want'" ;;
    esac
}

expect yaml_syntax "$work/yaml_syntax.yaml:7:1: YAML error" <<EOF2
${head}members:
  - {name: A, group: G1
EOF2

expect duplicate_member "duplicate_member.yaml:7:5: member name A is used twice" <<EOF2
${head}members:
  - {name: A, group: G1}
  - {name: A, group: G1}
EOF2

# 101 groups: more than the step of the interleaved sequences.
expect too_many_groups "too_many_groups.yaml:6:5: a cluster has at most 100 groups" <<EOF2
${head}members:
$(for g in $(seq 1 101); do echo "  - {name: M$g, group: G$g}"; done)
EOF2

expect unknown_key "unknown_key.yaml:5:1: unknown key 'membres'" <<EOF2
${head}membres: []
EOF2

expect pk_without_key "the primary key must include the sharding key column 'b'" <<EOF2
${head}members:
  - {name: A, group: G1}
tables:
  - name: t
    columns: [a int, b int]
    primary_key: [a]
    sharding: {method: hash, key: [b], shards: 2}
EOF2

expect unique_without_key "unique_without_key.yaml:8:5: table t: the unique constraint must include the sharding key" <<EOF2
${head}members:
  - {name: A, group: G1}
tables:
  - name: t
    columns: [a int, b int]
    unique: [[a]]
    sharding: {method: hash, key: [b], shards: 2}
EOF2

expect inline_pk "declares primary key/unique/references inline" <<EOF2
${head}members:
  - {name: A, group: G1}
tables:
  - name: t
    columns: [a int primary key, b int]
    sharding: {method: hash, key: [a], shards: 2}
EOF2

expect unknown_group "shard group G9 is not a group of the members" <<EOF2
${head}members:
  - {name: A, group: G1}
tables:
  - name: t
    columns: [a int]
    sharding:
      method: list
      key: [a]
      shards:
        - {values: [1], group: G9}
EOF2

expect solo_unknown_group "table t: group G2 is not a group of the members" <<EOF2
${head}members:
  - {name: A, group: G1}
tables:
  - name: t
    columns: [a int]
    group: G2
EOF2

expect unknown_key_column "sharding key column 'c' is not a column" <<EOF2
${head}members:
  - {name: A, group: G1}
tables:
  - name: t
    columns: [a int]
    sharding: {method: hash, key: [c], shards: 2}
EOF2

expect two_defaults "table t has two default shards" <<EOF2
${head}members:
  - {name: A, group: G1}
tables:
  - name: t
    columns: [a int]
    sharding:
      method: list
      key: [a]
      shards:
        - {default: true, group: G1}
        - {default: true, group: G1}
EOF2

expect bad_port "member port must be an integer from 0 to 65535" <<EOF2
${head}members:
  - {name: A, group: G1, port: 70000}
EOF2

expect same_name "the name t_0 is used twice" <<EOF2
${head}members:
  - {name: A, group: G1}
tables:
  - name: t_0
    columns: [a int]
    group: G1
  - name: t
    columns: [a int]
    sharding: {method: hash, key: [a], shards: 2}
EOF2

expect no_members "the spec needs 'members'" <<EOF2
${head}
EOF2

# 100 KB of '[' took libyaml minutes to refuse; the depth bound stops it at
# once, where the nesting gets too deep.
start=$(date +%s.%N)
expect too_deep "too_deep.yaml:1:33: YAML error: nested deeper than 32 levels" < <(head -c 102400 /dev/zero | tr '\0' '[')
secs=$(echo "$(date +%s.%N) - $start" | bc)
(( $(echo "$secs < 2" | bc) )) || fail "100 KB of '[' took ${secs} s to refuse"

# A FIFO (or anything but a regular file) is refused without waiting for a
# writer; timeout turns a hang into a failure.
mkfifo "$work/fifo.yaml"
out=$(timeout 10 "$GCCTL" check "$work/fifo.yaml" 2>&1)
rc=$?
[ $rc -ne 0 ] && [ $rc -ne 124 ] || fail "a FIFO spec: exit $rc, $out"
[ "$out" = "gcctl: $work/fifo.yaml: is not a regular file (a FIFO)" ] || fail "a FIFO spec: $out"
echo "ok: fifo -> $out"
echo "PASS"
