//! What an event write links to: terms by ID or name, venues and organizers by ID or by
//! inline data.

use serde_json::Value;

use super::linked;
use super::Planner;
use crate::error::{ApiError, ApiResult};
use crate::model::{Id, PostKind, Taxonomy, Term};
use crate::store::SlugKind;
use crate::text::sanitize_title;
use crate::validate::{as_int, list_to_array, value_text, LinkEntry};

impl Planner<'_> {
    /// Term IDs from IDs or names. Unknown IDs are skipped; an unknown name becomes a new term
    /// for users who may manage the taxonomy (authors and up for categories, editors and up
    /// for tags, as on the term routes); anyone else is refused with 403.
    pub fn terms(&mut self, value: &Value, taxonomy: Taxonomy) -> ApiResult<Vec<Id>> {
        let mut ids = Vec::new();
        for item in list_to_array(value) {
            let text = value_text(&item);
            let text = text.trim();
            let found = if item.is_number() || text.bytes().all(|b| b.is_ascii_digit()) {
                as_int(&item)
                    .map(|id| id as Id)
                    .filter(|id| self.data.terms.get(id).is_some_and(|term| term.taxonomy == taxonomy))
            } else {
                Some(match self.term_named(taxonomy, text) {
                    Some(id) => id,
                    None => self.new_term(taxonomy, text)?,
                })
            };
            if let Some(id) = found.filter(|id| !ids.contains(id)) {
                ids.push(id);
            }
        }
        Ok(ids)
    }

    /// A term of the request's language with this name, or with the slug the name gives, in
    /// the store or made earlier in this plan.
    fn term_named(&self, taxonomy: Taxonomy, name: &str) -> Option<Id> {
        let lang = self.ctx.lang;
        let slug = sanitize_title(name);
        let planned = self.changes_ref().terms.iter().find(|term| {
            term.taxonomy == taxonomy && (term.name.to_lowercase() == name.to_lowercase() || *term.slug == *slug)
        });
        if let Some(term) = planned {
            return Some(term.id);
        }
        self.data
            .term_named(taxonomy, lang, name, None)
            .or_else(|| self.data.slug_owner(SlugKind::from(taxonomy), lang, &slug))
    }

    fn new_term(&mut self, taxonomy: Taxonomy, name: &str) -> ApiResult<Id> {
        // The plugin's `terms-for-writers` quirk: whoever may write the event creates them.
        let for_writers = self.ctx.app.config.quirks.on(crate::quirks::Quirk::TermsForWriters);
        let may = self.ctx.user.is_some_and(|user| match taxonomy {
            _ if for_writers => true,
            Taxonomy::Category => user.can_manage_categories(),
            Taxonomy::Tag => user.can_manage_tags(),
        });
        if !may {
            let reason = crate::reasons::new_term(self.ctx, taxonomy, name);
            return Err(ApiError::forbidden(self.ctx.logged_in()).because(reason));
        }
        let id = self.term_id();
        let lang = self.ctx.lang;
        let slug = self.slug(SlugKind::from(taxonomy), lang, &sanitize_title(name), id);
        self.changes().terms.push(Term {
            id,
            taxonomy,
            name: name.into(),
            slug,
            description: Box::from(""),
            parent: 0,
            lang,
            count: 0,
        });
        Ok(id)
    }

    /// The IDs of an event's venue or organizers: linked items as given, inline data as the
    /// readable item it duplicates or as a new item. Inline data that passed its checks but
    /// cannot become an item (another author, without the right) is `could-not-create-…`.
    pub fn linked_items(&mut self, entries: &[LinkEntry], kind: PostKind) -> ApiResult<Vec<Id>> {
        let mut ids = Vec::new();
        for entry in entries {
            let id = match entry {
                LinkEntry::Existing(id) => *id,
                LinkEntry::Inline(args) => {
                    linked::plan_create(self, args, kind).map_err(|_| ApiError::of(&linked::could_not_create(kind)))?
                }
            };
            if !ids.contains(&id) {
                ids.push(id);
            }
        }
        Ok(ids)
    }
}
