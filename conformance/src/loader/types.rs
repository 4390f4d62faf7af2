//! What the answers' parts are, checked against the patterns at load time: a status is a
//! number and a header value is text, so a pattern that can never match them is a mistake in
//! the case file (`status: "200"`, `X-Total: 3`), reported before anything runs.

use crate::node::{Issue, Node, NodeKind};
use crate::pattern::{is_matcher_key, status_class};

/// What a pattern is compared with.
#[derive(Clone, Copy, PartialEq)]
enum Kind {
    Status,
    Header,
}

/// The issues of a `status` pattern: a number, a template, or matchers of numbers.
pub fn status(node: &Node) -> Vec<Issue> {
    let mut out = Vec::new();
    check(node, Kind::Status, &mut out);
    out
}

/// The issues of a header pattern: text, a template, or matchers of text.
pub fn header(node: &Node) -> Vec<Issue> {
    let mut out = Vec::new();
    check(node, Kind::Header, &mut out);
    out
}

fn check(node: &Node, kind: Kind, out: &mut Vec<Issue>) {
    let what = match kind {
        Kind::Status => {
            "`status` is a number, such as 200, a class such as `2xx`, or a matcher such as `{$in: [200, 201]}`"
        }
        Kind::Header => "a header value is text, such as \"3\", or a matcher such as `{$regex: ^3$}`",
    };
    match (&node.kind, kind) {
        (NodeKind::Str(t), _) if t.single_expr().is_some() => {}
        (NodeKind::Number(n), Kind::Status) if n.is_u64() => {}
        (NodeKind::Str(t), Kind::Status) if t.is_literal() && status_class(&t.source).is_some() => {}
        (NodeKind::Str(_), Kind::Header) => {}
        (NodeKind::Str(t), Kind::Status) if t.source.trim().parse::<u16>().is_ok() => {
            out.push(Issue::new(node.at, format!("{what}: write {} without quotes", t.source.trim())));
        }
        (NodeKind::Number(n), Kind::Header) => {
            out.push(Issue::new(node.at, format!("{what}: write \"{n}\" in quotes")));
        }
        (NodeKind::Bool(b), Kind::Header) => {
            out.push(Issue::new(node.at, format!("{what}: write \"{b}\" in quotes")));
        }
        (NodeKind::Object(entries), _) if entries.iter().all(|(k, _)| is_matcher_key(&k.text)) => {
            for (key, arg) in entries {
                matcher(&key.text, arg, kind, what, out);
            }
        }
        _ => out.push(Issue::new(node.at, what)),
    }
}

fn matcher(name: &str, arg: &Node, kind: Kind, what: &str, out: &mut Vec<Issue>) {
    match (name, kind) {
        ("$any" | "$absent", _) => {}
        ("$not", _) => check(arg, kind, out),
        // Not a list: a template that gives one; `pattern::check` covers the rest.
        ("$in", _) => {
            if let NodeKind::Array(items) = &arg.kind {
                items.iter().for_each(|item| check(item, kind, out));
            }
        }
        ("$type", _) => {
            let wanted = if kind == Kind::Status { ["integer", "number"] } else { ["string", "string"] };
            let names: Vec<&str> = match &arg.kind {
                NodeKind::Str(t) if t.is_literal() => vec![t.source.as_str()],
                NodeKind::Array(items) => items
                    .iter()
                    .filter_map(|i| match &i.kind {
                        NodeKind::Str(t) if t.is_literal() => Some(t.source.as_str()),
                        _ => None,
                    })
                    .collect(),
                _ => return,
            };
            if !names.iter().any(|n| wanted.contains(n)) {
                out.push(Issue::new(arg.at, format!("{what}: `$type: {}` never matches it", names.join(", "))));
            }
        }
        ("$gt" | "$gte" | "$lt" | "$lte", Kind::Status) => {}
        ("$regex" | "$len" | "$url", Kind::Header) => {}
        (other, _) => out.push(Issue::new(arg.at, format!("{what}: `{other}` never matches it"))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn messages(f: fn(&Node) -> Vec<Issue>, yaml: &str) -> Vec<String> {
        f(&Node::parse_str(yaml)).into_iter().map(|i| i.message).collect()
    }

    #[test]
    fn a_status_is_a_number() {
        for good in [
            "200",
            "2xx",
            "4xx",
            "\"{{code}}\"",
            "{$in: [200, 201]}",
            "{$gte: 400, $lt: 500}",
            "{$not: 404}",
            "{$type: integer}",
        ] {
            assert!(messages(status, good).is_empty(), "{good}");
        }
        assert_eq!(
            messages(status, "\"200\""),
            ["`status` is a number, such as 200, a class such as `2xx`, or a matcher such as `{$in: [200, 201]}`: write 200 without quotes"]
        );
        for bad in ["ok", "2XX", "6xx", "20x", "[200]", "{$in: [\"200\"]}", "{$regex: ^2}", "{$type: string}", "true"] {
            assert_eq!(messages(status, bad).len(), 1, "{bad}");
        }
    }

    #[test]
    fn a_header_value_is_text() {
        for good in [
            "\"3\"",
            "\"{{n}}\"",
            "{$regex: ^3$}",
            "{$in: [a, b]}",
            "{$absent: true}",
            "{$url: {path: /x}}",
            "{$type: string}",
        ] {
            assert!(messages(header, good).is_empty(), "{good}");
        }
        assert!(messages(header, "3")[0].ends_with("write \"3\" in quotes"));
        for bad in ["[1]", "{$gt: 2}", "{$in: [1, 2]}", "{$type: integer}", "{a: 1}"] {
            assert!(!messages(header, bad).is_empty(), "{bad}");
        }
    }
}
