//! Bounds checked at load time: how large the templates of a case can grow. A variable made
//! of variables that each repeat the one before (a template bomb), or a body of many fillers,
//! is refused with its line before anything runs. Captured values are unknown until the case
//! runs; the run-time budget ([`crate::env::MAX_EXPANSION`]) covers them.

use std::collections::HashMap;

use crate::model::{Body, Case, Step, Target};
use crate::node::{Issue, Node, NodeKind};
use crate::template::{Head, Part, Template};

/// The most bytes one request's templates may expand to, by the load-time estimate.
pub const MAX_REQUEST_BYTES: usize = 96 * 1024 * 1024;

/// What a built-in expands to at most (URLs and names given on the command line).
const BUILTIN_BYTES: usize = 256;

/// The issues of a case whose variables or requests can grow past [`MAX_REQUEST_BYTES`].
pub fn check(case: &Case, issues: &mut Vec<Issue>) {
    let mut sizes = Sizes { case, memo: HashMap::new() };
    for (name, node) in &case.vars {
        let size = sizes.var(name);
        if size > MAX_REQUEST_BYTES {
            issues.push(Issue::new(node.at, too_large(&format!("the variable `{name}`"), size)));
        }
    }
    for step in case.steps.iter().chain(&case.cleanup) {
        let size = sizes.request(step);
        if size > MAX_REQUEST_BYTES {
            let at = step.request.at;
            issues.push(Issue::new(at, too_large("this request", size)));
        }
    }
}

fn too_large(what: &str, size: usize) -> String {
    format!(
        "{what} can expand to {} MiB or more, more than the {} MiB a request may be: use fewer or smaller \
         fillers, or variables that do not repeat each other",
        size / (1024 * 1024),
        MAX_REQUEST_BYTES / (1024 * 1024)
    )
}

struct Sizes<'a> {
    case: &'a Case,
    /// Sizes of variables; `None` while one is being measured (a loop counts as 0: the run
    /// stops a loop by itself).
    memo: HashMap<String, Option<usize>>,
}

impl Sizes<'_> {
    fn var(&mut self, name: &str) -> usize {
        match self.memo.get(name) {
            Some(Some(size)) => return *size,
            Some(None) => return 0,
            None => {}
        }
        let Some((_, node)) = self.case.vars.iter().find(|(n, _)| n == name) else {
            // A capture, `item` or `index`: unknown until run time.
            return if crate::template::BUILTINS.contains(&name) { BUILTIN_BYTES } else { 0 };
        };
        self.memo.insert(name.to_string(), None);
        let size = self.node(node);
        self.memo.insert(name.to_string(), Some(size));
        size
    }

    fn node(&mut self, node: &Node) -> usize {
        match &node.kind {
            NodeKind::Str(t) => self.template(t),
            NodeKind::Array(items) => items.iter().fold(2, |sum, item| sum.saturating_add(self.node(item) + 1)),
            NodeKind::Object(entries) => entries
                .iter()
                .fold(2, |sum, (key, value)| sum.saturating_add(self.template(&key.template) + self.node(value) + 4)),
            _ => 8,
        }
    }

    fn template(&mut self, template: &Template) -> usize {
        template.parts.iter().fold(0usize, |sum, part| {
            sum.saturating_add(match part {
                Part::Lit(text) => text.len(),
                Part::Expr(expr) => match &expr.head {
                    Head::Var(name) => self.var(name),
                    Head::Filler(n) => *n,
                    Head::Date(_) | Head::DateTime(_) | Head::Timestamp(_) => 20,
                },
            })
        })
    }

    fn request(&mut self, step: &Step) -> usize {
        let r = &step.request;
        let mut size = match &r.target {
            Target::Path(t) | Target::Url(t) => self.template(t),
        };
        for (key, node) in &r.query {
            size = size.saturating_add(self.template(&key.template) + self.node(node));
        }
        size = size.saturating_add(match &r.body {
            Body::None => 0,
            Body::Json(node) => self.node(node),
            Body::Form(entries) => {
                entries.iter().fold(0, |sum, (k, v)| sum.saturating_add(self.template(&k.template) + self.node(v)))
            }
            Body::Raw(t) => self.template(t),
        });
        for (_, value) in &r.headers {
            size = size.saturating_add(self.template(value));
        }
        size
    }
}
