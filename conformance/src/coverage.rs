//! Coverage: which parts of the interface the loaded cases touch, item by item.
//!
//! The items come from [`reference_server::interface`] only (the one description of the
//! interface): every route × method of `ROUTES`, the arguments of every list route plus the
//! language parameter of every route family, the write fields of every resource (create and
//! update apart) and every code of the error catalog `ERRORS`. Nothing here lists them again.
//!
//! What a case touches is read from its `steps` (its `cleanup` checks nothing, so it counts for
//! nothing):
//! - the route and method a step addresses: its `path` (or a `url` inside the namespace, the
//!   `?rest_route=` form included), with `{{namespace}}` and `{{language_param}}` filled in
//!   from the options and every other `{{...}}` stood in for by a value that fits
//!   `<id>` (then `<slug>`), resolved with [`interface::match_route`]; the method is the
//!   request's, or the literal `_method` query value or `X-HTTP-Method-Override` header when
//!   present, as the server treats them;
//! - on a list route, the query keys (`key[]` and `key[sub]` count as `key`);
//! - on a create or update, the top-level keys of the `json` or `form` body;
//! - on any route, `multilingual_language` (or the `--language-param` name, or the key
//!   `{{language_param}}`) among the query keys or top-level body keys counts as the language
//!   parameter of the route's family;
//! - the error codes a step expects: a literal `code` in `expect.json` or `expect.paths` (`$.code`),
//!   and literal `data.details.<param>.code` values (error codes that come inside another one).
//!
//! This module computes; [`crate::report::coverage`] prints.

use std::collections::{BTreeMap, BTreeSet};

use reference_server::interface::{self, Method, Op, Resource, Route, ERRORS, ROUTES};

use crate::model::{Body, CaseFile, Request, Step, Target};
use crate::node::{Key, Node, NodeKind};
use crate::template::{Part, Template};

/// The name cases give the language parameter (the runner renames it to `--language-param`).
pub const LANGUAGE_KEY: &str = crate::template::DEFAULT_LANGUAGE_PARAM;

/// What the coverage depends on beyond the cases.
#[derive(Clone, Debug)]
pub struct Options {
    /// The route namespace, to find `url` requests that are inside it.
    pub namespace: String,
    /// The implementation's name of the language parameter (also counted as such).
    pub language_param: String,
}

impl Default for Options {
    fn default() -> Options {
        Options { namespace: crate::template::DEFAULT_NAMESPACE.into(), language_param: LANGUAGE_KEY.into() }
    }
}

/// The four parts of the matrix.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SectionKind {
    Routes,
    Parameters,
    WriteFields,
    Errors,
}

impl SectionKind {
    pub const ALL: [SectionKind; 4] =
        [SectionKind::Routes, SectionKind::Parameters, SectionKind::WriteFields, SectionKind::Errors];

    pub fn name(self) -> &'static str {
        match self {
            SectionKind::Routes => "routes × methods",
            SectionKind::Parameters => "list parameters",
            SectionKind::WriteFields => "write fields",
            SectionKind::Errors => "error codes",
        }
    }
}

/// One item of the interface and the cases that touch it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Item {
    /// What the item belongs to: the path of a route (routes), `GET /path` (parameters), the
    /// resource (write fields); empty for error codes.
    pub group: String,
    /// The method (routes), the parameter or field name, or the error code.
    pub name: String,
    /// `create` or `update` for write fields.
    pub column: Option<&'static str>,
    /// A remark shown next to the item: the feature it needs, an error's status.
    pub note: Option<String>,
    /// The item's unique name, as the JSON report writes it: `GET /events/<id>`,
    /// `GET /events: per_page`, `venues update: geo_lat`, `rest_no_route`.
    pub label: String,
    /// The names of the cases that touch it.
    pub cases: BTreeSet<String>,
}

impl Item {
    fn new(kind: SectionKind, group: String, name: &str, column: Option<&'static str>, note: Option<String>) -> Item {
        let label = match (kind, column) {
            (SectionKind::Routes, _) => format!("{name} {group}"),
            (SectionKind::Errors, _) => name.to_string(),
            (_, Some(column)) => format!("{group} {column}: {name}"),
            (_, None) => format!("{group}: {name}"),
        };
        Item { group, name: name.to_string(), column, note, label, cases: BTreeSet::new() }
    }

    pub fn is_covered(&self) -> bool {
        !self.cases.is_empty()
    }
}

/// The items of one section, in the interface table's order.
#[derive(Clone, Debug)]
pub struct Section {
    pub kind: SectionKind,
    pub items: Vec<Item>,
}

impl Section {
    pub fn covered(&self) -> usize {
        self.items.iter().filter(|i| i.is_covered()).count()
    }
}

/// A step whose address is no route of the interface (on purpose or by mistake).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unresolved {
    pub case: String,
    /// `steps[i]`.
    pub step: String,
    pub method: String,
    /// The path or url as written in the case file.
    pub address: String,
}

/// The whole matrix.
#[derive(Clone, Debug)]
pub struct Coverage {
    pub sections: Vec<Section>,
    /// How many cases and files were read.
    pub cases: usize,
    pub files: usize,
    pub unresolved: Vec<Unresolved>,
}

impl Coverage {
    /// Every item of the interface, none touched yet.
    pub fn empty(options: &Options) -> Coverage {
        let sections =
            SectionKind::ALL.iter().map(|kind| Section { kind: *kind, items: items(*kind, options) }).collect();
        Coverage { sections, cases: 0, files: 0, unresolved: Vec::new() }
    }

    pub fn section(&self, kind: SectionKind) -> &Section {
        self.sections.iter().find(|s| s.kind == kind).expect("every section exists")
    }

    /// The number of items no case touches.
    pub fn uncovered(&self) -> usize {
        self.sections.iter().map(|s| s.items.len() - s.covered()).sum()
    }

    pub fn total(&self) -> usize {
        self.sections.iter().map(|s| s.items.len()).sum()
    }

    /// The item with this label, if the interface has it.
    pub fn item(&self, label: &str) -> Option<&Item> {
        self.sections.iter().flat_map(|s| &s.items).find(|i| i.label == label)
    }

    fn touch(&mut self, kind: SectionKind, group: &str, name: &str, column: Option<&str>, case: &str) {
        let section = self.sections.iter_mut().find(|s| s.kind == kind).expect("every section exists");
        if let Some(item) = section.items.iter_mut().find(|i| i.group == group && i.name == name && i.column == column)
        {
            item.cases.insert(case.to_string());
        }
    }
}

/// The exit status of `conformance coverage`: 0 when every item has a case, 1 otherwise.
pub fn exit_status(coverage: &Coverage) -> i32 {
    if coverage.uncovered() == 0 {
        0
    } else {
        1
    }
}

/// How a route is shown: its interface path, `/` for the namespace index.
pub fn shown_path(route: &Route) -> &'static str {
    if route.path.is_empty() {
        "/"
    } else {
        route.path
    }
}

fn parameter_group(route: &Route) -> String {
    format!("GET {}", shown_path(route))
}

/// The route whose group holds the language parameter of `resource`: its list route, else its
/// first route (the namespace index, `/doc`).
fn family_home(resource: Resource) -> &'static Route {
    ROUTES
        .iter()
        .find(|r| r.resource == resource && r.op(Method::Get) == Some(Op::List))
        .or_else(|| ROUTES.iter().find(|r| r.resource == resource))
        .expect("every resource has a route")
}

/// The resources that take write fields, in the order of `ROUTES`.
fn written_resources() -> Vec<Resource> {
    let mut out = Vec::new();
    for route in ROUTES {
        if route.methods.iter().any(|(_, op)| *op == Op::Create) && !out.contains(&route.resource) {
            out.push(route.resource);
        }
    }
    out
}

fn write_fields(resource: Resource) -> Vec<interface::Arg> {
    if resource.is_term() {
        interface::term_fields(resource)
    } else {
        interface::post_fields(resource).to_vec()
    }
}

fn feature_note(arg: &interface::Arg) -> Option<String> {
    arg.feature.map(|f| format!("feature {f}"))
}

fn items(kind: SectionKind, options: &Options) -> Vec<Item> {
    let mut out = Vec::new();
    match kind {
        SectionKind::Routes => {
            for route in ROUTES {
                let note = route.path.is_empty().then(|| "the namespace index".to_string());
                for (method, _) in route.methods {
                    out.push(Item::new(kind, shown_path(route).to_string(), method.name(), None, note.clone()));
                }
            }
        }
        SectionKind::Parameters => {
            for route in ROUTES {
                let is_list = route.op(Method::Get) == Some(Op::List);
                if is_list {
                    for arg in route.args(Method::Get) {
                        out.push(Item::new(kind, parameter_group(route), arg.name, None, feature_note(&arg)));
                    }
                }
                if family_home(route.resource).path == route.path {
                    let note = Some(format!("any {} route", family_name(route.resource)));
                    out.push(Item::new(kind, parameter_group(route), &options.language_param, None, note));
                }
            }
        }
        SectionKind::WriteFields => {
            for resource in written_resources() {
                let fields = write_fields(resource);
                for column in ["create", "update"] {
                    for arg in &fields {
                        out.push(Item::new(
                            kind,
                            resource.segment().to_string(),
                            arg.name,
                            Some(column),
                            feature_note(arg),
                        ));
                    }
                }
            }
        }
        SectionKind::Errors => {
            for error in ERRORS {
                out.push(Item::new(kind, String::new(), error.code, None, Some(error.status.to_string())));
            }
        }
    }
    out
}

fn family_name(resource: Resource) -> &'static str {
    match resource {
        Resource::Index => "index",
        Resource::Doc => "doc",
        other => other.segment(),
    }
}

/// Computes the coverage of the interface by `files`.
pub fn compute(files: &[CaseFile], options: &Options) -> Coverage {
    compute_refs(&files.iter().collect::<Vec<_>>(), options)
}

/// [`compute`] over borrowed files.
pub fn compute_refs(files: &[&CaseFile], options: &Options) -> Coverage {
    let mut coverage = Coverage::empty(options);
    coverage.files = files.len();
    for file in files {
        for case in &file.cases {
            coverage.cases += 1;
            for (index, step) in case.steps.iter().enumerate() {
                touch_step(&mut coverage, &case.name, index, step, options);
            }
        }
    }
    coverage
}

fn touch_step(coverage: &mut Coverage, case: &str, index: usize, step: &Step, options: &Options) {
    for code in expected_codes(step) {
        coverage.touch(SectionKind::Errors, "", &code, None, case);
    }
    let request = &step.request;
    let Some(address) = address(request, options) else {
        coverage.unresolved.push(Unresolved {
            case: case.to_string(),
            step: format!("steps[{index}]"),
            method: request.method.clone(),
            address: match &request.target {
                Target::Path(t) => t.source.clone(),
                Target::Url(t) => format!("url {}", t.source),
            },
        });
        return;
    };
    let route = address.route;
    let mut query_keys: Vec<String> = request.query.iter().map(|(k, _)| key_name(k, options)).collect();
    query_keys.extend(address.query.iter().map(|(k, _)| bare_key(k)));
    let body_keys = body_keys(&request.body, options);
    let is_language = |key: &String| key == LANGUAGE_KEY || *key == options.language_param;

    if query_keys.iter().chain(&body_keys).any(is_language) {
        let home = family_home(route.resource);
        coverage.touch(SectionKind::Parameters, &parameter_group(home), &options.language_param, None, case);
    }
    let Some(method) = effective_method(request, &address.query) else {
        return;
    };
    let Some(op) = route.op(method) else {
        return;
    };
    coverage.touch(SectionKind::Routes, shown_path(route), method.name(), None, case);
    match op {
        Op::List => {
            for key in query_keys.iter().filter(|k| !is_language(k)) {
                coverage.touch(SectionKind::Parameters, &parameter_group(route), key, None, case);
            }
        }
        Op::Create | Op::Update => {
            let column = if op == Op::Create { "create" } else { "update" };
            for key in body_keys.iter().filter(|k| !is_language(k)) {
                coverage.touch(SectionKind::WriteFields, route.resource.segment(), key, Some(column), case);
            }
        }
        _ => {}
    }
}

/// `key[]` and `key[sub]` are the parameter `key`.
fn bare_key(key: &str) -> String {
    key.split('[').next().unwrap_or(key).to_string()
}

/// The parameter a key of request data names, its built-in names filled in.
fn key_name(key: &Key, options: &Options) -> String {
    bare_key(&fill(&key.template, PLACEHOLDERS[1], options))
}

fn body_keys(body: &Body, options: &Options) -> Vec<String> {
    match body {
        Body::Json(Node { kind: NodeKind::Object(entries), .. }) => {
            entries.iter().map(|(k, _)| fill(&k.template, PLACEHOLDERS[1], options)).collect()
        }
        Body::Form(entries) => entries.iter().map(|(k, _)| key_name(k, options)).collect(),
        _ => Vec::new(),
    }
}

/// The literal text of a node, when it is a string without templates.
fn literal(node: &Node) -> Option<String> {
    match &node.kind {
        NodeKind::Str(template) if template.is_literal() => Some(template.source.clone()),
        _ => None,
    }
}

/// The method the server treats the request as: a literal `_method` query value, else a literal
/// `X-HTTP-Method-Override` header, else the request's method.
fn effective_method(request: &Request, url_query: &[(String, String)]) -> Option<Method> {
    let from_query = request
        .query
        .iter()
        .find(|(k, _)| k.text == "_method")
        .and_then(|(_, v)| literal(v))
        .or_else(|| url_query.iter().find(|(k, _)| k == "_method").map(|(_, v)| v.clone()));
    let from_header = || {
        request
            .headers
            .iter()
            .find(|(k, t)| k.eq_ignore_ascii_case("x-http-method-override") && t.is_literal())
            .map(|(_, t)| t.source.trim().to_string())
    };
    let name = from_query.or_else(from_header).unwrap_or_else(|| request.method.clone());
    Method::parse(&name)
}

/// The error codes of the catalog a step expects by name.
fn expected_codes(step: &Step) -> Vec<String> {
    let mut found = Vec::new();
    if let Some(json) = &step.expect.json {
        if let Some(code) = field(json, "code").and_then(literal) {
            found.push(code);
        }
        if let Some(NodeKind::Object(details)) = field(json, "data").and_then(|d| field(d, "details")).map(|d| &d.kind)
        {
            for (_, detail) in details {
                if let Some(code) = field(detail, "code").and_then(literal) {
                    found.push(code);
                }
            }
        }
    }
    for (path, value) in &step.expect.paths {
        let Some(code) = literal(value) else {
            continue;
        };
        let segments = path_segments(&path.source);
        let segments: Vec<&str> = segments.iter().map(String::as_str).collect();
        if matches!(segments.as_slice(), ["code"] | ["data", "details", _, "code"]) {
            found.push(code);
        }
    }
    found.retain(|code| ERRORS.iter().any(|e| e.code == *code));
    found
}

fn field<'a>(node: &'a Node, key: &str) -> Option<&'a Node> {
    match &node.kind {
        NodeKind::Object(entries) => entries.iter().find(|(k, _)| k.text == key).map(|(_, v)| v),
        _ => None,
    }
}

/// The names of a simple JSONPath (`$.a.b`, `$['a']["b"]`); anything else gives a segment that
/// matches no rule.
fn path_segments(path: &str) -> Vec<String> {
    let Some(mut rest) = path.trim().strip_prefix('$') else {
        return vec!["?".into()];
    };
    let mut out = Vec::new();
    while !rest.is_empty() {
        if let Some(after) = rest.strip_prefix('.') {
            let end = after.find(['.', '[']).unwrap_or(after.len());
            out.push(after[..end].to_string());
            rest = &after[end..];
        } else if let Some(after) = rest.strip_prefix("['").or_else(|| rest.strip_prefix("[\"")) {
            let Some(end) = after.find(['\'', '"']) else {
                return vec!["?".into()];
            };
            out.push(after[..end].to_string());
            rest = after[end + 1..].strip_prefix(']').unwrap_or("?");
        } else {
            out.push("?".into());
            break;
        }
    }
    out
}

/// Where a step goes inside the namespace.
struct Address {
    route: &'static Route,
    /// Query pairs written into the path or url itself.
    query: Vec<(String, String)>,
}

/// The text of a template with `{{namespace}}` and `{{language_param}}` filled in from the
/// options and every other expression replaced by `placeholder`.
fn fill(template: &Template, placeholder: &str, options: &Options) -> String {
    template
        .parts
        .iter()
        .map(|part| match part {
            Part::Lit(text) => text.as_str(),
            Part::Expr(expr) if expr.access.is_empty() && expr.filters.is_empty() => match expr.variable() {
                Some("namespace") => options.namespace.trim_matches('/'),
                Some("language_param") => options.language_param.as_str(),
                _ => placeholder,
            },
            Part::Expr(_) => placeholder,
        })
        .collect()
}

fn split_query(text: &str) -> (&str, Vec<(String, String)>) {
    let text = text.split('#').next().unwrap_or(text);
    match text.split_once('?') {
        Some((path, query)) => (path, form_urlencoded::parse(query.as_bytes()).into_owned().collect()),
        None => (text, Vec::new()),
    }
}

fn collapse_slashes(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    for c in path.chars() {
        if !(c == '/' && out.ends_with('/')) {
            out.push(c);
        }
    }
    out
}

/// The part of a site path after `/{namespace}`, when the path goes through the namespace.
fn after_namespace(path: &str, namespace: &str) -> Option<String> {
    let path = collapse_slashes(path);
    let needle = format!("/{}", namespace.trim_matches('/')).to_ascii_lowercase();
    let lower = path.to_ascii_lowercase();
    let mut from = 0;
    while let Some(at) = lower[from..].find(&needle) {
        let end = from + at + needle.len();
        let rest = &path[end..];
        if rest.is_empty() || rest.starts_with('/') {
            return Some(rest.to_string());
        }
        from = end;
    }
    None
}

/// The route a path relative to the namespace names, trying each placeholder in turn.
fn route_for(candidates: &[String]) -> Option<&'static Route> {
    candidates.iter().find_map(|path| {
        let path = collapse_slashes(path);
        let path = path.trim_end_matches('/');
        interface::match_route(path).map(|(route, _)| route)
    })
}

/// The route a `path` template names (relative to the namespace, templates stood in for).
pub fn route_of_path(template: &Template, options: &Options) -> Option<&'static Route> {
    let candidates: Vec<String> =
        PLACEHOLDERS.iter().map(|p| split_query(&fill(template, p, options)).0.to_string()).collect();
    route_for(&candidates)
}

/// Stand-ins for `{{...}}`: one that fits `<id>`, then one that fits `<slug>` only.
const PLACEHOLDERS: [&str; 2] = ["1", "x"];

fn address(request: &Request, options: &Options) -> Option<Address> {
    let namespace = options.namespace.as_str();
    match &request.target {
        Target::Path(template) => {
            let route = route_of_path(template, options)?;
            let (_, query) = split_query(&fill(template, PLACEHOLDERS[0], options));
            Some(Address { route, query })
        }
        Target::Url(template) => {
            let mut candidates = Vec::new();
            let mut query = Vec::new();
            for placeholder in PLACEHOLDERS {
                let text = fill(template, placeholder, options);
                let (path, pairs) = split_query(&text);
                let inside = after_namespace(path, namespace).or_else(|| {
                    let route = pairs.iter().find(|(k, _)| k == "rest_route").map(|(_, v)| v.as_str())?;
                    after_namespace(route, namespace)
                })?;
                candidates.push(inside);
                query = pairs.into_iter().filter(|(k, _)| k != "rest_route").collect();
            }
            let route = route_for(&candidates)?;
            Some(Address { route, query })
        }
    }
}

/// The route a request addresses, as `METHOD /path` with the interface's placeholders
/// (`POST /events/<id>`); the method the server treats it as (`_method`, the override header).
/// `None` when the request is outside the interface's routes (the REST root, a wrong path).
pub fn route_label(request: &Request, options: &Options) -> Option<String> {
    let address = address(request, options)?;
    let method = effective_method(request, &address.query)?;
    Some(format!("{} {}", method.name(), shown_path(address.route)))
}

/// Counts per section, for summaries: `(name, covered, total)`.
pub fn totals(coverage: &Coverage) -> Vec<(&'static str, usize, usize)> {
    coverage.sections.iter().map(|s| (s.kind.name(), s.covered(), s.items.len())).collect()
}

/// The items of each section grouped by `group`, in order (for the terminal matrix).
pub fn groups(section: &Section) -> Vec<(&str, Vec<&Item>)> {
    let mut order: Vec<&str> = Vec::new();
    let mut by_group: BTreeMap<&str, Vec<&Item>> = BTreeMap::new();
    for item in &section.items {
        if !by_group.contains_key(item.group.as_str()) {
            order.push(&item.group);
        }
        by_group.entry(&item.group).or_default().push(item);
    }
    order.into_iter().map(|g| (g, by_group.remove(g).unwrap_or_default())).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::loader::load_source;
    use crate::model::Loaded;
    use reference_server::interface::Target as RouteTarget;

    fn route(path: &str) -> Option<(Resource, RouteTarget)> {
        route_of_path(&Template::parse(path).unwrap(), &Options::default()).map(|r| (r.resource, r.target))
    }

    #[test]
    fn templated_paths_find_their_route() {
        assert_eq!(route("/events/{{event_id}}"), Some((Resource::Events, RouteTarget::ById)));
        assert_eq!(route("/events/{{id}}/"), Some((Resource::Events, RouteTarget::ById)));
        assert_eq!(route("/events/by-slug/{{slug}}"), Some((Resource::Events, RouteTarget::BySlug)));
        assert_eq!(route("/venues/by-slug/hall-{{case_id}}"), Some((Resource::Venues, RouteTarget::BySlug)));
        assert_eq!(route("/Tags/{{t.id | int}}"), Some((Resource::Tags, RouteTarget::ById)));
        assert_eq!(route("/events?search={{case_id}}"), Some((Resource::Events, RouteTarget::Collection)));
        assert_eq!(route("//events//12"), Some((Resource::Events, RouteTarget::ById)));
        assert_eq!(route(""), Some((Resource::Index, RouteTarget::Fixed)));
        assert_eq!(route("/"), Some((Resource::Index, RouteTarget::Fixed)));
        assert_eq!(route("/doc"), Some((Resource::Doc, RouteTarget::Fixed)));
        // Not digits: no route, whatever the template stands for.
        assert_eq!(route("/events/abc"), None);
        assert_eq!(route("/events/{{id}}/extra"), None);
        assert_eq!(route("/categories/by-slug/{{slug}}"), None);
        assert_eq!(route("/nope/{{id}}"), None);
    }

    fn url(text: &str) -> Option<(Resource, RouteTarget)> {
        let request = Request {
            at: crate::yaml::Pos::NONE,
            method: "GET".into(),
            target: Target::Url(Template::parse(text).unwrap()),
            lang: None,
            query: Vec::new(),
            body: Body::None,
            headers: Vec::new(),
            auth: None,
        };
        address(&request, &Options::default()).map(|a| (a.route.resource, a.route.target))
    }

    #[test]
    fn urls_count_only_inside_the_namespace() {
        assert_eq!(url("/wp-json/calendar/events/v1/events/{{id}}"), Some((Resource::Events, RouteTarget::ById)));
        assert_eq!(url("/fr/wp-json/calendar/events/v1/venues"), Some((Resource::Venues, RouteTarget::Collection)));
        assert_eq!(url("/?rest_route=/calendar/events/v1/tags/{{id}}"), Some((Resource::Tags, RouteTarget::ById)));
        assert_eq!(url("/wp-json/calendar/events/v1"), Some((Resource::Index, RouteTarget::Fixed)));
        assert_eq!(url("/robots.txt"), None);
        assert_eq!(url("/wp-json/calendar/events/v10/events"), None);
        assert_eq!(url("/wp-json/wp/v2/posts"), None);
    }

    fn coverage_of(source: &str) -> Coverage {
        let Loaded::File(file) = load_source("f", "f.yaml", source) else { panic!("the fixture loads") };
        compute(&[file], &Options::default())
    }

    fn count(coverage: &Coverage, label: &str) -> usize {
        coverage.item(label).unwrap_or_else(|| panic!("no item {label:?}")).cases.len()
    }

    const CASES: &str = r#"
level: must
cases:
  - name: a
    steps:
      - request: {method: POST, path: /events, auth: editor,
                  json: {title: x, start_date: "{{date(+1d)}}", multilingual_language: fr, nope: 1}}
        expect: {status: 201}
        capture: {id: $.id}
      - request: {method: patch, path: "/events/{{id}}", form: {"categories[]": [1], featured: true}}
      - request: {path: /events, query: {"categories[]": [1], per_page: 2, unknown: 1}}
      - request: {path: "/events/{{id}}", query: {page: 1}}
    cleanup:
      - request: {method: DELETE, path: "/events/{{id}}"}
        expect: {json: {code: rest_no_route}}
  - name: b
    steps:
      - request: {path: /events, query: {per_page: 1, multilingual_language: de}}
      - request: {method: POST, path: /events/1, headers: {X-HTTP-Method-Override: DELETE}}
      - request: {method: POST, path: /events/1, query: {_method: PUT}}
      - request: {method: DELETE, path: /events}
        expect: {status: 404, json: {code: rest_no_route, message: {$type: string}}}
      - request: {path: /nothing-here}
        expect: {paths: {"$.code": rest_no_route}}
      - request: {method: POST, path: /events, json: {ticketed: true}}
        expect:
          json: {code: rest_invalid_param, data: {details: {ticketed: {code: event-tickets-not-active}}}}
      - request: {path: /events/9999}
        expect: {paths: {"$['code']": rest-event-not-found, "$.data.status": 404}}
      - request: {path: /events/9999}
        expect: {json: {code: "{{expected}}"}}
      - request: {url: "/wp-json/calendar/events/v1/doc?multilingual_language=es"}
      - request: {path: /venues/by-slug/x, lang: fr}
    vars: {expected: rest_forbidden}
"#;

    #[test]
    fn routes_and_methods_are_counted_per_case() {
        let c = coverage_of(CASES);
        assert_eq!(c.cases, 2);
        assert_eq!(count(&c, "POST /events"), 2);
        assert_eq!(count(&c, "GET /events"), 2);
        assert_eq!(count(&c, "PATCH /events/<id>"), 1);
        assert_eq!(count(&c, "GET /events/<id>"), 2);
        assert_eq!(count(&c, "DELETE /events/<id>"), 1, "the override header counts, the cleanup does not");
        assert_eq!(count(&c, "PUT /events/<id>"), 1, "`_method` counts");
        assert_eq!(count(&c, "POST /events/<id>"), 0, "an overridden POST is not a POST");
        assert_eq!(count(&c, "GET /doc"), 1, "a url inside the namespace counts");
        assert_eq!(count(&c, "GET /venues/by-slug/<slug>"), 1);
        assert_eq!(count(&c, "GET /"), 0);
        assert!(c.item("DELETE /events").is_none(), "not a method of the route");
        assert_eq!(c.unresolved.len(), 1);
        assert_eq!(c.unresolved[0].address, "/nothing-here");
    }

    #[test]
    fn list_parameters_and_the_language_parameter_are_counted() {
        let c = coverage_of(CASES);
        assert_eq!(count(&c, "GET /events: per_page"), 2);
        assert_eq!(count(&c, "GET /events: categories"), 1, "`categories[]` is `categories`");
        assert_eq!(count(&c, "GET /events: page"), 0, "query keys of a single read are no list parameters");
        assert_eq!(count(&c, "GET /events: multilingual_language"), 2, "in a body or on the list");
        assert_eq!(count(&c, "GET /doc: multilingual_language"), 1, "in a url's query");
        assert_eq!(count(&c, "GET /venues: multilingual_language"), 0, "`lang` is not the parameter");
        assert!(c.item("GET /events: unknown").is_none());
        assert!(c.item("GET /: multilingual_language").is_some());
        assert!(c.item("GET /categories: parent").is_some() && c.item("GET /tags: parent").is_none());
    }

    #[test]
    fn write_fields_are_counted_for_create_and_update_apart() {
        let c = coverage_of(CASES);
        assert_eq!(count(&c, "events create: title"), 1);
        assert_eq!(count(&c, "events create: start_date"), 1);
        assert_eq!(count(&c, "events create: ticketed"), 1);
        assert_eq!(count(&c, "events update: title"), 0);
        assert_eq!(count(&c, "events update: categories"), 1, "form keys, `[]` stripped");
        assert_eq!(count(&c, "events update: featured"), 1);
        assert!(c.item("events create: nope").is_none());
        assert!(c.item("venues create: geo_lat").is_some_and(|i| i.note.as_deref() == Some("feature geoloc")));
        assert!(c.item("categories update: parent").is_some());
    }

    #[test]
    fn error_codes_are_counted_when_named_literally() {
        let c = coverage_of(CASES);
        assert_eq!(count(&c, "rest_no_route"), 1, "steps only, one case");
        assert_eq!(count(&c, "rest_invalid_param"), 1);
        assert_eq!(count(&c, "event-tickets-not-active"), 1);
        assert_eq!(count(&c, "rest-event-not-found"), 1);
        assert_eq!(count(&c, "rest_forbidden"), 0, "a template is not a literal");
    }

    #[test]
    fn every_interface_item_is_an_item_and_none_twice() {
        let c = Coverage::empty(&Options::default());
        let routes: usize = ROUTES.iter().map(|r| r.methods.len()).sum();
        assert_eq!(c.section(SectionKind::Routes).items.len(), routes);
        assert_eq!(c.section(SectionKind::Errors).items.len(), ERRORS.len());
        let mut labels = BTreeSet::new();
        for item in c.sections.iter().flat_map(|s| &s.items) {
            assert!(labels.insert(item.label.clone()), "{} twice", item.label);
        }
        // One language item per family.
        let families: BTreeSet<_> = ROUTES.iter().map(|r| format!("{:?}", r.resource)).collect();
        let language = c.section(SectionKind::Parameters).items.iter().filter(|i| i.name == LANGUAGE_KEY).count();
        assert_eq!(language, families.len());
        assert_eq!(exit_status(&c), 1);
    }

    #[test]
    fn a_custom_language_parameter_name_is_the_item() {
        let Loaded::File(file) = load_source(
            "f",
            "f.yaml",
            "level: must\ncases:\n  - name: a\n    steps:\n      - request: {path: /tags, query: {lang: fr}}\n",
        ) else {
            panic!()
        };
        let options = Options { language_param: "lang".into(), ..Options::default() };
        let c = compute(&[file], &options);
        assert_eq!(count(&c, "GET /tags: lang"), 1);
        assert!(c.item("GET /tags: multilingual_language").is_none());
    }

    #[test]
    fn the_built_in_names_count_as_what_they_name() {
        let source = r#"
level: must
cases:
  - name: a
    steps:
      - request: {path: /tags, query: {"{{language_param}}": fr}}
      - request: {method: POST, path: /venues, json: {"{{language_param}}": fr, venue: x}}
      - request: {method: POST, path: /organizers, form: {"{{language_param}}": fr}}
      - request: {url: "/wp-json/{{namespace}}/doc"}
      - request: {url: "/?rest_route=/{{namespace}}/events/{{id}}"}
    vars: {id: 1}
"#;
        for options in
            [Options::default(), Options { namespace: "tribe/events/v1".into(), language_param: "lang".into() }]
        {
            let Loaded::File(file) = load_source("f", "f.yaml", source) else { panic!() };
            let c = compute(&[file], &options);
            let lang = &options.language_param;
            assert_eq!(count(&c, &format!("GET /tags: {lang}")), 1, "{options:?}");
            assert_eq!(count(&c, &format!("GET /venues: {lang}")), 1, "{options:?}");
            assert_eq!(count(&c, "venues create: venue"), 1, "{options:?}");
            assert!(c.item(&format!("venues create: {lang}")).is_none());
            assert_eq!(count(&c, &format!("GET /organizers: {lang}")), 1, "{options:?}");
            assert_eq!(count(&c, "GET /doc"), 1, "{options:?}");
            assert_eq!(count(&c, "GET /events/<id>"), 1, "{options:?}");
            assert!(c.unresolved.is_empty(), "{:?}", c.unresolved);
        }
    }

    #[test]
    fn complete_coverage_exits_zero() {
        let mut c = Coverage::empty(&Options::default());
        for item in c.sections.iter_mut().flat_map(|s| &mut s.items) {
            item.cases.insert("x::y".into());
        }
        assert_eq!((c.uncovered(), exit_status(&c)), (0, 0));
        c.sections[3].items[0].cases.clear();
        assert_eq!((c.uncovered(), exit_status(&c)), (1, 1));
    }

    fn fixture() -> std::path::PathBuf {
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/coverage")
    }

    fn coverage_command(args: &[&str]) -> i32 {
        let mut all: Vec<std::ffi::OsString> = vec!["conformance".into(), "coverage".into()];
        all.extend(args.iter().map(|a| a.into()));
        crate::app::run(all, "no-such-default-folder".into())
    }

    /// How many cases of tests/fixtures/coverage touch each of these items.
    const FIXTURE_COUNTS: &[(&str, u64)] = &[
        ("POST /events", 2),
        ("PUT /events/by-slug/<slug>", 1),
        ("DELETE /events/<id>", 0),
        ("GET /events", 1),
        ("GET /events/<id>", 1),
        ("POST /tags", 1),
        ("GET /tags", 1),
        ("GET /events: search", 1),
        ("GET /events: categories", 1),
        ("GET /events: page", 1),
        ("GET /events: multilingual_language", 1),
        ("GET /events: venue", 0),
        ("GET /tags: hide_empty", 1),
        ("events create: title", 2),
        ("events create: end_date", 1),
        ("events update: title", 1),
        ("events update: tags", 1),
        ("events update: start_date", 0),
        ("tags create: name", 1),
        ("rest_no_route", 2),
        ("rest_forbidden", 1),
        ("event-archive-page-not-found", 1),
        ("rest-event-not-found", 1),
        ("rest_taxonomy_not_hierarchical", 1),
        ("event-is-in-trash", 0),
    ];

    /// The number of cases of each item of a JSON coverage report.
    fn item_counts(doc: &serde_json::Value) -> BTreeMap<String, u64> {
        doc["sections"]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|s| s["items"].as_array().unwrap())
            .map(|i| (i["item"].as_str().unwrap().to_string(), i["cases"].as_u64().unwrap()))
            .collect()
    }

    #[test]
    fn the_fixture_folder_is_counted_and_an_uncovered_item_fails_the_command() {
        let dir = fixture();
        let json = std::env::temp_dir().join(format!("conformance-coverage-{}.json", std::process::id()));
        let status =
            coverage_command(&["--cases", dir.to_str().unwrap(), "--json", json.to_str().unwrap(), "--color", "never"]);
        assert_eq!(status, 1, "items without a case make the exit status 1");
        let doc: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
        let _ = std::fs::remove_file(&json);
        assert_eq!((doc["cases"].as_u64(), doc["files"].as_u64()), (Some(5), Some(3)));
        let counts = item_counts(&doc);
        for &(label, count) in FIXTURE_COUNTS {
            assert_eq!(counts.get(label), Some(&count), "{label}");
        }
        let total = counts.len() as u64;
        let covered = counts.values().filter(|n| **n > 0).count() as u64;
        assert_eq!(doc["uncovered"].as_u64(), Some(total - covered));
        assert_eq!(doc["total"].as_u64(), Some(total));
        let names = &doc["sections"][0]["items"][3]["case_names"];
        assert_eq!(
            names,
            &serde_json::json!([
                "events/write::a write without credentials",
                "events/write::create then update by slug"
            ])
        );
        assert_eq!(doc["unresolved_steps"][0]["address"], "/categories/by-slug/x");
    }

    #[test]
    fn load_errors_and_bad_options_exit_2() {
        let load_errors = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/load-errors");
        assert_eq!(coverage_command(&["--cases", load_errors.to_str().unwrap()]), 2);
        assert_eq!(coverage_command(&["--cases", "/no/such/folder"]), 2);
        assert_eq!(coverage_command(&["--no-such-option"]), 2);
        // A missing default folder is an error too, not an empty coverage.
        assert_eq!(coverage_command(&[]), 2);
    }

    #[test]
    fn simple_json_paths_are_split() {
        assert_eq!(path_segments("$.code"), ["code"]);
        assert_eq!(path_segments("$['data'][\"details\"].x.code"), ["data", "details", "x", "code"]);
        assert_ne!(path_segments("$..code"), ["code"]);
        assert_eq!(path_segments("$[0].code"), ["?"]);
    }
}
