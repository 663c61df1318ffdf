#!/usr/bin/env python3
"""include_circles.py SRC_DIR [--folder core] [--max 2] [--known A,B,...] [--list]

Counts a .c file and its .h as one module, draws an edge A -> B for every
'#include "FOLDER/B.h"' in A's files, and finds the strongly connected
components (Tarjan): the modules that import each other, directly or round
a circle. Fails (exit 1) when a component has more than --max modules: a
pair that knows each other is fine, anything longer is a knot a reader
cannot start from. --known names a circle not broken yet: a component made
only of those modules is allowed, so it may shrink but not grow or gain a
module. --list prints every component of two or more.
"""
import argparse
import os
import re
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s+"([a-z_]+)/([A-Za-z0-9_]+)\.h"', re.M)


def modules(folder_path):
    """Module name -> list of its source files (x.c and x.h are one module)."""
    found = {}
    for name in sorted(os.listdir(folder_path)):
        base, ext = os.path.splitext(name)
        if ext in (".c", ".h"):
            found.setdefault(base, []).append(os.path.join(folder_path, name))
    return found


def edges(found, folder):
    """Module -> set of modules of the same folder it includes."""
    graph = {m: set() for m in found}
    for m, files in found.items():
        for path in files:
            with open(path, encoding="utf-8") as f:
                for dir_, target in INCLUDE.findall(f.read()):
                    if dir_ == folder and target in found and target != m:
                        graph[m].add(target)
    return graph


def components(graph):
    """Tarjan's strongly connected components, each a sorted list."""
    index, low, on_stack, stack, out = {}, {}, set(), [], []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                comp.append(w)
                if w == v:
                    break
            out.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def main(argv):
    ap = argparse.ArgumentParser()
    ap.add_argument("src")
    ap.add_argument("--folder", default="core")
    ap.add_argument("--max", type=int, default=2)
    ap.add_argument("--known", default="")
    ap.add_argument("--list", action="store_true")
    args = ap.parse_args(argv[1:])
    known = set(filter(None, args.known.split(",")))
    graph = edges(modules(os.path.join(args.src, args.folder)), args.folder)
    circles = [c for c in components(graph) if len(c) > 1]
    if args.list:
        for c in circles:
            print(f"{len(c)} modules: {' '.join(c)}")
    too_long = [c for c in circles
                if len(c) > args.max and not set(c) <= known]
    for c in too_long:
        print(f"src/{args.folder}: circle of {len(c)} modules: {' '.join(c)}",
              file=sys.stderr)
    return 1 if too_long else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
