#!/usr/bin/env bash
# The suite under cargo-nextest, split across machines: for each partitioning nextest offers
# (count:K/N, hash:K/N, slice:K/N), the N partitions of the suite's test binary hold every case
# of the suite's own `--list` exactly once and none is empty; then one partition runs for real
# and every test of it must pass. CI runs it (README, "Splitting the suite across machines").
#
#   scripts/nextest-partitions.sh             # N = 3, then the run of count:1/20
#   NEXTEST_PARTS=4 NEXTEST_RUN=count:2/30 scripts/nextest-partitions.sh
#
# Without cargo-nextest (`cargo install cargo-nextest --locked`) it says so and does nothing.
set -euo pipefail
cd "$(dirname "$0")/.."

parts="${NEXTEST_PARTS:-3}"
run="${NEXTEST_RUN:-count:1/20}"
if ! command -v cargo-nextest >/dev/null 2>&1; then
    echo "nextest-partitions: cargo-nextest is not installed: nothing checked (cargo install cargo-nextest --locked)"
    exit 0
fi
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# The suite's own list: `NAME: test` lines, as libtest prints them.
cargo test --quiet -p conformance --test suite -- --list --format terse | sed 's/: test$//' | sort >"$work/suite"
total=$(wc -l <"$work/suite")
if (( total < 100 )); then
    echo "nextest-partitions: the suite lists only $total cases" >&2
    exit 1
fi

# nextest's listing: `BINARY-ID NAME`, one line per test of the partition.
list() {
    cargo nextest list --cargo-quiet -p conformance --test suite --partition "$1" --message-format oneline \
        | sed -n 's/^conformance::suite //p'
}

failed=0
for kind in count hash slice; do
    : >"$work/all"
    sizes=()
    for k in $(seq 1 "$parts"); do
        list "$kind:$k/$parts" >"$work/part"
        sizes+=("$(wc -l <"$work/part")")
        if [[ ! -s "$work/part" ]]; then
            echo "nextest-partitions: $kind:$k/$parts is empty" >&2
            failed=1
        fi
        cat "$work/part" >>"$work/all"
    done
    duplicates=$(sort "$work/all" | uniq -d | wc -l)
    sort -u "$work/all" >"$work/union"
    missing=$(comm -23 "$work/suite" "$work/union" | wc -l)
    unknown=$(comm -13 "$work/suite" "$work/union" | wc -l)
    echo "nextest-partitions: $kind:K/$parts: partitions of ${sizes[*]} tests; $total cases in the suite, $missing missing, $duplicates in two partitions, $unknown unknown"
    if (( missing + duplicates + unknown > 0 )); then
        comm -3 "$work/suite" "$work/union" | head -5 >&2
        failed=1
    fi
done
(( failed == 0 )) || exit 1

# One partition for real: each test in its own process, as on a CI machine of a matrix.
expected=$(list "$run" | wc -l)
cargo nextest run --no-fail-fast -p conformance --test suite --partition "$run" 2>&1 | tee "$work/run" | tail -n 3
summary=$(grep -E '^ *Summary' "$work/run" || true)
if [[ "$summary" != *"$expected tests run: $expected passed"* ]]; then
    echo "nextest-partitions: $run should run and pass $expected tests; nextest says: $summary" >&2
    exit 1
fi
echo "nextest-partitions: ok: every partitioning covers the $total cases once; $run ran $expected tests, all passed"
