//! Reports: each format is its own module, reading [`CaseReport`](crate::outcome::CaseReport)s
//! as plain data; none prints.
//!
//! - [`message`]: the text of a failing case (terminal and JUnit).
//! - [`terminal`]: the terminal's warnings beside the harness's lines.
//! - [`summary`]: the per-level counts, the verdict and the exit status's reason.
//! - [`curl`]: a request as a `curl` command (and shell quoting).
//! - [`secrets`]: passwords masked in every report.
//! - [`junit`]: JUnit XML (`--junit FILE`).
//! - [`json`]: a JSON document of every case (`--json FILE`).
//! - [`html`]: one self-contained HTML page (`--html FILE`).
//! - [`repro`]: a runnable shell script per failing case (`--repro DIR`).
//! - [`coverage`]: the coverage matrix of `conformance coverage` (text and JSON).

pub mod causes;
pub mod coverage;
pub mod curl;
pub mod html;
pub mod json;
pub mod junit;
pub mod message;
pub mod repro;
pub mod secrets;
pub mod summary;
pub mod terminal;

/// The longest body a report shows, in bytes; a longer one is cut with a note of its size.
pub const MAX_BODY: usize = 64 * 1024;

/// A request's body as reports show it: its first [`MAX_BODY`] bytes, with a note of its full
/// size when cut; secrets masked, a secret cut in two as well.
pub fn bounded_request_body(body: &crate::outcome::KeptBody, secrets: &secrets::Secrets) -> String {
    let (text, whole) = body.excerpt(MAX_BODY);
    let text = secrets.redact_excerpt(&text, whole);
    if whole {
        text
    } else {
        format!("{text}\n… (cut: {} bytes in full)", body.size)
    }
}

/// A body as reports show it: `text` (which may already be shorter than the body: records keep
/// a part of large ones) cut at [`MAX_BODY`], with a note of the full `size` when cut; secrets
/// masked, a secret cut in two as well.
pub fn bounded_body(text: &str, size: usize, secrets: &secrets::Secrets) -> String {
    let cut = crate::show::cut_bytes(text.to_string(), MAX_BODY);
    if cut.len() < size {
        format!("{}\n… (cut: {size} bytes in full)", secrets.redact_excerpt(&cut, false))
    } else {
        secrets.redact(&cut)
    }
}
