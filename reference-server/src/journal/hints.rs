//! Near misses: for a request that matched no route, the route it came close to ("no route
//! POST /event — did you mean /events?"), a method the route lacks, a wrong namespace or a
//! missing REST root.

use crate::http::{locate, route_for};
use crate::interface::{Method, Target, ROUTES};
use crate::validate::Params;

/// Where the interface lives, to compare a request's path with.
pub struct Prefix<'a> {
    pub site_path: &'a str,
    pub root: &'a str,
    pub namespace: &'a str,
}

/// The reason ("no route POST /event") and, when the request came close to a route, a hint.
pub fn no_route(method: &str, path: &str, query: &Params, prefix: &Prefix) -> (String, Option<String>) {
    let located = locate(path, query, prefix.site_path, prefix.root, prefix.namespace);
    match located.path {
        Some(inside) => {
            let shown = if inside.is_empty() { "/".to_string() } else { inside.clone() };
            let reason = format!("no route {method} {shown}");
            if let Some((route, _)) = route_for(&inside) {
                let methods: Vec<&str> = route.methods.iter().map(|(method, _)| method.name()).collect();
                let path = if route.path.is_empty() { "/" } else { route.path };
                let hint = match Method::parse(method) {
                    Some(_) => format!("{path} takes {}, not {method}", methods.join(", ")),
                    None => format!("{method} is not a method of the interface; {path} takes {}", methods.join(", ")),
                };
                return (reason, Some(hint));
            }
            (reason, inside_hint(&inside))
        }
        None => (format!("no route {method} {path}"), outside_hint(path, prefix)),
    }
}

/// A path inside the namespace that matches no route.
fn inside_hint(path: &str) -> Option<String> {
    let segments: Vec<&str> = path.trim_start_matches('/').split('/').collect();
    // `/events/jazz-night`: a slug where an ID goes.
    if segments.len() == 2 {
        if let Some(route) = ROUTES.iter().find(|route| {
            route.target == Target::BySlug
                && route.path.split('/').nth(1).is_some_and(|c| close(c, segments[0]) == Some(0))
        }) {
            let collection = route.path.split('/').nth(1).unwrap_or("");
            return Some(format!(
                "/{collection}/<id> takes a numeric ID; by slug: did you mean /{collection}/by-slug/{}?",
                segments[1]
            ));
        }
        if segments[0].eq_ignore_ascii_case("categories") || segments[0].eq_ignore_ascii_case("tags") {
            return Some(format!(
                "/{}/<id> takes a numeric ID; to find a term by slug: /{}?slug={}",
                segments[0], segments[0], segments[1]
            ));
        }
    }
    if let Some(suggestion) = closest_route(&segments) {
        return Some(format!("did you mean {suggestion}?"));
    }
    // `/events/12/venue`: a route with something after it. Only a start as long as a route
    // can be one, so the cost is linear in the path's length, however many segments it has.
    let longest = ROUTES.iter().map(|route| route.path.matches('/').count()).max().unwrap_or(0);
    for keep in (1..segments.len().min(longest + 1)).rev() {
        let shorter = format!("/{}", segments[..keep].join("/"));
        if route_for(&shorter).is_some() || closest_route(&segments[..keep]).is_some() {
            let base = closest_route(&segments[..keep]).unwrap_or(shorter);
            return Some(format!("did you mean {base}? (the interface has no route below it)"));
        }
    }
    None
}

/// The route whose pattern is within a small edit of the path, with the path's own values.
fn closest_route(segments: &[&str]) -> Option<String> {
    let mut best: Option<(usize, String)> = None;
    for route in ROUTES {
        let pattern: Vec<&str> =
            if route.path.is_empty() { Vec::new() } else { route.path.trim_start_matches('/').split('/').collect() };
        if pattern.len() != segments.len() || pattern.is_empty() {
            continue;
        }
        let mut cost = 0;
        let mut fixed = Vec::new();
        let mut fits = true;
        for (want, got) in pattern.iter().zip(segments) {
            match *want {
                "<id>" if !got.is_empty() && got.bytes().all(|b| b.is_ascii_digit()) => fixed.push(got.to_string()),
                "<slug>" if !got.is_empty() => fixed.push(got.to_string()),
                "<id>" | "<slug>" => fits = false,
                literal => match close(literal, got) {
                    Some(distance) => {
                        cost += distance;
                        fixed.push(literal.to_string());
                    }
                    None => fits = false,
                },
            }
        }
        if fits && best.as_ref().is_none_or(|(known, _)| cost < *known) {
            best = Some((cost, format!("/{}", fixed.join("/"))));
        }
    }
    best.filter(|(cost, _)| *cost > 0).map(|(_, path)| path)
}

/// A path outside the namespace: another namespace, or no REST root.
fn outside_hint(path: &str, prefix: &Prefix) -> Option<String> {
    let root = prefix.root.trim_end_matches('/');
    let namespace = prefix.namespace.trim_matches('/');
    let lower = path.to_ascii_lowercase();
    let ns_lower = namespace.to_ascii_lowercase();
    let root_lower = root.to_ascii_lowercase();
    if let Some(rest) = lower.strip_prefix(&root_lower).filter(|rest| rest.starts_with('/') && rest.len() > 1) {
        let given: Vec<&str> = rest.trim_start_matches('/').split('/').collect();
        let wanted: Vec<&str> = ns_lower.split('/').collect();
        if given.len() >= wanted.len() {
            let distance: Option<usize> =
                wanted.iter().zip(&given).map(|(want, got)| close(want, got).or((*got == "tribe").then_some(1))).sum();
            let tail = given[wanted.len()..].join("/");
            let tail = if tail.is_empty() { String::new() } else { format!("/{tail}") };
            if distance.is_some() || given.contains(&"events") {
                return Some(format!(
                    "this server serves the namespace {namespace}: did you mean {root}/{namespace}{tail}?"
                ));
            }
        }
        return Some(format!("this server serves one namespace: {root}/{namespace}"));
    }
    if let Some(at) = lower.find(&format!("/{ns_lower}")) {
        let tail = &path[at + 1 + namespace.len()..];
        return Some(format!("the API is under the REST root {root}: did you mean {root}/{namespace}{tail}?"));
    }
    if path == "/favicon.ico" || path == "/robots.txt" {
        return None;
    }
    Some(format!("the interface is at {root}/{namespace}"))
}

/// The edit distance between a known name and a name a request used, if small enough to be a
/// slip (`star_date` for `start_date`): the proxy's hint for an unknown parameter.
pub fn distance(known: &str, given: &str) -> Option<usize> {
    close(known, given)
}

/// The edit distance between a route's literal segment and a request's, if small enough to be
/// a slip (case does not count; one edit per four letters, at least one; `event` for `events`).
fn close(want: &str, got: &str) -> Option<usize> {
    if got.len() > 64 {
        return None;
    }
    let want: Vec<char> = want.to_lowercase().chars().collect();
    let got: Vec<char> = got.to_lowercase().chars().collect();
    let mut row: Vec<usize> = (0..=got.len()).collect();
    for (i, a) in want.iter().enumerate() {
        let mut previous = row[0];
        row[0] = i + 1;
        for (j, b) in got.iter().enumerate() {
            let substitution = previous + usize::from(a != b);
            previous = row[j + 1];
            row[j + 1] = substitution.min(row[j] + 1).min(previous + 1);
        }
    }
    let distance = row[got.len()];
    (distance <= (want.len() / 4).max(1)).then_some(distance)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hint(method: &str, path: &str) -> (String, Option<String>) {
        let prefix = Prefix { site_path: "", root: "/wp-json", namespace: "calendar/events/v1" };
        let (path, query) = path.split_once('?').unwrap_or((path, ""));
        no_route(method, path, &crate::http::parse_form(query), &prefix)
    }

    #[test]
    fn a_slip_in_a_collection_name() {
        let (reason, hint_text) = hint("POST", "/wp-json/calendar/events/v1/event");
        assert_eq!(reason, "no route POST /event");
        assert_eq!(hint_text.as_deref(), Some("did you mean /events?"));
        assert_eq!(hint("GET", "/wp-json/calendar/events/v1/venue/12").1.as_deref(), Some("did you mean /venues/12?"));
        assert_eq!(
            hint("GET", "/wp-json/calendar/events/v1/organisers").1.as_deref(),
            Some("did you mean /organizers?")
        );
    }

    #[test]
    fn a_method_the_route_lacks() {
        let (reason, hint_text) = hint("DELETE", "/wp-json/calendar/events/v1/events");
        assert_eq!(reason, "no route DELETE /events");
        assert_eq!(hint_text.as_deref(), Some("/events takes GET, POST, not DELETE"));
        let (_, hint_text) = hint("FETCH", "/wp-json/calendar/events/v1/events/12");
        assert!(hint_text.unwrap().starts_with("FETCH is not a method of the interface"));
    }

    #[test]
    fn a_slug_where_an_id_goes_and_what_lies_below_a_route() {
        assert_eq!(
            hint("GET", "/wp-json/calendar/events/v1/events/jazz-night").1.as_deref(),
            Some("/events/<id> takes a numeric ID; by slug: did you mean /events/by-slug/jazz-night?")
        );
        assert_eq!(
            hint("GET", "/wp-json/calendar/events/v1/events/12/venue").1.as_deref(),
            Some("did you mean /events/12? (the interface has no route below it)")
        );
    }

    #[test]
    fn a_wrong_namespace_or_no_rest_root() {
        assert_eq!(
            hint("GET", "/wp-json/tribe/events/v1/events").1.as_deref(),
            Some(
                "this server serves the namespace calendar/events/v1: did you mean /wp-json/calendar/events/v1/events?"
            )
        );
        assert_eq!(
            hint("GET", "/wp-json/calendar/event/v1/events").1.as_deref(),
            Some(
                "this server serves the namespace calendar/events/v1: did you mean /wp-json/calendar/events/v1/events?"
            )
        );
        assert_eq!(
            hint("GET", "/calendar/events/v1/events").1.as_deref(),
            Some("the API is under the REST root /wp-json: did you mean /wp-json/calendar/events/v1/events?")
        );
        assert_eq!(hint("GET", "/favicon.ico").1, None);
    }

    /// Every kind of hint docs/reference-server.md ("Near misses") promises, word for word.
    #[test]
    fn every_documented_hint() {
        let api = "/wp-json/calendar/events/v1";
        let cases: [(&str, String, Option<&str>); 16] = [
            // A slip in a segment: a letter too many, too few, changed, or a spelling.
            ("GET", format!("{api}/eventss"), Some("did you mean /events?")),
            ("GET", format!("{api}/evnts"), Some("did you mean /events?")),
            ("GET", format!("{api}/event/12"), Some("did you mean /events/12?")),
            ("GET", format!("{api}/venue/12"), Some("did you mean /venues/12?")),
            ("GET", format!("{api}/organisers"), Some("did you mean /organizers?")),
            ("GET", format!("{api}/event/by-slg/jazz"), Some("did you mean /events/by-slug/jazz?")),
            // A method the route lacks.
            ("PATCH", format!("{api}/venues"), Some("/venues takes GET, POST, not PATCH")),
            ("BREW", format!("{api}/"), Some("BREW is not a method of the interface; / takes GET")),
            // A slug where an ID goes.
            (
                "GET",
                format!("{api}/venues/blue-note"),
                Some("/venues/<id> takes a numeric ID; by slug: did you mean /venues/by-slug/blue-note?"),
            ),
            (
                "GET",
                format!("{api}/tags/jazz"),
                Some("/tags/<id> takes a numeric ID; to find a term by slug: /tags?slug=jazz"),
            ),
            // Something below a route.
            (
                "GET",
                format!("{api}/venues/3/events/4"),
                Some("did you mean /venues/3? (the interface has no route below it)"),
            ),
            // Another namespace, no REST root, or neither.
            (
                "GET",
                "/wp-json/wp/v2/posts".to_string(),
                Some("this server serves one namespace: /wp-json/calendar/events/v1"),
            ),
            (
                "GET",
                "/wp-json/tribe/events/v1".to_string(),
                Some("this server serves the namespace calendar/events/v1: did you mean /wp-json/calendar/events/v1?"),
            ),
            (
                "GET",
                "/blog/calendar/events/v1/venues/3".to_string(),
                Some("the API is under the REST root /wp-json: did you mean /wp-json/calendar/events/v1/venues/3?"),
            ),
            ("GET", "/events".to_string(), Some("the interface is at /wp-json/calendar/events/v1")),
            ("GET", "/robots.txt".to_string(), None),
        ];
        for (method, path, expected) in cases {
            assert_eq!(hint(method, &path).1.as_deref(), expected, "{method} {path}");
        }
        // The reason names the path inside the namespace, or the whole path outside it.
        assert_eq!(hint("GET", &format!("{api}/eventss")).0, "no route GET /eventss");
        assert_eq!(hint("GET", "/events").0, "no route GET /events");
        // The proxy's hint for a parameter: one edit per four letters, at least one.
        assert_eq!(distance("start_date", "star_date"), Some(1));
        assert_eq!(distance("start_date", "strt_dat"), Some(2));
        assert_eq!(distance("start_date", "sta_da"), None);
        assert_eq!(distance("page", "pge"), Some(1));
        assert_eq!(distance("page", "pg"), None);
        assert_eq!(distance("page", &"p".repeat(65)), None);
    }

    #[test]
    fn nothing_close() {
        assert_eq!(hint("GET", "/wp-json/calendar/events/v1/zzzzzzzz").1, None);
    }
}
