#!/usr/bin/env bash
# The installed programs, end to end, as a user gets them: `cargo install --path` of both
# (the release profile) into a temporary root, then, from an empty temporary folder with only
# that root added to the PATH:
#   1. `conformance --version` names the suite it carries;
#   2. `conformance` alone runs the whole suite against its embedded reference server;
#   3. `conformance --base-url` runs it against a separately started `reference-server` with
#      the five roles' --auth;
#   4. the CI recipe (scripts/ci-recipe.sh) does the same with credentials from the environment
#      and leaves both reports;
#   5. `conformance cases export` writes the suite out, and the copy runs with --cases;
# and nothing but the reports and the export appears in the folder. CI runs it (.ci/run).
#
#   INSTALL_TEST_ROOT=DIR   install into DIR and keep it (default: a temporary folder, removed)
set -euo pipefail
cd "$(dirname "$0")/.."
repository="$PWD"

work="$(mktemp -d)"
server_pid=""
cleanup() {
    if [[ -n "$server_pid" ]]; then
        kill "$server_pid" 2>/dev/null || true
        wait "$server_pid" 2>/dev/null || true
    fi
    rm -rf "$work"
}
trap cleanup EXIT
root="${INSTALL_TEST_ROOT:-$work/root}"

step() { printf '\ninstall-test: %s\n' "$*" >&2; }
fail() {
    echo "install-test: FAILED: $*" >&2
    exit 1
}

step "cargo install --locked --path conformance / reference-server --root $root"
started=$SECONDS
cargo install --quiet --locked --path conformance --root "$root"
cargo install --quiet --locked --path reference-server --root "$root"
echo "install-test: both installed in $((SECONDS - started)) s" >&2


empty="$work/empty"
mkdir "$empty"
cd "$empty"
export PATH="$root/bin:$PATH"
export NO_COLOR=1
unset CONFORMANCE_AUTH_ADMINISTRATOR CONFORMANCE_AUTH_EDITOR CONFORMANCE_AUTH_AUTHOR \
    CONFORMANCE_AUTH_CONTRIBUTOR CONFORMANCE_AUTH_SUBSCRIBER CONFORMANCE_EXPECTATIONS REPORTS
[[ "$(command -v conformance)" == "$root/bin/conformance" ]] || fail "conformance is not the installed one"

step "1. conformance --version"
version="$(conformance --version)"
echo "$version"
[[ "$version" =~ ^conformance\ [0-9.]+,\ suite\ [0-9a-f]{16}:\ ([0-9]+)\ cases\ in\ [0-9]+\ files ]] \
    || fail "unexpected version line"
cases="${BASH_REMATCH[1]}"
(( cases > 400 )) || fail "the installed runner carries $cases cases"

step "2. conformance (the embedded reference server)"
conformance --quiet >"$work/embedded.txt" 2>&1 || { cat "$work/embedded.txt" >&2; fail "the embedded run failed"; }
tail -n 2 "$work/embedded.txt"
grep -q "test result: ok. $cases passed" "$work/embedded.txt" || fail "not every one of the $cases cases passed"

step "3. conformance --base-url against a separately started reference-server"
reference-server --listen 127.0.0.1:0 >"$work/server.out" 2>"$work/server.err" &
server_pid=$!
for _ in $(seq 1 100); do
    [[ -s "$work/server.out" ]] && break
    kill -0 "$server_pid" 2>/dev/null || { cat "$work/server.err" >&2; fail "reference-server did not start"; }
    sleep 0.1
done
api_url="$(head -n 1 "$work/server.out")"
base_url="${api_url%/calendar/events/v1}"
[[ "$base_url" == http://127.0.0.1:* ]] || fail "unexpected first line of reference-server: $api_url"
conformance --quiet --base-url "$base_url" \
    --auth administrator=admin:admin-password --auth editor=editor:editor-password \
    --auth author=author:author-password --auth contributor=contributor:contributor-password \
    --auth subscriber=subscriber:subscriber-password >"$work/outside.txt" 2>&1 \
    || { cat "$work/outside.txt" >&2; fail "the run against $base_url failed"; }
tail -n 2 "$work/outside.txt"
grep -q "no credentials for" "$work/outside.txt" && fail "a role was missing"

step "4. the CI recipe (scripts/ci-recipe.sh) against it"
CONFORMANCE_AUTH_ADMINISTRATOR=admin:admin-password CONFORMANCE_AUTH_EDITOR=editor:editor-password \
    CONFORMANCE_AUTH_AUTHOR=author:author-password CONFORMANCE_AUTH_CONTRIBUTOR=contributor:contributor-password \
    CONFORMANCE_AUTH_SUBSCRIBER=subscriber:subscriber-password BASE_URL="$base_url" \
    sh "$repository/scripts/ci-recipe.sh" --quiet >"$work/recipe.txt" 2>&1 \
    || { cat "$work/recipe.txt" >&2; fail "the recipe failed"; }
tail -n 1 "$work/recipe.txt"
[[ -s conformance-reports/conformance.xml && -s conformance-reports/conformance.html ]] || fail "reports missing"

step "5. conformance cases export, then --cases"
conformance cases export suite | tail -n 1
# cases/known/ holds lists of known failures (--expectations files), not case files: not exported.
diff -r -x known suite "$repository/cases" >/dev/null || fail "the export differs from cases/"
[[ ! -e suite/known ]] || fail "the export holds cases/known/"
[[ "$(conformance --list --cases suite)" == "$(conformance --list)" ]] || fail "the export lists other cases"

left="$(find . -mindepth 1 -maxdepth 1 | sort | tr '\n' ' ')"
[[ "$left" == "./conformance-reports ./suite " ]] || fail "the folder holds more than expected: $left"
echo "install-test: ok" >&2
