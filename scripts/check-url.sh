#!/usr/bin/env bash
# Runs the conformance suite over HTTP against a separately started reference server, the way
# one checks an outside implementation. Extra arguments go to `conformance` (a name filter,
# --level must, --junit FILE, ...).
#
#   scripts/check-url.sh                    # start the reference server, run every case
#   scripts/check-url.sh --level must
#   BASE_URL=http://host/wp-json scripts/check-url.sh --auth administrator=u:p   # your own server
set -euo pipefail
cd "$(dirname "$0")/.."

# shellcheck source=lib/cargo-bin.sh
source scripts/lib/cargo-bin.sh
conformance="$(cargo_bin conformance)"

if [[ -n "${BASE_URL:-}" ]]; then
    exec "$conformance" --base-url "$BASE_URL" "$@"
fi

out="$(mktemp)"
"$(cargo_bin reference-server)" --listen 127.0.0.1:0 >"$out" 2>"$out.err" &
server_pid=$!
stop() {
    kill "$server_pid" 2>/dev/null || true
    wait "$server_pid" 2>/dev/null || true
    rm -f "$out" "$out.err"
}
trap stop EXIT

# The first stdout line is the full API URL: {base_url}/calendar/events/v1.
for _ in $(seq 1 100); do
    [[ -s "$out" ]] && break
    if ! kill -0 "$server_pid" 2>/dev/null; then
        echo "check-url: the reference server did not start:" >&2
        cat "$out.err" >&2
        exit 2
    fi
    sleep 0.1
done
api_url="$(head -n 1 "$out")"
if [[ "$api_url" != http*://*/calendar/events/v1 ]]; then
    echo "check-url: unexpected first line from the reference server: $api_url" >&2
    exit 2
fi
base_url="${api_url%/calendar/events/v1}"
echo "check-url: reference server (pid $server_pid) at $base_url" >&2

status=0
"$conformance" --base-url "$base_url" \
    --auth administrator=admin:admin-password \
    --auth editor=editor:editor-password \
    --auth author=author:author-password \
    --auth contributor=contributor:contributor-password \
    --auth subscriber=subscriber:subscriber-password \
    "$@" || status=$?
exit "$status"
