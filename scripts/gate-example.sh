#!/usr/bin/env bash
# The `cargo test` gate of docs/ci.md, as a new user copies it: a crate is made in a temporary
# folder from that page's own blocks (its `Cargo.toml` lines and its `tests/conformance.rs`,
# extracted, not copied by hand), with this repository's address replaced by its path, and
# `cargo test` runs it (the cases of one file, to keep it short). It also fails when the page's
# Rust block is not conformance/tests/library_example.rs, the file this repository's own
# `cargo test` builds. CI runs it (.ci/run).
#
# The crate builds offline against this workspace's Cargo.lock and into its target folder, so
# that only the new crate compiles.
set -euo pipefail
cd "$(dirname "$0")/.."
repository="$PWD"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

python3 - "$repository" "$work" <<'PY'
import os, re, sys
repository, work = sys.argv[1], sys.argv[2]
page = open(os.path.join(repository, "docs/ci.md"), encoding="utf-8").read()
section = page.split("## The suite in a Rust implementation's `cargo test`", 1)[1].split("\n## ", 1)[0]
toml = re.findall(r"```toml\n(.*?)```", section, re.S)
rust = re.findall(r"```rust\n(.*?)```", section, re.S)
if len(toml) != 1 or len(rust) != 1:
    sys.exit("gate-example: docs/ci.md's section should hold one toml and one rust block, found %d and %d" % (len(toml), len(rust)))
example = open(os.path.join(repository, "conformance/tests/library_example.rs"), encoding="utf-8").read()
if not example.endswith(rust[0]):
    sys.exit("gate-example: the Rust block of docs/ci.md is not the end of conformance/tests/library_example.rs")
manifest = toml[0]
for crate in ("conformance", "reference-server"):
    manifest, n = re.subn(r'^%s = \{ git = "URL-OF-THIS-REPOSITORY", rev = "COMMIT" \}' % crate,
                          '%s = { path = "%s/%s" }' % (crate, repository, crate), manifest, flags=re.M)
    if n != 1:
        sys.exit("gate-example: docs/ci.md's Cargo.toml block has no git dependency on %s" % crate)
os.makedirs(os.path.join(work, "tests"))
os.makedirs(os.path.join(work, "src"))
with open(os.path.join(work, "Cargo.toml"), "w", encoding="utf-8") as f:
    # Beside the page's lines: the workspace's own profile for dependencies, so that the build
    # reuses what the workspace built instead of compiling every dependency again.
    profile = '\n[profile.dev.package."*"]\nopt-level = 1\ndebug = false\n'
    for member, level in (("conformance", 0), ("reference-server", 1), ("workspace-hack", 0)):
        profile += '\n[profile.dev.package.%s]\nopt-level = %d\ndebug = true\n' % (member, level)
    f.write('[package]\nname = "my-implementation"\nversion = "0.1.0"\nedition = "2021"\n\n[workspace]\n\n' + manifest + profile)
with open(os.path.join(work, "src/lib.rs"), "w", encoding="utf-8") as f:
    f.write("")
with open(os.path.join(work, "tests/conformance.rs"), "w", encoding="utf-8") as f:
    f.write(rust[0])
PY
cp Cargo.lock "$work/Cargo.lock"
echo "gate-example: cargo test --test conformance in a crate made from docs/ci.md ($work)" >&2
(
    cd "$work"
    CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$repository/target}" \
        cargo test --quiet --offline --test conformance -- events/create:: >"$work/out.txt" 2>&1
) || { cat "$work/out.txt" >&2; echo "gate-example: FAILED: the crate from docs/ci.md does not build or its gate fails" >&2; exit 1; }
grep -q 'verdict: CONFORMS' "$work/out.txt" || { cat "$work/out.txt" >&2; echo "gate-example: FAILED: no verdict" >&2; exit 1; }
grep -E '^test result' "$work/out.txt" >&2 || true
echo "gate-example: the gate of docs/ci.md builds and passes" >&2
