//! The plugin's `loose-duplicates` quirk (the twin, `--like plugin-6.17.2`): a venue or
//! organizer create finds its duplicate by name (and description) among every item (linked.rs
//! then writes the request's fields over it). Only the twin runs this code: the suite, in the default mode,
//! cannot reach it, so the suite's mutation sample leaves this file out and the server's own
//! tests check it (scripts/mutants/sample.py).

use super::Planner;
use crate::model::{Id, Post, PostKind, Status};
use crate::validate::{value_text, Args};

/// The plugin's `loose-duplicates` quirk: an item of the same name (letter case aside), and of
/// the same description when the request gives one, is the duplicate, whoever may read it and
/// whatever its status but the trash; the oldest when several match.
pub(super) fn loose_duplicate_of(planner: &Planner, args: &Args, kind: PostKind, name_key: &str) -> Option<Id> {
    let (ctx, data) = (planner.ctx, planner.data);
    let same = |given: &str, have: &str| given.trim().to_lowercase() == have.trim().to_lowercase();
    let name = args.get(name_key).map(value_text)?;
    let description = args.get("description").map(value_text).filter(|text| !text.is_empty());
    let fits =
        |post: &Post| post.status != Status::Trash && description.as_ref().is_none_or(|text| same(text, &post.content));
    let stored = data.titled(kind, ctx.lang, &name).filter(|id| data.post(*id).is_some_and(fits));
    let pending = planner.changes_ref();
    let made: Vec<&Post> = match kind {
        PostKind::Venue => pending.venues.iter().map(|item| &item.post).collect(),
        _ => pending.organizers.iter().map(|item| &item.post).collect(),
    };
    let planned = made.into_iter().filter(|p| same(&name, &p.title) && fits(p)).map(|p| p.id);
    stored.chain(planned).min()
}
