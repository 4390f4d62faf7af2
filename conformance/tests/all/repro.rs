//! `--repro`: the script written for a failing case, run against a reference server started
//! as the script says, gets the same failing answer.

use std::path::Path;
use std::process::Command;

use crate::common;

fn fixtures(name: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures").join(name)
}

/// The reference server's options the script starts it with, as a configuration.
fn config_of(script: &str, port: u16) -> reference_server::Config {
    let line = script.lines().find(|l| l.trim_start().starts_with("$REFERENCE_SERVER ")).expect("a start command");
    let words: Vec<&str> = line.split_whitespace().collect();
    let mut config = reference_server::Config::ephemeral();
    config.listen = format!("127.0.0.1:{port}").parse().unwrap();
    let mut i = 1;
    while i < words.len() {
        match words[i] {
            "--listen" => assert_eq!(words[i + 1], "127.0.0.1:\"$PORT\""),
            "--clock" => config.clock = Some(words[i + 1].parse().expect("an RFC 3339 clock")),
            "--namespace" => config.namespace = words[i + 1].to_string(),
            "--language-param" => config.language_param = words[i + 1].to_string(),
            ">/dev/null" | "2>&1" | "&" => {
                i += 1;
                continue;
            }
            other => panic!("the test does not know the option {other} of: {line}"),
        }
        i += 2;
    }
    config
}

#[test]
fn a_repro_script_gets_the_failing_answer_again() {
    let dir = std::env::temp_dir().join(format!("conformance-repro-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let output = Command::new(env!("CARGO_BIN_EXE_conformance"))
        .args(["--cases", fixtures("repro").to_str().unwrap(), "--repro", dir.to_str().unwrap()])
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&output.stdout).into_owned();
    assert_eq!(output.status.code(), Some(101), "{out}");
    let path = dir.join("wrong_a_category_s_name_reads_back_as_another_name.sh");
    let script = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}: {out}", path.display()));

    // What it says: the failure, how to start the server, the steps with captured values.
    assert!(script.starts_with("#!/bin/sh\n# Reproduces a failing case"), "{script}");
    assert!(script.contains("#   $.name: expected \"Another name\", got \"Repro c"), "{script}");
    assert!(script.contains("EDITOR_PASSWORD=${EDITOR_PASSWORD:-editor-password}"), "{script}");
    assert!(script.contains("-u editor:\"$EDITOR_PASSWORD\""), "{script}");
    assert!(script.contains("head -c 3000 /dev/zero | tr '\\000' '\\170'"), "the filler, byte for byte: {script}");
    assert!(!script.contains("{{"), "templates are filled in: {script}");
    assert!(!script.contains("DELETE"), "the cleanup is not run: {script}");
    let failing_id =
        out.split("/categories/").nth(1).and_then(|s| s.split(['?', ' ', '\n']).next()).expect("the id in the report");
    assert!(
        script.contains(&format!("\"$SITE\"'/wp-json/calendar/events/v1/categories/{failing_id}?search=it%27s'")),
        "{script}"
    );

    // Run it against the server it names, started in-process on the same port and clock.
    let port: u16 = script
        .lines()
        .find_map(|l| l.strip_prefix("PORT=${PORT:-"))
        .and_then(|p| p.trim_end_matches('}').parse().ok())
        .expect("PORT");
    let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(1).enable_all().build().unwrap();
    let server = runtime.block_on(reference_server::serve(config_of(&script, port))).expect("the port is free again");
    let run = Command::new("sh").arg(&path).env("START_SERVER", "0").output().unwrap();
    runtime.block_on(server.shutdown());
    let answers = String::from_utf8_lossy(&run.stdout).into_owned();
    let said = String::from_utf8_lossy(&run.stderr).into_owned();
    // The case failed on its body, which the script leaves to the runner: exit status 2, and
    // the command that reruns the case.
    assert_eq!(run.status.code(), Some(2), "{answers}{said}");
    assert!(said.contains("the runner judges the whole case: conformance --exact 'wrong::"), "{said}");
    // The same id as in the failing run, and the name the case did not expect.
    assert!(answers.contains("HTTP/1.1 201"), "{answers}");
    let last = answers.rsplit("HTTP/1.1 ").next().unwrap();
    assert!(last.starts_with("200"), "{answers}");
    assert!(last.contains(&format!("\"id\":{failing_id}")) && last.contains("\"name\":\"Repro c"), "{last}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Every curl command a failure prints (each method, JSON and form bodies, credentials,
/// headers), run as printed against the server the runner talked to: each one ends, and gets
/// the status the runner got. (A HEAD printed as `-X HEAD` used to hang: curl waited for the
/// body the answer announced.)
#[test]
fn every_printed_curl_command_ends_and_gets_the_runners_answer() {
    if Command::new("curl").arg("--version").output().is_err() {
        eprintln!("skipped: curl is not installed (CI installs it)");
        return;
    }
    let server = common::server(true);
    let dir = common::temp("curl");
    let cases = r#"
level: should
spec: ["S1"]
cases:
  - name: a get
    steps: [{request: {path: /events, query: {per_page: 2}}, expect: {status: 599}}]
  - name: a head
    steps: [{request: {method: HEAD, path: /events}, expect: {status: 599}}]
  - name: a json post with credentials and a header
    steps: [{request: {method: POST, path: /tags, auth: editor, headers: {X-Trace: "it's"},
             json: {name: "Quote ' and $HOME {{case_id}}"}}, expect: {status: 599}}]
  - name: a form post
    steps: [{request: {method: POST, path: /categories, auth: administrator, form: {name: "Form {{case_id}}"}},
             expect: {status: 599}}]
  - name: a put
    steps:
      - request: {method: POST, path: /venues, auth: editor, json: {venue: "Hall {{case_id}}"}}
        capture: {id: $.id}
      - request: {method: PUT, path: "/venues/{{id}}", auth: editor, json: {city: Lyon}}
        expect: {status: 599}
  - name: a patch
    steps:
      - request: {method: POST, path: /venues, auth: editor, json: {venue: "Room {{case_id}}"}}
        capture: {id: $.id}
      - request: {method: PATCH, path: "/venues/{{id}}", auth: editor, json: {city: Paris}}
        expect: {status: 599}
  - name: a delete of nothing
    steps: [{request: {method: DELETE, path: /venues/999999999, auth: editor}, expect: {status: 599}}]
  - name: a refused read
    steps: [{request: {path: /events/999999999}, expect: {status: 599}}]
"#;
    std::fs::write(dir.join("curl.yaml"), cases).unwrap();
    let mut args = vec!["--cases".to_string(), dir.display().to_string(), "--base-url".into(), server.base_url.clone()];
    for (role, user) in [("administrator", "admin"), ("editor", "editor")] {
        args.extend(["--auth".into(), format!("{role}={user}:{user}-password")]);
    }
    args.extend(["--show-credentials".into(), "--test-threads".into(), "1".into(), "--color".into(), "never".into()]);
    let output = Command::new(env!("CARGO_BIN_EXE_conformance")).args(&args).output().unwrap();
    let out = String::from_utf8_lossy(&output.stdout).into_owned();
    assert_eq!(output.status.code(), Some(101), "{out}{}", String::from_utf8_lossy(&output.stderr));
    let lines: Vec<&str> = out.lines().collect();
    let mut checked = 0;
    for (i, line) in lines.iter().enumerate() {
        let Some(command) = line.trim_start().strip_prefix("curl ").map(|rest| format!("curl {rest}")) else {
            continue;
        };
        let status: u16 = lines[i + 1]
            .trim()
            .strip_prefix("status: ")
            .and_then(|s| s.split(' ').next()?.parse().ok())
            .unwrap_or_else(|| panic!("no status after {command}"));
        let started = std::time::Instant::now();
        let run = Command::new("sh")
            .args(["-c", &format!("{command} --max-time 20 -sS -o /dev/null -w '%{{http_code}}'")])
            .output()
            .unwrap();
        let printed = String::from_utf8_lossy(&run.stdout);
        assert!(started.elapsed() < std::time::Duration::from_secs(15), "it took {:?}: {command}", started.elapsed());
        assert_eq!(printed.trim(), status.to_string(), "{command}: {}", String::from_utf8_lossy(&run.stderr));
        checked += 1;
    }
    assert_eq!(checked, 8, "{out}");
}
