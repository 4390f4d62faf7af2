#!/usr/bin/env python3
"""The modules of each crate stand on floors: no import circle, so none imports one above it.

    scripts/check-layers.py            check both crates; exit 1 on a circle, listing its files
    scripts/check-layers.py --floors   also print each crate's floors, lowest first
    scripts/check-layers.py --self-test  check the checker on small made-up crates

A module is a source file (`a/mod.rs` is the module `a`). File A depends on file B when A names
an item of B: through `use crate::…`, `use super::…`, `use self::…`, a path written inline
(`crate::store::Data`, `super::Id`) or a child module's name (`ranked::RankedSet` in the file
that declares `mod ranked;`). A path is resolved to the deepest module file it reaches, and
through the `pub use` re-exports of that file to where the item is defined. Two kinds of edge
are left out: those between a folder's `mod.rs` and the files inside that folder (a module and
its own parts, which may share its items both ways), and those to or from the crate root
(`lib.rs`, which only declares the modules and re-exports). Circles are the strongly connected
components of the rest with more than one file; a file's floor is one above the highest floor of
what it depends on. Comments, strings and `#[cfg(test)]` modules are not read: tests may reach
anywhere.

Standard library only.
"""
import os
import re
import sys

CRATES = {"conformance": "conformance/src", "reference-server": "reference-server/src"}
IDENT = r"[A-Za-z_][A-Za-z0-9_]*"
PATH = re.compile(r"\b((?:crate|super|self)(?:::%s)+)" % IDENT)
USE = re.compile(r"\buse\s+([^;]+);", re.S)
MOD = re.compile(r"^\s*(?:pub(?:\([^)]*\))?\s+)?mod\s+(%s)\s*;" % IDENT, re.M)


def strip(text):
    """The code without comments, string and char literals, and `#[cfg(test)]` items."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            i = text.find("\n", i)
            i = n if i < 0 else i
        elif text.startswith("/*", i):
            depth, i = 1, i + 2
            while i < n and depth:
                if text.startswith("/*", i):
                    depth, i = depth + 1, i + 2
                elif text.startswith("*/", i):
                    depth, i = depth - 1, i + 2
                else:
                    i += 1
        elif re.match(r'b?r#*"', text[i:i + 40]) and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
            m = re.match(r'b?r(#*)"', text[i:])
            close = '"' + m.group(1)
            j = text.find(close, i + m.end())
            i = n if j < 0 else j + len(close)
            out.append('""')
        elif c == '"':
            i += 1
            while i < n and text[i] != '"':
                i += 2 if text[i] == "\\" else 1
            i += 1
            out.append('""')
        elif c == "'":
            m = re.match(r"'(?:\\(?:x[0-9a-fA-F]{2}|u\{[0-9a-fA-F]*\}|.)|[^\\'])'", text[i:])
            if m:
                out.append("' '")
                i += m.end()
            else:
                out.append(c)
                i += 1
        else:
            out.append(c)
            i += 1
    return drop_test_modules("".join(out))


def drop_test_modules(text):
    out, i = [], 0
    for m in re.finditer(r"#\[cfg\(test\)\]\s*(?:pub\s+)?mod\s+%s\s*\{" % IDENT, text):
        if m.start() < i:
            continue
        depth, j = 1, m.end()
        while j < len(text) and depth:
            depth += {"{": 1, "}": -1}.get(text[j], 0)
            j += 1
        out.append(text[i:m.start()])
        i = j
    out.append(text[i:])
    return "".join(out)


def modules(src):
    """Module path (tuple of names) -> file, for every .rs file under src."""
    found = {}
    for folder, _dirs, names in os.walk(src):
        for name in names:
            if not name.endswith(".rs"):
                continue
            rel = os.path.relpath(os.path.join(folder, name), src).replace(os.sep, "/")
            parts = rel[:-3].split("/")
            if parts[-1] in ("mod", "lib", "main"):
                parts = parts[:-1]
            if rel in ("main.rs",):
                continue
            found[tuple(parts)] = rel
    return found


def expand_use(tree):
    """`a::{b, c::d}` -> ["a::b", "a::c::d"]."""
    tree = re.sub(r"\s+", "", tree)
    brace = tree.find("{")
    if brace < 0:
        return [re.sub(r"as%s$" % IDENT, "", tree)]
    prefix, inner = tree[:brace], tree[brace + 1:-1]
    parts, depth, start = [], 0, 0
    for k, c in enumerate(inner):
        depth += {"{": 1, "}": -1}.get(c, 0)
        if c == "," and depth == 0:
            parts.append(inner[start:k])
            start = k + 1
    parts.append(inner[start:])
    return [p for part in parts if part for p in expand_use(prefix + part)]


def resolve(path, here, mods):
    """The module file a path names, from the module `here`."""
    names = path.split("::")
    if names[0] == "crate":
        base, rest = (), names[1:]
    else:
        base = here
        rest = names
        while rest and rest[0] in ("self", "super"):
            if rest[0] == "super":
                base = base[:-1]
            rest = rest[1:]
    best = base if base in mods else None
    for k in range(1, len(rest) + 1):
        if base + tuple(rest[:k]) in mods:
            best = base + tuple(rest[:k])
    return best


def reexports(mods, codes):
    """module -> {name: path}: what each file re-exports with `pub use` (as written there)."""
    out = {}
    for here, code in codes.items():
        names = {}
        for m in re.finditer(r"\bpub(?:\([^)]*\))?\s+use\s+([^;]+);", code, re.S):
            for p in expand_use(m.group(1)):
                names[p.split("::")[-1]] = p
        out[here] = names
    return out


def follow(path, here, mods, exports, depth=0):
    """`resolve`, then through a re-export of the item the path names, if it is one."""
    target = resolve(path, here, mods)
    if target is None or depth > 8:
        return target
    names = path.split("::")
    item = next((n for n in names[1:] if n in exports.get(target, {})), None)
    if item is None:
        return target
    via = exports[target][item]
    first = via.split("::")[0]
    children = {m[-1] for m in mods if m and m[:-1] == target}
    if first not in ("crate", "super", "self") and first in children:
        via = "self::" + via
    elif first not in ("crate", "super", "self"):
        return target
    return follow(via, target, mods, exports, depth + 1) or target


def inside(parent, child):
    """Whether `child` is a file within the folder whose mod.rs is `parent`."""
    return len(parent) < len(child) and child[: len(parent)] == parent


def inline_depths(code):
    """For each position of the code, how many inline `mod name { … }` blocks enclose it: a
    list of (start, end) spans, one per inline module."""
    spans = []
    for m in re.finditer(r"\bmod\s+%s\s*\{" % IDENT, code):
        depth, j = 1, m.end()
        while j < len(code) and depth:
            depth += {"{": 1, "}": -1}.get(code[j], 0)
            j += 1
        spans.append((m.end(), j))
    return spans


def local(path, position, spans):
    """A path written inside inline modules, as seen from the file: the `super::` that only
    leave those modules are dropped, and a path that stays inside them is the file itself."""
    depth = sum(1 for a, b in spans if a <= position < b)
    if not depth:
        return path
    names = path.split("::")
    if names[0] == "self":
        return "self"
    while depth and names and names[0] == "super":
        names, depth = names[1:], depth - 1
    if depth:
        return "self"
    return "::".join(["self"] + names) if names and names[0] not in ("crate", "super") else "::".join(names)


def graph(src):
    mods = modules(src)
    edges = {m: set() for m in mods}
    codes, test_only = {}, set()
    for here, rel in mods.items():
        with open(os.path.join(src, rel), encoding="utf-8") as f:
            raw = f.read()
        codes[here] = strip(raw)
        for m in re.finditer(r"#\[cfg\(test\)\]\s*(?:pub(?:\([^)]*\))?\s+)?mod\s+(%s)\s*;" % IDENT, raw):
            test_only.add(here + (m.group(1),))
    # files that only the tests compile (`#[cfg(test)] mod tests;`), and what they hold
    for gone in [m for m in mods if any(m[: len(t)] == t for t in test_only)]:
        del mods[gone], codes[gone], edges[gone]
    exports = reexports(mods, codes)
    for here, rel in mods.items():
        code = codes[here]
        children = set(MOD.findall(code))
        spans = inline_depths(code)
        paths = {local(m.group(1), m.start(), spans) for m in PATH.finditer(code)}
        for use in USE.finditer(code):
            for p in expand_use(use.group(1)):
                if p.split("::")[0] in ("crate", "super", "self") or p.split("::")[0] in children:
                    paths.add(local(p, use.start(), spans))
        for child in children:
            for m in re.finditer(r"\b%s::%s" % (child, IDENT), code):
                paths.add("self::" + m.group(0))
        for p in paths:
            if p.split("::")[0] in children:
                p = "self::" + p
            target = follow(p, here, mods, exports)
            if target is None or target == here or () in (target, here):
                continue
            if inside(here, target) or inside(target, here):
                continue
            edges[here].add(target)
    return mods, edges


def cycles(edges):
    """Strongly connected components with more than one module (Tarjan, iterative)."""
    index, low, on, stack, out, counter = {}, {}, set(), [], [], [0]
    for root in sorted(edges):
        if root in index:
            continue
        work = [(root, iter(sorted(edges[root])))]
        index[root] = low[root] = counter[0]
        counter[0] += 1
        stack.append(root)
        on.add(root)
        while work:
            node, it = work[-1]
            advanced = False
            for nxt in it:
                if nxt not in index:
                    index[nxt] = low[nxt] = counter[0]
                    counter[0] += 1
                    stack.append(nxt)
                    on.add(nxt)
                    work.append((nxt, iter(sorted(edges[nxt]))))
                    advanced = True
                    break
                if nxt in on:
                    low[node] = min(low[node], index[nxt])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                comp = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.append(w)
                    if w == node:
                        break
                if len(comp) > 1:
                    out.append(sorted(comp))
    return out


def lifted(edges):
    """The graphs of every folder: its children (files and subfolders, by module path), with an
    edge from one child to another when a file in the first depends on a file in the second.
    A file and the folders that hold it share no edge (a module and its own parts)."""
    out = {}
    for a, targets in edges.items():
        for b in targets:
            common = 0
            while common < min(len(a), len(b)) and a[common] == b[common]:
                common += 1
            if common in (len(a), len(b)):
                continue
            folder = a[:common]
            graph_of = out.setdefault(folder, {})
            graph_of.setdefault(a[: common + 1], set()).add(b[: common + 1])
            graph_of.setdefault(b[: common + 1], set())
    return out


def floors(edges):
    floor = {}

    def of(m, seen=()):
        if m not in floor:
            floor[m] = 1 + max((of(d, seen + (m,)) for d in edges[m] if d not in seen), default=-1)
        return floor[m]

    for m in edges:
        of(m)
    return floor


def name(module, mods):
    """A module as the user sees it: its file, or its folder with a slash."""
    return mods[module] if module in mods and not mods[module].endswith("mod.rs") else "/".join(module) + "/"


def self_test():
    """Made-up crates: each must give the circles written beside it."""
    import tempfile

    crates = {
        "a circle through a re-export and an inline path": ({
            "lib.rs": "pub mod a;\npub mod b;\npub use a::Thing;\n",
            "a.rs": "pub struct Thing;\npub fn f() { crate::b::g(); }\n",
            "b.rs": "use crate::Thing;\npub fn g() {}\n",
        }, [["a.rs", "b.rs"]]),
        "a module and its parts share items both ways": ({
            "lib.rs": "pub mod m;\n",
            "m/mod.rs": "mod part;\npub struct Shared;\npub fn f() { part::g(); }\n",
            "m/part.rs": "use super::Shared;\npub fn g() {}\n",
        }, []),
        "siblings in a folder, and tests, comments and strings are not read": ({
            "lib.rs": "pub mod d;\npub mod e;\n",
            "d/mod.rs": "mod x;\nmod y;\n#[cfg(test)]\nmod tests;\n",
            "d/x.rs": "use super::y::Y;\npub struct X;\n// use crate::e::E;\n",
            "d/y.rs": "pub struct Y;\nconst S: &str = \"crate::d::x::X\";\n#[cfg(test)]\nmod t { use super::super::x::X; }\n",
            "d/tests.rs": "use super::x::X;\nuse crate::e::E;\n",
            "e.rs": "pub struct E;\nuse crate::d::y;\n",
        }, []),
        "a circle between siblings of a folder": ({
            "lib.rs": "pub mod d;\n",
            "d/mod.rs": "mod x;\nmod y;\n",
            "d/x.rs": "use super::y::Y;\npub struct X;\n",
            "d/y.rs": "pub struct Y;\npub fn f() -> super::x::X { super::x::X }\n",
        }, [["d/x.rs", "d/y.rs"]]),
    }
    failures = 0
    for title, (files, expected) in crates.items():
        with tempfile.TemporaryDirectory() as src:
            for rel, text in files.items():
                os.makedirs(os.path.dirname(os.path.join(src, rel)), exist_ok=True)
                with open(os.path.join(src, rel), "w", encoding="utf-8") as f:
                    f.write(text)
            mods, edges = graph(src)
            found = sorted(sorted(name(m, mods) for m in comp)
                           for folder_graph in lifted(edges).values() for comp in cycles(folder_graph))
        if found != expected:
            failures += 1
            print("check-layers: self-test: %s: found %s, expected %s" % (title, found, expected))
    print("check-layers: self-test: %d of %d made-up crates as expected" % (len(crates) - failures, len(crates)))
    return 1 if failures else 0


def main(argv):
    if "--self-test" in argv[1:]:
        return self_test()
    root = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    show = "--floors" in argv[1:]
    failed = False
    for crate, src in CRATES.items():
        mods, edges = graph(os.path.join(root, src))
        found = False
        for folder, folder_graph in sorted(lifted(edges).items()):
            for comp in cycles(folder_graph):
                found = failed = True
                where = "/".join(folder) + "/" if folder else "the crate root"
                print("check-layers: %s: a circle of %d modules in %s: %s"
                      % (crate, len(comp), where, ", ".join(name(m, mods) for m in comp)))
                for m in comp:
                    for f in sorted(x for x in edges if x[: len(m)] == m):
                        for t in sorted(edges[f]):
                            if any(t[: len(o)] == o for o in comp if o != m):
                                print("    %s imports %s" % (mods[f], mods[t]))
        if not found:
            top = {m: set() for m in lifted(edges).get((), {})}
            for m, targets in lifted(edges).get((), {}).items():
                top[m] |= targets
            fl = floors(top) if top else {(): 0}
            print("check-layers: %s: %d files, %d top-level modules on %d floors, no circle at any level"
                  % (crate, len(mods), len(top), max(fl.values()) + 1))
            if show:
                for n in range(max(fl.values()) + 1):
                    print("  floor %d: %s" % (n, " ".join(sorted(name(m, mods) for m in fl if fl[m] == n))))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
