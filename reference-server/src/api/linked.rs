//! `/venues` and `/organizers`: the posts events link to. One module for both, since their
//! routes, rules and errors differ only in names and fields.

use super::lists::StatusFilter;
use super::lists::{list_text, page_links, plugin_links, plugin_status, Page};
use super::write::{self, Planner};
use super::{authorize, slug_key, validated};
use crate::access::{event_sight, may_read, Reveal, Sight};
use crate::app::Ctx;
use crate::error::{ApiError, ApiResult};
use crate::http::{ApiRequest, Reply};
use crate::interface::{errors, ErrorKind, Op, Resource, Target, LINKED_LIST_ARGS};
use crate::model::{Event, Id, Organizer, Post, PostKind, Status, Venue};
use crate::quirks::Quirk;
use crate::store::{Data, IdSet, SlugKind};
use crate::validate::{is_truthy, value_text, Args};
use crate::views::snapshot::{self, Linked};
use crate::views::Renderer;

/// The names that differ between the two resources.
struct Kind {
    post_kind: PostKind,
    slug_kind: SlugKind,
    collection: &'static str,
    not_accessible: ErrorKind,
    in_trash: ErrorKind,
    page_not_found: ErrorKind,
}

const VENUE: Kind = Kind {
    post_kind: PostKind::Venue,
    slug_kind: SlugKind::Venue,
    collection: "venues",
    not_accessible: errors::VENUE_NOT_ACCESSIBLE,
    in_trash: errors::VENUE_IN_TRASH,
    page_not_found: errors::VENUE_PAGE_NOT_FOUND,
};
const ORGANIZER: Kind = Kind {
    post_kind: PostKind::Organizer,
    slug_kind: SlugKind::Organizer,
    collection: "organizers",
    not_accessible: errors::ORGANIZER_NOT_ACCESSIBLE,
    in_trash: errors::ORGANIZER_IN_TRASH,
    page_not_found: errors::ORGANIZER_PAGE_NOT_FOUND,
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

/// A venue or organizer, taken under the store's lock to be rendered after it.
enum Item {
    Venue(Linked<Venue>),
    Organizer(Linked<Organizer>),
    Missing,
}

fn item(data: &Data, kind: &Kind, id: Id) -> Item {
    let found = match kind.post_kind {
        PostKind::Venue => snapshot::venue(data, id).map(Item::Venue),
        _ => snapshot::organizer(data, id).map(Item::Organizer),
    };
    found.unwrap_or(Item::Missing)
}

fn render(renderer: &Renderer, out: &mut Vec<u8>, item: &Item, single: bool) {
    match item {
        Item::Venue(venue) => renderer.venue(out, venue, single),
        Item::Organizer(organizer) => renderer.organizer(out, organizer, single),
        Item::Missing => out.extend_from_slice(b"null"),
    }
}

/// A single item's answer, rendered once the store's lock is let go.
fn reply(ctx: &Ctx, status: u16, item: &Item, single: bool) -> Reply {
    let mut out = Vec::with_capacity(2048);
    render(&Renderer::new(ctx), &mut out, item, single);
    Reply::text(status, out)
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
    let found = {
        let data = ctx.app.store.read();
        validated(ctx, &data, request)?;
        let id = find(ctx, &data, request, kind)?;
        let post = post(&data, kind, id).ok_or_else(|| ApiError::invalid_param("id"))?;
        if !may_read(ctx, post) {
            return Err(ApiError::of(&kind.not_accessible));
        }
        item(&data, kind, id)
    };
    Ok(reply(ctx, 200, &found, true))
}

fn delete(ctx: &Ctx, request: &ApiRequest, kind: &Kind) -> ApiResult<Reply> {
    let mut data = ctx.app.store.write();
    validated(ctx, &data, request)?;
    let id = find(ctx, &data, request, kind)?;
    authorize(ctx, &data, request.route, Op::Delete, Some(id))?;
    if post(&data, kind, id).is_some_and(|post| post.status == Status::Trash) {
        return Err(ApiError::of(&kind.in_trash));
    }
    let mut planner = Planner::new(ctx, &data);
    write::linked::plan_trash(&mut planner, kind.post_kind, id);
    let changes = planner.finish();
    data.apply(changes);
    let found = item(&data, kind, id);
    drop(data);
    Ok(reply(ctx, 200, &found, false))
}

fn create(ctx: &Ctx, request: &ApiRequest, kind: &Kind) -> ApiResult<Reply> {
    let mut data = ctx.app.store.write();
    let args = validated(ctx, &data, request)?.unslashed();
    authorize(ctx, &data, request.route, Op::Create, None)?;
    let mut planner = Planner::new(ctx, &data);
    let id = write::linked::plan_create(&mut planner, &args, kind.post_kind)?;
    let changes = planner.finish();
    data.apply(changes);
    let found = item(&data, kind, id);
    drop(data);
    Ok(reply(ctx, 201, &found, false))
}

fn update(ctx: &Ctx, request: &ApiRequest, kind: &Kind) -> ApiResult<Reply> {
    let mut data = ctx.app.store.write();
    let args = validated(ctx, &data, request)?.unslashed();
    let id = find(ctx, &data, request, kind)?;
    authorize(ctx, &data, request.route, Op::Update, Some(id))?;
    let mut planner = Planner::new(ctx, &data);
    write::linked::plan_update(&mut planner, &args, kind.post_kind, id)?;
    let changes = planner.finish();
    data.apply(changes);
    let found = item(&data, kind, id);
    drop(data);
    Ok(reply(ctx, 200, &found, false))
}

fn list(ctx: &Ctx, request: &ApiRequest, kind: &Kind) -> ApiResult<Reply> {
    let data = ctx.app.store.read();
    let args = validated(ctx, &data, request)?;
    let page = Page::from_args(&args);
    let statuses = StatusFilter::from_args(ctx, &args);
    let filter = LinkedFilter::from_args(&args);
    let (shown, mut total) = if filter.is_none() && statuses.author_blind() {
        newest_page(ctx, &data, kind, &statuses, &page)
    } else {
        filtered_page(ctx, &data, kind, &statuses, &filter, &page)
    };
    // The plugin's `unmatched-search-total` quirk: a search that matches nothing reports the
    // total of the list without it.
    if total == 0 && !filter.search.is_empty() && ctx.app.config.quirks.on(Quirk::UnmatchedSearchTotal) {
        let unsearched = LinkedFilter { search: Vec::new(), ..filter };
        total = filtered_page(ctx, &data, kind, &statuses, &unsearched, &page).1;
    }
    let total_pages = page.total_pages(total);
    if page.number > 1 && shown.is_empty() {
        return Err(ApiError::of(&kind.page_not_found));
    }
    let found: Vec<Item> = shown.iter().map(|id| item(&data, kind, *id)).collect();
    drop(data);
    let links = match ctx.app.config.quirks.on(Quirk::PluginListLinks) {
        true => plugin_links(ctx, kind.collection, &plugin_pairs(ctx, &args, &page), &[], &page, total_pages),
        false => page_links(ctx, request, &args, LINKED_LIST_ARGS, kind.collection, &page, total_pages),
    };
    let renderer = Renderer::new(ctx);
    let body =
        list_text(kind.collection, &found, &links, total, total_pages, |out, item| render(&renderer, out, item, false));
    Ok(Reply::text(200, body)
        .header("x-tec-total", total.to_string())
        .header("x-tec-totalpages", total_pages.to_string()))
}

/// A venue or organizer list's link parameters as the plugin writes them: the page, the page
/// size, `event` and `has_events` when given, and the status (`search` and
/// `only_with_upcoming` are left out).
fn plugin_pairs(ctx: &Ctx, args: &Args, page: &Page) -> Vec<(String, String)> {
    let mut pairs =
        vec![("page".to_string(), page.number.to_string()), ("per_page".to_string(), page.per_page.to_string())];
    if let Some(event) = args.get("event") {
        pairs.push(("event".to_string(), value_text(event)));
    }
    // A false flag leaves the link (the CMS drops an argument whose value is false).
    if args.get("has_events").is_some_and(is_truthy) {
        pairs.push(("has_events".to_string(), "1".to_string()));
    }
    pairs.push(("status".to_string(), plugin_status(ctx, args)));
    pairs
}

/// The filters of a venue or organizer list beyond language and status.
struct LinkedFilter {
    /// Lower-case words the item's text must all contain.
    search: Vec<String>,
    /// An event the item must be linked to.
    event: Option<Id>,
    has_events: Option<bool>,
    /// Only items with an upcoming event.
    upcoming: bool,
}

impl LinkedFilter {
    fn from_args(args: &Args) -> Self {
        LinkedFilter {
            search: args
                .str("search")
                .map(|text| text.split_whitespace().map(str::to_lowercase).collect())
                .unwrap_or_default(),
            event: args.int("event").map(|id| id as Id),
            has_events: args.get("has_events").map(is_truthy),
            upcoming: args.get("only_with_upcoming").is_some_and(is_truthy),
        }
    }

    fn is_none(&self) -> bool {
        self.search.is_empty() && self.event.is_none() && self.has_events.is_none() && !self.upcoming
    }

    /// Whether the item of `post` passes the filters. `has_events` counts events that are
    /// out (not drafts or pending), as the plugin does; `only_with_upcoming` every upcoming
    /// event the caller may see (Part A 35).
    fn admits(&self, ctx: &Ctx, data: &Data, kind: &Kind, post: &Post) -> bool {
        let linked = |id: Id| linked_events(ctx, data, kind, id);
        let out = |event: &Event| !matches!(event.post.status, Status::Draft | Status::Pending);
        (self.search.is_empty() || {
            let haystack = search_text(data, kind, post);
            self.search.iter().all(|word| haystack.contains(word.as_str()))
        }) && self.event.is_none_or(|event| {
            // The plugin's `linked-seen-by-all` quirk: `event=` looks at any event's links.
            let open = crate::access::links_open(ctx)
                && data.events.get(&event).is_some_and(|e| e.venue == Some(post.id) || e.organizers.contains(&post.id));
            open || linked(post.id).any(|linked| linked.post.id == event)
        }) && self.has_events.is_none_or(|wanted| linked(post.id).any(out) == wanted)
            && (!self.upcoming || linked(post.id).any(|event| event.start_utc >= ctx.now))
    }
}

/// The events linked to an item, as the caller sees them: an event's links show only to
/// those who see the event in full (not hidden, not behind its password).
fn linked_events<'a>(ctx: &'a Ctx, data: &'a Data, kind: &Kind, id: Id) -> impl Iterator<Item = &'a Event> + 'a {
    let links = match kind.post_kind {
        PostKind::Venue => &data.venue_events,
        _ => &data.organizer_events,
    };
    links
        .get(&id)
        .into_iter()
        .flat_map(IdSet::iter)
        .filter_map(|event| data.events.get(&event).map(|event| event.value()))
        .filter(|event| event_sight(ctx, event, Reveal::EDITORS) == Sight::Full)
}

/// The text a search looks in: the post's and the item's own fields.
fn search_text(data: &Data, kind: &Kind, post: &Post) -> String {
    let extra = match kind.post_kind {
        PostKind::Venue => data.venues.get(&post.id).map(|v| v.text_fields().map(|(_, value)| value).join(" ")),
        _ => data.organizers.get(&post.id).map(|o| o.text_fields().map(|(_, value)| value).join(" ")),
    };
    format!("{} {} {} {}", post.title, post.content, post.excerpt, extra.unwrap_or_default()).to_lowercase()
}

/// A page and the total with no filter but language and status: the order index has the
/// page and the counts the total.
fn newest_page(ctx: &Ctx, data: &Data, kind: &Kind, statuses: &StatusFilter, page: &Page) -> (Vec<Id>, usize) {
    let order = &data.linked_order;
    let total = order.total(kind.post_kind, ctx.lang, &statuses.allowed);
    let shown: Vec<Id> = order
        .newest_first(kind.post_kind, ctx.lang)
        .filter(|(_, status)| statuses.allowed.contains(status))
        .skip(page.offset())
        .take(page.per_page)
        .map(|(id, _)| id)
        .collect();
    (shown, total)
}

/// A page of the items the filters admit, newest first, and their number.
fn filtered_page(
    ctx: &Ctx,
    data: &Data,
    kind: &Kind,
    statuses: &StatusFilter,
    filter: &LinkedFilter,
    page: &Page,
) -> (Vec<Id>, usize) {
    let posts: Box<dyn Iterator<Item = &Post>> = match kind.post_kind {
        PostKind::Venue => Box::new(data.venues.values().map(|v| &v.post)),
        _ => Box::new(data.organizers.values().map(|o| &o.post)),
    };
    let mut items: Vec<&Post> = posts
        .filter(|post| {
            post.lang == ctx.lang
                && post.status != Status::Trash
                && statuses.admits(post.status, post.author)
                && filter.admits(ctx, data, kind, post)
        })
        .collect();
    items.sort_by(|a, b| b.date.cmp(&a.date).then(b.id.cmp(&a.id)));
    let shown: Vec<Id> = items.iter().skip(page.offset()).take(page.per_page).map(|post| post.id).collect();
    (shown, items.len())
}
