#!/usr/bin/env bash
# Benchmarks the reference server over HTTP against a bare axum JSON server (the ceiling).
#
# Builds both in release mode, then for each size N: starts the server on a free port of
# 127.0.0.1 with `--seed-events N`, measures the ceiling's two endpoints and every request shape
# with wrk, and the server's resident memory (RSS). Prints one table (req/s, p50, p99, ratio to
# the ceiling endpoint of the same size, response size, errors, the CPU share other processes
# took during the run)
# and the memory per stored event; writes the same as JSON.
#
#   scripts/bench.sh                         # N = 1000 and 100000
#   scripts/bench.sh --million               # N = 1000, 100000 and 1000000
#   BENCH_SIZES="1000 10000" scripts/bench.sh
#   BENCH_SHAPES="search,featured" BENCH_SIZES=100000 scripts/bench.sh   # re-run some shapes
#
# Settings (environment):
#   BENCH_SIZES               event counts to seed (default "1000 100000")
#   BENCH_THREADS             wrk threads (2)
#   BENCH_CONNECTIONS         wrk connections (32)
#   BENCH_CREATE_CONNECTIONS  connections of the extra create run (8)
#   BENCH_DURATION            duration of each wrk run (8s)
#   BENCH_WRK_TIMEOUT         wrk's per-request timeout (10s)
#   BENCH_CLOCK               the server's --clock (2026-11-22T01:42:13Z): the seed's dates
#                             are relative to it
#   BENCH_SHAPES              comma-separated shape names to run (default: all; "api memory"
#                             names the measure below)
#   BENCH_API_EVENTS          events to create through the API on an empty server, to measure
#                             the memory of API-created events with short texts (100000; 0:
#                             skip)
#   BENCH_JSON                where the JSON goes (default: TARGET/bench/bench.json)
#   BENCH_START_TIMEOUT       seconds to wait for a seeded server to answer (600)
#   BENCH_NICE                run the servers and wrk at this niceness (e.g. -10, as root) so
#                             that other work on a shared machine disturbs them less
#   BENCH_SERVER_BIN, BENCH_CEILING_BIN
#                             use these binaries instead of building (e.g. a copy of an
#                             earlier release build, to compare two versions in one sitting)
#
# Needs curl, python3 and wrk (installed with apt-get when missing and running as root).
# Every process it starts is stopped by its PID at the end, on error and on Ctrl-C.
set -euo pipefail
cd "$(dirname "$0")/.."

SIZES="${BENCH_SIZES:-1000 100000}"
for arg in "$@"; do
    case "$arg" in
        --million) SIZES="$SIZES 1000000" ;;
        -h | --help)
            sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'
            exit 0
            ;;
        *)
            echo "bench: unknown argument $arg (try --help)" >&2
            exit 2
            ;;
    esac
done
THREADS="${BENCH_THREADS:-2}"
CONNECTIONS="${BENCH_CONNECTIONS:-32}"
CREATE_CONNECTIONS="${BENCH_CREATE_CONNECTIONS:-8}"
DURATION="${BENCH_DURATION:-8s}"
WRK_TIMEOUT="${BENCH_WRK_TIMEOUT:-10s}"
CLOCK="${BENCH_CLOCK:-2026-11-22T01:42:13Z}"
SHAPES=",${BENCH_SHAPES:-},"
START_TIMEOUT="${BENCH_START_TIMEOUT:-600}"
NICE=()
[ -n "${BENCH_NICE:-}" ] && NICE=(nice -n "$BENCH_NICE")
HELPER="scripts/bench/helper.py"
# The default users' administrator, who may create and edit any event.
AUTH="Basic $(printf '%s' 'admin:admin-password' | base64)"

# ----- tools -----

for tool in curl python3; do
    command -v "$tool" >/dev/null || { echo "bench: $tool is needed" >&2; exit 1; }
done
if ! command -v wrk >/dev/null; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
        echo "bench: installing wrk" >&2
        apt-get install -y -qq wrk >/dev/null 2>&1 || { apt-get update -qq >/dev/null && apt-get install -y -qq wrk >/dev/null; }
    fi
    command -v wrk >/dev/null || { echo "bench: wrk is needed (Debian package wrk)" >&2; exit 1; }
fi

# ----- build (cargo says where the binaries are, so CARGO_TARGET_DIR is honoured) -----

echo "bench: building in release mode (unless BENCH_SERVER_BIN / BENCH_CEILING_BIN are set)" >&2
# Two invocations: the server binary is built as `cargo build --release --features jemalloc`
# builds it (the allocator it is measured with), without the features the example's
# dev-dependencies would add to shared crates.
SERVER_BIN="${BENCH_SERVER_BIN:-}"
if [ -z "$SERVER_BIN" ]; then
    SERVER_BIN="$(cargo build --release --quiet -p reference-server --features jemalloc --bin reference-server --message-format=json-render-diagnostics \
        | python3 "$HELPER" artifact reference-server)"
fi
CEILING_BIN="${BENCH_CEILING_BIN:-}"
if [ -z "$CEILING_BIN" ]; then
    CEILING_BIN="$(cargo build --release --quiet -p reference-server --features ceiling --example ceiling --message-format=json-render-diagnostics \
        | python3 "$HELPER" artifact ceiling)"
fi
TARGET_DIR="$(cargo metadata --format-version 1 --no-deps | python3 "$HELPER" target-dir)"
OUT_JSON="${BENCH_JSON:-$TARGET_DIR/bench/bench.json}"
WORK="$TARGET_DIR/bench/run-$(date +%Y%m%d-%H%M%S)"
mkdir -p "$WORK" "$(dirname "$OUT_JSON")"
cat scripts/bench/report.lua >"$WORK/report.lua"
cat scripts/bench/write.lua scripts/bench/report.lua >"$WORK/write.lua"
cat scripts/bench/write.lua scripts/bench/limit.lua scripts/bench/report.lua >"$WORK/create-n.lua"
RESULTS="$WORK/results.tsv"
MEMORY="$WORK/memory.tsv"
: >"$RESULTS"
: >"$MEMORY"

# ----- processes -----

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
trap 'echo "bench: interrupted" >&2; exit 130' INT
trap 'exit 143' TERM

# start NAME COMMAND...: starts a program that prints its address on its first line; sets
# STARTED_PID and STARTED_URL.
start() {
    local name="$1"
    shift
    local out="$WORK/$name.out"
    : >"$out"
    "${NICE[@]}" "$@" >"$out" 2>"$WORK/$name.log" &
    STARTED_PID=$!
    PIDS+=("$STARTED_PID")
    STARTED_URL=""
    local waited=0
    while [ -z "$STARTED_URL" ]; do
        STARTED_URL="$(head -n 1 "$out" 2>/dev/null || true)"
        [ -n "$STARTED_URL" ] && break
        if ! kill -0 "$STARTED_PID" 2>/dev/null; then
            echo "bench: $name did not start; its log:" >&2
            tail -n 20 "$WORK/$name.log" >&2
            exit 1
        fi
        if [ "$waited" -ge $((START_TIMEOUT * 10)) ]; then
            echo "bench: $name printed no address within ${START_TIMEOUT}s" >&2
            exit 1
        fi
        sleep 0.1
        waited=$((waited + 1))
    done
}

stop() {
    local pid="$1" kept=() other
    kill "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
    for other in "${PIDS[@]}"; do
        [ "$other" != "$pid" ] && kept+=("$other")
    done
    PIDS=("${kept[@]+"${kept[@]}"}")
}

rss_kb() {
    awk '/^VmRSS:/ {print $2}' "/proc/$1/status"
}

load_average() {
    cut -d ' ' -f 1 /proc/loadavg
}

# CPU time in clock ticks: of the whole machine (busy, and busy + idle), and of one process
# with all its threads.
machine_ticks() {
    awk '/^cpu / {print $2 + $3 + $4 + $7 + $8 + $9, $2 + $3 + $4 + $5 + $6 + $7 + $8 + $9}' /proc/stat
}

process_ticks() {
    awk '{print $14 + $15}' "/proc/$1/stat" 2>/dev/null || echo 0
}

wanted() {
    [ "$SHAPES" = ",," ] || [[ "$SHAPES" == *",$1,"* ]]
}

# measure N SHAPE URL CEILING [CONNECTIONS [WRITE_PATH WRITE_BODY]]: one wrk run against the
# process TARGET_PID, one row of the results. CEILING is the ceiling endpoint the shape compares
# to (one or list). Besides wrk's figures it records the share of the machine's CPU that other
# processes (neither the target nor wrk) used during the run: above a few percent, the run
# was disturbed.
measure() {
    local n="$1" shape="$2" url="$3" ceiling="$4" connections="${5:-$CONNECTIONS}"
    local write_path="${6:-}" write_body="${7:-}" script="$WORK/report.lua" bytes status
    wanted "$shape" || [[ "$shape" == ceiling* ]] || return 0
    if [ -n "$write_path" ]; then
        script="$WORK/write.lua"
        # The size and status of one such write (it is one more write in the store).
        read -r status bytes < <(curl -s -o /dev/null -w '%{http_code} %{size_download}\n' -X POST \
            -H 'Content-Type: application/json' -H "Authorization: $AUTH" \
            --data "${write_body//@/probe}" "${url%%/wp-json*}$write_path")
    else
        read -r status bytes < <(curl -s -o /dev/null -w '%{http_code} %{size_download}\n' "$url")
    fi
    local load
    load="$(load_average)"
    local log="$WORK/wrk-$n-${shape// /-}-c$connections.txt"
    echo "bench: N=$n $shape (c$connections, load $load)" >&2
    local machine_before target_before wrk_seconds machine_after target_after others
    machine_before="$(machine_ticks)"
    target_before="$(process_ticks "$TARGET_PID")"
    wrk_seconds="$( { TIMEFORMAT='%U %S'; time {
        BENCH_WRITE_PATH="$write_path" BENCH_WRITE_BODY="$write_body" BENCH_WRITE_AUTH="$AUTH" \
            timeout --foreground --kill-after=5 "$(( ${DURATION%s} + 60 ))" \
            "${NICE[@]}" wrk -t"$THREADS" -c"$connections" -d"$DURATION" --timeout "$WRK_TIMEOUT" --latency -s "$script" "$url" \
            >"$log" 2>&1 || true
    }; } 2>&1 | awk '{print $1 + $2}')"
    machine_after="$(machine_ticks)"
    target_after="$(process_ticks "$TARGET_PID")"
    others="$(awk -v b="$machine_before" -v a="$machine_after" -v tb="$target_before" -v ta="$target_after" \
        -v w="$wrk_seconds" -v hz="$(getconf CLK_TCK)" 'BEGIN {
            split(b, mb, " "); split(a, ma, " ");
            total = ma[2] - mb[2]; busy = ma[1] - mb[1];
            if (total <= 0) { print ""; exit }
            other = busy - (ta - tb) - w * hz; if (other < 0) other = 0;
            printf "%.0f", 100 * other / total }')"
    local line rps requests duration p50 p99 status_errors socket_errors
    line="$(grep '^BENCH ' "$log" || true)"
    if [ -z "$line" ]; then
        echo "bench: wrk gave no figures for $shape; see $log" >&2
        printf '%s\t%s\t%s\t%s\t\t\t\t0\t0\t%s\t%s\t%s\t%s\t%s\n' "$n" "$shape" "${url#*/wp-json}" "$connections" \
            "$status" "$bytes" "$ceiling" "$load" "$others" >>"$RESULTS"
        return 0
    fi
    requests="$(sed 's/.*requests=\([0-9]*\).*/\1/' <<<"$line")"
    duration="$(sed 's/.*duration_us=\([0-9]*\).*/\1/' <<<"$line")"
    p50="$(sed 's/.*p50_us=\([0-9]*\).*/\1/' <<<"$line")"
    p99="$(sed 's/.*p99_us=\([0-9]*\).*/\1/' <<<"$line")"
    status_errors="$(sed 's/.*status_errors=\([0-9]*\).*/\1/' <<<"$line")"
    socket_errors="$(sed 's/.*socket_errors=\([0-9]*\).*/\1/' <<<"$line")"
    rps="$(awk -v r="$requests" -v d="$duration" 'BEGIN { if (d > 0) printf "%.1f", r * 1000000 / d }')"
    local shown="${url#*/wp-json}"
    [ -n "$write_path" ] && shown="POST ${write_path#*/wp-json}"
    [[ "$shape" == ceiling* ]] && shown="${url#http://*/}"
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$n" "$shape" "$shown" "$connections" "$rps" \
        "$p50" "$p99" "$requests" "$((status_errors + socket_errors))" "$status" "$bytes" "$ceiling" "$load" "$others" >>"$RESULTS"
}

# ----- the runs -----

start empty "$SERVER_BIN" --listen 127.0.0.1:0 --clock "$CLOCK"
sleep 0.5
RSS_EMPTY="$(rss_kb "$STARTED_PID")"
stop "$STARTED_PID"

for N in $SIZES; do
    # The ceiling, in the same conditions as the shapes of this size.
    start "ceiling-$N" "$CEILING_BIN"
    CEILING_URL="$STARTED_URL"
    CEILING_PID="$STARTED_PID"
    TARGET_PID="$CEILING_PID"
    measure "$N" "ceiling one" "$CEILING_URL/one" ""
    measure "$N" "ceiling list" "$CEILING_URL/list" ""
    stop "$CEILING_PID"

    echo "bench: seeding $N events" >&2
    seed_start="$(date +%s.%N)"
    RUST_LOG=warn start "server-$N" "$SERVER_BIN" --listen 127.0.0.1:0 --clock "$CLOCK" --seed-events "$N"
    seed_seconds="$(awk -v s="$seed_start" -v e="$(date +%s.%N)" 'BEGIN { printf "%.2f", e - s }')"
    API="$STARTED_URL"
    SERVER_PID="$STARTED_PID"
    TARGET_PID="$SERVER_PID"
    RSS_SEEDED="$(rss_kb "$SERVER_PID")"
    eval "$(curl -sf "$API/events?per_page=50" | python3 "$HELPER" pick)"
    # Page 100 of 50, or the last full page when there are fewer: every size reads a full page.
    DEEP_PAGE=$((TOTAL_PAGES_50 <= 100 ? (TOTAL_PAGES_50 > 1 ? TOTAL_PAGES_50 - 1 : 1) : 100))
    # The category + venue filter: the venue of the first listed event that has one, and the
    # top-level category (with its descendants) with the most upcoming events there, so that
    # the page of 10 is full at every size as well.
    best=0
    for slug in $(curl -sf "$API/categories?per_page=50" | python3 "$HELPER" top-categories); do
        found="$(curl -s -D - -o /dev/null "$API/events?categories=$slug&venue=$VENUE_ID&per_page=1" \
            | awk 'tolower($1) == "x-tec-total:" {print $2 + 0}')"
        if [ "${found:-0}" -gt "$best" ]; then
            best="$found"
            CATEGORY_SLUG="$slug"
        fi
    done
    # Creates start a month after the clock, in the category and venue of the filter shape.
    START_DAY="$(date -u -d "${CLOCK%%T*} + 30 days" +%Y-%m-%d)"
    CREATE_BODY="{\"title\":\"Benchmark create @\",\"status\":\"publish\",\"start_date\":\"$START_DAY 19:00:00\",\"end_date\":\"$START_DAY 21:00:00\",\"categories\":[$CATEGORY_ID],\"venue\":$VENUE_ID,\"description\":\"<p>Written by scripts/bench.sh -- request @.</p>\"}"

    measure "$N" "event by ID" "$API/events/$EVENT_ID" one
    measure "$N" "event by slug" "$API/events/by-slug/$EVENT_SLUG" one
    measure "$N" "default list" "$API/events" list
    measure "$N" "deep page" "$API/events?per_page=50&page=$DEEP_PAGE" list
    measure "$N" "search" "$API/events?search=night&per_page=50" list
    measure "$N" "category + venue" "$API/events?categories=$CATEGORY_SLUG&venue=$VENUE_ID" list
    measure "$N" "featured" "$API/events?featured=true" list
    measure "$N" "venues list" "$API/venues" list
    measure "$N" "term list" "$API/categories" list
    # Writes last, since they add to the store: the update first, then creates with the
    # target's 8 clients, then with as many as the reads.
    API_PATH="/wp-json${API#*/wp-json}"
    measure "$N" "update" "$API/events/$EVENT_ID" one "$CONNECTIONS" "$API_PATH/events/$EVENT_ID" '{"title":"Updated by the benchmark @"}'
    measure "$N" "create" "$API/events" one "$CREATE_CONNECTIONS" "$API_PATH/events" "$CREATE_BODY"
    measure "$N" "create" "$API/events" one "$CONNECTIONS" "$API_PATH/events" "$CREATE_BODY"

    RSS_END="$(rss_kb "$SERVER_PID")"
    printf '%s\t%s\t%s\t%s\t%s\n' "$N" "$seed_seconds" "$RSS_EMPTY" "$RSS_SEEDED" "$RSS_END" >>"$MEMORY"
    stop "$SERVER_PID"
done

# ----- memory of events created through the API (short texts) -----

API_EVENTS="${BENCH_API_EVENTS:-100000}"
if [ "$API_EVENTS" -gt 0 ] && wanted "api memory"; then
    RUST_LOG=warn start "api-memory" "$SERVER_BIN" --listen 127.0.0.1:0 --clock "$CLOCK"
    API="$STARTED_URL"
    SERVER_PID="$STARTED_PID"
    sleep 0.5
    RSS_BEFORE="$(rss_kb "$SERVER_PID")"
    START_DAY="$(date -u -d "${CLOCK%%T*} + 30 days" +%Y-%m-%d)"
    API_PATH="/wp-json${API#*/wp-json}"
    BODY="{\"title\":\"API event @\",\"status\":\"publish\",\"start_date\":\"$START_DAY 19:00:00\",\"end_date\":\"$START_DAY 21:00:00\",\"description\":\"Created through the API by scripts/bench.sh.\"}"
    echo "bench: creating $API_EVENTS events through the API" >&2
    created() {
        curl -s -D - -o /dev/null "$API/events?per_page=1&start_date=$START_DAY&end_date=$START_DAY" \
            | awk 'tolower($1) == "x-tec-total:" {print $2 + 0}'
    }
    api_start="$(date +%s.%N)"
    # Each wrk thread stops after its share, but wrk itself waits for its duration: it is
    # stopped once the server holds them all (or after 30 minutes).
    BENCH_WRITE_PATH="$API_PATH/events" BENCH_WRITE_BODY="$BODY" BENCH_WRITE_AUTH="$AUTH" \
        BENCH_WRITE_LIMIT="$(( (API_EVENTS + THREADS - 1) / THREADS ))" \
        "${NICE[@]}" wrk -t"$THREADS" -c"$CREATE_CONNECTIONS" -d1800s \
        --timeout "$WRK_TIMEOUT" -s "$WORK/create-n.lua" "$API/events" >"$WORK/wrk-api-memory.txt" 2>&1 &
    WRK_PID=$!
    PIDS+=("$WRK_PID")
    waited=0
    while kill -0 "$WRK_PID" 2>/dev/null && [ "$(created)" -lt "$API_EVENTS" ] && [ "$waited" -lt 18000 ]; do
        sleep 0.1
        waited=$((waited + 1))
    done
    api_seconds="$(awk -v s="$api_start" -v e="$(date +%s.%N)" 'BEGIN { printf "%.2f", e - s }')"
    stop "$WRK_PID"
    sleep 0.5
    RSS_AFTER="$(rss_kb "$SERVER_PID")"
    CREATED="$(created)"
    printf 'api\t%s\t%s\t%s\t%s\n' "${CREATED:-0}" "$api_seconds" "$RSS_BEFORE" "$RSS_AFTER" >>"$MEMORY"
    stop "$SERVER_PID"
fi

# ----- the report -----

{
    echo "date=$(date -u +%Y-%m-%dT%H:%M:%SZ)"
    if [ -n "${BENCH_SERVER_BIN:-}" ]; then
        echo "commit=binary $BENCH_SERVER_BIN"
    else
        echo "commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)$(git diff --quiet HEAD -- 2>/dev/null || echo '+changes')"
    fi
    echo "threads=$THREADS"
    echo "connections=$CONNECTIONS"
    echo "create_connections=$CREATE_CONNECTIONS"
    echo "duration=$DURATION"
    echo "nice=${BENCH_NICE:-0}"
    echo "clock=$CLOCK"
    echo "cpus=$(nproc)"
    echo "cpu_model=$(awk -F': ' '/^model name/ {print $2; exit}' /proc/cpuinfo)"
    echo "memory=$(awk '/^MemTotal:/ {printf "%.1f GiB RAM", $2 / 1048576}' /proc/meminfo)"
} >"$WORK/meta.env"
echo
python3 "$HELPER" report "$RESULTS" "$MEMORY" "$WORK/meta.env" "$OUT_JSON"
echo "raw wrk output: $WORK"
