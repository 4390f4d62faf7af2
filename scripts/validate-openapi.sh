#!/usr/bin/env bash
# Validates the reference server's /doc with openapi-spec-validator (PyPI), in all four
# languages: starts the server on a free port of 127.0.0.1, fetches {api}/doc under the
# base addresses /, /fr, /de and /es, validates each as OpenAPI 3.0, stops the server.
#
# Installs openapi-spec-validator into .venv on the first run. Takes a few seconds after that.
set -euo pipefail
cd "$(dirname "$0")/.."

VENV="${VALIDATE_VENV:-.venv}"
# shellcheck source=lib/venv.sh
source scripts/lib/venv.sh
ensure_tool openapi-spec-validator 'openapi-spec-validator>=0.7,<1'

# shellcheck source=lib/cargo-bin.sh
source scripts/lib/cargo-bin.sh
server="$(cargo_bin reference-server)"
work="$(mktemp -d)"
server_pid=""
cleanup() {
    if [ -n "$server_pid" ] && kill -0 "$server_pid" 2>/dev/null; then
        kill "$server_pid" 2>/dev/null || true
        wait "$server_pid" 2>/dev/null || true
    fi
    rm -rf "$work"
}
trap cleanup EXIT INT TERM

"$server" --listen 127.0.0.1:0 >"$work/server.out" 2>"$work/server.log" &
server_pid=$!
api=""
for _ in $(seq 1 100); do
    api="$(head -n 1 "$work/server.out" 2>/dev/null || true)"
    [ -n "$api" ] && break
    kill -0 "$server_pid" 2>/dev/null || { echo "validate: the server did not start" >&2; cat "$work/server.log" >&2; exit 1; }
    sleep 0.1
done
[ -n "$api" ] || { echo "validate: the server printed no address" >&2; exit 1; }

site="${api%%/wp-json/*}"
rest="${api#"$site"}"
failed=0
passed=0
for lang in en fr de es; do
    prefix="/$lang"
    [ "$lang" = en ] && prefix=""
    file="$work/doc-$lang.json"
    curl --silent --show-error --fail "$site$prefix$rest/doc" -o "$file"
    if "$VENV/bin/openapi-spec-validator" "$file" >"$work/out-$lang" 2>&1; then
        echo "validate: /doc ($lang): valid OpenAPI 3.0"
        passed=$((passed + 1))
    else
        echo "validate: /doc ($lang): INVALID" >&2
        cat "$work/out-$lang" >&2
        failed=$((failed + 1))
    fi
done
"$VENV/bin/python" - "$work" <<'EOF'
import json, sys
work = sys.argv[1]
docs = {lang: json.load(open(f"{work}/doc-{lang}.json")) for lang in ("en", "fr", "de", "es")}
operations = sum(len(item) for item in docs["en"]["paths"].values())
print(f"validate: {len(docs['en']['paths'])} paths, {operations} operations, "
      f"{len(docs['en']['components']['schemas'])} schemas")
EOF
echo "validate: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
