#!/usr/bin/env bash
# What --state costs: creates per second with and without it, measured with wrk (Debian's
# package) against the release build on 127.0.0.1. Each run is a fresh server; each request
# creates an event as the administrator (POST /events, JSON), with a title of its own.
#
# BENCH_SECONDS (10), BENCH_CONNECTIONS (16) and BENCH_THREADS (2) set the load; BENCH_DIR
# the directory of the state file (default: a temporary directory, so the disk of /tmp).
set -euo pipefail
cd "$(dirname "$0")/.."

command -v wrk >/dev/null || { echo "state-bench: wrk is not installed (apt-get install -y wrk)" >&2; exit 2; }
cargo build --quiet --release -p reference-server
seconds="${BENCH_SECONDS:-10}"
connections="${BENCH_CONNECTIONS:-16}"
threads="${BENCH_THREADS:-2}"
work="$(mktemp -d)"
state_dir="${BENCH_DIR:-$work}"
server_pid=""
cleanup() {
    if [ -n "$server_pid" ] && kill -0 "$server_pid" 2>/dev/null; then
        kill "$server_pid" 2>/dev/null || true
        wait "$server_pid" 2>/dev/null || true
    fi
    rm -rf "$work"
    rm -f "$state_dir/bench.state"
}
trap cleanup EXIT INT TERM

cat >"$work/create.lua" <<'EOF'
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Authorization"] = "Basic YWRtaW46YWRtaW4tcGFzc3dvcmQ="
local counter = 0
local prefix = tostring(math.random(1, 1000000000))
request = function()
  counter = counter + 1
  local body = string.format(
    '{"title":"Bench %s %d","start_date":"2026-12-01 10:00:00","end_date":"2026-12-01 12:00:00"}',
    prefix, counter)
  return wrk.format(nil, "/wp-json/calendar/events/v1/events", nil, body)
end
EOF

run() { # LABEL ARGS…: creates/s of a fresh server started with ARGS
    local label="$1"
    shift
    target/release/reference-server --listen 127.0.0.1:0 --clock 2026-11-22T10:00:00Z --demo "$@" \
        >"$work/server.out" 2>"$work/server.log" &
    server_pid=$!
    local api=""
    for _ in $(seq 1 100); do
        api="$(head -n 1 "$work/server.out" 2>/dev/null || true)"
        [ -n "$api" ] && break
        sleep 0.1
    done
    [ -n "$api" ] || { echo "state-bench: the server did not start" >&2; cat "$work/server.log" >&2; exit 1; }
    local site="${api%%/wp-json/*}"
    wrk -t"$threads" -c"$connections" -d"${seconds}s" -s "$work/create.lua" "$site" >"$work/wrk-$label.txt"
    kill "$server_pid"
    wait "$server_pid" 2>/dev/null || true
    server_pid=""
    local rate errors
    rate="$(awk '/Requests\/sec/ {print $2}' "$work/wrk-$label.txt")"
    errors="$(awk '/Non-2xx/ {print $5}' "$work/wrk-$label.txt")"
    local latency
    latency="$(awk '/Latency/ {print $2; exit}' "$work/wrk-$label.txt")"
    printf 'state-bench: %-22s %10s creates/s  (mean latency %s, non-2xx %s)\n' "$label" "$rate" "$latency" "${errors:-0}"
    echo "$rate" >"$work/rate-$label"
}

echo "state-bench: $connections connections, $threads threads, ${seconds}s each, release build"
run "in memory"
run "--state" --state "$state_dir/bench.state"
ls -l "$state_dir/bench.state" | awk '{print "state-bench: state file after the run: " $5 " bytes"}'
python3 - "$(cat "$work/rate-in memory")" "$(cat "$work/rate---state")" <<'EOF'
import sys
memory, state = float(sys.argv[1]), float(sys.argv[2])
print(f"state-bench: --state runs at {100 * state / memory:.0f}% of the in-memory rate")
EOF
