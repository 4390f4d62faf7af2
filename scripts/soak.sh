#!/usr/bin/env bash
# A soak test of the reference server (issue 9): mixed reads and writes from 32 clients for a
# minute against a server holding 100,000 events. Reports the requests and errors (there must
# be none) of each kind of request, their p50 and p99, and the server's resident memory (RSS)
# at the start and the end. Exits 1 when any request failed.
#
#   scripts/soak.sh
#   SOAK_DURATION=20s SOAK_EVENTS=10000 scripts/soak.sh
#
# Settings (environment):
#   SOAK_EVENTS       events to seed (100000)
#   SOAK_DURATION     how long the clients run (60s)
#   SOAK_CLOCK        the server's --clock (2026-11-22T01:42:13Z)
#   SOAK_SERVER_BIN   use this binary instead of building one in release mode
#   SOAK_NICE         run the server and the clients at this niceness
#
# The 32 clients are one wrk per kind of request, each with its share of the connections:
# event by ID (random events), the default list, random pages of 50, search (random words),
# a category filter, featured events, the venues list, creates and updates (random events)
# as the administrator. Everything runs on 127.0.0.1; each wrk is bounded in time, and every
# process the script starts is stopped by its PID, on error and on Ctrl-C too. Needs curl,
# python3 and wrk (installed with apt-get when missing and running as root).
set -euo pipefail
cd "$(dirname "$0")/.."

for arg in "$@"; do
    case "$arg" in
        -h | --help)
            sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'
            exit 0
            ;;
        *)
            echo "soak: unknown argument $arg (try --help)" >&2
            exit 2
            ;;
    esac
done
EVENTS="${SOAK_EVENTS:-100000}"
DURATION="${SOAK_DURATION:-60s}"
CLOCK="${SOAK_CLOCK:-2026-11-22T01:42:13Z}"
NICE=()
[ -n "${SOAK_NICE:-}" ] && NICE=(nice -n "$SOAK_NICE")
AUTH="Basic $(printf '%s' 'admin:admin-password' | base64)"

for tool in curl python3; do
    command -v "$tool" >/dev/null || { echo "soak: $tool is needed" >&2; exit 1; }
done
if ! command -v wrk >/dev/null; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
        apt-get install -y -qq wrk >/dev/null 2>&1 || { apt-get update -qq >/dev/null && apt-get install -y -qq wrk >/dev/null; }
    fi
    command -v wrk >/dev/null || { echo "soak: wrk is needed (Debian package wrk)" >&2; exit 1; }
fi

SERVER_BIN="${SOAK_SERVER_BIN:-}"
if [ -z "$SERVER_BIN" ]; then
    echo "soak: building in release mode" >&2
    SERVER_BIN="$(cargo build --release --quiet -p reference-server --features jemalloc --bin reference-server --message-format=json-render-diagnostics \
        | python3 scripts/bench/helper.py artifact reference-server)"
fi
TARGET_DIR="$(cargo metadata --format-version 1 --no-deps | python3 scripts/bench/helper.py target-dir)"
WORK="$TARGET_DIR/soak/run-$(date +%Y%m%d-%H%M%S)"
mkdir -p "$WORK"
cat scripts/soak/soak.lua scripts/bench/report.lua >"$WORK/soak.lua"

PIDS=()
cleanup() {
    local pid
    for pid in "${PIDS[@]}"; do
        if kill -0 "$pid" 2>/dev/null; then
            kill "$pid" 2>/dev/null || true
            wait "$pid" 2>/dev/null || true
        fi
    done
    PIDS=()
}
trap cleanup EXIT
trap 'echo "soak: interrupted" >&2; exit 130' INT
trap 'exit 143' TERM

rss_kb() {
    awk '/^VmRSS:/ {print $2}' "/proc/$1/status"
}

echo "soak: seeding $EVENTS events" >&2
: >"$WORK/server.out"
RUST_LOG=warn "${NICE[@]}" "$SERVER_BIN" --listen 127.0.0.1:0 --clock "$CLOCK" --seed-events "$EVENTS" \
    >"$WORK/server.out" 2>"$WORK/server.log" &
SERVER_PID=$!
PIDS+=("$SERVER_PID")
API=""
while [ -z "$API" ]; do
    API="$(head -n 1 "$WORK/server.out" 2>/dev/null || true)"
    [ -n "$API" ] && break
    kill -0 "$SERVER_PID" 2>/dev/null || { echo "soak: the server did not start" >&2; tail -n 20 "$WORK/server.log" >&2; exit 1; }
    sleep 0.2
done
ORIGIN="${API%%/wp-json*}"
API_PATH="/wp-json${API#*/wp-json}"

# The targets: events from a few pages of the list, category slugs, a start date.
TARGETS="$(python3 - "$API" <<'PY'
import json, sys, urllib.request
api = sys.argv[1]
def get(path):
    with urllib.request.urlopen(api + path, timeout=60) as answer:
        return json.load(answer)
ids = []
for page in (1, 5, 20, 60):
    try:
        ids += [e["id"] for e in get(f"/events?per_page=50&page={page}")["events"]]
    except Exception:
        pass
slugs = [c["slug"] for c in get("/categories?per_page=50")["categories"]]
print(" ".join(str(i) for i in ids[:150]))
print(" ".join(slugs[:20]))
PY
)"
IDS="$(sed -n 1p <<<"$TARGETS")"
SLUGS="$(sed -n 2p <<<"$TARGETS")"
[ -n "$IDS" ] || { echo "soak: the server lists no event" >&2; exit 1; }
START_DAY="$(date -u -d "${CLOCK%%T*} + 30 days" +%Y-%m-%d)"
join_paths() {
    local prefix="$1" suffix="$2" out="" item
    shift 2
    for item in "$@"; do
        out+="${out:+|}$API_PATH$prefix$item$suffix"
    done
    printf '%s' "$out"
}
read -r -a ID_LIST <<<"$IDS"
read -r -a SLUG_LIST <<<"$SLUGS"
PAGES=()
for n in $(seq 1 100); do PAGES+=("$n"); done
WORDS=(jazz night market workshop festival the open food music garden)

RSS_START="$(rss_kb "$SERVER_PID")"
echo "soak: $DURATION of mixed requests from 32 clients (RSS at start $((RSS_START / 1024)) MB)" >&2

# kind connections paths [body]
KINDS=(
    "event by ID|4|$(join_paths /events/ "" "${ID_LIST[@]}")|"
    "default list|4|$API_PATH/events|"
    "page of 50|4|$(join_paths "/events?per_page=50&page=" "" "${PAGES[@]}")|"
    "search|4|$(join_paths "/events?per_page=50&search=" "" "${WORDS[@]}")|"
    "category filter|4|$(join_paths "/events?categories=" "" "${SLUG_LIST[@]}")|"
    "featured|2|$API_PATH/events?featured=true|"
    "venues list|2|$API_PATH/venues|"
    "create|4|$API_PATH/events|{\"title\":\"Soak create @\",\"status\":\"publish\",\"start_date\":\"$START_DAY 19:00:00\",\"end_date\":\"$START_DAY 21:00:00\",\"description\":\"Written by scripts/soak.sh, request @.\"}"
    "update|4|$(join_paths /events/ "" "${ID_LIST[@]}")|{\"title\":\"Soak update @\"}"
)
WRK_PIDS=()
index=0
for kind in "${KINDS[@]}"; do
    IFS='|' read -r name connections _ <<<"$kind"
    rest="${kind#*|}"
    rest="${rest#*|}"
    body="${rest##*|}"
    paths="${rest%|*}"
    SOAK_PATHS="$paths" SOAK_BODY="$body" SOAK_AUTH="$AUTH" \
        timeout --foreground --kill-after=5 "$(( ${DURATION%s} + 60 ))" \
        "${NICE[@]}" wrk -t1 -c"$connections" -d"$DURATION" --timeout 10s --latency -s "$WORK/soak.lua" "$ORIGIN" \
        >"$WORK/wrk-$index.txt" 2>&1 &
    WRK_PIDS+=("$!")
    PIDS+=("$!")
    printf '%s\t%s\n' "$name" "$connections" >"$WORK/kind-$index.txt"
    index=$((index + 1))
done
for pid in "${WRK_PIDS[@]}"; do
    wait "$pid" || true
done
RSS_END="$(rss_kb "$SERVER_PID")"
kill -0 "$SERVER_PID" 2>/dev/null || { echo "soak: the server died" >&2; exit 1; }

python3 - "$WORK" "$index" "$RSS_START" "$RSS_END" "$EVENTS" "$DURATION" <<'PY'
import re, sys
work, kinds, rss_start, rss_end, events, duration = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]), sys.argv[6]
rows, total, errors = [], 0, 0
for index in range(kinds):
    name, connections = open(f"{work}/kind-{index}.txt").read().strip().split("\t")
    text = open(f"{work}/wrk-{index}.txt").read()
    line = next((l for l in text.splitlines() if l.startswith("BENCH ")), "")
    fields = dict(item.split("=") for item in line.split()[1:]) if line else {}
    if not fields:
        rows.append((name, connections, "-", "-", "no figures", "-", "-"))
        errors += 1
        continue
    requests, seconds = int(fields["requests"]), int(fields["duration_us"]) / 1e6
    failed = int(fields["status_errors"]) + int(fields["socket_errors"])
    total += requests
    errors += failed
    rows.append((name, connections, f"{requests:,}", f"{requests / seconds:,.0f}", f"{failed}",
                 f"{int(fields['p50_us']) / 1000:.2f} ms", f"{int(fields['p99_us']) / 1000:.2f} ms"))
head = ("kind", "clients", "requests", "req/s", "errors", "p50", "p99")
widths = [max(len(str(r[i])) for r in rows + [head]) for i in range(len(head))]
line = lambda r: "| " + " | ".join(str(c).rjust(w) if i else str(c).ljust(w) for i, (c, w) in enumerate(zip(r, widths))) + " |"
print(line(head))
print("|" + "|".join("-" * (w + 2) for w in widths) + "|")
for row in rows:
    print(line(row))
print(f"\n{events:,} events seeded, {duration} from 32 clients: {total:,} requests, {errors} errors; "
      f"RSS {rss_start / 1024:.1f} MB at the start, {rss_end / 1024:.1f} MB at the end")
sys.exit(1 if errors else 0)
PY
status=$?
echo "raw wrk output: $WORK"
exit "$status"
