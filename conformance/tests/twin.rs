//! The suite on the plugin's twin: every case against an embedded server started as
//! `reference-server --like plugin-6.17.2` (the quirks the real site has, with the features it
//! lacks turned off), judged against `cases/known/twin-plugin-6.17.2.txt`: every listed case
//! must fail and every other pass. CI runs it (`cargo test -p conformance --test twin`, in
//! `.ci/run`), and so does the suite's mutation sample (`scripts/mutants.sh`), so that code only
//! a quirk runs is tested too. It is `test = false` in Cargo.toml: `cargo test --workspace`
//! leaves it out (it is a second whole-suite run), a named `--test twin` runs it. libtest's
//! arguments work as in `tests/suite.rs`.

use conformance::app::{run_with, EmptySelection};

fn main() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let known = root.join("cases/known/twin-plugin-6.17.2.txt");
    let mut args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    args.extend(
        ["--like", "plugin-6.17.2", "--without", "geoloc,tickets,series,event-password,languages"].map(Into::into),
    );
    args.push("--expectations".into());
    args.push(known.into_os_string());
    std::process::exit(run_with(args, root.join("cases"), EmptySelection::Pass));
}
