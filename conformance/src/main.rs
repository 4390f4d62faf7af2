//! `conformance`: runs the case files against an implementation (see `--help`).

fn main() {
    let code = conformance::app::run_embedded(std::env::args_os().collect());
    std::process::exit(code);
}
