#!/usr/bin/env python3
"""core_branches_on_connection_kind.py SRC_DIR [--folder core] --max N [--list]

Counts the places in SRC_DIR/FOLDER/*.c where code asks whether the
connection is global instead of calling its kind (core/gc_conn_kind.h):
`global` (a connection's gc_global, a local flag of that name, or a local
that holds c->global) compared with NULL, negated, or used as a condition
of if, while, ?:, && or ||;
gc_conn_is_global(); settings.global_connection (or settings->...); a kind
compared with one of the kinds (== &gc_conn_kind_global). Comments and
string literals are not read. Prints the count (and, with --list, each
place); fails (exit 1) when it is above --max: the count may fall, never
rise (docs/architecture.md, "Connection kinds").

The kinds' own files are not read: gc_conn_kind.c, the one place the kind
is decided (gc_conn_kind_for), and gc_conn_kind_<kind>.c, each kind's
table. Choosing or being a kind is what they are for.
"""
import argparse
import os
import re
import sys

# A connection's gc_global held in a local variable (g = c->global).
ALIAS = re.compile(r"gc_global\s*\*\s*(\w+)\s*=\s*[\w>.-]*->global\s*;")


def tests_of(names):
    """The patterns of a test of `global` or of one of names (locals that
    hold it): compared with NULL, negated, or the condition of if, while,
    ?:, && or ||. A member (c->global, s->conn->global) counts as well as a
    bare name."""
    name = "(?:" + "|".join(sorted(names)) + ")"
    value = r"(?<![\w>.])(?:[A-Za-z_]\w*(?:->|\.))*" + name + r"\b(?!\s*(?:->|\.|\(|\[))"
    return [
        re.compile(value + r"\s*[!=]=\s*NULL"),
        re.compile(r"NULL\s*[!=]=\s*" + value),
        re.compile(r"!\s*" + value),
        re.compile(r"\b(?:if|while)\s*\(\s*" + value + r"\s*\)"),
        re.compile(value + r"\s*(?:\?|&&|\|\|)"),
        re.compile(r"(?:&&|\|\|)\s*" + value),
        re.compile(r"\bgc_conn_is_global\s*\("),
        re.compile(r"settings(?:\.|->)global_connection\b"),
        re.compile(r"[!=]=\s*&\s*gc_conn_kind_\w+"),
        re.compile(r"&\s*gc_conn_kind_\w+\s*[!=]="),
    ]


# The kinds' own files (module docstring).
KIND_OWN = re.compile(r"gc_conn_kind(?:_\w+)?\.c")


COMMENT_OR_STRING = re.compile(r'/\*.*?\*/|//[^\n]*|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'',
                               re.S)


def blank(match):
    """The text of a comment or string with everything but newlines blanked,
    so line numbers stay right."""
    return re.sub(r"[^\n]", " ", match.group(0))


def branches(path):
    """(line number, line) of each place in path that tests the kind."""
    with open(path, encoding="utf-8") as f:
        code = COMMENT_OR_STRING.sub(blank, f.read())
    plain = tests_of({"global", "is_global"})
    tests, aliases = plain, set()
    found = []
    for number, line in enumerate(code.split("\n"), 1):
        if line.startswith("}"):
            tests, aliases = plain, set()    # a function ends: its locals too
        new = set(ALIAS.findall(line)) - aliases
        if new:
            aliases |= new
            tests = tests_of({"global", "is_global"} | aliases)
        hits = sum(len(t.findall(line)) for t in tests)
        found.extend([(number, line.strip())] * min(hits, 1))
    return found


def main(argv):
    ap = argparse.ArgumentParser()
    ap.add_argument("src")
    ap.add_argument("--folder", default="core")
    ap.add_argument("--max", type=int, required=True)
    ap.add_argument("--list", action="store_true")
    args = ap.parse_args(argv[1:])
    folder = os.path.join(args.src, args.folder)
    places = []
    for name in sorted(os.listdir(folder)):
        if name.endswith(".c") and not KIND_OWN.fullmatch(name):
            for number, line in branches(os.path.join(folder, name)):
                places.append(f"src/{args.folder}/{name}:{number}: {line}")
    if args.list or len(places) > args.max:
        for p in places:
            print(p)
    print(f"src/{args.folder}: {len(places)} branches on whether the connection is global "
          f"(at most {args.max})")
    if len(places) > args.max:
        print(f"src/{args.folder}: {len(places)} branches on the connection kind, more than "
              f"{args.max}: call the connection's kind (gc_conn_kind.h) instead", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
