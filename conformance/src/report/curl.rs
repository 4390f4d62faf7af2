//! A request as a `curl` command, for the terminal and the reports: every word (the method
//! too) quoted for a POSIX shell by [`shell_word`], the password masked unless
//! `--show-credentials`, a long body cut.

use std::fmt::Write;

use crate::escape::shell_word;
use crate::outcome::KeptRequest;
use crate::report::secrets::Secrets;

/// The method option curl needs (none for a GET without body or a POST with one). A HEAD is
/// `-I`: with `-X HEAD` curl would wait for the body that a HEAD answer announces and never
/// sends.
pub fn method_option(request: &KeptRequest) -> Option<String> {
    let implied =
        (request.method == "GET" && request.body.is_none()) || (request.method == "POST" && request.body.is_some());
    if request.method == "HEAD" && request.body.is_none() {
        return Some("-I".into());
    }
    (!implied).then(|| format!("-X {}", shell_word(&request.method)))
}

/// The request as a `curl` command that sends it again; a body longer than `max_body` bytes is
/// cut (the command then says so: `--repro` writes it whole).
pub fn curl(request: &KeptRequest, secrets: &Secrets, max_body: usize) -> String {
    let mut out = String::from("curl -i");
    if let Some(method) = method_option(request) {
        let _ = write!(out, " {method}");
    }
    if let Some((user, password)) = &request.auth {
        let _ = write!(out, " -u {}", shell_word(&format!("{user}:{}", secrets.password(password))));
    }
    for (name, value) in &request.headers {
        let _ = write!(out, " -H {}", shell_word(&secrets.redact(&format!("{name}: {value}"))));
    }
    let mut cut = None;
    if let Some(body) = &request.body {
        let (text, whole) = body.excerpt(max_body);
        let _ = write!(out, " --data-raw {}", shell_word(&secrets.redact_excerpt(&text, whole)));
        if !whole {
            cut = Some(body.size);
        }
    }
    let _ = write!(out, " {}", shell_word(&secrets.redact(&request.url)));
    if let Some(size) = cut {
        let _ = write!(out, "  # body cut: {size} bytes in full (--repro writes it whole)");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::outcome::{KeptBody, SentRequest};

    fn request() -> KeptRequest {
        SentRequest {
            method: "POST".into(),
            url: "http://h/x?a=1&b=2".into(),
            headers: vec![("Content-Type".into(), "application/json".into())],
            auth: Some(("ed".into(), "p'w-secret".into())),
            auth_name: Some("editor".into()),
            body: Some("{\"t\":\"it's\"}".into()),
        }
        .into()
    }

    #[test]
    fn curl_quotes_reproduces_and_masks() {
        let shown = Secrets::shown();
        assert_eq!(
            curl(&request(), &shown, 1000),
            r#"curl -i -u 'ed:p'\''w-secret' -H 'Content-Type: application/json' --data-raw '{"t":"it'\''s"}' 'http://h/x?a=1&b=2'"#
        );
        let secrets = Secrets::of([("ed", "p'w-secret")]);
        assert!(curl(&request(), &secrets, 1000).starts_with("curl -i -u 'ed:***' -H"));
    }

    #[test]
    fn a_long_body_is_cut_and_says_so() {
        let mut r = request();
        r.body = Some(KeptBody::new(&"y".repeat(5000)));
        let text = curl(&r, &Secrets::shown(), 100);
        assert!(text.len() < 300, "{text}");
        assert!(text.ends_with("# body cut: 5000 bytes in full (--repro writes it whole)"), "{text}");
    }

    #[test]
    fn a_head_is_sent_with_dash_i_capital_so_that_curl_does_not_wait_for_a_body() {
        let mut r = request();
        r.method = "HEAD".into();
        r.body = None;
        assert_eq!(method_option(&r).as_deref(), Some("-I"));
        assert!(curl(&r, &Secrets::shown(), 100).starts_with("curl -i -I -u "));
        r.method = "DELETE".into();
        assert_eq!(method_option(&r).as_deref(), Some("-X DELETE"));
    }
}
