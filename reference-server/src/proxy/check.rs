//! What the checking proxy judges of an exchange, knowing nothing of the real site's state:
//! the request against the interface table (route, method, parameter names, required fields,
//! types and the rules that need no stored data), then the site's answer against what the
//! reference would say whatever the state (the status class, and the section-2 fields of a
//! success).

use serde_json::Value;

use crate::app::Ctx;
use crate::error::{ApiError, InvalidParam};
use crate::interface::{errors, Arg, Method, Route, Rule, LANGUAGES};
use crate::journal::hints::{self, Prefix};
use crate::journal::{Finding, Side};
use crate::validate::{self, Params};

/// Parameters any route takes: the CMS's global ones (`_fields`, `_envelope`, `_embed`,
/// `_method`, `_jsonp`, `rest_route`, `_wpnonce`) and `context`.
const GLOBAL_PARAMS: &[&str] =
    &["_fields", "_envelope", "_embed", "_method", "_jsonp", "rest_route", "_wpnonce", "context"];

/// How many answer-field violations one exchange reports (the rest are counted).
const MAX_FIELD_FINDINGS: usize = 5;

/// What the proxy made of a request.
#[derive(Default)]
pub struct Verdict {
    pub findings: Vec<Finding>,
    /// The interface's route and method, when the request has one.
    pub route: Option<(&'static Route, Method)>,
    /// The error code the reference answers whatever the state, when it refuses.
    pub refused: Option<&'static str>,
    /// Parameters whose rule needs the site's state (IDs that must exist…): a refusal that
    /// names one of them cannot be judged.
    pub stateful: Vec<String>,
}

/// What a request is, as the proxy read it.
pub struct Request<'a> {
    /// The method it is treated as (`_method`, `X-HTTP-Method-Override`).
    pub method: &'a str,
    pub path: &'a str,
    pub query: &'a Params,
    /// The body's parameters, or why it could not be read.
    pub body: Result<Params, ApiError>,
}

/// Judges a request against the interface table.
pub fn request(ctx: &Ctx, prefix: &Prefix, request: Request) -> Verdict {
    let mut verdict = Verdict::default();
    let located = crate::http::locate(request.path, request.query, prefix.site_path, prefix.root, prefix.namespace);
    if located.rest_root || request.method == "OPTIONS" {
        return verdict;
    }
    let found = located.path.as_deref().and_then(crate::http::route_for);
    let method = Method::parse(request.method);
    let (route, var, method) = match (found, method) {
        (Some((route, var)), Some(method)) if route.op(method).is_some() => (route, var, method),
        _ => {
            let (reason, hint) = hints::no_route(request.method, request.path, request.query, prefix);
            verdict.findings.push(Finding { side: Side::Request, reason, hint });
            verdict.refused = Some(errors::NO_ROUTE.code);
            return verdict;
        }
    };
    verdict.route = Some((route, method));
    let body = match request.body {
        Ok(body) if method != Method::Get => body,
        Ok(_) => Params::new(),
        Err(error) => {
            let reason = format!("the body cannot be read: {}", crate::reasons::in_words(&error));
            verdict.findings.push(Finding { side: Side::Request, reason, hint: None });
            verdict.refused = Some(error.code);
            return verdict;
        }
    };
    let mut params = request.query.clone();
    params.extend(body);
    let specs = route.args(method);
    if let Some(var) = var {
        let name = specs.iter().find(|spec| spec.required && matches!(spec.name, "id" | "slug")).map(|spec| spec.name);
        params.insert(name.unwrap_or("id").to_string(), Value::String(var));
    }
    check_params(ctx, route, method, &specs, &params, &mut verdict);
    verdict
}

/// Names, required fields, then each value's rule and type.
fn check_params(ctx: &Ctx, route: &Route, method: Method, specs: &[Arg], params: &Params, verdict: &mut Verdict) {
    let language_param = ctx.app.config.language_param.as_str();
    for name in params.keys() {
        let known = specs.iter().any(|spec| spec.name == name)
            || name == language_param
            || GLOBAL_PARAMS.contains(&name.as_str());
        if !known {
            verdict.findings.push(unknown_param(route, method, specs, name));
        }
    }
    let missing: Vec<&str> = specs
        .iter()
        .filter(|spec| spec.required && params.get(spec.name).is_none_or(Value::is_null))
        .map(|spec| spec.name)
        .collect();
    if !missing.is_empty() {
        let reason = format!("missing required parameter(s): {}", missing.join(", "));
        verdict.findings.push(Finding { side: Side::Request, reason, hint: None });
        verdict.refused = Some(errors::MISSING_PARAM.code);
    }
    let mut invalid = Vec::new();
    for spec in specs {
        let Some(value) = params.get(spec.name).filter(|value| !value.is_null()) else { continue };
        if needs_state(spec.rule) {
            verdict.stateful.push(spec.name.to_string());
        }
        if let Some(problem) = value_problem(ctx, route, spec, value) {
            invalid.push(problem);
        }
    }
    if let Some(value) = params.get(language_param).filter(|value| !value.is_null()) {
        if !value.as_str().is_some_and(|code| LANGUAGES.contains(&code)) {
            invalid.push(format!("{language_param}: not a language of the interface ({})", LANGUAGES.join(", ")));
        }
    }
    for reason in &invalid {
        verdict.findings.push(Finding { side: Side::Request, reason: reason.clone(), hint: None });
    }
    if !invalid.is_empty() && verdict.refused.is_none() {
        verdict.refused = Some(errors::INVALID_PARAM.code);
    }
}

/// What is wrong with one value (its rule, when the rule needs no state, then its type).
fn value_problem(ctx: &Ctx, route: &Route, spec: &Arg, value: &Value) -> Option<String> {
    let in_words = |problem: InvalidParam| {
        format!("{}: {}", problem.name, problem.reason.unwrap_or_else(|| problem.message.clone()))
    };
    if !needs_state(spec.rule) {
        let data = ctx.app.store.read();
        if let Err(problem) = validate::check_rule(ctx, &data, route.resource, spec, value) {
            return Some(in_words(problem));
        }
    }
    validate::coerce(spec, value).err().map(in_words)
}

/// An unknown parameter, with the known one it comes close to.
fn unknown_param(route: &Route, method: Method, specs: &[Arg], name: &str) -> Finding {
    let path = if route.path.is_empty() { "/" } else { route.path };
    let reason =
        format!("unknown parameter {name:?}: {} {path} takes no such parameter (a site ignores it)", method.name());
    let near = specs
        .iter()
        .filter_map(|spec| hints::distance(spec.name, name).map(|distance| (distance, spec.name)))
        .min()
        .map(|(_, known)| format!("did you mean {known}?"));
    Finding { side: Side::Request, reason, hint: near }
}

/// Judges the site's answer to a request the proxy judged: the status class, an unjustified
/// refusal, and the fields of a success.
pub fn answer(verdict: &Verdict, status: u16, body: Option<&Value>, fields: Option<FieldCheck>) -> Vec<Finding> {
    let mut findings = Vec::new();
    let mut finding = |reason: String| findings.push(Finding { side: Side::Answer, reason, hint: None });
    let code = body.and_then(|body| body.get("code")).and_then(Value::as_str);
    match verdict.refused {
        Some(refused) if (200..300).contains(&status) => {
            finding(format!("the site answered {status} to a request the interface refuses ({refused}, a 4xx)"))
        }
        Some(_) => {}
        None => {
            if let (Some((route, method)), Some(code)) = (verdict.route, code) {
                if let Some(reason) = unjustified_refusal(verdict, route, method, status, code, body) {
                    finding(reason);
                }
            }
        }
    }
    if let (None, Some(check), Some(body), true) = (verdict.refused, fields, body, (200..300).contains(&status)) {
        findings.extend(field_findings(check, status, body));
    }
    findings
}

/// A refusal the reference would not give whatever the state: no route where the interface
/// has one, or a validation error for parameters whose checks need no state.
fn unjustified_refusal(
    verdict: &Verdict,
    route: &Route,
    method: Method,
    status: u16,
    code: &str,
    body: Option<&Value>,
) -> Option<String> {
    let path = if route.path.is_empty() { "/" } else { route.path };
    if code == errors::NO_ROUTE.code {
        return Some(format!(
            "the site answered {status} {code} to {} {path}, a route of the interface",
            method.name()
        ));
    }
    if code == errors::MISSING_PARAM.code {
        return Some(format!("the site answered {status} {code}, but the request has every required parameter"));
    }
    if code != errors::INVALID_PARAM.code {
        return None;
    }
    let named = body.and_then(|body| body.pointer("/data/params")).and_then(Value::as_object)?;
    let judged = !named.is_empty() && named.keys().all(|name| !verdict.stateful.contains(name));
    let names: Vec<&str> = named.keys().map(String::as_str).collect();
    judged.then(|| format!("the site answered {status} {code} for {}, which the interface accepts", names.join(", ")))
}

/// The schema a success is checked against: the interface document and the route's template.
#[derive(Clone, Copy)]
pub struct FieldCheck<'a> {
    pub doc: &'a Value,
    /// The route's path as the document writes it (`/events/{id}`).
    pub template: &'a str,
    pub method: Method,
}

/// The section-2 fields of a success: types, required fields, list envelopes. The missing
/// fields of one object are one finding; at most `MAX_FIELD_FINDINGS` others follow.
fn field_findings(check: FieldCheck, status: u16, body: &Value) -> Vec<Finding> {
    let Ok(schema) = crate::doc::check::response_schema(check.doc, check.template, check.method.name(), status) else {
        return Vec::new();
    };
    let mut missing: indexmap::IndexMap<String, Vec<String>> = indexmap::IndexMap::new();
    let mut others = Vec::new();
    for violation in crate::doc::check::violations(check.doc, schema, body) {
        match violation.split_once(": missing required ") {
            Some((at, name)) => missing.entry(at.to_string()).or_default().push(name.trim_matches('"').to_string()),
            None => others.push(violation),
        }
    }
    let finding = |reason: String| Finding { side: Side::Answer, reason, hint: None };
    let mut findings: Vec<Finding> = missing
        .iter()
        .take(MAX_FIELD_FINDINGS)
        .map(|(at, names)| finding(format!("answer {at} lacks required field(s): {}", names.join(", "))))
        .collect();
    findings
        .extend(others.iter().take(MAX_FIELD_FINDINGS).map(|violation| finding(format!("answer field {violation}"))));
    let left = missing.len().saturating_sub(MAX_FIELD_FINDINGS) + others.len().saturating_sub(MAX_FIELD_FINDINGS);
    if left > 0 {
        findings.push(finding(format!("and {left} more answer problems")));
    }
    findings
}

/// Whether a rule's verdict depends on the store, the user or the server's extensions (an ID
/// that must exist, a status list the user may ask for): the checking proxy, which does not
/// know the real site's, leaves those to the site.
fn needs_state(rule: Rule) -> bool {
    !matches!(
        rule,
        Rule::None
            | Rule::PositiveInt
            | Rule::PositiveIntList
            | Rule::Time
            | Rule::NonEmpty
            | Rule::StringOrEmpty
            | Rule::PostStatus
            | Rule::TimezoneOrEmpty
            | Rule::UrlOrEmpty
    )
}
