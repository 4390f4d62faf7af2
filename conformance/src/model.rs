//! The loaded suite: case files, cases and steps, as the loader hands them to the runner.
//!
//! Everything here is validated: names are unique, every case has a level, every JSONPath
//! parses, every variable a template reads is defined. Strings keep their templates; the
//! runner fills them in.

use std::fmt;

use serde_json_path::JsonPath;

use crate::env::Env;
use crate::node::{Key, Node};
use crate::template::Template;
use crate::yaml::Pos;

/// How much a case weighs in the verdict.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    /// What the interface document states: failing one means the implementation does not conform.
    Must,
    /// The reference behaviour where the document is silent.
    Should,
    /// Informational.
    May,
}

impl Level {
    pub const ALL: [Level; 3] = [Level::Must, Level::Should, Level::May];

    pub fn parse(text: &str) -> Option<Level> {
        match text {
            "must" => Some(Level::Must),
            "should" => Some(Level::Should),
            "may" => Some(Level::May),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Level::Must => "must",
            Level::Should => "should",
            Level::May => "may",
        }
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The result of loading one file: its cases, or what is wrong with it.
#[derive(Debug)]
pub enum Loaded {
    File(CaseFile),
    Error(FileError),
}

/// A file that could not be loaded; it becomes one failed test named `name`.
#[derive(Clone, Debug)]
pub struct FileError {
    /// The file's test name: its path under the cases folder, without extension.
    pub name: String,
    /// The path as shown to the user.
    pub path: String,
    pub errors: Vec<LocatedError>,
}

/// One error in a case file, with the place to change.
#[derive(Clone, Debug, PartialEq)]
pub struct LocatedError {
    pub line: usize,
    pub column: usize,
    pub message: String,
}

impl fmt::Display for FileError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        for (i, e) in self.errors.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "{}:{}:{}: {}", self.path, e.line, e.column, e.message)?;
        }
        Ok(())
    }
}

/// A loaded file.
#[derive(Debug)]
pub struct CaseFile {
    /// The file's test name: its path under the cases folder, without extension.
    pub name: String,
    pub path: String,
    pub cases: Vec<Case>,
}

/// One case: one test.
#[derive(Debug)]
pub struct Case {
    /// The test name: `file::case name`.
    pub name: String,
    /// The file's path as shown to the user.
    pub file: String,
    pub level: Level,
    pub tags: Vec<String>,
    pub spec: Vec<String>,
    pub requires: Vec<String>,
    /// File `vars` then case `vars`; a case entry overrides a file entry of the same name.
    pub vars: Vec<(String, Node)>,
    pub steps: Vec<Step>,
    pub cleanup: Vec<Step>,
}

impl Case {
    /// About how many requests the case sends one after another: a `repeat` step counts its
    /// iterations over its `concurrency`, a `foreach` step as ten. The runner starts the
    /// heaviest cases first.
    pub fn sequential_requests(&self) -> u64 {
        let step = |s: &Step| {
            let each = match (s.repeat, &s.foreach) {
                (Some(n), _) => n,
                (None, Some(_)) => 10,
                (None, None) => 1,
            };
            each.div_ceil(s.concurrency.unwrap_or(1).max(1) as u64).max(1)
        };
        self.steps.iter().chain(&self.cleanup).map(step).sum()
    }
}

/// One request and what must come back.
#[derive(Debug)]
pub struct Step {
    pub request: Request,
    pub expect: Expect,
    pub capture: Vec<(String, Capture)>,
    pub repeat: Option<u64>,
    pub foreach: Option<String>,
    /// `concurrency: N`: the iterations of a `repeat` or `foreach` step are sent up to N at a
    /// time (their order of arrival is then not that of `index`).
    pub concurrency: Option<usize>,
}

/// A JSONPath as written in a case file: compiled at load time, or, when it holds templates
/// (`$.routes['/{{namespace}}/events']`), checked at load time and compiled once rendered.
#[derive(Debug)]
pub struct PathExpr {
    /// The text as written, for messages.
    pub source: String,
    pub template: Template,
    /// The compiled path when `source` has no templates.
    pub compiled: Option<JsonPath>,
}

impl PathExpr {
    /// The path to query with, its templates filled in from `env`.
    pub fn resolve(&self, env: &Env) -> Result<JsonPath, String> {
        if let Some(path) = &self.compiled {
            return Ok(path.clone());
        }
        let text = env.render_text(&self.template).map_err(|e| e.to_string())?;
        JsonPath::parse(&text)
            .map_err(|e| format!("the JSONPath `{}` gives `{text}`, which does not parse: {e}", self.source))
    }
}

/// Where a captured value comes from.
#[derive(Debug)]
pub enum Capture {
    /// A JSONPath into the body.
    Path(PathExpr),
    /// A response header.
    Header(String),
}

#[derive(Debug)]
pub struct Request {
    /// Where the request starts in the case file.
    pub at: Pos,
    pub method: String,
    pub target: Target,
    pub lang: Option<Template>,
    /// Keys may hold templates.
    pub query: Vec<(Key, Node)>,
    pub body: Body,
    pub headers: Vec<(String, Template)>,
    pub auth: Option<String>,
}

/// The address of a request.
#[derive(Debug)]
pub enum Target {
    /// Appended to `{base_url}/{namespace}`.
    Path(Template),
    /// Appended to the site address.
    Url(Template),
}

#[derive(Debug)]
pub enum Body {
    None,
    Json(Node),
    /// Keys may hold templates.
    Form(Vec<(Key, Node)>),
    Raw(Template),
}

#[derive(Debug, Default)]
pub struct Expect {
    pub status: Option<Node>,
    pub headers: Vec<(String, Node)>,
    pub json: Option<Node>,
    /// A body pattern the case needs and the interface document does not promise (a
    /// precondition): when it does not hold, the case is skipped, not failed.
    pub assume: Option<Node>,
    pub paths: Vec<(PathExpr, Node)>,
}
