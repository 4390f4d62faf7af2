//! The admin operations.

use chrono::{DateTime, SecondsFormat, Utc};
use serde_json::{json, Value};

use super::{AdminBody, AdminOp, AdminReply, OPENAPI};
use crate::app::{App, ClockMode};
use crate::devtools::DevTools;
use crate::faults::RuleSpec;
use crate::fixtures::DateStyle;
use crate::store::Data;
use crate::validate::Params;

/// The most events one seed request may add.
pub const MAX_SEED: u64 = 100_000;

pub async fn run(
    app: &App,
    tools: &DevTools,
    op: AdminOp,
    var: Option<&str>,
    query: &Params,
    body: Value,
) -> AdminReply {
    match op {
        AdminOp::Page => AdminReply { status: 200, body: AdminBody::Html(crate::pages::journal_page(app)) },
        AdminOp::Doc => match serde_json::from_str(OPENAPI) {
            Ok(doc) => AdminReply::json(200, doc),
            Err(error) => AdminReply::error(500, "admin_doc", format!("The admin document does not parse: {error}")),
        },
        AdminOp::Reset => reset(app, tools, body).await,
        AdminOp::Seed => seed(app, tools, body).await,
        AdminOp::GetClock => AdminReply::json(200, clock(app)),
        AdminOp::SetClock => set_clock(app, body),
        AdminOp::Requests => requests(tools, query),
        AdminOp::ClearRequests => {
            tools.journal.clear();
            AdminReply::json(200, json!({"cleared": true}))
        }
        AdminOp::Faults => AdminReply::json(
            200,
            json!({"rules": tools.faults.list().iter().map(|rule| rule.to_json()).collect::<Vec<_>>()}),
        ),
        AdminOp::AddFault => {
            let spec = body_object(body).and_then(RuleSpec::from_json);
            match spec.and_then(|spec| tools.faults.add(spec)) {
                Ok(rule) => AdminReply::json(201, rule.to_json()),
                Err(message) => AdminReply::error(400, "admin_invalid_rule", message),
            }
        }
        AdminOp::ClearFaults => {
            let count = tools.faults.list().len();
            tools.faults.clear();
            AdminReply::json(200, json!({"removed": count}))
        }
        AdminOp::RemoveFault => match var.and_then(|id| id.parse::<u64>().ok()) {
            Some(id) if tools.faults.remove(id) => AdminReply::json(200, json!({"removed": 1, "id": id})),
            _ => AdminReply::error(404, "admin_no_rule", format!("No fault rule has the ID {}.", var.unwrap_or(""))),
        },
        AdminOp::Request => request(tools, var),
        AdminOp::Stubs | AdminOp::AddStub | AdminOp::ClearStubs | AdminOp::RemoveStub => {
            stubs(app, tools, op, var, body)
        }
        AdminOp::State => AdminReply::json(200, state(tools)),
        AdminOp::Quirks => AdminReply::json(200, quirks(app)),
        AdminOp::Export => export(app, query),
    }
}

/// Refuses a field the operation does not take (a typo must not pass for a default).
fn only_fields(body: &Value, fields: &[&str]) -> Result<(), AdminReply> {
    let unknown = body.as_object().and_then(|map| map.keys().find(|key| !fields.contains(&key.as_str())));
    match unknown {
        Some(key) => Err(AdminReply::error(
            400,
            "admin_invalid_body",
            format!("unknown field {key:?}: this operation takes {}", fields.join(", ")),
        )),
        None => Ok(()),
    }
}

/// An object body, or none (`{}`).
fn body_object(body: Value) -> Result<Value, String> {
    match body {
        Value::Null => Ok(json!({})),
        Value::Object(_) => Ok(body),
        _ => Err("the body must be a JSON object".to_string()),
    }
}

/// What the store holds, in counts.
fn counts(data: &Data) -> Value {
    let terms = |taxonomy| data.terms.values().filter(|term| term.taxonomy == taxonomy).count();
    json!({
        "events": data.events.len(),
        "venues": data.venues.len(),
        "organizers": data.organizers.len(),
        "categories": terms(crate::model::Taxonomy::Category),
        "tags": terms(crate::model::Taxonomy::Tag),
    })
}

/// After a change to the store: the answer once it is durable.
async fn durable(tools: &DevTools, answer: Value) -> AdminReply {
    match &tools.state {
        Some(state) => match state.settled().await {
            Ok(()) => AdminReply::json(200, answer),
            Err(message) => {
                AdminReply::error(500, "state_write_failed", format!("The change could not be saved: {message}"))
            }
        },
        None => AdminReply::json(200, answer),
    }
}

fn read_only(tools: &DevTools) -> Option<AdminReply> {
    let failure = tools.state.as_ref()?.failure()?;
    Some(AdminReply::error(503, "state_read_only", format!("The state file failed, so nothing can change: {failure}")))
}

/// `{"to": "empty"}` (the default), `{"to": "demo"}` or `{"to": "fixtures"}`: the store as a
/// fresh site has it, or with the demo calendar, or with the `--fixtures` file (both dated from
/// the clock now). IDs start again at 6. Stubs stay unless `"stubs": true`.
async fn reset(app: &App, tools: &DevTools, body: Value) -> AdminReply {
    let body = match body_object(body) {
        Ok(body) => body,
        Err(message) => return AdminReply::error(400, "admin_invalid_body", message),
    };
    if let Err(refusal) = only_fields(&body, &["to", "stubs"]) {
        return refusal;
    }
    let Some(clear_stubs) = body.get("stubs").map_or(Some(false), Value::as_bool) else {
        return AdminReply::error(400, "admin_invalid_body", "stubs must be true (remove them too) or false");
    };
    let to = body.get("to").map_or(Some("empty"), Value::as_str);
    let Some(to @ ("empty" | "demo" | "fixtures")) = to else {
        return AdminReply::error(400, "admin_invalid_body", "to must be \"empty\", \"demo\" or \"fixtures\"");
    };
    if to == "fixtures" && tools.fixture.is_none() {
        return AdminReply::error(
            400,
            "admin_no_fixtures",
            "The server was started without --fixtures, so there is no fixture to reset to.",
        );
    }
    if let Some(refusal) = read_only(tools) {
        return refusal;
    }
    // Built aside, then swapped in whole: no request sees half a reset.
    let fresh = match (to, &tools.fixture) {
        ("fixtures", Some(fixture)) => match crate::fixtures::build(app, fixture, Vec::new()) {
            Ok(fresh) => fresh,
            Err(errors) => {
                let message = format!("The fixture cannot be loaded now: {}", errors.lines.join("; "));
                return AdminReply::error(409, "admin_fixture_invalid", message);
            }
        },
        _ => {
            let mut fresh = Data::fresh_site(&app.site_url);
            if to == "demo" {
                crate::demo::fill(app, &mut fresh);
            }
            fresh
        }
    };
    let answer = {
        let mut data = app.store.write();
        data.replace_with(fresh);
        let removed = if clear_stubs { tools.stubs.clear() } else { 0 };
        json!({"to": to, "store": counts(&data), "stubs_removed": removed})
    };
    durable(tools, answer).await
}

/// The store as a fixture (`?dates=relative`: dates from the clock's today, else absolute).
/// Users come without their passwords.
fn export(app: &App, query: &Params) -> AdminReply {
    let style = match query.get("dates").and_then(Value::as_str) {
        None | Some("absolute") => DateStyle::Absolute,
        Some("relative") => DateStyle::Relative,
        Some(_) => return AdminReply::error(400, "admin_invalid_query", "dates must be absolute or relative"),
    };
    let data = app.store.read();
    AdminReply::json(200, crate::fixtures::export(app, &data, style))
}

/// `{"events": N}`: adds N events of the benchmark calendar (`seed`), with the venues,
/// organizers and terms they use.
async fn seed(app: &App, tools: &DevTools, body: Value) -> AdminReply {
    if let Err(refusal) = only_fields(&body, &["events"]) {
        return refusal;
    }
    let count = match body_object(body).map(|body| body.get("events").and_then(Value::as_u64)) {
        Ok(Some(count)) if (1..=MAX_SEED).contains(&count) => count as usize,
        _ => {
            return AdminReply::error(
                400,
                "admin_invalid_body",
                format!("events must be a whole number from 1 to {MAX_SEED}"),
            )
        }
    };
    if let Some(refusal) = read_only(tools) {
        return refusal;
    }
    // The load runs under the store's write lock, and the durable state records the store
    // whole at its end (`Data::bulk_load`), so no write can come between.
    crate::seed::load(app, count);
    let answer = json!({"seeded": count, "store": counts(&app.store.read())});
    durable(tools, answer).await
}

fn instant(at: DateTime<Utc>) -> String {
    at.to_rfc3339_opts(SecondsFormat::Secs, true)
}

fn clock(app: &App) -> Value {
    let mode = match app.clock.mode() {
        ClockMode::Real => "real",
        ClockMode::Running { .. } => "running",
        ClockMode::Frozen(_) => "frozen",
    };
    json!({"now": instant(app.clock.instant()), "mode": mode})
}

/// `{"mode": "real"}`, `{"mode": "running", "now": "…"}` (from that instant on) or
/// `{"mode": "frozen", "now": "…"}` (standing still there; without `now`, at the current time).
fn set_clock(app: &App, body: Value) -> AdminReply {
    let body = match body_object(body) {
        Ok(body) => body,
        Err(message) => return AdminReply::error(400, "admin_invalid_body", message),
    };
    if let Err(refusal) = only_fields(&body, &["mode", "now"]) {
        return refusal;
    }
    let now = match body.get("now") {
        None | Some(Value::Null) => None,
        Some(Value::String(text)) => match DateTime::parse_from_rfc3339(text) {
            Ok(at) => Some(at.with_timezone(&Utc)),
            Err(_) => {
                return AdminReply::error(
                    400,
                    "admin_invalid_body",
                    format!("now must be an RFC 3339 instant, got {text:?}"),
                )
            }
        },
        Some(other) => {
            return AdminReply::error(
                400,
                "admin_invalid_body",
                format!("now must be an RFC 3339 instant, got {other}"),
            )
        }
    };
    if let Some(at) = now.filter(|at| !crate::clock_range::clock_in_range(*at)) {
        return AdminReply::error(
            400,
            "admin_invalid_body",
            format!("now must be {}, got {}", crate::clock_range::CLOCK_RANGE, instant(at)),
        );
    }
    let at = now.unwrap_or_else(|| app.clock.instant());
    let mode = match body.get("mode").and_then(Value::as_str) {
        Some("real") if now.is_none() => ClockMode::Real,
        Some("real") => return AdminReply::error(400, "admin_invalid_body", "a real clock takes no now"),
        Some("running") | None if now.is_some() => ClockMode::Running { at, since: std::time::Instant::now() },
        Some("running") => ClockMode::Running { at, since: std::time::Instant::now() },
        Some("frozen") => ClockMode::Frozen(at),
        _ => return AdminReply::error(400, "admin_invalid_body", "mode must be \"real\", \"running\" or \"frozen\""),
    };
    app.clock.set(mode);
    AdminReply::json(200, clock(app))
}

/// `?since=N&limit=M`: the first M requests after number N (oldest first; `more` when others
/// follow); without `since`, the last M.
fn requests(tools: &DevTools, query: &Params) -> AdminReply {
    let number = |name: &str| query.get(name).and_then(Value::as_str).map(|text| text.parse::<u64>());
    let since = match number("since") {
        None => None,
        Some(Ok(since)) => Some(since),
        Some(Err(_)) => return AdminReply::error(400, "admin_invalid_query", "since must be a whole number"),
    };
    let limit = match number("limit") {
        None => 100,
        Some(Ok(limit)) if limit >= 1 => limit.min(tools.journal.capacity().max(1) as u64) as usize,
        Some(_) => return AdminReply::error(400, "admin_invalid_query", "limit must be a whole number of at least 1"),
    };
    let read = tools.journal.read(since, limit);
    AdminReply::json(
        200,
        json!({
            "requests": read.entries,
            "last": read.last,
            "more": read.more,
            "missed": read.missed,
            "capacity": tools.journal.capacity(),
        }),
    )
}

/// One journal entry with the bodies it kept.
fn request(tools: &DevTools, var: Option<&str>) -> AdminReply {
    let entry = var.and_then(|seq| seq.parse::<u64>().ok()).and_then(|seq| tools.journal.get(seq));
    let Some(entry) = entry else {
        let message = format!("The journal holds no request numbered {}.", var.unwrap_or("").escape_debug());
        return AdminReply::error(404, "admin_no_request", message);
    };
    let bodies = entry.bodies.clone().unwrap_or_default();
    let mut value = serde_json::to_value(&entry).unwrap_or_default();
    if let Value::Object(map) = &mut value {
        map.insert("request_body".into(), json!(bodies.request));
        map.insert("response_body".into(), json!(bodies.response));
    }
    AdminReply::json(200, value)
}

/// Why stubs are refused on a checking proxy (as fault rules, they would not apply to the
/// forwarded requests; unlike those, a stub that never answers is refused rather than kept).
pub const STUBS_AND_PROXY: &str =
    "stubs do not apply with --proxy-to: every request of the interface goes to the site, whose answers pass unchanged";

/// The stub operations: list, add (one stub or a list, all or none), remove all or one.
fn stubs(app: &App, tools: &DevTools, op: AdminOp, var: Option<&str>, body: Value) -> AdminReply {
    let list =
        |stubs: &[std::sync::Arc<crate::stubs::Stub>]| stubs.iter().map(|stub| stub.to_json()).collect::<Vec<_>>();
    match op {
        // A checking proxy forwards every request of the interface: no stub could answer one.
        AdminOp::AddStub if app.config.proxy_to.is_some() => {
            AdminReply::error(400, "admin_invalid_stub", STUBS_AND_PROXY.to_string())
        }
        AdminOp::AddStub => {
            let logins: Vec<&str> = app.config.users.iter().map(|user| user.name.as_str()).collect();
            let specs = crate::stubs::parse_document(&body, &logins).map_err(|problems| {
                let lines: Vec<String> = problems.iter().map(|p| format!("{}: {}", p.path, p.message)).collect();
                lines.join("; ")
            });
            match specs.and_then(|specs| tools.stubs.add(specs)) {
                Ok(added) if body.is_array() => AdminReply::json(201, json!({"stubs": list(&added)})),
                Ok(added) => AdminReply::json(201, added.first().map(|stub| stub.to_json()).unwrap_or_default()),
                Err(message) => AdminReply::error(400, "admin_invalid_stub", message),
            }
        }
        AdminOp::ClearStubs => AdminReply::json(200, json!({"removed": tools.stubs.clear()})),
        AdminOp::RemoveStub => match var.and_then(|id| id.parse::<u64>().ok()) {
            Some(id) if tools.stubs.remove(id) => AdminReply::json(200, json!({"removed": 1, "id": id})),
            _ => {
                let message = format!("No stub has the ID {}.", var.unwrap_or("").escape_debug());
                AdminReply::error(404, "admin_no_stub", message)
            }
        },
        _ => AdminReply::json(200, json!({"stubs": list(&tools.stubs.list())})),
    }
}

/// Which of the plugin's quirks the server reproduces (`--quirk`, `--like`): every quirk of the
/// table, each with `on`.
fn quirks(app: &App) -> Value {
    let on = app.config.quirks;
    let list: Vec<Value> = crate::quirks::QUIRKS
        .iter()
        .map(|spec| {
            json!({"name": spec.name, "on": on.specs().any(|s| s.name == spec.name), "source": spec.source,
                   "what": spec.what, "case": spec.case})
        })
        .collect();
    let names: Vec<&str> = on.specs().map(|spec| spec.name).collect();
    json!({"like": crate::quirks::like_of(on), "on": names, "quirks": list})
}

fn state(tools: &DevTools) -> Value {
    match &tools.state {
        Some(state) => {
            let mut value = state.describe();
            if let Value::Object(map) = &mut value {
                map.insert("persistent".into(), json!(true));
            }
            value
        }
        None => json!({"persistent": false}),
    }
}
