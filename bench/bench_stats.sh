# bench_stats.sh: shell helpers shared by the benchmarks' run.sh (sourced).

# median: the median of the numbers on stdin (spaces or newlines), or n/a.
median() {
  tr ' ' '\n' | awk 'NF' | sort -g | awk '{v[NR]=$1} END {
    if (NR == 0) { print "n/a"; exit }
    if (NR % 2) print v[(NR+1)/2]; else print (v[NR/2] + v[NR/2+1]) / 2 }'
}

# ratio A B: A / B with two decimals, or n/a when either is missing.
ratio() {
  if [[ $1 == n/a || $2 == n/a ]]; then echo n/a; else awk -v a="$1" -v b="$2" 'BEGIN {printf "%.2f\n", a / b}'; fi
}
