//! The namespace index (`GET {root}/{ns}`), `OPTIONS` route descriptions and `/doc`.
//!
//! Both descriptions come from the route table through `doc::route_args`, the same arguments
//! the validator applies, with descriptions in the request's language.

use serde_json::{json, Map, Value};

use super::validated;
use crate::app::Ctx;
use crate::doc;
use crate::error::{ApiError, ApiResult};
use crate::http::{ApiRequest, Reply};
use crate::interface::{errors, Arg, Item, Method, Route, Target, Ty, LANGUAGES, POST_STATUSES, ROUTES};

/// `GET {root}/{ns}`: every route with its methods and arguments, as the CMS describes them.
pub fn namespace_index(ctx: &Ctx, request: &ApiRequest) -> ApiResult<Reply> {
    // The language parameter is checked here as everywhere (Part A 4).
    validated(ctx, &ctx.app.store.read(), request)?;
    let namespace = &ctx.app.config.namespace;
    if let Some(asked) = request.params().get("namespace").and_then(Value::as_str) {
        if !asked.is_empty() && asked.trim_matches('/') != namespace.as_str() {
            return Err(ApiError::of(&errors::INVALID_NAMESPACE));
        }
    }
    let mut routes = Map::new();
    for route in ROUTES {
        routes.insert(format!("/{namespace}{}", route.pattern()), describe_route(ctx, route));
    }
    Ok(Reply::ok(json!({"namespace": namespace, "routes": routes, "_links": {"up": [{"href": rest_root_url(ctx)}]}})))
}

/// `GET {root}/`: the CMS's REST root index, where client libraries discover the API (every
/// answer's `Link` header points here). Only this namespace is served, so only it is listed.
pub fn rest_root(ctx: &Ctx) -> Value {
    let namespace = &ctx.app.config.namespace;
    let root = rest_root_url(ctx);
    let mut routes = Map::new();
    routes.insert(
        "/".to_string(),
        json!({
            "namespace": "",
            "methods": ["GET"],
            "endpoints": [{"methods": ["GET"], "args": {"context": {"default": "view", "required": false}}}],
            "_links": {"self": [{"href": root}]},
        }),
    );
    for route in ROUTES {
        routes.insert(format!("/{namespace}{}", route.pattern()), describe_route(ctx, route));
    }
    let now = ctx.now;
    let offset = (ctx.app.site_zone.utc_to_local(now) - now).num_seconds() as f64 / 3600.0;
    json!({
        "name": "Events calendar reference server",
        "description": "An in-memory server of the events-calendar REST interface",
        "url": ctx.app.site_url,
        "home": ctx.app.site_url,
        "gmt_offset": offset,
        "timezone_string": ctx.app.site_zone.name(),
        "namespaces": [namespace],
        "authentication": [],
        "routes": routes,
        "_links": {"help": [{"href": "https://developer.wordpress.org/rest-api/"}]},
    })
}

/// The REST root the request came to (`{site}[/{lang}]{root}/`).
fn rest_root_url(ctx: &Ctx) -> String {
    let namespace = &ctx.app.config.namespace;
    match ctx.api_base.strip_suffix(namespace.as_str()) {
        Some(root) => root.to_string(),
        None => format!("{}{}/", ctx.app.site_url, ctx.app.config.root),
    }
}

/// One route as the index (and `OPTIONS`) shows it: methods that share an operation share an
/// endpoint (POST, PUT and PATCH for updates).
pub fn describe_route(ctx: &Ctx, route: &Route) -> Value {
    let methods: Vec<&str> = route.methods.iter().map(|(method, _)| method.name()).collect();
    let mut groups: Vec<(Vec<&str>, Method)> = Vec::new();
    for (method, op) in route.methods {
        match groups.iter_mut().find(|(_, first)| route.op(*first) == Some(*op)) {
            Some((names, _)) => names.push(method.name()),
            None => groups.push((vec![method.name()], *method)),
        }
    }
    let mut endpoints = Vec::new();
    for (names, method) in groups {
        let mut described = Map::new();
        for spec in doc::route_args(ctx, route, method) {
            // By slug, an event update has the path's `slug` and a body `slug` (the new slug):
            // the index, like the CMS's, keys arguments by name and shows the first.
            described.entry(spec.name.to_string()).or_insert_with(|| describe_arg(ctx, &spec));
        }
        described.insert(
            ctx.app.config.language_param.clone(),
            json!({"description": doc::language_param_description(ctx.lang), "type": "string", "enum": LANGUAGES, "required": false}),
        );
        endpoints.push(json!({"methods": names, "args": described}));
    }
    let mut value = json!({"namespace": ctx.app.config.namespace, "methods": methods, "endpoints": endpoints});
    if matches!(route.target, Target::Fixed | Target::Collection) {
        value["_links"] = json!({"self": [{"href": format!("{}{}", ctx.api_base, route.path)}]});
    }
    value
}

/// One argument: the JSON-schema keywords the CMS keeps, then `required` (the CMS adds it last).
fn describe_arg(ctx: &Ctx, spec: &Arg) -> Value {
    let mut map = Map::new();
    if let Some(default) = doc::default_value(ctx, spec) {
        map.insert("default".into(), default);
    }
    map.insert("description".into(), json!(doc::describe(ctx.lang, spec)));
    if let Some(name) = spec.ty.name() {
        map.insert("type".into(), json!(name));
    }
    if let Ty::Array(item) = spec.ty {
        let item = if item == Item::Integer { "integer" } else { "string" };
        map.insert("items".into(), json!({"type": item}));
    }
    if spec.rule == crate::interface::Rule::PostStatus {
        map.insert("enum".into(), json!(POST_STATUSES));
    }
    map.insert("required".into(), json!(spec.required));
    Value::Object(map)
}

/// `GET /doc`: the OpenAPI document.
pub fn doc(ctx: &Ctx, request: &ApiRequest) -> ApiResult<Reply> {
    validated(ctx, &ctx.app.store.read(), request)?;
    let host = request.header("host").unwrap_or("");
    Ok(Reply::ok(doc::openapi(ctx, host)))
}
