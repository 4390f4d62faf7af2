//! The command line: user specifications, the request log (issue 9: W4, W5, S9).

use std::io::{BufRead, BufReader, Read};
use std::process::{Command, Stdio};
use std::time::Duration;

use reference_server::{serve, Config, Role, UserSpec};

const BIN: &str = env!("CARGO_BIN_EXE_reference-server");

// ----- W4: users -----

#[test]
fn w4_a_password_may_contain_colons() {
    let user = UserSpec::parse("alice:pa:ss:word:editor").expect("parses");
    assert_eq!(user.name, "alice");
    assert_eq!(user.password, "pa:ss:word");
    assert_eq!(user.role, Role::Editor);
    assert!(UserSpec::parse("alice::editor").is_err(), "empty password");
    assert!(UserSpec::parse("alice:editor").is_err(), "no password");
}

#[tokio::test]
async fn w4_duplicate_user_names_are_refused() {
    let users = vec![UserSpec::parse("dup:one:editor").unwrap(), UserSpec::parse("dup:two:author").unwrap()];
    assert!(serve(Config { users, ..Config::ephemeral() }).await.is_err());
    let status = Command::new(BIN)
        .args(["--listen", "127.0.0.1:0", "--user", "dup:one:editor", "--user", "dup:two:author"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .expect("runs");
    assert!(!status.success());
}

// ----- S9, W5: the request log -----

/// Runs the binary with `RUST_LOG=info` and stderr piped, sends `paths`, and returns stderr.
fn log_of(paths: &[&str]) -> String {
    let mut child = Command::new(BIN)
        .args(["--listen", "127.0.0.1:0"])
        .env("RUST_LOG", "info")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("starts");
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut api = String::new();
    stdout.read_line(&mut api).expect("api line");
    let api = api.trim().to_string();
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    runtime.block_on(async {
        let client = reqwest::Client::new();
        for path in paths {
            let resp = client.get(format!("{api}{path}")).send().await.expect("answer");
            let _ = resp.text().await;
        }
        // Give the log line time to be written.
        tokio::time::sleep(Duration::from_millis(300)).await;
    });
    child.kill().expect("stop");
    let mut log = String::new();
    child.stderr.take().unwrap().read_to_string(&mut log).expect("stderr");
    let _ = child.wait();
    log
}

#[test]
fn s9_the_request_log_hides_passwords() {
    let log =
        log_of(&["/events?password=hunter2&search=x", "/events/1?Password=hunter3", "/events?password%5B%5D=hunter4"]);
    assert!(log.contains("/events?"), "the request is logged: {log}");
    for secret in ["hunter2", "hunter3", "hunter4"] {
        assert!(!log.contains(secret), "{secret} in the log: {log}");
    }
    assert!(log.contains("search=x"), "other parameters stay: {log}");
}

#[test]
fn w5_the_request_log_has_no_colour_codes_off_a_terminal() {
    let log = log_of(&["/events"]);
    assert!(log.contains("/events"), "the request is logged: {log}");
    assert!(!log.contains('\u{1b}'), "ANSI escape codes in a log that is not a terminal: {log:?}");
}

// ----- H17 (issue 21): timeouts too small to serve anything -----

#[test]
fn h17_a_timeout_too_small_is_refused_at_start() {
    for flag in ["--header-timeout", "--body-timeout", "--idle-timeout"] {
        for value in ["1e-300", "0.0001"] {
            let mut child = Command::new(BIN)
                .args(["--listen", "127.0.0.1:0", flag, value])
                .stdout(Stdio::null())
                .stderr(Stdio::piped())
                .spawn()
                .expect("runs");
            // A server that accepted the value would run on: give it a few seconds.
            let status = (0..100).find_map(|_| {
                std::thread::sleep(Duration::from_millis(50));
                child.try_wait().expect("waits")
            });
            if status.is_none() {
                let _ = child.kill();
                let _ = child.wait();
            }
            assert!(status.is_some_and(|status| !status.success()), "{flag} {value} was accepted");
            let mut message = String::new();
            child.stderr.take().unwrap().read_to_string(&mut message).unwrap();
            assert!(message.contains("at least 0.1"), "{flag} {value}: {message}");
        }
    }
}

// ----- the start lines -----

/// Nobody reads the start lines (the address and the users): the server serves all the same.
/// It used to panic on the first line written to a pipe whose reader had gone, and a test that
/// read the first line and dropped the pipe lost its server when the user lines came after.
#[cfg(unix)]
#[test]
fn a_server_whose_start_lines_nobody_reads_serves_all_the_same() {
    use std::os::fd::{FromRawFd, OwnedFd};
    let mut fds = [0; 2];
    // SAFETY: pipe() fills two new descriptors, each owned by one OwnedFd below.
    assert_eq!(unsafe { libc::pipe(fds.as_mut_ptr()) }, 0);
    let (reader, writer) = unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) };
    drop(reader);
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let mut child = Command::new(BIN)
        .args(["--listen", &format!("127.0.0.1:{port}")])
        .stdout(Stdio::from(writer))
        .stderr(Stdio::null())
        .spawn()
        .expect("starts");
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    let answered = runtime.block_on(async {
        let client = reqwest::Client::new();
        for _ in 0..100 {
            tokio::time::sleep(Duration::from_millis(100)).await;
            let url = format!("http://127.0.0.1:{port}/wp-json/calendar/events/v1/events");
            if let Ok(resp) = client.get(url).send().await {
                return Some(resp.status().as_u16());
            }
        }
        None
    });
    let exited = child.try_wait().unwrap();
    let _ = child.kill();
    let _ = child.wait();
    assert_eq!(exited, None, "the server stopped when nobody read its start lines");
    assert_eq!(answered, Some(200));
}

/// The start lines show the passwords of the built-in default users only: users given with
/// `--user` (or in a fixture) are shown by name and role, so that a real password never lands
/// in a log that keeps the start lines.
#[test]
fn also_user_passwords_given_at_start_are_not_printed() {
    let run = |args: &[&str], lines: usize| {
        let mut child = Command::new(BIN)
            .args(["--listen", "127.0.0.1:0"])
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("starts");
        let mut stdout = BufReader::new(child.stdout.take().unwrap());
        let mut printed = Vec::new();
        for _ in 0..lines {
            let mut line = String::new();
            stdout.read_line(&mut line).expect("a start line");
            printed.push(line.trim_end().to_string());
        }
        child.kill().expect("stop");
        let _ = child.wait();
        printed
    };
    let given = run(&["--user", "alice:Real-S3cret:pw:editor", "--user", "bob:Other-S3cret:subscriber"], 3);
    assert_eq!(given[1..], ["user alice (editor)", "user bob (subscriber)"], "{given:?}");
    let defaults = run(&[], 6);
    assert_eq!(defaults[1], "user admin:admin-password (administrator)");
}

/// `--state` with a bare file name: the file in the working directory, created and made
/// durable there (its directory is synced after the rename that puts it in place).
#[test]
fn a_state_file_named_without_a_folder_is_in_the_working_directory() {
    let unique = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_nanos();
    let folder = std::env::temp_dir().join(format!("reference-server-bare-state-{}-{unique}", std::process::id()));
    std::fs::create_dir_all(&folder).expect("a folder");
    let mut child = Command::new(BIN)
        .args(["--listen", "127.0.0.1:0", "--state", "calendar.state"])
        .current_dir(&folder)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("starts");
    let mut api = String::new();
    BufReader::new(child.stdout.take().unwrap()).read_line(&mut api).expect("a start line");
    child.kill().expect("stop");
    let mut errors = String::new();
    child.stderr.take().unwrap().read_to_string(&mut errors).expect("stderr");
    let _ = child.wait();
    let made = folder.join("calendar.state").is_file();
    let _ = std::fs::remove_dir_all(&folder);
    assert!(api.starts_with("http://127.0.0.1:"), "not started: {api:?} {errors}");
    assert!(made, "no calendar.state in the working directory");
}

/// A checking proxy says at start where the interface's requests go: the site's base URL, as
/// given.
#[test]
fn a_checking_proxy_names_its_site_at_start() {
    let site = "http://127.0.0.1:9/wp-json";
    let mut child = Command::new(BIN)
        .args(["--listen", "127.0.0.1:0", "--proxy-to", site])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("starts");
    let mut stderr = BufReader::new(child.stderr.take().unwrap());
    let mut line = String::new();
    stderr.read_line(&mut line).expect("a start line");
    child.kill().expect("stop");
    let _ = child.wait();
    assert!(line.trim_end().ends_with(&format!("checking proxy: the interface's requests go to {site}")), "{line}");
}
