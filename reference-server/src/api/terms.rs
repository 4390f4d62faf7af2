//! `/categories` and `/tags`: the two taxonomies of events. Terms are deleted for good.

use serde_json::{json, Map, Value};

use super::lists::{page_links, Page};
use super::write::{self, Planner};
use super::{authorize, validated};
use crate::access::{event_sight, Reveal, Sight};
use crate::app::Ctx;
use crate::error::{ApiError, ApiResult};
use crate::http::{ApiRequest, Reply};
use crate::interface::{errors, term_list_args, Op, Resource};
use crate::model::{Id, Taxonomy, Term};
use crate::store::Data;
use crate::validate::{as_int, value_text, Args};
use crate::views::View;

pub fn handle(ctx: &Ctx, request: &ApiRequest, op: Op) -> ApiResult<Reply> {
    let taxonomy = taxonomy_of(request.route.resource);
    match op {
        Op::List => list(ctx, request, taxonomy),
        Op::Create => create(ctx, request, taxonomy),
        Op::Read => read(ctx, request, taxonomy),
        Op::Update => update(ctx, request, taxonomy),
        Op::Delete => delete(ctx, request, taxonomy),
        _ => Err(ApiError::no_route()),
    }
}

fn taxonomy_of(resource: Resource) -> Taxonomy {
    if resource == Resource::Tags {
        Taxonomy::Tag
    } else {
        Taxonomy::Category
    }
}

fn collection(taxonomy: Taxonomy) -> &'static str {
    match taxonomy {
        Taxonomy::Category => "categories",
        Taxonomy::Tag => "tags",
    }
}

/// The term the path's ID names; an unknown ID (or one of the other taxonomy) is invalid.
fn find(data: &Data, request: &ApiRequest, taxonomy: Taxonomy) -> ApiResult<Id> {
    request
        .var
        .as_deref()
        .and_then(|var| var.parse::<Id>().ok())
        .filter(|id| data.terms.get(id).is_some_and(|term| term.taxonomy == taxonomy))
        .ok_or_else(|| ApiError::invalid_param("id"))
}

fn read(ctx: &Ctx, request: &ApiRequest, taxonomy: Taxonomy) -> ApiResult<Reply> {
    let data = ctx.app.store.read();
    validated(ctx, &data, request)?;
    let id = find(&data, request, taxonomy)?;
    let view = View { ctx, data: &data };
    Ok(Reply::ok(view.term(&data.terms[&id], true)))
}

fn delete(ctx: &Ctx, request: &ApiRequest, taxonomy: Taxonomy) -> ApiResult<Reply> {
    let mut data = ctx.app.store.write();
    validated(ctx, &data, request)?;
    let id = find(&data, request, taxonomy)?;
    authorize(ctx, &data, request.route, Op::Delete, None)?;
    let body = {
        let view = View { ctx, data: &data };
        view.term(&data.terms[&id], false)
    };
    let mut changes = data.changes();
    changes.deleted_term = Some(id);
    data.apply(changes);
    Ok(Reply::ok(body))
}

fn create(ctx: &Ctx, request: &ApiRequest, taxonomy: Taxonomy) -> ApiResult<Reply> {
    let mut data = ctx.app.store.write();
    let args = validated(ctx, &data, request)?;
    authorize(ctx, &data, request.route, Op::Create, None)?;
    if taxonomy == Taxonomy::Tag && request.params().contains_key("parent") {
        return Err(ApiError::of(&errors::NOT_HIERARCHICAL));
    }
    let mut planner = Planner::new(ctx, &data);
    let id = write::term::plan_create(&mut planner, &args, taxonomy)?;
    let changes = planner.finish();
    data.apply(changes);
    let view = View { ctx, data: &data };
    let location = format!("{}{}/wp/v2/{}/{id}", ctx.app.site_url, ctx.app.config.root, taxonomy.name());
    Ok(Reply::created(view.term(&data.terms[&id], true)).header("location", location))
}

fn update(ctx: &Ctx, request: &ApiRequest, taxonomy: Taxonomy) -> ApiResult<Reply> {
    let mut data = ctx.app.store.write();
    let args = validated(ctx, &data, request)?;
    let id = find(&data, request, taxonomy)?;
    authorize(ctx, &data, request.route, Op::Update, None)?;
    if taxonomy == Taxonomy::Tag && request.params().contains_key("parent") {
        return Err(ApiError::of(&errors::NOT_HIERARCHICAL));
    }
    let mut planner = Planner::new(ctx, &data);
    write::term::plan_update(&mut planner, &args, taxonomy, id)?;
    let changes = planner.finish();
    data.apply(changes);
    let view = View { ctx, data: &data };
    Ok(Reply::ok(view.term(&data.terms[&id], true)))
}

fn list(ctx: &Ctx, request: &ApiRequest, taxonomy: Taxonomy) -> ApiResult<Reply> {
    let data = ctx.app.store.read();
    let args = validated(ctx, &data, request)?;
    let page = Page::from_args(&args);
    let ids = |name: &str| -> Option<Vec<Id>> {
        args.list(name).map(|items| {
            items.iter().filter_map(|item| data.find_term(taxonomy, ctx.lang, &value_text(item))).collect()
        })
    };
    // The core terms query takes IDs only: slugs pass validation but match nothing (and so
    // do numbers that are no term's ID).
    let numeric = |name: &str| -> Option<Vec<Id>> {
        args.list(name).map(|items| items.iter().filter_map(as_int).filter_map(|id| Id::try_from(id).ok()).collect())
    };
    let include = numeric("include");
    let exclude = numeric("exclude").unwrap_or_default();
    let parent = if taxonomy == Taxonomy::Category { ids("parent").and_then(|p| p.first().copied()) } else { None };
    let post = args.int("event").or_else(|| args.int("post")).map(|id| id as Id);
    // An event's terms are what its password hides, and an event the caller may not read
    // has none to show them (the term list must not reveal what the event read would not).
    let post_terms: Option<Vec<Id>> = post.map(|id| {
        data.events
            .get(&id)
            .filter(|event| crate::access::links_open(ctx) || event_sight(ctx, event, Reveal::EDITORS) == Sight::Full)
            .map(|event| event.categories.iter().chain(&event.tags).copied().collect())
            .unwrap_or_default()
    });
    let hide_empty = args.bool("hide_empty").unwrap_or(true);
    let search = args.str("search").map(str::to_lowercase);
    let slug = args.str("slug");

    let mut terms: Vec<&Term> = data
        .terms
        .values()
        .map(|term| term.value())
        .filter(|term| {
            term.taxonomy == taxonomy
                && term.lang == ctx.lang
                && (!hide_empty || term.count > 0)
                && include.as_ref().is_none_or(|ids| ids.contains(&term.id))
                && !exclude.contains(&term.id)
                && parent.is_none_or(|parent| term.parent == parent)
                && post_terms.as_ref().is_none_or(|ids| ids.contains(&term.id))
                && search.as_ref().is_none_or(|text| {
                    term.name.to_lowercase().contains(text.as_str()) || term.slug.contains(text.as_str())
                })
                && slug.is_none_or(|slug| &*term.slug == slug)
        })
        .collect();
    sort_terms(&mut terms, &args, include.as_deref());
    let total = terms.len();
    let total_pages = page.total_pages(total);
    let view = View { ctx, data: &data };
    let rendered: Vec<Value> =
        terms.iter().skip(page.offset()).take(page.per_page).map(|term| view.term(term, false)).collect();
    let specs = term_list_args(request.route.resource);
    // The plugin's `plugin-list-links` quirk: term links carry the page only.
    let links = match ctx.app.config.quirks.on(crate::quirks::Quirk::PluginListLinks) {
        true => crate::api::lists::plugin_links(ctx, collection(taxonomy), &[], &[], &page, total_pages),
        false => page_links(ctx, request, &args, &specs, collection(taxonomy), &page, total_pages),
    };
    let mut body = Map::new();
    body.insert("rest_url".into(), json!(links.rest_url));
    body.insert("total".into(), json!(total));
    body.insert("total_pages".into(), json!(total_pages));
    body.insert(collection(taxonomy).into(), json!(rendered));
    links.insert_pages_into(&mut body);
    Ok(Reply::ok(Value::Object(body))
        .header("x-tec-total", total.to_string())
        .header("x-tec-totalpages", total_pages.to_string()))
}

/// `orderby` (name by default; unknown values fall back to it) and `order` (asc by default;
/// anything but `asc` is descending).
fn sort_terms(terms: &mut [&Term], args: &Args, include: Option<&[Id]>) {
    let orderby = args.str("orderby").unwrap_or("name").to_ascii_lowercase();
    let descending = args.str("order").is_some_and(|order| !order.eq_ignore_ascii_case("asc"));
    let position = |id: Id| include.and_then(|ids| ids.iter().position(|x| *x == id)).unwrap_or(usize::MAX);
    // Ties keep ascending IDs whatever the direction, as the database returns them.
    terms.sort_by(|a, b| {
        let ordering = match orderby.as_str() {
            "slug" => a.slug.cmp(&b.slug),
            "id" | "term_id" => a.id.cmp(&b.id),
            "count" => a.count.cmp(&b.count),
            "description" => a.description.cmp(&b.description),
            "parent" => a.parent.cmp(&b.parent),
            "include" => position(a.id).cmp(&position(b.id)),
            "term_group" => std::cmp::Ordering::Equal,
            _ => a.name.to_lowercase().cmp(&b.name.to_lowercase()),
        };
        let ordering = if descending { ordering.reverse() } else { ordering };
        ordering.then(a.id.cmp(&b.id))
    });
}
