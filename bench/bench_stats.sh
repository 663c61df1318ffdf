# bench_stats.sh: shell helpers shared by the benchmarks' run.sh (sourced).

# sorted_numbers: the numbers on stdin (spaces or newlines), one a line,
# in ascending order.
sorted_numbers() {
  tr ' ' '\n' | awk 'NF' | sort -g
}

# median: the median of the numbers on stdin, or n/a.
median() {
  sorted_numbers | awk '{v[NR]=$1} END {
    if (NR == 0) { print "n/a"; exit }
    if (NR % 2) print v[(NR+1)/2]; else print (v[NR/2] + v[NR/2+1]) / 2 }'
}

# spread: "min-max" of the numbers on stdin, or n/a: how far the runs
# behind a median lie apart, to tell a change from noise.
spread() {
  sorted_numbers | awk '{v[NR]=$1} END {
    if (NR == 0) print "n/a"; else print v[1] "-" v[NR] }'
}

# ratio A B: A / B with two decimals, or n/a when either is missing.
ratio() {
  if [[ $1 == n/a || $2 == n/a ]]; then echo n/a; else awk -v a="$1" -v b="$2" 'BEGIN {printf "%.2f\n", a / b}'; fi
}

# cluster_odbc_ini DIR CLUSTER_DIR PSQLODBC_SO PORT: ini files in DIR with
# gcctl's DSNs of the cluster in CLUSTER_DIR plus psqlodbc_g1n1, a psqlODBC
# DSN (server-side prepare) on 127.0.0.1:PORT; exports ODBCSYSINI=DIR.
cluster_odbc_ini() {
  local dir=$1 cluster=$2 psqlodbc=$3 port=$4
  mkdir -p "$dir"
  cp "$cluster/odbc.ini" "$cluster/odbcinst.ini" "$dir/"
  cat >>"$dir/odbcinst.ini" <<INI

[psqlODBC]
Driver = $psqlodbc
INI
  cat >>"$dir/odbc.ini" <<INI

[psqlodbc_g1n1]
Driver = psqlODBC
Servername = 127.0.0.1
Port = $port
Database = app
Username = app
Password = app
UseServerSidePrepare = 1
INI
  export ODBCSYSINI=$dir
}
