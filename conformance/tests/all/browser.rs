//! The HTML report in a real browser: headless Chromium loads a report with failures (the
//! fixture under `tests/fixtures/report/`, run against the embedded reference server), runs its
//! script, and the DOM it ends with must show the verdict, the failure count and one failure's
//! JSON path. It also takes a screenshot.
//!
//! It needs Chromium (Debian's `chromium` package, or `CHROMIUM=/path/to/chrome`), so plain
//! `cargo test` leaves it out; CI installs Chromium and runs it with
//!
//!     cargo test -p conformance --test all -- --ignored browser::
//!
//! `UPDATE_SCREENSHOT=1` also writes the screenshot to `docs/html-report.png` (the README's).

use std::path::{Path, PathBuf};
use std::process::Command;

fn chromium() -> String {
    if let Ok(path) = std::env::var("CHROMIUM") {
        return path;
    }
    for name in ["chromium", "chromium-browser", "google-chrome"] {
        if Command::new(name).arg("--version").output().is_ok_and(|o| o.status.success()) {
            return name.to_string();
        }
    }
    panic!("this test needs Chromium: install it (apt-get install chromium) or set CHROMIUM=/path/to/chrome");
}

/// Runs headless Chromium on `page` with `args` and a fresh profile; no network is needed.
fn headless(profile: &Path, args: &[String]) -> std::process::Output {
    let mut command = Command::new(chromium());
    command.args([
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--hide-scrollbars",
    ]);
    command.arg(format!("--user-data-dir={}", profile.display())).args(args);
    command.output().expect("Chromium runs")
}

/// The text inside the element whose opening tag contains `marker`.
fn element_text<'a>(dom: &'a str, marker: &str) -> &'a str {
    let start = dom.find(marker).unwrap_or_else(|| panic!("no {marker} in the DOM"));
    let open_end = start + dom[start..].find('>').expect("a tag") + 1;
    let close = open_end + dom[open_end..].find("</").expect("a closing tag");
    &dom[open_end..close]
}

#[test]
#[ignore = "needs Chromium: cargo test -p conformance --test all -- --ignored browser::"]
fn the_html_report_shows_the_verdict_and_the_failures_in_a_browser() {
    let dir: PathBuf = std::env::temp_dir().join(format!("conformance-browser-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let html = dir.join("report.html");
    let cases = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/report");
    let run = Command::new(env!("CARGO_BIN_EXE_conformance"))
        .args(["--cases", cases.to_str().unwrap(), "--html", html.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(101), "{}", String::from_utf8_lossy(&run.stdout));
    let url = format!("file://{}", html.display());

    let dump = headless(&dir.join("profile-dom"), &["--dump-dom".into(), url.clone()]);
    let dom = String::from_utf8_lossy(&dump.stdout).into_owned();
    assert!(
        dom.contains("data-ready=\"yes\""),
        "the page's script ran: {dom}{}",
        String::from_utf8_lossy(&dump.stderr)
    );
    assert_eq!(
        element_text(&dom, "id=\"verdict\""),
        "verdict: DOES NOT CONFORM: 2 of 4 must cases failed (should 100%)"
    );
    assert_eq!(element_text(&dom, "id=\"exit\""), "exit status 101: 2 must cases failed");
    assert_eq!(element_text(&dom, "id=\"failure-count\""), "2");
    assert_eq!(dom.matches("<article class=\"failure\"").count(), 2);
    assert!(dom.contains("<td class=\"path\">$.title</td>"), "one failure's JSON path");
    assert!(dom.contains("events.yaml:22:"), "the mismatch links to its line");
    assert!(dom.contains(">400 (code rest_missing_callback_param"), "the refusal's code");
    assert!(!dom.contains("editor-password"), "passwords are masked");

    let shot = dir.join("html-report.png");
    let taken = headless(
        &dir.join("profile-shot"),
        &[format!("--screenshot={}", shot.display()), "--window-size=1200,1500".into(), url],
    );
    let png = std::fs::read(&shot)
        .unwrap_or_else(|e| panic!("no screenshot ({e}): {}", String::from_utf8_lossy(&taken.stderr)));
    assert!(png.starts_with(b"\x89PNG\r\n\x1a\n") && png.len() > 20_000, "a real screenshot: {} bytes", png.len());
    if std::env::var_os("UPDATE_SCREENSHOT").is_some() {
        let docs = Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/html-report.png");
        std::fs::write(&docs, &png).unwrap();
    }
    let _ = std::fs::remove_dir_all(&dir);
}
