//! Handlers, one module per resource family, and the rules they share: who may do what,
//! and how a path variable finds its target.

pub mod events;
pub mod index;
pub mod linked;
pub mod lists;
pub mod terms;
pub mod write;

use crate::app::Ctx;
use crate::error::{ApiError, ApiResult};
use crate::http::{ApiRequest, Reply};
use crate::interface::{Method, Op, Resource, Route, Target};
use crate::model::{Id, PostKind};
use crate::store::{Data, SlugKind};
use crate::validate::{validate, Args};

/// Runs one request: validation, then permission, then the handler.
pub fn dispatch(ctx: &Ctx, request: &ApiRequest) -> ApiResult<Reply> {
    let route = request.route;
    let op = route.op(request.method).ok_or_else(ApiError::no_route)?;
    match (route.resource, op) {
        (Resource::Index, _) => index::namespace_index(ctx, request),
        (Resource::Doc, _) => index::doc(ctx, request),
        (Resource::Events, _) => events::handle(ctx, request, op),
        (Resource::Venues | Resource::Organizers, _) => linked::handle(ctx, request, op),
        (Resource::Categories | Resource::Tags, _) => terms::handle(ctx, request, op),
    }
}

/// Validates the request's arguments for its route and method.
pub fn validated(ctx: &Ctx, data: &Data, request: &ApiRequest) -> ApiResult<Args> {
    let params = request.params();
    // The path variable (`id` or the path's `slug`) matched the route already; it is not an
    // argument to validate again, and a body `slug` in a by-slug update is the new slug.
    let path_arg = match request.route.target {
        Target::ById => Some("id"),
        Target::BySlug => Some("slug"),
        _ => None,
    };
    let specs: Vec<_> = request
        .route
        .args(request.method)
        .into_iter()
        .filter(|spec| !(spec.required && Some(spec.name) == path_arg))
        .filter(|spec| spec.feature.is_none_or(|name| ctx.app.config.features.on(name) || !is_write(request.method)))
        .collect();
    validate(ctx, data, request.route.resource, &specs, &params)
}

fn is_write(method: Method) -> bool {
    method != Method::Get
}

/// The post kind behind a post resource.
pub fn post_kind(resource: Resource) -> PostKind {
    match resource {
        Resource::Venues => PostKind::Venue,
        Resource::Organizers => PostKind::Organizer,
        _ => PostKind::Event,
    }
}

/// The slug kind of a post resource. Only posts are found by slug: categories and tags have no
/// by-slug route (interface 3), and their slugs are made in `api/write/term.rs`.
pub fn slug_kind(resource: Resource) -> SlugKind {
    match resource {
        Resource::Venues => SlugKind::Venue,
        Resource::Organizers => SlugKind::Organizer,
        _ => SlugKind::Event,
    }
}

/// WordPress looks slugs up in their stored form: non-ASCII bytes percent-encoded, lowercase.
/// A literal `%` in the decoded path is itself encoded, so `%25e2` does not find `%e2`.
pub fn slug_key(slug: &str) -> String {
    let mut key = String::with_capacity(slug.len());
    for c in slug.chars() {
        if c == '%' {
            key.push_str("%25");
        } else if c.is_ascii() {
            key.push(c.to_ascii_lowercase());
        } else {
            let mut buffer = [0u8; 4];
            for byte in c.encode_utf8(&mut buffer).bytes() {
                key.push_str(&format!("%{byte:02x}"));
            }
        }
    }
    key
}

/// The post a path variable names, if it exists and is of the route's kind.
pub fn target_post(ctx: &Ctx, data: &Data, route: &Route, var: Option<&str>) -> Option<Id> {
    let var = var?;
    let kind = post_kind(route.resource);
    match route.target {
        Target::ById => {
            let id = var.parse::<Id>().ok()?;
            (data.kind(id) == Some(kind)).then_some(id)
        }
        Target::BySlug => data.slug_owner(slug_kind(route.resource), ctx.lang, &slug_key(var)),
        _ => None,
    }
}

/// Whether the user may perform `op` on the route (and, for single routes, on its target).
pub fn may(ctx: &Ctx, data: &Data, route: &Route, op: Op, target: Option<Id>) -> bool {
    let Some(user) = ctx.user else {
        return matches!(op, Op::Read | Op::List | Op::Index | Op::Doc);
    };
    match (route.resource, op) {
        (_, Op::Read | Op::List | Op::Index | Op::Doc) => true,
        (Resource::Categories, _) => user.can_manage_categories(),
        (Resource::Tags, _) => user.can_manage_tags(),
        (_, Op::Create) => user.can_edit_posts(),
        // A trashed item keeps the rights of the status it had before (S7).
        (_, Op::Update | Op::Delete) => match target.and_then(|id| data.post(id)) {
            Some(post) => user.can_edit_post(post.author, post.rights_status().visibility()),
            None => user.can_edit_posts(),
        },
    }
}

/// The plugin's `by-slug-general-right` quirk: an update or delete by slug needs only the right
/// to edit such items at all (the `Allow` header still names what the item itself allows).
fn by_slug_general_right(ctx: &Ctx, route: &Route, op: Op) -> bool {
    ctx.app.config.quirks.on(crate::quirks::Quirk::BySlugGeneralRight)
        && route.target == Target::BySlug
        && matches!(op, Op::Update | Op::Delete)
        && !matches!(route.resource, Resource::Categories | Resource::Tags)
        && ctx.user.is_some_and(|user| user.can_edit_posts())
}

/// Fails with `rest_forbidden` unless the user may perform `op`.
pub fn authorize(ctx: &Ctx, data: &Data, route: &Route, op: Op, target: Option<Id>) -> ApiResult<()> {
    if may(ctx, data, route, op, target) || by_slug_general_right(ctx, route, op) {
        Ok(())
    } else {
        Err(ApiError::forbidden(ctx.logged_in()).because(crate::reasons::permission(ctx, data, route, op, target)))
    }
}

/// The `Allow` header: the route's methods this user may use.
pub fn allow_header(ctx: &Ctx, data: &Data, route: &Route, var: Option<&str>) -> String {
    let target = target_post(ctx, data, route, var);
    // A venue or organizer that does not exist cannot be edited by anyone (the CMS checks the
    // right on the item itself); an event route falls back to the general right, so that its
    // handler can answer 404.
    let missing = target.is_none()
        && route.target == Target::ById
        && matches!(route.resource, Resource::Venues | Resource::Organizers);
    route
        .methods
        .iter()
        .filter(|(_, op)| !(missing && matches!(op, Op::Update | Op::Delete)))
        .filter(|(_, op)| may(ctx, data, route, *op, target))
        .map(|(method, _)| method.name())
        .collect::<Vec<_>>()
        .join(", ")
}
