//! `conformance cases export DIR [--force]`: writes the embedded suite out and says what it
//! wrote.

use std::ffi::OsString;

use clap::Parser;

use super::{clap_exit, EXIT_USAGE};
use crate::cli::{CasesCli, CasesCommand};
use crate::suite;

/// Runs `conformance cases …` (`args` are what follows `cases`); returns the exit status.
pub fn run(args: &[OsString]) -> i32 {
    let args = std::iter::once(OsString::from("conformance cases")).chain(args.iter().cloned());
    let cli = match CasesCli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(e) => return clap_exit(&e),
    };
    match cli.command {
        CasesCommand::Export { dir, force } => match suite::export::export(&dir, suite::files(), force) {
            Ok(done) => {
                for (path, replaced) in &done.written {
                    println!("{}{}", dir.join(path).display(), if *replaced { " (replaced)" } else { "" });
                }
                let replaced = done.written.iter().filter(|(_, r)| *r).count();
                println!(
                    "conformance: wrote {} case files of the suite {} ({} cases{}) into {}; run them with: conformance --cases {}",
                    done.written.len(),
                    suite::digest(),
                    suite::case_count(&suite::load()),
                    if replaced > 0 { format!(", {replaced} files replaced") } else { String::new() },
                    dir.display(),
                    crate::escape::shell_word(&dir.display().to_string())
                );
                0
            }
            Err(message) => {
                eprintln!("error: {message}");
                EXIT_USAGE
            }
        },
    }
}
