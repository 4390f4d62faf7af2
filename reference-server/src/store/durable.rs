//! The store's side of the durable state (`--state`: the write hook, snapshots, a restart on
//! another address), of the admin reset, and of the tests' fingerprint. The suite's servers
//! run without any of them, so the mutation sample leaves this file out (docs/mutants.md); the
//! server's own tests check each.

use super::*;

/// Told of every change to the store, under its write lock and before the change is applied,
/// so changes reach it in the order they are applied. `--state` records them (see `state`).
/// A hook cannot refuse a change: a plan is checked before it is applied.
pub trait WriteHook: Send + Sync {
    /// A planned write, about to be applied.
    fn applied(&self, changes: &Changes);
    /// The store was changed outside `apply` (replaced, or bulk-loaded): `data` is all of it.
    fn replaced(&self, data: &Data);
}

impl IdReserve {
    /// A reserve whose last given post and term IDs are these.
    pub fn at(post: Id, term: Id) -> IdReserve {
        IdReserve { post, term }
    }

    /// The last post and term IDs given out.
    pub fn last(&self) -> (Id, Id) {
        (self.post, self.term)
    }
}

impl Data {
    /// Moves the images kept under the site's old address (`old/…`: the sample media and
    /// uploads) to its new one, as a restart on another address does for every other link.
    /// Images of other sites keep their address. Returns how many moved.
    pub fn move_site(&mut self, old: &str, new: &str) -> usize {
        let prefix = format!("{}/", old.trim_end_matches('/'));
        let moved_url =
            |url: &str| url.strip_prefix(&prefix).map(|rest| format!("{}/{rest}", new.trim_end_matches('/')));
        let moving: Vec<Id> =
            self.images.values().filter(|image| image.url.starts_with(&prefix)).map(|image| image.id).collect();
        for id in &moving {
            let Some(old_image) = self.images.get(id) else { continue };
            let mut image = Image::clone(old_image);
            if self.image_urls.get(&image.url) == Some(id) {
                self.image_urls.remove(&image.url);
            }
            image.url = moved_url(&image.url).unwrap_or_default().into();
            for size in image.meta.iter_mut().flat_map(|meta| meta.sizes.iter_mut()) {
                if let Some(url) = moved_url(&size.url) {
                    size.url = url.into();
                }
            }
            self.put_image(image);
        }
        moving.len()
    }

    /// A hash of everything the store holds (records, slugs, ID counters), independent of
    /// map order: two stores with the same content have the same fingerprint. Tests use it
    /// to check that a rejected write changed nothing. Image addresses under `site` count
    /// without it: a restart on another address moves them (`move_site`).
    pub fn fingerprint(&self, site: &str) -> u64 {
        use std::hash::{Hash, Hasher};
        fn sorted<K: Ord + Copy, V>(map: &HashMap<K, V>) -> Vec<(K, &V)> {
            let mut items: Vec<(K, &V)> = map.iter().map(|(key, value)| (*key, value)).collect();
            items.sort_by_key(|(key, _)| *key);
            items
        }
        let mut hasher = std::collections::hash_map::DefaultHasher::new();
        (self.next_post_id, self.next_term_id).hash(&mut hasher);
        let kinds: Vec<(usize, PostKind)> =
            self.kinds.iter().enumerate().filter_map(|(id, kind)| kind.map(|kind| (id, kind))).collect();
        format!("{kinds:?}").hash(&mut hasher);
        let events: Vec<(Id, &Arc<Rec<Event>>)> = self.events.iter().collect();
        format!("{events:?}").hash(&mut hasher);
        format!("{:?}", self.venues).hash(&mut hasher);
        format!("{:?}", self.organizers).hash(&mut hasher);
        format!("{:?}", self.terms).hash(&mut hasher);
        format!("{:?}", sorted(&self.images)).replace(site, "SITE").hash(&mut hasher);
        let mut slugs: Vec<String> =
            self.slugs.entries().map(|(kind, lang, slug, id)| format!("{:?}={id}", (kind, lang, slug))).collect();
        slugs.sort_unstable();
        slugs.hash(&mut hasher);
        hasher.finish()
    }

    pub fn set_hook(&mut self, hook: Option<Arc<dyn WriteHook>>) {
        self.hook = hook;
    }

    /// Replaces everything the store holds (an admin reset), keeping the hook, which is told.
    pub fn replace_with(&mut self, fresh: Data) {
        let hook = self.hook.take();
        *self = fresh;
        if let Some(hook) = &hook {
            hook.replaced(self);
        }
        self.hook = hook;
    }

    /// Tells the hook that the store changed outside `apply` (a bulk load).
    pub fn changed_in_bulk(&self) {
        if let Some(hook) = &self.hook {
            hook.replaced(self);
        }
    }

    /// The last post and term IDs given out.
    pub fn counters(&self) -> (Id, Id) {
        (self.next_post_id, self.next_term_id)
    }

    /// The site's posts that are not part of the calendar (pages), which no record carries.
    pub fn pages(&self) -> Vec<Id> {
        // `kinds` is indexed by ID, so this walk gives them in order.
        (0..self.kinds.len())
            .filter(|at| self.kinds[*at] == Some(PostKind::Page))
            .filter_map(|at| Id::try_from(at).ok())
            .collect()
    }

    /// A store with these pages and records, the counters at `records.ids`.
    pub fn restore(pages: &[Id], records: Changes) -> Data {
        let mut data = Data::default();
        for id in pages {
            data.set_kind(*id, PostKind::Page);
        }
        data.apply(records);
        data
    }
}
