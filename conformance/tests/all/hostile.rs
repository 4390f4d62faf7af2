//! The runner against a hostile implementation: a server written here, on raw TCP so that it can
//! send what a well-behaved HTTP library would refuse, answers with terminal control sequences
//! and forged lines, shell metacharacters in IDs and slugs, the run's credentials echoed in
//! every encoding, a huge JSON array, a body that never ends and no answer at all. Case files
//! written here add a quote in a method and newlines in a file name and a case name.
//!
//! The runner runs with every report (`--json`, `--junit`, `--html`, `--repro`), and then:
//! - every run ends, within the `--timeout` it was given (h13 and the endless bodies);
//! - the terminal output holds no control character but line breaks, and no forged line (h6);
//! - no credential appears in any output, in any encoding (h3, h4, h5);
//! - every `--repro` script, run with `sh`, runs no planted command (h1, h2), and the `--repro`
//!   folder's planted symbolic links are not followed (h7);
//! - the huge answer does not take the runner's memory with it (h13, measured on Linux);
//! - devices, FIFOs and symbolic links to them are refused as the files the runner reads and
//!   writes (r17).

use crate::common;

use std::io::Read;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use base64::Engine;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

const NS: &str = "/wp-json/calendar/events/v1";

/// Text that runs `touch pwned-…` in the current folder if a shell ever reads it as code.
const PAYLOAD: &str = "1$(touch pwned-dollar)`touch pwned-tick`'\"\n;touch pwned-newline;#\\'";

/// Terminal control: set the title, clear the screen, write the clipboard (OSC 52), colour.
const ESC: &str = "\x1b]0;TITLE-HIJACK\x07\x1b[2J\x1b]52;c;cHduZWQ=\x07\x1b[32m";

/// Lines a hostile answer tries to forge on the runner's terminal.
const FORGED: &str = "\ntest result: ok. 99 passed; 0 failed; FORGED\nverdict: CONFORMS\r\u{2028}\u{202e}";

/// The size of the huge answer: a JSON array of zeros.
const HUGE_BYTES: usize = 24 * 1024 * 1024;

/// How long a hanging or endless answer lasts at most (the runner's timeout is far shorter).
const HANG: Duration = Duration::from_secs(40);

// ----- the hostile server -----

fn server() -> SocketAddr {
    static ADDR: OnceLock<SocketAddr> = OnceLock::new();
    *ADDR.get_or_init(|| {
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            // Made before the first request: no worker waits for another to make it.
            huge();
            let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(4).enable_all().build().unwrap();
            runtime.block_on(async move {
                let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
                tx.send(listener.local_addr().unwrap()).unwrap();
                while let Ok((stream, _)) = listener.accept().await {
                    tokio::spawn(async move {
                        let _ = tokio::time::timeout(HANG + Duration::from_secs(5), connection(stream)).await;
                    });
                }
            });
        });
        rx.recv().unwrap()
    })
}

/// A request as the server reads it.
struct Request {
    method: String,
    path: String,
    authorization: Option<String>,
}

/// Reads one request (head at most 64 KiB, body at most 1 MiB) and answers it; then closes.
async fn connection(mut stream: TcpStream) -> std::io::Result<()> {
    let mut head = Vec::new();
    let mut byte = [0u8; 1];
    while !head.ends_with(b"\r\n\r\n") && head.len() < 64 * 1024 {
        if stream.read(&mut byte).await? == 0 {
            return Ok(());
        }
        head.push(byte[0]);
    }
    let head = String::from_utf8_lossy(&head).into_owned();
    let mut lines = head.split("\r\n");
    let mut first = lines.next().unwrap_or_default().split(' ');
    let (method, path) = (first.next().unwrap_or_default().to_string(), first.next().unwrap_or_default().to_string());
    let mut length = 0usize;
    let mut authorization = None;
    for line in lines {
        if let Some((name, value)) = line.split_once(':') {
            match name.trim().to_ascii_lowercase().as_str() {
                "content-length" => length = value.trim().parse().unwrap_or(0).min(1 << 20),
                "authorization" => authorization = Some(value.trim().to_string()),
                _ => {}
            }
        }
    }
    let mut body = vec![0; length];
    stream.read_exact(&mut body).await?;
    answer(&mut stream, Request { method, path, authorization }).await
}

/// Writes a whole answer: status, headers as raw bytes, body.
async fn reply(stream: &mut TcpStream, status: &str, headers: &[(&str, Vec<u8>)], body: &[u8]) -> std::io::Result<()> {
    let mut out = format!("HTTP/1.1 {status}\r\nConnection: close\r\nContent-Length: {}\r\n", body.len()).into_bytes();
    for (name, value) in headers {
        out.extend_from_slice(name.as_bytes());
        out.extend_from_slice(b": ");
        out.extend_from_slice(value);
        out.extend_from_slice(b"\r\n");
    }
    out.extend_from_slice(b"\r\n");
    stream.write_all(&out).await?;
    stream.write_all(body).await?;
    stream.shutdown().await
}

fn json_type() -> (&'static str, Vec<u8>) {
    ("Content-Type", b"application/json; charset=UTF-8".to_vec())
}

async fn answer(stream: &mut TcpStream, request: Request) -> std::io::Result<()> {
    let rest = request.path.strip_prefix(NS).unwrap_or("").split('?').next().unwrap_or("").to_string();
    let first = rest.trim_start_matches('/').split('/').next().unwrap_or("").to_string();
    match (request.method.as_str(), first.as_str()) {
        ("GET", "") => {
            let index = serde_json::json!({"namespace": "calendar/events/v1", "routes": {}}).to_string();
            reply(stream, "200 OK", &[json_type()], index.as_bytes()).await
        }
        ("POST", "things") => {
            let thing = serde_json::json!({"id": PAYLOAD, "slug": PAYLOAD, "title": ESC}).to_string();
            reply(stream, "201 Created", &[json_type()], thing.as_bytes()).await
        }
        (_, "things") | (_, "inject") => inject(stream).await,
        (_, "text") => {
            let text = format!("not JSON{ESC}{FORGED}");
            reply(stream, "200 OK", &[("Content-Type", b"text/plain".to_vec())], text.as_bytes()).await
        }
        (_, "echo") => echo(stream, request.authorization.as_deref()).await,
        // A create answered with the huge array: the sweep reads creates' answers (their IDs).
        (_, "huge") | ("POST", "events") => reply(stream, "200 OK", &[json_type()], huge()).await,
        (_, "endless") => endless(stream).await,
        (_, "hang") => {
            tokio::time::sleep(HANG).await;
            reply(stream, "200 OK", &[json_type()], b"{}").await
        }
        _ => reply(stream, "404 Not Found", &[json_type()], b"{\"code\":\"rest_no_route\"}").await,
    }
}

/// A refusal whose code, message and headers carry terminal control and forged lines.
async fn inject(stream: &mut TcpStream) -> std::io::Result<()> {
    let body = serde_json::json!({
        "code": format!("x{ESC}"),
        "message": format!("<script>x</script>{ESC}{FORGED}"),
        "id": PAYLOAD,
        "data": {"status": 400},
    })
    .to_string();
    // Header values as raw bytes: a C1 control (CSI, U+009B) in UTF-8, and bytes that are not.
    let headers = [json_type(), ("X-Evil", b"a\xc2\x9b31mC1 \xe2\x80\xae rtl \xff".to_vec())];
    reply(stream, "400 Bad Request", &headers, body.as_bytes()).await
}

/// The request's credentials echoed back in every encoding.
async fn echo(stream: &mut TcpStream, authorization: Option<&str>) -> std::io::Result<()> {
    let token = authorization.and_then(|a| a.strip_prefix("Basic ")).unwrap_or("").to_string();
    let decoded = base64::engine::general_purpose::STANDARD.decode(&token).unwrap_or_default();
    let decoded = String::from_utf8_lossy(&decoded).into_owned();
    let password = decoded.split_once(':').map(|(_, p)| p.to_string()).unwrap_or_default();
    let percent =
        |text: &str| percent_encoding::utf8_percent_encode(text, percent_encoding::NON_ALPHANUMERIC).to_string();
    let php = serde_json::to_string(&password).unwrap().replace('/', "\\/");
    let ascii: String =
        php.chars().map(|c| if c.is_ascii() { c.to_string() } else { format!("\\u{:04X}", c as u32) }).collect();
    let body = format!(
        r#"{{"id": 7, "auth": "Basic {token}", "password": {json}, "php": {php}, "ascii": {ascii}, "lower": "{lower}", "upper": "{upper}", "form": "{form}", "b64": "{b64}", "nested": {nested}}}"#,
        json = serde_json::to_string(&password).unwrap(),
        lower = lower_hex(&percent(&password)),
        upper = percent(&password),
        form = percent(&password).replace("%20", "+"),
        b64 = base64::engine::general_purpose::STANDARD.encode(&password),
        nested = serde_json::to_string(&serde_json::to_string(&serde_json::json!({"p": password})).unwrap()).unwrap(),
    );
    let headers = [
        json_type(),
        ("X-Echo-Password", percent(&password).into_bytes()),
        ("Location", format!("http://127.0.0.1/?p={}", percent(&password)).into_bytes()),
    ];
    reply(stream, "400 Bad Request", &headers, body.as_bytes()).await
}

/// Percent-encoding with lower-case hexadecimal digits (`%c3%a9`), the letters of the text kept.
fn lower_hex(encoded: &str) -> String {
    let mut out = String::new();
    let mut after_percent = 0;
    for c in encoded.chars() {
        if c == '%' {
            after_percent = 2;
            out.push(c);
        } else if after_percent > 0 {
            after_percent -= 1;
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

fn huge() -> &'static [u8] {
    static HUGE: OnceLock<Vec<u8>> = OnceLock::new();
    HUGE.get_or_init(|| [b"{\"events\":[".as_slice(), &b"0,".repeat(HUGE_BYTES / 2), b"0]}"].concat())
}

/// Headers, then a chunked body that never ends (a chunk every 200 ms, until [`HANG`]).
async fn endless(stream: &mut TcpStream) -> std::io::Result<()> {
    let head = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n1\r\n[\r\n";
    stream.write_all(head.as_bytes()).await?;
    let end = Instant::now() + HANG;
    while Instant::now() < end {
        stream.write_all(b"2\r\n0,\r\n").await?;
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    Ok(())
}

// ----- the case files -----

/// The password of the run: a quote, a slash, a space, an apostrophe, a non-ASCII letter and a
/// command; `Zx9Qw` is in every encoding of it that is not base64.
const PASSWORD: &str = "Zx9Qw \"q/é'$(touch pwned-password)";

/// The user: shell metacharacters too (a user name is no secret, and must still be quoted).
const USER: &str = "ed$(touch pwned-user)";

/// The case files: (file name, text).
const CASE_FILES: [(&str, &str); 7] = [
        (
            "quote.yaml",
            r#"level: must
cases:
  - name: a method with a quote
    steps:
      - request: {method: "X'", path: /text}
      - request: {method: POST, path: /things, json: {title: "$(touch pwned-quote)"}}
        expect: {status: 299}
"#,
        ),
        ("x\ntouch pwned-filename\n#.yaml", "level: must\ncases:\n  - name: a file name with lines\n    steps:\n      - request: {path: /text}\n        expect: {status: 299}\n"),
        (
            "names.yaml",
            "level: must\ncases:\n  - name: \"a name \\e]0;T\\a with control \\u202e and \\x9b\"\n    steps:\n      - request: {path: /text}\n        expect: {status: 299}\n",
        ),
        (
            "ids.yaml",
            r#"level: must
cases:
  - name: shell metacharacters in ids and slugs
    steps:
      - request: {method: POST, path: /things, json: {title: t}}
        expect: {status: 201}
        capture: {id: $.id, slug: $.slug}
      - request: {method: PUT, path: "/things/{{id}}", query: {slug: "{{slug}}"}, json: {id: "{{id}}", slug: "{{slug}}"}}
        expect: {status: 200}
  - name: an id in a header
    steps:
      - request: {method: POST, path: /things, json: {title: t}}
        capture: {id: $.id}
      - request: {path: /inject, headers: {X-Id: "{{id}}"}}
        expect: {status: 200}
"#,
        ),
        (
            "echo.yaml",
            r#"level: must
cases:
  - name: the server echoes credentials
    steps:
      - request: {method: POST, path: /echo, auth: editor, json: {title: x}}
        expect:
          status: 200
          json: {password: "not this", lower: "no"}
          headers: {Location: "no", X-Echo-Password: "no"}
  - name: an echoed password in the next address, then a timeout
    steps:
      - request: {method: POST, path: /echo, auth: editor, json: {title: x}}
        expect: {status: 400}
        capture: {pw: $.password}
      - request: {path: "/hang/{{pw}}"}
        expect: {status: 200}
"#,
        ),
        (
            "terminal.yaml",
            r#"level: must
cases:
  - name: a refusal with control characters
    steps:
      - request: {path: /inject}
        expect: {status: 200, headers: {X-Evil: "no"}}
  - name: a text body with control characters
    steps:
      - request: {path: /text}
        expect: {json: {a: 1}}
"#,
        ),
        (
            "big.yaml",
            r#"level: must
cases:
  - name: a huge array
    steps:
      - request: {path: /huge}
        expect: {json: {events: []}}
  - name: a create answered with a huge array
    steps:
      - request: {method: POST, path: /events, auth: editor, json: {title: x}}
        expect: {status: 201}
  - name: an endless body
    steps:
      - request: {path: /endless}
        expect: {status: 200}
  - name: no answer
    steps:
      - request: {path: /hang}
        expect: {status: 200}
"#,
        ),
];

fn write_cases(dir: &Path) {
    std::fs::create_dir_all(dir).unwrap();
    for (name, text) in CASE_FILES {
        std::fs::write(dir.join(name), text).unwrap();
    }
}

// ----- running and checking -----

/// Runs the binary in `dir` with the given arguments; fails the test if it runs longer than
/// `limit`. Returns its output and its peak resident memory in kB (Linux only, else 0).
fn run_conformance(dir: &Path, args: &[&str], limit: Duration) -> (Output, u64) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_conformance"))
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let (mut stdout, mut stderr) = (child.stdout.take().unwrap(), child.stderr.take().unwrap());
    let out = std::thread::spawn(move || {
        let mut buffer = Vec::new();
        let _ = stdout.read_to_end(&mut buffer);
        buffer
    });
    let err = std::thread::spawn(move || {
        let mut buffer = Vec::new();
        let _ = stderr.read_to_end(&mut buffer);
        buffer
    });
    let started = Instant::now();
    let mut peak = 0;
    let status = loop {
        peak = peak.max(peak_memory(child.id()));
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if started.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            let (o, e) = (out.join().unwrap(), err.join().unwrap());
            panic!(
                "the run did not end within {limit:?}: {args:?}\nstdout:\n{}\nstderr:\n{}",
                String::from_utf8_lossy(&o),
                String::from_utf8_lossy(&e)
            );
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    (Output { status, stdout: out.join().unwrap(), stderr: err.join().unwrap() }, peak)
}

/// The process's peak resident memory (VmHWM) in kB; 0 where /proc does not say.
fn peak_memory(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or(0)
}

fn text(output: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr))
}

/// The control characters a terminal acts on, if `text` holds any (line breaks aside).
fn control_characters(text: &str) -> Vec<char> {
    text.chars()
        .filter(|&c| {
            (c.is_control() && c != '\n')
                || matches!(c, '\u{2028}' | '\u{2029}' | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
        })
        .collect()
}

/// The forms of the run's secrets that must appear nowhere.
fn secret_forms() -> Vec<String> {
    let b64 = |t: &str| base64::engine::general_purpose::STANDARD.encode(t);
    vec!["Zx9Qw".into(), "zx9qw".into(), b64(&format!("{USER}:{PASSWORD}")), b64(PASSWORD)]
}

fn files_in(dir: &Path) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> =
        std::fs::read_dir(dir).map(|d| d.flatten().map(|e| e.path()).collect()).unwrap_or_default();
    out.sort();
    out
}

/// A folder with a `curl` that only notes its arguments (one a line): the scripts' words can be
/// checked, and running them sends nothing.
fn fake_curl(dir: &Path) -> PathBuf {
    let bin = dir.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let curl = bin.join("curl");
    std::fs::write(&curl, "#!/bin/sh\nfor a in \"$@\"; do printf '%s\\n' \"$a\" >> \"$CURL_LOG\"; done\nexit 0\n")
        .unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&curl, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    bin
}

/// Runs every script of `repro` with `sh` in `dir` (with the fake curl), each bounded in time.
fn run_scripts(dir: &Path, repro: &Path) -> String {
    let bin = fake_curl(dir);
    let log = dir.join("curl.log");
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap_or_default());
    for script in files_in(repro).into_iter().filter(|p| p.extension().is_some_and(|e| e == "sh")) {
        let mut child = Command::new("sh")
            .arg(&script)
            .current_dir(dir)
            .env("PATH", &path)
            .env("CURL_LOG", &log)
            .env("EDITOR_PASSWORD", "from-the-variable")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let started = Instant::now();
        while child.try_wait().unwrap().is_none() {
            assert!(started.elapsed() < Duration::from_secs(20), "{} does not end", script.display());
            std::thread::sleep(Duration::from_millis(20));
        }
    }
    std::fs::read_to_string(&log).unwrap_or_default()
}

fn pwned(dir: &Path) -> Vec<PathBuf> {
    files_in(dir)
        .into_iter()
        .filter(|p| p.file_name().is_some_and(|n| n.to_string_lossy().starts_with("pwned")))
        .collect()
}

struct Battery {
    _temp: common::Temp,
    dir: PathBuf,
    output: Output,
    peak_kb: u64,
    elapsed: Duration,
}

/// The run every test below looks at: once per test binary.
fn battery() -> &'static Battery {
    static RUN: OnceLock<Battery> = OnceLock::new();
    RUN.get_or_init(|| {
        let temp = common::temp("battery");
        let dir = temp.to_path_buf();
        write_cases(&dir.join("cases"));
        // A shared repro folder where someone planted a link named as a script will be.
        std::fs::create_dir_all(dir.join("repro")).unwrap();
        #[cfg(unix)]
        std::os::unix::fs::symlink(dir.join("planted-target"), dir.join("repro/quote_a_method_with_a_quote.sh"))
            .unwrap();
        let base = format!("http://{}/wp-json", server());
        let auth = format!("editor={USER}:{PASSWORD}");
        let started = Instant::now();
        let (output, peak_kb) = run_conformance(
            &dir,
            &[
                "--cases",
                "cases",
                "--base-url",
                &base,
                "--auth",
                &auth,
                "--timeout",
                "3",
                // The three cases that wait for the timeout wait at once (the tests below all
                // wait for this run).
                "--test-threads",
                "4",
                "--json",
                "r.json",
                "--junit",
                "r.xml",
                "--html",
                "r.html",
                "--repro",
                "repro",
                "--color",
                "never",
            ],
            Duration::from_secs(120),
        );
        Battery { _temp: temp, dir, output, peak_kb, elapsed: started.elapsed() }
    })
}

#[test]
fn h13_every_run_ends_and_the_huge_answer_is_refused_within_a_memory_bound() {
    let run = battery();
    let out = text(&run.output);
    assert_eq!(run.output.status.code(), Some(101), "{out}");
    // Three cases wait for the 3 s timeout, at the same time.
    assert!(run.elapsed < Duration::from_secs(60), "{:?}", run.elapsed);
    assert!(out.contains("timed out: "), "{out}");
    assert!(out.contains("JSON values"), "the huge array is not parsed, and the report says why: {out}");
    assert!(out.contains(&format!("({} bytes)", huge().len())), "{out}");
    eprintln!("the run: peak memory {} kB, {:?}", run.peak_kb, run.elapsed);
    if cfg!(target_os = "linux") {
        // The answer is 24 MiB; parsed whole it took gigabytes (30 MB of it took 3 GB).
        assert!(run.peak_kb > 0 && run.peak_kb < 400_000, "peak memory {} kB", run.peak_kb);
    }
}

#[test]
fn h6_the_terminal_gets_no_control_characters_and_no_forged_line() {
    let run = battery();
    let out = text(&run.output);
    assert_eq!(control_characters(&out), Vec::<char>::new(), "{out}");
    for line in out.lines() {
        assert!(!line.starts_with("verdict: CONFORMS"), "a forged line: {line}");
        assert!(!(line.starts_with("test result: ok. 99")), "a forged line: {out}");
    }
    // What was escaped is shown, visibly.
    assert!(out.contains("(code x\\u{1b}]0;TITLE-HIJACK\\u{7}"), "{out}");
    assert!(
        out.contains("\\ntest result: ok. 99 passed; 0 failed; FORGED\\nverdict: CONFORMS\\r\\u{2028}\\u{202e}"),
        "{out}"
    );
    assert!(out.contains("a\\u{9b}31mC1"), "a C1 control in a header: {out}");
    assert!(out.contains("names::a name \\u{1b}]0;T\\u{7} with control \\u{202e} and \\u{9b} ... FAILED"), "{out}");
    // The JSON report, which a user may print with `cat`, writes them as `\uXXXX`.
    let report = std::fs::read_to_string(run.dir.join("r.json")).unwrap();
    assert_eq!(control_characters(&report), Vec::<char>::new(), "{report}");
    assert!(report.contains("with control \\u202e and \\u009b"), "{report}");
    // The repro scripts' comments too.
    for script in files_in(&run.dir.join("repro")).into_iter().filter(|p| !p.is_symlink()) {
        let text = std::fs::read_to_string(&script).unwrap();
        assert_eq!(control_characters(&text.replace('\n', "")), Vec::<char>::new(), "{}", script.display());
    }
}

#[test]
fn h1_h2_no_repro_script_runs_a_planted_command() {
    let run = battery();
    let repro = run.dir.join("repro");
    let scripts: Vec<PathBuf> = files_in(&repro).into_iter().filter(|p| !p.is_symlink()).collect();
    assert!(scripts.len() >= 8, "a script per failing case: {scripts:?}\n{}", text(&run.output));
    let quote = scripts.iter().find(|p| p.to_string_lossy().contains("quote_a_method_with_a_quote")).unwrap();
    let quote = std::fs::read_to_string(quote).unwrap();
    assert!(quote.contains(r#"curl -sS -i -X 'X'\''' "#), "{quote}");
    let args = run_scripts(&run.dir, &repro);
    assert_eq!(pwned(&run.dir), Vec::<PathBuf>::new(), "a planted command ran");
    // The words arrived whole: the method, the payload in the path, the password's variable.
    let lines: Vec<&str> = args.lines().collect();
    assert!(lines.contains(&"X'"), "{args}");
    assert!(lines.contains(&"ed$(touch pwned-user):from-the-variable"), "{args}");
    assert!(args.contains("X-Id: 1$(touch pwned-dollar)`touch pwned-tick`'\""), "{args}");
}

#[test]
fn h3_h4_no_credential_appears_in_any_output() {
    let run = battery();
    let mut outputs = vec![("terminal".to_string(), text(&run.output))];
    for name in ["r.json", "r.xml", "r.html"] {
        outputs.push((name.into(), std::fs::read_to_string(run.dir.join(name)).unwrap()));
    }
    for script in files_in(&run.dir.join("repro")).into_iter().filter(|p| !p.is_symlink()) {
        outputs.push((script.display().to_string(), std::fs::read_to_string(&script).unwrap()));
    }
    for (name, text) in &outputs {
        for secret in secret_forms() {
            assert!(!text.contains(&secret), "{secret} in {name}:\n{text}");
        }
    }
    // The echo was seen, and masked: a step error's details (h3) and each encoding (h4).
    let report: serde_json::Value = serde_json::from_str(&outputs[1].1).unwrap();
    let case = report["cases"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == "echo::an echoed password in the next address, then a timeout")
        .unwrap();
    let error = &case["steps"][1]["error"];
    assert_eq!(error["kind"]["kind"], "timeout", "{error}");
    assert!(error["kind"]["detail"]["url"].as_str().unwrap().ends_with("/hang/***"), "{error}");
    let terminal = &outputs[0].1;
    for field in ["password", "php", "ascii", "lower", "upper", "form", "b64"] {
        assert!(
            terminal.contains(&format!("\\\"{field}\\\": \\\"***\\\""))
                || terminal.contains(&format!("\"{field}\": \"***\"")),
            "{field}: {terminal}"
        );
    }
    assert!(terminal.contains("header Location: expected \"no\", got \"http://127.0.0.1/?p=***\""), "{terminal}");
}

#[test]
fn h4_a_short_password_is_masked_in_every_output() {
    let temp = common::temp("short");
    write_cases(&temp.join("cases"));
    let base = format!("http://{}/wp-json", server());
    let (output, _) = run_conformance(
        &temp,
        &[
            "--cases",
            "cases",
            "--base-url",
            &base,
            "--auth",
            "editor=ed:§¤¶",
            "--json",
            "r.json",
            "--html",
            "r.html",
            "--junit",
            "r.xml",
            "--repro",
            "repro",
            "echo::the server",
        ],
        Duration::from_secs(60),
    );
    let mut all = text(&output);
    assert_eq!(output.status.code(), Some(101), "{all}");
    for name in ["r.json", "r.xml", "r.html"] {
        all.push_str(&std::fs::read_to_string(temp.join(name)).unwrap());
    }
    for script in files_in(&temp.join("repro")) {
        all.push_str(&std::fs::read_to_string(&script).unwrap());
    }
    let upper = "%C2%A7%C2%A4%C2%B6";
    for form in [
        "§¤¶",
        upper,
        &upper.to_lowercase(),
        "\\u00a7\\u00a4\\u00b6",
        "\\u00A7\\u00A4\\u00B6",
        "wqfCpMK2",
        "ZWQ6wqfCpMK2",
    ] {
        assert!(!all.contains(form), "{form} in:\n{all}");
    }
}

#[test]
fn h5_h13_conformance_diff_masks_both_sides_credentials_within_a_memory_bound() {
    let temp = common::temp("diff");
    write_cases(&temp.join("cases"));
    let base = format!("http://{}/wp-json", server());
    let (a_auth, b_auth) = (format!("editor={USER}:{PASSWORD}"), "editor=bob:BobZx9QwSecret".to_string());
    let (output, peak_kb) = run_conformance(
        &temp,
        &[
            "diff",
            "--cases",
            "cases",
            "--a",
            &base,
            "--b",
            &base,
            "--a-auth",
            &a_auth,
            "--b-auth",
            &b_auth,
            "--json",
            "d.json",
            "--timeout",
            "5",
            "--color",
            "never",
            "--skip",
            "no answer",
            "--skip",
            "endless",
            "--skip",
            "then a timeout",
        ],
        Duration::from_secs(60),
    );
    let out = text(&output);
    assert_eq!(output.status.code(), Some(0), "{out}");
    let report = std::fs::read_to_string(temp.join("d.json")).unwrap();
    for text in [&out, &report] {
        for secret in secret_forms().into_iter().chain(["BobZx9QwSecret".to_string()]) {
            assert!(!text.contains(&secret), "{secret} in:\n{text}");
        }
        assert_eq!(control_characters(&text.replace('\n', "")), Vec::<char>::new(), "{text}");
    }
    assert!(report.contains("***"), "the differences are kept, masked: {report}");
    eprintln!("conformance diff: peak memory {peak_kb} kB");
    assert!(peak_kb < 400_000, "{peak_kb} kB");
}

#[test]
fn h7_repro_follows_no_planted_link() {
    let run = battery();
    let repro = run.dir.join("repro");
    let link = repro.join("quote_a_method_with_a_quote.sh");
    assert!(link.is_symlink(), "the planted link is left alone");
    assert!(!run.dir.join("planted-target").exists(), "nothing was created through the link");
    assert!(repro.join("quote_a_method_with_a_quote-2.sh").is_file(), "the script took the next name");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(repro.join("quote_a_method_with_a_quote-2.sh")).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o755);
    }

    // A --repro folder that is a symbolic link is refused before anything runs.
    let temp = common::temp("linked-folder");
    write_cases(&temp.join("cases"));
    std::fs::create_dir_all(temp.join("elsewhere")).unwrap();
    #[cfg(unix)]
    std::os::unix::fs::symlink(temp.join("elsewhere"), temp.join("linked")).unwrap();
    let base = format!("http://{}/wp-json", server());
    for folder in ["linked", "linked/"] {
        let (output, _) = run_conformance(
            &temp,
            &["--cases", "cases", "--base-url", &base, "--repro", folder, "quote::"],
            Duration::from_secs(30),
        );
        assert_eq!(output.status.code(), Some(2), "{}", text(&output));
        assert!(text(&output).contains("is a symbolic link"), "{}", text(&output));
    }
    assert_eq!(files_in(&temp.join("elsewhere")), Vec::<PathBuf>::new());
}

/// Issue 36, R17: hostile runner inputs and outputs. A device (`/dev/zero`), a FIFO, or a
/// symbolic link to either, given as a file the runner reads (`--rerun-failed`,
/// `--expectations`, a case file) or writes (`--json`, `--junit`, `--html`,
/// `--write-expectations`), is refused at once with a message that says what it is: no run
/// reads until memory runs out or waits for the other end of a pipe.
#[cfg(unix)]
#[test]
fn r17_devices_fifos_and_links_to_them_are_refused_as_runner_files() {
    let temp = common::temp("r17");
    let status = Command::new("mkfifo").arg(temp.join("fifo")).status().unwrap();
    assert!(status.success());
    std::os::unix::fs::symlink("/dev/zero", temp.join("zero-link")).unwrap();
    std::os::unix::fs::symlink(temp.join("fifo"), temp.join("fifo-link")).unwrap();
    let limit = Duration::from_secs(30);
    let refused = [
        (vec!["--rerun-failed", "/dev/zero"], "is a device"),
        (vec!["--expectations", "/dev/zero"], "is a device"),
        (vec!["--rerun-failed", "zero-link"], "is a device"),
        (vec!["--rerun-failed", "fifo"], "is a FIFO"),
        (vec!["--expectations", "fifo-link"], "is a FIFO"),
        (vec!["--json", "fifo"], "is a FIFO"),
        (vec!["--junit", "/dev/null"], "is a device"),
        (vec!["--html", "fifo-link"], "is a FIFO"),
        (vec!["--write-expectations", "fifo"], "is a FIFO"),
    ];
    for (args, needle) in refused {
        let args = [&args[..], &["--level", "must", "events/read::"]].concat();
        let (output, _) = run_conformance(&temp, &args, limit);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {}", text(&output));
        assert!(text(&output).contains(needle), "{args:?}: {}", text(&output));
    }
    // A case file that is a FIFO, or a link to a device, is a file that does not load (exit 2).
    let cases = temp.join("cases");
    std::fs::create_dir_all(&cases).unwrap();
    let case = "level: must\ncases:\n  - name: the list answers\n    steps: [{request: {path: /events}, expect: {status: 2xx}}]\n";
    std::fs::write(cases.join("fine.yaml"), case).unwrap();
    let status = Command::new("mkfifo").arg(cases.join("pipe.yaml")).status().unwrap();
    assert!(status.success());
    std::os::unix::fs::symlink("/dev/zero", cases.join("zero.yaml")).unwrap();
    let (output, _) = run_conformance(&temp, &["--cases", "cases"], limit);
    assert_eq!(output.status.code(), Some(2), "{}", text(&output));
    for needle in ["is a FIFO", "is a device", "fine::the list answers ... ok"] {
        assert!(text(&output).contains(needle), "{needle}: {}", text(&output));
    }
}
