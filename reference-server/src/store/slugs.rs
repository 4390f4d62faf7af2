//! Slugs: who owns each slug of a kind and language, and which suffixed forms of a base are
//! free, so a unique slug is found without probing `-2`, `-3`, … one by one (issue 9, C3).
//!
//! For every base with suffixed slugs, `Suffixes` knows a `high` mark such that every suffix
//! from 2 below it is taken except a set of `holes`, and `high` itself is free. Taking or
//! freeing a slug keeps that true in O(log n) amortised; finding the first free suffix looks
//! at the holes, then at `high`.

use std::collections::{BTreeSet, HashMap};

use super::sharded::ShardedMap;
use super::{truncate_slug, SlugKind, MAX_SLUG};
use crate::model::{Id, Lang};

/// Every slug namespace of the store.
#[derive(Default)]
pub struct Slugs {
    spaces: HashMap<(SlugKind, Lang), Space>,
}

#[derive(Default)]
struct Space {
    owners: ShardedMap<Box<str>, Id>,
    suffixes: HashMap<Box<str>, Suffixes>,
}

/// What is known of the suffixed forms `base-N` of one base.
struct Suffixes {
    high: u64,
    holes: BTreeSet<u64>,
}

const FIRST_SUFFIX: u64 = 2;

/// The marks' promise for one base, checked in debug builds after each change: a base is known
/// only while it has holes or a mark past the first suffix; the mark is free and the suffix
/// just under it taken; every hole lies under the mark and is free. A broken mark would only
/// send [`Slugs::unique`] back to probing, so no answer would show it. (A macro, like the
/// `debug_assert!`s elsewhere: a check that only debug builds run is not itself a mutation
/// target, see docs/mutants.md.)
macro_rules! check_marks {
    ($space:expr, $base:expr) => {
        if cfg!(debug_assertions) {
            let (space, base): (&Space, &str) = (&$space, $base);
            let taken = |n: u64| space.owners.contains_key(format!("{base}-{n}").as_str());
            match space.suffixes.get(base) {
                None => assert!(!taken(FIRST_SUFFIX), "{base}-{FIRST_SUFFIX} is taken and not marked"),
                Some(marks) => {
                    assert!(marks.high > FIRST_SUFFIX || !marks.holes.is_empty(), "an empty mark for {base}");
                    assert!(!taken(marks.high), "the mark {base}-{} is taken", marks.high);
                    assert!(marks.high == FIRST_SUFFIX || taken(marks.high - 1), "{base}-{} is free", marks.high - 1);
                    for &hole in &marks.holes {
                        assert!(
                            (FIRST_SUFFIX..marks.high).contains(&hole) && !taken(hole),
                            "a wrong hole {base}-{hole}"
                        );
                    }
                }
            }
        }
    };
}

impl Default for Suffixes {
    fn default() -> Suffixes {
        Suffixes { high: FIRST_SUFFIX, holes: BTreeSet::new() }
    }
}

/// `base-N` with N ≥ 2 written without leading zeros: `(base, N)`.
fn split_suffix(slug: &str) -> Option<(&str, u64)> {
    let (base, digits) = slug.rsplit_once('-')?;
    if base.is_empty() || digits.is_empty() || digits.starts_with('0') || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let n = digits.parse::<u64>().ok()?;
    (n >= FIRST_SUFFIX).then_some((base, n))
}

impl Slugs {
    pub fn owner(&self, kind: SlugKind, lang: Lang, slug: &str) -> Option<Id> {
        self.spaces.get(&(kind, lang))?.owners.get(slug).copied()
    }

    pub fn insert(&mut self, kind: SlugKind, lang: Lang, slug: &str, id: Id) {
        let space = self.spaces.entry((kind, lang)).or_default();
        space.owners.insert(slug.into(), id);
        let Some((base, n)) = split_suffix(slug) else { return };
        let high = space.suffixes.get(base).map_or(FIRST_SUFFIX, |s| s.high);
        if n > high {
            return;
        }
        let suffixes = space.suffixes.entry(base.into()).or_default();
        if n < high {
            suffixes.holes.remove(&n);
            check_marks!(space, base);
            return;
        }
        // `high` was taken: move it to the next free suffix (each step passes a taken slug,
        // and the mark only goes down when slugs are freed, so this is amortised O(1)).
        let mut next = n + 1;
        while space.owners.contains_key(format!("{base}-{next}").as_str()) {
            next += 1;
        }
        suffixes.high = next;
        check_marks!(space, base);
    }

    pub fn remove(&mut self, kind: SlugKind, lang: Lang, slug: &str) {
        let Some(space) = self.spaces.get_mut(&(kind, lang)) else { return };
        if space.owners.remove(slug).is_none() {
            return;
        }
        let Some((base, n)) = split_suffix(slug) else { return };
        let Some(suffixes) = space.suffixes.get_mut(base) else { return };
        if n >= suffixes.high {
            return;
        }
        suffixes.holes.insert(n);
        // Holes just below the mark lower it, so the holes stay few.
        while suffixes.high > FIRST_SUFFIX && suffixes.holes.remove(&(suffixes.high - 1)) {
            suffixes.high -= 1;
        }
        if suffixes.high == FIRST_SUFFIX && suffixes.holes.is_empty() {
            space.suffixes.remove(base);
        }
        check_marks!(space, base);
    }

    /// `wanted`, or `wanted-2`, `wanted-3`… whichever comes first that is free for this kind
    /// and language: not given out in `taken` and owned by nobody or by `own`, whose slug is
    /// `own_slug`. The base is shortened to make room for the suffix within `MAX_SLUG` bytes,
    /// as the CMS does.
    pub fn unique(
        &self,
        kind: SlugKind,
        lang: Lang,
        wanted: &str,
        own: Option<(Id, &str)>,
        taken: &dyn Fn(&str) -> bool,
    ) -> String {
        let space = self.spaces.get(&(kind, lang));
        let free = |slug: &str| {
            !taken(slug)
                && match space.and_then(|space| space.owners.get(slug)) {
                    None => true,
                    Some(owner) => Some(*owner) == own.map(|(id, _)| id),
                }
        };
        let wanted = truncate_slug(wanted, MAX_SLUG);
        if wanted.is_empty() || free(wanted) {
            return wanted.to_string();
        }
        let own_suffix = own.and_then(|(_, slug)| split_suffix(slug));
        // Suffixes of the same number of digits share a base (shortened for that many).
        let mut low = FIRST_SUFFIX;
        for digits in 1..=19u32 {
            let bound = 10u64.pow(digits);
            let base = truncate_slug(wanted, MAX_SLUG - 1 - digits as usize);
            let known = space.and_then(|space| space.suffixes.get(base));
            let high = known.map_or(FIRST_SUFFIX, |s| s.high);
            debug_assert!(
                space.is_none_or(|space| !space.owners.contains_key(format!("{base}-{high}").as_str())),
                "the mark {base}-{high} is taken"
            );
            // Below `high` only the holes (and the item's own slug) can be free.
            let below = low..bound.min(high).max(low);
            let mut candidates: Vec<u64> =
                known.map(|s| s.holes.range(below.clone()).copied().collect()).unwrap_or_default();
            if let Some((own_base, n)) = own_suffix {
                if own_base == base && below.contains(&n) {
                    candidates.push(n);
                    candidates.sort_unstable();
                }
            }
            let found = candidates
                .into_iter()
                .chain(low.max(high)..bound)
                .map(|n| format!("{base}-{n}"))
                .find(|slug| free(slug));
            if let Some(slug) = found {
                return slug;
            }
            low = bound;
        }
        String::new()
    }

    /// Every `(kind, lang, slug, owner)`, for fingerprints.
    pub fn entries(&self) -> impl Iterator<Item = (SlugKind, Lang, &str, Id)> {
        self.spaces
            .iter()
            .flat_map(|((kind, lang), space)| space.owners.iter().map(move |(slug, id)| (*kind, *lang, &**slug, *id)))
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::*;
    use crate::seed::rng::Rng;

    /// The CMS's way, probing one suffix after the other.
    fn probing(owners: &BTreeMap<String, Id>, wanted: &str, own: Option<Id>, taken: &dyn Fn(&str) -> bool) -> String {
        let free = |slug: &str| {
            !taken(slug)
                && match owners.get(slug) {
                    None => true,
                    Some(owner) => Some(*owner) == own,
                }
        };
        let wanted = truncate_slug(wanted, MAX_SLUG);
        if wanted.is_empty() || free(wanted) {
            return wanted.to_string();
        }
        (2u64..)
            .map(|n| {
                let suffix = format!("-{n}");
                format!("{}{suffix}", truncate_slug(wanted, MAX_SLUG - suffix.len()))
            })
            .find(|slug| free(slug))
            .unwrap_or_default()
    }

    /// Random takes and frees of plain and suffixed slugs (short bases and bases long enough
    /// to be shortened for the suffix): the suffix bookkeeping always finds what probing finds.
    #[test]
    fn finds_what_probing_finds() {
        for seed in 1..=12u64 {
            random_run(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15));
        }
    }

    fn random_run(seed: u64) {
        let long = "b".repeat(197);
        let bases = ["a", "a-2", "event", "x-1", &long];
        let mut rng = Rng(seed);
        let mut slugs = Slugs::default();
        // Ordered, so the run is the same every time.
        let mut owners: BTreeMap<String, Id> = BTreeMap::new();
        let (kind, lang) = (SlugKind::Event, Lang::En);
        for step in 0..5_000u64 {
            let base = bases[rng.below(bases.len() as u64) as usize];
            let wanted = if rng.below(3) == 0 { format!("{base}-{}", rng.below(14)) } else { base.to_string() };
            match rng.below(4) {
                // Take the slug unique() gives, as a write does.
                0 | 1 => {
                    let id = 1 + rng.below(40);
                    let own = owners.iter().find(|(_, owner)| **owner == id).map(|(slug, _)| slug.clone());
                    let blocked = [format!("{base}-{}", rng.below(12)), format!("{base}-{}", rng.below(12))];
                    let taken = |slug: &str| blocked.iter().any(|b| b == slug);
                    let own_pair = own.as_deref().map(|slug| (id, slug));
                    let expected = probing(&owners, &wanted, Some(id), &taken);
                    let got = slugs.unique(kind, lang, &wanted, own_pair, &taken);
                    assert_eq!(got, expected, "seed {seed} step {step}: wanted {wanted}");
                    if let Some(old) = own {
                        slugs.remove(kind, lang, &old);
                        owners.remove(&old);
                    }
                    slugs.insert(kind, lang, &got, id);
                    owners.insert(got, id);
                }
                // Free a slug.
                2 => {
                    let victim = owners.keys().nth(rng.below(owners.len().max(1) as u64) as usize).cloned();
                    if let Some(victim) = victim {
                        slugs.remove(kind, lang, &victim);
                        owners.remove(&victim);
                    }
                }
                // Take a slug outright (a slug given by the client).
                _ => {
                    if let std::collections::btree_map::Entry::Vacant(entry) = owners.entry(wanted) {
                        let id = 100 + step;
                        slugs.insert(kind, lang, entry.key(), id);
                        entry.insert(id);
                    }
                }
            }
        }
    }

    /// Every short slug made of the bytes a slug holds (the CMS's sanitizer keeps `a-z`, `0-9`,
    /// `_`, `%` and `-`) is split as a plain reading of `base-N` splits it: `a-02` is no suffix.
    #[test]
    fn suffixes_are_split_as_the_model_splits_them() {
        let model = |slug: &str| -> Option<(String, u64)> {
            let at = slug.rfind('-')?;
            let (base, digits) = (&slug[..at], &slug[at + 1..]);
            let plain = !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) && !digits.starts_with('0');
            let n: u64 = if plain && !base.is_empty() { digits.parse().ok()? } else { return None };
            (n >= FIRST_SUFFIX).then(|| (base.to_string(), n))
        };
        let mut slugs = vec![String::new()];
        let mut last = vec![String::new()];
        for _ in 0..5 {
            last = last.iter().flat_map(|s| ['a', '-', '0', '1', '2', '_', '%'].map(|c| format!("{s}{c}"))).collect();
            slugs.extend(last.iter().cloned());
        }
        for slug in slugs {
            assert_eq!(split_suffix(&slug).map(|(base, n)| (base.to_string(), n)), model(&slug), "{slug:?}");
        }
    }

    #[test]
    fn same_title_creates_take_the_next_suffix() {
        let mut slugs = Slugs::default();
        let (kind, lang) = (SlugKind::Event, Lang::En);
        for id in 1..=1000 {
            let slug = slugs.unique(kind, lang, "jazz-night", None, &|_| false);
            slugs.insert(kind, lang, &slug, id);
        }
        assert_eq!(slugs.unique(kind, lang, "jazz-night", None, &|_| false), "jazz-night-1001");
        slugs.remove(kind, lang, "jazz-night-17");
        assert_eq!(slugs.unique(kind, lang, "jazz-night", None, &|_| false), "jazz-night-17");
    }
}
