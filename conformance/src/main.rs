//! `conformance`: runs the case files against an implementation (see `--help`).

/// jemalloc with `--features jemalloc` (scripts/explore-bench.sh builds with it).
#[cfg(all(feature = "jemalloc", not(target_env = "msvc")))]
#[global_allocator]
static ALLOCATOR: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

fn main() {
    let code = conformance::app::run_embedded(std::env::args_os().collect());
    std::process::exit(code);
}
