//! `GET /events`: the list. The date window and the statuses a caller sees come from the
//! request; `Selected` then finds the page and the total by the cheapest way that applies.

use std::sync::Arc;

use serde_json::Value;

use super::by_sets;
use super::counted;
use super::filter::EventFilter;
use crate::access::{is_protected_for, Reveal};
use crate::api::lists::{list_text, page_links, plugin_links, Page, StatusFilter};
use crate::api::validated;
use crate::api::write::parse_in;
use crate::app::Ctx;
use crate::dates::{end_of_day, start_of_day};
use crate::error::{ApiError, ApiResult};
use crate::http::{ApiRequest, Reply};
use crate::interface::{errors, EVENT_LIST_ARGS};
use crate::model::{Event, Id};
use crate::quirks::Quirk;
use crate::store::timeline::whole_seconds;
use crate::store::TimeWindow as Window;
use crate::store::{Data, Flag, Listing, Rec};
use crate::validate::{as_int, is_truthy, value_text, Args};
use crate::views::{EventSnapshot, Renderer};

/// The date window of a list (`store::TimeWindow`), from the request.
impl Window {
    /// `dates`: whether `start_date` and `end_date` are read (with `include` on a site with the
    /// `include-date-window` quirk they are not, and the default window applies).
    fn from_args(ctx: &Ctx, args: &Args, dates: bool) -> Window {
        let zone = &ctx.app.site_zone;
        let strict = args.get("strict_dates").is_some_and(is_truthy);
        let parse = |name: &str| args.get(name).and_then(|value| parse_in(ctx, &value_text(value), zone));
        let date = |name: &str| parse(name).filter(|_| dates);
        let to_utc = |local: chrono::NaiveDateTime| zone.local_to_utc(local);
        let day_end = |local: chrono::NaiveDateTime| if strict { local } else { end_of_day(local) };
        let relative =
            ["starts_before", "starts_after", "ends_before", "ends_after"].iter().any(|name| args.given(name));
        let today = start_of_day(ctx.local_now());
        let start = match date("start_date") {
            Some(local) => Some(if strict { local } else { start_of_day(local) }),
            None if !relative => Some(window_start(ctx, today)),
            None => None,
        };
        let end = match date("end_date") {
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

/// An events list's link parameters as the plugin writes them (`plugin-list-links`): the page,
/// the page size, the date window it applied (dates as the site's wall time; with `include` or
/// `strict_dates`, the defaults as they are, yesterday 23:59:00 and two years from now), the
/// search, the status, `post_parent`, `include`, the relative dates and `ticketed`, then
/// `venue`, `organizer` and `featured`; the term filters are left out.
fn plugin_pairs(ctx: &Ctx, args: &Args, page: &Page, window: &Window) -> (Pairs, Pairs) {
    let zone = &ctx.app.site_zone;
    let text = |at: chrono::NaiveDateTime| at.format("%Y-%m-%d %H:%M:%S").to_string();
    let strict = args.get("strict_dates").is_some_and(is_truthy);
    let parse = |name: &str| args.get(name).and_then(|value| parse_in(ctx, &value_text(value), zone));
    let relative = ["starts_before", "starts_after", "ends_before", "ends_after"].iter().any(|name| args.given(name));
    let raw_defaults = strict || args.given("include");
    let local = |utc: Option<chrono::NaiveDateTime>| utc.map(|at| text(zone.utc_to_local(at)));
    let now = ctx.local_now();
    let start = match parse("start_date") {
        Some(at) => Some(text(if strict { at } else { start_of_day(at) })),
        None if relative => None,
        None if raw_defaults => {
            Some(text((now.date() - chrono::TimeDelta::days(1)).and_hms_opt(23, 59, 0).unwrap_or(now)))
        }
        None => local(window.start_min),
    };
    let end = match parse("end_date") {
        Some(at) => Some(text(if strict { at } else { end_of_day(at) })),
        None if relative => None,
        None if raw_defaults => Some(text(add_years(now, 2))),
        None => local(window.end_max),
    };
    // A flag that is false leaves the link (the CMS drops an argument whose value is false).
    let flag = |value: &Value| is_truthy(value).then(|| "1".to_string());
    let list =
        |value: &Value| crate::validate::list_to_array(value).iter().map(value_text).collect::<Vec<_>>().join(",");
    let mut pairs =
        vec![("page".to_string(), page.number.to_string()), ("per_page".to_string(), page.per_page.to_string())];
    let mut push = |name: &str, value: Option<String>| pairs.extend(value.map(|value| (name.to_string(), value)));
    push("start_date", start);
    push("end_date", end);
    push("search", args.get("search").map(value_text));
    push("status", Some(crate::api::lists::plugin_status(ctx, args)));
    push("post_parent", args.get("post_parent").map(value_text));
    push("include", args.get("include").map(list));
    for name in ["starts_before", "starts_after", "ends_before", "ends_after"] {
        push(name, parse(name).map(|at| text(if strict { at } else { end_of_day(at) })));
    }
    push("ticketed", args.get("ticketed").and_then(flag));
    let extra = [("venue", args.get("venue").map(list)), ("organizer", args.get("organizer").map(list))];
    let extra = extra.into_iter().chain([("featured", args.get("featured").and_then(flag))]);
    (pairs, extra.filter_map(|(name, value)| Some((name.to_string(), value?))).collect())
}

/// Names and values of a link's query, in order.
type Pairs = Vec<(String, String)>;

/// Where the default window starts: today, or with the plugin's `window-from-yesterday` quirk
/// the start of the site's day that holds 23:59 UTC yesterday (yesterday at or west of UTC).
fn window_start(ctx: &Ctx, today: chrono::NaiveDateTime) -> chrono::NaiveDateTime {
    if !ctx.app.config.quirks.on(Quirk::WindowFromYesterday) {
        return today;
    }
    let yesterday = ctx.now.date() - chrono::TimeDelta::days(1);
    let late = yesterday.and_hms_opt(23, 59, 0).unwrap_or(ctx.now);
    start_of_day(ctx.app.site_zone.utc_to_local(late))
}

fn add_years(at: chrono::NaiveDateTime, years: i32) -> chrono::NaiveDateTime {
    use chrono::Datelike;
    at.with_year(at.year() + years)
        .or_else(|| at.date().pred_opt().and_then(|d| d.with_year(d.year() + years)).map(|d| d.and_time(at.time())))
        .unwrap_or(at)
}

pub(super) fn list(ctx: &Ctx, request: &ApiRequest) -> ApiResult<Reply> {
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
    // `include` lists the candidates and sets no date window (the plugin: the default one).
    let quirks = ctx.app.config.quirks;
    let by_publication = quirks.on(Quirk::IncludeByPublication);
    let (ids, total) = match include {
        Some(ids) if quirks.on(Quirk::IncludeDateWindow) => {
            selected.of_candidates(ids, Some(&Window::from_args(ctx, &args, false)), by_publication)
        }
        Some(ids) => selected.of_candidates(ids, None, by_publication),
        None => selected.in_window(&Window::from_args(ctx, &args, true)),
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
    let links = match quirks.on(Quirk::PluginListLinks) {
        true => {
            let window = Window::from_args(ctx, &args, true);
            let (pairs, extra) = plugin_pairs(ctx, &args, &page, &window);
            plugin_links(ctx, "events", &pairs, &extra, &page, total_pages)
        }
        false => page_links(ctx, request, &args, EVENT_LIST_ARGS, "events", &page, total_pages),
    };
    let renderer = Renderer::new(ctx);
    let body =
        list_text("events", &snapshots, &links, total, total_pages, |out, snapshot| renderer.event(out, snapshot));
    Ok(Reply::text(200, body)
        .header("x-tec-total", total.to_string())
        .header("x-tec-totalpages", total_pages.to_string()))
}

/// Debug builds check the promises of the cheaper ways (see docs/mutants.md): whatever way
/// answered, the walk of the window gives the same page and total; and a plain window (no
/// filter on the event but a flag, both bounds, at least a long event's length, statuses that
/// do not depend on the author) is counted on the timeline whenever every event's times are
/// whole seconds and its ID fits 32 bits, as the timeline promises.
macro_rules! check_list {
    ($selected:expr, $window:expr, $found:expr, $counted:expr) => {
        #[cfg(test)]
        let disabled = by_sets::DISABLED.with(std::cell::Cell::get);
        #[cfg(not(test))]
        let disabled = false;
        if cfg!(debug_assertions) && !disabled {
            let (selected, window): (&Selected, &Window) = (&$selected, $window);
            assert_eq!(&$found, &selected.walk(window), "a list answers as the walk of its window does");
            let data = selected.data;
            let whole = |at: chrono::NaiveDateTime| at.and_utc().timestamp_subsec_nanos() == 0;
            let held = data.events.values().all(|event| {
                u32::try_from(event.post.id).is_ok()
                    && whole(event.start)
                    && whole(event.start_utc)
                    && whole(event.end_utc)
            });
            let plain = window.starts_after.is_none()
                && window.starts_before.is_none()
                && window.ends_after.is_none()
                && window.ends_before.is_none()
                && window.start_min.zip(window.end_max).is_some_and(|(a, b)| b - a >= crate::store::SHORT_EVENT);
            let filter = selected.filter;
            if held
                && plain
                && (filter.is_trivial() || filter.only_flag())
                && selected.statuses.author_blind()
                && !data.sets.overflowed
            {
                assert!($counted, "a plain window of a whole timeline is counted on it");
            }
        }
    };
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
        let (found, counted) = self.cheapest(window);
        check_list!(self, window, found, counted);
        found
    }

    /// The page and the total by the cheapest way, and whether the timeline counted them.
    fn cheapest(&self, window: &Window) -> ((Vec<Id>, usize), bool) {
        if let Some(found) = self.on_timeline(window) {
            return (found, true);
        }
        if let Some(found) = by_sets::select(self.ctx, self.data, self.filter, self.statuses, window, self.page) {
            return (found, false);
        }
        let found = match self.filter.linked_candidates(self.data) {
            Some(ids) => self.of_candidates(ids, Some(window), false),
            None => self.walk(window),
        };
        (found, false)
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
    /// `by_publication`: ordered by publication date, not by start (`include` on the plugin).
    fn of_candidates(&self, mut ids: Vec<Id>, window: Option<&Window>, by_publication: bool) -> (Vec<Id>, usize) {
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
            .map(|event| (if by_publication { event.post.date } else { event.start }, event.post.id))
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
