//! `tests/conformance.rs` of a Rust implementation: the conformance suite in its `cargo test`.
//!
//! Its `Cargo.toml` has (`docs/ci.md` shows the same; `scripts/gate-example.sh` builds a new
//! crate from that page's blocks and runs it):
//!
//! ```toml
//! [dev-dependencies]
//! conformance = { git = "URL-OF-THIS-REPOSITORY", rev = "COMMIT" }
//! # Only because this example starts the reference server as the implementation under test:
//! reference-server = { git = "URL-OF-THIS-REPOSITORY", rev = "COMMIT" }
//! tokio = { version = "1", features = ["rt-multi-thread"] }
//!
//! [[test]]
//! name = "conformance"
//! harness = false
//! ```
//!
//! Then `cargo test` runs every case against the implementation, `cargo test --test
//! conformance -- events/create::` the cases of one file, and `-- --list` lists them. Here the
//! implementation under test is the reference server, started in-process.

use conformance::libtest_mimic::{self, Arguments};
use conformance::Gate;

fn main() {
    let args = Arguments::from_args();

    // Start the implementation under test, and keep it running until the trials are done.
    let runtime = tokio::runtime::Runtime::new().expect("a tokio runtime");
    let server = runtime
        .block_on(reference_server::serve(reference_server::Config::ephemeral()))
        .expect("the implementation starts");

    let gate = Gate::new(server.base_url())
        .auth("administrator", "admin", "admin-password")
        .auth("editor", "editor", "editor-password")
        .auth("author", "author", "author-password")
        .auth("contributor", "contributor", "contributor-password")
        .auth("subscriber", "subscriber", "subscriber-password");
    // More options: .without(["tickets"]), .expectations("tests/known-failures.txt"),
    // .namespace(…), .language_param(…), .reset_command(…), .check_doc().
    let trials = gate.trials().unwrap_or_else(|message| panic!("{message}"));

    let conclusion = libtest_mimic::run(&args, trials);
    eprint!("\n{}", gate.summary());
    conclusion.exit();
}
