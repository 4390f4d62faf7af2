//! Template syntax: parsing `{{...}}` in strings into literal parts and expressions.
//!
//! Expressions are a variable or a built-in, then `.key` / `[n]` accessors, then `| filter`s.
//! Evaluating them against a case's variables is [`crate::env`]'s job; this module sits below
//! the YAML reader, which parses templates as it reads strings.

use chrono::NaiveTime;

/// The names that every case can use without defining them.
pub const BUILTINS: &[&str] =
    &["run_id", "case_id", "namespace", "language_param", "base_url", "site_url", "namespace_url", "now"];

/// The namespace the runner uses without `--namespace`.
pub const DEFAULT_NAMESPACE: &str = "calendar/events/v1";

/// The language parameter's name without `--language-param` (and the key that request data
/// writes it under, renamed when sent).
pub const DEFAULT_LANGUAGE_PARAM: &str = "multilingual_language";

/// A plausible value of a built-in, for checking at load time a text that is parsed after its
/// templates are filled in (a JSONPath).
pub fn sample(name: &str) -> Option<&'static str> {
    Some(match name {
        "run_id" => "r0000000000",
        "case_id" => "c0000000000",
        "namespace" => DEFAULT_NAMESPACE,
        "language_param" => DEFAULT_LANGUAGE_PARAM,
        "base_url" => "http://localhost/wp-json",
        "site_url" => "http://localhost",
        "namespace_url" => "http://localhost/wp-json/calendar/events/v1",
        "now" => "2024-01-01 00:00:00",
        _ => return None,
    })
}

/// The built-ins that take an argument in parentheses.
pub const FUNCTIONS: &[&str] = &["date", "datetime", "timestamp", "filler"];

/// A parsed template string.
#[derive(Clone, Debug, PartialEq)]
pub struct Template {
    /// The text as written in the case file.
    pub source: String,
    pub parts: Vec<Part>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Part {
    Lit(String),
    Expr(Expr),
}

/// One `{{...}}` expression.
#[derive(Clone, Debug, PartialEq)]
pub struct Expr {
    /// The text between the braces, trimmed.
    pub source: String,
    pub head: Head,
    pub access: Vec<Access>,
    pub filters: Vec<Filter>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Head {
    Var(String),
    Date(DateArg),
    DateTime(DateArg),
    Timestamp(DateArg),
    /// `filler(N)`: a string of N `x` characters, for bodies of a given size.
    Filler(usize),
}

/// The largest `filler(N)`: enough to pass any body limit a server is likely to have.
pub const MAX_FILLER: usize = 64 * 1024 * 1024;

#[derive(Clone, Debug, PartialEq)]
pub enum Access {
    Key(String),
    Index(usize),
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Filter {
    Int,
    String,
    Regex,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Unit {
    Minute,
    Hour,
    Day,
    Week,
    Month,
    Year,
    /// A weekday, 0 for Monday to 6 for Sunday: `+1fri` is the first Friday after the day,
    /// `-1mon` the last Monday before it (never the day itself).
    Weekday(u32),
}

/// The weekday units of an offset, Monday first.
const WEEKDAY_UNITS: [&str; 7] = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"];

/// The argument of `date(...)`, `datetime(...)` and `timestamp(...)`.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct DateArg {
    pub offset: Vec<(i64, Unit)>,
    pub time: Option<NaiveTime>,
}

impl Template {
    /// A template with no expressions.
    pub fn literal(text: &str) -> Template {
        Template { source: text.to_string(), parts: vec![Part::Lit(text.to_string())] }
    }

    /// Parses `text`; the error says what is wrong and how to write it instead.
    pub fn parse(text: &str) -> Result<Template, String> {
        let mut parts = Vec::new();
        let mut rest = text;
        while let Some(start) = rest.find("{{") {
            if start > 0 {
                parts.push(Part::Lit(rest[..start].to_string()));
            }
            let after = &rest[start + 2..];
            let Some(end) = after.find("}}") else {
                return Err(format!("unclosed `{{{{` in {text:?}: close the expression with `}}}}`"));
            };
            parts.push(Part::Expr(parse_expr(&after[..end])?));
            rest = &after[end + 2..];
        }
        if !rest.is_empty() {
            parts.push(Part::Lit(rest.to_string()));
        }
        Ok(Template { source: text.to_string(), parts })
    }

    /// The expression when the string is exactly one `{{...}}` (and so keeps its type).
    pub fn single_expr(&self) -> Option<&Expr> {
        match self.parts.as_slice() {
            [Part::Expr(expr)] => Some(expr),
            _ => None,
        }
    }

    /// The expressions in the string.
    pub fn exprs(&self) -> impl Iterator<Item = &Expr> {
        self.parts.iter().filter_map(|part| match part {
            Part::Expr(expr) => Some(expr),
            Part::Lit(_) => None,
        })
    }

    /// True when the string holds no `{{...}}`.
    pub fn is_literal(&self) -> bool {
        self.exprs().next().is_none()
    }
}

impl Expr {
    /// The variable the expression reads, if it reads one (built-in functions read none).
    pub fn variable(&self) -> Option<&str> {
        match &self.head {
            Head::Var(name) => Some(name),
            _ => None,
        }
    }
}

fn is_ident_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || c == '-'
}

fn parse_expr(raw: &str) -> Result<Expr, String> {
    let source = raw.trim().to_string();
    let mut pieces = source.split('|');
    let main = pieces.next().unwrap_or("").trim();
    let mut filters = Vec::new();
    for filter in pieces {
        filters.push(match filter.trim() {
            "int" => Filter::Int,
            "string" => Filter::String,
            "regex" => Filter::Regex,
            other => return Err(format!("unknown filter `{other}` in `{{{{{source}}}}}`: use int, string or regex")),
        });
    }
    if main.is_empty() {
        return Err(format!("empty expression `{{{{{source}}}}}`: name a variable inside the braces"));
    }
    let name_end = main.find(|c: char| !is_ident_char(c)).unwrap_or(main.len());
    let name = &main[..name_end];
    if name.is_empty() || name.starts_with(|c: char| c.is_ascii_digit() || c == '-') {
        return Err(format!("`{{{{{source}}}}}` does not start with a variable name (letters, digits, `_`, `-`)"));
    }
    let mut rest = &main[name_end..];
    let head = if let Some(after) = rest.strip_prefix('(') {
        let Some(close) = after.find(')') else {
            return Err(format!("missing `)` in `{{{{{source}}}}}`"));
        };
        rest = &after[close + 1..];
        parse_call(name, &after[..close], &source)?
    } else {
        Head::Var(name.to_string())
    };
    let access = parse_access(rest, &source)?;
    Ok(Expr { source, head, access, filters })
}

/// A built-in function `name(inside)`: `filler(N)`, or a date function with its argument.
fn parse_call(name: &str, inside: &str, source: &str) -> Result<Head, String> {
    if name == "filler" {
        let size = inside.trim().parse::<usize>().ok().filter(|n| *n <= MAX_FILLER).ok_or_else(|| {
            format!("`filler(...)` takes a whole number of characters up to {MAX_FILLER} in `{{{{{source}}}}}`")
        })?;
        return Ok(Head::Filler(size));
    }
    let arg = parse_date_arg(inside).map_err(|e| format!("{e} in `{{{{{source}}}}}`"))?;
    match name {
        "date" => Ok(Head::Date(arg)),
        "datetime" => Ok(Head::DateTime(arg)),
        "timestamp" => Ok(Head::Timestamp(arg)),
        other => Err(format!(
            "unknown function `{other}(...)` in `{{{{{source}}}}}`: use date, datetime, timestamp or filler"
        )),
    }
}

/// What follows the head: `.key` and `[index]`, any number of them.
fn parse_access(mut rest: &str, source: &str) -> Result<Vec<Access>, String> {
    let mut access = Vec::new();
    while !rest.is_empty() {
        if let Some(after) = rest.strip_prefix('.') {
            let end = after.find(|c: char| !is_ident_char(c)).unwrap_or(after.len());
            if end == 0 {
                return Err(format!("missing key after `.` in `{{{{{source}}}}}`"));
            }
            access.push(Access::Key(after[..end].to_string()));
            rest = &after[end..];
        } else if let Some(after) = rest.strip_prefix('[') {
            let close = after.find(']').ok_or_else(|| format!("missing `]` in `{{{{{source}}}}}`"))?;
            let index = after[..close]
                .trim()
                .parse::<usize>()
                .map_err(|_| format!("`[{}]` in `{{{{{source}}}}}` is not a non-negative index", &after[..close]))?;
            access.push(Access::Index(index));
            rest = &after[close + 1..];
        } else {
            return Err(format!(
                "unexpected `{}` in `{{{{{source}}}}}`: write `name`, `name.key`, `name[0]` or `name | filter`",
                rest.trim()
            ));
        }
    }
    Ok(access)
}

/// Parses an offset such as `+30d`, `-2d`, `+1d+2h`, optionally followed by a time `HH:MM`.
pub fn parse_date_arg(text: &str) -> Result<DateArg, String> {
    let mut arg = DateArg::default();
    for token in text.split_whitespace() {
        if token.starts_with(['+', '-']) && arg.time.is_none() && arg.offset.is_empty() {
            arg.offset = parse_offset(token)?;
        } else if arg.time.is_none() && token.contains(':') {
            let time = NaiveTime::parse_from_str(token, "%H:%M")
                .map_err(|_| format!("bad time `{token}`: write HH:MM, e.g. 19:00"))?;
            arg.time = Some(time);
        } else {
            return Err(format!(
                "bad date argument `{text}`: write an offset such as `+30d` or `-1d+2h`, then optionally a time `HH:MM`"
            ));
        }
    }
    Ok(arg)
}

fn parse_offset(token: &str) -> Result<Vec<(i64, Unit)>, String> {
    let bad = || {
        format!(
            "bad offset `{token}`: write signed amounts with a unit (min, h, d, w, mo, y, or a weekday mon … sun), e.g. `+30d`, `+1d-2h` or `+1fri`"
        )
    };
    let mut out = Vec::new();
    let mut rest = token;
    while !rest.is_empty() {
        let sign = match rest.as_bytes()[0] {
            b'+' => 1,
            b'-' => -1,
            _ => return Err(bad()),
        };
        rest = &rest[1..];
        let digits = rest.find(|c: char| !c.is_ascii_digit()).unwrap_or(rest.len());
        if digits == 0 {
            return Err(bad());
        }
        let amount: i64 = rest[..digits].parse().map_err(|_| bad())?;
        rest = &rest[digits..];
        let weekday = WEEKDAY_UNITS.iter().position(|day| rest.starts_with(day));
        let (unit, len) = if let Some(day) = weekday {
            if amount == 0 {
                return Err(bad());
            }
            (Unit::Weekday(u32::try_from(day).map_err(|_| bad())?), 3)
        } else if rest.starts_with("min") {
            (Unit::Minute, 3)
        } else if rest.starts_with("mo") {
            (Unit::Month, 2)
        } else if rest.starts_with('h') {
            (Unit::Hour, 1)
        } else if rest.starts_with('d') {
            (Unit::Day, 1)
        } else if rest.starts_with('w') {
            (Unit::Week, 1)
        } else if rest.starts_with('y') {
            (Unit::Year, 1)
        } else {
            return Err(bad());
        };
        rest = &rest[len..];
        out.push((sign * amount, unit));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn syntax_errors_are_reported() {
        assert!(Template::parse("{{id").unwrap_err().contains("unclosed"));
        assert!(Template::parse("{{id | upper}}").unwrap_err().contains("unknown filter"));
        assert!(Template::parse("{{foo(+1d)}}").unwrap_err().contains("unknown function"));
        assert!(Template::parse("{{date(+1x)}}").unwrap_err().contains("bad offset"));
        assert!(Template::parse("{{date(+0fri)}}").unwrap_err().contains("bad offset"));
        assert!(Template::parse("{{date(+1friday)}}").unwrap_err().contains("bad offset"));
        assert!(Template::parse("{{ids[-1]}}").is_err());
        assert!(Template::parse("{{}}").is_err());
    }
}
