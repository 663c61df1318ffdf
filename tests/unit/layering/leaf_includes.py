#!/usr/bin/env python3
"""leaf_includes.py SRC_DIR --leaves sql,placement --forbid global,member,...

A leaf folder of src holds no handle, no session and no connection state,
so it may use other leaves and util but never a layer that does. Reads
every .c and .h file of each folder named by --leaves and fails (exit 1)
when one has an '#include "FOLDER/..."' of a folder named by --forbid,
printing each such line as 'src/LEAF/FILE:LINE: includes FOLDER/NAME'.
"""
import argparse
import os
import re
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s+"([a-z_]+)/([^"]+)"')


def reaching_up(src, leaf, forbidden):
    """The include lines of src/LEAF's files that name a forbidden folder."""
    found = []
    folder_path = os.path.join(src, leaf)
    for name in sorted(os.listdir(folder_path)):
        if os.path.splitext(name)[1] not in (".c", ".h"):
            continue
        with open(os.path.join(folder_path, name), encoding="utf-8") as f:
            for number, line in enumerate(f, start=1):
                m = INCLUDE.match(line)
                if m and m.group(1) in forbidden:
                    found.append(f"src/{leaf}/{name}:{number}: includes "
                                 f"{m.group(1)}/{m.group(2)}")
    return found


def main(argv):
    ap = argparse.ArgumentParser()
    ap.add_argument("src")
    ap.add_argument("--leaves", required=True)
    ap.add_argument("--forbid", required=True)
    args = ap.parse_args(argv[1:])
    forbidden = set(filter(None, args.forbid.split(",")))
    found = []
    for leaf in filter(None, args.leaves.split(",")):
        found += reaching_up(args.src, leaf, forbidden)
    for line in found:
        print(line, file=sys.stderr)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
