//! Planning event writes: create, update, trash.

use super::{parse_in, Planner};
use crate::app::Ctx;
use crate::cost::store_cost;
use crate::dates::{converting_zone, end_of_day, start_of_day, Zone};
use crate::error::{ApiError, ApiResult};
use crate::interface::errors;
use crate::model::{Event, Id, PostKind, Status, Taxonomy};
use crate::quirks::Quirk;
use crate::store::SlugKind;
use crate::validate::{value_text, Args};

/// A new event from the create arguments; its ID.
pub fn plan_create(planner: &mut Planner, args: &Args) -> ApiResult<Id> {
    let ctx = planner.ctx;
    let id = planner.post_id();
    let post = planner.new_post(args, "title", SlugKind::Event, id)?;
    let zone = match args.str("timezone").filter(|name| !name.is_empty()) {
        Some(name) => Zone::parse(name).unwrap_or_else(|| ctx.app.site_zone.clone()),
        None => ctx.app.site_zone.clone(),
    };
    let start = args.str("start_date").and_then(|text| event_date(ctx, text, &zone)).unwrap_or(ctx.now);
    let end = args.str("end_date").and_then(|text| event_date(ctx, text, &zone)).unwrap_or(start);
    let mut event = Event {
        post,
        zone,
        start,
        end,
        start_utc: start,
        end_utc: end,
        all_day: args.bool("all_day").unwrap_or(false),
        cost: args.get("cost").and_then(store_cost).unwrap_or_default(),
        website: args.text("website").filter(|site| !site.is_empty()).map(Into::into),
        show_map: args.bool("show_map").unwrap_or(false),
        show_map_link: args.bool("show_map_link").unwrap_or(false),
        hide_from_listings: args.bool("hide_from_listings").unwrap_or(false),
        sticky: args.bool("sticky").unwrap_or(false),
        featured: args.bool("featured").unwrap_or(false),
        ticketed: args.bool("ticketed").unwrap_or(false),
        categories: Vec::new(),
        tags: Vec::new(),
        venue: None,
        organizers: Vec::new(),
        parent: args.int("post_parent").map(|id| id as Id),
    };
    plan_links(planner, &mut event, args)?;
    event.post.password = args.str("password").filter(|p| !p.is_empty()).map(Into::into);
    normalise_schedule(ctx, &mut event);
    planner.changes().events.push(event);
    Ok(id)
}

/// The event `id` with the fields the update arguments carry.
pub fn plan_update(planner: &mut Planner, args: &Args, id: Id) -> ApiResult<()> {
    let ctx = planner.ctx;
    let mut event = Event::clone(&planner.data.events[&id]);
    planner.update_post(&mut event.post, args, "title", SlugKind::Event)?;
    let resets = ctx.app.config.quirks.on(Quirk::UpdateResets);
    if resets {
        reset_left_out(ctx, &mut event, args);
    }
    let old_zone = event.zone.clone();
    if let Some(name) = args.get("timezone") {
        let name = value_text(name);
        event.zone = if name.is_empty() { ctx.app.site_zone.clone() } else { Zone::parse(&name).unwrap_or(old_zone) };
    }
    // The plugin's `lone-date-ignored` quirk: one of the two dates alone changes nothing.
    let lone_date = args.given("start_date") != args.given("end_date");
    let dates = !(lone_date && ctx.app.config.quirks.on(Quirk::LoneDateIgnored));
    if let Some(start) = args.str("start_date").filter(|_| dates).and_then(|text| event_date(ctx, text, &event.zone)) {
        event.start = start;
    }
    if let Some(end) = args.str("end_date").filter(|_| dates).and_then(|text| event_date(ctx, text, &event.zone)) {
        event.end = end;
    }
    if let Some(all_day) = args.bool("all_day") {
        event.all_day = all_day;
    }
    if let Some(cost) = args.get("cost") {
        event.cost = store_cost(cost).unwrap_or_default();
    }
    if let Some(website) = args.get("website") {
        event.website = Some(value_text(website).into());
    }
    for (key, flag) in [
        ("show_map", &mut event.show_map),
        ("show_map_link", &mut event.show_map_link),
        ("hide_from_listings", &mut event.hide_from_listings),
        ("sticky", &mut event.sticky),
        ("featured", &mut event.featured),
        ("ticketed", &mut event.ticketed),
    ] {
        if let Some(value) = args.bool(key) {
            *flag = value;
        }
    }
    if let Some(parent) = args.int("post_parent") {
        event.parent = (parent as Id != id).then_some(parent as Id);
    }
    if let Some(password) = args.get("password") {
        let password = value_text(password);
        event.post.password = (!password.is_empty()).then(|| password.into());
    }
    plan_links(planner, &mut event, args)?;
    normalise_schedule(ctx, &mut event);
    let naive = ctx.app.config.quirks.on(Quirk::NaiveDates);
    let schedule = ["start_date", "end_date", "all_day"].iter().any(|key| args.given(key));
    let zone_only = naive && !schedule;
    if zone_only || (resets && !schedule && !args.given("timezone")) {
        // The plugin stores no schedule then: the UTC times stay what they were, whatever the zone.
        let before = &planner.data.events[&id];
        (event.start_utc, event.end_utc) = (before.start_utc, before.end_utc);
    }
    redate_sticky_draft(ctx, &mut event, planner.data.events[&id].sticky);
    planner.changes().events.push(event);
    Ok(())
}

/// The plugin's `update-resets` quirk: what an event update leaves out goes back to its default
/// (the flags, `all_day`, `website`, `cost`, the zone, which becomes the site's, and the
/// publication date, which becomes the time of the update) and the organizers it leaves out are
/// unlinked; the venue, terms and texts stay.
fn reset_left_out(ctx: &Ctx, event: &mut Event, args: &Args) {
    if !args.given("date") && !args.given("date_utc") {
        // An unpublished post keeps no UTC date (the CMS's zero date), as at its create.
        let dated = matches!(event.post.status, Status::Publish | Status::Future | Status::Private);
        event.post.date = ctx.local_now();
        event.post.date_utc = dated.then_some(ctx.now);
    }
    for (key, flag) in [
        ("show_map", &mut event.show_map),
        ("show_map_link", &mut event.show_map_link),
        ("hide_from_listings", &mut event.hide_from_listings),
        ("sticky", &mut event.sticky),
        ("featured", &mut event.featured),
        ("all_day", &mut event.all_day),
    ] {
        if !args.given(key) {
            *flag = false;
        }
    }
    if !args.given("website") {
        event.website = Some(Box::from(""));
    }
    if !args.given("cost") {
        event.cost = Default::default();
    }
    if !args.given("timezone") {
        event.zone = ctx.app.site_zone.clone();
    }
    if !args.given("organizer") {
        event.organizers.clear();
    }
}

/// The plugin's `sticky-draft-redated` quirk: an update that turns an unpublished event's
/// sticky flag on or off makes a second save of the post, which the CMS dates at its own time
/// (an unpublished post without a UTC date gets the time of the save).
fn redate_sticky_draft(ctx: &Ctx, event: &mut Event, was_sticky: bool) {
    let unpublished = matches!(event.post.status, Status::Draft | Status::Pending);
    if ctx.app.config.quirks.on(Quirk::StickyDraftRedated) && unpublished && event.sticky != was_sticky {
        event.post.date = ctx.local_now();
        event.post.date_utc = None;
    }
}

/// The event `id`, moved to the trash; the record as it will be stored.
pub fn plan_trash(planner: &mut Planner, id: Id) -> Event {
    let mut event = Event::clone(&planner.data.events[&id]);
    planner.trash(&mut event.post, SlugKind::Event);
    planner.changes().events.push(event.clone());
    event
}

/// All-day bounds, end not before start, and the UTC times from the local ones (with the
/// plugin's `naive-dates` quirk, the UTC end of an end moved to the start stays the given end's).
fn normalise_schedule(ctx: &Ctx, event: &mut Event) {
    if event.all_day {
        event.start = start_of_day(event.start);
        event.end = end_of_day(event.end);
    }
    let given_end = event.end;
    if event.end < event.start {
        event.end = event.start;
    }
    let zone = converting_zone(&event.zone, ctx.app.config.quirks.on(Quirk::OffsetZones));
    event.start_utc = zone.local_to_utc(event.start);
    let naive = ctx.app.config.quirks.on(Quirk::NaiveDates);
    event.end_utc = zone.local_to_utc(if naive { given_end } else { event.end });
}

/// An event's `start_date` or `end_date` read in its zone. With the plugin's `naive-dates`
/// quirk, an offset or zone written after the time is dropped (the wall time is the event's), and
/// a Unix timestamp gives its UTC wall time, read in the event's zone.
fn event_date(ctx: &Ctx, text: &str, zone: &Zone) -> Option<chrono::NaiveDateTime> {
    if !ctx.app.config.quirks.on(Quirk::NaiveDates) {
        return parse_in(ctx, text, zone);
    }
    let text = without_offset(text);
    let digits = text.trim();
    if digits.len() >= 9 && digits.bytes().all(|b| b.is_ascii_digit()) {
        return parse_in(ctx, digits, &Zone::Named(chrono_tz::UTC));
    }
    parse_in(ctx, text, zone)
}

/// The text without an offset or zone after its time: `Z`, `+02`, `+0200`, `+02:00`, ` UTC`,
/// ` GMT`, ` GMT+01:00`. Text without a time (no colon before the sign) is kept whole.
fn without_offset(text: &str) -> &str {
    let text = text.trim_end();
    let has_time = |head: &str| head.contains(':');
    if let Some(head) = text.strip_suffix(['Z', 'z']) {
        if head.ends_with(|c: char| c.is_ascii_digit()) && has_time(head) {
            return head;
        }
    }
    let zone_name = |head: &str| -> Option<usize> {
        let trimmed = head.trim_end();
        ["UTC", "GMT"].iter().find_map(|name| trimmed.strip_suffix(name)).map(str::len)
    };
    if let Some(end) = zone_name(text).filter(|end| has_time(&text[..*end])) {
        return text[..end].trim_end();
    }
    if let Some(sign) = text.rfind(['+', '-']) {
        let (head, tail) = (&text[..sign], &text[sign + 1..]);
        let digits: String = tail.chars().filter(|c| *c != ':').collect();
        let offset = tail.len() <= 5 && matches!(digits.len(), 2 | 4) && digits.bytes().all(|b| b.is_ascii_digit());
        if offset && has_time(head) {
            let end = zone_name(head).unwrap_or(head.trim_end().len());
            return head[..end].trim_end();
        }
    }
    text
}

/// Categories, tags, venue and organizers, for the arguments the request carries.
fn plan_links(planner: &mut Planner, event: &mut Event, args: &Args) -> ApiResult<()> {
    if let Some(value) = args.get("categories") {
        event.categories = planner.terms(value, Taxonomy::Category)?;
    }
    if let Some(value) = args.get("tags") {
        event.tags = planner.terms(value, Taxonomy::Tag)?;
    }
    // The plugin's `venue-list-refused` quirk: a venue given as a list of IDs is not taken.
    let venue_list = matches!(args.get("venue"), Some(serde_json::Value::Array(items)) if !items.is_empty());
    let quirks = planner.ctx.app.config.quirks;
    if venue_list && quirks.on(Quirk::VenueListRefused) {
        return Err(ApiError::of(&errors::COULD_NOT_CREATE_VENUE));
    }
    // The plugin's `no-unlink-forms` quirk: `venue` of "" or 0 keeps the venue, and a comma
    // string of organizer IDs cannot be taken.
    let blank_venue = match args.get("venue") {
        Some(serde_json::Value::String(text)) => matches!(text.trim(), "" | "0"),
        Some(number @ serde_json::Value::Number(_)) => number.as_f64() == Some(0.0),
        _ => false,
    };
    let organizer_commas = args.str("organizer").is_some_and(|text| text.contains(','));
    if organizer_commas && quirks.on(Quirk::NoUnlinkForms) {
        return Err(ApiError::of(&errors::COULD_NOT_CREATE_ORGANIZER));
    }
    if blank_venue && quirks.on(Quirk::NoUnlinkForms) {
        // kept as it is
    } else if let Some(entries) = args.links("venue") {
        event.venue = planner.linked_items(entries, PostKind::Venue)?.into_iter().next();
    }
    if let Some(entries) = args.links("organizer") {
        event.organizers = planner.linked_items(entries, PostKind::Organizer)?;
    }
    Ok(())
}
