//! What every list shares: the statuses a caller sees, pages, and the `rest_url` / `next_rest_url` / `previous_rest_url`
//! links (Part A 13: the request's own parameters, in the table's order, URL-encoded).

use serde_json::{json, Map, Value};

use crate::app::Ctx;
use crate::http::ApiRequest;
use crate::interface::Arg;
use crate::model::{Id, Status};
use crate::validate::{value_text, Args};
use crate::views::assemble::push_str;

/// Which statuses the user sees in lists, and whether unpublished ones must be their own.
pub struct StatusFilter {
    pub allowed: Vec<Status>,
    pub own_unpublished_only: bool,
    /// With `own_unpublished_only`, the plugin's `others-unpublished-listed` quirk: others'
    /// drafts, pending and future items are listed too (their private ones are not).
    pub others_unpublished: bool,
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
        // Each status once: totals add up per-status counts. The trash is never listed, but
        // with the plugin's `trash-listed` quirk to those who may write items and ask for it.
        let trash_listed = may_see_unpublished && ctx.app.config.quirks.on(crate::quirks::Quirk::TrashListed);
        let mut distinct: Vec<Status> = Vec::new();
        for status in allowed {
            if (status != Status::Trash || trash_listed) && !distinct.contains(&status) {
                distinct.push(status);
            }
        }
        StatusFilter {
            allowed: distinct,
            own_unpublished_only: !user.is_some_and(|user| user.can_edit_others()),
            others_unpublished: ctx.app.config.quirks.on(crate::quirks::Quirk::OthersUnpublishedListed),
            user: ctx.user_id(),
        }
    }

    /// True when what the user sees does not depend on who wrote it.
    pub fn author_blind(&self) -> bool {
        !self.own_unpublished_only || self.allowed.iter().all(|status| self.anyones(*status))
    }

    pub fn admits(&self, status: Status, author: Id) -> bool {
        self.allowed.contains(&status) && (self.anyones(status) || !self.own_unpublished_only || author == self.user)
    }

    /// Whether items of this status are listed whoever wrote them.
    fn anyones(&self, status: Status) -> bool {
        status == Status::Publish || (self.others_unpublished && status != Status::Private)
    }
}

/// A list answer as JSON text: `{"COLLECTION":[items…],"rest_url":…,"total":…,"total_pages":…}`,
/// each item written by `item`.
pub fn list_text<T>(
    collection: &str,
    items: &[T],
    links: &Links,
    total: usize,
    total_pages: usize,
    mut item: impl FnMut(&mut Vec<u8>, &T),
) -> Vec<u8> {
    let mut out = Vec::with_capacity(1024 + items.len() * 4096);
    out.extend_from_slice(b"{");
    push_str(&mut out, collection);
    out.extend_from_slice(b":[");
    for (index, entry) in items.iter().enumerate() {
        if index > 0 {
            out.push(b',');
        }
        item(&mut out, entry);
    }
    out.push(b']');
    links.write_into(&mut out);
    out.extend_from_slice(format!(",\"total\":{total},\"total_pages\":{total_pages}}}").as_bytes());
    out
}

/// The most items one page may hold.
pub const MAX_PER_PAGE: usize = 50;

/// A requested page.
pub struct Page {
    pub number: usize,
    pub per_page: usize,
}

impl Page {
    pub fn from_args(args: &Args) -> Page {
        let number = args.int("page").unwrap_or(1).clamp(1, i64::from(u32::MAX)) as usize;
        let per_page = args.int("per_page").unwrap_or(10).clamp(1, MAX_PER_PAGE as i64) as usize;
        Page { number, per_page }
    }

    /// How many items come before this page.
    pub fn offset(&self) -> usize {
        (self.number - 1).saturating_mul(self.per_page)
    }

    pub fn total_pages(&self, total: usize) -> usize {
        total.div_ceil(self.per_page)
    }
}

/// The three links of a list envelope.
pub struct Links {
    pub rest_url: String,
    pub next: Option<String>,
    pub previous: Option<String>,
}

impl Links {
    /// The same, as JSON text: `,"rest_url":…` and the page links, to follow a list's items.
    pub fn write_into(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(b",\"rest_url\":");
        push_str(out, &self.rest_url);
        if let Some(next) = &self.next {
            out.extend_from_slice(b",\"next_rest_url\":");
            push_str(out, next);
        }
        if let Some(previous) = &self.previous {
            out.extend_from_slice(b",\"previous_rest_url\":");
            push_str(out, previous);
        }
    }

    pub fn insert_pages_into(self, body: &mut Map<String, Value>) {
        if let Some(next) = self.next {
            body.insert("next_rest_url".into(), json!(next));
        }
        if let Some(previous) = self.previous {
            body.insert("previous_rest_url".into(), json!(previous));
        }
    }
}

/// Builds the links of a list page from the arguments the client sent.
pub fn page_links(
    ctx: &Ctx,
    request: &ApiRequest,
    args: &Args,
    specs: &[Arg],
    collection: &str,
    page: &Page,
    total_pages: usize,
) -> Links {
    let base = format!("{}/{collection}/", ctx.api_base);
    let mut pairs: Vec<(String, String)> = Vec::new();
    for spec in specs {
        if !args.given(spec.name) {
            continue;
        }
        let text = match args.get(spec.name) {
            Some(Value::Array(items)) => items.iter().map(value_text).collect::<Vec<_>>().join(","),
            Some(Value::Bool(flag)) => flag.to_string(),
            Some(value) => value_text(value),
            None => continue,
        };
        pairs.push((spec.name.to_string(), text));
    }
    let language_param = &ctx.app.config.language_param;
    if let Some(code) = request.params().get(language_param).and_then(Value::as_str) {
        pairs.push((language_param.clone(), code.to_string()));
    }
    let with_page = |number: usize| -> String {
        let mut pairs = pairs.clone();
        let position = pairs.iter().position(|(name, _)| name == "page");
        match (position, number) {
            (Some(index), 1) => {
                pairs.remove(index);
            }
            (Some(index), n) => pairs[index].1 = n.to_string(),
            (None, 1) => {}
            (None, n) => pairs.insert(0, ("page".to_string(), n.to_string())),
        }
        url_with(&base, &pairs)
    };
    Links {
        rest_url: url_with(&base, &pairs),
        next: (page.number < total_pages).then(|| with_page(page.number + 1)),
        // Lists of posts answer 404 past their end, so only term lists show a page beyond it.
        previous: (page.number > 1).then(|| with_page(page.number - 1)),
    }
}

/// The plugin's `plugin-list-links` quirk: a list's links as the plugin writes them. `rest_url`
/// is the collection's address and `pairs` as they are, not encoded (spaces stay); the page
/// links are the same pairs without `page`, encoded this time, and the new `page` last (none
/// for the link back to page 1).
///
/// `extra` (the events list's `venue`, `organizer`, `featured`) is added to `rest_url` in a second
/// step, as the plugin does, which encodes the pairs already there.
pub fn plugin_links(
    ctx: &Ctx,
    collection: &str,
    pairs: &[(String, String)],
    extra: &[(String, String)],
    page: &Page,
    total_pages: usize,
) -> Links {
    let base = format!("{}/{collection}/", ctx.api_base);
    let encode = |text: &str| form_urlencoded::byte_serialize(text.as_bytes()).collect::<String>().replace('*', "%2A");
    let raw = |(name, value): &(String, String)| format!("{name}={value}");
    let encoded = |(name, value): &(String, String)| format!("{}={}", encode(name), encode(value));
    let query: Vec<String> = match extra.is_empty() {
        true => pairs.iter().map(raw).collect(),
        false => pairs.iter().map(encoded).chain(extra.iter().map(raw)).collect(),
    };
    let rest_url = if query.is_empty() { base.clone() } else { format!("{base}?{}", query.join("&")) };
    let pairs: Vec<(String, String)> = pairs.iter().chain(extra).cloned().collect();
    let kept: Vec<String> = pairs.iter().filter(|(name, _)| name != "page").map(encoded).collect();
    let with_page = |number: usize| {
        let mut query = kept.clone();
        if number > 1 {
            query.push(format!("page={number}"));
        }
        if query.is_empty() {
            base.clone()
        } else {
            format!("{base}?{}", query.join("&"))
        }
    };
    Links {
        rest_url,
        next: (page.number < total_pages).then(|| with_page(page.number + 1)),
        previous: (page.number > 1).then(|| with_page(page.number - 1)),
    }
}

/// The `status` a plugin list link names when the request gave none: `any` for those who may
/// write such items, else `publish`; the request's own list otherwise.
pub fn plugin_status(ctx: &Ctx, args: &Args) -> String {
    match args.list("status") {
        Some(items) => items.iter().map(value_text).collect::<Vec<_>>().join(","),
        None if ctx.user.is_some_and(|user| user.can_edit_posts()) => "any".to_string(),
        None => "publish".to_string(),
    }
}

fn url_with(base: &str, pairs: &[(String, String)]) -> String {
    if pairs.is_empty() {
        return base.to_string();
    }
    let query: String = form_urlencoded::Serializer::new(String::new()).extend_pairs(pairs).finish();
    format!("{base}?{query}")
}
