#!/usr/bin/env bash
# Crash test of --state: CRASH_CLIENTS (4) clients write under load (each write an event with a
# new venue, organizer and category, an update that renames an event and gives it a new
# category, or a trash); the server is killed with SIGKILL at a random moment, CRASH_KILLS (20)
# times, and restarted. After each restart: every acknowledged write is there, and a write in
# flight at the kill is there whole or not at all. The state file is compacted often
# (CRASH_COMPACT_BYTES, 32 KiB), so kills also land during compactions. After each start, a
# second server is started on the same state file: it must refuse (the file is locked) and say
# so. Prints the kills survived and the writes checked; exits 1 on any lost or half-applied
# write, or a second server that started.
#
# CRASH_SEED makes the clients' choices and the kill times repeatable; CRASH_PROFILE=release
# tests the release build. Everything runs on 127.0.0.1; takes about a minute.
set -euo pipefail
cd "$(dirname "$0")/.."

profile="${CRASH_PROFILE:-debug}"
if [ "$profile" = release ]; then
    cargo build --quiet --release -p reference-server
else
    cargo build --quiet -p reference-server
fi
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT INT TERM
python3 scripts/crash_test.py "target/$profile/reference-server" --workdir "$work" \
    --kills "${CRASH_KILLS:-20}" --clients "${CRASH_CLIENTS:-4}" --seed "${CRASH_SEED:-1}" \
    --compact-bytes "${CRASH_COMPACT_BYTES:-32768}" || { status=$?; tail -n 20 "$work/server.log" >&2; exit $status; }
grep -c "compacted" "$work/server.log" | sed 's/^/crash test: compactions during the run: /'
