//! The `cargo test` gate: runs every case under `cases/` against the embedded reference
//! server, with `--check-doc`: every answer a case receives must also conform to the schema
//! that the server's `/doc` gives for its path, method and status, so the document describes
//! what the server really sends. libtest's arguments work:
//! `cargo test -p conformance --test suite -- 'events/create::'`. A filter that matches no case
//! passes, as in any test binary: `cargo test --workspace -- some_unit_test` hands the filter
//! to this binary too.

use std::sync::atomic::Ordering;

use conformance::app::{run_with, EmptySelection, DOC_CHECKED};

fn main() {
    let cases = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../cases");
    let mut args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    // Read as the runner reads them, so that options with values (`--timeout 10`) count as such.
    let whole_suite = conformance::cli::parse(&args).is_ok_and(|cli| {
        let h = &cli.harness;
        h.filter.is_empty()
            && h.skip.is_empty()
            && cli.level.is_empty()
            && cli.tag.is_empty()
            && cli.route.is_empty()
            && cli.rerun_failed.is_none()
            && !h.list
            && !h.ignored
    });
    args.push("--check-doc".into());
    let code = run_with(args, cases, EmptySelection::Pass);
    // The check must have had answers to check: a change that made it match no operation would
    // otherwise pass in silence.
    let checked = DOC_CHECKED.load(Ordering::Relaxed);
    if code == 0 && whole_suite && checked < 1000 {
        eprintln!("error: --check-doc checked only {checked} answers against /doc; a whole run checks over 1000");
        std::process::exit(1);
    }
    std::process::exit(code);
}
