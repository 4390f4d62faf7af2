#!/usr/bin/env bash
# Mutation testing of the reference server with the conformance suite as the test: each mutant
# of a seeded sample is built into the server, and the suite must fail: tests/suite.rs (every case
# against the embedded server, with --check-doc), then tests/twin.rs (every case against the
# plugin's twin, judged against its committed outcomes, which reaches the code only a quirk
# runs). The server's own unit tests do not run.
# See docs/mutants.md for the sample, the timeouts and the results. CI does not run it.
#
#   scripts/mutants.sh                    # the whole sample (300 mutants; 30-60 minutes on 2 cores)
#   scripts/mutants.sh --only 1-25        # positions 1 to 25 of the sample (the pilot)
#   scripts/mutants.sh --list             # print the sample and stop
#   scripts/mutants.sh --tools --size 60  # the developer tools' sample, tested by the server's own tests
#
# Options (and environment variables):
#   --seed S       (MUTANTS_SEED, default 13)       the sample's seed
#   --size N       (MUTANTS_SIZE, default 300)      the sample's size
#   --only A-B     (MUTANTS_ONLY, default all)      run positions A to B of the sample
#   --timeout S    (MUTANTS_TIMEOUT, default 60)    the suite's time limit per mutant, seconds
#   --build-timeout S (MUTANTS_BUILD_TIMEOUT, default 300)  a mutant's build time limit
#   --jobs N       (MUTANTS_JOBS, default 1)        mutants built and tested at once
#   --out DIR      (MUTANTS_OUT, default target/mutants)   the sample, mutants.out, the build
#   --within P     (MUTANTS_WITHIN, default all)    draw only from the server's files under P
#                  (a path under reference-server/src, e.g. `text`): one part's score
#   --tools        (MUTANTS_TOOLS=1)                draw from the files the default sample leaves
#                  out (the developer tools: demo, seed, journal, faults, proxy, state, admin,
#                  fixtures, stubs, pages...; see TOOLS_LEFT_OUT in scripts/mutants/sample.py) and
#                  test each mutant with the server's own tests, `cargo test -p reference-server`
#                  (unit and integration tests, no doc tests; under cargo-nextest when it is
#                  installed, which stops at the first failure), instead of the suite. Its
#                  default output folder is target/mutants-tools; --jobs does not apply.
#
# It needs cargo-mutants (`cargo install cargo-mutants --locked`) and python3. cargo-mutants
# copies the source tree (without target/) to a scratch folder and builds there, into its own
# target directory, DIR/target (MUTANTS_TARGET): the first run compiles the dependencies there
# (a few minutes, about 2 GB; delete DIR/target when done), later runs reuse them. The
# worktree's own target/ is not touched.
set -euo pipefail
cd "$(dirname "$0")/.."

seed="${MUTANTS_SEED:-13}"
size="${MUTANTS_SIZE:-300}"
only="${MUTANTS_ONLY:-}"
timeout="${MUTANTS_TIMEOUT:-60}"
build_timeout="${MUTANTS_BUILD_TIMEOUT:-300}"
jobs="${MUTANTS_JOBS:-1}"
out="${MUTANTS_OUT:-target/mutants}"
within="${MUTANTS_WITHIN:-}"
target_dir="${MUTANTS_TARGET:-}"
tools="${MUTANTS_TOOLS:-0}"
list_only=0

usage() { sed -n '2,34p' "$0" | sed 's/^# \{0,1\}//'; }
while [[ $# -gt 0 ]]; do
    case "$1" in
        --seed) seed="$2"; shift 2 ;;
        --size) size="$2"; shift 2 ;;
        --only) only="$2"; shift 2 ;;
        --timeout) timeout="$2"; shift 2 ;;
        --build-timeout) build_timeout="$2"; shift 2 ;;
        --jobs) jobs="$2"; shift 2 ;;
        --out) out="$2"; shift 2 ;;
        --within) within="$2"; shift 2 ;;
        --list) list_only=1; shift ;;
        --tools) tools=1; shift ;;
        -h|--help) usage; exit 0 ;;
        *) echo "mutants: unknown option $1 (see --help)" >&2; exit 2 ;;
    esac
done
for number in "$seed" "$size" "$timeout" "$build_timeout" "$jobs"; do
    [[ "$number" =~ ^[0-9]+$ ]] || { echo "mutants: $number is not a number" >&2; exit 2; }
done
first=1
last="$size"
if [[ -n "$only" ]]; then
    [[ "$only" =~ ^([0-9]+)-([0-9]+)$ ]] || { echo "mutants: --only takes FROM-TO, e.g. 1-25" >&2; exit 2; }
    first="${BASH_REMATCH[1]}"
    last="${BASH_REMATCH[2]}"
    if (( first < 1 || last < first || last > size )); then
        echo "mutants: --only $only is not within 1-$size" >&2
        exit 2
    fi
fi
command -v cargo-mutants >/dev/null || { echo "mutants: cargo-mutants is missing: cargo install cargo-mutants --locked" >&2; exit 2; }
command -v python3 >/dev/null || { echo "mutants: python3 is missing" >&2; exit 2; }

# The suite's options for every run: a request that hangs fails its case after 10 s (instead of
# the runner's default 30 s), and the run stops at the first failed case, so that a mutant that
# hangs a few requests (or spins a CPU on each) is caught rather than timed out.
suite_args=(--timeout 10 --fail-fast)

# --tools: the server's own tests (the library's unit tests, the integration tests of tests/all and
# the binary's; `--lib --bins --tests` leaves out the doc tests and the benchmarks). cargo-mutants
# 27 cannot run the sample alone (it adds every struct-field mutant of a selected file, over 400
# of demo.rs), so `sample.py run` applies each mutant's diff to a copy of the tree, builds and
# tests it, one at a time (--jobs does not apply), after a baseline in the same copy.
tools_args=(-p reference-server --lib --bins --tests)
run_tools() {
    local files=() started elapsed
    mapfile -t files < <(cut -d: -f1 "$out/part.txt" | sort -u)
    cargo mutants --no-config --list --json --diff --package reference-server \
        $(printf -- '--file %s ' "${files[@]}") >"$out/diffs.json"
    # cargo-nextest, when installed, runs the same tests but stops at the first failure (and
    # spreads them better over the cores): a caught mutant then costs its build and one failure.
    local runner=test
    command -v cargo-nextest >/dev/null && runner=nextest
    echo "mutants: cargo $runner ${tools_args[*]} for each mutant; timeouts: build ${build_timeout}s, tests ${timeout}s; output in $out/mutants.out"
    started=$(date +%s)
    python3 scripts/mutants/sample.py run "$out" "$timeout" "$build_timeout" "$runner" "${tools_args[@]}" || return 2
    elapsed=$(( $(date +%s) - started ))
    python3 scripts/mutants/sample.py summary "$out"
    echo "mutants: $(( last - first + 1 )) mutants in ${elapsed}s (the baseline's build included)"
}

if [[ "$tools" == 1 && -z "${MUTANTS_OUT:-}" && "$out" == target/mutants ]]; then
    out=target/mutants-tools
fi
mkdir -p "$out"
out="$(cd "$out" && pwd)"
export CARGO_TARGET_DIR="${target_dir:-$out/target}"
# Every mutant cargo-mutants would make in the server; the sample is drawn from them.
cargo mutants --no-config --list --json --package reference-server >"$out/all.json"
population=sample
[[ "$tools" == 1 ]] && population=tools
python3 scripts/mutants/sample.py "$population" "$out/all.json" "$seed" "$size" "$first" "$last" "$out" ${within:+"$within"}
if (( list_only )); then
    cat "$out/part.txt"
    exit 0
fi
if [[ "$tools" == 1 ]]; then
    run_tools
    exit $?
fi
# What cargo-mutants will run: the part, and the struct-field mutants of its files, which its
# name filter does not apply to (counted apart).
cargo mutants --list --config "$out/sample.toml" --package reference-server >"$out/selected.txt"
if ! diff -q <(sort "$out/part.txt") <(sort "$out/selected.txt" | grep -Fxf "$out/part.txt") >/dev/null; then
    echo "mutants: cargo-mutants does not select every mutant of the sample (see $out/selected.txt)" >&2
    exit 2
fi
echo "mutants: cargo-mutants selects $(wc -l <"$out/selected.txt") mutants ($(grep -cvFxf "$out/part.txt" "$out/selected.txt" || true) outside the sample)"

# The baseline: the unmutated suite must pass. cargo-mutants 27 would run its baseline on the
# mutated package's tests (the server's own), not on --test-package's, so it runs here instead
# (into the same target directory, which also builds the dependencies once).
echo "mutants: baseline: cargo test -p conformance --test suite --test twin (unmutated)"
started=$(date +%s)
# The target directory may hold the last mutant of an earlier run, built from cargo-mutants'
# copy of the tree: cargo keys a workspace crate by its path within the workspace, and that build
# is newer than the real sources, so cargo would take it as up to date and the baseline would run
# a mutant (seen: a run's baseline failed on a URL mutant left by the run before). Dropping the
# two crates' builds (the dependencies stay) makes the baseline build the real code.
cargo clean --quiet -p reference-server -p conformance
if ! cargo test --quiet -p conformance --test suite --test twin -- "${suite_args[@]}" >"$out/baseline.log" 2>&1; then
    echo "mutants: the suite fails on the unmutated server: see $out/baseline.log" >&2
    exit 2
fi
baseline_run_started=$(date +%s)
cargo test --quiet -p conformance --test suite --test twin -- "${suite_args[@]}" >>"$out/baseline.log" 2>&1
echo "mutants: baseline passed (build and test $(( baseline_run_started - started ))s; the suite alone $(( $(date +%s) - baseline_run_started ))s)"
echo "mutants: cargo-mutants $(cargo mutants --version | awk '{print $2}'), timeouts: build ${build_timeout}s, suite ${timeout}s, $jobs job(s); output in $out/mutants.out"
started=$(date +%s)
status=0
# --test-package conformance, `--test suite` and `--test twin` (for the build too, so that no
# other test target is built): for each mutant, `cargo test --package conformance --test suite
# --test twin -- ARGS`, the suite in embedded mode, then on the twin (cargo stops at the first
# binary that fails).
cargo mutants --config "$out/sample.toml" --package reference-server --test-package conformance \
    --cargo-arg=--test --cargo-arg=suite --cargo-arg=--test --cargo-arg=twin \
    --timeout "$timeout" --build-timeout "$build_timeout" --jobs "$jobs" --output "$out" \
    --baseline skip --colors never -- -- "${suite_args[@]}" || status=$?
elapsed=$(( $(date +%s) - started ))
python3 scripts/mutants/sample.py summary "$out"
echo "mutants: $(( last - first + 1 )) mutants in ${elapsed}s ($(( elapsed / (last - first + 1) ))s per mutant; the first build compiles the workspace's crates in full)"
# cargo-mutants: 0 all caught, 2 some missed, 3 some timed out; anything else is a failure
# of the run itself.
case "$status" in
    0|2|3) exit 0 ;;
    *) echo "mutants: cargo mutants failed with exit status $status (see $out/mutants.out/)" >&2; exit "$status" ;;
esac
