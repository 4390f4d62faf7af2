//! The README's CI recipe cannot rot: its shell form is `scripts/ci-recipe.sh` word for word,
//! and that script, run from an empty folder with the runner on the PATH and credentials in the
//! environment, passes against a reference server, keeps both reports, fails (101) against an
//! implementation that lacks a feature, and gates on the expectations file.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use crate::common;
use common::*;

fn repository() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn script() -> PathBuf {
    repository().join("scripts/ci-recipe.sh")
}

/// The fenced block that follows the README's marker line.
fn readme_block(marker: &str) -> String {
    let readme = std::fs::read_to_string(repository().join("README.md")).unwrap();
    let after = &readme[readme.find(marker).unwrap_or_else(|| panic!("README has no {marker:?}"))..];
    let start = after.find("```sh\n").expect("a sh block after the marker") + "```sh\n".len();
    let end = after[start..].find("\n```\n").expect("the block ends") + 1;
    after[start..start + end].to_string()
}

#[test]
fn the_readme_shows_the_script_verbatim() {
    let script = std::fs::read_to_string(script()).unwrap();
    assert_eq!(
        readme_block("<!-- scripts/ci-recipe.sh, verbatim"),
        script,
        "README.md and scripts/ci-recipe.sh differ: copy the script into the README"
    );
}

/// Runs the recipe in `dir` as a CI job would: the runner on the PATH (this build's), the
/// base URL and the five roles' secrets in the environment.
fn recipe(dir: &Path, base_url: &str, args: &[&str]) -> Output {
    let runner = Path::new(env!("CARGO_BIN_EXE_conformance")).parent().unwrap().to_path_buf();
    let path = std::env::join_paths(
        std::iter::once(runner).chain(std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default())),
    )
    .unwrap();
    let mut command = Command::new("sh");
    command.arg(script()).args(args).current_dir(dir).env("PATH", path).env("BASE_URL", base_url);
    for var in ["REPORTS", "CONFORMANCE_EXPECTATIONS", "CONFORMANCE_GIT", "CONFORMANCE_REV", "NO_COLOR"] {
        command.env_remove(var);
    }
    for role in ["administrator", "editor", "author", "contributor", "subscriber"] {
        let user = if role == "administrator" { "admin" } else { role };
        command.env(format!("CONFORMANCE_AUTH_{}", role.to_uppercase()), format!("{user}:{user}-password"));
    }
    command.output().expect("sh runs the recipe")
}

fn text(output: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr))
}

#[test]
fn the_recipe_passes_against_a_reference_server_and_keeps_both_reports() {
    let site = server(true);
    let dir = temp("pass");
    let output = recipe(&dir, &site.base_url, &[]);
    let out = text(&output);
    assert_eq!(output.status.code(), Some(0), "{out}");
    assert!(out.starts_with(&format!(
        "conformance {}, suite {}",
        env!("CARGO_PKG_VERSION"),
        conformance::suite::digest()
    )));
    assert!(!out.contains("no credentials for"), "the five roles come from the environment: {out}");
    assert!(out.contains("verdict: CONFORMS"), "{out}");
    let junit = std::fs::read_to_string(dir.join("conformance-reports/conformance.xml")).unwrap();
    let cases = conformance::suite::case_count(&conformance::suite::load());
    assert!(junit.contains(&format!("tests=\"{cases}\"")), "every case: {}", &junit[..300]);
    let html = std::fs::read_to_string(dir.join("conformance-reports/conformance.html")).unwrap();
    assert!(html.contains("CONFORMS"));
}

#[test]
fn the_recipe_fails_a_gap_and_the_expectations_file_gates_it() {
    let site = server(false);
    let dir = temp("gap");
    // The cases whose name has `ticket`: the site has no tickets extension.
    let output = recipe(&dir, &site.base_url, &["ticket"]);
    let out = text(&output);
    assert_eq!(output.status.code(), Some(101), "{out}");
    let failed: Vec<&str> = out
        .lines()
        .filter_map(|line| line.strip_prefix("test ").and_then(|l| l.strip_suffix(" ... FAILED")))
        .map(|l| l.split_once("] ").map_or(l, |(_, name)| name).trim())
        .collect();
    assert!(!failed.is_empty(), "{out}");
    // Known gaps, listed in the file the recipe picks up by default, do not fail the job.
    std::fs::write(dir.join("conformance-known-failures.txt"), failed.join("\n")).unwrap();
    let output = recipe(&dir, &site.base_url, &["ticket"]);
    let out = text(&output);
    assert_eq!(output.status.code(), Some(0), "{out}");
    assert!(out.contains("listed in conformance-known-failures.txt"), "{out}");
}
