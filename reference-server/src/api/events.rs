//! `/events`: list, create, read, update and delete events.

use super::write::{self, Planner};
use super::{authorize, slug_key, validated};
use crate::access::{event_sight, Reveal, Sight};
use crate::app::Ctx;
use crate::error::{ApiError, ApiResult};
use crate::http::{ApiRequest, Reply};
use crate::interface::{errors, Op, Target};
use crate::model::{Event, Id, PostKind, Status};
use crate::quirks::Quirk;
use crate::store::TimeWindow as Window;
use crate::store::{Data, SlugKind};
use crate::validate::Args;
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

/// Whether the general right to write events is checked before `error` is answered: for an ID
/// of nothing, and with the plugin's `general-right-first` quirk for an ID that is no event too.
fn right_first(ctx: &Ctx, error: &ApiError) -> bool {
    error.status == 404 || ctx.app.config.quirks.on(Quirk::GeneralRightFirst)
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
        Err(error) if right_first(ctx, &error) => {
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
    let args = validated(ctx, &data, request)?.unslashed();
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
    let args = validated(ctx, &data, request)?.unslashed();
    let found = match find(ctx, &data, request) {
        Ok(found) => found,
        Err(error) if right_first(ctx, &error) => {
            authorize(ctx, &data, request.route, Op::Update, None)?;
            return Err(error);
        }
        Err(error) => return Err(error),
    };
    authorize(ctx, &data, request.route, Op::Update, found)?;
    // The plugin's `by-slug-body-slug` quirk: a slug in the body replaces the path's, and the
    // update looks for an event of ID 0.
    let renames = request.route.target == Target::BySlug && args.given("slug");
    if renames && ctx.app.config.quirks.on(Quirk::BySlugBodySlug) {
        return Err(not_found("0"));
    }
    let id = found.ok_or_else(|| not_found("0"))?;
    let mut planner = Planner::new(ctx, &data);
    write::event::plan_update(&mut planner, &args, id)?;
    let changes = planner.finish();
    data.apply(changes);
    let snapshot = EventSnapshot::take(ctx, &data, &data.events[&id], false, false).written();
    drop(data);
    Ok(event_reply(ctx, 200, &snapshot))
}

mod by_sets;
mod counted;
mod filter;
mod list;
#[cfg(test)]
mod tests;

use super::lists::StatusFilter;
use list::list;
