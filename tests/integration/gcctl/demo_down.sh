#!/bin/bash
# Fixture cleanup: takes the test cluster down, whatever state it is in.
# usage: demo_down.sh GCCTL DIR
GCCTL=$1
DIR=$2
[ -e "$DIR/local.state" ] || { echo "no cluster in $DIR"; exit 0; }
"$GCCTL" local down --dir "$DIR"
