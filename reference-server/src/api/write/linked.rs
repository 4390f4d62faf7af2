//! Planning venue and organizer writes: create (or find the duplicate), update, trash.

use super::{parse_in, Planner};
use crate::access::may_read;
use crate::app::Ctx;
use crate::error::{ApiError, ApiResult};
use crate::interface::{errors, ErrorKind};
use crate::model::{Id, Organizer, Post, PostKind, Status, Venue};
use crate::quirks::Quirk;
use crate::store::{Changes, Data, SlugKind};
use crate::validate::{as_int, as_number, is_truthy, value_text, Args};

/// The name field of the kind (`venue`, `organizer`).
pub fn name_key(kind: PostKind) -> &'static str {
    if kind == PostKind::Venue {
        "venue"
    } else {
        "organizer"
    }
}

fn slug_kind(kind: PostKind) -> SlugKind {
    if kind == PostKind::Venue {
        SlugKind::Venue
    } else {
        SlugKind::Organizer
    }
}

/// The error of inline data that cannot become an item of the kind.
pub fn could_not_create(kind: PostKind) -> ErrorKind {
    if kind == PostKind::Venue {
        errors::COULD_NOT_CREATE_VENUE
    } else {
        errors::COULD_NOT_CREATE_ORGANIZER
    }
}

/// Creates a venue or organizer, or returns the existing one the arguments describe exactly
/// (among those the caller may read).
pub fn plan_create(planner: &mut Planner, args: &Args, kind: PostKind) -> ApiResult<Id> {
    if planner.ctx.app.config.quirks.on(Quirk::LooseDuplicates) {
        if let Some(existing) = super::loose::loose_duplicate_of(planner, args, kind, name_key(kind)) {
            overwrite(planner, args, kind, existing);
            return Ok(existing);
        }
    } else if let Some(existing) = duplicate_of(planner.ctx, planner.data, planner.changes_ref(), args, kind) {
        return Ok(existing);
    }
    let id = planner.post_id();
    let post = planner.new_post(args, name_key(kind), slug_kind(kind), id)?;
    let ctx = planner.ctx;
    match kind {
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
            planner.changes().venues.push(venue);
        }
        _ => {
            let mut organizer = Organizer { post, phone: Box::from(""), website: Box::from(""), email: Box::from("") };
            apply_organizer_fields(&mut organizer, args);
            planner.changes().organizers.push(organizer);
        }
    }
    Ok(id)
}

/// Updates the venue or organizer `id` with the fields the arguments carry.
pub fn plan_update(planner: &mut Planner, args: &Args, kind: PostKind, id: Id) -> ApiResult<()> {
    let data = planner.data;
    match kind {
        PostKind::Venue => {
            let mut venue =
                data.venues.get(&id).map(|v| Venue::clone(v)).ok_or_else(|| ApiError::invalid_param("id"))?;
            planner.update_post(&mut venue.post, args, name_key(kind), slug_kind(kind))?;
            if planner.ctx.app.config.quirks.on(Quirk::UpdateResets) {
                reset_venue(&mut venue, args);
            }
            apply_venue_fields(planner.ctx, &mut venue, args);
            planner.changes().venues.push(venue);
        }
        _ => {
            let mut organizer =
                data.organizers.get(&id).map(|o| Organizer::clone(o)).ok_or_else(|| ApiError::invalid_param("id"))?;
            planner.update_post(&mut organizer.post, args, name_key(kind), slug_kind(kind))?;
            apply_organizer_fields(&mut organizer, args);
            planner.changes().organizers.push(organizer);
        }
    }
    Ok(())
}

/// Moves the venue or organizer `id` to the trash.
pub fn plan_trash(planner: &mut Planner, kind: PostKind, id: Id) {
    let data = planner.data;
    match kind {
        PostKind::Venue => {
            if let Some(mut venue) = data.venues.get(&id).map(|v| Venue::clone(v)) {
                planner.trash(&mut venue.post, slug_kind(kind));
                planner.changes().venues.push(venue);
            }
        }
        _ => {
            if let Some(mut organizer) = data.organizers.get(&id).map(|o| Organizer::clone(o)) {
                planner.trash(&mut organizer.post, slug_kind(kind));
                planner.changes().organizers.push(organizer);
            }
        }
    }
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

/// The plugin's `update-resets` quirk on a venue: the map flags an update leaves out go back to
/// their default, and a `stateprovince` it leaves out is derived again from the address it gives.
fn reset_venue(venue: &mut Venue, args: &Args) {
    if !args.given("show_map") {
        venue.show_map = None;
    }
    if !args.given("show_map_link") {
        venue.show_map_link = None;
    }
    let address = ["state", "province", "country"].iter().any(|key| args.given(key));
    if address && !args.given("stateprovince") {
        let us = matches!(args.str("country").unwrap_or(&venue.country), "" | "US" | "United States");
        let state = args.str("state").unwrap_or(&venue.state);
        let province = args.str("province").unwrap_or(&venue.province);
        venue.stateprovince = if !state.is_empty() && us { state.into() } else { province.into() };
    }
}

/// On create, the plugin fills an empty `stateprovince` from `state` or `province` (an update
/// never re-derives it, Part A 28).
fn derive_on_create(venue: &mut Venue) {
    if venue.stateprovince.is_empty() {
        let us = matches!(&*venue.country, "" | "US" | "United States");
        let derived = if !venue.state.is_empty() && us { venue.state.clone() } else { venue.province.clone() };
        venue.stateprovince = derived;
    }
}

fn apply_organizer_fields(organizer: &mut Organizer, args: &Args) {
    for (key, field) in organizer.text_fields_mut() {
        if let Some(value) = args.get(key) {
            *field = value_text(value).trim().into();
        }
    }
}

/// With `loose-duplicates`: the fields of the item's own settings that the request gives are
/// written over the duplicate found (its name, description and status stay).
fn overwrite(planner: &mut Planner, args: &Args, kind: PostKind, id: Id) {
    let data = planner.data;
    match kind {
        PostKind::Venue => {
            if let Some(mut venue) = data.venues.get(&id).map(|v| Venue::clone(v)) {
                apply_venue_fields(planner.ctx, &mut venue, args);
                planner.changes().venues.push(venue);
            }
        }
        _ => {
            if let Some(mut organizer) = data.organizers.get(&id).map(|o| Organizer::clone(o)) {
                apply_organizer_fields(&mut organizer, args);
                planner.changes().organizers.push(organizer);
            }
        }
    }
}

/// Part A 31: an existing item matches when every field the request provides matches it. Only
/// items the caller may read are candidates: a match shows the item in full. The name must be
/// given and match: stored items come from the store's title index (which compares titles as
/// `same` does), items made earlier in the same write are compared by name here.
fn duplicate_of(ctx: &Ctx, data: &Data, pending: &Changes, args: &Args, kind: PostKind) -> Option<Id> {
    let same = |given: &str, have: &str| given.trim().to_lowercase() == have.trim().to_lowercase();
    let provided = |key: &str| args.get(key).map(value_text);
    let zone = &ctx.app.site_zone;
    let same_date = |key: &str, have: Option<chrono::NaiveDateTime>| {
        args.str(key).is_none_or(|text| parse_in(ctx, text, zone).is_some_and(|at| Some(at) == have))
    };
    let same_image = |have: Option<Id>| {
        args.get("image").is_none_or(|value| match as_int(value) {
            Some(id) if id > 0 => have == Some(id as Id),
            // `"0"` gives no image, as `""` does.
            Some(_) => have.is_none(),
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
            && may_read(ctx, post)
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
    let name = provided(name_key(kind))?;
    match kind {
        PostKind::Venue => data
            .titled(kind, ctx.lang, &name)
            .filter_map(|id| data.venues.get(&id).map(|venue| venue.value()))
            .chain(pending.venues.iter().filter(|item| same(&name, &item.post.title)))
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
            .titled(kind, ctx.lang, &name)
            .filter_map(|id| data.organizers.get(&id).map(|organizer| organizer.value()))
            .chain(pending.organizers.iter().filter(|item| same(&name, &item.post.title)))
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
