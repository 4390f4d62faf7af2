//! The suite the binary carries: run, listed, measured and exported from a folder that has no
//! `cases/`, named by `--version`, and shown in messages and reports by its paths under
//! `cases/`; credentials from the environment.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use crate::common;
use common::*;

/// Runs the binary in `dir` (an empty folder unless a test writes into it).
fn conformance_in(dir: &Path, args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_conformance"));
    command.args(args).current_dir(dir).env("NO_COLOR", "1");
    for role in ["ADMINISTRATOR", "EDITOR", "AUTHOR", "CONTRIBUTOR", "SUBSCRIBER"] {
        command.env_remove(format!("CONFORMANCE_AUTH_{role}"));
    }
    command.envs(env.iter().copied()).output().expect("the conformance binary runs")
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn text(output: &Output) -> String {
    format!("{}{}", stdout(output), String::from_utf8_lossy(&output.stderr))
}

fn repository_cases() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../cases")
}

#[test]
fn version_names_the_suite_and_its_size() {
    let empty = temp("version");
    let output = conformance_in(&empty, &["--version"], &[]);
    assert_eq!(output.status.code(), Some(0));
    let line = stdout(&output);
    let cases = conformance::suite::case_count(&conformance::suite::load());
    let files = conformance::suite::files().len();
    let expected = format!(
        "conformance {}, suite {}: {cases} cases in {files} files",
        env!("CARGO_PKG_VERSION"),
        conformance::suite::digest()
    );
    assert!(line.starts_with(&expected), "{line}");
    assert_eq!(line.lines().count(), 1, "{line}");
    // The subcommands print the same line.
    assert_eq!(stdout(&conformance_in(&empty, &["coverage", "--version"], &[])), line);
}

#[test]
fn without_cases_the_embedded_suite_runs_lists_and_measures_from_any_folder() {
    let empty = temp("list");
    let listed = conformance_in(&empty, &["--list"], &[]);
    assert_eq!(listed.status.code(), Some(0), "{}", text(&listed));
    let repository = repository_cases();
    let from_folder = conformance_in(&empty, &["--list", "--cases", repository.to_str().unwrap()], &[]);
    assert_eq!(stdout(&listed), stdout(&from_folder), "the same names, in the same order");
    let count = conformance::suite::case_count(&conformance::suite::load());
    let last = stdout(&listed).lines().last().unwrap_or_default().to_string();
    assert!(last.starts_with(&format!("{count} tests (")) && last.ends_with(" may), 0 benchmarks"), "{last}");

    let coverage = conformance_in(&empty, &["coverage", "--color", "never"], &[]);
    assert_eq!(coverage.status.code(), Some(0), "{}", text(&coverage));
    assert!(stdout(&coverage).contains(&format!("{count} cases in")), "{}", stdout(&coverage));
    assert!(stdout(&coverage).contains("(the embedded suite)"));

    // A run: one file's cases, against the embedded reference server.
    let run = conformance_in(&empty, &["events/create::", "--test-threads", "2"], &[]);
    assert_eq!(run.status.code(), Some(0), "{}", text(&run));
    assert!(stdout(&run).contains("test [must] events/create::"), "{}", stdout(&run));
    assert_eq!(std::fs::read_dir(&*empty).unwrap().count(), 0, "nothing written");

    // A selection that matches nothing is still exit status 2.
    let none = conformance_in(&empty, &["no-such-case"], &[]);
    assert_eq!(none.status.code(), Some(2));
    assert!(
        text(&none).contains(&format!("matches none of the {count} cases in the embedded suite")),
        "{}",
        text(&none)
    );
}

#[test]
fn failures_and_reports_name_the_case_files_under_cases() {
    let site = server(false);
    let empty = temp("names");
    let junit = empty.join("junit.xml");
    let html = empty.join("report.html");
    let output = conformance_in(
        &empty,
        &[
            "--base-url",
            &site.base_url,
            "--auth",
            "editor=editor:editor-password",
            "--exact",
            "events/more-fields::ticketed set on update is found by the ticketed filter",
            "--junit",
            junit.to_str().unwrap(),
            "--html",
            html.to_str().unwrap(),
        ],
        &[],
    );
    let out = text(&output);
    assert_eq!(output.status.code(), Some(101), "a site without tickets fails the ticket case: {out}");
    assert!(out.contains("(cases/events/more-fields.yaml, level "), "{out}");
    assert!(out.contains("(at cases/events/more-fields.yaml:"), "{out}");
    let junit = std::fs::read_to_string(&junit).unwrap();
    assert!(junit.contains("cases/events/more-fields.yaml"), "{junit}");
    let html = std::fs::read_to_string(&html).unwrap();
    assert!(html.contains(&format!("the embedded suite {}", conformance::suite::digest())), "the suite is named");
    assert!(html.contains("<code>cases/events/more-fields.yaml:"), "named, not linked: the file is not here");
}

#[test]
fn export_writes_the_suite_and_refuses_to_overwrite() {
    let dir = temp("export");
    let target = dir.join("suite");
    let output = conformance_in(&dir, &["cases", "export", "suite"], &[]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output));
    let out = stdout(&output);
    let files = conformance::suite::files();
    assert_eq!(out.lines().count(), files.len() + 1, "one line per file and a summary: {out}");
    assert!(out.lines().last().unwrap().contains(&format!(
        "wrote {} case files of the suite {}",
        files.len(),
        conformance::suite::digest()
    )));
    for file in files {
        let written = std::fs::read(target.join(file.path)).unwrap();
        assert_eq!(written, std::fs::read(repository_cases().join(file.path)).unwrap(), "{}", file.path);
    }
    // The copy runs as the suite does.
    let listed = conformance_in(&dir, &["--list"], &[]);
    assert_eq!(stdout(&conformance_in(&dir, &["--list", "--cases", "suite"], &[])), stdout(&listed));

    // A second export stops before writing anything; --force replaces.
    let first = &files[0];
    std::fs::write(target.join(first.path), "changed").unwrap();
    std::fs::remove_file(target.join(files[1].path)).unwrap();
    let refused = conformance_in(&dir, &["cases", "export", "suite"], &[]);
    assert_eq!(refused.status.code(), Some(2));
    assert!(text(&refused).contains("nothing was written; give --force"), "{}", text(&refused));
    assert!(!target.join(files[1].path).exists());
    assert_eq!(std::fs::read_to_string(target.join(first.path)).unwrap(), "changed");
    let forced = conformance_in(&dir, &["cases", "export", "suite", "--force"], &[]);
    assert_eq!(forced.status.code(), Some(0), "{}", text(&forced));
    assert!(stdout(&forced).contains(&format!("suite/{} (replaced)", first.path)), "{}", stdout(&forced));
    assert_eq!(std::fs::read(target.join(first.path)).unwrap(), first.contents);
}

#[test]
fn credentials_come_from_the_environment() {
    let site = server(true);
    let empty = temp("env");
    let env: Vec<(String, String)> = ["administrator", "editor", "author", "contributor", "subscriber"]
        .iter()
        .map(|role| {
            let user = if *role == "administrator" { "admin" } else { role };
            (format!("CONFORMANCE_AUTH_{}", role.to_uppercase()), format!("{user}:{user}-password"))
        })
        .collect();
    let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    let args = ["--base-url", &site.base_url, "auth/matrix::", "--test-threads", "2"];
    let output = conformance_in(&empty, &args, &env);
    let out = text(&output);
    assert_eq!(output.status.code(), Some(0), "{out}");
    assert!(!out.contains("no credentials for"), "{out}");
    assert!(!out.contains("... ignored"), "every role is given: {out}");
    // Without them, cases are skipped; a wrong one stops the run at pre-flight, unshown.
    let output = conformance_in(&empty, &args, &[]);
    assert!(
        text(&output).contains("note: no credentials for administrator, editor, author, contributor and subscriber")
    );
    let wrong = [("CONFORMANCE_AUTH_EDITOR", "editor:s3cr3t-wrong")];
    let output = conformance_in(&empty, &args, &wrong);
    assert_eq!(output.status.code(), Some(2));
    assert!(text(&output).contains("editor"), "{}", text(&output));
    assert!(!text(&output).contains("s3cr3t-wrong"), "{}", text(&output));
    let bad = [("CONFORMANCE_AUTH_AUTHOR", "no-colon")];
    let output = conformance_in(&empty, &args, &bad);
    assert_eq!(output.status.code(), Some(2));
    assert!(text(&output).contains("CONFORMANCE_AUTH_AUTHOR must be USER:PASSWORD"), "{}", text(&output));
    assert!(!text(&output).contains("no-colon"));
    // --auth wins over the environment.
    let args = [&args[..], &["--auth", "editor=editor:editor-password"]].concat();
    assert_eq!(conformance_in(&empty, &args, &wrong).status.code(), Some(0));
}

/// The implementer's loop on a small folder: run, select with --tag and --route, write the
/// failures as expectations, rerun only the failures, gate on the expectations.
#[test]
fn the_loop_selects_writes_expectations_and_reruns_the_failures() {
    let dir = temp("loop");
    std::fs::create_dir_all(dir.join("cases")).unwrap();
    let cases = r#"
level: must
spec: ["4.1"]
tags: [events]
cases:
  - name: the events list answers
    steps: [{request: {path: /events}, expect: {status: 2xx}}]
  - name: a wrong expectation fails
    steps: [{request: {path: /events}, expect: {status: 418}}]
  - name: the venues list answers
    tags: [venues]
    steps: [{request: {path: /venues}, expect: {status: 2xx}}]
  - name: another wrong one about venues
    tags: [venues]
    steps: [{request: {path: /venues}, expect: {status: 418}}]
"#;
    std::fs::write(dir.join("cases/loop.yaml"), cases).unwrap();
    let run = |args: &[&str]| conformance_in(&dir, &[&["--cases", "cases"], args].concat(), &[]);

    let first = run(&["--json", "report.json", "--write-expectations", "known.txt"]);
    assert_eq!(first.status.code(), Some(101), "{}", text(&first));
    let known = std::fs::read_to_string(dir.join("known.txt")).unwrap();
    let listed: Vec<&str> = known.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(listed, ["loop::a wrong expectation fails", "loop::another wrong one about venues"], "{known}");

    let tagged = run(&["--tag", "venues", "--list"]);
    assert!(stdout(&tagged).contains("loop::the venues list answers: test [must]"), "{}", text(&tagged));
    assert!(stdout(&tagged).contains("2 tests (2 must), 0 benchmarks"), "{}", text(&tagged));
    let routed = run(&["--route", "GET /events*", "--exact", "loop::the events list answers"]);
    assert_eq!(routed.status.code(), Some(0), "{}", text(&routed));
    assert!(
        stdout(&routed).contains("CONFORMS on the 1 must cases selected (3 left out by the selection)"),
        "{}",
        text(&routed)
    );

    let rerun = run(&["--rerun-failed", "report.json"]);
    assert_eq!(rerun.status.code(), Some(101));
    assert!(stdout(&rerun).contains("2 failed; 0 ignored; 0 measured; 2 filtered out"), "{}", text(&rerun));
    let gated = run(&["--rerun-failed", "report.json", "--expectations", "known.txt"]);
    assert_eq!(gated.status.code(), Some(0), "{}", text(&gated));
    let passed = run(&["--json", "passed.json", "--tag", "venues", "--skip", "wrong"]);
    assert_eq!(passed.status.code(), Some(0), "{}", text(&passed));
    let nothing = run(&["--rerun-failed", "passed.json"]);
    assert_eq!(nothing.status.code(), Some(2));
    assert!(text(&nothing).contains("nothing to rerun"), "{}", text(&nothing));
}

/// Issue 37, item 1: whatever its failing cases are called, an implementation reaches a green
/// gate with `--write-expectations` then `--expectations`. The two cases whose names hold a `#`
/// (`&#038;`) fail against a server whose every create answers 503, and the written file lists
/// them so that they read back.
#[test]
fn known_failures_whose_names_hold_a_hash_round_trip_to_a_green_gate() {
    let dir = temp("hash-names");
    let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(1).enable_all().build().unwrap();
    let mut config = reference_server::Config::ephemeral();
    config.faults = vec![reference_server::FaultRule::from_flag("error,status=503,method=POST").unwrap()];
    let server = runtime.block_on(reference_server::serve(config)).unwrap();
    let base_url = server.base_url().to_string();
    let mut args = vec!["--base-url".to_string(), base_url, "&#038;".to_string()];
    for user in reference_server::UserSpec::defaults() {
        args.extend(["--auth".to_string(), format!("{}={}:{}", user.role.name(), user.name, user.password)]);
    }
    let run = |extra: &[&str]| {
        let args: Vec<&str> = args.iter().map(String::as_str).chain(extra.iter().copied()).collect();
        conformance_in(&dir, &args, &[])
    };
    let first = run(&["--write-expectations", "known.txt"]);
    assert_eq!(first.status.code(), Some(101), "{}", text(&first));
    assert!(text(&first).contains("2 failed cases written to known.txt"), "{}", text(&first));
    let known = std::fs::read_to_string(dir.join("known.txt")).unwrap();
    let listed = conformance::expectations::parse(&known).unwrap();
    assert_eq!(listed.len(), 2, "{known}");
    assert!(listed.iter().all(|name| name.starts_with("text/") && name.contains("&#038;")), "{known}");
    let gated = run(&["--expectations", "known.txt"]);
    assert_eq!(gated.status.code(), Some(0), "{}", text(&gated));
    assert!(text(&gated).contains("2 failures are all listed in known.txt as expected"), "{}", text(&gated));
    runtime.block_on(server.shutdown());
}

/// XML and HTML text back to plain text (the five entities the reports write).
fn unescape(text: &str) -> String {
    text.replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&apos;", "'")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&")
}

/// The text between `start` and the next `end` after it.
fn between<'a>(text: &'a str, start: &str, end: &str) -> &'a str {
    let from = text.find(start).map(|at| at + start.len()).unwrap_or_else(|| panic!("no {start:?} in {text}"));
    let rest = &text[from..];
    &rest[..rest.find(end).unwrap_or(rest.len())]
}

/// Issue 37, items 3 and 6: the terminal, HTML, JSON and JUnit reports carry the same verdict
/// line and the same selection line, and the level of each case.
#[test]
fn every_report_has_the_same_verdict_line_the_selection_and_each_case_level() {
    let dir = temp("same-verdict");
    let args = ["--route", "/venues*", "--level", "must", "--json", "r.json", "--junit", "r.xml", "--html", "r.html"];
    let output = conformance_in(&dir, &args, &[]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output));
    let terminal = stdout(&output);
    let verdict = terminal.lines().last().unwrap().to_string();
    assert!(verdict.starts_with("verdict: CONFORMS on the "), "{terminal}");
    assert!(verdict.contains(" must cases selected ("), "{verdict}");
    let selection = terminal.lines().find(|l| l.starts_with("selection: ")).expect("a selection line").to_string();
    assert!(selection.starts_with("selection: --route \"/venues*\", --level must: "), "{selection}");
    assert!(selection.contains(" cases selected, ") && selection.contains(" left out ("), "{selection}");

    let json: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(dir.join("r.json")).unwrap()).unwrap();
    assert_eq!(json["verdict"], verdict.as_str());
    assert_eq!(json["selection"]["line"], selection.as_str());
    assert!(json["selection"]["left_out"].as_u64().unwrap() > 500, "{}", json["selection"]);
    let cases = json["cases"].as_array().unwrap();
    assert!(!cases.is_empty() && cases.iter().all(|c| c["level"] == "must"));

    let xml = std::fs::read_to_string(dir.join("r.xml")).unwrap();
    assert_eq!(unescape(between(&xml, "<property name=\"verdict\" value=\"", "\"/>")), verdict, "{xml}");
    assert_eq!(unescape(between(&xml, "<property name=\"selection\" value=\"", "\"/>")), selection, "{xml}");
    assert_eq!(xml.matches("<testcase name=\"[must] ").count(), cases.len(), "{xml}");
    assert_eq!(xml.matches("<property name=\"level\" value=\"must\"/>").count(), cases.len(), "{xml}");

    let html = std::fs::read_to_string(dir.join("r.html")).unwrap();
    let shown = format!(
        "{}; {}",
        unescape(between(&html, "<p id=\"verdict\" class=\"verdict conforms\">", "</p>")),
        unescape(between(&html, "<p id=\"exit\" class=\"exit\">", "</p>"))
    );
    assert_eq!(shown, verdict);
    assert_eq!(unescape(between(&html, "<p id=\"selection\" class=\"meta\">", "</p>")), selection);
    assert_eq!(html.matches("<span class=\"skip\">(must)</span>").count(), cases.len());
}

/// Issue 37, item 6: a known failure stays a known failure in JUnit, with a message that says so.
#[test]
fn junit_says_a_known_failure_is_known() {
    let dir = temp("junit-known");
    std::fs::create_dir_all(dir.join("cases")).unwrap();
    let case = "level: should\ncases:\n  - name: wrong on purpose\n    steps: [{request: {path: /events}, expect: {status: 418}}]\n";
    std::fs::write(dir.join("cases/k.yaml"), case).unwrap();
    std::fs::write(dir.join("known.txt"), "k::wrong on purpose\n").unwrap();
    let output = conformance_in(&dir, &["--cases", "cases", "--expectations", "known.txt", "--junit", "r.xml"], &[]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output));
    let xml = std::fs::read_to_string(dir.join("r.xml")).unwrap();
    assert!(xml.contains("<testcase name=\"[should] wrong on purpose\""), "{xml}");
    assert!(xml.contains("<skipped message=\"known failure (listed in known.txt): steps[0]: status"), "{xml}");
}

/// Issue 37, three more freedoms: a precondition the interface does not promise (`assume`)
/// skips the case when it does not hold, with the reason, and never fails it; the rest of the
/// step is still judged, and a case whose precondition holds runs on.
#[test]
fn an_unmet_assumption_skips_the_case_and_a_failed_check_still_fails() {
    let dir = temp("assume");
    std::fs::create_dir_all(dir.join("cases")).unwrap();
    let cases = r#"
level: must
cases:
  - name: unmet
    steps:
      - request: {method: POST, path: /categories, auth: administrator, json: {name: "A {{case_id}}"}}
        expect: {status: 2xx, assume: {name: "something else"}}
        capture: {id: $.id}
      - request: {path: /nothing-here}
        expect: {status: 2xx}
    cleanup:
      - request: {method: DELETE, path: "/categories/{{id}}?force=true", auth: administrator}
  - name: held
    steps:
      - request: {method: POST, path: /categories, auth: administrator, json: {name: "B {{case_id}}"}}
        expect: {status: 2xx, assume: {name: {$regex: "^B "}}}
      - request: {path: /nothing-here}
        expect: {status: 2xx}
  - name: failed before the assumption
    steps:
      - request: {method: POST, path: /categories, auth: administrator, json: {name: "C {{case_id}}"}}
        expect: {status: 2xx, json: {name: "not this"}, assume: {name: "nor this"}}
"#;
    std::fs::write(dir.join("cases/a.yaml"), cases).unwrap();
    let output = conformance_in(&dir, &["--cases", "cases", "--json", "r.json"], &[]);
    assert_eq!(output.status.code(), Some(101), "{}", text(&output));
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("r.json")).unwrap()).unwrap();
    let case = |name: &str| report["cases"].as_array().unwrap().iter().find(|c| c["name"] == name).unwrap().clone();
    let unmet = case("a::unmet");
    assert_eq!(unmet["outcome"], "skipped", "{unmet}");
    assert!(unmet["reason"].as_str().unwrap().contains("a precondition the interface does not promise"), "{unmet}");
    assert_eq!(unmet["steps"].as_array().unwrap().len(), 1, "the steps after it are not sent: {unmet}");
    assert_eq!(unmet["cleanup"][0]["status"], 200, "the cleanup runs: {unmet}");
    assert_eq!(case("a::held")["failed_step"], "steps[1]", "a held assumption lets the case run on");
    assert_eq!(case("a::failed before the assumption")["outcome"], "failed");
}

/// The counts README.md and docs/ show about the suite agree with it (scripts/doc-numbers.py;
/// the sample summaries, which need two runs of the whole suite, are CI's to check). After
/// changing cases, `python3 scripts/doc-numbers.py` updates the documents.
#[test]
fn the_documents_counts_agree_with_the_suite() {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../scripts/doc-numbers.py");
    let output = Command::new("python3")
        .arg(script)
        .args(["--check", "--counts-only"])
        .env("CONFORMANCE", env!("CARGO_BIN_EXE_conformance"))
        .env("REFERENCE_SERVER", "unused")
        .output()
        .expect("python3 runs");
    assert!(output.status.success(), "{}", text(&output));
}

/// `--like plugin-6.17.2` and `--quirk` start the embedded server as the plugin's twin: the case
/// that shows a quirk fails with it and passes without it, a failure's repro names the quirk,
/// and both options are refused with `--base-url` or with a name the server does not know.
#[test]
fn like_and_quirk_start_the_embedded_server_as_the_plugins_twin() {
    let dir = temp("twin");
    let case = "events-list/filters::tags selects by ID or slug, as an array or a comma list";
    let run = |extra: &[&str]| conformance_in(&dir, &[&["--exact", case], extra].concat(), &[]);
    assert_eq!(run(&[]).status.code(), Some(0));
    for twin in [&["--like", "plugin-6.17.2"][..], &["--quirk", "tags-first-only"]] {
        let output = run(&[twin, &["--repro", "repro"]].concat());
        assert_eq!(output.status.code(), Some(101), "{}", text(&output));
    }
    let scripts: Vec<String> = std::fs::read_dir(dir.join("repro"))
        .unwrap()
        .map(|entry| std::fs::read_to_string(entry.unwrap().path()).unwrap())
        .collect();
    assert!(scripts.iter().any(|script| script.contains("--quirk tags-first-only")), "{scripts:?}");
    let other = run(&["--quirk", "draft-no-slug"]);
    assert_eq!(other.status.code(), Some(0), "one quirk alone leaves the others off: {}", text(&other));
    for (args, message) in [
        (&["--like", "plugin-1.0"][..], "unknown --like"),
        (&["--quirk", "teleport"], "unknown quirk"),
        (&["--like", "plugin-6.17.2", "--base-url", "http://127.0.0.1:9/wp-json"], "do not go with --base-url"),
    ] {
        let output = run(args);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {}", text(&output));
        assert!(text(&output).contains(message), "{args:?}: {}", text(&output));
    }
}
