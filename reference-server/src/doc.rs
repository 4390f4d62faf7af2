//! The interface description served at `/doc`: an OpenAPI 3.0 document generated from the
//! route table (`interface`), so it cannot drift from what the handlers do.
//!
//! - Every route and method of the table becomes a path and an operation; every argument a
//!   parameter (path or query) or a request body field, with the type, default and allowed
//!   values the validator applies. The same table feeds the namespace index (`api::index`).
//! - Responses reference the component schemas of `schemas`, written to match `views` and the
//!   list envelopes exactly (closed objects: an unknown field is a schema violation).
//! - Parameter and field descriptions are worded in the request's language (`i18n`); the rest
//!   of the document is the same in every language.

pub mod check;
mod i18n;
mod schemas;

use serde_json::{json, Map, Value};

use crate::app::Ctx;
use crate::dates::format_wp;
use crate::interface::{
    Arg, Default, Item, Method, Op, Resource, Route, Rule, Target, Ty, ERRORS, LANGUAGES, POST_STATUSES, ROUTES,
};
use crate::model::Lang;

/// The arguments one method of a route takes on this server: the table's, less the fields of
/// switched-off features on writes (the validator drops those too).
pub fn route_args(ctx: &Ctx, route: &Route, method: Method) -> Vec<Arg> {
    route
        .args(method)
        .into_iter()
        .filter(|spec| spec.feature.is_none_or(|name| ctx.app.config.features.on(name) || method == Method::Get))
        .collect()
}

/// The description of an argument in a language; date arguments also list the accepted forms.
pub fn describe(lang: Lang, spec: &Arg) -> String {
    let mut text = i18n::arg_text(lang, spec.description).to_string();
    if spec.rule == Rule::Time {
        text.push(' ');
        text.push_str(i18n::DATE_FORMS.get(lang));
    }
    text
}

/// The description of the language parameter.
pub fn language_param_description(lang: Lang) -> &'static str {
    i18n::LANGUAGE_PARAM.get(lang)
}

/// The value a computed default has now (the events list's date window, the namespace).
pub fn computed_default(ctx: &Ctx, name: &str) -> String {
    let today = ctx.local_now().date();
    match name {
        "namespace" => ctx.app.config.namespace.clone(),
        "end_date" => {
            use chrono::Datelike;
            let later = today.with_year(today.year() + 2).unwrap_or(today);
            format_wp(later.and_hms_opt(23, 59, 59).unwrap_or_default())
        }
        _ => format_wp(today.and_hms_opt(0, 0, 0).unwrap_or_default()),
    }
}

/// An argument's default as JSON, as the index shows it.
pub fn default_value(ctx: &Ctx, spec: &Arg) -> Option<Value> {
    Some(match spec.default? {
        Default::Int(n) => json!(n),
        Default::Bool(flag) => json!(flag),
        Default::Text(text) => json!(text),
        Default::Null => Value::Null,
        Default::Computed(_) => json!(computed_default(ctx, spec.name)),
    })
}

fn item_type(item: Item) -> &'static str {
    match item {
        Item::Integer => "integer",
        Item::String => "string",
    }
}

/// Whether the argument is the route's path variable (`id` by ID, `slug` by slug).
fn is_path_var(route: &Route, spec: &Arg, index: usize) -> bool {
    index == 0 && matches!((route.target, spec.name), (Target::ById, "id") | (Target::BySlug, "slug"))
}

/// The JSON schema of an argument's value: the table's type, narrowed by its rule.
fn value_schema(ctx: &Ctx, spec: &Arg, in_body: bool) -> Value {
    let mut schema = base_schema(spec, in_body);
    add_rule_bounds(spec, &mut schema);
    if let Some(default) = spec.default {
        add_default(ctx, spec, default, &mut schema);
    }
    schema
}

/// The type of an argument's value.
fn base_schema(spec: &Arg, in_body: bool) -> Value {
    match (spec.rule, spec.ty) {
        // Fields the table leaves loose take richer forms in a body (they are body fields only:
        // an event's `venue`, `organizer` and `cost`).
        (Rule::VenueEntry, _) => linked_entry_schema("Venue"),
        (Rule::OrganizerEntry, _) => linked_entry_schema("Organizer"),
        (_, Ty::Untyped) if spec.name == "cost" => json!({"anyOf": [
            {"type": "string"},
            {"type": "number"},
            {"type": "array", "items": {"anyOf": [{"type": "string"}, {"type": "number"}]}}
        ]}),
        (_, Ty::Array(_)) if in_body && !spec.enforced => json!({"anyOf": [
            {"type": "array", "items": {"anyOf": [{"type": "integer"}, {"type": "string"}]}},
            {"type": "string"}
        ]}),
        (_, Ty::Array(item)) => json!({"type": "array", "items": {"type": item_type(item)}}),
        (_, Ty::Untyped) => json!({"type": "string"}),
        (_, ty) => json!({"type": ty.name().unwrap_or("string")}),
    }
}

/// What the argument's rule adds: bounds, allowed values, non-empty strings.
fn add_rule_bounds(spec: &Arg, schema: &mut Value) {
    // The table gives these rules to integers (lists of integers, strings) only: a unit test
    // checks it.
    match spec.rule {
        Rule::PositiveInt | Rule::UserId | Rule::EventId => schema["minimum"] = json!(1),
        Rule::PositiveIntList => schema["items"]["minimum"] = json!(1),
        Rule::PostStatus => schema["enum"] = json!(POST_STATUSES),
        // Neither "" nor "0" passes a non-empty rule (PHP's `empty()`).
        Rule::NonEmpty => {
            schema["minLength"] = json!(1);
            schema["not"] = json!({"enum": ["0"]});
        }
        _ => {}
    }
}

/// The default, written as the type reads it (`null` makes the schema nullable).
fn add_default(ctx: &Ctx, spec: &Arg, default: Default, schema: &mut Value) {
    let is = |name: &str| schema.get("type").and_then(Value::as_str) == Some(name);
    let value = match default {
        Default::Int(n) => json!(n),
        Default::Bool(flag) if is("boolean") => json!(flag),
        Default::Bool(flag) => json!(flag.to_string()),
        Default::Text(text) => json!(text),
        Default::Computed(_) => json!(computed_default(ctx, spec.name)),
        Default::Null => {
            schema["nullable"] = json!(true);
            Value::Null
        }
    };
    schema["default"] = value;
}

/// An event's `venue` / `organizer` field: an ID, a comma-separated list of IDs, `{id}`,
/// the fields of a new item, or a list of those.
fn linked_entry_schema(kind: &str) -> Value {
    let link = json!({"type": "object", "required": ["id"], "properties": {"id": {"type": "integer", "minimum": 1}}});
    let new = json!({"$ref": format!("#/components/schemas/{kind}Create")});
    json!({"anyOf": [
        {"type": "integer", "minimum": 0},
        {"type": "string"},
        {"type": "array", "items": {"anyOf": [{"type": "integer", "minimum": 1}, link, new]}},
        link,
        new
    ]})
}

fn path_param(route: &Route, spec: &Arg, lang: Lang) -> Value {
    let schema = match route.target {
        // The route patterns: `\d+` and `[^/]+`.
        Target::ById => json!({"type": "integer", "minimum": 0}),
        _ => json!({"type": "string", "minLength": 1, "pattern": "^[^/]+$"}),
    };
    json!({"name": spec.name, "in": "path", "required": true, "description": describe(lang, spec), "schema": schema})
}

fn query_param(ctx: &Ctx, spec: &Arg) -> Value {
    let mut param = json!({
        "name": spec.name,
        "in": "query",
        "required": spec.required,
        "description": describe(ctx.lang, spec),
        "schema": value_schema(ctx, spec, false),
    });
    if matches!(spec.ty, Ty::Array(_)) {
        // Lists travel as `a,b,c`; `a[]=1&a[]=2` works too.
        param["style"] = json!("form");
        param["explode"] = json!(false);
    }
    param
}

fn language_query_param(ctx: &Ctx) -> Value {
    json!({
        "name": ctx.app.config.language_param,
        "in": "query",
        "required": false,
        "description": language_param_description(ctx.lang),
        "schema": {"type": "string", "enum": LANGUAGES},
    })
}

/// The request body schema of a create or update: the write fields of the table.
pub(crate) fn body_schema(ctx: &Ctx, args: &[Arg], skip_path_var: Option<&Route>) -> Value {
    let mut properties = Map::new();
    let mut required = Vec::new();
    for (index, spec) in args.iter().enumerate() {
        if skip_path_var.is_some_and(|route| is_path_var(route, spec, index)) {
            continue;
        }
        let mut schema = value_schema(ctx, spec, true);
        schema["description"] = json!(describe(ctx.lang, spec));
        properties.insert(spec.name.to_string(), schema);
        if spec.required {
            required.push(spec.name);
        }
    }
    properties.insert(
        ctx.app.config.language_param.clone(),
        json!({"type": "string", "enum": LANGUAGES, "description": language_param_description(ctx.lang)}),
    );
    let mut schema = json!({"type": "object", "properties": properties});
    if !required.is_empty() {
        schema["required"] = json!(required);
    }
    schema
}

/// Names used in operation IDs, summaries and schema names.
fn nouns(resource: Resource) -> (&'static str, &'static str, &'static str) {
    match resource {
        Resource::Events => ("Event", "events", "an event"),
        Resource::Venues => ("Venue", "venues", "a venue"),
        Resource::Organizers => ("Organizer", "organizers", "an organizer"),
        Resource::Categories => ("Category", "event categories", "an event category"),
        Resource::Tags => ("Tag", "event tags", "an event tag"),
        Resource::Index | Resource::Doc => ("", "", ""),
    }
}

/// The schema name of one item of a resource.
fn item_schema(resource: Resource) -> &'static str {
    match resource {
        Resource::Events => "Event",
        Resource::Venues => "Venue",
        Resource::Organizers => "Organizer",
        _ => "Term",
    }
}

fn operation_id(route: &Route, method: Method, op: Op) -> String {
    let (singular, _, _) = nouns(route.resource);
    let plural = match route.resource {
        Resource::Categories => "Categories".to_string(),
        _ => format!("{singular}s"),
    };
    let by = if route.target == Target::BySlug { "BySlug" } else { "" };
    let via = match method {
        Method::Put => "ViaPut",
        Method::Patch => "ViaPatch",
        _ => "",
    };
    match op {
        Op::Index => "getNamespaceIndex".to_string(),
        Op::Doc => "getDocumentation".to_string(),
        Op::List => format!("list{plural}"),
        Op::Create => format!("create{singular}"),
        Op::Read => format!("get{singular}{by}"),
        Op::Update => format!("update{singular}{by}{via}"),
        Op::Delete => format!("delete{singular}{by}"),
    }
}

fn summary(route: &Route, op: Op) -> String {
    let (_, plural, one) = nouns(route.resource);
    let by = match route.target {
        Target::ById if route.resource.is_term() => " by term ID",
        Target::ById => " by ID",
        Target::BySlug => " by slug",
        _ => "",
    };
    match op {
        Op::Index => "Describe the namespace: every route, its methods and arguments".to_string(),
        Op::Doc => "This OpenAPI document".to_string(),
        Op::List => format!("List {plural}"),
        Op::Create => format!("Create {one}"),
        Op::Read => format!("Read {one}{by}"),
        Op::Update => format!("Update {one}{by} (only the fields given change)"),
        Op::Delete if route.resource.is_term() => format!("Delete {one}{by} for good"),
        Op::Delete => format!("Move {one}{by} to the trash"),
    }
}

fn success_response(description: &str, schema: &str) -> Value {
    json!({"description": description, "content": {"application/json": {"schema": {"$ref": format!("#/components/schemas/{schema}")}}}})
}

/// The error codes an operation can answer with, by status (codes of the `ERRORS` catalog).
fn error_codes(route: &Route, op: Op) -> Vec<(u16, Vec<&'static str>)> {
    let resource = route.resource;
    let posts = matches!(resource, Resource::Events | Resource::Venues | Resource::Organizers);
    let write = matches!(op, Op::Create | Op::Update | Op::Delete);
    let mut bad = vec!["rest_invalid_param", "rest_bad_request"];
    let mut unauthorized = vec!["invalid_username", "incorrect_password"];
    let mut forbidden = vec!["rest_cookie_invalid_nonce"];
    let mut not_found = Vec::new();
    if write {
        bad.push("rest_invalid_json");
        unauthorized.push("rest_forbidden");
        forbidden.push("rest_forbidden");
    }
    if op == Op::Create {
        bad.insert(0, "rest_missing_callback_param");
    }
    if matches!(op, Op::Create | Op::Update) {
        match resource {
            Resource::Events => bad.extend(["could-not-create-venue", "could-not-create-organizer"]),
            Resource::Categories => bad.push("term_exists"),
            Resource::Tags => bad.extend(["term_exists", "rest_taxonomy_not_hierarchical"]),
            _ => {}
        }
        if posts {
            forbidden.push("rest_cannot_edit_others");
        }
    }
    match (resource, op, route.target) {
        (Resource::Index, _, _) => not_found.push("rest_invalid_namespace"),
        (Resource::Events, Op::List, _) => {
            bad.push("event-tickets-not-active");
            not_found.push("event-archive-page-not-found");
        }
        (Resource::Venues, Op::List, _) => not_found.push("venue-archive-page-not-found"),
        (Resource::Organizers, Op::List, _) => not_found.push("organizer-archive-page-not-found"),
        (Resource::Events, Op::Read | Op::Update | Op::Delete, Target::ById) => {
            bad.push("rest-invalid-event-id");
            not_found.push("rest-event-not-found");
        }
        (Resource::Events, Op::Update, Target::BySlug) => not_found.push("rest-event-not-found"),
        _ => {}
    }
    if op == Op::Read {
        forbidden.extend(match resource {
            Resource::Events => &["event-no-longer-available", "event-not-accessible", "event-password-protected"][..],
            Resource::Venues => &["venue-not-accessible"][..],
            Resource::Organizers => &["organizer-not-accessible"][..],
            _ => &[][..],
        });
    }
    if matches!(route.target, Target::ById | Target::BySlug) {
        not_found.push("rest_no_route");
    }
    let mut codes = vec![(400, bad), (401, unauthorized), (403, forbidden)];
    if !not_found.is_empty() {
        codes.push((404, not_found));
    }
    codes.push((408, vec!["rest_bad_request"]));
    if op == Op::Delete && posts {
        let code = match resource {
            Resource::Events => "event-is-in-trash",
            Resource::Venues => "venue-is-in-trash",
            _ => "organizer-is-in-trash",
        };
        codes.push((410, vec![code]));
    }
    codes.push((413, vec!["rest_request_too_large"]));
    codes.push((414, vec!["rest_bad_request"]));
    codes.push((431, vec!["rest_bad_request"]));
    codes
}

/// An error response: the envelope, and each code with when it happens.
fn error_response(codes: &[&str]) -> Value {
    let explained: Vec<String> = codes
        .iter()
        .map(|code| match ERRORS.iter().find(|error| error.code == *code) {
            Some(error) => format!("{code}: {}", error.when),
            None => code.to_string(),
        })
        .collect();
    json!({
        "description": format!("{}.", explained.join("; ")),
        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}
    })
}

/// Every status an operation answers with, and what each carries.
fn responses(route: &Route, op: Op) -> Value {
    let resource = route.resource;
    let posts = matches!(resource, Resource::Events | Resource::Venues | Resource::Organizers);
    let mut map = Map::new();
    let (code, mut success) = match op {
        Op::Index => ("200", success_response("The namespace index.", "NamespaceIndex")),
        Op::Doc => ("200", success_response("This document.", "OpenApiDocument")),
        Op::List => ("200", success_response("One page of the list.", &format!("{}List", nouns(resource).0))),
        Op::Create => ("201", success_response("The created item (or, for a venue or organizer that matches an existing one in every field given, that item).", item_schema(resource))),
        Op::Read => ("200", success_response("The item.", item_schema(resource))),
        Op::Update => ("200", success_response("The updated item.", item_schema(resource))),
        Op::Delete if posts => ("200", success_response("The item as it is now, in the trash.", item_schema(resource))),
        Op::Delete => ("200", success_response("The deleted term, as it was.", item_schema(resource))),
    };
    if op == Op::List {
        success["headers"] = json!({
            "X-TEC-Total": {"description": "The number of items across all pages.", "schema": {"type": "integer"}},
            "X-TEC-TotalPages": {"description": "The number of pages.", "schema": {"type": "integer"}}
        });
    }
    if op == Op::Create && resource.is_term() {
        success["headers"] = json!({
            "Location": {"description": "The term's address in the CMS's core interface.", "schema": {"type": "string"}}
        });
    }
    map.insert(code.into(), success);
    for (status, codes) in error_codes(route, op) {
        map.insert(status.to_string(), error_response(&codes));
    }
    Value::Object(map)
}

fn operation(ctx: &Ctx, route: &Route, method: Method, op: Op) -> Value {
    let args = route_args(ctx, route, method);
    let in_body = matches!(op, Op::Create | Op::Update);
    let mut parameters = Vec::new();
    for (index, spec) in args.iter().enumerate() {
        if is_path_var(route, spec, index) {
            parameters.push(path_param(route, spec, ctx.lang));
        } else if !in_body {
            parameters.push(query_param(ctx, spec));
        }
    }
    parameters.push(language_query_param(ctx));
    let mut operation = Map::new();
    if route.resource != Resource::Index && route.resource != Resource::Doc {
        operation.insert("tags".into(), json!([route.resource.segment()]));
    }
    operation.insert("operationId".into(), json!(operation_id(route, method, op)));
    operation.insert("summary".into(), json!(summary(route, op)));
    operation.insert("parameters".into(), json!(parameters));
    if in_body {
        let name = body_schema_name(ctx, route, method, op);
        let schema = json!({"$ref": format!("#/components/schemas/{name}")});
        operation.insert(
            "requestBody".into(),
            json!({
                "required": op == Op::Create,
                "content": {
                    "application/json": {"schema": schema},
                    "application/x-www-form-urlencoded": {"schema": schema}
                }
            }),
        );
    }
    operation.insert("responses".into(), responses(route, op));
    let security = if matches!(op, Op::Create | Op::Update | Op::Delete) {
        json!([{"basicAuth": []}])
    } else {
        json!([{}, {"basicAuth": []}])
    };
    operation.insert("security".into(), security);
    Value::Object(operation)
}

/// The name of the request body schema of a create or update: `EventCreate`, `EventUpdate`,
/// and `EventUpdateBySlug` when the by-slug body differs from the by-ID one.
fn body_schema_name(ctx: &Ctx, route: &Route, method: Method, op: Op) -> String {
    let singular = nouns(route.resource).0;
    if op == Op::Create {
        return format!("{singular}Create");
    }
    // An update by ID compares with itself: the same.
    let by_id = ROUTES.iter().find(|other| other.resource == route.resource && other.target == Target::ById);
    let same = by_id.is_some_and(|by_id| {
        body_schema(ctx, &route_args(ctx, by_id, method), Some(by_id))
            == body_schema(ctx, &route_args(ctx, route, method), Some(route))
    });
    if same {
        format!("{singular}Update")
    } else {
        format!("{singular}UpdateBySlug")
    }
}

/// The request body schemas (`EventCreate`, `EventUpdate`, …), from the table.
fn body_schemas(ctx: &Ctx) -> Map<String, Value> {
    let mut schemas = Map::new();
    for route in ROUTES {
        for (method, op) in route.methods {
            if !matches!(op, Op::Create | Op::Update) {
                continue;
            }
            let name = body_schema_name(ctx, route, *method, *op);
            if !schemas.contains_key(&name) {
                schemas.insert(name, body_schema(ctx, &route_args(ctx, route, *method), Some(route)));
            }
        }
    }
    schemas
}

/// The base address the request came to: its `Host` (port included) and the API path, with
/// the trailing slash of the CMS's REST root (`http://host:port/wp-json/{ns}/`).
fn server_url(ctx: &Ctx, host: &str) -> String {
    let (scheme, rest) = ctx.api_base.split_once("://").unwrap_or(("http", ctx.api_base.as_str()));
    let path = rest.find('/').map_or("", |at| &rest[at..]);
    let host_ok = !host.is_empty()
        && host.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-' | b':' | b'[' | b']'));
    if host_ok {
        format!("{scheme}://{host}{path}/")
    } else {
        format!("{}/", ctx.api_base)
    }
}

/// The whole OpenAPI document; `host` is the Host the request came to.
pub fn openapi(ctx: &Ctx, host: &str) -> Value {
    let mut paths = Map::new();
    for route in ROUTES {
        let mut item = Map::new();
        for (method, op) in route.methods {
            item.insert(method.name().to_ascii_lowercase(), operation(ctx, route, *method, *op));
        }
        let path = if route.path.is_empty() { "/".to_string() } else { route.openapi_path() };
        paths.insert(path, Value::Object(item));
    }
    let mut components = schemas::components(ctx.lang);
    components.extend(body_schemas(ctx));
    json!({
        "openapi": "3.0.0",
        "info": {
            "version": "1.0.0",
            "title": "Events calendar REST API",
            "description": "Read and write events, venues, organizers, event categories and event tags. Reads are public; writes need HTTP Basic authentication. Every error is the envelope {code, message, data: {status, ...}}. Parameter and field descriptions follow the language of the base address (/fr, /de, /es) or of the multilingual_language parameter.",
        },
        "components": {
            "schemas": components,
            "securitySchemes": {
                "basicAuth": {"type": "http", "scheme": "basic", "description": "A user name and password of the site."}
            }
        },
        "servers": [{"url": server_url(ctx, host)}],
        "paths": paths,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::interface::{args, ROUTES};

    /// Every description of the table has a translation in every language.
    #[test]
    fn every_argument_description_is_translated() {
        let mut missing = Vec::new();
        for route in ROUTES {
            for (method, _) in route.methods {
                for spec in route.args(*method) {
                    if !i18n::has_translation(spec.description) {
                        missing.push(spec.description);
                    }
                }
            }
        }
        for resource in [Resource::Events, Resource::Venues, Resource::Organizers] {
            for spec in args(resource, Target::Collection, Op::Create) {
                if !i18n::has_translation(spec.description) {
                    missing.push(spec.description);
                }
            }
        }
        missing.sort();
        missing.dedup();
        assert!(missing.is_empty(), "descriptions without translations (add them to doc/i18n.rs): {missing:#?}");
    }

    /// `add_rule_bounds` and `base_schema` rely on how the table uses its rules: bounds only on
    /// integers (lists of integers with their `items`), non-empty only on strings, the linked
    /// entries and `cost` only in bodies (the table lists no allowed values: the status rule gives
    /// its own).
    #[test]
    fn rules_fall_on_the_types_and_places_the_schemas_expect() {
        for route in ROUTES {
            for (method, op) in route.methods {
                let in_body = matches!(op, Op::Create | Op::Update);
                for spec in route.args(*method) {
                    let base = base_schema(&spec, in_body);
                    let at = format!("{} {:?} {}", route.path, method, spec.name);
                    match spec.rule {
                        Rule::PositiveInt | Rule::UserId | Rule::EventId => assert_eq!(spec.ty, Ty::Integer, "{at}"),
                        Rule::PositiveIntList => {
                            assert_eq!(spec.ty, Ty::Array(Item::Integer), "{at}");
                            assert!(base.get("items").is_some(), "{at}");
                        }
                        Rule::NonEmpty => assert_eq!(base["type"], "string", "{at}"),
                        Rule::VenueEntry | Rule::OrganizerEntry => assert!(in_body, "{at}"),
                        _ => {}
                    }
                    if spec.name == "cost" && spec.ty == Ty::Untyped {
                        assert!(in_body, "{at}");
                    }
                }
            }
        }
    }

    #[test]
    fn translations_are_complete_and_distinct() {
        i18n::check_table().unwrap();
    }
}
