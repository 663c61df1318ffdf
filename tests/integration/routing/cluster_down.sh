#!/bin/bash
# Fixture cleanup: takes the routing cluster down, whatever state it is in.
# usage: cluster_down.sh GCCTL DIR
GCCTL=$1
DIR=$2
rm -f "$DIR/witnesses"
[ -e "$DIR/local.state" ] || { echo "no cluster in $DIR"; exit 0; }
"$GCCTL" local down --dir "$DIR"
