#!/usr/bin/env python3
"""The mutation-testing sample of scripts/mutants.sh (docs/mutants.md, "The sample").

    sample.py sample ALL.json SEED SIZE FROM TO OUT_DIR [WITHIN]
        ALL.json: `cargo mutants --list --json --package reference-server`.
        Keeps the mutants whose file is in the population (every .rs file under
        reference-server/src, less EXCLUDED; each exclusion must name a file or folder that
        exists, else the script stops), orders them by SHA-256("SEED:NAME") (NAME as `--list` shows it, with line and
        column), and keeps the first SIZE: the sample, written to OUT_DIR/sample.txt one name a
        line in that order. The names at positions FROM..TO (1-based, inclusive) go to
        OUT_DIR/part.txt, and OUT_DIR/sample.toml selects them for `cargo mutants --config`:
        `examine_globs` their files, `examine_re` their names, anchored and escaped.
        WITHIN (optional), a file or folder under reference-server/src (`text` or
        `reference-server/src/text`), narrows the population to what is in it, to measure one
        part of the server (`scripts/mutants.sh --within`); it must exist and hold some of the
        population, else the script stops.
    sample.py tools ALL.json SEED SIZE FROM TO OUT_DIR [WITHIN]
        As `sample`, from the other population: the files EXCLUDED names (the developer tools,
        the command line, the render cache, the --check-doc checker, the store's durable parts),
        less TOOLS_LEFT_OUT (the benchmark hooks and the tests' own helpers). Its mutants are
        tested with the server's own tests (`scripts/mutants.sh --tools`).
    sample.py gate OUT_DIR EQUIVALENT_FILE
        Exit 1 when a mutant of OUT_DIR/part.txt was missed or timed out and EQUIVALENT_FILE
        does not list it (the smoke of scripts/mutants-smoke.sh). EQUIVALENT_FILE lists one
        mutant a line as `cargo mutants --list` names it, without its line and column
        (`reference-server/src/http.rs: replace header_spelling -> String with "xyzzy".into()`),
        then ` | ` and the test that shows it is equivalent; a line that starts with `#` is a comment.
    sample.py run OUT_DIR TEST_TIMEOUT BUILD_TIMEOUT test|nextest [CARGO_TEST_ARGS...]
        Tests each mutant of OUT_DIR/part.txt in a copy of the tree (OUT_DIR/tree): applies its
        diff from OUT_DIR/diffs.json, `cargo test --no-run ARGS` (fails: unviable), then `cargo
        test ARGS` or `cargo nextest run ARGS` (fails: caught; passes: missed; over
        TEST_TIMEOUT seconds: timeout), after a baseline of the unmutated copy, and
        writes the outcomes as cargo-mutants does, in OUT_DIR/mutants.out (used by --tools).
    sample.py summary OUT_DIR
        Counts the outcomes of the mutants of OUT_DIR/part.txt in OUT_DIR/mutants.out and prints
        them with the score. (cargo-mutants 27 applies no name filter to struct-field mutants,
        so those of the selected files run too; they are counted apart.)

Standard library only.
"""
import hashlib
import json
import os
import shutil
import signal
import subprocess
import sys
import time

# The population: every source file of the server, found in the tree (not listed here, so that a
# file or folder split in two stays in it), less these, which the suite cannot reach by design.
SOURCE = "reference-server/src"
EXCLUDED = {
    # the hooks of `cargo bench`, called by no request
    "reference-server/src/bench.rs": "benchmark hooks",
    # the benchmark calendar of --seed-events N, never built by the suite
    "reference-server/src/seed": "benchmark seeding",
    # the command line: the suite starts the server in-process
    "reference-server/src/main.rs": "command line",
    # what the command line's options are read into (--user, --without), and the start's check
    # that no user name is given twice: the suite builds its configuration in-process
    "reference-server/src/command_line.rs": "command line options",
    # helpers for the date code's unit tests
    "reference-server/src/dates/test_support.rs": "test helpers",
    # The developer tools around the interface: no implementation of the interface has them, so
    # the suite (which checks implementations) cannot and must not reach them; the server's own
    # tests (cargo test -p reference-server) check each.
    "reference-server/src/demo.rs": "the demo calendar of --demo (no case may depend on its data)",
    "reference-server/src/fixtures": "--fixtures files",
    "reference-server/src/state": "the durable state of --state",
    "reference-server/src/faults": "fault and latency rules",
    "reference-server/src/journal": "the request journal and its near-miss hints",
    "reference-server/src/reasons.rs": "refusals in words, for the journal",
    "reference-server/src/admin": "the admin API",
    "reference-server/src/pages": "the calendar and journal pages",
    "reference-server/src/devtools.rs": "the developer tools' hooks in the pipeline",
    "reference-server/src/request_log.rs": "the request log line",
    "reference-server/src/clock_range.rs": "the range --clock and the admin clock accept",
    "reference-server/src/stubs": "stubbed answers (--stub, /__admin/stubs)",
    "reference-server/src/proxy": "the checking proxy in front of a real site (--proxy-to)",
    # The plugin's twin (--like, --quirk): code that only a quirk runs, which the suite in the
    # default mode cannot reach; the server's own tests run the twin.
    "reference-server/src/api/write/loose.rs": "the twin's loose duplicates (--quirk loose-duplicates)",
    "reference-server/src/dates/plugin_offsets.rs": "the twin's zones for fixed offsets (--quirk offset-zones)",
    # The render cache: invisible by construction (its keys name record revisions, so a miss, an
    # eviction or a shard change only costs time). 58 of its 80 mutants change only what is kept,
    # where, or how keys hash; cache::tests compares its answers with plain rendering at budgets
    # from 0 up and counts its bytes.
    "reference-server/src/cache.rs": "the render cache (speed only; checked against rendering by its tests)",
    # The checker of answers against an implementation's /doc: the runner's --check-doc (and the
    # proxy) use it on the server under test. It is part of the test, not of the server: a mutant
    # makes the check more lenient, not the server wrong (its unit tests check each keyword).
    "reference-server/src/doc/check.rs": "the runner's --check-doc checker",
    # The store's parts that only the tools above, the server's own data and its tests use
    "reference-server/src/store/durable.rs": "the store's side of --state, the admin reset and the tests' fingerprint",
    "reference-server/src/store/builders.rs": "the fresh site's sample media, the demo's and the seed's builders",
}

# The tools' population (`scripts/mutants.sh --tools`): the files EXCLUDED above, whose promises
# the server's own tests (cargo test -p reference-server) must pin, less these, which no test of
# the server runs by design.
TOOLS_LEFT_OUT = {
    "reference-server/src/bench.rs": "the hooks of `cargo bench`, which only the benchmarks call",
    "reference-server/src/dates/test_support.rs": "the date tests' own helpers (#[cfg(test)])",
}


def population_files(root):
    """The .rs files under SOURCE (relative to root, with /), less EXCLUDED; an exclusion that
    names nothing is an error, so that the list cannot go stale silently."""
    missing = [path for path in EXCLUDED if not os.path.exists(os.path.join(root, path))]
    if missing:
        sys.exit("sample.py: EXCLUDED names what does not exist: %s" % ", ".join(sorted(missing)))
    files = set()
    for folder, _dirs, names in os.walk(os.path.join(root, SOURCE)):
        for name in names:
            if name.endswith(".rs"):
                path = os.path.relpath(os.path.join(folder, name), root).replace(os.sep, "/")
                if not any(path == ex or path.startswith(ex + "/") for ex in EXCLUDED):
                    files.add(path)
    return files


def tools_files(root):
    """The .rs files of EXCLUDED (each folder walked), less TOOLS_LEFT_OUT: the population of
    `sample.py tools`. Every entry of TOOLS_LEFT_OUT must be in EXCLUDED, else the script stops."""
    stray = [path for path in TOOLS_LEFT_OUT if path not in EXCLUDED]
    if stray:
        sys.exit("sample.py: TOOLS_LEFT_OUT names what EXCLUDED does not: %s" % ", ".join(sorted(stray)))
    everything = set()
    for folder, _dirs, names in os.walk(os.path.join(root, SOURCE)):
        for name in names:
            if name.endswith(".rs"):
                everything.add(os.path.relpath(os.path.join(folder, name), root).replace(os.sep, "/"))
    population_files(root)  # checks that every exclusion names something
    return {
        path
        for path in everything
        if any(path == ex or path.startswith(ex + "/") for ex in EXCLUDED)
        and not any(path == out or path.startswith(out + "/") for out in TOOLS_LEFT_OUT)
    }


def repo_root():
    return os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))

# What regex-syntax treats as meta characters: each is escaped with a backslash.
META = set("\\.+*?()|[]{}^$#&-~")


def escape(text):
    return "".join("\\" + c if c in META else c for c in text)


def key(seed, name):
    return hashlib.sha256(f"{seed}:{name}".encode("utf-8")).hexdigest()


def within_files(files, within):
    """The files of `files` that are WITHIN (a path under SOURCE, with or without SOURCE in
    front); an error when it names nothing there."""
    prefix = within.strip("/")
    if not prefix.startswith(SOURCE + "/") and prefix != SOURCE:
        prefix = SOURCE + "/" + prefix
    kept = {path for path in files if path == prefix or path.startswith(prefix + "/")}
    if not kept:
        sys.exit("sample.py: %s holds no file of the population" % within)
    return kept


def sample(all_json, seed, size, first, last, out_dir, within=None, tools=False):
    with open(all_json, encoding="utf-8") as f:
        mutants = json.load(f)
    files = tools_files(repo_root()) if tools else population_files(repo_root())
    if within:
        files = within_files(files, within)
    population = sorted({m["name"] for m in mutants if m["file"] in files})
    chosen = sorted(population, key=lambda name: key(seed, name))[:size]
    part = chosen[first - 1:last]
    write_lines(os.path.join(out_dir, "sample.txt"), chosen)
    write_lines(os.path.join(out_dir, "part.txt"), part)
    files = sorted({m["file"] for m in mutants if m["name"] in set(part)})
    with open(os.path.join(out_dir, "sample.toml"), "w", encoding="utf-8") as f:
        f.write("# Written by scripts/mutants/sample.py: positions %d-%d of the sample.\n" % (first, last))
        f.write("examine_globs = [%s]\n" % ", ".join(json.dumps(path) for path in files))
        f.write("examine_re = [\n")
        for name in part:
            f.write("    %s,\n" % json.dumps("^" + escape(name) + "$"))
        f.write("]\n")
    groups = {}
    for name in chosen:
        path = name.split(":", 1)[0].replace("reference-server/src/", "")
        group = path.split("/", 1)[0] + ("/" if "/" in path else "")
        groups[group] = groups.get(group, 0) + 1
    shown = ", ".join("%s %d" % (g, n) for g, n in sorted(groups.items()))
    scope = " (within %s)" % within if within else ""
    if tools:
        scope = " of the tools" + scope
    print("mutants: %d in the population%s, sample of %d (seed %s): %s" % (len(population), scope, len(chosen), seed, shown))
    print("mutants: this run takes positions %d-%d of the sample (%d mutants)" % (first, min(last, len(chosen)), len(part)))


def write_lines(path, names):
    with open(path, "w", encoding="utf-8") as f:
        f.writelines(name + "\n" for name in names)


def lines(path):
    if not os.path.exists(path):
        return []
    with open(path, encoding="utf-8") as f:
        return [line.rstrip("\n") for line in f if line.strip()]


def summary(out_dir):
    part = set(lines(os.path.join(out_dir, "part.txt")))
    base = os.path.join(out_dir, "mutants.out")
    outcomes = {kind: lines(os.path.join(base, kind + ".txt")) for kind in ("caught", "missed", "timeout", "unviable")}
    counts = {kind: [n for n in names if n in part] for kind, names in outcomes.items()}
    extra = sum(len(names) - len(counts[kind]) for kind, names in outcomes.items())
    caught, missed, timeout, unviable = (len(counts[k]) for k in ("caught", "missed", "timeout", "unviable"))
    scored = caught + missed + timeout
    score = "%.1f%%" % (100.0 * caught / scored) if scored else "n/a"
    for kind in ("missed", "timeout"):
        for name in counts[kind]:
            print("%s: %s" % (kind, name))
    untested = len(part) - caught - missed - timeout - unviable
    if untested:
        print("mutants: %d of the %d selected have no outcome (the run stopped early?)" % (untested, len(part)))
    if extra:
        print("mutants: %d more outcomes are of mutants outside the sample (struct fields), not counted" % extra)
    print(
        "mutants: caught %d, missed %d, timeout %d, unviable %d; score %s = caught / (caught + missed + timeout)"
        % (caught, missed, timeout, unviable, score)
    )


def run_command(argv, cwd, limit, log):
    """Runs argv in cwd (its own process group, output appended to log) for at most `limit`
    seconds: "ok", "failed" or "timeout" (the whole group is then killed)."""
    with open(log, "a", encoding="utf-8") as out:
        out.write("$ %s\n" % " ".join(argv))
        out.flush()
        child = subprocess.Popen(argv, cwd=cwd, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
        try:
            return "ok" if child.wait(timeout=limit) == 0 else "failed"
        except subprocess.TimeoutExpired:
            os.killpg(child.pid, signal.SIGKILL)
            child.wait()
            return "timeout"


def copy_tree(root, scratch):
    """The source tree without target/ and .git, as cargo-mutants copies it."""
    if os.path.exists(scratch):
        shutil.rmtree(scratch)
    shutil.copytree(root, scratch, ignore=lambda folder, names: [n for n in names if n in ("target", ".git")]
                    if os.path.samefile(folder, root) else [n for n in names if n == ".git"], symlinks=True)


def run_part(out_dir, test_limit, build_limit, runner, cargo_args):
    """Tests each mutant of OUT_DIR/part.txt: applies its diff (from OUT_DIR/diffs.json, `cargo
    mutants --list --json --diff`) to a copy of the tree, builds the tests (`cargo test --no-run
    ARGS`, failing: unviable), runs them (`cargo test ARGS`: failing caught, passing missed, over
    the limit timeout; with `nextest` as RUNNER, `cargo nextest run ARGS`, which stops at the
    first failing test) and puts the file back. Outcomes go to OUT_DIR/mutants.out/KIND.txt as
    cargo-mutants writes them, logs to OUT_DIR/mutants.out/log/. (cargo-mutants 27 cannot run a
    sample alone: it adds every struct-field mutant of a selected file, over 400 for demo.rs.)"""
    part = lines(os.path.join(out_dir, "part.txt"))
    with open(os.path.join(out_dir, "diffs.json"), encoding="utf-8") as f:
        diffs = {m["name"]: m for m in json.load(f)}
    missing = [name for name in part if name not in diffs]
    if missing:
        sys.exit("sample.py: no diff for %s" % ", ".join(missing))
    base = os.path.join(out_dir, "mutants.out")
    if os.path.exists(base):
        shutil.rmtree(base)
    os.makedirs(os.path.join(base, "log"))
    scratch = os.path.join(out_dir, "tree")
    copy_tree(repo_root(), scratch)
    # The baseline, in the copy (whose build the mutants then reuse): the tests must pass.
    started = time.time()
    log = os.path.join(base, "log", "baseline.log")
    test = ["cargo", "nextest", "run", "--no-tests=fail"] if runner == "nextest" else ["cargo", "test"]
    if run_command(test + cargo_args, scratch, build_limit + test_limit, log) != "ok":
        sys.exit("sample.py: the tests fail (or time out) on the unmutated tree: see %s" % log)
    print("mutants: baseline passed in %ds (build included)" % (time.time() - started), flush=True)
    for number, name in enumerate(part, 1):
        started = time.time()
        mutant = diffs[name]
        path = os.path.join(scratch, mutant["file"])
        with open(path, "rb") as f:
            original = f.read()
        log = os.path.join(base, "log", "%03d.log" % number)
        with open(log, "w", encoding="utf-8") as f:
            f.write("%s\n%s\n" % (name, mutant["diff"]))
        applied = subprocess.run(["patch", "-p0", "--quiet", "--forward", mutant["file"]], cwd=scratch,
                                 input=mutant["diff"].encode("utf-8"), capture_output=True)
        if applied.returncode != 0:
            sys.exit("sample.py: the diff of %s does not apply: %s" % (name, applied.stdout.decode() + applied.stderr.decode()))
        try:
            built = run_command(["cargo", "test", "--no-run"] + cargo_args, scratch, build_limit, log)
            if built == "ok":
                tested = run_command(test + cargo_args, scratch, test_limit, log)
                outcome = {"ok": "missed", "failed": "caught", "timeout": "timeout"}[tested]
            else:
                outcome = "unviable" if built == "failed" else "timeout"
        finally:
            # Written anew (a fresh mtime), so that cargo rebuilds what the mutant touched.
            with open(path, "wb") as f:
                f.write(original)
        with open(os.path.join(base, outcome + ".txt"), "a", encoding="utf-8") as f:
            f.write(name + "\n")
        print("mutants: %d/%d %s in %ds: %s" % (number, len(part), outcome, time.time() - started, name), flush=True)


def without_position(name):
    """A mutant's name without its line and column: `FILE:LINE:COL: TEXT` -> `FILE: TEXT`, so
    that a listed equivalence survives code moving up or down."""
    head, sep, text = name.partition(": ")
    parts = head.split(":")
    if sep and len(parts) == 3 and parts[1].isdigit() and parts[2].isdigit():
        return "%s: %s" % (parts[0], text)
    return name


def equivalents(path):
    """The names EQUIVALENT_FILE lists; each must name the test that proves it."""
    listed = set()
    for number, line in enumerate(lines(path), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        # The last ` | `: a mutant's name may hold one (`replace ^ with | in …`), its proof may not.
        name, sep, proof = line.rpartition(" | ")
        if not sep or not proof.strip():
            sys.exit("sample.py: %s:%d: no ` | TEST` naming the test that shows it is equivalent" % (path, number))
        listed.add(name.strip())
    return listed


def gate(out_dir, equivalent_file):
    part = set(lines(os.path.join(out_dir, "part.txt")))
    base = os.path.join(out_dir, "mutants.out")
    survivors = [n for kind in ("missed", "timeout") for n in lines(os.path.join(base, kind + ".txt")) if n in part]
    listed = equivalents(equivalent_file)
    unexplained = [n for n in survivors if without_position(n) not in listed]
    for name in unexplained:
        print("mutants: survived, and not listed as equivalent: %s" % name)
    if unexplained:
        print("mutants: %d survivor(s): add a case that catches each, or prove it equivalent with a test "
              "and list it in %s" % (len(unexplained), equivalent_file))
        return 1
    print("mutants: every survivor (%d) is listed as equivalent" % len(survivors))
    return 0


def main(argv):
    if len(argv) in (8, 9) and argv[1] in ("sample", "tools"):
        within = argv[8] if len(argv) == 9 else None
        sample(argv[2], argv[3], int(argv[4]), int(argv[5]), int(argv[6]), argv[7], within, tools=argv[1] == "tools")
    elif len(argv) == 4 and argv[1] == "gate":
        return gate(argv[2], argv[3])
    elif len(argv) >= 6 and argv[1] == "run" and argv[5] in ("test", "nextest"):
        run_part(argv[2], int(argv[3]), int(argv[4]), argv[5], argv[6:])
    elif len(argv) == 3 and argv[1] == "summary":
        summary(argv[2])
    else:
        sys.stderr.write(__doc__)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
