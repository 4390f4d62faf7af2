#!/usr/bin/env bash
# The speed of `conformance explore`, and its self-check against the reference server: a release
# build (with jemalloc), both sides embedded (no --base-url), a run of 20,000 steps for each seed;
# prints each run's summary line, with its steps per second. A slow figure fails nothing; a difference does:
# the issue asks 0 differences over 20,000 steps for several seeds, so the script exits 1 when a
# run finds any difference (must, should or may) or does not finish.
#
#   scripts/explore-bench.sh                  # seeds 1, 2 and 3, 20,000 steps each
#   EXPLORE_BENCH_STEPS=5000 EXPLORE_BENCH_SEEDS="4 5" scripts/explore-bench.sh
#   scripts/explore-bench.sh --debug          # the self-check only, as CI runs it: the debug
#                                             # build (which `cargo test` has already made), the
#                                             # seeds side by side; its steps/s mean little
#
# Each run is bounded by `timeout` (EXPLORE_BENCH_TIMEOUT seconds, 300) and runs in a temporary
# folder that is removed at the end.
set -euo pipefail
cd "$(dirname "$0")/.."

steps="${EXPLORE_BENCH_STEPS:-20000}"
seeds="${EXPLORE_BENCH_SEEDS:-1 2 3}"
limit="${EXPLORE_BENCH_TIMEOUT:-300}"
[[ "$steps" =~ ^[0-9]+$ && "$limit" =~ ^[0-9]+$ ]] || { echo "explore-bench: steps and timeout are numbers" >&2; exit 2; }

# The benchmark builds the runner with jemalloc, as the server's benchmarks build the server
# (explore allocates many short-lived values a step; the system allocator gave about 15 % less).
profile=(--release --features jemalloc)
together=0
if [[ "${1:-}" == "--debug" ]]; then
    profile=()
    together=1
fi
echo "explore-bench: building (${profile[*]:-debug})" >&2
bin="$(cargo build "${profile[@]}" --quiet -p conformance --bin conformance --message-format=json-render-diagnostics \
    | python3 scripts/bench/helper.py artifact conformance)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
echo "explore-bench: $(nproc) CPUs; $steps steps a seed, both sides embedded" >&2
run() { # SEED: one run, its output in $work/out-SEED and its exit status in $work/status-SEED
    local seed="$1" status=0
    (cd "$work" && timeout "$limit" "$bin" explore --seed "$seed" --steps "$steps" --out "$work/found-$seed" \
        >"$work/out-$seed" 2>/dev/null) || status=$?
    echo "$status" >"$work/status-$seed"
}
for seed in $seeds; do
    [[ "$seed" =~ ^[0-9]+$ ]] || { echo "explore-bench: seed $seed is not a number" >&2; exit 2; }
done
pids=()
for seed in $seeds; do
    if [[ $together -eq 1 ]]; then
        run "$seed" &
        pids+=("$!")
    else
        run "$seed"
    fi
done
for pid in "${pids[@]}"; do wait "$pid" || true; done
failed=0
for seed in $seeds; do
    status="$(cat "$work/status-$seed" 2>/dev/null || echo 1)"
    summary="$(tail -n 1 "$work/out-$seed")"
    echo "$summary"
    if [[ $status -ne 0 || "$summary" != *"$steps steps in"* \
        || "$summary" != *"; 0 difference(s) at must or should level, 0 at may level" ]]; then
        echo "explore-bench: seed $seed: exit status $status; the run's first lines:" >&2
        head -n 20 "$work/out-$seed" >&2
        failed=1
    fi
done
exit "$failed"
