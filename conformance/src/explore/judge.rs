//! Judging a difference between the implementation (A) and the reference server (B) at a level:
//!
//! - must: one side accepted and the other refused, or the status classes differ (2xx, 4xx,
//!   5xx), or one side did not answer;
//! - should: the exact status or error code, and the bodies' fields, a list's selection (items
//!   on one side only) or order;
//! - may (reported, never failing): a field the reference server adds to the interface (those
//!   its interface table describes as its own: `password`, `post_parent`, `ticketed`,
//!   `geo_lat`, `geo_lng`); the project's other decisions are not told apart from should yet;
//! - not judged: headers, a key only the implementation has (extra fields are a freedom), and the
//!   payload of a refusal beyond its code (message, data).

use crate::differential::compare::{path_shape, Compared, Difference, Kind, Leg};

/// The level of a finding.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Level {
    Must,
    Should,
    May,
}

impl Level {
    pub fn name(self) -> &'static str {
        match self {
            Level::Must => "must",
            Level::Should => "should",
            Level::May => "may",
        }
    }
}

/// A judged difference: its level and the first difference of that level.
#[derive(Clone, Debug, PartialEq)]
pub struct Finding {
    pub level: Level,
    pub difference: Difference,
}

impl Finding {
    /// What a shrunk sequence must still show: the level, kind and path (list indices aside).
    pub fn signature(&self) -> (Level, Kind, String) {
        (self.level, self.difference.kind, path_shape(&self.difference.path))
    }
}

/// The most serious difference of an exchange, if any is judged: the first of its level, an
/// `author` last (a user ID tells little: each site numbers its users its own way).
pub fn judge(compared: &Compared, legs: &[Leg; 2]) -> Option<Finding> {
    findings(compared, legs).into_iter().min_by_key(|f| (f.level, f.difference.path.ends_with("author")))
}

/// Every judged difference of an exchange.
pub fn findings(compared: &Compared, legs: &[Leg; 2]) -> Vec<Finding> {
    let statuses = legs.each_ref().map(|leg| match leg {
        Leg::Answered(answer) => Some(answer.status),
        Leg::Unanswered(_) => None,
    });
    compared
        .differences
        .iter()
        .filter_map(|d| level_of(d, statuses).map(|level| Finding { level, difference: d.clone() }))
        .collect()
}

fn level_of(difference: &Difference, statuses: [Option<u16>; 2]) -> Option<Level> {
    match difference.kind {
        Kind::Answer => Some(Level::Must),
        Kind::Status => match statuses {
            [Some(a), Some(b)] if a / 100 == b / 100 => Some(Level::Should),
            _ => Some(Level::Must),
        },
        Kind::Header => None,
        // A key only the implementation has: extra fields are a freedom of the interface.
        Kind::Key if difference.b == "absent" => None,
        Kind::Code => Some(Level::Should),
        // The rest of a refusal is its error payload (message, data): only its code is judged.
        _ if matches!(statuses, [Some(a), Some(b)] if a >= 400 && b >= 400) => None,
        _ if extension_field(&difference.path) => Some(Level::May),
        _ => Some(Level::Should),
    }
}

/// Whether `path` is in a field the reference server adds to the interface (`$.ticketed`,
/// `$.events[2].password`, `$.venue.geo_lat`): a write field its interface table describes as
/// the reference server's own.
fn extension_field(path: &str) -> bool {
    use reference_server::interface::{post_fields, Resource};
    let keys = path.split(['.', '[', ']']).filter(|k| !k.is_empty() && k.parse::<usize>().is_err());
    let keys: Vec<&str> = keys.collect();
    [Resource::Events, Resource::Venues, Resource::Organizers].into_iter().any(|resource| {
        post_fields(resource)
            .iter()
            .filter(|arg| arg.description.contains("reference server"))
            .any(|arg| keys.contains(&arg.name))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runner::send::Answer;

    fn leg(status: u16) -> Leg {
        Leg::Answered(Answer { status, headers: Vec::new(), text: String::new(), size: 0, utf8_error: None })
    }

    fn compared(kinds: &[(Kind, &str)]) -> Compared {
        let differences = kinds
            .iter()
            .map(|(kind, path)| Difference { path: path.to_string(), kind: *kind, a: "x".into(), b: "y".into() })
            .collect();
        Compared { differences, ..Compared::default() }
    }

    #[test]
    fn levels_follow_what_differs() {
        let level =
            |kinds: &[(Kind, &str)], a: u16, b: u16| judge(&compared(kinds), &[leg(a), leg(b)]).map(|f| f.level);
        assert_eq!(level(&[(Kind::Status, "status")], 201, 400), Some(Level::Must));
        assert_eq!(level(&[(Kind::Status, "status")], 200, 201), Some(Level::Should));
        assert_eq!(level(&[(Kind::Code, "$.code"), (Kind::Status, "status")], 404, 500), Some(Level::Must));
        assert_eq!(level(&[(Kind::Item, "$.events[1]")], 200, 200), Some(Level::Should));
        assert_eq!(level(&[(Kind::Header, "header link"), (Kind::Value, "$.message")], 400, 400), None);
        assert_eq!(level(&[(Kind::Value, "$.additional_data[0]")], 400, 400), None);
        assert_eq!(level(&[(Kind::Value, "$.message")], 200, 200), Some(Level::Should));
        assert_eq!(level(&[(Kind::Value, "$.events[3].ticketed")], 200, 200), Some(Level::May));
        assert_eq!(level(&[(Kind::Value, "$.venue.geo_lat")], 200, 200), Some(Level::May));
        assert_eq!(level(&[(Kind::Value, "$.ticketed"), (Kind::Value, "$.title")], 200, 200), Some(Level::Should));
        assert_eq!(level(&[], 200, 200), None);
        let extra = [(Kind::Key, "$.extra")];
        assert_eq!(judge(&compared(&extra), &[leg(200), leg(200)]).map(|f| f.level), Some(Level::Should));
        let mut only_a = compared(&extra);
        only_a.differences[0].b = "absent".into();
        assert_eq!(judge(&only_a, &[leg(200), leg(200)]), None, "an extra field is a freedom");
        let finding = judge(&compared(&[(Kind::Item, "$.tags[1]")]), &[leg(200), leg(200)]).unwrap();
        assert_eq!(finding.signature(), (Level::Should, Kind::Item, "$.tags[*]".into()));
        let finding = judge(&compared(&[(Kind::Value, "$.author"), (Kind::Value, "$.status")]), &[leg(201), leg(201)]);
        assert_eq!(finding.unwrap().difference.path, "$.status");
    }
}
