//! The `cargo test` gate: runs every case under `cases/` against the embedded reference
//! server. libtest's arguments work: `cargo test -p conformance --test suite -- 'events/create::'`.

fn main() {
    let cases = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../cases");
    std::process::exit(conformance::app::run(std::env::args_os().collect(), cases));
}
