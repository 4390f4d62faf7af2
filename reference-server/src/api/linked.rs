//! `/venues` and `/organizers`: the posts events link to. One module for both, since their
//! routes, rules and errors differ only in names and fields.

use serde_json::{json, Map, Value};

use super::events::StatusFilter;
use super::lists::{page_links, Page};
use super::posts::{new_post, parse_in, trash, update_post};
use super::{authorize, slug_key, validated};
use crate::app::Ctx;
use crate::error::{ApiError, ApiResult};
use crate::http::{ApiRequest, Reply};
use crate::interface::{errors, ErrorKind, Op, Resource, Target, LINKED_LIST_ARGS, ORGANIZER_FIELDS, VENUE_FIELDS};
use crate::model::{Id, Organizer, Post, PostKind, Status, Venue};
use crate::store::{Data, SlugKind};
use crate::validate::{as_int, as_number, is_empty, is_truthy, validate, value_text, Args, Params};
use crate::views::View;

/// The names that differ between the two resources.
struct Kind {
    resource: Resource,
    post_kind: PostKind,
    slug_kind: SlugKind,
    /// The name field and the singular word in messages (`venue`, `organizer`).
    word: &'static str,
    collection: &'static str,
    not_accessible: ErrorKind,
    in_trash: ErrorKind,
    page_not_found: ErrorKind,
    could_not_create: ErrorKind,
}

const VENUE: Kind = Kind {
    resource: Resource::Venues,
    post_kind: PostKind::Venue,
    slug_kind: SlugKind::Venue,
    word: "venue",
    collection: "venues",
    not_accessible: errors::VENUE_NOT_ACCESSIBLE,
    in_trash: errors::VENUE_IN_TRASH,
    page_not_found: errors::VENUE_PAGE_NOT_FOUND,
    could_not_create: errors::COULD_NOT_CREATE_VENUE,
};
const ORGANIZER: Kind = Kind {
    resource: Resource::Organizers,
    post_kind: PostKind::Organizer,
    slug_kind: SlugKind::Organizer,
    word: "organizer",
    collection: "organizers",
    not_accessible: errors::ORGANIZER_NOT_ACCESSIBLE,
    in_trash: errors::ORGANIZER_IN_TRASH,
    page_not_found: errors::ORGANIZER_PAGE_NOT_FOUND,
    could_not_create: errors::COULD_NOT_CREATE_ORGANIZER,
};

fn kind_of(resource: Resource) -> &'static Kind {
    if resource == Resource::Venues {
        &VENUE
    } else {
        &ORGANIZER
    }
}

pub fn handle(ctx: &Ctx, request: &ApiRequest, op: Op) -> ApiResult<Reply> {
    let kind = kind_of(request.route.resource);
    match op {
        Op::List => list(ctx, request, kind),
        Op::Create => create(ctx, request, kind),
        Op::Read => read(ctx, request, kind),
        Op::Update => update(ctx, request, kind),
        Op::Delete => delete(ctx, request, kind),
        _ => Err(ApiError::no_route()),
    }
}

fn post<'a>(data: &'a Data, kind: &Kind, id: Id) -> Option<&'a Post> {
    match kind.post_kind {
        PostKind::Venue => data.venues.get(&id).map(|v| &v.post),
        _ => data.organizers.get(&id).map(|o| &o.post),
    }
}

fn render(view: &View, kind: &Kind, id: Id) -> Value {
    match kind.post_kind {
        PostKind::Venue => view.data.venues.get(&id).map(|v| view.venue(v, false)),
        _ => view.data.organizers.get(&id).map(|o| view.organizer(o, false)),
    }
    .unwrap_or(Value::Null)
}

/// The item a single route names; an unknown ID or slug is an invalid parameter.
fn find(ctx: &Ctx, data: &Data, request: &ApiRequest, kind: &Kind) -> ApiResult<Id> {
    let var = request.var.as_deref().unwrap_or("");
    match request.route.target {
        Target::BySlug => {
            data.slug_owner(kind.slug_kind, ctx.lang, &slug_key(var)).ok_or_else(|| ApiError::invalid_param("slug"))
        }
        _ => var
            .parse::<Id>()
            .ok()
            .filter(|id| data.kind(*id) == Some(kind.post_kind))
            .ok_or_else(|| ApiError::invalid_param("id")),
    }
}

fn read(ctx: &Ctx, request: &ApiRequest, kind: &Kind) -> ApiResult<Reply> {
    let data = ctx.app.store.read();
    validated(ctx, &data, request)?;
    let id = find(ctx, &data, request, kind)?;
    let post = post(&data, kind, id).ok_or_else(|| ApiError::invalid_param("id"))?;
    if post.status != Status::Publish && !ctx.user.is_some_and(|user| user.can_read_post(post.author)) {
        return Err(ApiError::of(&kind.not_accessible));
    }
    let view = View { ctx, data: &data, single: true };
    Ok(Reply::ok(render(&view, kind, id)))
}

fn delete(ctx: &Ctx, request: &ApiRequest, kind: &Kind) -> ApiResult<Reply> {
    let mut data = ctx.app.store.write();
    validated(ctx, &data, request)?;
    let id = find(ctx, &data, request, kind)?;
    authorize(ctx, &data, request.route, Op::Delete, Some(id))?;
    if post(&data, kind, id).is_some_and(|post| post.status == Status::Trash) {
        return Err(ApiError::of(&kind.in_trash));
    }
    match kind.post_kind {
        PostKind::Venue => {
            if let Some(mut venue) = data.venues.get(&id).cloned() {
                trash(ctx, &mut venue.post);
                data.put_venue(venue);
            }
        }
        _ => {
            if let Some(mut organizer) = data.organizers.get(&id).cloned() {
                trash(ctx, &mut organizer.post);
                data.put_organizer(organizer);
            }
        }
    }
    let view = View { ctx, data: &data, single: false };
    Ok(Reply::ok(render(&view, kind, id)))
}

fn create(ctx: &Ctx, request: &ApiRequest, kind: &Kind) -> ApiResult<Reply> {
    let mut data = ctx.app.store.write();
    let args = validated(ctx, &data, request)?;
    authorize(ctx, &data, request.route, Op::Create, None)?;
    let id = create_from_args(ctx, &mut data, &args, kind)?;
    let view = View { ctx, data: &data, single: false };
    Ok(Reply::created(render(&view, kind, id)))
}

/// Creates a venue or organizer, or returns the existing one the arguments describe exactly.
fn create_from_args(ctx: &Ctx, data: &mut Data, args: &Args, kind: &Kind) -> ApiResult<Id> {
    if let Some(existing) = duplicate_of(ctx, data, args, kind) {
        return Ok(existing);
    }
    let mut post = new_post(ctx, data, args, kind.word, kind.slug_kind)?;
    post.id = data.allocate_post_id();
    let id = post.id;
    match kind.post_kind {
        PostKind::Venue => {
            let mut venue = Venue {
                post,
                address: Box::from(""),
                city: Box::from(""),
                country: Box::from(""),
                province: Box::from(""),
                state: Box::from(""),
                zip: Box::from(""),
                phone: Box::from(""),
                stateprovince: Box::from(""),
                website: Box::from(""),
                show_map: None,
                show_map_link: None,
                geo: None,
            };
            apply_venue_fields(ctx, &mut venue, args);
            derive_on_create(&mut venue);
            data.put_venue(venue);
        }
        _ => {
            let mut organizer = Organizer { post, phone: Box::from(""), website: Box::from(""), email: Box::from("") };
            apply_organizer_fields(&mut organizer, args);
            data.put_organizer(organizer);
        }
    }
    Ok(id)
}

fn apply_venue_fields(ctx: &Ctx, venue: &mut Venue, args: &Args) {
    for (key, field) in venue.text_fields_mut() {
        if let Some(value) = args.get(key) {
            *field = value_text(value).trim().into();
        }
    }
    if let Some(value) = args.get("show_map") {
        venue.show_map = Some(is_truthy(value));
    }
    if let Some(value) = args.get("show_map_link") {
        venue.show_map_link = Some(is_truthy(value));
    }
    if ctx.app.config.features.geoloc {
        if let (Some(lat), Some(lng)) =
            (args.get("geo_lat").and_then(as_number), args.get("geo_lng").and_then(as_number))
        {
            venue.geo = Some((lat, lng));
        }
    }
}

/// On create, the plugin fills an empty `stateprovince` from `state` or `province` (an update
/// never re-derives it, Part A 28).
fn derive_on_create(venue: &mut Venue) {
    if venue.stateprovince.is_empty() {
        venue.stateprovince = derive_stateprovince(venue).into();
    }
}

/// The plugin fills `stateprovince` from `state` for US addresses, else from `province`.
fn derive_stateprovince(venue: &Venue) -> String {
    let us = matches!(&*venue.country, "" | "US" | "United States");
    if !venue.state.is_empty() && us {
        venue.state.to_string()
    } else {
        venue.province.to_string()
    }
}

fn apply_organizer_fields(organizer: &mut Organizer, args: &Args) {
    for (key, field) in organizer.text_fields_mut() {
        if let Some(value) = args.get(key) {
            *field = value_text(value).trim().into();
        }
    }
}

/// Part A 31: an existing item matches when every field the request provides matches it.
fn duplicate_of(ctx: &Ctx, data: &Data, args: &Args, kind: &Kind) -> Option<Id> {
    let same = |given: &str, have: &str| given.trim().to_lowercase() == have.trim().to_lowercase();
    let provided = |key: &str| args.get(key).map(value_text);
    let zone = &ctx.app.site_zone;
    let same_date = |key: &str, have: Option<chrono::NaiveDateTime>| {
        args.str(key).is_none_or(|text| parse_in(ctx, text, zone).is_some_and(|at| Some(at) == have))
    };
    let same_image = |have: Option<Id>| {
        args.get("image").is_none_or(|value| match as_int(value).filter(|id| *id > 0) {
            Some(id) => have == Some(id as Id),
            None => {
                let url = value_text(value);
                let known = have.and_then(|id| data.images.get(&id)).map(|image| &*image.url);
                if url.trim().is_empty() {
                    have.is_none()
                } else {
                    known == Some(url.trim())
                }
            }
        })
    };
    let matches_post = |post: &Post| {
        post.lang == ctx.lang
            && post.status != Status::Trash
            && provided(kind.word).is_some_and(|name| same(&name, &post.title))
            && provided("description").is_none_or(|d| same(&d, &post.content))
            && provided("excerpt").is_none_or(|e| same(&e, &post.excerpt))
            && provided("status").is_none_or(|status| status == post.status.name())
            && args.int("author").is_none_or(|author| author as Id == post.author)
            && same_date("date", Some(post.date))
            && same_date("date_utc", post.date_utc)
            && same_image(post.image)
    };
    let same_flag =
        |key: &str, have: Option<bool>| args.get(key).is_none_or(|value| is_truthy(value) == have.unwrap_or(true));
    let same_number = |key: &str, have: Option<f64>| args.get(key).and_then(as_number).is_none_or(|n| Some(n) == have);
    match kind.post_kind {
        PostKind::Venue => data
            .venues
            .values()
            .find(|venue| {
                matches_post(&venue.post)
                    && venue
                        .text_fields()
                        .iter()
                        .all(|(key, have)| provided(key).is_none_or(|given| same(&given, have)))
                    && same_flag("show_map", venue.show_map)
                    && same_flag("show_map_link", venue.show_map_link)
                    && same_number("geo_lat", venue.geo.map(|(lat, _)| lat))
                    && same_number("geo_lng", venue.geo.map(|(_, lng)| lng))
            })
            .map(|venue| venue.post.id),
        _ => data
            .organizers
            .values()
            .find(|organizer| {
                matches_post(&organizer.post)
                    && organizer
                        .text_fields()
                        .iter()
                        .all(|(key, have)| provided(key).is_none_or(|given| same(&given, have)))
            })
            .map(|organizer| organizer.post.id),
    }
}

fn update(ctx: &Ctx, request: &ApiRequest, kind: &Kind) -> ApiResult<Reply> {
    let mut data = ctx.app.store.write();
    let args = validated(ctx, &data, request)?;
    let id = find(ctx, &data, request, kind)?;
    authorize(ctx, &data, request.route, Op::Update, Some(id))?;
    match kind.post_kind {
        PostKind::Venue => {
            let Some(mut venue) = data.venues.get(&id).cloned() else { return Err(ApiError::invalid_param("id")) };
            update_post(ctx, &mut data, &mut venue.post, &args, kind.word, kind.slug_kind)?;
            apply_venue_fields(ctx, &mut venue, &args);
            data.put_venue(venue);
        }
        _ => {
            let Some(mut organizer) = data.organizers.get(&id).cloned() else {
                return Err(ApiError::invalid_param("id"));
            };
            update_post(ctx, &mut data, &mut organizer.post, &args, kind.word, kind.slug_kind)?;
            apply_organizer_fields(&mut organizer, &args);
            data.put_organizer(organizer);
        }
    }
    let view = View { ctx, data: &data, single: false };
    Ok(Reply::ok(render(&view, kind, id)))
}

fn list(ctx: &Ctx, request: &ApiRequest, kind: &Kind) -> ApiResult<Reply> {
    let data = ctx.app.store.read();
    let args = validated(ctx, &data, request)?;
    let page = Page::from_args(&args);
    let statuses = StatusFilter::from_args(ctx, &args);
    let search: Vec<String> =
        args.str("search").map(|text| text.split_whitespace().map(str::to_lowercase).collect()).unwrap_or_default();
    let event = args.int("event").map(|id| id as Id);
    let has_events = args.get("has_events").map(is_truthy);
    let upcoming = args.get("only_with_upcoming").is_some_and(is_truthy);
    let links = match kind.post_kind {
        PostKind::Venue => &data.venue_events,
        _ => &data.organizer_events,
    };
    let counts_as_linked = |id: Id, upcoming_only: bool| {
        links.get(&id).is_some_and(|events| {
            events.iter().filter_map(|event| data.events.get(event)).any(|event| {
                let visible = match event.post.status {
                    Status::Publish => true,
                    Status::Private => ctx.user.is_some_and(|user| user.can_read_post(event.post.author)),
                    _ => false,
                };
                visible && (!upcoming_only || event.start_utc >= ctx.now)
            })
        })
    };

    let mut items: Vec<(&Post, String)> = match kind.post_kind {
        PostKind::Venue => data
            .venues
            .values()
            .map(|v| {
                let text = v.text_fields().map(|(_, value)| value).join(" ");
                (&v.post, text)
            })
            .collect(),
        _ => data.organizers.values().map(|o| (&o.post, o.text_fields().map(|(_, value)| value).join(" "))).collect(),
    };
    items.retain(|(post, extra)| {
        post.lang == ctx.lang
            && post.status != Status::Trash
            && statuses.admits(post.status, post.author)
            && (search.is_empty() || {
                let haystack = format!("{} {} {} {}", post.title, post.content, post.excerpt, extra).to_lowercase();
                search.iter().all(|word| haystack.contains(word.as_str()))
            })
            && event.is_none_or(|event| links.get(&post.id).is_some_and(|events| events.contains(&event)))
            && has_events.is_none_or(|wanted| counts_as_linked(post.id, false) == wanted)
            && (!upcoming || counts_as_linked(post.id, true))
    });
    items.sort_by(|(a, _), (b, _)| b.date.cmp(&a.date).then(b.id.cmp(&a.id)));
    let total = items.len();
    let total_pages = page.total_pages(total);
    let shown: Vec<Id> = items.iter().skip(page.offset()).take(page.per_page).map(|(post, _)| post.id).collect();
    if page.number > 1 && shown.is_empty() {
        return Err(ApiError::of(&kind.page_not_found));
    }
    let view = View { ctx, data: &data, single: false };
    let rendered: Vec<Value> = shown.iter().map(|id| render(&view, kind, *id)).collect();
    let mut body = Map::new();
    body.insert(kind.collection.into(), json!(rendered));
    page_links(ctx, request, &args, LINKED_LIST_ARGS, kind.collection, &page, total_pages).insert_into(&mut body);
    body.insert("total".into(), json!(total));
    body.insert("total_pages".into(), json!(total_pages));
    Ok(Reply::ok(Value::Object(body))
        .header("x-tec-total", total.to_string())
        .header("x-tec-totalpages", total_pages.to_string()))
}

/// Turns an event's `venue` / `organizer` value into IDs, creating inline items (or finding
/// their duplicates) on the way. Empty values unlink.
pub fn resolve_entries(ctx: &Ctx, data: &mut Data, value: &Value, post_kind: PostKind) -> ApiResult<Vec<Id>> {
    let kind = if post_kind == PostKind::Venue { &VENUE } else { &ORGANIZER };
    let entries: Vec<Value> = match value {
        v if is_empty(v) => Vec::new(),
        Value::Array(items) => items.clone(),
        Value::Object(map) if map.contains_key("id") || map.contains_key(kind.word) => vec![value.clone()],
        Value::Object(map) => map.values().cloned().collect(),
        Value::String(text) => text.split(',').map(|piece| Value::String(piece.trim().to_string())).collect(),
        other => vec![other.clone()],
    };
    let mut ids = Vec::new();
    for entry in entries.iter().filter(|entry| !is_empty(entry)) {
        let id = match entry {
            Value::Object(map) => match map.get("id").filter(|id| !is_empty(id)) {
                Some(id) => as_int(id)
                    .map(|id| id as Id)
                    .filter(|id| data.kind(*id) == Some(post_kind))
                    .ok_or_else(|| ApiError::invalid_param(kind.word))?,
                None => create_inline(ctx, data, map, kind)?,
            },
            other => as_int(other)
                .map(|id| id as Id)
                .filter(|id| data.kind(*id) == Some(post_kind))
                .ok_or_else(|| ApiError::invalid_param(kind.word))?,
        };
        if !ids.contains(&id) {
            ids.push(id);
        }
    }
    Ok(ids)
}

fn create_inline(ctx: &Ctx, data: &mut Data, map: &Map<String, Value>, kind: &Kind) -> ApiResult<Id> {
    let params: Params = map.iter().map(|(key, value)| (key.clone(), value.clone())).collect();
    let fields = if kind.post_kind == PostKind::Venue { VENUE_FIELDS } else { ORGANIZER_FIELDS };
    let could_not = || ApiError::of(&kind.could_not_create);
    let args = validate(ctx, data, kind.resource, fields, &params).map_err(|_| could_not())?;
    create_from_args(ctx, data, &args, kind).map_err(|_| could_not())
}
