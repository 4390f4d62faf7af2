//! Writes are planned, then applied. A `plan_*` function reads the store, resolves every term,
//! venue, organizer and image the request names into an existing ID or a new record, and runs
//! every check; only then does the handler call `Data::apply`, which cannot fail. Every `?` of
//! a write happens before the store changes, so a write that answers 4xx changes nothing.
//!
//! The checks run in the CMS's order: argument validation (in `validate`, before this), the
//! route's permission (in the handler), then what only the plan can tell: writing as another
//! author, creating terms, making inline venues and organizers.

pub mod event;
pub mod linked;
mod links;
mod loose;
pub mod term;

use std::collections::HashSet;

use chrono::NaiveDateTime;
use serde_json::Value;

use crate::app::Ctx;
use crate::dates::{parse_datetime, Zone};
use crate::error::{ApiError, ApiResult};
use crate::interface::errors;
use crate::model::{Id, Image, Lang, Post, Status, Trashed};
use crate::quirks::Quirk;
use crate::store::{Changes, Data, SlugKind};
use crate::text::{sanitize_slug, sanitize_title};
use crate::validate::{as_int, image_url_extension, Args};

/// A write being planned: the store as it is, and the records the write will put.
pub struct Planner<'a> {
    pub ctx: &'a Ctx<'a>,
    pub data: &'a Data,
    changes: Changes,
    /// Slugs given out to records of this plan, which the store does not know yet.
    slugs: HashSet<(SlugKind, Lang, String)>,
}

impl<'a> Planner<'a> {
    pub fn new(ctx: &'a Ctx<'a>, data: &'a Data) -> Planner<'a> {
        Planner { ctx, data, changes: data.changes(), slugs: HashSet::new() }
    }

    /// The checked plan, for `Data::apply`.
    pub fn finish(self) -> Changes {
        self.changes
    }

    pub fn changes(&mut self) -> &mut Changes {
        &mut self.changes
    }

    pub fn changes_ref(&self) -> &Changes {
        &self.changes
    }

    pub fn post_id(&mut self) -> Id {
        self.changes.ids.post()
    }

    pub fn term_id(&mut self) -> Id {
        self.changes.ids.term()
    }

    /// A slug for the item `own` that no other item of its kind and language has, in the
    /// store or in this plan. An empty wish (a title without a letter or digit) gives the ID,
    /// as the CMS does.
    pub fn slug(&mut self, kind: SlugKind, lang: Lang, wanted: &str, own: Id) -> Box<str> {
        let fallback = own.to_string();
        let wanted = if wanted.is_empty() { fallback.as_str() } else { wanted };
        let slugs = &self.slugs;
        let taken = |slug: &str| slugs.contains(&(kind, lang, slug.to_string()));
        let slug = self.data.unique_slug_besides(kind, lang, wanted, Some(own), &taken);
        self.slugs.insert((kind, lang, slug.clone()));
        slug.into()
    }

    /// An image ID the store knows, or a URL: the image already made from it, or a new image
    /// record. `None` for anything else (and for an empty value, which removes the image).
    pub fn image(&mut self, value: &Value) -> Option<Id> {
        // A number is an image ID (one the store does not know, 0 included, gives none).
        if let Some(id) = as_int(value) {
            return Id::try_from(id).ok().filter(|id| self.data.images.contains_key(id));
        }
        let url = value.as_str()?.trim();
        let extension = image_url_extension(url)?;
        let known = self
            .data
            .image_by_url(url)
            .or_else(|| self.changes.images.iter().find(|image| &*image.url == url).map(|image| image.id));
        if known.is_some() {
            return known;
        }
        let id = self.post_id();
        self.changes.images.push(Image { id, url: url.into(), extension: extension.into(), meta: None });
        Some(id)
    }

    /// A new post's common fields from the create arguments; `title_key` names its title.
    pub fn new_post(&mut self, args: &Args, title_key: &str, kind: SlugKind, id: Id) -> ApiResult<Post> {
        let ctx = self.ctx;
        let author = author_of(ctx, args)?;
        let title = crate::text::php_trim(args.str(title_key).unwrap_or("")).to_string();
        let mut post = Post {
            id,
            author,
            status: Status::Draft,
            lang: ctx.lang,
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
            trashed: None,
        };
        let requested = args.str("status").and_then(Status::parse);
        apply_dates_and_status(ctx, &mut post, args, requested, true);
        if let Some(image) = args.get("image") {
            post.image = self.image(image);
        }
        let wanted = match args.str("slug").filter(|slug| !slug.is_empty()) {
            Some(slug) => sanitize_slug(slug),
            None if slugless(ctx, kind, post.status) => return Ok(post),
            None => sanitize_title(&post.title),
        };
        post.slug = self.slug(kind, post.lang, &wanted, id);
        Ok(post)
    }

    /// Applies the common fields an update carries; fields it does not carry stay as they are.
    pub fn update_post(&mut self, post: &mut Post, args: &Args, title_key: &str, kind: SlugKind) -> ApiResult<()> {
        let ctx = self.ctx;
        if args.given("author") {
            post.author = author_of(ctx, args)?;
        }
        if let Some(title) = args.str(title_key) {
            post.title = crate::text::php_trim(title).into();
        }
        // The plugin's `organizer-description-kept` quirk: an organizer's description sent empty stays.
        let kept = kind == SlugKind::Organizer && ctx.app.config.quirks.on(Quirk::OrganizerDescriptionKept);
        if let Some(description) = args.get("description").filter(|d| !(kept && d.as_str() == Some(""))) {
            post.content = description.as_str().unwrap_or("").into();
        }
        if let Some(excerpt) = args.get("excerpt") {
            post.excerpt = excerpt.as_str().unwrap_or("").into();
        }
        let requested = args.str("status").and_then(Status::parse).or_else(|| default_status(ctx));
        let before = post.status;
        let was_trashed = before == Status::Trash;
        apply_dates_and_status(ctx, post, args, requested, false);
        if let Some(image) = args.get("image") {
            post.image = self.image(image);
        }
        if was_trashed && post.status != Status::Trash {
            // Out of the trash, the item gets its name back (or the next free one).
            let former = post.trashed.take().map_or_else(|| post.slug.trim_end_matches("__trashed").into(), |t| t.slug);
            post.slug = self.slug(kind, post.lang, &former, post.id);
        } else if !was_trashed && post.status == Status::Trash {
            self.set_trashed(post, kind, before);
        }
        if let Some(slug) = args.str("slug").filter(|slug| !slug.is_empty()) {
            post.slug = self.slug(kind, post.lang, &sanitize_slug(slug), post.id);
        } else if post.slug.is_empty() && post.status != Status::Trash && !slugless(ctx, kind, post.status) {
            post.slug = self.slug(kind, post.lang, &sanitize_title(&post.title), post.id);
        }
        post.modified = ctx.local_now();
        post.modified_utc = ctx.now;
        Ok(())
    }

    /// Moves a post to the trash: it keeps its former status and slug, and takes a slug of its
    /// own with `__trashed`, so the name can be used again.
    pub fn trash(&mut self, post: &mut Post, kind: SlugKind) {
        let before = post.status;
        post.status = Status::Trash;
        self.set_trashed(post, kind, before);
        post.modified = self.ctx.local_now();
        post.modified_utc = self.ctx.now;
    }

    fn set_trashed(&mut self, post: &mut Post, kind: SlugKind, before: Status) {
        let base = crate::store::truncate_slug(&post.slug, crate::store::MAX_SLUG - "__trashed".len()).to_string();
        post.trashed = Some(Box::new(Trashed { status: before, slug: post.slug.clone() }));
        post.slug = self.slug(kind, post.lang, &format!("{base}__trashed"), post.id);
    }
}

/// The plugin's `draft-no-slug` quirk: an event that is a draft or pending gets no slug from its
/// title (it gets one when it is published).
fn slugless(ctx: &Ctx, kind: SlugKind, status: Status) -> bool {
    kind == SlugKind::Event
        && matches!(status, Status::Draft | Status::Pending)
        && ctx.app.config.quirks.on(Quirk::DraftNoSlug)
}

/// The plugin's `update-resets` quirk: an update without `status` asks for `publish` from those
/// who may publish, `draft` from anyone else.
fn default_status(ctx: &Ctx) -> Option<Status> {
    let can_publish = ctx.user.is_some_and(|user| user.can_publish());
    ctx.app.config.quirks.on(Quirk::UpdateResets).then_some(if can_publish { Status::Publish } else { Status::Draft })
}

/// The author: the current user, or another user for those who may edit others' posts.
fn author_of(ctx: &Ctx, args: &Args) -> ApiResult<Id> {
    let own = ctx.user_id();
    match args.int("author") {
        Some(author) if author as Id != own => {
            // The plugin's `any-author` quirk: anyone who may write the item names any user.
            if ctx.user.is_some_and(|user| user.can_edit_others()) || ctx.app.config.quirks.on(Quirk::AnyAuthor) {
                Ok(author as Id)
            } else {
                Err(ApiError::of(&errors::CANNOT_EDIT_OTHERS).because(crate::reasons::other_author(ctx, author)))
            }
        }
        _ => Ok(own),
    }
}

/// Publication dates and the status scale-back rule: a user who may not publish asks for
/// `publish`, `future` or `private` and gets `pending` (a contributor's statuses are draft and
/// pending; the CMS itself refuses them `private`).
fn apply_dates_and_status(ctx: &Ctx, post: &mut Post, args: &Args, requested: Option<Status>, creating: bool) {
    let zone = &ctx.app.site_zone;
    let date = args.str("date").and_then(|text| parse_datetime(text, zone, ctx.now));
    let utc = Zone::Named(chrono_tz::UTC);
    let date_utc = args.str("date_utc").and_then(|text| parse_datetime(text, &utc, ctx.now));
    if let Some(date) = date {
        post.date = date;
        post.date_utc = Some(date_utc.unwrap_or_else(|| zone.local_to_utc(date)));
    } else if let Some(date_utc) = date_utc {
        post.date_utc = Some(date_utc);
        post.date = zone.utc_to_local(date_utc);
    }
    let can_publish = ctx.user.is_some_and(|user| user.can_publish());
    // `publish` with a publication date still ahead schedules the item.
    let scheduled = |post: &Post| {
        let publication = post.date_utc.unwrap_or_else(|| zone.local_to_utc(post.date));
        if date.is_some() && publication > ctx.now {
            Status::Future
        } else {
            Status::Publish
        }
    };
    let status = match requested {
        // A create without status is `publish` from those who may publish, so a date ahead
        // schedules it too (S3.3); `draft` from anyone else.
        None if creating => Some(if can_publish { scheduled(post) } else { Status::Draft }),
        None => None,
        // The plugin's `contributor-private` quirk: `private` is stored as asked.
        Some(Status::Private) if ctx.app.config.quirks.on(Quirk::ContributorPrivate) => Some(Status::Private),
        Some(Status::Publish | Status::Future | Status::Private) if !can_publish => Some(Status::Pending),
        Some(Status::Publish | Status::Future) => Some(scheduled(post)),
        Some(other) => Some(other),
    };
    if let Some(status) = status {
        post.status = status;
    }
    if matches!(post.status, Status::Publish | Status::Future | Status::Private) && post.date_utc.is_none() {
        post.date_utc = Some(zone.local_to_utc(post.date));
    }
}

/// Parses a write date in a zone (the argument was validated already).
pub fn parse_in(ctx: &Ctx, text: &str, zone: &Zone) -> Option<NaiveDateTime> {
    parse_datetime(text, zone, ctx.now)
}
