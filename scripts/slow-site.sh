#!/usr/bin/env bash
# Times the whole suite against a slow site: a reference server started apart (as a real site
# is, so the runner's --base-url path is measured) with a latency fault of 50 ms on every
# request, a stand-in for a site across a network.
#
# Builds the debug binaries (the dev profile optimises the dependencies), starts the server on a
# free port of 127.0.0.1 with `--fault latency,ms=50`, runs the suite against it with the five
# default users, prints the runner's last lines and the wall time, and stops the server by its
# PID (at the end, on error and on Ctrl-C). Arguments go to the runner:
#
#   scripts/slow-site.sh                       # the runner's default threads
#   scripts/slow-site.sh --test-threads 2      # as many threads as a 2-core machine has
#   SLOW_SITE_MS=100 scripts/slow-site.sh 'events/'
#
# Settings (environment):
#   SLOW_SITE_MS              the latency added to every request, in ms (50)
#   SLOW_SITE_TIMEOUT         seconds the run may take before it is stopped (600)
#   SLOW_SITE_CONFORMANCE_BIN, SLOW_SITE_SERVER_BIN
#                             use these binaries instead of building (e.g. a copy of an earlier
#                             build, to compare two versions)
#
# Exit status: the runner's (0: every case passed), or 1 when the server did not start.
set -euo pipefail
cd "$(dirname "$0")/.."

case "${1:-}" in
    -h | --help)
        sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'
        exit 0
        ;;
esac
MS="${SLOW_SITE_MS:-50}"
TIMEOUT="${SLOW_SITE_TIMEOUT:-600}"
CONFORMANCE="${SLOW_SITE_CONFORMANCE_BIN:-}"
SERVER="${SLOW_SITE_SERVER_BIN:-}"
if [ -z "$CONFORMANCE" ] || [ -z "$SERVER" ]; then
    cargo build --quiet -p conformance -p reference-server
    target="$(cargo metadata --format-version 1 --no-deps | python3 -c 'import json,sys; print(json.load(sys.stdin)["target_directory"])')"
    CONFORMANCE="${CONFORMANCE:-$target/debug/conformance}"
    SERVER="${SERVER:-$target/debug/reference-server}"
fi

work="$(mktemp -d)"
server_pid=""
cleanup() {
    if [ -n "$server_pid" ]; then
        kill "$server_pid" 2>/dev/null || true
        wait "$server_pid" 2>/dev/null || true
    fi
    rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

"$SERVER" --listen 127.0.0.1:0 --fault "latency,ms=$MS" >"$work/server.out" 2>&1 &
server_pid=$!
base=""
for _ in $(seq 100); do
    base="$(head -n 1 "$work/server.out" | sed -n 's#^\(http://127\.0\.0\.1:[0-9]*/wp-json\)/.*#\1#p')"
    [ -n "$base" ] && break
    kill -0 "$server_pid" 2>/dev/null || break
    sleep 0.1
done
if [ -z "$base" ]; then
    cat "$work/server.out" >&2
    echo "slow-site: the reference server did not start" >&2
    exit 1
fi
echo "slow-site: $base, ${MS} ms of latency on every request; conformance --base-url $base $*" >&2

started=$(date +%s.%N)
status=0
timeout "$TIMEOUT" "$CONFORMANCE" --base-url "$base" \
    --auth administrator=admin:admin-password --auth editor=editor:editor-password \
    --auth author=author:author-password --auth contributor=contributor:contributor-password \
    --auth subscriber=subscriber:subscriber-password "$@" >"$work/run.out" 2>&1 || status=$?
ended=$(date +%s.%N)
grep -E '^(test result|conformance:|verdict)' "$work/run.out" || tail -n 20 "$work/run.out"
[ "$status" = 124 ] && echo "slow-site: stopped after ${TIMEOUT} s" >&2
if [ "$status" != 0 ]; then
    grep -A 12 '^failures:' "$work/run.out" | head -n 40 >&2 || true
fi
printf 'slow-site: the suite took %.1f s (exit status %s)\n' "$(echo "$ended - $started" | bc -l)" "$status"
exit "$status"
