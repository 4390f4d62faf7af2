#!/usr/bin/env python3
"""Crash test of --state (see crash-test.sh): several clients write under load; the server is
killed with SIGKILL at random moments and restarted; after each restart every acknowledged
write must be there, and a write that was in flight at the kill must be there whole or not at
all (a write is one plan: an event with its new venue, organizer and category, or an update
that renames an event and gives it a new category).

Standard library only. Everything runs on 127.0.0.1; every wait is bounded.
"""

import argparse
import base64
import http.client
import json
import os
import random
import signal
import subprocess
import sys
import threading
import time
import urllib.parse

AUTH = "Basic " + base64.b64encode(b"admin:admin-password").decode()
WINDOW = "start_date=2026-01-01&end_date=2029-12-31"


class Broken(Exception):
    """The server went away mid-request."""


class Client:
    """One keep-alive connection to the server."""

    def __init__(self, host, port, base):
        self.host, self.port, self.base = host, port, base
        self.conn = None

    def request(self, method, path, body=None):
        if self.conn is None:
            self.conn = http.client.HTTPConnection(self.host, self.port, timeout=15)
        headers = {"Authorization": AUTH}
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        try:
            self.conn.request(method, self.base + path, body=data, headers=headers)
            response = self.conn.getresponse()
            text = response.read()
        except (OSError, http.client.HTTPException) as error:
            self.close()
            raise Broken(str(error)) from error
        try:
            payload = json.loads(text) if text else None
        except ValueError:
            payload = None
        return response.status, payload, response.getheader("X-TEC-Total") or response.getheader("X-WP-Total")

    def close(self):
        if self.conn is not None:
            self.conn.close()
            self.conn = None


class Writer:
    """A client that creates, renames and trashes its own events; knows what was acknowledged."""

    def __init__(self, number, rng):
        self.number = number
        self.rng = rng
        self.made = 0
        self.events = {}  # id -> {"marker", "version", "trashed"}
        self.pending = None  # the write in flight when the server went away
        self.acknowledged = 0

    def marker(self):
        self.made += 1
        return f"c{self.number}n{self.made}x"

    def run(self, client, stop):
        while not stop.is_set():
            live = [event_id for event_id, event in self.events.items() if not event["trashed"]]
            roll = self.rng.random()
            if roll < 0.6 or not live:
                op = ("create", self.marker())
            elif roll < 0.85:
                event_id = self.rng.choice(live)
                op = ("update", event_id, self.events[event_id]["version"] + 1)
            else:
                op = ("trash", self.rng.choice(live))
            self.pending = op
            try:
                self.send(client, op)
            except Broken:
                return  # the server was killed: `pending` stays for the check
            self.pending = None

    def send(self, client, op):
        if op[0] == "create":
            marker = op[1]
            day = 1 + self.made % 300
            start = time.strftime("%Y-%m-%d", time.gmtime(1795000000 + day * 86400))
            body = {
                "title": f"crash {marker}",
                "start_date": f"{start} 18:00:00",
                "end_date": f"{start} 20:00:00",
                "venue": {"venue": f"V {marker}", "city": "Crashville"},
                "organizer": [{"organizer": f"O {marker}"}],
                "categories": [f"cat {marker}"],
            }
            status, payload, _ = client.request("POST", "/events", body)
            if status != 201:
                raise SystemExit(f"create answered {status}: {payload}")
            self.events[payload["id"]] = {"marker": marker, "version": 0, "trashed": False}
        elif op[0] == "update":
            event_id, version = op[1], op[2]
            marker = self.events[event_id]["marker"]
            body = {"title": f"crash {marker} v{version}", "categories": [f"cat {marker} v{version}"]}
            status, payload, _ = client.request("POST", f"/events/{event_id}", body)
            if status != 200:
                raise SystemExit(f"update answered {status}: {payload}")
            self.events[event_id]["version"] = version
        else:
            event_id = op[1]
            status, payload, _ = client.request("DELETE", f"/events/{event_id}")
            if status != 200:
                raise SystemExit(f"trash answered {status}: {payload}")
            self.events[event_id]["trashed"] = True
        self.acknowledged += 1


def title_of(marker, version):
    return f"crash {marker}" + (f" v{version}" if version else "")


def category_of(marker, version):
    return f"cat {marker}" + (f" v{version}" if version else "")


class Checker:
    def __init__(self, client):
        self.client = client
        self.checked = 0
        self.problems = []

    def count(self, path):
        status, payload, total = self.client.request("GET", path)
        if status != 200:
            raise SystemExit(f"GET {path} answered {status}: {payload}")
        return int(total) if total is not None else len(payload)

    def search(self, collection, text):
        quoted = urllib.parse.quote(text)
        if collection == "events":
            return self.count(f"/events?search={quoted}&{WINDOW}&per_page=1")
        if collection == "categories":
            return self.count(f"/categories?search={quoted}&hide_empty=false&per_page=1")
        return self.count(f"/{collection}?search={quoted}&per_page=1")

    def event_state(self, event_id):
        """(title, categories) of an event, or "trashed"."""
        status, payload, _ = self.client.request("GET", f"/events/{event_id}")
        if status == 403 and payload and payload.get("code") == "event-no-longer-available":
            return "trashed"
        if status == 404:
            return "missing"
        if status != 200:
            raise SystemExit(f"GET /events/{event_id} answered {status}: {payload}")
        return payload["title"], sorted(term["name"] for term in payload.get("categories", []))

    def expect(self, condition, message):
        if not condition:
            self.problems.append(message)

    def writer(self, writer):
        # Every acknowledged write is there.
        for event_id, event in writer.events.items():
            if writer.pending and writer.pending[0] != "create" and writer.pending[1] == event_id:
                continue  # checked with the pending write below
            state = self.event_state(event_id)
            self.checked += 1
            if event["trashed"]:
                self.expect(state == "trashed", f"event {event_id} was trashed (acknowledged) but is {state}")
            else:
                want = (title_of(event["marker"], event["version"]), [category_of(event["marker"], event["version"])])
                self.expect(state == want, f"event {event_id}: acknowledged {want}, found {state}")
        # The write in flight at the kill: whole or not at all.
        if writer.pending is None:
            return None
        op = writer.pending
        writer.pending = None
        self.checked += 1
        if op[0] == "create":
            marker = op[1]
            counts = {
                "event": self.search("events", f"crash {marker}"),
                "venue": self.search("venues", f"V {marker}"),
                "organizer": self.search("organizers", f"O {marker}"),
                "category": self.search("categories", f"cat {marker}"),
            }
            if set(counts.values()) == {0}:
                return "absent"
            if set(counts.values()) == {1}:
                status, payload, _ = self.client.request("GET", f"/events?search={urllib.parse.quote('crash ' + marker)}&{WINDOW}")
                found = payload["events"][0]
                writer.events[found["id"]] = {"marker": marker, "version": 0, "trashed": False}
                return "whole"
            self.problems.append(f"create {marker} half-applied: {counts}")
            return "half"
        event_id = op[1]
        event = writer.events[event_id]
        state = self.event_state(event_id)
        if op[0] == "trash":
            if state == "trashed":
                event["trashed"] = True
                return "whole"
            want = (title_of(event["marker"], event["version"]), [category_of(event["marker"], event["version"])])
            self.expect(state == want, f"event {event_id}: before the trash {want}, found {state}")
            return "absent"
        version = op[2]
        old = (title_of(event["marker"], event["version"]), [category_of(event["marker"], event["version"])])
        new = (title_of(event["marker"], version), [category_of(event["marker"], version)])
        term = self.search("categories", category_of(event["marker"], version))
        if state == old and term == 0:
            return "absent"
        if state == new and term == 1:
            event["version"] = version
            return "whole"
        self.problems.append(f"update of {event_id} to v{version} half-applied: {state}, new category count {term}")
        return "half"

    def totals(self, writers):
        live = sum(1 for w in writers for e in w.events.values() if not e["trashed"])
        listed = self.count(f"/events?search=crash&{WINDOW}&per_page=1")
        self.expect(listed == live, f"{listed} crash events listed, {live} expected: a write nobody made, or one lost")


def start_server(binary, state, compact, log):
    process = subprocess.Popen(
        [binary, "--listen", "127.0.0.1:0", "--state", state, "--state-compact-bytes", str(compact),
         "--clock", "2026-11-22T10:00:00Z"],
        stdout=subprocess.PIPE, stderr=log, text=True)
    deadline = time.time() + 20
    line = ""
    while time.time() < deadline:
        line = process.stdout.readline().strip()
        if line.startswith("http://"):
            break
        if process.poll() is not None:
            raise SystemExit(f"the server did not start (exit {process.returncode}); see {log.name}")
    if not line.startswith("http://"):
        process.kill()
        raise SystemExit("the server printed no address in 20 s")
    url = urllib.parse.urlsplit(line)
    return process, url.hostname, url.port, url.path


def second_server_refused(binary, state, compact):
    """A second server started on the state file a running one holds must refuse to start (and
    say so), not write into it: returns a problem, or None."""
    second = subprocess.Popen(
        [binary, "--listen", "127.0.0.1:0", "--state", state, "--state-compact-bytes", str(compact)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        out, err = second.communicate(timeout=20)
    except subprocess.TimeoutExpired:
        second.kill()
        second.communicate()
        return "a second server on the same state file started (it did not exit in 20 s)"
    if second.returncode == 0 or "in use" not in err:
        return f"a second server on the same state file: exit {second.returncode}, {out.strip()} {err.strip()}"
    return None


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("binary")
    parser.add_argument("--kills", type=int, default=20)
    parser.add_argument("--clients", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--compact-bytes", type=int, default=32768)
    parser.add_argument("--workdir", required=True)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    state = os.path.join(args.workdir, "crash.state")
    log = open(os.path.join(args.workdir, "server.log"), "w")
    writers = [Writer(number, random.Random(args.seed * 1000 + number)) for number in range(args.clients)]
    outcomes = {"whole": 0, "absent": 0, "half": 0}
    checked = 0
    problems = []
    kills = 0
    refusals = 0
    started = time.time()
    for round_number in range(args.kills + 1):
        process, host, port, base = start_server(args.binary, state, args.compact_bytes, log)
        refused = second_server_refused(args.binary, state, args.compact_bytes)
        if refused:
            problems.append(f"after kill {kills}: {refused}")
        else:
            refusals += 1
        checker = Checker(Client(host, port, base))
        for writer in writers:
            outcome = checker.writer(writer)
            if outcome:
                outcomes[outcome] += 1
        checker.totals(writers)
        checked += checker.checked
        checker.client.close()
        if checker.problems:
            problems.extend(f"after kill {kills}: {problem}" for problem in checker.problems)
            process.kill()
            break
        if round_number == args.kills:
            process.send_signal(signal.SIGTERM)
            process.wait(timeout=20)
            break
        stop = threading.Event()
        threads = []
        for writer in writers:
            thread = threading.Thread(target=writer.run, args=(Client(host, port, base), stop), daemon=True)
            thread.start()
            threads.append(thread)
        time.sleep(rng.uniform(0.05, 1.5))
        process.send_signal(signal.SIGKILL)
        process.wait(timeout=20)
        kills += 1
        stop.set()
        for thread in threads:
            thread.join(timeout=30)
            if thread.is_alive():
                raise SystemExit("a client did not stop")
    log.close()
    acknowledged = sum(writer.acknowledged for writer in writers)
    in_flight = sum(outcomes.values())
    print(f"crash test: {kills} kills survived, {acknowledged} writes acknowledged, {checked} write checks after "
          f"restarts, {in_flight} writes in flight at a kill ({outcomes['whole']} applied whole, "
          f"{outcomes['absent']} not applied, {outcomes['half']} half-applied), {len(problems)} problems, "
          f"{refusals} second servers on the same file refused, {time.time() - started:.0f} s, state file {os.path.getsize(state)} bytes")
    for problem in problems[:20]:
        print(f"  {problem}")
    return 1 if problems or kills < args.kills else 0


if __name__ == "__main__":
    sys.exit(main())
