//! The two doors every text the runner writes out goes through, whatever its source (a case
//! file, a server's answer, the command line):
//!
//! - [`shell_word`]: one word of a POSIX shell command (the `curl` lines of the reports, the
//!   `--repro` scripts). The word is single-quoted unless it is made of characters that need no
//!   quoting; a quote inside becomes `'\''`. No text can end the word or start another command.
//! - [`terminal`]: a text that reaches a terminal (or a `#` comment of a script): control
//!   characters (C0, DEL, C1), line and paragraph separators and the bidirectional controls are
//!   written as visible escapes (`\n`, `\u{1b}`, `\u{202e}`), so an answer cannot move the
//!   cursor, set the title, write the clipboard, reorder a line or forge one.
//!
//! It sits below every module that writes (reports, the harness, `conformance diff`).

use std::borrow::Cow;

/// Characters a word may hold and stay unquoted.
fn plain(c: char) -> bool {
    c.is_ascii_alphanumeric() || "-_./:=@,%+".contains(c)
}

/// `text` as one word of a POSIX shell command.
pub fn shell_word(text: &str) -> String {
    if !text.is_empty() && text.chars().all(plain) {
        return text.to_string();
    }
    format!("'{}'", text.replace('\'', r#"'\''"#))
}

/// True for a character [`terminal`] escapes.
pub fn is_unsafe(c: char) -> bool {
    c.is_control() // C0, DEL and C1
        || matches!(c, '\u{2028}' | '\u{2029}') // line and paragraph separators
        || matches!(c, '\u{061c}' | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

/// `text` with every character a terminal would act on written as a visible escape.
pub fn terminal(text: &str) -> Cow<'_, str> {
    if !text.chars().any(is_unsafe) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        match c {
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if is_unsafe(c) => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

/// A text of several lines for the terminal: each line through [`terminal`], the line breaks
/// kept (for the runner's own messages, which may quote a file name or a case's text).
pub fn lines(text: &str) -> String {
    text.split('\n').map(terminal).collect::<Vec<_>>().join("\n")
}

/// A serialised JSON document with the characters [`terminal`] escapes written as `\uXXXX`
/// escapes inside its strings (the serialiser escapes C0 itself, but writes DEL, C1 and the
/// separators raw): the same document, safe to print with `cat`. A raw line break is the
/// document's own layout and stays.
pub fn json_document(text: String) -> String {
    if !text.chars().any(|c| c != '\n' && is_unsafe(c)) {
        return text;
    }
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        if c != '\n' && is_unsafe(c) {
            out.push_str(&format!("\\u{:04x}", c as u32));
        } else {
            out.push(c);
        }
    }
    out
}

/// `text` as the rest of a `#` comment line of a shell script: [`terminal`] makes it one line.
pub fn comment(text: &str) -> Cow<'_, str> {
    terminal(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn h1_a_word_is_quoted_whatever_it_holds() {
        assert_eq!(shell_word("GET"), "GET");
        assert_eq!(shell_word("http://h/x?a=1"), "'http://h/x?a=1'");
        assert_eq!(shell_word("X'"), r#"'X'\'''"#);
        assert_eq!(shell_word(""), "''");
        assert_eq!(shell_word("$(touch x)`y`;\n"), "'$(touch x)`y`;\n'");
    }

    #[test]
    fn h6_control_characters_are_made_visible() {
        assert_eq!(terminal("plain é ✓"), "plain é ✓");
        assert!(matches!(terminal("plain"), Cow::Borrowed(_)));
        let hostile = "x\x1b]0;TITLE\x07\x1b[2J\nok\r\tCONFORMS\u{7f}\u{9b}\u{2028}\u{202e}\u{2066}";
        let shown = terminal(hostile);
        assert_eq!(
            shown,
            "x\\u{1b}]0;TITLE\\u{7}\\u{1b}[2J\\nok\\r\\tCONFORMS\\u{7f}\\u{9b}\\u{2028}\\u{202e}\\u{2066}"
        );
        assert!(!shown.chars().any(is_unsafe));
        assert!(!comment("a\nrm -rf x").contains('\n'));
        let doc = serde_json::to_string_pretty(&serde_json::json!({"a": "x\u{9b}\u{202e}\u{7f}\u{1b}"})).unwrap();
        let safe = json_document(doc);
        assert_eq!(safe, "{\n  \"a\": \"x\\u009b\\u202e\\u007f\\u001b\"\n}");
        assert_eq!(serde_json::from_str::<serde_json::Value>(&safe).unwrap()["a"], "x\u{9b}\u{202e}\u{7f}\u{1b}");
    }
}
