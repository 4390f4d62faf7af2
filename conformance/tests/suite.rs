//! The `cargo test` gate: runs every case under `cases/` against the embedded reference
//! server. libtest's arguments work: `cargo test -p conformance --test suite -- 'events/create::'`.
//! A filter that matches no case passes, as in any test binary: `cargo test --workspace --
//! some_unit_test` hands the filter to this binary too.

use conformance::app::{run_with, EmptySelection};

fn main() {
    let cases = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../cases");
    std::process::exit(run_with(std::env::args_os().collect(), cases, EmptySelection::Pass));
}
