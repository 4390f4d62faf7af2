#!/usr/bin/env bash
# Fuzzes the reference server with schemathesis, driven by the server's own /doc.
#
# Installs schemathesis into .venv on the first run, builds and starts the reference server
# (demo data, a free port on 127.0.0.1), runs schemathesis against {api}/doc with HTTP Basic
# authentication as the administrator (so the write routes are exercised), then stops the
# server. Passes when schemathesis finds no server error (5xx), no response that violates the
# document (schema, status code, content type, headers) and does not crash.
#
# Bounded: at most FUZZ_MAX_EXAMPLES test cases per operation and phase, FUZZ_MAX_TIME seconds
# for the whole run (schemathesis stops generating then), and a hard timeout above that.
#
#   scripts/fuzz-api.sh                       # defaults: 25 examples, 180 s, a random seed
#   FUZZ_SEED=1 FUZZ_MAX_TIME=60 scripts/fuzz-api.sh
#
# Reports (JUnit and NDJSON) go to target/fuzz/. Not part of CI: it takes minutes.
set -euo pipefail
cd "$(dirname "$0")/.."

MAX_EXAMPLES="${FUZZ_MAX_EXAMPLES:-25}"
MAX_TIME="${FUZZ_MAX_TIME:-180}"
SEED="${FUZZ_SEED:-$RANDOM}"
VENV="${FUZZ_VENV:-.venv}"
REPORTS=target/fuzz
CHECKS=not_a_server_error,response_schema_conformance,status_code_conformance,content_type_conformance,response_headers_conformance

# shellcheck source=lib/venv.sh
source scripts/lib/venv.sh
ensure_tool schemathesis 'schemathesis>=4.32,<5'

echo "fuzz: building the reference server" >&2
# shellcheck source=lib/cargo-bin.sh
source scripts/lib/cargo-bin.sh
server="$(cargo_bin reference-server)"
mkdir -p "$REPORTS"
server_out="$(mktemp)"
server_pid=""
cleanup() {
    if [ -n "$server_pid" ] && kill -0 "$server_pid" 2>/dev/null; then
        kill "$server_pid" 2>/dev/null || true
        wait "$server_pid" 2>/dev/null || true
    fi
    rm -f "$server_out"
}
trap cleanup EXIT INT TERM

RUST_LOG="${FUZZ_SERVER_LOG:-info}" "$server" --listen 127.0.0.1:0 --demo >"$server_out" 2>"$REPORTS/server.log" &
server_pid=$!
api=""
for _ in $(seq 1 100); do
    api="$(head -n 1 "$server_out" 2>/dev/null || true)"
    [ -n "$api" ] && break
    kill -0 "$server_pid" 2>/dev/null || { echo "fuzz: the server did not start" >&2; cat "$REPORTS/server.log" >&2; exit 1; }
    sleep 0.1
done
[ -n "$api" ] || { echo "fuzz: the server printed no address" >&2; exit 1; }
echo "fuzz: server at $api (pid $server_pid), seed $SEED" >&2

# Run from the reports folder, so schemathesis keeps its cache (.schemathesis/) there.
venv_bin="$(cd "$VENV/bin" && pwd)"
cd "$REPORTS"
status=0
timeout --kill-after=10 "$((MAX_TIME + 120))" \
    "$venv_bin/schemathesis" run "$api/doc" \
    --auth admin:admin-password \
    --checks "$CHECKS" \
    --max-examples "$MAX_EXAMPLES" \
    --max-time "$MAX_TIME" \
    --seed "$SEED" \
    --workers 2 \
    --no-color \
    --report junit,ndjson,har --report-dir . \
    || status=$?

if ! kill -0 "$server_pid" 2>/dev/null; then
    server_status=0
    wait "$server_pid" || server_status=$?
    server_pid=""
    echo "fuzz: the server died during the run (exit status $server_status); the end of its log:" >&2
    tail -n 5 server.log >&2
    status=1
fi
if [ "$status" -eq 0 ]; then
    echo "fuzz: passed (seed $SEED)"
else
    echo "fuzz: FAILED with status $status (seed $SEED; reports in $REPORTS, server log in $REPORTS/server.log)" >&2
fi
exit "$status"
