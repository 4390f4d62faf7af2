//! `reference-server`: runs the reference server from the command line.

fn main() {
    let _ = reference_server::Config::default();
}
