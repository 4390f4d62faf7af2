//! Who may read what. One set of rules serves every way an item can be reached: a direct read,
//! an item embedded in an event, a link made by a write, a duplicate matched on create, a list
//! filter and a term list by event. An item that a caller may not read directly is never shown,
//! matched or selected for them by any other way.
//!
//! - A venue or organizer may be read when it is published, or by those who may read the
//!   author's unpublished posts (editors and administrators; the author).
//! - An event likewise, except in the trash, where nobody reads it.
//! - A password-protected event shows only what the password does not hide unless the request
//!   gives the password (or asks for the edit context with the right to edit it); what it
//!   hides (its text, its venue, organizers and terms, its flags) no filter selects on for a
//!   caller who could not read it: one without the password and without the right to edit it.
//! - A link from an event to a venue or organizer is seen only by those who see both ends:
//!   the event in full, and the linked item.

use std::sync::Arc;

use crate::app::Ctx;
use crate::model::{Event, Organizer, Post, Status, Venue};
use crate::store::{Data, Rec};

/// Whether the caller may read a post that is not an event (or an event's status allows it).
pub fn may_read(ctx: &Ctx, post: &Post) -> bool {
    post.status == Status::Publish || ctx.user.is_some_and(|user| user.can_read_post(post.author))
}

/// What a request gives to see a protected event's hidden fields.
#[derive(Clone, Copy, Debug, Default)]
pub struct Reveal<'a> {
    pub password: Option<&'a str>,
    /// `context=edit` (the right to edit the event is checked here).
    pub edit_context: bool,
}

impl Reveal<'_> {
    /// Where a request has no way to give the password or the context (lists that select on
    /// an event's links and terms): what those who may edit the event could read anyway.
    pub const EDITORS: Reveal<'static> = Reveal { password: None, edit_context: true };
}

/// How much of an event a caller sees.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sight {
    /// Nothing: trashed, or unpublished and not the caller's to read.
    Hidden,
    /// The event, with what its password hides blanked.
    Protected,
    /// All of it.
    Full,
}

/// How much of `event` the caller sees, given what the request reveals.
pub fn event_sight(ctx: &Ctx, event: &Event, reveal: Reveal) -> Sight {
    let post = &event.post;
    if post.status == Status::Trash || !may_read(ctx, post) {
        return Sight::Hidden;
    }
    if is_protected_for(ctx, post, reveal) {
        Sight::Protected
    } else {
        Sight::Full
    }
}

/// Whether the post's password hides its content from this request.
pub fn is_protected_for(ctx: &Ctx, post: &Post, reveal: Reveal) -> bool {
    let Some(password) = &post.password else { return false };
    let given = reveal.password.is_some_and(|given| given == &**password);
    let editing = reveal.edit_context
        && ctx.user.is_some_and(|user| user.can_edit_post(post.author, post.rights_status().visibility()));
    !given && !editing
}

/// The plugin's `linked-seen-by-all` quirk: an event's links show to every reader of the event,
/// are linked by any writer, and select for any event, whoever may read the linked items.
pub fn links_open(ctx: &Ctx) -> bool {
    ctx.app.config.quirks.on(crate::quirks::Quirk::LinkedSeenByAll)
}

/// The event's venue, if the caller may see it there.
pub fn visible_venue<'a>(ctx: &Ctx, data: &'a Data, event: &Event) -> Option<&'a Arc<Rec<Venue>>> {
    event.venue.and_then(|id| data.venues.get(&id)).filter(|venue| links_open(ctx) || may_read(ctx, &venue.post))
}

/// The event's organizers the caller may see there (a trashed organizer leaves the event, as
/// on the plugin, whoever looks).
pub fn visible_organizers<'a>(
    ctx: &'a Ctx,
    data: &'a Data,
    event: &'a Event,
) -> impl Iterator<Item = &'a Arc<Rec<Organizer>>> {
    event.organizers.iter().filter_map(|id| data.organizers.get(id)).filter(|organizer| {
        organizer.post.status != Status::Trash && (links_open(ctx) || may_read(ctx, &organizer.post))
    })
}
