//! The interface description served at `/doc`: an OpenAPI 3.0 document generated from the
//! route table (`interface`), so it cannot drift from what the handlers do.

use serde_json::{json, Map, Value};

use crate::app::Ctx;
use crate::dates::format_wp;
use crate::interface::{Arg, Default, Item, Method, Op, Resource, Route, Target, Ty, LANGUAGES, ROUTES};
use crate::model::Lang;

/// The description of an argument in a language.
pub fn describe(_lang: Lang, spec: &Arg) -> String {
    spec.description.to_string()
}

/// The description of the language parameter.
pub fn language_param_description(_lang: Lang) -> &'static str {
    "The language of the request: en, fr, de or es."
}

/// The value a computed default has now (the events list's date window).
pub fn computed_default(ctx: &Ctx, name: &str) -> String {
    let today = ctx.local_now().date();
    match name {
        "end_date" => {
            use chrono::Datelike;
            let later = today.with_year(today.year() + 2).unwrap_or(today);
            format_wp(later.and_hms_opt(23, 59, 59).unwrap_or_default())
        }
        _ => format_wp(today.and_hms_opt(0, 0, 0).unwrap_or_default()),
    }
}

fn schema_of(spec: &Arg) -> Value {
    let mut schema = Map::new();
    match spec.ty {
        Ty::Array(item) => {
            schema.insert("type".into(), json!("array"));
            let item = if item == Item::Integer { "integer" } else { "string" };
            schema.insert("items".into(), json!({"type": item}));
        }
        Ty::Untyped => {
            schema.insert("type".into(), json!("string"));
        }
        other => {
            schema.insert("type".into(), json!(other.name().unwrap_or("string")));
        }
    }
    if let Some(default) = spec.default {
        match default {
            Default::Int(n) => {
                schema.insert("default".into(), json!(n));
            }
            Default::Bool(flag) => {
                schema.insert("default".into(), json!(flag));
            }
            Default::Text(text) => {
                schema.insert("default".into(), json!(text));
            }
            Default::Null | Default::Computed(_) => {}
        }
    }
    if !spec.choices.is_empty() {
        schema.insert("enum".into(), json!(spec.choices));
    }
    Value::Object(schema)
}

fn operation(ctx: &Ctx, route: &Route, method: Method, op: Op) -> Value {
    let args = route.args(method);
    let mut parameters = Vec::new();
    let mut body_props = Map::new();
    let mut body_required = Vec::new();
    let in_body = matches!(op, Op::Create | Op::Update);
    for spec in &args {
        let path_var = matches!((route.target, spec.name), (Target::ById, "id") | (Target::BySlug, "slug"));
        if path_var {
            parameters.push(json!({"name": spec.name, "in": "path", "required": true, "description": describe(ctx.lang, spec), "schema": schema_of(spec)}));
        } else if in_body {
            body_props.insert(spec.name.to_string(), {
                let mut schema = schema_of(spec);
                schema["description"] = json!(describe(ctx.lang, spec));
                schema
            });
            if spec.required {
                body_required.push(spec.name);
            }
        } else {
            parameters.push(json!({"name": spec.name, "in": "query", "required": spec.required, "description": describe(ctx.lang, spec), "schema": schema_of(spec)}));
        }
    }
    parameters.push(json!({"name": ctx.app.config.language_param, "in": "query", "required": false, "description": language_param_description(ctx.lang), "schema": {"type": "string", "enum": LANGUAGES}}));
    let mut operation = Map::new();
    operation.insert("parameters".into(), json!(parameters));
    if in_body {
        let mut schema = json!({"type": "object", "properties": body_props});
        if !body_required.is_empty() {
            schema["required"] = json!(body_required);
        }
        operation.insert(
            "requestBody".into(),
            json!({"content": {"application/json": {"schema": schema}, "application/x-www-form-urlencoded": {"schema": schema}}}),
        );
    }
    let success = match op {
        Op::Create => "201",
        _ => "200",
    };
    let mut responses = Map::new();
    responses.insert(
        success.into(),
        json!({"description": "Success", "content": {"application/json": {"schema": {"type": "object"}}}}),
    );
    for code in ["400", "401", "403", "404"] {
        responses.insert(code.into(), json!({"description": "Error", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}));
    }
    if op == Op::Delete && route.resource != Resource::Categories && route.resource != Resource::Tags {
        responses.insert("410".into(), json!({"description": "Already trashed", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}));
    }
    operation.insert("responses".into(), Value::Object(responses));
    Value::Object(operation)
}

/// The whole OpenAPI document; `host` is the Host the request came to.
pub fn openapi(ctx: &Ctx, host: &str) -> Value {
    let scheme = if ctx.app.site_url.starts_with("https") { "https" } else { "http" };
    let base_path =
        ctx.api_base.split_once("://").map_or("", |(_, rest)| rest.split_once('/').map_or("", |(_, path)| path));
    let server = if host.is_empty() { format!("{}/", ctx.api_base) } else { format!("{scheme}://{host}/{base_path}/") };
    let mut paths = Map::new();
    for route in ROUTES.iter().filter(|route| route.resource != Resource::Index) {
        let mut item = Map::new();
        for (method, op) in route.methods {
            item.insert(method.name().to_ascii_lowercase(), operation(ctx, route, *method, *op));
        }
        paths.insert(route.openapi_path(), Value::Object(item));
    }
    json!({
        "openapi": "3.0.0",
        "info": {
            "version": "1.0.0",
            "title": "Events calendar REST API",
            "description": "Read and write events, venues, organizers, event categories and event tags."
        },
        "components": {"schemas": {
            "Error": {"type": "object", "properties": {"code": {"type": "string"}, "message": {"type": "string"}, "data": {"type": "object"}}, "required": ["code", "message", "data"]}
        }},
        "servers": [{"url": server}],
        "paths": paths,
    })
}
