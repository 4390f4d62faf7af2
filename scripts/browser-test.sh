#!/usr/bin/env bash
# Browser test of the site's pages: starts the reference server with --demo --admin on a free
# port of 127.0.0.1, adds an event whose title is markup and makes two refused requests, then
# runs headless Chromium on the calendar (/ and /fr/) and on the request journal (/__admin/)
# and checks the DOM after the scripts ran:
#   - the month view shows the demo's event titles, the upcoming list their venues;
#   - the title "<script>…<img onerror>" is shown as text: no script ran, no element was made;
#   - the French page is in French;
#   - the journal shows the refused request with its reason in words and the near-miss hint,
#     and its paths may wrap only between segments; /__admin/#open=1 shows the first request's
#     body, its markup as text;
#   - a second server started with --fixtures and --stub (the upcoming list answers a stubbed
#     503): its calendar shows the fixture's events in the month view and the stubbed error;
#   - a third started with --proxy-to in front of the first: its journal names the two requests
#     that break the interface (with the near miss) and not the correct one.
# Screenshots go to $SCREENSHOTS (default target/browser-test); `--update-docs` writes them to
# docs/ for the README. Needs Debian's chromium (CI installs it) and python3.
set -euo pipefail
cd "$(dirname "$0")/.."

out="${SCREENSHOTS:-target/browser-test}"
if [ "${1:-}" = "--update-docs" ]; then
    out="docs"
fi
mkdir -p "$out" target/browser-test
chromium_bin="$(command -v chromium || command -v chromium-browser || true)"
[ -n "$chromium_bin" ] || { echo "browser-test: chromium is not installed (apt-get install -y chromium)" >&2; exit 2; }

cargo build --quiet -p reference-server
work="$(mktemp -d)"
server_pids=()
cleanup() {
    for pid in "${server_pids[@]}"; do
        if kill -0 "$pid" 2>/dev/null; then
            kill "$pid" 2>/dev/null || true
            wait "$pid" 2>/dev/null || true
        fi
    done
    rm -rf "$work"
}
trap cleanup EXIT INT TERM

started_api=""
start_server() { # NAME ARGS...: starts a server on a free loopback port; its API address in $started_api
    local name="$1" pid
    shift
    target/debug/reference-server --listen 127.0.0.1:0 --clock 2026-11-22T10:00:00Z "$@" \
        >"$work/$name.out" 2>"$work/$name.log" &
    pid=$!
    server_pids+=("$pid")
    started_api=""
    for _ in $(seq 1 100); do
        started_api="$(head -n 1 "$work/$name.out" 2>/dev/null || true)"
        [ -n "$started_api" ] && return 0
        kill -0 "$pid" 2>/dev/null || { echo "browser-test: the $name server did not start" >&2; cat "$work/$name.log" >&2; exit 1; }
        sleep 0.1
    done
    echo "browser-test: the $name server printed no address" >&2
    exit 1
}

start_server demo --demo --admin
api="$started_api"
site="${api%%/wp-json/*}"

# An event whose title is markup, a write a subscriber may not make, and a near miss.
hostile='<script>window.__pwned=1</script><img src=x onerror="document.title=1"> Night market'
python3 - "$api" "$hostile" <<'EOF'
import base64, json, sys, urllib.request, urllib.error
api, title = sys.argv[1], sys.argv[2]
def send(method, path, body, user):
    request = urllib.request.Request(api + path, method=method, data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json",
                 "Authorization": "Basic " + base64.b64encode(f"{user}:{user}-password".encode()).decode()})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code
event = {"title": title, "start_date": "2026-11-26 18:00:00", "end_date": "2026-11-26 22:00:00",
         "venue": {"venue": "<b>Old</b> Market Hall", "city": "Lyon"}}
assert send("POST", "/events", event, "admin") == 201
assert send("POST", "/events", {"title": "Mine", "start_date": "2026-11-27 10:00", "end_date": "2026-11-27 11:00"}, "subscriber") == 403
assert send("POST", "/event", {"title": "Typo"}, "admin") == 404
try:
    urllib.request.urlopen(api + "/events?start_date=someday", timeout=10)
except urllib.error.HTTPError as error:
    assert error.code == 400
site = api.split("/wp-json/")[0]
rule = urllib.request.Request(site + "/__admin/faults", method="POST",
    data=json.dumps({"kind": "error", "status": 503, "route": "/venues"}).encode(), headers={"Content-Type": "application/json"})
assert urllib.request.urlopen(rule, timeout=10).status == 201
try:
    urllib.request.urlopen(api + "/venues", timeout=10)
except urllib.error.HTTPError as error:
    assert error.code == 503
EOF

# A client developer's own calendar (--fixtures) with one stubbed answer (--stub): the upcoming
# list fails with the stubbed error, the month view still shows the fixture's events.
cat >"$work/fixture.yaml" <<'FIXTURE'
venues:
  - ref: quay
    venue: Quai des Brumes
    city: Lyon
events:
  - ref: lanterns
    title: Lantern Walk on the Quays
    start_date: +2d 18:00
    end_date: +2d 20:00
    venue: quay
    featured: true
  - ref: market
    title: Silk Market
    start_date: +3d 09:00
    end_date: +3d 13:00
    venue: quay
  - ref: choir
    title: Winter Choir
    start_date: +4d 19:30
    end_date: +4d 21:00
    venue: quay
FIXTURE
cat >"$work/stub.yaml" <<'STUB'
name: upcoming list down
request: {method: GET, path: /events, query: {per_page: 10}}
response:
  status: 503
  body: {code: calendar_stub_outage, message: The upcoming list is down for this test, data: {status: 503}}
STUB
start_server stubbed --admin --fixtures "$work/fixture.yaml" --stub "$work/stub.yaml"
stubbed_site="${started_api%%/wp-json/*}"

# A checking proxy (--proxy-to) in front of the demo server: one correct request and two that
# break the interface (a misspelt parameter, a create without its required field).
start_server proxy --admin --proxy-to "$site/wp-json"
proxy_api="$started_api"
proxy_site="${proxy_api%%/wp-json/*}"
python3 - "$proxy_api" <<'PROXY'
import base64, json, sys, urllib.request, urllib.error
api = sys.argv[1]
def send(method, path, body=None):
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(api + path, method=method, data=data,
        headers={"Content-Type": "application/json",
                 "Authorization": "Basic " + base64.b64encode(b"admin:admin-password").decode()})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code
assert send("GET", "/events?per_page=2") == 200
assert send("GET", "/events?star_date=2026-11-01") == 200
assert send("POST", "/organizers", {"email": "club@example.org"}) == 400
PROXY

browse() { # URL OUTPUT-PREFIX: the DOM after the scripts ran, and a screenshot
    local url="$1" name="$2" profile
    profile="$(mktemp -d)"
    local flags=(--headless --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking
                 --disable-component-update --disable-sync --disable-dev-shm-usage --hide-scrollbars
                 --user-data-dir="$profile" --virtual-time-budget=8000 --window-size=1280,1100)
    timeout 60 "$chromium_bin" "${flags[@]}" --dump-dom "$url" >"target/browser-test/$name.html" 2>"$work/$name.err" || {
        echo "browser-test: chromium failed on $url" >&2; cat "$work/$name.err" >&2; exit 1; }
    rm -rf "$profile"
    profile="$(mktemp -d)"
    flags[10]="--user-data-dir=$profile"
    timeout 60 "$chromium_bin" "${flags[@]}" --screenshot="$out/$name.png" "$url" >/dev/null 2>"$work/$name-shot.err" || {
        echo "browser-test: chromium could not take a screenshot of $url" >&2; cat "$work/$name-shot.err" >&2; exit 1; }
    rm -rf "$profile"
}

browse "$site/" calendar
browse "$site/fr/" calendar-fr
browse "$site/__admin/" journal
browse "$stubbed_site/" calendar-stubbed
browse "$site/__admin/#open=1" journal-bodies
browse "$proxy_site/__admin/" journal-proxy

python3 - target/browser-test "$hostile" <<'EOF'
import sys
from html.parser import HTMLParser

class Dom(HTMLParser):
    """Elements by class and id, with their text, and every element's attributes."""
    def __init__(self):
        super().__init__()
        self.stack, self.elements = [], []
    def handle_starttag(self, tag, attrs):
        element = {"tag": tag, "attrs": dict(attrs), "text": ""}
        self.elements.append(element)
        if tag not in ("br", "img", "input", "meta", "link", "hr", "wbr"):
            self.stack.append(element)
    def handle_endtag(self, tag):
        while self.stack:
            if self.stack.pop()["tag"] == tag:
                break
    def handle_data(self, data):
        for element in self.stack:
            element["text"] += data
    def having(self, css_class):
        return [e for e in self.elements if css_class in (e["attrs"].get("class") or "").split()]
    def by_id(self, name):
        return next((e for e in self.elements if e["attrs"].get("id") == name), None)

def load(name):
    dom = Dom()
    dom.feed(open(f"{sys.argv[1]}/{name}.html", encoding="utf-8").read())
    return dom

hostile = sys.argv[2]
failures = []
def check(condition, message):
    print(("ok   " if condition else "FAIL ") + message)
    if not condition:
        failures.append(message)

calendar = load("calendar")
body = next(e for e in calendar.elements if e["tag"] == "body")
check(body["attrs"].get("data-ready") == "true", "the calendar loaded from the API (body data-ready)")
month = " | ".join(e["text"] for e in calendar.having("day-event"))
check("Late Night Jazz at the Hudson" in month, "the month view shows a demo event title")
check(calendar.by_id("month-title") and "2026" in calendar.by_id("month-title")["text"], "the month view is November 2026")
upcoming = calendar.having("event")
check(len(upcoming) >= 5, f"the upcoming list has events ({len(upcoming)})")
venues = " | ".join(e["text"] for e in calendar.having("venue"))
check("Hudson" in venues or "," in venues, "the upcoming list shows venues")
check(any(e["text"] for e in calendar.having("organizers")), "the upcoming list shows organizers")
check(any(e["text"] for e in calendar.having("category")), "the upcoming list shows categories")
titles = [e["text"] for e in calendar.having("event-title")] + [e["text"] for e in calendar.having("day-event")]
check(any("<script>window.__pwned=1</script>" in t and "Night market" in t for t in titles),
      "the markup title is shown as text, as written")
check(not any(e["tag"] == "img" and e["attrs"].get("src") == "x" for e in calendar.elements), "no element made from the title")
check(not any(e["tag"] == "script" and "__pwned" in e["text"] for e in calendar.elements), "no script made from the title")
check(any("<b>Old</b> Market Hall" in e["text"] for e in calendar.having("venue")), "a venue name with markup shows as written")
check(not any(e["tag"] == "b" for e in calendar.elements), "no element made from the venue name")
title = next((e["text"] for e in calendar.elements if e["tag"] == "title"), "")
check(title == "Calendar", f"the page title was not changed by a script ({title!r})")

french = load("calendar-fr")
check(french.by_id("upcoming-title")["text"] == "Événements à venir", "the French page speaks French")
check("Soirée jazz manouche" in " | ".join(e["text"] for e in french.having("day-event") + french.having("event-title")),
      "the French page shows the French events")

journal = load("journal")
rows = journal.having("entry")
reasons = [e["text"] for e in journal.having("reason")]
check(len(rows) >= 3, f"the journal shows the requests ({len(rows)})")
check("subscriber may not create events" in reasons, "the journal shows the refused write with its reason")
check("no route POST /event — did you mean /events?" in reasons, "the journal shows the near-miss hint")
check(any(e["text"] == "403" for e in journal.having("status")), "the journal shows the 403")
paths = journal.having("path")
check(any("/wp-json/calendar/events/v1/events" in e["text"] for e in paths), "the journal shows whole paths")
check(sum(1 for e in journal.elements if e["tag"] == "wbr") >= 4 * len(rows),
      "a path may wrap only between its segments (a <wbr> after each /, ? and &)")
check("start_date: not a date" in reasons, "the journal shows why an argument was refused")
check(any("rule 1: error 503" in e["text"] for e in journal.having("fault")), "the journal marks the injected fault")

opened = load("journal-bodies")
shown = [e for e in opened.having("bodies") if e["attrs"].get("data-seq") == "1"]
check(len(shown) == 1 and shown[0]["attrs"].get("data-loaded") == "true", "#open=1 opens the first entry's bodies")
request_body = " | ".join(e["text"] for e in opened.having("request-body"))
check("Night market" in request_body and "<script>window.__pwned=1</script>" in request_body,
      "the first request's body is shown, its markup as text")
check(not any(e["tag"] == "img" and e["attrs"].get("src") == "x" for e in opened.elements), "no element made from a body")

proxied = load("journal-proxy")
rows = proxied.having("entry")
check(len(rows) == 3, f"the proxy's journal shows the three exchanges ({len(rows)})")
findings = [e["text"] for e in proxied.having("finding")]
check(any("star_date" in f and "start_date" in f for f in findings), "the proxy names the misspelt parameter, with the near miss")
check(any(f.startswith("request:") and "organizer" in f for f in findings), "the proxy names the create without its required field")
correct = [e for e in rows if "per_page=2" in e["text"]]
check(len(correct) == 1 and "request:" not in correct[0]["text"] and "answer:" not in correct[0]["text"],
      "the proxy names no finding for the correct request")

stubbed = load("calendar-stubbed")
body = next(e for e in stubbed.elements if e["tag"] == "body")
check(body["attrs"].get("data-ready") == "error", "the page with a stubbed error says it failed (body data-ready)")
status = stubbed.by_id("status")
check(status is not None and "503 calendar_stub_outage" in status["text"], "the page shows the stubbed error's status and code")
month = " | ".join(e["text"] for e in stubbed.having("day-event"))
check(all(t in month for t in ("Lantern Walk on the Quays", "Silk Market", "Winter Choir")),
      "the month view shows the fixture's events")
check("Late Night Jazz" not in month, "the fixture replaced the demo calendar")

print(f"browser-test: {len(failures)} failed" if failures else "browser-test: all checks passed")
sys.exit(1 if failures else 0)
EOF
echo "browser-test: screenshots in $out/ (calendar.png, calendar-fr.png, journal.png, calendar-stubbed.png, journal-proxy.png)"
