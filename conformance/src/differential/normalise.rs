//! What legitimately differs between two sites, taken out before values are compared: each
//! side's addresses and names become placeholders, HTML character references are decoded (a
//! real site obfuscates e-mail addresses with random ones), the IDs each side allocated are
//! paired, and each server's clock is allowed for.

use std::cmp::Reverse;
use std::collections::BTreeMap;

use chrono::NaiveDateTime;
use serde::Serialize;

use crate::runner::Endpoint;

/// One side's addresses and names, replaced by placeholders in every string and key.
#[derive(Clone, Debug)]
pub struct Normaliser {
    /// (text, placeholder), longest text first.
    replacements: Vec<(String, &'static str)>,
    /// The bytes a replaced text starts with: elsewhere no replacement is tried.
    starts: [bool; 256],
}

impl Normaliser {
    pub fn of(endpoint: &Endpoint) -> Normaliser {
        let (site, _) = endpoint.site_and_root();
        let mut replacements = vec![
            (endpoint.namespace_url(), "{namespace_url}"),
            (endpoint.base_url.clone(), "{base_url}"),
            (site.clone(), "{site}"),
            (endpoint.namespace.trim_matches('/').to_string(), "{namespace}"),
            (endpoint.language_param.clone(), "{language_param}"),
        ];
        if let Ok(url) = reqwest::Url::parse(&site) {
            if let Some(host) = url.host_str() {
                if let Some(port) = url.port() {
                    replacements.push((format!("{host}:{port}"), "{host}"));
                }
                replacements.push((host.to_string(), "{host}"));
            }
        }
        replacements.retain(|(text, _)| !text.is_empty());
        replacements.sort_by_key(|(text, _)| Reverse(text.len()));
        replacements.dedup_by(|x, y| x.0 == y.0);
        let mut starts = [false; 256];
        for (text, _) in &replacements {
            starts[usize::from(text.as_bytes()[0])] = true;
        }
        Normaliser { replacements, starts }
    }

    /// `text` with this side's addresses and names replaced, in one pass (longest first), and
    /// HTML character references decoded.
    pub fn text(&self, text: &str) -> String {
        let text = decode_references(text);
        let bytes = text.as_bytes();
        let mut out = String::with_capacity(text.len());
        // `copied`: the end of what is in `out`; a replaced text starts with a character's first
        // byte, so wherever one matches is a character boundary.
        let (mut copied, mut at) = (0, 0);
        while at < bytes.len() {
            if !self.starts[usize::from(bytes[at])] {
                at += 1;
                continue;
            }
            let found = self.replacements.iter().find(|(from, _)| text[at..].starts_with(from.as_str()));
            match found {
                Some((from, to)) => {
                    out.push_str(&text[copied..at]);
                    out.push_str(to);
                    at += from.len();
                    copied = at;
                }
                None => at += 1,
            }
        }
        out.push_str(&text[copied..]);
        out
    }
}

/// `&#97;`, `&#x61;` and the five XML entities decoded; anything else kept as it is.
fn decode_references(text: &str) -> String {
    if !text.contains('&') {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find('&') {
        out.push_str(&rest[..at]);
        rest = &rest[at..];
        let end = rest.find(';').filter(|end| *end <= 10);
        let decoded = end.and_then(|end| {
            let name = &rest[1..end];
            let c = match name {
                "amp" => Some('&'),
                "lt" => Some('<'),
                "gt" => Some('>'),
                "quot" => Some('"'),
                "apos" => Some('\''),
                _ => {
                    let number = name.strip_prefix('#')?;
                    let code = match number.strip_prefix(['x', 'X']) {
                        Some(hex) => u32::from_str_radix(hex, 16).ok()?,
                        None => number.parse().ok()?,
                    };
                    char::from_u32(code)
                }
            }?;
            Some((c, end))
        });
        match decoded {
            Some((c, end)) => {
                out.push(c);
                rest = &rest[end + 1..];
            }
            None => {
                out.push('&');
                rest = &rest[1..];
            }
        }
    }
    out.push_str(rest);
    out
}

/// The ID spaces of the interface: events, venues, organizers and images are posts and share
/// one sequence on a CMS site; categories and tags are terms; authors are users.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Space {
    Post,
    Term,
    User,
}

impl Space {
    pub const ALL: [Space; 3] = [Space::Post, Space::Term, Space::User];

    /// The space of the objects found under `key` (`venue`, `categories`, ...), or of the
    /// resources of a route's first segment (`events`, `tags`, ...).
    pub fn of_key(key: &str) -> Option<Space> {
        match key {
            "events" | "event" | "venue" | "venues" | "organizer" | "organizers" | "image" | "post_parent" => {
                Some(Space::Post)
            }
            "categories" | "category" | "tags" | "tag" | "term_id" | "term_taxonomy_id" => Some(Space::Term),
            "author" => Some(Space::User),
            _ => None,
        }
    }

    /// The space of a route's resources: `GET /events/<id>` → posts.
    pub fn of_route(route: &str) -> Option<Space> {
        let path = route.split_once(' ').map_or(route, |(_, path)| path);
        Space::of_key(path.trim_start_matches('/').split('/').next().unwrap_or_default())
    }
}

/// The IDs learned so far: which ID of A's stands for which of B's, per space. A pair is
/// learned where both answers have an `id` at the same place (the create answers first of all),
/// and an ID is paired at most once: a later `id` that contradicts a pair is a difference.
#[derive(Clone, Debug, Default)]
pub struct IdPairs {
    a_to_b: BTreeMap<(Space, u64), u64>,
    b_to_a: BTreeMap<(Space, u64), u64>,
}

impl IdPairs {
    /// Pairs `a` with `b` in `space` unless either is paired with another ID already; whether
    /// they are (now) a pair.
    pub fn learn(&mut self, space: Space, a: u64, b: u64) -> bool {
        match (self.a_to_b.get(&(space, a)), self.b_to_a.get(&(space, b))) {
            (None, None) => {
                self.a_to_b.insert((space, a), b);
                self.b_to_a.insert((space, b), a);
                true
            }
            (Some(known), _) => *known == b,
            (None, Some(_)) => false,
        }
    }

    /// Whether A's `a` stands for B's `b`: a learned pair (in `space`, or any space when it is
    /// not known), or the same number that neither side has paired with another.
    pub fn same(&self, space: Option<Space>, a: u64, b: u64) -> bool {
        let spaces: &[Space] = match &space {
            Some(space) => std::slice::from_ref(space),
            None => &Space::ALL,
        };
        if spaces.iter().any(|s| self.a_to_b.get(&(*s, a)) == Some(&b)) {
            return true;
        }
        a == b && spaces.iter().all(|s| !self.a_to_b.contains_key(&(*s, a)) && !self.b_to_a.contains_key(&(*s, b)))
    }

    /// B's ID paired with A's `a` in `space`.
    pub fn b_of(&self, space: Space, a: u64) -> Option<u64> {
        self.a_to_b.get(&(space, a)).copied()
    }

    /// Every pair: (space, A's ID, B's ID).
    pub fn pairs(&self) -> Vec<(Space, u64, u64)> {
        self.a_to_b.iter().map(|((space, a), b)| (*space, *a, *b)).collect()
    }

    pub fn len(&self) -> usize {
        self.a_to_b.len()
    }

    pub fn is_empty(&self) -> bool {
        self.a_to_b.is_empty()
    }
}

/// The keys whose values the servers set from their own clocks: compared once the clocks'
/// difference is taken out, within a tolerance.
pub const CLOCK_KEYS: &[&str] = &["date", "date_utc", "modified", "modified_utc"];

/// The clock keys in UTC, from which the clocks' difference is learned.
const UTC_CLOCK_KEYS: &[&str] = &["date_utc", "modified_utc"];

/// What is known of the two servers' clocks.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Clocks {
    /// B's clock minus A's, in seconds, from the first pair of UTC timestamps.
    pub offset: Option<i64>,
    pub tolerance: i64,
}

impl Clocks {
    /// Learns the offset from a pair of values of `key`, if it is the first UTC pair.
    pub fn learn(&mut self, key: &str, a: &str, b: &str) {
        if self.offset.is_none() && UTC_CLOCK_KEYS.contains(&key) {
            if let (Some(a), Some(b)) = (timestamp(a), timestamp(b)) {
                self.offset = Some((b - a).num_seconds());
            }
        }
    }

    /// Whether two timestamps agree once the clocks' offset is taken out; `None` when they are
    /// not both timestamps.
    pub fn agree(&self, a: &str, b: &str) -> Option<bool> {
        let (a, b) = (timestamp(a)?, timestamp(b)?);
        let drift = (b - a).num_seconds() - self.offset.unwrap_or(0);
        Some(drift.abs() <= self.tolerance)
    }
}

/// `2026-11-23 17:36:19` or `2026-11-23T17:36:19`.
fn timestamp(text: &str) -> Option<NaiveDateTime> {
    NaiveDateTime::parse_from_str(text, "%Y-%m-%d %H:%M:%S")
        .or_else(|_| NaiveDateTime::parse_from_str(text, "%Y-%m-%dT%H:%M:%S"))
        .ok()
}

/// Whether two normalised texts are the same but for IDs that are paired: digit runs in
/// address-like places (after `/`, `=`, `,` or `?p=`-like keys) compare through the pairs.
pub fn same_text_through_ids(a: &str, b: &str, ids: &IdPairs) -> bool {
    // A list in a query string has its commas percent-encoded (`include=6%2C7`).
    let comma = |text: &str| text.replace("%2C", ",").replace("%2c", ",");
    let (a, b) = (comma(a), comma(b));
    let (ta, tb) = (tokens(&a), tokens(&b));
    if ta.len() != tb.len() {
        return false;
    }
    let mut previous: Option<char> = None;
    for (x, y) in ta.iter().zip(&tb) {
        let digits = |t: &str| !t.is_empty() && t.bytes().all(|c| c.is_ascii_digit());
        if x == y {
            previous = x.chars().last();
            continue;
        }
        let address_like = matches!(previous, Some('/' | '=' | ','));
        if !(digits(x) && digits(y) && address_like) {
            return false;
        }
        match (x.parse::<u64>(), y.parse::<u64>()) {
            (Ok(x), Ok(y)) if ids.same(None, x, y) => {}
            _ => return false,
        }
        previous = x.chars().last();
    }
    true
}

/// A text cut into alternating runs of digits and of other characters.
fn tokens(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut digit = None;
    for (i, c) in text.char_indices() {
        let d = c.is_ascii_digit();
        if digit.is_some_and(|was| was != d) {
            out.push(&text[start..i]);
            start = i;
        }
        digit = Some(d);
    }
    if start < text.len() {
        out.push(&text[start..]);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn endpoint(base_url: &str, namespace: &str, language_param: &str) -> Endpoint {
        Endpoint {
            base_url: base_url.into(),
            namespace: namespace.into(),
            language_param: language_param.into(),
            credentials: Default::default(),
        }
    }

    #[test]
    fn addresses_and_names_become_placeholders() {
        let a =
            Normaliser::of(&endpoint("http://127.0.0.1:4001/wp-json", "calendar/events/v1", "multilingual_language"));
        let b = Normaliser::of(&endpoint("https://site.example/api", "tribe/events/v1", "wpml_language"));
        assert_eq!(a.text("http://127.0.0.1:4001/wp-json/calendar/events/v1/events/6"), "{namespace_url}/events/6");
        assert_eq!(b.text("https://site.example/api/tribe/events/v1/events/6"), "{namespace_url}/events/6");
        assert_eq!(a.text("http://127.0.0.1:4001/event/x/"), "{site}/event/x/");
        assert_eq!(a.text("127.0.0.1?id=6"), "{host}?id=6");
        assert_eq!(b.text("site.example?id=6"), "{host}?id=6");
        assert_eq!(a.text("/calendar/events/v1/venues"), "/{namespace}/venues");
        assert_eq!(b.text("Invalid parameter(s): wpml_language"), "Invalid parameter(s): {language_param}");
        assert_eq!(a.text("&#109;&#x61;il&amp;co &bogus; &"), "mail&co &bogus; &");
    }

    #[test]
    fn ids_pair_once_per_space() {
        let mut ids = IdPairs::default();
        assert!(ids.learn(Space::Post, 6, 1006));
        assert!(ids.learn(Space::Post, 6, 1006));
        assert!(!ids.learn(Space::Post, 6, 1007), "6 is 1006's already");
        assert!(!ids.learn(Space::Post, 7, 1006), "1006 is 6's already");
        assert!(ids.learn(Space::Term, 6, 2));
        assert!(ids.same(Some(Space::Post), 6, 1006));
        assert!(ids.same(None, 6, 2));
        assert!(!ids.same(Some(Space::Post), 6, 6), "6 stands for 1006 on B");
        assert!(ids.same(Some(Space::User), 6, 6), "no user is paired");
        assert!(ids.same(None, 9, 9));
        assert!(!ids.same(None, 9, 10));
        assert_eq!(ids.b_of(Space::Post, 6), Some(1006));
    }

    /// `Normaliser::text` skips to the bytes a replaced text starts with; it replaces what
    /// trying every replacement at every character replaces.
    #[test]
    fn text_replaces_what_trying_every_position_replaces() {
        let replacements = vec![
            ("http://127.0.0.1:8080/wp-json".to_string(), "{base_url}"),
            ("127.0.0.1:8080".to_string(), "{host}"),
            ("héte".to_string(), "{x}"),
            ("lang".to_string(), "{language_param}"),
            ("l".to_string(), "{l}"),
        ];
        let mut starts = [false; 256];
        for (text, _) in &replacements {
            starts[usize::from(text.as_bytes()[0])] = true;
        }
        let normaliser = Normaliser { replacements, starts };
        let model = |text: &str| {
            let text = decode_references(text);
            let (mut out, mut rest) = (String::new(), text.as_str());
            'outer: while let Some(c) = rest.chars().next() {
                for (from, to) in &normaliser.replacements {
                    if let Some(after) = rest.strip_prefix(from.as_str()) {
                        out.push_str(to);
                        rest = after;
                        continue 'outer;
                    }
                }
                out.push(c);
                rest = &rest[c.len_utf8()..];
            }
            out
        };
        let pieces = [
            "http://127.0.0.1:8080/wp-json",
            "127.0.0.1:8080",
            "héte",
            "hé",
            "é",
            "lang",
            "la",
            "l",
            "&amp;",
            "&#108;",
            "x",
            " ",
            "日本",
            "h",
        ];
        let mut seed = 7u64;
        for _ in 0..2000 {
            let mut text = String::new();
            for _ in 0..(seed % 9) {
                seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                text.push_str(pieces[(seed >> 33) as usize % pieces.len()]);
            }
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            assert_eq!(normaliser.text(&text), model(&text), "{text:?}");
        }
    }

    #[test]
    fn texts_compare_through_paired_ids_in_addresses_only() {
        let mut ids = IdPairs::default();
        ids.learn(Space::Post, 6, 1006);
        assert!(same_text_through_ids("{namespace_url}/events/6", "{namespace_url}/events/1006", &ids));
        assert!(same_text_through_ids("{host}?id=6", "{host}?id=1006", &ids));
        ids.learn(Space::Post, 7, 1007);
        assert!(!same_text_through_ids(
            "{namespace_url}/events?include=6%2C7",
            "{namespace_url}/events?include=1006%2C1008",
            &ids
        ));
        assert!(same_text_through_ids(
            "{namespace_url}/events?include=6%2C7",
            "{namespace_url}/events?include=1006%2c1007",
            &ids
        ));
        assert!(!same_text_through_ids("{namespace_url}/events/6", "{namespace_url}/events/7", &ids));
        assert!(!same_text_through_ids("6 tickets", "1006 tickets", &ids), "not an address");
        assert!(!same_text_through_ids("a/6/b", "a/1006/c", &ids));
        assert!(same_text_through_ids("2026-12-01 10:00:00", "2026-12-01 10:00:00", &ids));
        assert!(!same_text_through_ids("2026-12-01 10:00:00", "2026-12-01 11:00:00", &ids));
    }

    #[test]
    fn timestamps_agree_once_the_clocks_offset_is_out() {
        let mut clocks = Clocks { offset: None, tolerance: 5 };
        clocks.learn("date", "2026-01-01 00:00:00", "2026-01-01 01:00:00");
        assert_eq!(clocks.offset, None, "a local timestamp teaches nothing");
        clocks.learn("modified_utc", "2026-01-01 00:00:00", "2026-01-01 00:10:00");
        clocks.learn("date_utc", "2026-01-01 00:00:00", "2026-01-01 00:00:00");
        assert_eq!(clocks.offset, Some(600));
        assert_eq!(clocks.agree("2026-01-02 00:00:00", "2026-01-02 00:10:03"), Some(true));
        assert_eq!(clocks.agree("2026-01-02 00:00:00", "2026-01-02T00:10:09"), Some(false));
        assert_eq!(clocks.agree("2026-01-02 00:00:00", "2026-01-02 01:10:00"), Some(false));
        assert_eq!(clocks.agree("yesterday", "2026-01-02 00:10:00"), None);
    }
}
