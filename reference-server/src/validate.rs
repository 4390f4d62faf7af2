//! Argument validation shared by every route: required arguments, rules, then types.
//!
//! The order is the CMS's: missing required arguments first (`rest_missing_callback_param`),
//! then each argument's rule, then its type (both `rest_invalid_param`, every bad argument
//! named at once). It runs before any permission check (Part A 24).

use std::collections::{HashMap, HashSet};

use indexmap::IndexMap;
use serde_json::{json, Value};

use crate::app::Ctx;
use crate::dates::{parse_datetime, Zone};
use crate::error::{ApiError, ApiResult, InvalidParam};
use crate::interface::{
    errors, Arg, Default, Item, Resource, Rule, Ty, LANGUAGES, ORGANIZER_FIELDS, POST_STATUSES, VENUE_FIELDS,
};
use crate::model::{Id, PostKind, Taxonomy};
use crate::quirks::Quirk;
use crate::store::Data;
use crate::text::is_valid_url;

/// The request's parameters: query string merged under the body, keys as sent.
pub type Params = IndexMap<String, Value>;

/// Validated arguments: coerced values of what was sent, plus defaults.
#[derive(Debug, Default, Clone)]
pub struct Args {
    values: IndexMap<&'static str, Value>,
    given: HashSet<&'static str>,
    /// An event's `venue` and `organizer`, read once, when they are checked.
    links: HashMap<&'static str, Vec<LinkEntry>>,
}

/// One entry of an event's `venue` or `organizer`: an item the caller may link, or the
/// checked fields of a new one.
#[derive(Debug, Clone)]
pub enum LinkEntry {
    Existing(Id),
    Inline(Box<Args>),
}

impl Args {
    pub fn get(&self, name: &str) -> Option<&Value> {
        self.values.get(name).filter(|value| !value.is_null())
    }

    /// Whether the client sent this argument (defaults do not count).
    pub fn given(&self, name: &str) -> bool {
        self.given.contains(name)
    }

    pub fn str(&self, name: &str) -> Option<&str> {
        self.get(name).and_then(Value::as_str)
    }

    /// The value as text, whatever its JSON type.
    pub fn text(&self, name: &str) -> Option<String> {
        self.get(name).map(value_text)
    }

    pub fn int(&self, name: &str) -> Option<i64> {
        self.get(name).and_then(as_int)
    }

    pub fn bool(&self, name: &str) -> Option<bool> {
        self.get(name).and_then(as_bool)
    }

    pub fn list(&self, name: &str) -> Option<Vec<Value>> {
        self.get(name).map(list_to_array)
    }

    /// The arguments with PHP's `stripslashes` applied to every string, at any depth and in
    /// inline venues and organizers: a real site drops the backslashes of what an event, venue
    /// or organizer write stores (`x\y` reads back `xy`), though not of term writes.
    pub fn unslashed(mut self) -> Args {
        for value in self.values.values_mut() {
            unslash(value);
        }
        for entries in self.links.values_mut() {
            for entry in entries.iter_mut() {
                if let LinkEntry::Inline(args) = entry {
                    **args = std::mem::take(&mut **args).unslashed();
                }
            }
        }
        self
    }

    /// The entries of a `venue` or `organizer` argument that was given (`Some(vec![])` unlinks).
    pub fn links(&self, name: &str) -> Option<&[LinkEntry]> {
        self.links.get(name).map(Vec::as_slice)
    }
}

fn unslash(value: &mut Value) {
    match value {
        Value::String(text) if text.contains('\\') => *text = crate::text::stripslashes(text),
        Value::Array(items) => items.iter_mut().for_each(unslash),
        Value::Object(map) => map.values_mut().for_each(unslash),
        _ => {}
    }
}

/// A value as plain text (strings as they are, numbers and booleans as written).
pub fn value_text(value: &Value) -> String {
    match value {
        Value::String(text) => text.clone(),
        Value::Null => String::new(),
        Value::Bool(true) => "1".to_string(),
        Value::Bool(false) => String::new(),
        other => other.to_string(),
    }
}

/// PHP's idea of a numeric value that is a whole number.
pub fn as_int(value: &Value) -> Option<i64> {
    match value {
        Value::Number(number) => number
            .as_i64()
            .or_else(|| number.as_u64().map(|_| i64::MAX))
            .or_else(|| number.as_f64().filter(|f| f.fract() == 0.0).map(|f| f as i64)),
        Value::String(text) => {
            let text = text.trim();
            if let Ok(int) = text.parse::<i64>() {
                return Some(int);
            }
            if !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit()) {
                return Some(i64::MAX);
            }
            if text.starts_with('-') && text.len() > 1 && text[1..].bytes().all(|b| b.is_ascii_digit()) {
                return Some(i64::MIN);
            }
            text.parse::<f64>().ok().filter(|f| f.is_finite() && f.fract() == 0.0).map(|f| f as i64)
        }
        _ => None,
    }
}

/// A number given as JSON or as numeric text.
pub fn as_number(value: &Value) -> Option<f64> {
    match value {
        Value::Number(number) => number.as_f64(),
        Value::String(text) => text.trim().parse::<f64>().ok().filter(|f| f.is_finite()),
        _ => None,
    }
}

/// The CMS's boolean forms: true/false, "true"/"false", "1"/"0", 1/0.
pub fn as_bool(value: &Value) -> Option<bool> {
    match value {
        Value::Bool(flag) => Some(*flag),
        Value::Number(number) => match number.as_f64() {
            Some(1.0) => Some(true),
            Some(0.0) => Some(false),
            _ => None,
        },
        Value::String(text) => match text.to_ascii_lowercase().as_str() {
            "true" | "1" => Some(true),
            "false" | "0" => Some(false),
            _ => None,
        },
        _ => None,
    }
}

/// Loose truthiness, as the plugin reads flags such as `has_events` (`yes`, `on` count).
pub fn is_truthy(value: &Value) -> bool {
    match value {
        Value::Bool(flag) => *flag,
        Value::Number(number) => number.as_f64().is_some_and(|n| n != 0.0),
        Value::String(text) => matches!(text.trim().to_ascii_lowercase().as_str(), "true" | "1" | "yes" | "on" | "y"),
        Value::Array(items) => !items.is_empty(),
        Value::Object(map) => !map.is_empty(),
        Value::Null => false,
    }
}

/// A list given as a JSON array, an object of values, or a comma-separated string.
pub fn list_to_array(value: &Value) -> Vec<Value> {
    match value {
        Value::Array(items) => items.iter().filter(|item| !is_empty_piece(item)).cloned().collect(),
        Value::Object(map) => map.values().filter(|item| !is_empty_piece(item)).cloned().collect(),
        Value::String(text) => text
            .split(',')
            .map(str::trim)
            .filter(|piece| !piece.is_empty())
            .map(|piece| Value::String(piece.to_string()))
            .collect(),
        Value::Null => Vec::new(),
        other => vec![other.clone()],
    }
}

fn is_empty_piece(value: &Value) -> bool {
    matches!(value, Value::Null) || value.as_str().is_some_and(|text| text.trim().is_empty())
}

/// PHP `empty()`: null, false, 0, "", "0", [] and {}.
pub fn is_empty(value: &Value) -> bool {
    match value {
        Value::Null => true,
        Value::Bool(flag) => !flag,
        Value::Number(number) => number.as_f64() == Some(0.0),
        Value::String(text) => text.is_empty() || text == "0",
        Value::Array(items) => items.is_empty(),
        Value::Object(map) => map.is_empty(),
    }
}

/// Validates the arguments of one route and method; `resource` tells term rules their taxonomy.
pub fn validate(ctx: &Ctx, data: &Data, resource: Resource, specs: &[Arg], params: &Params) -> ApiResult<Args> {
    let features = ctx.app.config.features;
    let mut missing = Vec::new();
    for spec in specs.iter().filter(|spec| spec.required) {
        if params.get(spec.name).is_none_or(Value::is_null) {
            missing.push(spec.name.to_string());
        }
    }
    if !missing.is_empty() {
        return Err(ApiError::missing_params(&missing));
    }

    let mut invalid = Vec::new();
    let mut links = HashMap::new();
    for spec in specs {
        let Some(value) = params.get(spec.name).filter(|value| !value.is_null()) else {
            continue;
        };
        let linked = match spec.rule {
            Rule::VenueEntry => Some(PostKind::Venue),
            Rule::OrganizerEntry => Some(PostKind::Organizer),
            _ => None,
        };
        let checked = match linked {
            Some(kind) => link_entries(ctx, data, value, kind)
                .map(|entries| {
                    links.insert(spec.name, entries);
                })
                .ok_or_else(|| InvalidParam::plain(spec.name).because(crate::reasons::rule(spec.rule))),
            None => check_rule(ctx, data, resource, spec, value),
        };
        if let Err(problem) = checked {
            invalid.push(problem);
        }
    }
    let language_param = ctx.app.config.language_param.as_str();
    // The plugin's `language-unchecked` quirk: any value is taken, and an unknown one ignored.
    let checked = !ctx.app.config.quirks.on(Quirk::LanguageUnchecked);
    if let Some(value) = params.get(language_param).filter(|value| checked && !value.is_null()) {
        if !value.as_str().is_some_and(|code| LANGUAGES.contains(&code)) {
            invalid.push(InvalidParam::plain(language_param).because("not a language of the site (en, fr, de, es)"));
        }
    }
    if !invalid.is_empty() {
        return Err(ApiError::invalid_params(&invalid));
    }

    let mut args = Args { links, ..Args::default() };
    for spec in specs {
        match params.get(spec.name).filter(|value| !value.is_null()) {
            Some(value) => match coerce(spec, value) {
                Ok(value) => {
                    args.values.insert(spec.name, value);
                    args.given.insert(spec.name);
                }
                Err(problem) => invalid.push(problem),
            },
            None => {
                if let Some(default) = spec.default {
                    let value = match default {
                        Default::Int(n) => json!(n),
                        Default::Bool(flag) => json!(flag),
                        Default::Text(text) => json!(text),
                        Default::Null | Default::Computed(_) => Value::Null,
                    };
                    args.values.insert(spec.name, value);
                }
            }
        }
    }
    let _ = features;
    if !invalid.is_empty() {
        return Err(ApiError::invalid_params(&invalid));
    }
    Ok(args)
}

/// The type check and coercion of the CMS's schema validation.
pub(crate) fn coerce(spec: &Arg, value: &Value) -> Result<Value, InvalidParam> {
    let wrong = || InvalidParam::wrong_type(spec.name, spec.ty.name().unwrap_or("string"));
    if !spec.enforced {
        return Ok(value.clone());
    }
    match spec.ty {
        Ty::String => value.is_string().then(|| value.clone()).ok_or_else(wrong),
        Ty::Integer => match value {
            Value::Bool(_) => Err(wrong()),
            _ => as_int(value).map(|n| json!(n)).ok_or_else(wrong),
        },
        Ty::Number => match value {
            Value::Bool(_) => Err(wrong()),
            _ => as_number(value).map(|n| json!(n)).ok_or_else(wrong),
        },
        Ty::Boolean => as_bool(value).map(Value::Bool).ok_or_else(wrong),
        Ty::Array(item) => {
            let items = list_to_array(value);
            if item == Item::Integer {
                for (index, piece) in items.iter().enumerate() {
                    if as_int(piece).is_none() {
                        return Err(InvalidParam::wrong_type(&format!("{}[{index}]", spec.name), "integer"));
                    }
                }
            }
            Ok(Value::Array(items))
        }
        Ty::Untyped => Ok(value.clone()),
    }
}

pub(crate) fn check_rule(
    ctx: &Ctx,
    data: &Data,
    resource: Resource,
    spec: &Arg,
    value: &Value,
) -> Result<(), InvalidParam> {
    let plain = || InvalidParam::plain(spec.name);
    let ok = match spec.rule {
        Rule::None => true,
        Rule::PositiveInt => is_positive_int(value),
        Rule::PositiveIntList => {
            let items = list_to_array(value);
            !items.is_empty() && items.iter().all(is_positive_int)
        }
        Rule::Time => is_time(ctx, value),
        Rule::NonEmpty => value.as_str().is_some_and(|text| !text.is_empty() && text != "0"),
        Rule::StringOrEmpty => is_empty(value) || value.is_string(),
        Rule::UserId => as_int(value).is_some_and(|id| id > 0 && ctx.app.users.exists(id as u64)),
        Rule::PostStatus => value.as_str().is_some_and(|status| POST_STATUSES.contains(&status)),
        Rule::StatusList => is_status_list(ctx, value),
        Rule::EventId => !is_empty(value) && post_of_kind(data, value, PostKind::Event),
        Rule::VenueIdList => id_list_of_kind(data, value, PostKind::Venue),
        Rule::OrganizerIdList => id_list_of_kind(data, value, PostKind::Organizer),
        Rule::CategoryList => term_list(ctx, data, value, Taxonomy::Category),
        Rule::TagList => term_list(ctx, data, value, Taxonomy::Tag),
        Rule::TermList => match resource {
            Resource::Tags => term_list(ctx, data, value, Taxonomy::Tag),
            _ => term_list(ctx, data, value, Taxonomy::Category),
        },
        Rule::TimezoneOrEmpty => is_empty(value) || value.as_str().and_then(Zone::parse).is_some(),
        // The plugin's `image-url-refused` quirk: a site downloads an image URL, and refuses one
        // that does not answer with an image; the twin downloads nothing, so it refuses them all.
        Rule::ImageOrEmpty => {
            let url = value.as_str().is_some_and(|text| image_url_extension(text).is_some());
            is_empty(value) || (is_image(data, value) && !(url && ctx.app.config.quirks.on(Quirk::ImageUrlRefused)))
        }
        Rule::UrlOrEmpty => is_empty(value) || value.as_str().is_some_and(is_valid_url),
        // Read (and checked) by `link_entries`.
        Rule::VenueEntry | Rule::OrganizerEntry => true,
        Rule::Ticketed => {
            if !is_truthy(value) || ctx.app.config.features.tickets {
                true
            } else {
                let error = errors::TICKETS_NOT_ACTIVE;
                return Err(InvalidParam::explained(spec.name, error.code, error.message, json!({"status": 400})));
            }
        }
    };
    if ok {
        Ok(())
    } else {
        Err(plain().because(crate::reasons::rule(spec.rule)))
    }
}

/// A whole number above 0 (`true` is not one: `as_int` reads only numbers and strings).
fn is_positive_int(value: &Value) -> bool {
    as_int(value).is_some_and(|n| n > 0) && as_number(value).is_some_and(|f| f.fract() == 0.0)
}

fn is_time(ctx: &Ctx, value: &Value) -> bool {
    match value {
        Value::Number(_) => true,
        Value::String(text) => parse_datetime(text, &ctx.app.site_zone, ctx.now).is_some(),
        _ => false,
    }
}

fn is_status_list(ctx: &Ctx, value: &Value) -> bool {
    let statuses: Vec<String> = list_to_array(value).iter().map(value_text).collect();
    if statuses.is_empty() {
        return false;
    }
    let may_see_unpublished = ctx.user.is_some_and(|user| user.can_edit_posts());
    if !may_see_unpublished {
        return statuses == ["publish"];
    }
    statuses.iter().all(|status| POST_STATUSES.contains(&status.as_str()))
}

fn post_of_kind(data: &Data, value: &Value, kind: PostKind) -> bool {
    as_int(value).is_some_and(|id| id > 0 && data.kind(id as u64) == Some(kind))
}

fn id_list_of_kind(data: &Data, value: &Value, kind: PostKind) -> bool {
    let items = list_to_array(value);
    !items.is_empty() && items.iter().all(|item| post_of_kind(data, item, kind))
}

fn term_list(ctx: &Ctx, data: &Data, value: &Value, taxonomy: Taxonomy) -> bool {
    let items = list_to_array(value);
    !items.is_empty() && items.iter().all(|item| data.find_term(taxonomy, ctx.lang, &value_text(item)).is_some())
}

/// An image ID the server knows, or an http(s) URL whose path ends in an image extension.
pub fn is_image(data: &Data, value: &Value) -> bool {
    match value {
        Value::Number(_) => as_int(value).is_some_and(|id| id > 0 && data.kind(id as u64) == Some(PostKind::Image)),
        Value::String(text) if !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit()) => {
            as_int(value).is_some_and(|id| data.kind(id as u64) == Some(PostKind::Image))
        }
        Value::String(text) => image_url_extension(text).is_some(),
        _ => false,
    }
}

/// The image extension of an http(s) URL's path, if it has one.
pub fn image_url_extension(url: &str) -> Option<String> {
    let lower = url.to_ascii_lowercase();
    if !(lower.starts_with("http://") || lower.starts_with("https://")) || !is_valid_url(url) {
        return None;
    }
    let path = lower.split(['?', '#']).next().unwrap_or("");
    let after_host = path.split_once("://").map_or("", |(_, rest)| rest);
    let (_, path) = after_host.split_once('/')?;
    let extension = path.rsplit_once('.')?.1;
    ["jpg", "jpeg", "png", "gif", "webp", "bmp", "svg", "avif", "ico", "tif", "tiff", "heic"]
        .contains(&extension)
        .then(|| extension.to_string())
}

/// Reads an event's `venue` / `organizer` value: empty (unlink), IDs (also as a comma list),
/// `{id}` objects, inline data, or lists of those. Every ID must name an item of the kind that
/// the caller may read (linking shows it to every reader of the event), and inline data must
/// pass the linked route's own create checks, as the plugin's validator does. `None` if any
/// entry fails.
fn link_entries(ctx: &Ctx, data: &Data, value: &Value, kind: PostKind) -> Option<Vec<LinkEntry>> {
    let name_key = if kind == PostKind::Venue { "venue" } else { "organizer" };
    let entries: Vec<&Value> = match value {
        v if is_empty(v) => Vec::new(),
        Value::Array(items) => items.iter().collect(),
        Value::Object(map) if map.contains_key("id") || map.contains_key(name_key) => vec![value],
        Value::Object(map) => map.values().collect(),
        other => vec![other],
    };
    let existing = |id: &Value| -> Option<LinkEntry> {
        let id = as_int(id).filter(|id| *id > 0)? as Id;
        let post = match kind {
            PostKind::Venue => data.venues.get(&id).map(|venue| &venue.post),
            _ => data.organizers.get(&id).map(|organizer| &organizer.post),
        }?;
        (crate::access::links_open(ctx) || crate::access::may_read(ctx, post)).then_some(LinkEntry::Existing(id))
    };
    let mut out = Vec::new();
    for entry in entries.into_iter().filter(|entry| !is_empty(entry)) {
        match entry {
            Value::Object(map) => match map.get("id").filter(|id| !is_empty(id)) {
                Some(id) => out.push(existing(id)?),
                None => {
                    let params: Params = map.iter().map(|(key, value)| (key.clone(), value.clone())).collect();
                    let (resource, fields) = match kind {
                        PostKind::Venue => (Resource::Venues, VENUE_FIELDS),
                        _ => (Resource::Organizers, ORGANIZER_FIELDS),
                    };
                    let fields: Vec<Arg> = fields.iter().copied().filter(|spec| feature_on(ctx, spec)).collect();
                    let args = validate(ctx, data, resource, &fields, &params).ok()?;
                    out.push(LinkEntry::Inline(Box::new(args)));
                }
            },
            Value::String(text) => {
                for piece in text.split(',').map(str::trim).filter(|piece| !piece.is_empty()) {
                    out.push(existing(&Value::String(piece.to_string()))?);
                }
            }
            other => out.push(existing(other)?),
        }
    }
    Some(out)
}

/// Whether the server has the feature a write field needs (`geoloc`, `tickets`).
fn feature_on(ctx: &Ctx, spec: &Arg) -> bool {
    spec.feature.is_none_or(|name| ctx.app.config.features.on(name))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integers_as_php_sees_them() {
        assert_eq!(as_int(&json!("3")), Some(3));
        assert_eq!(as_int(&json!("3.0")), Some(3));
        assert_eq!(as_int(&json!("2.5")), None);
        assert_eq!(as_int(&json!("abc")), None);
        assert_eq!(as_int(&json!("99999999999999999999")), Some(i64::MAX));
        assert!(is_positive_int(&json!("1")));
        assert!(!is_positive_int(&json!("0")));
        assert!(!is_positive_int(&json!("-1")));
        assert!(!is_positive_int(&json!("2.5")));
        assert!(!is_positive_int(&json!("foo bar")));
    }

    #[test]
    fn booleans_and_lists() {
        assert_eq!(as_bool(&json!("true")), Some(true));
        assert_eq!(as_bool(&json!("0")), Some(false));
        assert_eq!(as_bool(&json!("yes")), None);
        assert_eq!(as_bool(&json!(1)), Some(true));
        assert_eq!(list_to_array(&json!("a, b,,c")), vec![json!("a"), json!("b"), json!("c")]);
        assert_eq!(list_to_array(&json!([1, "", 2])), vec![json!(1), json!(2)]);
        assert!(list_to_array(&json!("")).is_empty());
    }

    #[test]
    fn image_urls_need_an_image_extension() {
        assert_eq!(image_url_extension("https://x.example/a/b.PNG?x=1").as_deref(), Some("png"));
        assert!(image_url_extension("https://x.example/a/b.txt").is_none());
        assert!(image_url_extension("ftp://x.example/a.png").is_none());
        assert!(image_url_extension("https://x.example").is_none());
    }
}
