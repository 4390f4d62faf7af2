//! `/events`: list, create, read, update and delete events.

use std::collections::HashMap;
use std::sync::Arc;

use roaring::RoaringBitmap;
use serde_json::Value;

use super::lists::{list_text, page_links, Page};
use super::write::{self, parse_in, Planner};
use super::{authorize, slug_key, validated};
use crate::access::{event_sight, is_protected_for, visible_organizers, visible_venue, Reveal, Sight};
use crate::app::Ctx;
use crate::dates::{end_of_day, start_of_day};
use crate::error::{ApiError, ApiResult};
use crate::http::{ApiRequest, Reply};
use crate::interface::{errors, Op, Target, EVENT_LIST_ARGS};
use crate::model::{Event, Id, PostKind, Status, Taxonomy};
use crate::store::timeline::whole_seconds;
use crate::store::TimeWindow as Window;
use crate::store::{search, Data, Flag, IdSet, Listing, Rec, SlugKind};
use crate::validate::{as_bool, as_int, is_truthy, value_text, Args};
use crate::views::{EventSnapshot, Renderer};

pub fn handle(ctx: &Ctx, request: &ApiRequest, op: Op) -> ApiResult<Reply> {
    match op {
        Op::List => list(ctx, request),
        Op::Create => create(ctx, request),
        Op::Read => read(ctx, request),
        Op::Update => update(ctx, request),
        Op::Delete => delete(ctx, request),
        _ => Err(ApiError::no_route()),
    }
}

// ----- finding the target -----

/// The event a single route names. By ID: 404 when nothing has the ID, 400 when it is not
/// an event. By slug: `None` when the slug is unknown (callers decide the error).
fn find(ctx: &Ctx, data: &Data, request: &ApiRequest) -> ApiResult<Option<Id>> {
    let var = request.var.as_deref().unwrap_or("");
    match request.route.target {
        Target::BySlug => Ok(data.slug_owner(SlugKind::Event, ctx.lang, &slug_key(var))),
        _ => {
            let id = var.parse::<Id>().unwrap_or(Id::MAX);
            match data.kind(id) {
                Some(PostKind::Event) => Ok(Some(id)),
                Some(_) => Err(ApiError::of(&errors::INVALID_EVENT_ID)),
                None => Err(not_found(var)),
            }
        }
    }
}

fn not_found(var: &str) -> ApiError {
    let shown = var.parse::<i64>().unwrap_or(if var.is_empty() { 0 } else { i64::MAX });
    ApiError::detailed(&errors::EVENT_NOT_FOUND, shown)
}

fn unknown_slug() -> ApiError {
    ApiError::invalid_param("slug")
}

// ----- read -----

fn read(ctx: &Ctx, request: &ApiRequest) -> ApiResult<Reply> {
    let snapshot = {
        let data = ctx.app.store.read();
        let args = validated(ctx, &data, request)?;
        let id = find(ctx, &data, request)?.ok_or_else(unknown_slug)?;
        let event = &data.events[&id];
        check_readable(ctx, event, &args)?;
        EventSnapshot::take(ctx, &data, event, false, true)
    };
    Ok(event_reply(ctx, 200, &snapshot))
}

/// An event answer, rendered once the store's lock is let go.
fn event_reply(ctx: &Ctx, status: u16, snapshot: &EventSnapshot) -> Reply {
    // A single event with its structured data takes some 6 KB.
    let mut out = Vec::with_capacity(8192);
    Renderer::new(ctx).event(&mut out, snapshot);
    Reply::text(status, out)
}

fn check_readable(ctx: &Ctx, event: &Event, args: &Args) -> ApiResult<()> {
    let reveal = Reveal { password: args.str("password"), edit_context: args.str("context") == Some("edit") };
    match event_sight(ctx, event, reveal) {
        Sight::Full => Ok(()),
        Sight::Protected => Err(ApiError::of(&errors::EVENT_PASSWORD_PROTECTED)),
        Sight::Hidden if event.post.status == Status::Trash => Err(ApiError::of(&errors::EVENT_NO_LONGER_AVAILABLE)),
        Sight::Hidden => Err(ApiError::of(&errors::EVENT_NOT_ACCESSIBLE)),
    }
}

// ----- delete -----

fn delete(ctx: &Ctx, request: &ApiRequest) -> ApiResult<Reply> {
    let snapshot = delete_planned(ctx, request)?;
    Ok(event_reply(ctx, 200, &snapshot))
}

fn delete_planned(ctx: &Ctx, request: &ApiRequest) -> ApiResult<EventSnapshot> {
    let mut data = ctx.app.store.write();
    validated(ctx, &data, request)?;
    let found = match find(ctx, &data, request) {
        Ok(found) => found,
        Err(error) if error.status == 404 => {
            authorize(ctx, &data, request.route, Op::Delete, None)?;
            return Err(error);
        }
        Err(error) => return Err(error),
    };
    let id = found.ok_or_else(unknown_slug)?;
    authorize(ctx, &data, request.route, Op::Delete, Some(id))?;
    if data.events[&id].post.status == Status::Trash {
        return Err(ApiError::of(&errors::EVENT_IN_TRASH));
    }
    let mut planner = Planner::new(ctx, &data);
    let trashed = write::event::plan_trash(&mut planner, id);
    // The answer shows the term counts as they were before the event left them, as the CMS
    // updates counts after the fact.
    let snapshot = EventSnapshot::detached(ctx, &data, trashed, false);
    let changes = planner.finish();
    data.apply(changes);
    Ok(snapshot)
}

// ----- create and update -----

fn create(ctx: &Ctx, request: &ApiRequest) -> ApiResult<Reply> {
    let mut data = ctx.app.store.write();
    let args = validated(ctx, &data, request)?;
    authorize(ctx, &data, request.route, Op::Create, None)?;
    let mut planner = Planner::new(ctx, &data);
    let id = write::event::plan_create(&mut planner, &args)?;
    let changes = planner.finish();
    data.apply(changes);
    let snapshot = EventSnapshot::take(ctx, &data, &data.events[&id], false, false).written();
    drop(data);
    Ok(event_reply(ctx, 201, &snapshot))
}

fn update(ctx: &Ctx, request: &ApiRequest) -> ApiResult<Reply> {
    let mut data = ctx.app.store.write();
    let args = validated(ctx, &data, request)?;
    let found = match find(ctx, &data, request) {
        Ok(found) => found,
        Err(error) if error.status == 404 => {
            authorize(ctx, &data, request.route, Op::Update, None)?;
            return Err(error);
        }
        Err(error) => return Err(error),
    };
    authorize(ctx, &data, request.route, Op::Update, found)?;
    let id = found.ok_or_else(|| not_found("0"))?;
    let mut planner = Planner::new(ctx, &data);
    write::event::plan_update(&mut planner, &args, id)?;
    let changes = planner.finish();
    data.apply(changes);
    let snapshot = EventSnapshot::take(ctx, &data, &data.events[&id], false, false).written();
    drop(data);
    Ok(event_reply(ctx, 200, &snapshot))
}

// ----- list -----

/// The date window of a list (`store::TimeWindow`), from the request.
impl Window {
    fn from_args(ctx: &Ctx, args: &Args) -> Window {
        let zone = &ctx.app.site_zone;
        let strict = args.get("strict_dates").is_some_and(is_truthy);
        let parse = |name: &str| args.get(name).and_then(|value| parse_in(ctx, &value_text(value), zone));
        let to_utc = |local: chrono::NaiveDateTime| zone.local_to_utc(local);
        let day_end = |local: chrono::NaiveDateTime| if strict { local } else { end_of_day(local) };
        let relative =
            ["starts_before", "starts_after", "ends_before", "ends_after"].iter().any(|name| args.given(name));
        let today = start_of_day(ctx.local_now());
        let start = match parse("start_date") {
            Some(local) => Some(if strict { local } else { start_of_day(local) }),
            None if !relative => Some(today),
            None => None,
        };
        let end = match parse("end_date") {
            Some(local) => Some(day_end(local)),
            None if !relative => Some(end_of_day(add_years(today, 2))),
            None => None,
        };
        Window {
            start_min: start.map(to_utc),
            end_max: end.map(to_utc),
            starts_after: parse("starts_after").map(day_end).map(to_utc),
            starts_before: parse("starts_before").map(day_end).map(to_utc),
            ends_after: parse("ends_after").map(day_end).map(to_utc),
            ends_before: parse("ends_before").map(day_end).map(to_utc),
        }
    }
}

fn add_years(at: chrono::NaiveDateTime, years: i32) -> chrono::NaiveDateTime {
    use chrono::Datelike;
    at.with_year(at.year() + years)
        .or_else(|| at.date().pred_opt().and_then(|d| d.with_year(d.year() + years)).map(|d| d.and_time(at.time())))
        .unwrap_or(at)
}

/// Which statuses the user sees in lists, and whether unpublished ones must be their own.
pub struct StatusFilter {
    pub allowed: Vec<Status>,
    pub own_unpublished_only: bool,
    pub user: Id,
}

impl StatusFilter {
    pub fn from_args(ctx: &Ctx, args: &Args) -> StatusFilter {
        let user = ctx.user;
        let requested: Option<Vec<Status>> =
            args.list("status").map(|items| items.iter().filter_map(|item| Status::parse(&value_text(item))).collect());
        let may_see_unpublished = user.is_some_and(|user| user.can_edit_posts());
        let allowed = match requested {
            Some(list) => list,
            None if may_see_unpublished => {
                vec![Status::Publish, Status::Future, Status::Draft, Status::Pending, Status::Private]
            }
            None => vec![Status::Publish],
        };
        // Each status once: totals add up per-status counts.
        let mut distinct: Vec<Status> = Vec::new();
        for status in allowed {
            if status != Status::Trash && !distinct.contains(&status) {
                distinct.push(status);
            }
        }
        StatusFilter {
            allowed: distinct,
            own_unpublished_only: !user.is_some_and(|user| user.can_edit_others()),
            user: ctx.user_id(),
        }
    }

    /// True when what the user sees does not depend on who wrote it.
    pub fn author_blind(&self) -> bool {
        !self.own_unpublished_only || self.allowed.iter().all(|status| *status == Status::Publish)
    }

    pub fn admits(&self, status: Status, author: Id) -> bool {
        self.allowed.contains(&status)
            && (status == Status::Publish || !self.own_unpublished_only || author == self.user)
    }
}

fn list(ctx: &Ctx, request: &ApiRequest) -> ApiResult<Reply> {
    let data = ctx.app.store.read();
    let args = validated(ctx, &data, request)?;
    let page = Page::from_args(&args);
    let statuses = StatusFilter::from_args(ctx, &args);
    // `password` is not a list argument, but the plugin reveals protected events with it.
    let params = request.params();
    let password = params.get("password").and_then(Value::as_str);
    let filter = EventFilter::from_args(ctx, &data, &args, password);
    let include: Option<Vec<Id>> =
        args.list("include").map(|items| items.iter().filter_map(as_int).map(|id| id as Id).collect());
    let selected = Selected { ctx, data: &data, filter: &filter, statuses: &statuses, page: &page };
    // `include` lists the candidates and sets no date window.
    let (ids, total) = match include {
        Some(ids) => selected.of_candidates(ids, None),
        None => selected.in_window(&Window::from_args(ctx, &args)),
    };
    let matched: Vec<&Arc<Rec<Event>>> = ids.iter().filter_map(|id| data.events.get(id)).collect();
    let total_pages = page.total_pages(total);
    if page.number > 1 && matched.is_empty() {
        return Err(ApiError::of(&errors::EVENT_PAGE_NOT_FOUND));
    }
    let reveal = Reveal { password, edit_context: false };
    let snapshots: Vec<EventSnapshot> = matched
        .iter()
        .map(|event| EventSnapshot::take(ctx, &data, event, is_protected_for(ctx, &event.post, reveal), false))
        .collect();
    drop(data);
    let links = page_links(ctx, request, &args, EVENT_LIST_ARGS, "events", &page, total_pages);
    let renderer = Renderer::new(ctx);
    let body =
        list_text("events", &snapshots, &links, total, total_pages, |out, snapshot| renderer.event(out, snapshot));
    Ok(Reply::text(200, body)
        .header("x-tec-total", total.to_string())
        .header("x-tec-totalpages", total_pages.to_string()))
}

/// What a list request selects: the IDs of its page's events, in list order, and the total.
struct Selected<'a> {
    ctx: &'a Ctx<'a>,
    data: &'a Data,
    filter: &'a EventFilter<'a>,
    statuses: &'a StatusFilter,
    page: &'a Page,
}

impl Selected<'_> {
    /// The events of a date window, by the cheapest way that applies: the store's timeline
    /// (no filter on the event itself, or only a flag), its ID sets (only set filters), the
    /// link indexes (a filter names linked items), or else a walk of the window.
    fn in_window(&self, window: &Window) -> (Vec<Id>, usize) {
        if let Some(found) = self.on_timeline(window) {
            return found;
        }
        if let Some(found) = by_sets::select(self.ctx, self.data, self.filter, self.statuses, window, self.page) {
            return found;
        }
        match self.filter.linked_candidates(self.data) {
            Some(ids) => self.of_candidates(ids, Some(window)),
            None => self.walk(window),
        }
    }

    /// Counted and found on the timeline (see `counted`), when the window is a plain one.
    fn on_timeline(&self, window: &Window) -> Option<(Vec<Id>, usize)> {
        #[cfg(test)]
        if by_sets::DISABLED.with(std::cell::Cell::get) {
            return None;
        }
        let flag = match self.filter.is_trivial() {
            true => None,
            false => Some(self.filter.flag().filter(|_| self.filter.only_flag())?),
        };
        if !self.statuses.author_blind() || self.data.sets.overflowed {
            return None;
        }
        // As `EventFilter::admits` decides: a filter on what a password hides (`featured`; not
        // `ticketed`) leaves out the protected events.
        let left_out = match flag {
            Some(flag) if self.filter.looks_at_protected() => self.protected_flagged(window, flag),
            _ => Vec::new(),
        };
        let selection = counted::Selection { lang: self.ctx.lang, allowed: &self.statuses.allowed, flag, left_out };
        let total = counted::counted_total(self.data, &selection, window)?;
        let ids = counted::page(self.data, &selection, window, self.page.offset(), self.page.per_page)?;
        #[cfg(test)]
        counted::USED.with(|used| {
            let mut counts = used.get();
            counts[usize::from(flag.is_some())] += 1;
            used.set(counts);
        });
        Some((ids, total))
    }

    /// The events with a password in the window that are protected from this caller, among
    /// those with `flag`: by local start (seconds) and ID.
    fn protected_flagged(&self, window: &Window, flag: Flag) -> Vec<(i64, u32)> {
        let reveal = Reveal { password: self.filter.password, edit_context: true };
        let wanted = |event: &Event| {
            event.post.lang == self.ctx.lang
                && !event.hide_from_listings
                && self.statuses.allowed.contains(&event.post.status)
                && window.contains(event)
                && is_protected_for(self.ctx, &event.post, reveal)
        };
        (self.data.sets.passworded() & self.data.sets.flagged(flag))
            .iter()
            .filter_map(|key| {
                let event = self.data.events.get(&Id::from(key)).filter(|event| wanted(event))?;
                Some((whole_seconds(event.start)?, key))
            })
            .collect()
    }

    /// The candidates that pass, in list order: only those up to the page are sorted.
    fn of_candidates(&self, mut ids: Vec<Id>, window: Option<&Window>) -> (Vec<Id>, usize) {
        let (ctx, data, statuses) = (self.ctx, self.data, self.statuses);
        let admits = |event: &Event| {
            event.post.lang == ctx.lang
                && !event.hide_from_listings
                && statuses.admits(event.post.status, event.post.author)
                && window.is_none_or(|window| window.contains(event))
                && self.filter.admits(ctx, data, event)
        };
        ids.sort_unstable();
        ids.dedup();
        let mut passing: Vec<(chrono::NaiveDateTime, Id)> = ids
            .iter()
            .filter_map(|id| data.events.get(id))
            .filter(|event| admits(event))
            .map(|event| (event.start, event.post.id))
            .collect();
        let end = self.page.offset().saturating_add(self.page.per_page).min(passing.len());
        if end > 0 {
            passing.select_nth_unstable(end - 1);
            passing[..end].sort_unstable();
        }
        let page = passing[self.page.offset().min(end)..end].iter().map(|(_, id)| *id).collect();
        (page, passing.len())
    }

    /// Walks the list order through a window: every event that passes is counted, and those
    /// on the page are kept.
    fn walk(&self, window: &Window) -> (Vec<Id>, usize) {
        let (ctx, data, filter, statuses, page) = (self.ctx, self.data, self.filter, self.statuses, self.page);
        let listed = |listing: &Listing| {
            listing.lang == ctx.lang
                && !listing.hidden
                && statuses.admits(listing.status, listing.author)
                && window.contains_times(listing.start_utc, listing.end_utc)
        };
        // Without event-level filters the index alone decides: no record is read.
        let trivial = filter.is_trivial();
        let (from, last) = window.walk_bounds();
        // A list of featured (or ticketed) events walks those only; when the flag is the only
        // filter, an event without a password is decided by its listing alone.
        type Walk<'w> = Box<dyn Iterator<Item = (chrono::NaiveDateTime, Id, &'w Listing)> + 'w>;
        let (walk, flag_only): (Walk, bool) = match filter.flag() {
            Some(flag) => (
                Box::new(
                    data.flagged
                        .range((flag, from, 0)..=(flag, chrono::NaiveDateTime::MAX, Id::MAX))
                        .map(|((_, start, id), listing)| (*start, *id, listing)),
                ),
                filter.only_flag(),
            ),
            None => (
                Box::new(data.events_by_start.range((from, 0)..).map(|((start, id), listing)| (*start, *id, listing))),
                false,
            ),
        };
        let (mut ids, mut total) = (Vec::with_capacity(page.per_page), 0);
        for (start, id, listing) in walk {
            if last.is_some_and(|last| start > last) {
                break;
            }
            if listed(listing)
                && (trivial || (flag_only && !listing.password) || filter.admits(ctx, data, &data.events[&id]))
            {
                total += 1;
                if total > page.offset() && ids.len() < page.per_page {
                    ids.push(id);
                }
            }
        }
        (ids, total)
    }
}

/// The list filters other than dates and status.
struct EventFilter<'a> {
    /// The `password` the request gives, which reveals a protected event.
    password: Option<&'a str>,
    search: Vec<String>,
    categories: Option<Vec<Id>>,
    tags: Option<Vec<Id>>,
    venues: Option<Vec<Id>>,
    organizers: Option<Vec<Id>>,
    /// The search index's answer for the search words, when it can give one.
    hits: Option<SearchHits>,
    featured: Option<bool>,
    parent: Option<Id>,
    geoloc: Option<bool>,
    near: Option<(f64, f64)>,
    ticketed: Option<bool>,
}

/// The events that hold every search word: anywhere (`all`, each word in the title, excerpt
/// or description), and in the title (`title`, what a protected event is matched on).
struct SearchHits {
    all: RoaringBitmap,
    title: RoaringBitmap,
}

impl SearchHits {
    fn of(data: &Data, words: &[String]) -> Option<SearchHits> {
        if words.is_empty() || data.search.overflowed {
            return None;
        }
        let mut hits: Option<SearchHits> = None;
        for word in words {
            let found = data.search.matches(word);
            let all = &found.title | &found.body;
            match &mut hits {
                None => hits = Some(SearchHits { all, title: found.title }),
                Some(hits) => {
                    hits.all &= all;
                    hits.title &= found.title;
                }
            }
        }
        hits
    }

    fn holds(&self, id: Id, title_only: bool) -> bool {
        let Some(key) = search::key(id) else { return false };
        if title_only {
            self.title.contains(key)
        } else {
            self.all.contains(key)
        }
    }
}

/// How far from `geoloc_lat`/`geoloc_lng` a venue may be, in kilometres.
const GEOFENCE_KM: f64 = 25.0;

impl<'a> EventFilter<'a> {
    fn from_args(ctx: &Ctx, data: &Data, args: &Args, password: Option<&'a str>) -> EventFilter<'a> {
        // Sorted, for membership tests by binary search (a category with thousands of
        // descendants stays cheap to test).
        let sorted = |mut ids: Vec<Id>| {
            ids.sort_unstable();
            ids.dedup();
            ids
        };
        let ids = |name: &str| -> Option<Vec<Id>> {
            args.list(name).map(|items| sorted(items.iter().filter_map(as_int).map(|id| id as Id).collect()))
        };
        let terms = |name: &str, taxonomy: Taxonomy| -> Option<Vec<Id>> {
            args.list(name).map(|items| {
                let ids: Vec<Id> =
                    items.iter().filter_map(|item| data.find_term(taxonomy, ctx.lang, &value_text(item))).collect();
                // A category includes its descendants.
                sorted(if taxonomy == Taxonomy::Category { data.with_descendants(&ids) } else { ids })
            })
        };
        let geo_on = ctx.app.config.features.geoloc;
        let near = match (
            args.get("geoloc_lat").and_then(crate::validate::as_number),
            args.get("geoloc_lng").and_then(crate::validate::as_number),
        ) {
            (Some(lat), Some(lng)) if geo_on => Some((lat, lng)),
            _ => None,
        };
        let search: Vec<String> =
            args.str("search").map(|text| text.split_whitespace().map(str::to_lowercase).collect()).unwrap_or_default();
        EventFilter {
            password,
            hits: SearchHits::of(data, &search),
            search,
            categories: terms("categories", Taxonomy::Category),
            tags: terms("tags", Taxonomy::Tag),
            venues: ids("venue"),
            organizers: ids("organizer"),
            featured: args.bool("featured"),
            parent: args.int("post_parent").map(|id| id as Id),
            geoloc: args.get("geoloc").and_then(as_bool).filter(|_| geo_on),
            near,
            ticketed: args.bool("ticketed").filter(|_| ctx.app.config.features.tickets),
        }
    }

    /// The events linked to the items a filter names or holding the search words, from the
    /// smallest index that applies (only that one is read); `None` when no such filter is
    /// given.
    fn linked_candidates(&self, data: &Data) -> Option<Vec<Id>> {
        let parent: Option<Vec<Id>> = self.parent.map(|parent| vec![parent]);
        let linked = [
            (&data.term_events, &self.categories),
            (&data.term_events, &self.tags),
            (&data.venue_events, &self.venues),
            (&data.organizer_events, &self.organizers),
            (&data.parent_events, &parent),
        ];
        // Sizes first (a set knows its length): an item with thousands of events costs
        // nothing when another filter names fewer.
        let size = |index: &HashMap<Id, IdSet>, keys: &[Id]| -> usize {
            keys.iter().filter_map(|key| index.get(key)).map(IdSet::len).sum()
        };
        let smallest = linked
            .iter()
            .filter_map(|(index, keys)| keys.as_ref().map(|keys| (size(index, keys), *index, keys.as_slice())))
            .min_by_key(|(size, _, _)| *size);
        let from_hits = self.hits.as_ref().map(|hits| hits.all.len() as usize);
        match smallest {
            Some((size, index, keys)) if from_hits.is_none_or(|hits| size <= hits) => {
                let mut ids: Vec<Id> = keys.iter().filter_map(|key| index.get(key)).flat_map(IdSet::iter).collect();
                ids.sort_unstable();
                ids.dedup();
                Some(ids)
            }
            _ => self.hits.as_ref().map(|hits| hits.all.iter().map(Id::from).collect()),
        }
    }

    /// The flag whose index a walk may use: `featured=true` or `ticketed=true`.
    fn flag(&self) -> Option<Flag> {
        if self.featured == Some(true) {
            Some(Flag::Featured)
        } else if self.ticketed == Some(true) {
            Some(Flag::Ticketed)
        } else {
            None
        }
    }

    /// True when the flag of [`EventFilter::flag`] is the only filter on the event itself.
    fn only_flag(&self) -> bool {
        let other_flag = match self.flag() {
            Some(Flag::Featured) => self.ticketed.is_some(),
            Some(Flag::Ticketed) => self.featured.is_some(),
            None => return false,
        };
        !other_flag && self.search.is_empty() && self.no_linked_or_place_filter()
    }

    /// True when the filters are search words and flags only, and at least one is given
    /// (see `by_sets`).
    fn only_set_filters(&self) -> bool {
        (!self.search.is_empty() || self.featured.is_some() || self.ticketed.is_some())
            && self.no_linked_or_place_filter()
    }

    /// True when no filter names linked items (terms, venues, organizers, a parent) or a place.
    fn no_linked_or_place_filter(&self) -> bool {
        self.categories.is_none()
            && self.tags.is_none()
            && self.venues.is_none()
            && self.organizers.is_none()
            && self.parent.is_none()
            && self.geoloc.is_none()
            && self.near.is_none()
    }

    /// True when no filter looks at the event record itself.
    fn is_trivial(&self) -> bool {
        self.search.is_empty()
            && self.categories.is_none()
            && self.tags.is_none()
            && self.venues.is_none()
            && self.organizers.is_none()
            && self.featured.is_none()
            && self.parent.is_none()
            && self.geoloc.is_none()
            && self.near.is_none()
            && self.ticketed.is_none()
    }

    /// True when a filter looks at what a password hides (links, flags; `search` is apart:
    /// it may still match the title, which lists show anyway).
    fn looks_at_protected(&self) -> bool {
        self.categories.is_some()
            || self.tags.is_some()
            || self.venues.is_some()
            || self.organizers.is_some()
            || self.featured.is_some()
            || self.geoloc.is_some()
            || self.near.is_some()
    }

    fn admits(&self, ctx: &Ctx, data: &Data, event: &Event) -> bool {
        let any = |wanted: &Option<Vec<Id>>, have: &[Id]| {
            wanted.as_ref().is_none_or(|ids| have.iter().any(|id| ids.binary_search(id).is_ok()))
        };
        let post = &event.post;
        // A protected event is selected on nothing its password hides for a caller who could
        // not read it (no password, no right to edit it): filters must not be an oracle on
        // protected content. A search still matches its title, which the list shows anyway.
        let protected = (self.looks_at_protected() || !self.search.is_empty())
            && is_protected_for(ctx, post, Reveal { password: self.password, edit_context: true });
        if protected && self.looks_at_protected() {
            return false;
        }
        let found = match &self.hits {
            Some(hits) => hits.holds(post.id, protected),
            None => {
                let searched: &[&str] =
                    if protected { &[&post.title] } else { &[&post.title, &post.excerpt, &post.content] };
                self.search.iter().all(|word| searched.iter().any(|text| contains_ignoring_case(text, word)))
            }
        };
        if !found {
            return false;
        }
        // Links count only to linked items the caller may read (looked at only when a filter
        // names them, so other filters cost what they did).
        let venue_matches = || {
            self.venues.as_ref().is_none_or(|ids| {
                visible_venue(ctx, data, event).is_some_and(|venue| ids.binary_search(&venue.post.id).is_ok())
            })
        };
        let organizers_match = || {
            self.organizers.as_ref().is_none_or(|ids| {
                visible_organizers(ctx, data, event).any(|organizer| ids.binary_search(&organizer.post.id).is_ok())
            })
        };
        let venue_geo = || visible_venue(ctx, data, event).and_then(|venue| venue.geo);
        any(&self.categories, &event.categories)
            && any(&self.tags, &event.tags)
            && venue_matches()
            && organizers_match()
            && self.featured.is_none_or(|featured| event.featured == featured)
            && self.parent.is_none_or(|parent| {
                // A parent the caller may not read selects nothing.
                let readable = data
                    .events
                    .get(&parent)
                    .is_some_and(|parent| event_sight(ctx, parent, Reveal::default()) != Sight::Hidden);
                event.parent == Some(parent) && readable
            })
            && self.geoloc.is_none_or(|wanted| venue_geo().is_some() == wanted)
            && self.near.is_none_or(|(lat, lng)| {
                venue_geo().is_some_and(|(vlat, vlng)| distance_km(lat, lng, vlat, vlng) <= GEOFENCE_KM)
            })
            && self.ticketed.is_none_or(|ticketed| event.ticketed == ticketed)
    }
}

/// Whether `text` contains `word` (already lowercase), without allocating for ASCII text.
pub fn contains_ignoring_case(text: &str, word: &str) -> bool {
    if text.is_ascii() && word.is_ascii() {
        let (text, word) = (text.as_bytes(), word.as_bytes());
        return word.is_empty() || text.windows(word.len()).any(|window| window.eq_ignore_ascii_case(word));
    }
    text.to_lowercase().contains(word)
}

/// Great-circle distance.
fn distance_km(lat1: f64, lng1: f64, lat2: f64, lng2: f64) -> f64 {
    let (lat1, lat2) = (lat1.to_radians(), lat2.to_radians());
    let dlat = lat2 - lat1;
    let dlng = (lng2 - lng1).to_radians();
    let a = (dlat / 2.0).sin().powi(2) + lat1.cos() * lat2.cos() * (dlng / 2.0).sin().powi(2);
    6371.0 * 2.0 * a.sqrt().min(1.0).asin()
}

mod by_sets;
mod counted;
#[cfg(test)]
mod tests;
