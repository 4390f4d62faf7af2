#!/usr/bin/env bash
# The mutation smoke that CI runs: a small sample of the server's mutants (15, seed 2026, drawn
# by scripts/mutants.sh's rule, so it follows the code), each built into the server and checked
# by the suite. It fails when a mutant survives that scripts/mutants/equivalent.txt does not
# list as equivalent, with the test that shows it is. See docs/mutants.md ("The smoke in CI").
#
#   scripts/mutants-smoke.sh                 # the smoke
#   MUTANTS_SMOKE_SIZE=30 scripts/mutants-smoke.sh
#
# Settings (environment):
#   MUTANTS_SMOKE_SIZE   the sample's size (15)
#   MUTANTS_SMOKE_SEED   its seed (2026)
#   MUTANTS_TARGET       the cargo target directory of the mutants' builds (default:
#                        target/mutants-smoke/target). Never the workspace's own: cargo keys a
#                        workspace crate's build by its path relative to the workspace, so a
#                        mutant built from cargo-mutants' copy of the tree would be taken for
#                        the real crate by the next `cargo build` (seen: a mutant's warnings,
#                        and its code, came back in the worktree's build).
#
# The first run copies the workspace's target/debug (when there is one and the smoke's target
# directory does not exist yet) into the smoke's target directory, so that the dependencies are
# not compiled a second time (about 7 minutes on 2 cores). The copy goes one way only, from the
# workspace to the smoke: nothing built from cargo-mutants' copy of the tree comes back.
#
# It needs cargo-mutants: CI installs it with `cargo install cargo-mutants --locked --version 27.1.0`.
set -euo pipefail
cd "$(dirname "$0")/.."

size="${MUTANTS_SMOKE_SIZE:-15}"
seed="${MUTANTS_SMOKE_SEED:-2026}"
out="target/mutants-smoke"
workspace_target="$(cargo metadata --format-version 1 --no-deps | python3 -c 'import json, sys; print(json.load(sys.stdin)["target_directory"])')"
if [[ -n "${MUTANTS_TARGET:-}" && "$(cd "$MUTANTS_TARGET" 2>/dev/null && pwd)" == "$workspace_target" ]]; then
    echo "mutants-smoke: MUTANTS_TARGET must not be the workspace's own target directory (see the header)" >&2
    exit 2
fi
smoke_target="${MUTANTS_TARGET:-$out/target}"
if [[ ! -e "$smoke_target" && -d "$workspace_target/debug" ]]; then
    echo "mutants-smoke: copying $workspace_target/debug into $smoke_target (built dependencies)"
    mkdir -p "$smoke_target"
    cp -a "$workspace_target/debug" "$smoke_target/"
fi
rm -rf "$out/mutants.out" "$out/mutants.out.old"
bash scripts/mutants.sh --seed "$seed" --size "$size" --out "$out"
python3 scripts/mutants/sample.py gate "$out" scripts/mutants/equivalent.txt
