//! `conformance`: runs the case files against an implementation (see `--help`).

fn main() {
    let code = conformance::app::run(std::env::args_os().collect(), "cases".into());
    std::process::exit(code);
}
