//! What creating and updating any post (event, venue, organizer) shares: author, status,
//! publication dates, slug, image.

use chrono::NaiveDateTime;
use serde_json::Value;

use crate::app::Ctx;
use crate::dates::parse_datetime;
use crate::error::{ApiError, ApiResult};
use crate::interface::errors;
use crate::model::{Id, Image, Post, Status};
use crate::store::{Data, SlugKind};
use crate::text::{sanitize_slug, sanitize_title};
use crate::validate::{as_int, image_url_extension, Args};

/// A new post's common fields, from the create arguments.
pub fn new_post(ctx: &Ctx, data: &mut Data, args: &Args, title_key: &str, kind: SlugKind) -> ApiResult<Post> {
    let author = author_of(ctx, args)?;
    let title = args.str(title_key).unwrap_or("").trim().to_string();
    let lang = ctx.lang;
    let mut post = Post {
        id: 0,
        author,
        status: Status::Draft,
        lang,
        slug: Box::from(""),
        title: title.into(),
        content: Box::from(args.str("description").unwrap_or("")),
        excerpt: Box::from(args.str("excerpt").unwrap_or("")),
        date: ctx.local_now(),
        date_utc: None,
        modified: ctx.local_now(),
        modified_utc: ctx.now,
        image: None,
        password: None,
    };
    let requested = args.str("status").and_then(Status::parse);
    apply_dates_and_status(ctx, &mut post, args, requested, true);
    if let Some(image) = args.get("image") {
        post.image = resolve_image(data, image);
    }
    let wanted = match args.str("slug").filter(|slug| !slug.is_empty()) {
        Some(slug) => sanitize_slug(slug),
        None => sanitize_title(&post.title),
    };
    post.slug = data.unique_slug(kind, lang, &wanted, None).into();
    Ok(post)
}

/// Applies the common fields an update carries; fields it does not carry stay as they are.
pub fn update_post(
    ctx: &Ctx,
    data: &mut Data,
    post: &mut Post,
    args: &Args,
    title_key: &str,
    kind: SlugKind,
) -> ApiResult<()> {
    if args.given("author") {
        post.author = author_of(ctx, args)?;
    }
    if let Some(title) = args.str(title_key) {
        post.title = title.trim().into();
    }
    if let Some(description) = args.get("description") {
        post.content = description.as_str().unwrap_or("").into();
    }
    if let Some(excerpt) = args.get("excerpt") {
        post.excerpt = excerpt.as_str().unwrap_or("").into();
    }
    let requested = args.str("status").and_then(Status::parse);
    let was_trashed = post.status == Status::Trash;
    apply_dates_and_status(ctx, post, args, requested, false);
    if let Some(image) = args.get("image") {
        post.image = resolve_image(data, image);
    }
    if was_trashed && post.status != Status::Trash {
        // Out of the trash, the item gets its name back (or the next free one).
        let former = post.slug.trim_end_matches("__trashed").to_string();
        post.slug = data.unique_slug(kind, post.lang, &former, Some(post.id)).into();
    }
    if let Some(slug) = args.str("slug").filter(|slug| !slug.is_empty()) {
        post.slug = data.unique_slug(kind, post.lang, &sanitize_slug(slug), Some(post.id)).into();
    } else if post.slug.is_empty() && post.status != Status::Trash {
        post.slug = data.unique_slug(kind, post.lang, &sanitize_title(&post.title), Some(post.id)).into();
    }
    post.modified = ctx.local_now();
    post.modified_utc = ctx.now;
    Ok(())
}

/// The author: the current user, or another user for those who may edit others' posts.
fn author_of(ctx: &Ctx, args: &Args) -> ApiResult<Id> {
    let own = ctx.user_id();
    match args.int("author") {
        Some(author) if author as Id != own => {
            if ctx.user.is_some_and(|user| user.can_edit_others()) {
                Ok(author as Id)
            } else {
                Err(ApiError::of(&errors::CANNOT_EDIT_OTHERS))
            }
        }
        _ => Ok(own),
    }
}

/// Publication dates and the status scale-back rule of the plugin.
fn apply_dates_and_status(ctx: &Ctx, post: &mut Post, args: &Args, requested: Option<Status>, creating: bool) {
    let zone = &ctx.app.site_zone;
    let date = args.str("date").and_then(|text| parse_datetime(text, zone, ctx.now));
    let utc = crate::dates::Zone::Named(chrono_tz::UTC);
    let date_utc = args.str("date_utc").and_then(|text| parse_datetime(text, &utc, ctx.now));
    if let Some(date) = date {
        post.date = date;
        post.date_utc = Some(date_utc.unwrap_or_else(|| zone.local_to_utc(date)));
    } else if let Some(date_utc) = date_utc {
        post.date_utc = Some(date_utc);
        post.date = zone.utc_to_local(date_utc);
    }
    let can_publish = ctx.user.is_some_and(|user| user.can_publish());
    let status = match requested {
        None if creating => Some(if can_publish { Status::Publish } else { Status::Draft }),
        None => None,
        Some(Status::Publish | Status::Future) if !can_publish => Some(Status::Pending),
        Some(Status::Publish | Status::Future) => {
            let publication = post.date_utc.unwrap_or_else(|| zone.local_to_utc(post.date));
            Some(if date.is_some() && publication > ctx.now { Status::Future } else { Status::Publish })
        }
        Some(other) => Some(other),
    };
    if let Some(status) = status {
        post.status = status;
    }
    if matches!(post.status, Status::Publish | Status::Future | Status::Private) && post.date_utc.is_none() {
        post.date_utc = Some(zone.local_to_utc(post.date));
    }
}

/// An image ID the store knows, or a URL that becomes a new image record; empty removes.
pub fn resolve_image(data: &mut Data, value: &Value) -> Option<Id> {
    if let Some(id) = as_int(value).filter(|id| *id > 0) {
        let id = id as Id;
        return data.images.contains_key(&id).then_some(id);
    }
    let url = value.as_str()?.trim();
    let extension = image_url_extension(url)?;
    if let Some(existing) = data.images.values().find(|image| &*image.url == url) {
        return Some(existing.id);
    }
    let id = data.allocate_post_id();
    data.put_image(Image { id, url: url.into(), extension: extension.into(), meta: None });
    Some(id)
}

/// Moves a post to the trash: its slug is set aside so the name can be used again.
pub fn trash(ctx: &Ctx, post: &mut Post) {
    post.status = Status::Trash;
    if !post.slug.is_empty() && !post.slug.ends_with("__trashed") {
        post.slug = format!("{}__trashed", post.slug).into();
    }
    post.modified = ctx.local_now();
    post.modified_utc = ctx.now;
}

/// Parses a write date in a zone (the argument was validated already).
pub fn parse_in(ctx: &Ctx, text: &str, zone: &crate::dates::Zone) -> Option<NaiveDateTime> {
    parse_datetime(text, zone, ctx.now)
}
