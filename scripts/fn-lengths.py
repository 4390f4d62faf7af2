#!/usr/bin/env python3
"""Counts the lines of every Rust function and fails when one is longer than a limit.

    scripts/fn-lengths.py                    # both crates' src/: the counts and every function over 50 lines
    scripts/fn-lengths.py --max 100          # the same, and exit 1 when a function is over 100 lines (CI)
    scripts/fn-lengths.py --over 80 DIR...   # list the functions over 80 lines under DIR...
    scripts/fn-lengths.py --self-test        # the counter checked on small samples

A function's length runs from the line of its `fn` to the line of its closing brace, both
included (its doc comment and attributes are not counted). Test functions count like any other.
The scanner skips comments, strings (raw strings and byte strings included) and character
literals, so a brace inside them does not end a function. A `fn` without a body (a trait's
declaration) is not counted. Nested functions and closures count inside their function and, for
a nested `fn`, also on their own.
"""
import argparse
import os
import re
import sys

IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def code_of(text):
    """The text with comments, strings and character literals blanked out (newlines kept)."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif text.startswith("/*", i):
            depth, j = 1, i + 2
            while j < n and depth:
                if text.startswith("/*", j):
                    depth, j = depth + 1, j + 2
                elif text.startswith("*/", j):
                    depth, j = depth - 1, j + 2
                else:
                    j += 1
            out.append(blank(text[i:j]))
            i = j
        elif raw_string_at(text, i):
            j = raw_string_end(text, i)
            out.append(blank(text[i:j]))
            i = j
        elif c == '"' or (c == "b" and text.startswith('b"', i) and not ident_before(text, i)):
            j = i + (2 if c == "b" else 1)
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            out.append(blank(text[i : j + 1]))
            i = j + 1
        elif c == "'":
            j = char_literal_end(text, i)
            if j:
                out.append(blank(text[i:j]))
                i = j
            else:  # a lifetime or a label
                out.append(c)
                i += 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def blank(piece):
    return "".join("\n" if ch == "\n" else " " for ch in piece)


def ident_before(text, i):
    return i > 0 and (text[i - 1].isalnum() or text[i - 1] == "_")


def raw_string_at(text, i):
    m = re.match(r'b?r(#*)"', text[i : i + 260])
    return bool(m) and not ident_before(text, i)


def raw_string_end(text, i):
    m = re.match(r'b?r(#*)"', text[i:])
    close = '"' + m.group(1)
    j = text.find(close, i + m.end())
    return len(text) if j < 0 else j + len(close)


def char_literal_end(text, i):
    """The end of a character literal starting at i, or None for a lifetime."""
    if text.startswith("'\\", i):
        j = text.find("'", i + 2)
        return None if j < 0 or j - i > 12 else j + 1
    if i + 2 < len(text) and text[i + 2] == "'":
        return i + 3
    # a character outside the BMP or a multi-byte one is still one str character here
    return None


def functions(text):
    """(name, first line, last line) of every function with a body."""
    code = code_of(text)
    line_at = [0] * (len(code) + 1)
    line = 1
    for k, ch in enumerate(code):
        line_at[k] = line
        if ch == "\n":
            line += 1
    line_at[len(code)] = line
    found = []
    for m in re.finditer(r"\bfn\s+([A-Za-z_][A-Za-z0-9_]*)", code):
        depth, k, opened = 0, m.end(), None
        while k < len(code):
            ch = code[k]
            if ch == ";" and depth == 0 and opened is None:
                break  # a declaration without a body
            if ch == "{":
                if opened is None:
                    opened = k
                depth += 1
            elif ch == "}":
                depth -= 1
                if opened is not None and depth == 0:
                    found.append((m.group(1), line_at[m.start()], line_at[k]))
                    break
            k += 1
    return found


def lengths(roots):
    rows = []
    for root in roots:
        for folder, _, files in os.walk(root):
            for name in sorted(files):
                if not name.endswith(".rs"):
                    continue
                path = os.path.join(folder, name)
                with open(path, encoding="utf-8") as handle:
                    text = handle.read()
                for fn, first, last in functions(text):
                    rows.append((last - first + 1, path, fn, first))
    rows.sort(key=lambda row: (-row[0], row[1], row[3]))
    return rows


def self_test():
    sample = '''
fn short() { let s = "}}}"; let c = '}'; }
/// doc
fn long<'a>(x: &'a str) -> &'a str {
    // a } in a comment
    let r = r#"a "}" in a raw string"#;
    /* a { block
       comment */
    let b = b"}";
    'outer: loop { break 'outer; }
    x
}
trait T { fn declared(&self); fn provided(&self) {} }
'''
    got = {name: last - first + 1 for name, first, last in functions(sample)}
    want = {"short": 1, "long": 9, "provided": 1}
    if got != want:
        print(f"fn-lengths self-test: got {got}, want {want}", file=sys.stderr)
        return 1
    print("fn-lengths self-test: ok")
    return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("roots", nargs="*", default=["reference-server/src", "conformance/src"])
    parser.add_argument("--over", type=int, default=50, help="list the functions over this many lines")
    parser.add_argument("--max", type=int, help="exit 1 when a function is over this many lines")
    parser.add_argument("--self-test", action="store_true")
    args = parser.parse_args()
    if args.self_test:
        return self_test()
    os.chdir(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    rows = lengths(args.roots)
    counts = ", ".join(f"over {k}: {sum(1 for r in rows if r[0] > k)}" for k in (50, 80, 100))
    print(f"fn-lengths: {len(rows)} functions in {' '.join(args.roots)}; {counts}")
    for length, path, fn, first in rows:
        if length > args.over:
            print(f"{length:5} {path}:{first} {fn}")
    if args.max is not None:
        over = [r for r in rows if r[0] > args.max]
        if over:
            print(f"fn-lengths: {len(over)} function(s) over {args.max} lines (split them into named steps)", file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
