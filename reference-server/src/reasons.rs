//! Refusals in words, for the request journal: which check said no and why
//! ("subscriber may not create events", "start_date: not a date"). Nothing here reaches an
//! answer; the interface answers exactly what the CMS does.

use crate::app::Ctx;
use crate::error::ApiError;
use crate::interface::{Op, Resource, Route, Rule};
use crate::model::{Id, Taxonomy};
use crate::store::Data;

/// Why the caller may not perform `op` on the route (and its target).
pub fn permission(ctx: &Ctx, data: &Data, route: &Route, op: Op, target: Option<Id>) -> String {
    let verb = match op {
        Op::Create => "create",
        Op::Update => "edit",
        Op::Delete => "delete",
        _ => "use",
    };
    let Some(user) = ctx.user else {
        return format!("anonymous requests may not {verb} {}: log in", plural(route.resource));
    };
    let who = user.role.name();
    match target.and_then(|id| data.post(id)) {
        Some(post) if !route.resource.is_term() => {
            let author =
                ctx.app.users.get(post.author).map_or_else(|| format!("user {}", post.author), |u| u.name.clone());
            format!(
                "{who} may not {verb} {} {} ({}, written by {author})",
                singular(route.resource),
                post.id,
                post.rights_status().name()
            )
        }
        _ => format!("{who} may not {verb} {}", plural(route.resource)),
    }
}

/// Why a new term could not be made by a write that names it.
pub fn new_term(ctx: &Ctx, taxonomy: Taxonomy, name: &str) -> String {
    let what = match taxonomy {
        Taxonomy::Category => "categories",
        Taxonomy::Tag => "tags",
    };
    let who = ctx.user.map_or("anonymous requests", |user| user.role.name());
    format!("{who} may not create {what} (the write names a new one: {name:?})")
}

/// Why setting another author was refused.
pub fn other_author(ctx: &Ctx, author: i64) -> String {
    let who = ctx.user.map_or("anonymous requests", |user| user.role.name());
    format!("{who} may not write as another user (author {author})")
}

/// What a value that fails a rule is not.
pub fn rule(rule: Rule) -> &'static str {
    match rule {
        Rule::None => "not accepted",
        Rule::PositiveInt => "not a positive whole number",
        Rule::PositiveIntList => "not a list of positive whole numbers",
        Rule::Time => "not a date",
        Rule::NonEmpty => "empty",
        Rule::StringOrEmpty => "not a string",
        Rule::UserId => "not the ID of a user",
        Rule::PostStatus => "not a post status",
        Rule::StatusList => "not a status list this user may ask for",
        Rule::EventId => "not the ID of an event",
        Rule::VenueIdList => "not a list of venue IDs",
        Rule::OrganizerIdList => "not a list of organizer IDs",
        Rule::CategoryList => "names a category that does not exist",
        Rule::TagList => "names a tag that does not exist",
        Rule::TermList => "names a term that does not exist",
        Rule::TimezoneOrEmpty => "not a time zone",
        Rule::ImageOrEmpty => "not an image ID or an image URL",
        Rule::UrlOrEmpty => "not a URL",
        Rule::VenueEntry => "not a venue this user may link, nor valid venue data",
        Rule::OrganizerEntry => "not an organizer this user may link, nor valid organizer data",
        Rule::Ticketed => "needs the ticketing extension",
    }
}

fn plural(resource: Resource) -> &'static str {
    match resource {
        Resource::Index | Resource::Doc => "this route",
        Resource::Events => "events",
        Resource::Venues => "venues",
        Resource::Organizers => "organizers",
        Resource::Categories => "categories",
        Resource::Tags => "tags",
    }
}

fn singular(resource: Resource) -> &'static str {
    match resource {
        Resource::Venues => "venue",
        Resource::Organizers => "organizer",
        _ => "event",
    }
}

/// The refusal in words, for the journal: the reason the refusing check recorded, or else the
/// message without its markup.
pub fn in_words(error: &ApiError) -> String {
    match &error.reason {
        Some(reason) => reason.clone(),
        None => strip_markup(&error.message),
    }
}

/// Text without its HTML tags (`<strong>Error:</strong> Unknown…` → `Error: Unknown…`).
fn strip_markup(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut in_tag = false;
    for c in text.chars() {
        match c {
            '<' => in_tag = true,
            '>' if in_tag => in_tag = false,
            _ if !in_tag => out.push(c),
            _ => {}
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::InvalidParam;
    use crate::interface::errors;

    #[test]
    fn reasons_name_each_argument_and_never_reach_the_answer() {
        let error = ApiError::invalid_params(&[
            InvalidParam::plain("start_date").because("not a date"),
            InvalidParam::wrong_type("page", "integer"),
        ]);
        assert_eq!(in_words(&error), "start_date: not a date; page: not of type integer");
        assert!(!error.to_json().to_string().contains("not a date"));
        assert_eq!(
            in_words(&ApiError::of(&errors::INVALID_USERNAME)),
            "Error: Unknown username. Check again or try your email address."
        );
        assert_eq!(
            in_words(&ApiError::forbidden(true).because("subscriber may not create events")),
            "subscriber may not create events"
        );
    }
}
