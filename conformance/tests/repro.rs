//! `--repro`: the script written for a failing case, run against a reference server started
//! as the script says, gets the same failing answer.

use std::path::Path;
use std::process::Command;

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
    assert!(run.status.success(), "{answers}{}", String::from_utf8_lossy(&run.stderr));
    // The same id as in the failing run, and the name the case did not expect.
    assert!(answers.contains("HTTP/1.1 201"), "{answers}");
    let last = answers.rsplit("HTTP/1.1 ").next().unwrap();
    assert!(last.starts_with("200"), "{answers}");
    assert!(last.contains(&format!("\"id\":{failing_id}")) && last.contains("\"name\":\"Repro c"), "{last}");
    let _ = std::fs::remove_dir_all(&dir);
}
