#!/usr/bin/env bash
# Checks that every command of the workspace asks for the same features of each dependency,
# so that one build serves them all (see workspace-hack/Cargo.toml): the dependency trees of
# `-p reference-server`, `-p conformance` and the whole workspace with its tests must agree on
# the features of every crate they share. Prints the crates that differ; exit 1 if any does.
set -euo pipefail
cd "$(dirname "$0")/.."

tree() {
    cargo tree --quiet --prefix none --format '{p} [{f}]' "$@" | sed 's/ (\*)$//; s/ (proc-macro)//' | sort -u
}
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
tree -p reference-server -e normal,build >"$work/reference-server"
tree -p conformance -e normal,build >"$work/conformance"
tree --workspace -e normal,build,dev >"$work/workspace"

status=0
for view in reference-server conformance; do
    # A crate (name and version) whose feature list differs from the workspace's.
    while read -r name version features; do
        expected="$(awk -v n="$name" -v v="$version" '$1 == n && $2 == v { $1 = ""; $2 = ""; sub(/^  /, ""); print }' "$work/workspace")"
        if [[ "$features" != "$expected" ]]; then
            echo "check-features: $name $version: -p $view asks for $features, the workspace for $expected" >&2
            status=1
        fi
    done <"$work/$view"
done
if [[ "$status" == 0 ]]; then
    echo "check-features: every command asks for the same features of each of $(wc -l <"$work/workspace") crates"
fi
exit "$status"
