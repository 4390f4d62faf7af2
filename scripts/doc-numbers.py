#!/usr/bin/env python3
"""Every count README.md and docs/*.md show about the suite, computed from the suite itself.

    python3 scripts/doc-numbers.py           update the documents in place (after cases change)
    python3 scripts/doc-numbers.py --check   change nothing; exit 1 and name each document, line
                                             and number that disagrees with the suite
    python3 scripts/doc-numbers.py --list    print every number with where it stands
    --counts-only                            (with --check) leave out the sample summaries, which
                                             need two runs of the suite: what `cargo test` checks

The numbers come from the runner built from this checkout (`cargo build -p conformance -p
reference-server`, the dev profile, unless CONFORMANCE and REFERENCE_SERVER name the programs):
`conformance --list` with the documents' selections (cases per level, cases, files, the cases a
selection keeps and leaves out), and, for the sample summaries of docs/runner.md, README.md and
docs/case-format.md, two runs of the whole suite against a reference server started with
`--without tickets` (with an administrator and an editor only; the second run also tells the
runner `--without tickets`), as those documents say. A document's wording is found by the
patterns below: a number is only ever replaced where a pattern puts it, and a pattern that finds
nothing is an error (the document changed: change the pattern with it).

Standard library only.
"""
import os
import re
import signal
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LEVELS = ("must", "should", "may")


def programs():
    conformance = os.environ.get("CONFORMANCE")
    server = os.environ.get("REFERENCE_SERVER")
    if not (conformance and server):
        subprocess.run(["cargo", "build", "--quiet", "-p", "conformance", "-p", "reference-server"], cwd=ROOT,
                       check=True)
        conformance = conformance or os.path.join(ROOT, "target", "debug", "conformance")
        server = server or os.path.join(ROOT, "target", "debug", "reference-server")
    return conformance, server


class Suite:
    """What the suite says, asked of the runner once per question."""

    def __init__(self, conformance, server):
        self.conformance, self.server = conformance, server
        self.cache = {}

    def listing(self, *selection):
        """(name, level) of every case the selection keeps."""
        if selection not in self.cache:
            out = subprocess.run([self.conformance, "--list", *selection], cwd=ROOT, capture_output=True, text=True)
            cases = []
            for line in out.stdout.splitlines():
                name, sep, level = line.rpartition(": test [")
                if sep and level.endswith("]"):
                    cases.append((name, level[:-1]))
            self.cache[selection] = cases
        return self.cache[selection]

    def count(self, *selection, level=None):
        return sum(1 for _, l in self.listing(*selection) if level is None or l == level)

    def files(self, prefix=""):
        return len({name.split("::")[0] for name, _ in self.listing() if name.startswith(prefix)})

    def left_out(self, *selection, level=None):
        return self.count(level=level) - self.count(*selection, level=level)

    def run_lines(self, runner_without):
        """The `conformance:` and `verdict:` lines of the whole suite against a reference server
        started with --without tickets, with an administrator and an editor only."""
        key = ("run", runner_without)
        if key in self.cache:
            return self.cache[key]
        server = subprocess.Popen([self.server, "--listen", "127.0.0.1:0", "--without", "tickets"],
                                  stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        try:
            api = server.stdout.readline().strip()
            base = api[:api.index("/wp-json")] + "/wp-json"
            args = [self.conformance, "--base-url", base, "--auth", "administrator=admin:admin-password",
                    "--auth", "editor=editor:editor-password"]
            if runner_without:
                args += ["--without", "tickets"]
            env = {k: v for k, v in os.environ.items() if not k.startswith("CONFORMANCE_AUTH_")}
            run = subprocess.run(args, cwd=ROOT, capture_output=True, text=True, env=env)
            out = run.stdout
        finally:
            server.send_signal(signal.SIGTERM)
            try:
                server.wait(timeout=10)
            except subprocess.TimeoutExpired:
                server.kill()
        lines = [l for l in out.splitlines() if l.startswith(("conformance: ", "verdict: "))]
        if len(lines) < 2:
            sys.exit("doc-numbers: the sample run printed no summary:\n" + out[-2000:])
        causes = re.search(r"\nfailures by cause [^\n]*\n(?:[^\n]+\n)*", out)
        self.cache[key] = (lines[-2], lines[-1])
        self.cache[("causes", runner_without)] = causes.group(0).strip("\n") if causes else ""
        note = re.search(r"subscriber: (\d+) cases that need them are skipped", run.stderr)
        self.cache[("note", runner_without)] = note.group(1) if note else "?"
        return self.cache[key]

    def causes(self):
        """The cause table of the first sample run."""
        self.run_lines(False)
        return self.cache[("causes", False)]


# Each fact: (document, pattern, values). The pattern's groups are the numbers (or lines) the
# document shows; `values(suite)` gives what each group must read, in order.
def facts():
    per_level = lambda s: [str(s.count(level=l)) for l in LEVELS]
    events_route = lambda s: [str(s.count("--route", "/events*", level="must")),
                              str(s.left_out("--route", "/events*", level="must"))]
    events_example = r"`--route '/events\*'`\s+gives\s+`CONFORMS\s+on\s+the\s+(\d+)\s+must\s+cases\s+selected\s+\((\d+)\s+left\s+out\s+by\s+the\s+selection\)`"
    venues = lambda s: [str(s.count("--route", "/venues*")), str(s.left_out("--route", "/venues*")),
                        str(s.left_out("--route", "/venues*", level="must"))]
    venues_line = r'selection:\s+--route\s+"/venues\*":\s+(\d+)\s+cases\s+selected,\s+(\d+)\s+left\s+out\s+\((\d+)\s+of\s+them\s+must\)'
    def first_run(s):
        return list(s.run_lines(False))

    def second_run(s):
        return list(s.run_lines(True))

    def causes(s):
        return [s.causes()]

    def note(s):
        s.run_lines(False)
        return [s.cache[("note", False)]]

    partition = lambda s: [str(-(-s.count() // 20))]

    summary_block = r"\n(conformance: must: [^\n]*)\n(verdict: DOES NOT CONFORM: [^\n]*exit status 101: [^\n]*)\n"
    def known(s):
        verdict = s.run_lines(False)[1]
        return [verdict.split("; exit status")[0], re.search(r"exit status 101: (\d+) case", verdict).group(1)]

    return [
        ("README.md", r"test result: ok\. (\d+) passed; 0 failed", lambda s: [str(s.count())]),
        ("README.md", r"\nconformance: must: (\d+)/(\d+), should: (\d+)/(\d+) = 100%, may: (\d+)/(\d+) = 100%\n",
         lambda s: [n for n in per_level(s) for _ in (0, 1)]),
        ("README.md", r"\| `must` \|[^\n]*\| (\d+) \|\n\| `should` \|[^\n]*\| (\d+) \|\n\| `may` \|[^\n]*\| (\d+) \|",
         per_level),
        ("README.md", r"\((\d+) cases in (\d+) files; `--version`", lambda s: [str(s.count()), str(s.files())]),
        ("README.md", events_example, events_route),
        ("README.md", r"--tag list events-list/\s+# by tag \(cases/ files carry tags\) and by name: both match,\s+(\d+) cases",
         lambda s: [str(s.count("--tag", "list", "events-list/"))]),
        ("README.md", summary_block, first_run),
        ("README.md", r"    …\n(failures by cause \(.*?)\n\nconformance: must:", causes),
        ("docs/case-format.md", r"At (\d+) cases the suite holds (\d+) must, (\d+) should and (\d+) may cases",
         lambda s: [str(s.count())] + per_level(s)),
        ("docs/case-format.md", events_example, events_route),
        ("docs/case-format.md", venues_line, venues),
        ("docs/case-format.md", summary_block, first_run),
        ("docs/ci.md", r"`cargo test` runs all (\d+) in under", lambda s: [str(s.count())]),
        ("docs/ci.md", r"`count:1/20` \(about (\d+) cases\)", partition),
        ("docs/coverage.md", r"at (\d+) cases\)\. To see what a gap", lambda s: [str(s.count())]),
        ("docs/coverage.md", r"coverage of the interface by (\d+) cases in (\d+) files \(cases/events\)",
         lambda s: [str(s.count("events/")), str(s.files("events/"))]),
        ("docs/runner.md", r"suite [0-9a-f]+: (\d+) cases in (\d+) files", lambda s: [str(s.count()), str(s.files())]),
        ("docs/runner.md", events_example, events_route),
        ("docs/runner.md", venues_line, venues),
        ("docs/runner.md", r"`--tag list events-list/` runs the (\d+) list cases",
         lambda s: [str(s.count("--tag", "list", "events-list/"))]),
        ("docs/runner.md", summary_block, first_run),
        ("docs/runner.md", r"subscriber: (\d+) cases that need them are\s+skipped", note),
        ("docs/runner.md", r"\n(verdict: DOES NOT CONFORM: [^\n]*); exit status 0: (\d+) failures are all listed in known\.txt",
         known),
        ("docs/runner.md", r"\n(conformance: must: [^\n]*)\n(verdict: CONFORMS: every must case passed[^\n]*)\n",
         second_run),
    ]


# The facts whose values need the sample runs (left out by --counts-only).
SAMPLE_RUNS = {"first_run", "known", "second_run", "causes", "note"}


def line_of(text, at):
    return text.count("\n", 0, at) + 1


def main(args):
    mode = "write"
    if "--check" in args:
        mode = "check"
    elif "--list" in args:
        mode = "list"
    counts_only = "--counts-only" in args
    suite = Suite(*programs())
    texts = {}
    problems, changed = [], set()
    for doc, pattern, values in facts():
        if counts_only and values.__name__ in SAMPLE_RUNS:
            continue
        path = os.path.join(ROOT, doc)
        text = texts.setdefault(doc, open(path, encoding="utf-8").read())
        matches = list(re.finditer(pattern, text, re.S if "(.*?)" in pattern else 0))
        if not matches:
            problems.append(f"{doc}: no text matches {pattern!r}: the document changed; change scripts/doc-numbers.py with it")
            continue
        wanted = values(suite)
        # From the last match backwards, so that earlier positions stay right.
        for match in reversed(matches):
            for group in range(match.lastindex, 0, -1):
                shown, want = match.group(group), wanted[group - 1]
                if mode == "list":
                    print(f"{doc}:{line_of(text, match.start(group))}: {shown}")
                if shown != want:
                    problems.append(f"{doc}:{line_of(text, match.start(group))}: shows {shown!r}, the suite gives {want!r}")
                    text = text[:match.start(group)] + want + text[match.end(group):]
                    changed.add(doc)
        texts[doc] = text
    if mode == "write":
        for doc in sorted(changed):
            with open(os.path.join(ROOT, doc), "w", encoding="utf-8") as f:
                f.write(texts[doc])
        unmatched = [p for p in problems if "no text matches" in p]
        for problem in problems:
            print(("error: " if problem in unmatched else "updated: ") + problem)
        return 1 if unmatched else 0
    if mode == "check" and problems:
        for problem in problems:
            print("doc-numbers: " + problem)
        print("doc-numbers: run `python3 scripts/doc-numbers.py` to update the documents from the suite")
        return 1
    if mode == "check":
        print(f"doc-numbers: every number of README.md and docs/ agrees with the suite ({suite.count()} cases)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
