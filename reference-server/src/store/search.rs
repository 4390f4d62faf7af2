//! The word index behind the events list's `search` (issue 10): which events hold a text, in
//! their title or in their excerpt and description, without reading every event.
//!
//! The plugin's search is a case-insensitive substring match of each word of the query in
//! the title, the excerpt or the content (SQL `LIKE '%word%'`). A query word holds no
//! whitespace, so it occurs in a text exactly when it occurs in one of the text's
//! whitespace-separated pieces (lowercased as the whole text is). The index keeps each
//! distinct lowercase piece (a *token*) once, with the events that hold it in their title and
//! in their excerpt or content; a query word finds its tokens through the trigrams of the
//! tokens (or, for words of one or two bytes, by looking at every token), checks that each
//! really contains it, and unites their events. The answer is exact: no event needs reading.

use std::collections::hash_map::DefaultHasher;
use std::collections::HashMap;
use std::hash::{Hash, Hasher};

use roaring::RoaringBitmap;

use super::sharded::ShardedMap;
use crate::model::{Event, Id};

/// The events that hold a token: one inline (most tokens of unique titles are in one event),
/// else a compressed bitmap.
#[derive(Clone, Debug, Default)]
enum Postings {
    #[default]
    None,
    One(u32),
    Many(RoaringBitmap),
}

impl Postings {
    fn insert(&mut self, id: u32) {
        match self {
            Postings::None => *self = Postings::One(id),
            Postings::One(one) if *one == id => {}
            Postings::One(one) => *self = Postings::Many(RoaringBitmap::from_iter([*one, id])),
            Postings::Many(bitmap) => {
                bitmap.insert(id);
            }
        }
    }

    fn remove(&mut self, id: u32) {
        match self {
            // Only an event the postings hold is taken away (its own tokens, deduplicated).
            Postings::One(one) => {
                debug_assert_eq!(*one, id, "an event is taken from postings that do not hold it");
                *self = Postings::None;
            }
            Postings::Many(bitmap) => {
                bitmap.remove(id);
                if bitmap.len() == 1 {
                    if let Some(last) = bitmap.min() {
                        *self = Postings::One(last);
                    }
                }
            }
            _ => {}
        }
    }

    fn is_empty(&self) -> bool {
        matches!(self, Postings::None)
    }

    fn add_to(&self, into: &mut RoaringBitmap) {
        match self {
            Postings::None => {}
            Postings::One(id) => {
                into.insert(*id);
            }
            Postings::Many(bitmap) => *into |= bitmap,
        }
    }
}

const NONE: u32 = u32::MAX;

struct Token {
    text: Box<str>,
    title: Postings,
    body: Postings,
    /// The next token of the same hash (a chain through `Vocabulary::heads`).
    next: u32,
}

/// What a query word matches: the events that hold it in their title, and those that hold it
/// in their excerpt or description.
#[derive(Debug, Default)]
pub struct Matches {
    pub title: RoaringBitmap,
    pub body: RoaringBitmap,
}

/// The index.
#[derive(Default)]
pub struct SearchIndex {
    tokens: Vec<Token>,
    /// The first token of each text hash (texts are kept once, in `tokens`).
    heads: ShardedMap<u64, u32>,
    /// Token slots emptied, to be used again.
    free: Vec<u32>,
    /// Tokens by the trigrams of their bytes.
    grams: HashMap<[u8; 3], RoaringBitmap>,
    /// An event ID too large for the index was stored: searches must walk instead.
    pub overflowed: bool,
}

fn hash(text: &str) -> u64 {
    let mut hasher = DefaultHasher::new();
    text.hash(&mut hasher);
    hasher.finish()
}

fn trigrams(text: &str) -> impl Iterator<Item = [u8; 3]> + '_ {
    text.as_bytes().windows(3).map(|w| [w[0], w[1], w[2]])
}

/// The distinct tokens of some texts.
fn tokens_of(texts: &[&str]) -> Vec<String> {
    let mut tokens: Vec<String> = Vec::new();
    for text in texts {
        tokens.extend(text.to_lowercase().split_whitespace().map(str::to_string));
    }
    tokens.sort_unstable();
    tokens.dedup();
    tokens
}

impl SearchIndex {
    fn find(&self, text: &str) -> Option<u32> {
        let mut at = *self.heads.get(&hash(text))?;
        while at != NONE {
            let token = &self.tokens[at as usize];
            if &*token.text == text {
                return Some(at);
            }
            at = token.next;
        }
        None
    }

    fn find_or_add(&mut self, text: &str) -> u32 {
        if let Some(at) = self.find(text) {
            return at;
        }
        let key = hash(text);
        let next = self.heads.get(&key).copied().unwrap_or(NONE);
        let token = Token { text: text.into(), title: Postings::None, body: Postings::None, next };
        let at = match self.free.pop() {
            Some(at) => {
                self.tokens[at as usize] = token;
                at
            }
            None => {
                self.tokens.push(token);
                (self.tokens.len() - 1) as u32
            }
        };
        self.heads.insert(key, at);
        for gram in trigrams(text) {
            self.grams.entry(gram).or_default().insert(at);
        }
        at
    }

    /// Drops a token nobody holds any more.
    fn release(&mut self, at: u32) {
        let text = std::mem::take(&mut self.tokens[at as usize].text);
        let key = hash(&text);
        let next = self.tokens[at as usize].next;
        if self.heads.get(&key) == Some(&at) {
            if next == NONE {
                self.heads.remove(&key);
            } else {
                self.heads.insert(key, next);
            }
        } else if let Some(mut walk) = self.heads.get(&key).copied() {
            while walk != NONE {
                if self.tokens[walk as usize].next == at {
                    self.tokens[walk as usize].next = next;
                    break;
                }
                walk = self.tokens[walk as usize].next;
            }
        }
        for gram in trigrams(&text) {
            if let Some(bitmap) = self.grams.get_mut(&gram) {
                bitmap.remove(at);
                if bitmap.is_empty() {
                    self.grams.remove(&gram);
                }
            }
        }
        // Checked in debug builds: a slot given back is on no chain (else a later token in it
        // would sit on two chains, and searches would only cost more).
        debug_assert!(
            std::iter::successors(self.heads.get(&key).copied(), |&t| Some(self.tokens[t as usize].next))
                .take_while(|&t| t != NONE)
                .all(|t| t != at),
            "the released token {at} is still on its chain"
        );
        self.free.push(at);
    }

    /// Adds (`add`) or takes away an event's texts.
    pub fn update(&mut self, event: &Event, add: bool) {
        let Ok(id) = u32::try_from(event.post.id) else {
            self.overflowed = true;
            return;
        };
        let post = &event.post;
        let fields = [(true, tokens_of(&[&post.title])), (false, tokens_of(&[&post.excerpt, &post.content]))];
        for (in_title, tokens) in fields {
            for text in tokens {
                let at = if add {
                    self.find_or_add(&text)
                } else {
                    match self.find(&text) {
                        Some(at) => at,
                        None => continue,
                    }
                };
                let token = &mut self.tokens[at as usize];
                let postings = if in_title { &mut token.title } else { &mut token.body };
                if add {
                    postings.insert(id);
                } else {
                    postings.remove(id);
                    if token.title.is_empty() && token.body.is_empty() {
                        self.release(at);
                    }
                }
            }
        }
    }

    /// The events holding `word` (lowercase, no whitespace).
    pub fn matches(&self, word: &str) -> Matches {
        let mut found = Matches::default();
        let mut take = |token: &Token| {
            if token.text.contains(word) {
                token.title.add_to(&mut found.title);
                token.body.add_to(&mut found.body);
            }
        };
        if word.len() < 3 {
            self.tokens.iter().filter(|token| !token.text.is_empty()).for_each(&mut take);
            return found;
        }
        let mut candidates: Option<RoaringBitmap> = None;
        for gram in trigrams(word) {
            let Some(bitmap) = self.grams.get(&gram) else { return found };
            match &mut candidates {
                None => candidates = Some(bitmap.clone()),
                Some(set) => *set &= bitmap,
            }
        }
        for at in candidates.unwrap_or_default() {
            take(&self.tokens[at as usize]);
        }
        found
    }
}

/// Whether `text` contains `word` (already lowercase), without allocating for ASCII text: the
/// plugin's search semantics, which the index answers for whole words and their parts.
pub fn contains_ignoring_case(text: &str, word: &str) -> bool {
    if text.is_ascii() && word.is_ascii() {
        let (text, word) = (text.as_bytes(), word.as_bytes());
        return word.is_empty() || text.windows(word.len()).any(|window| window.eq_ignore_ascii_case(word));
    }
    text.to_lowercase().contains(word)
}

/// An event's ID as the index keeps it.
pub fn key(id: Id) -> Option<u32> {
    u32::try_from(id).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cost::StoredCost;
    use crate::dates::Zone;
    use crate::model::Post;
    use crate::seed::rng::Rng;

    /// Pieces texts are made of: ASCII of both cases, HTML, punctuation, accents, a Greek
    /// capital sigma (lowercased by its context), the Kelvin sign (lowercased to ASCII `k`),
    /// a dotted capital I (lowercased to two characters), and several kinds of whitespace.
    const PIECES: &[&str] = &[
        "Jazz",
        "jazz",
        "JAZZ",
        "jaz",
        "z",
        "Night",
        "<p>",
        "</p>",
        "&amp;",
        "-",
        "—",
        "Crème",
        "ΟΔΟΣ",
        "\u{212A}ey",
        "\u{130}st",
        "ka",
        " ",
        "  ",
        "\n",
        "\t",
        "\u{a0}",
        "\u{3000}",
        "é",
        "e\u{301}",
    ];

    fn text(rng: &mut Rng) -> String {
        (0..rng.below(12)).map(|_| PIECES[rng.below(PIECES.len() as u64) as usize]).collect()
    }

    fn event(rng: &mut Rng, id: Id) -> Event {
        let at = chrono::NaiveDate::from_ymd_opt(2027, 1, 1).and_then(|d| d.and_hms_opt(0, 0, 0)).expect("a date");
        Event {
            post: Post {
                id,
                author: 1,
                status: crate::model::Status::Publish,
                lang: crate::model::Lang::En,
                slug: "s".into(),
                title: text(rng).into(),
                content: text(rng).into(),
                excerpt: if rng.below(3) == 0 { text(rng).into() } else { Box::from("") },
                date: at,
                date_utc: None,
                modified: at,
                modified_utc: at,
                image: None,
                password: None,
                trashed: None,
            },
            zone: Zone::parse("UTC").expect("UTC"),
            start: at,
            end: at,
            start_utc: at,
            end_utc: at,
            all_day: false,
            cost: StoredCost::default(),
            website: None,
            show_map: false,
            show_map_link: false,
            hide_from_listings: false,
            sticky: false,
            featured: false,
            ticketed: false,
            categories: vec![],
            tags: vec![],
            venue: None,
            organizers: vec![],
            parent: None,
        }
    }

    /// The index against the plugin's scan (each word a case-insensitive substring of the
    /// title, or of the excerpt or description), through adds, replacements and removals.
    #[test]
    fn finds_what_the_scan_finds() {
        let mut rng = Rng(0x5EA2_C4E5_0000_0001);
        let mut index = SearchIndex::default();
        let mut events: HashMap<Id, Event> = HashMap::new();
        for step in 0..3_000u64 {
            let id = 1 + rng.below(300);
            if let Some(old) = events.remove(&id) {
                index.update(&old, false);
            }
            if rng.below(5) != 0 {
                let new = event(&mut rng, id);
                index.update(&new, true);
                events.insert(id, new);
            }
            if step % 100 != 0 {
                continue;
            }
            for _ in 0..40 {
                // Query words: pieces of texts, lowercased as the list lowercases them.
                let word: String = text(&mut rng).to_lowercase().split_whitespace().next().unwrap_or("a").to_string();
                let cut: String = word.chars().skip(rng.below(3) as usize).take(1 + rng.below(5) as usize).collect();
                if cut.is_empty() {
                    continue;
                }
                let found = index.matches(&cut);
                for (id, event) in &events {
                    let key = *id as u32;
                    let post = &event.post;
                    let in_title = contains_ignoring_case(&post.title, &cut);
                    let in_body =
                        contains_ignoring_case(&post.excerpt, &cut) || contains_ignoring_case(&post.content, &cut);
                    assert_eq!(found.title.contains(key), in_title, "{cut:?} in the title {:?}", post.title);
                    assert_eq!(found.body.contains(key), in_body, "{cut:?} in {:?} / {:?}", post.excerpt, post.content);
                }
                let stray = (&found.title | &found.body).iter().find(|key| !events.contains_key(&Id::from(*key)));
                assert_eq!(stray, None, "a removed event is still found for {cut:?}");
            }
        }
    }

    #[test]
    fn postings_shrink_and_grow() {
        let mut postings = Postings::None;
        postings.insert(5);
        postings.insert(5);
        assert!(matches!(postings, Postings::One(5)));
        postings.insert(9);
        postings.remove(5);
        assert!(matches!(postings, Postings::One(9)));
        postings.remove(9);
        assert!(postings.is_empty());
    }
}
