//! The namespace index (`GET {root}/{ns}`), `OPTIONS` route descriptions and `/doc`.

use serde_json::{json, Map, Value};

use super::feature_on;
use crate::app::Ctx;
use crate::doc;
use crate::error::{ApiError, ApiResult};
use crate::http::{ApiRequest, Reply};
use crate::interface::{Arg, Default, Item, Method, Route, Target, Ty, LANGUAGES, ROUTES};

/// `GET {root}/{ns}`: every route with its methods and arguments, as the CMS describes them.
pub fn namespace_index(ctx: &Ctx, request: &ApiRequest) -> ApiResult<Reply> {
    let namespace = &ctx.app.config.namespace;
    if let Some(asked) = request.params().get("namespace").and_then(Value::as_str) {
        if !asked.is_empty() && asked.trim_matches('/') != namespace.as_str() {
            return Err(ApiError::new(404, "rest_invalid_namespace", "The specified namespace could not be found."));
        }
    }
    let mut routes = Map::new();
    for route in ROUTES {
        routes.insert(format!("/{namespace}{}", route.pattern()), describe_route(ctx, route));
    }
    let up = format!("{}{}/", ctx.app.site_url, ctx.app.config.root);
    Ok(Reply::ok(json!({"namespace": namespace, "routes": routes, "_links": {"up": [{"href": up}]}})))
}

/// One route as the index (and `OPTIONS`) shows it.
pub fn describe_route(ctx: &Ctx, route: &Route) -> Value {
    let methods: Vec<&str> = route.methods.iter().map(|(method, _)| method.name()).collect();
    let mut endpoints = Vec::new();
    let mut seen: Vec<Vec<Arg>> = Vec::new();
    // Methods that share an operation share an endpoint (POST, PUT and PATCH for updates).
    let mut groups: Vec<(Vec<&str>, Method)> = Vec::new();
    for (method, op) in route.methods {
        match groups.iter_mut().find(|(_, first)| route.op(*first) == Some(*op)) {
            Some((names, _)) => names.push(method.name()),
            None => groups.push((vec![method.name()], *method)),
        }
    }
    for (names, method) in groups {
        let args = route.args(method);
        let mut described = Map::new();
        for spec in
            args.iter().filter(|spec| spec.feature.is_none_or(|name| feature_on(ctx, name) || method == Method::Get))
        {
            described.insert(spec.name.to_string(), describe_arg(ctx, spec));
        }
        described.insert(
            ctx.app.config.language_param.clone(),
            json!({"required": false, "description": doc::language_param_description(ctx.lang), "type": "string", "enum": LANGUAGES}),
        );
        seen.push(args);
        endpoints.push(json!({"methods": names, "args": described}));
    }
    let mut value = json!({"namespace": ctx.app.config.namespace, "methods": methods, "endpoints": endpoints});
    if route.target == Target::Fixed || route.target == Target::Collection {
        let href = format!("{}{}", ctx.api_base, route.path);
        value["_links"] = json!({"self": [{"href": href}]});
    }
    value
}

fn describe_arg(ctx: &Ctx, spec: &Arg) -> Value {
    let mut map = Map::new();
    map.insert("required".into(), json!(spec.required));
    if let Some(default) = spec.default {
        let value = match default {
            Default::Int(n) => json!(n),
            Default::Bool(flag) => json!(flag),
            Default::Text(text) => json!(text),
            Default::Null => Value::Null,
            Default::Computed(_) => json!(doc::computed_default(ctx, spec.name)),
        };
        map.insert("default".into(), value);
    }
    map.insert("description".into(), json!(doc::describe(ctx.lang, spec)));
    if let Some(name) = spec.ty.name() {
        map.insert("type".into(), json!(name));
    }
    if let Ty::Array(item) = spec.ty {
        let item = if item == Item::Integer { "integer" } else { "string" };
        map.insert("items".into(), json!({"type": item}));
    }
    if !spec.choices.is_empty() {
        map.insert("enum".into(), json!(spec.choices));
    }
    Value::Object(map)
}

/// `GET /doc`: the OpenAPI document.
pub fn doc(ctx: &Ctx, request: &ApiRequest) -> ApiResult<Reply> {
    let host = request.header("host").unwrap_or("");
    Ok(Reply::ok(doc::openapi(ctx, host)))
}
