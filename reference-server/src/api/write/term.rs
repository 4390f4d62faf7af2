//! Planning category and tag writes.

use serde_json::json;

use super::Planner;
use crate::error::{ApiError, ApiResult};
use crate::interface::errors;
use crate::model::{Id, Taxonomy, Term};
use crate::store::{Data, SlugKind};
use crate::text::{render_term_description, render_term_name, sanitize_slug, sanitize_title};
use crate::validate::{value_text, Args};

/// `term_exists`, with the existing term's ID, as the CMS answers it.
fn term_exists(taxonomy: Taxonomy, id: Id) -> ApiError {
    let mut error = ApiError::of(&errors::TERM_EXISTS).with_data("term_id", json!(id));
    if taxonomy == Taxonomy::Category {
        error = error.with_message("A term with the name provided already exists with this parent.");
    }
    error.extra.push(("additional_data", json!([id, id])));
    error
}

/// The parent a category write names (by ID or slug), if it exists.
fn parent_of(planner: &Planner, args: &Args, taxonomy: Taxonomy) -> Option<Id> {
    args.get("parent").and_then(|value| planner.data.find_term(taxonomy, planner.ctx.lang, &value_text(value)))
}

/// A new term from the create arguments; its ID.
pub fn plan_create(planner: &mut Planner, args: &Args, taxonomy: Taxonomy) -> ApiResult<Id> {
    let lang = planner.ctx.lang;
    let name = render_term_name(args.str("name").unwrap_or(""));
    let parent = parent_of(planner, args, taxonomy).unwrap_or(0);
    if let Some(existing) = planner.data.term_named(taxonomy, lang, &name, Some(parent)) {
        return Err(term_exists(taxonomy, existing));
    }
    let wanted = match args.str("slug") {
        Some(slug) => sanitize_slug(slug),
        None => sanitize_title(&name),
    };
    let id = planner.term_id();
    let slug = planner.slug(SlugKind::from(taxonomy), lang, &wanted, id);
    planner.changes().terms.push(Term {
        id,
        taxonomy,
        name: name.into(),
        slug,
        description: render_term_description(args.str("description").unwrap_or("")).into(),
        parent,
        lang,
        count: 0,
    });
    Ok(id)
}

/// Whether `parent`, or a term above it, is `id` (at most as many steps as there are terms).
fn closes_loop(data: &Data, id: Id, parent: Id) -> bool {
    std::iter::successors(Some(parent), |up| data.terms.get(up).map(|term| term.parent))
        .take(data.terms.len() + 1)
        .any(|up| up == id)
}

/// The term `id` with the fields the update arguments carry.
pub fn plan_update(planner: &mut Planner, args: &Args, taxonomy: Taxonomy, id: Id) -> ApiResult<()> {
    let mut term = Term::clone(&planner.data.terms[&id]);
    if let Some(parent) = parent_of(planner, args, taxonomy) {
        // As the CMS: a parent that would close a loop (the term itself, or one of the terms
        // under it) puts the term at the top level instead.
        term.parent = if closes_loop(planner.data, id, parent) { 0 } else { parent };
    }
    if let Some(name) = args.str("name") {
        // Another term's name is taken as it is: real sites refuse a duplicate name on create
        // only (S6.5).
        term.name = render_term_name(name).into();
    }
    if let Some(description) = args.str("description") {
        term.description = render_term_description(description).into();
    }
    if let Some(slug) = args.str("slug") {
        term.slug = planner.slug(SlugKind::from(taxonomy), term.lang, &sanitize_slug(slug), id);
    }
    planner.changes().terms.push(term);
    Ok(())
}
