//! The values of a case file as the rest of the runner uses them: strings with their
//! `{{...}}` templates parsed, each value with its place in the file.
//!
//! [`Node`] is a JSON-like value whose strings are templates (request bodies, patterns,
//! `vars`); [`Key`] a map key that may hold templates; [`Text`] and [`Tpl`] a located plain
//! string and a located template. They are built from the YAML tree ([`crate::yaml`]); every
//! problem found on the way becomes an [`Issue`] at its position.

use serde_json::Number;

use crate::template::Template;
use crate::yaml::{Pos, YValue, Y};

/// A problem in a case file, at a position; the loader reports them all together.
#[derive(Clone, Debug, PartialEq)]
pub struct Issue {
    pub at: Pos,
    pub message: String,
}

impl Issue {
    pub fn new(at: Pos, message: impl Into<String>) -> Issue {
        Issue { at, message: message.into() }
    }
}

/// A scalar read as text (strings, and numbers or booleans written where text is expected).
#[derive(Clone, Debug, PartialEq)]
pub struct Text {
    pub at: Pos,
    pub text: String,
}

/// A string that may hold `{{...}}` templates.
#[derive(Clone, Debug, PartialEq)]
pub struct Tpl {
    pub at: Pos,
    pub template: Template,
}

/// A map key that may hold `{{...}}` templates (keys of request data and of patterns). `text`
/// is the key as written.
#[derive(Clone, Debug, PartialEq)]
pub struct Key {
    pub at: Pos,
    pub text: String,
    pub template: Template,
}

impl Key {
    /// A key without templates, built in code.
    pub fn literal(text: &str) -> Key {
        Key { at: Pos::NONE, text: text.to_string(), template: Template::literal(text) }
    }

    /// Parses a located text as a templated key.
    pub fn parse(text: &Text) -> Result<Key, String> {
        Ok(Key { at: text.at, text: text.text.clone(), template: Template::parse(&text.text)? })
    }
}

/// A JSON-like value whose strings are templates: request bodies, patterns, `vars`.
#[derive(Clone, Debug, PartialEq)]
pub struct Node {
    pub at: Pos,
    pub kind: NodeKind,
}

#[derive(Clone, Debug, PartialEq)]
pub enum NodeKind {
    Null,
    Bool(bool),
    Number(Number),
    Str(Template),
    Array(Vec<Node>),
    /// Keys may hold templates; duplicate keys (as written) are rejected when reading.
    Object(Vec<(Key, Node)>),
}

impl Node {
    /// A node built in code (tests, defaults); it has no place in a file.
    pub fn synthetic(kind: NodeKind) -> Node {
        Node { at: Pos::NONE, kind }
    }

    /// Converts plain JSON (no templates) into a node.
    pub fn from_json(value: &serde_json::Value) -> Node {
        use serde_json::Value;
        let kind = match value {
            Value::Null => NodeKind::Null,
            Value::Bool(b) => NodeKind::Bool(*b),
            Value::Number(n) => NodeKind::Number(n.clone()),
            Value::String(s) => NodeKind::Str(Template::literal(s)),
            Value::Array(items) => NodeKind::Array(items.iter().map(Node::from_json).collect()),
            Value::Object(map) => {
                NodeKind::Object(map.iter().map(|(k, v)| (Key::literal(k), Node::from_json(v))).collect())
            }
        };
        Node::synthetic(kind)
    }

    /// Reads a YAML value; templates that do not parse and keys that are not text become
    /// issues (the node then holds the text as written).
    pub fn from_yaml(y: &Y, issues: &mut Vec<Issue>) -> Node {
        let kind = match &y.value {
            YValue::Null => NodeKind::Null,
            YValue::Bool(b) => NodeKind::Bool(*b),
            YValue::Number(n) => NodeKind::Number(n.clone()),
            YValue::Str { text, .. } => NodeKind::Str(template(y.at, text, issues)),
            YValue::Seq(items) => NodeKind::Array(items.iter().map(|item| Node::from_yaml(item, issues)).collect()),
            YValue::Map(entries) => {
                if let Some(quoted) = unquoted_template(y) {
                    issues.push(Issue::new(y.at, unquoted_message(&quoted)));
                    NodeKind::Str(Template::literal(&quoted))
                } else {
                    let mut out = Vec::new();
                    for (key, value) in entries {
                        if let Some(text) = Text::from_key(key, issues) {
                            let template = template(key.at, &text.text, issues);
                            out.push((Key { at: key.at, text: text.text, template }, Node::from_yaml(value, issues)));
                        }
                    }
                    NodeKind::Object(out)
                }
            }
        };
        Node { at: y.at, kind }
    }

    /// Parses a YAML text into a node (tests and examples); panics on errors.
    pub fn parse_str(text: &str) -> Node {
        let root = crate::yaml::parse(text).expect("YAML").root.expect("a value");
        let mut issues = Vec::new();
        let node = Node::from_yaml(&root, &mut issues);
        assert!(issues.is_empty(), "{issues:?}");
        node
    }

    /// Visits this node and every node under it (pre-order).
    pub fn walk<'a>(&'a self, f: &mut dyn FnMut(&'a Node)) {
        f(self);
        match &self.kind {
            NodeKind::Array(items) => items.iter().for_each(|item| item.walk(f)),
            NodeKind::Object(entries) => entries.iter().for_each(|(_, v)| v.walk(f)),
            _ => {}
        }
    }
}

fn template(at: Pos, text: &str, issues: &mut Vec<Issue>) -> Template {
    Template::parse(text).unwrap_or_else(|message| {
        issues.push(Issue::new(at, message));
        Template::literal(text)
    })
}

impl Text {
    /// Reads a scalar as text; a list, a map or null is an issue.
    pub fn from_yaml(y: &Y, issues: &mut Vec<Issue>) -> Option<Text> {
        match (&y.value, y.scalar_text()) {
            (YValue::Null, _) => {
                issues.push(Issue::new(y.at, "expected a string, found nothing (null)"));
                None
            }
            (_, Some(text)) => Some(Text { at: y.at, text }),
            _ => {
                issues.push(wrong_type(y, "a string"));
                None
            }
        }
    }

    /// Reads a map key: a scalar (null is the empty key).
    pub fn from_key(y: &Y, issues: &mut Vec<Issue>) -> Option<Text> {
        match y.scalar_text() {
            Some(text) => Some(Text { at: y.at, text }),
            None => {
                issues.push(wrong_type(y, "a key that is text"));
                None
            }
        }
    }
}

impl Tpl {
    /// Reads a scalar as a template.
    pub fn from_yaml(y: &Y, issues: &mut Vec<Issue>) -> Option<Tpl> {
        let text = Text::from_yaml(y, issues)?;
        Some(Tpl { at: text.at, template: template(text.at, &text.text, issues) })
    }
}

/// The issue for a value of the wrong kind; an unquoted `{{...}}` gets a suggestion to quote it.
pub fn wrong_type(y: &Y, expected: &str) -> Issue {
    match unquoted_template(y) {
        Some(quoted) => Issue::new(y.at, unquoted_message(&quoted)),
        None => Issue::new(y.at, format!("expected {expected}, found {}", y.kind_name())),
    }
}

fn unquoted_message(quoted: &str) -> String {
    format!(
        "YAML reads an unquoted `{{{{...}}}}` as a map: write the template in quotes, {quoted:?} (a string \
         that is exactly one template keeps its value's type)"
    )
}

/// When `y` is what YAML makes of an unquoted `{{name}}` (a map whose only key is a map), the
/// template as it was likely written.
pub fn unquoted_template(y: &Y) -> Option<String> {
    let YValue::Map(entries) = &y.value else { return None };
    let [(key, value)] = entries.as_slice() else { return None };
    let YValue::Map(inner) = &key.value else { return None };
    if value.value != YValue::Null {
        return None;
    }
    let words: Vec<String> = inner
        .iter()
        .map(|(k, v)| match (k.scalar_text(), &v.value) {
            (Some(k), YValue::Null) => Some(k),
            (Some(k), _) => v.scalar_text().map(|v| format!("{k}: {v}")),
            _ => None,
        })
        .collect::<Option<_>>()?;
    Some(format!("{{{{{}}}}}", words.join(", ")))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn node(text: &str) -> (Node, Vec<Issue>) {
        let root = crate::yaml::parse(text).unwrap().root.unwrap();
        let mut issues = Vec::new();
        (Node::from_yaml(&root, &mut issues), issues)
    }

    #[test]
    fn strings_become_templates_with_their_positions() {
        let (n, issues) = node("a: \"{{id}}\"\nb: [1, x]\n");
        assert!(issues.is_empty());
        let NodeKind::Object(entries) = &n.kind else { panic!() };
        assert_eq!(entries[0].0.text, "a");
        assert_eq!(entries[0].1.at, Pos::new(1, 4));
        assert!(matches!(&entries[0].1.kind, NodeKind::Str(t) if t.single_expr().is_some()));
    }

    #[test]
    fn an_unquoted_template_gets_a_suggestion() {
        let (_, issues) = node("id: {{id}}\n");
        assert_eq!(issues.len(), 1, "{issues:?}");
        assert!(issues[0].message.contains(r#""{{id}}""#), "{}", issues[0].message);
        assert_eq!(issues[0].at, Pos::new(1, 5));
        let (_, issues) = node("x: {{event.id | int}}\n");
        assert!(issues[0].message.contains(r#""{{event.id | int}}""#), "{}", issues[0].message);
        let (_, issues) = node("x: \"{{unclosed\"\n");
        assert!(issues[0].message.contains("unclosed"));
    }
}
