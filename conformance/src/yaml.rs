//! Reading YAML: a case file's text becomes a tree of values that each know their line and
//! column, in one pass.
//!
//! Every value carries its [`Pos`], so the loader can put `file:line:column` on any error it
//! finds, however many, without reading the file again, and the runner can say which line of a
//! case an expectation comes from. The reader is bounded: nesting deeper than [`MAX_DEPTH`]
//! and files that grow beyond [`MAX_VALUES`] values (aliases included) stop it with an error
//! before it spends more time or memory. It reads the events of `saphyr-parser` one at a time,
//! so a hostile file is refused as soon as it crosses a bound.
//!
//! Plain scalars are resolved as YAML 1.2's core schema does (and as `serde_yaml` did before
//! this reader): `null`, `~` and nothing are null; `true`/`false` (also capitalised or in
//! capitals) are booleans; decimal, `0x`, `0o` and `0b` integers and decimal floats are
//! numbers; everything else, and every quoted scalar, is a string. `yes`, `on` and `19:00`
//! stay strings.

use std::collections::HashMap;
use std::fmt;

use saphyr_parser::{Event, Parser, ScalarStyle, ScanError, Span};
use serde_json::Number;

/// Deepest nesting of lists and maps a case file may have.
pub const MAX_DEPTH: usize = 64;

/// Most values one file may hold, aliases expanded.
pub const MAX_VALUES: usize = 1_000_000;

/// A place in a file: line and column, both from 1. `Pos::NONE` marks values built in code.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Pos {
    pub line: u32,
    pub column: u32,
}

impl Pos {
    /// The position of something that does not come from a file.
    pub const NONE: Pos = Pos { line: 0, column: 0 };

    pub fn new(line: usize, column: usize) -> Pos {
        let clamp = |n: usize| u32::try_from(n).unwrap_or(u32::MAX);
        Pos { line: clamp(line), column: clamp(column) }
    }

    /// True for a position in a file.
    pub fn is_known(self) -> bool {
        self.line > 0
    }
}

impl fmt::Display for Pos {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "{}:{}", self.line, self.column)
    }
}

/// A value read from a file, with where it starts.
#[derive(Clone, Debug, PartialEq)]
pub struct Y {
    pub at: Pos,
    pub value: YValue,
}

#[derive(Clone, Debug, PartialEq)]
pub enum YValue {
    Null,
    Bool(bool),
    Number(Number),
    /// `plain` is false for quoted and block scalars (and `!!str`): they never became another type.
    Str {
        text: String,
        plain: bool,
    },
    Seq(Vec<Y>),
    /// In document order. A key is usually a scalar; a map or list as a key is kept so that the
    /// loader can say what happened (an unquoted `{{...}}`).
    Map(Vec<(Y, Y)>),
}

impl Y {
    /// The text of a scalar as written (numbers and booleans included), or `None`.
    pub fn scalar_text(&self) -> Option<String> {
        match &self.value {
            YValue::Null => Some(String::new()),
            YValue::Bool(b) => Some(b.to_string()),
            YValue::Number(n) => Some(n.to_string()),
            YValue::Str { text, .. } => Some(text.clone()),
            YValue::Seq(_) | YValue::Map(_) => None,
        }
    }

    /// What kind of value this is, for messages: `a string`, `a map`, ...
    pub fn kind_name(&self) -> &'static str {
        match &self.value {
            YValue::Null => "null",
            YValue::Bool(_) => "a boolean",
            YValue::Number(_) => "a number",
            YValue::Str { .. } => "a string",
            YValue::Seq(_) => "a list",
            YValue::Map(_) => "a map",
        }
    }
}

/// Why a text is not a YAML document the loader can use.
#[derive(Clone, Debug, PartialEq)]
pub struct YamlError {
    pub at: Pos,
    pub message: String,
}

/// A key that appeared twice in one map: where, and which. The first one is kept.
#[derive(Clone, Debug, PartialEq)]
pub struct Duplicate {
    pub at: Pos,
    pub key: String,
}

/// A parsed document and the duplicate keys found on the way (reported by the loader with the
/// rest of its errors).
#[derive(Debug)]
pub struct Document {
    /// `None` for an empty file.
    pub root: Option<Y>,
    pub duplicates: Vec<Duplicate>,
}

/// Parses one YAML document.
pub fn parse(source: &str) -> Result<Document, YamlError> {
    Reader::new(source).document()
}

fn scan_error(e: &ScanError) -> YamlError {
    let at = Pos::new(e.marker().line(), e.marker().col() + 1);
    // The scanner has a nesting bound of its own, which it may reach before this reader's.
    let message = match e.info() {
        "recursion limit exceeded" => depth_message(),
        info => info.to_string(),
    };
    YamlError { at, message }
}

fn depth_message() -> String {
    format!("lists and maps nest deeper than {MAX_DEPTH} levels here: flatten the file")
}

fn pos(span: &Span) -> Pos {
    Pos::new(span.start.line(), span.start.col() + 1)
}

/// What an open list or map has gathered so far.
enum Open {
    Seq { at: Pos, anchor: usize, items: Vec<Y> },
    Map { at: Pos, anchor: usize, entries: Vec<(Y, Y)>, key: Option<Y> },
}

struct Reader<'a> {
    parser: Parser<'a, saphyr_parser::StrInput<'a>>,
    anchors: HashMap<usize, Y>,
    values: usize,
    duplicates: Vec<Duplicate>,
}

impl<'a> Reader<'a> {
    fn new(source: &'a str) -> Reader<'a> {
        Reader { parser: Parser::new_from_str(source), anchors: HashMap::new(), values: 0, duplicates: Vec::new() }
    }

    fn next(&mut self) -> Result<(Event<'a>, Span), YamlError> {
        match self.parser.next_event() {
            Some(Ok(event)) => Ok(event),
            Some(Err(e)) => Err(scan_error(&e)),
            None => Err(YamlError { at: Pos::new(1, 1), message: "unexpected end of the file".into() }),
        }
    }

    fn count(&mut self, n: usize, at: Pos) -> Result<(), YamlError> {
        self.values = self.values.saturating_add(n);
        if self.values > MAX_VALUES {
            return Err(YamlError {
                at,
                message: format!("the file holds more than {MAX_VALUES} values (aliases expanded): split it"),
            });
        }
        Ok(())
    }

    fn document(mut self) -> Result<Document, YamlError> {
        let mut root = None;
        let mut documents = 0;
        loop {
            let (event, span) = self.next()?;
            match event {
                Event::StreamStart | Event::DocumentEnd | Event::Nothing => {}
                Event::StreamEnd => break,
                Event::DocumentStart(_) => {
                    documents += 1;
                    if documents > 1 {
                        return Err(YamlError {
                            at: pos(&span),
                            message: "a case file holds one YAML document: remove this `---` and what follows, or move it to another file".into(),
                        });
                    }
                    root = self.value()?;
                }
                other => {
                    return Err(YamlError { at: pos(&span), message: format!("unexpected YAML event {other:?}") });
                }
            }
        }
        Ok(Document { root, duplicates: self.duplicates })
    }

    /// Reads the value of the current document (`None` when the document is empty).
    fn value(&mut self) -> Result<Option<Y>, YamlError> {
        let mut stack: Vec<Open> = Vec::new();
        loop {
            let (event, span) = self.next()?;
            let at = pos(&span);
            let done = match event {
                Event::DocumentEnd if stack.is_empty() => return Ok(None),
                Event::StreamEnd if stack.is_empty() => return Ok(None),
                Event::Scalar(text, style, anchor, tag) => {
                    self.count(1, at)?;
                    let y = Y { at, value: scalar(&text, style, tag.as_deref(), at)? };
                    if anchor > 0 {
                        self.anchors.insert(anchor, y.clone());
                    }
                    Some(y)
                }
                Event::Alias(anchor) => Some(self.alias(anchor, at)?),
                Event::SequenceStart(anchor, ref tag) | Event::MappingStart(anchor, ref tag) => {
                    let seq = matches!(event, Event::SequenceStart(..));
                    self.open(&mut stack, anchor, tag.as_deref(), seq, at)?;
                    None
                }
                Event::SequenceEnd | Event::MappingEnd => Some(self.close(&mut stack, at)?),
                other => return Err(YamlError { at, message: format!("unexpected YAML event {other:?}") }),
            };
            let Some(y) = done else { continue };
            if let Some(root) = self.attach(&mut stack, y) {
                return Ok(Some(root));
            }
        }
    }

    /// The value an alias repeats, counted again.
    fn alias(&mut self, anchor: usize, at: Pos) -> Result<Y, YamlError> {
        let Some(y) = self.anchors.get(&anchor).cloned() else {
            return Err(YamlError { at, message: "this alias names no anchor defined before it".into() });
        };
        self.count(size(&y), at)?;
        Ok(y)
    }

    /// Opens a list (`seq`) or a map; a tag on it, or one level too deep, is an error.
    fn open(
        &mut self,
        stack: &mut Vec<Open>,
        anchor: usize,
        tag: Option<&saphyr_parser::Tag>,
        seq: bool,
        at: Pos,
    ) -> Result<(), YamlError> {
        if let Some(tag) = tag {
            return Err(YamlError {
                at,
                message: format!("unsupported tag `{}{}` on a list or map: remove it", tag.handle, tag.suffix),
            });
        }
        self.count(1, at)?;
        if stack.len() >= MAX_DEPTH {
            return Err(YamlError { at, message: depth_message() });
        }
        stack.push(if seq {
            Open::Seq { at, anchor, items: Vec::new() }
        } else {
            Open::Map { at, anchor, entries: Vec::new(), key: None }
        });
        Ok(())
    }

    /// Closes the innermost list or map, keeping it under its anchor.
    fn close(&mut self, stack: &mut Vec<Open>, at: Pos) -> Result<Y, YamlError> {
        let (anchor, y) = match stack.pop() {
            Some(Open::Seq { at, anchor, items }) => (anchor, Y { at, value: YValue::Seq(items) }),
            Some(Open::Map { at, anchor, entries, .. }) => (anchor, Y { at, value: YValue::Map(entries) }),
            None => return Err(YamlError { at, message: "unbalanced YAML".into() }),
        };
        if anchor > 0 {
            self.anchors.insert(anchor, y.clone());
        }
        Ok(y)
    }

    /// Puts a finished value in the innermost open list or map (a repeated key is noted, and
    /// its second value dropped); returns it when nothing is open: it is the document's root.
    fn attach(&mut self, stack: &mut [Open], y: Y) -> Option<Y> {
        match stack.last_mut() {
            None => return Some(y),
            Some(Open::Seq { items, .. }) => items.push(y),
            Some(Open::Map { entries, key, .. }) => match key.take() {
                None => *key = Some(y),
                Some(k) => {
                    let text = k.scalar_text();
                    let duplicate =
                        text.as_ref().is_some_and(|t| entries.iter().any(|(e, _)| e.scalar_text().as_ref() == Some(t)));
                    if duplicate {
                        self.duplicates.push(Duplicate { at: k.at, key: text.unwrap_or_default() });
                    } else {
                        entries.push((k, y));
                    }
                }
            },
        }
        None
    }
}

/// The number of values in `y`.
fn size(y: &Y) -> usize {
    match &y.value {
        YValue::Seq(items) => 1 + items.iter().map(size).sum::<usize>(),
        YValue::Map(entries) => 1 + entries.iter().map(|(k, v)| size(k) + size(v)).sum::<usize>(),
        _ => 1,
    }
}

fn scalar(text: &str, style: ScalarStyle, tag: Option<&saphyr_parser::Tag>, at: Pos) -> Result<YValue, YamlError> {
    let plain = style == ScalarStyle::Plain;
    if let Some(tag) = tag {
        let core = tag.handle == "tag:yaml.org,2002:" || tag.handle == "!!";
        let bad = |what: &str| YamlError { at, message: format!("`{text}` is not {what} (tag !!{})", tag.suffix) };
        return match (core, tag.suffix.as_str()) {
            (true, "str") => Ok(YValue::Str { text: text.to_string(), plain: false }),
            (true, "null") => resolve_null(text).then_some(YValue::Null).ok_or_else(|| bad("null")),
            (true, "bool") => resolve_bool(text).map(YValue::Bool).ok_or_else(|| bad("a boolean")),
            (true, "int") => resolve_int(text).map(YValue::Number).ok_or_else(|| bad("an integer")),
            (true, "float") => resolve_float(text)
                .or_else(|| resolve_int(text).and_then(|n| n.as_f64()).and_then(Number::from_f64))
                .map(YValue::Number)
                .ok_or_else(|| bad("a finite number")),
            _ => Err(YamlError { at, message: format!("unsupported tag `{}{}`: remove it", tag.handle, tag.suffix) }),
        };
    }
    if !plain {
        return Ok(YValue::Str { text: text.to_string(), plain: false });
    }
    if text.is_empty() || resolve_null(text) {
        return Ok(YValue::Null);
    }
    if let Some(b) = resolve_bool(text) {
        return Ok(YValue::Bool(b));
    }
    if let Some(n) = resolve_int(text) {
        return Ok(YValue::Number(n));
    }
    if !leading_zero_digits(text) {
        if let Some(n) = resolve_float(text) {
            return Ok(YValue::Number(n));
        }
        if is_special_float(text) {
            return Err(YamlError {
                at,
                message: format!("numbers must be finite: `{text}` is not (quote it for text)"),
            });
        }
    }
    Ok(YValue::Str { text: text.to_string(), plain: true })
}

fn resolve_null(text: &str) -> bool {
    matches!(text, "null" | "Null" | "NULL" | "~")
}

fn resolve_bool(text: &str) -> Option<bool> {
    match text {
        "true" | "True" | "TRUE" => Some(true),
        "false" | "False" | "FALSE" => Some(false),
        _ => None,
    }
}

/// `012` is a string in YAML 1.2, not an octal or decimal number.
fn leading_zero_digits(text: &str) -> bool {
    let digits = text.strip_prefix(['-', '+']).unwrap_or(text);
    digits.len() > 1 && digits.starts_with('0') && digits[1..].bytes().all(|b| b.is_ascii_digit())
}

fn resolve_int(text: &str) -> Option<Number> {
    let (negative, unsigned) = match text.as_bytes().first() {
        Some(b'-') => (true, &text[1..]),
        Some(b'+') => (false, &text[1..]),
        _ => (false, text),
    };
    if unsigned.starts_with(['+', '-']) || unsigned.is_empty() {
        return None;
    }
    let (radix, digits) = if let Some(rest) = unsigned.strip_prefix("0x") {
        (16, rest)
    } else if let Some(rest) = unsigned.strip_prefix("0o") {
        (8, rest)
    } else if let Some(rest) = unsigned.strip_prefix("0b") {
        (2, rest)
    } else {
        if leading_zero_digits(unsigned) {
            return None;
        }
        (10, unsigned)
    };
    if digits.is_empty() || digits.starts_with(['+', '-']) {
        return None;
    }
    let magnitude = u64::from_str_radix(digits, radix).ok()?;
    if negative {
        if magnitude == 0 {
            return Some(Number::from(0));
        }
        let value = 0i64.checked_sub_unsigned(magnitude)?;
        Some(Number::from(value))
    } else {
        Some(Number::from(magnitude))
    }
}

fn is_special_float(text: &str) -> bool {
    let unsigned = text.strip_prefix(['+', '-']).unwrap_or(text);
    matches!(unsigned, ".inf" | ".Inf" | ".INF" | ".nan" | ".NaN" | ".NAN")
}

fn resolve_float(text: &str) -> Option<Number> {
    let unsigned = text.strip_prefix('+').unwrap_or(text);
    if unsigned.starts_with(['+', '-']) && text.starts_with('+') {
        return None;
    }
    // Rust also reads `inf`, `nan` and `infinity`, which YAML does not.
    if !unsigned.bytes().any(|b| b.is_ascii_digit()) {
        return None;
    }
    let value: f64 = unsigned.parse().ok()?;
    Number::from_f64(value).filter(|_| value.is_finite())
}

/// The dotted path of the values at `targets` (`cases[0].steps[1].request.auth`), for messages.
/// A position where a key stands (and no value) gets the path of its map. Found in one walk.
pub fn paths_of(root: &Y, targets: &[Pos]) -> HashMap<Pos, String> {
    let wanted: std::collections::HashSet<Pos> = targets.iter().copied().collect();
    let mut found = HashMap::new();
    walk_paths(root, String::new(), &wanted, &mut found);
    found
}

fn walk_paths(y: &Y, path: String, wanted: &std::collections::HashSet<Pos>, found: &mut HashMap<Pos, String>) {
    if wanted.contains(&y.at) {
        found.entry(y.at).or_insert_with(|| path.clone());
    }
    match &y.value {
        YValue::Seq(items) => {
            for (i, item) in items.iter().enumerate() {
                walk_paths(item, format!("{path}[{i}]"), wanted, found);
            }
        }
        YValue::Map(entries) => {
            for (key, value) in entries {
                if wanted.contains(&key.at) {
                    found.entry(key.at).or_insert_with(|| path.clone());
                }
                let name = key.scalar_text().unwrap_or_else(|| "?".into());
                let child = if path.is_empty() { name } else { format!("{path}.{name}") };
                walk_paths(value, child, wanted, found);
            }
        }
        _ => {}
    }
}

/// The tree as plain JSON (keys that are not text are written as their YAML kind), for tools
/// and tests.
pub fn to_json(y: &Y) -> serde_json::Value {
    use serde_json::Value;
    match &y.value {
        YValue::Null => Value::Null,
        YValue::Bool(b) => Value::Bool(*b),
        YValue::Number(n) => Value::Number(n.clone()),
        YValue::Str { text, .. } => Value::String(text.clone()),
        YValue::Seq(items) => Value::Array(items.iter().map(to_json).collect()),
        YValue::Map(entries) => Value::Object(
            entries
                .iter()
                .map(|(k, v)| (k.scalar_text().unwrap_or_else(|| k.kind_name().to_string()), to_json(v)))
                .collect(),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn read(text: &str) -> serde_json::Value {
        to_json(&parse(text).unwrap().root.unwrap())
    }

    #[test]
    fn scalars_resolve_as_yaml_1_2_core() {
        assert_eq!(
            read("{a: yes, b: on, c: 19:00, d: 2024-01-01, e: True, f: FALSE, g: ~, h: , i: 012, j: 0x1f, k: -3, l: 1.5, m: '1', n: !!str 2, o: 1e3, p: +7}"),
            json!({"a": "yes", "b": "on", "c": "19:00", "d": "2024-01-01", "e": true, "f": false, "g": null, "h": null,
                   "i": "012", "j": 31, "k": -3, "l": 1.5, "m": "1", "n": "2", "o": 1000.0, "p": 7})
        );
        assert_eq!(
            read("[inf, nan, 18446744073709551615, -9223372036854775808]"),
            json!(["inf", "nan", u64::MAX, i64::MIN])
        );
        assert!(parse("a: .inf").unwrap_err().message.contains("finite"));
    }

    #[test]
    fn positions_are_one_based_and_paths_are_found_in_one_walk() {
        let doc = parse("level: must\ncases:\n  - name: x\n    steps: [{request: {path: /a}}]\n").unwrap();
        let root = doc.root.unwrap();
        let YValue::Map(entries) = &root.value else { panic!() };
        assert_eq!(entries[1].0.at, Pos::new(2, 1));
        let YValue::Seq(cases) = &entries[1].1.value else { panic!() };
        assert_eq!(cases[0].at, Pos::new(3, 5));
        let paths = paths_of(&root, &[Pos::new(4, 30), Pos::new(3, 11)]);
        assert_eq!(paths[&Pos::new(4, 30)], "cases[0].steps[0].request.path");
        assert_eq!(paths[&Pos::new(3, 11)], "cases[0].name");
    }

    #[test]
    fn duplicate_keys_are_reported_and_the_first_kept() {
        let doc = parse("a: 1\nb: 2\na: 3\n").unwrap();
        assert_eq!(doc.duplicates, vec![Duplicate { at: Pos::new(3, 1), key: "a".into() }]);
        assert_eq!(to_json(&doc.root.unwrap()), json!({"a": 1, "b": 2}));
    }

    #[test]
    fn deep_nesting_is_refused_early() {
        let deep = "[".repeat(100_000);
        let e = parse(&deep).unwrap_err();
        assert!(e.message.contains("deeper than 64"), "{e:?}");
        let e = parse(&format!("{}{}", "[".repeat(70), "]".repeat(70))).unwrap_err();
        assert!(e.message.contains("deeper than 64"), "{e:?}");
        assert_eq!(e.at, Pos::new(1, 65));
    }

    #[test]
    fn aliases_are_expanded_within_a_bound() {
        assert_eq!(read("a: &x [1, 2]\nb: *x\n"), json!({"a": [1, 2], "b": [1, 2]}));
        let mut bomb = String::from("a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n");
        for i in 1..12 {
            bomb.push_str(&format!(
                "a{i}: &a{i} [*a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}]\n",
                p = i - 1
            ));
        }
        assert!(parse(&bomb).unwrap_err().message.contains("more than"));
    }

    #[test]
    fn one_document_per_file() {
        assert!(parse("a: 1\n---\nb: 2\n").unwrap_err().message.contains("one YAML document"));
        assert!(parse("").unwrap().root.is_none());
        assert!(parse("# only a comment\n").unwrap().root.is_none());
    }
}
