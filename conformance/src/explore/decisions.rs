//! The reference server's own decisions (the `D` sections of docs/behaviour.md) that a
//! generated sequence can meet, as data: each row says which differences come from one decision,
//! so that [`super::judge`] reports them at may level (never failing, never stopping a run)
//! with that section, instead of at should level (or must, for a row that names the `status`
//! kind: a decision that changes the status class, such as D13).
//!
//! A row matches a difference when every condition it gives holds (an empty list is no
//! condition). A row is about what the implementation may do differently; it never covers a
//! contradiction of the interface itself: `include` applying the date window and a lone
//! `end_date` ignored on update are judged should, whatever real sites do (docs/explore.md).

use reference_server::interface::{Op, Resource};
use serde_json::Value;

use super::generate::Step;
use crate::differential::compare::{Difference, Kind};

/// One decision of the reference server, and the differences it explains.
#[derive(Debug)]
pub struct Decision {
    /// The `D` section of docs/behaviour.md that records it (a may case's `spec`).
    pub section: &'static str,
    /// What the reference server decides, in a few words.
    pub what: &'static str,
    /// The step's resource is one of these.
    pub resources: &'static [Resource],
    /// The step's operation is one of these.
    pub ops: &'static [Op],
    /// The step acts as one of these roles.
    pub roles: &'static [&'static str],
    /// The difference is of one of these kinds.
    pub kinds: &'static [Kind],
    /// The last key of the difference's path is one of these (`$.events[2].featured`: `featured`).
    pub fields: &'static [&'static str],
    /// The request carries one of these, in its query or body: `name`, or `name=value` for a
    /// given value (`status=private`; `description=` for an empty string).
    pub carries: &'static [&'static str],
    /// The differing field is not in the request's body (what an update leaves out).
    pub uncarried: bool,
    /// The step goes through a by-slug route.
    pub by_slug: bool,
    /// The implementation's value (as the comparison shows it, JSON) is one of these.
    pub a_values: &'static [&'static str],
    /// The reference's value is one of these (`absent`: an item or key it does not have).
    pub b_values: &'static [&'static str],
    /// The decision leaves the item in another state on each side (a write the two sides store
    /// differently): every later answer about it differs as a consequence, so explore stops
    /// judging it from there on.
    pub changes_item: bool,
}

const NONE: Decision = Decision {
    section: "",
    what: "",
    resources: &[],
    ops: &[],
    roles: &[],
    kinds: &[],
    fields: &[],
    carries: &[],
    uncarried: false,
    by_slug: false,
    a_values: &[],
    b_values: &[],
    changes_item: false,
};

const POSTS: &[Resource] = &[Resource::Events, Resource::Venues, Resource::Organizers];
const LINKS: &[&str] = &["rest_url", "next_rest_url", "previous_rest_url"];
/// The fields real sites reset when an update leaves them out (S6.6: an event's flags, all-day,
/// website, cost, zone and organizers; a venue's map flags and its state or province derived
/// again), and the status they publish.
const RESET_ON_UPDATE: &[&str] = &[
    "cost",
    "organizer",
    "stateprovince",
    "show_map",
    "show_map_link",
    "hide_from_listings",
    "sticky",
    "featured",
    "all_day",
    "website",
    "timezone",
    "timezone_abbr",
    "status",
];

/// The decisions a generated sequence can meet.
pub const DECISIONS: &[Decision] = &[
    Decision {
        section: "D8",
        what: "a list with include keeps the start order",
        resources: &[Resource::Events],
        ops: &[Op::List],
        kinds: &[Kind::Order],
        carries: &["include"],
        ..NONE
    },
    Decision {
        section: "D10",
        what: "list links carry the request's own parameters",
        ops: &[Op::List],
        kinds: &[Kind::Value, Kind::Key],
        fields: LINKS,
        ..NONE
    },
    Decision {
        section: "D11",
        what: "venue and organizer totals count the filtered result",
        resources: &[Resource::Venues, Resource::Organizers],
        ops: &[Op::List],
        kinds: &[Kind::Value],
        fields: &["total", "total_pages"],
        ..NONE
    },
    Decision {
        section: "D12",
        what: "contributors and authors list their own unpublished items only",
        resources: POSTS,
        ops: &[Op::List],
        roles: &["author", "contributor"],
        kinds: &[Kind::Item],
        b_values: &["absent"],
        ..NONE
    },
    Decision {
        section: "D13",
        what: "by-slug writes check the item itself",
        resources: POSTS,
        ops: &[Op::Update, Op::Delete],
        roles: &["author", "contributor"],
        kinds: &[Kind::Status, Kind::Code],
        by_slug: true,
        // The implementation accepted (200, no error code); the reference refused.
        a_values: &["200", "absent"],
        ..NONE
    },
    Decision {
        section: "D15",
        what: "drafts keep their slug",
        resources: &[Resource::Events],
        kinds: &[Kind::Value],
        fields: &["slug"],
        // An empty slug, or an empty slug sent to the trash.
        a_values: &["\"\"", "\"__trashed\""],
        ..NONE
    },
    Decision {
        section: "D16",
        what: "an update changes only what it carries",
        resources: POSTS,
        ops: &[Op::Update],
        kinds: &[Kind::Value, Kind::Key, Kind::Item],
        fields: RESET_ON_UPDATE,
        uncarried: true,
        changes_item: true,
        ..NONE
    },
    Decision { section: "D24", what: "the event password is a write field", fields: &["password"], ..NONE },
    Decision { section: "D25", what: "post_parent is a write field", fields: &["post_parent"], ..NONE },
    Decision { section: "D26", what: "ticketed is a write field", fields: &["ticketed"], ..NONE },
    Decision { section: "D27", what: "venues have coordinates", fields: &["geo_lat", "geo_lng"], ..NONE },
    Decision {
        section: "D30",
        what: "a contributor's private item is pending",
        resources: POSTS,
        ops: &[Op::Create, Op::Update],
        roles: &["contributor"],
        kinds: &[Kind::Value],
        fields: &["status"],
        carries: &["status=private"],
        a_values: &["\"private\""],
        changes_item: true,
        ..NONE
    },
    Decision {
        section: "D39",
        what: "an empty description clears an organizer's",
        resources: &[Resource::Organizers],
        ops: &[Op::Update],
        kinds: &[Kind::Value, Kind::Key],
        fields: &["description"],
        carries: &["description="],
        changes_item: true,
        ..NONE
    },
];

/// The decision that explains `difference` in the answer to `step`, if one does.
pub fn covering(step: &Step, difference: &Difference) -> Option<&'static Decision> {
    DECISIONS.iter().find(|row| row.covers(step, difference))
}

/// The last key of a path: `$.events[2].featured` → `featured`; `$.events[2]` → `events`.
pub fn last_key(path: &str) -> &str {
    let key = path.rsplit('.').next().unwrap_or(path);
    key.split('[').next().unwrap_or(key)
}

impl Decision {
    fn covers(&self, step: &Step, d: &Difference) -> bool {
        let field = last_key(&d.path);
        let any = |list: &[&str], x: &str| list.is_empty() || list.contains(&x);
        let role = step.role.as_deref().unwrap_or("");
        (self.resources.is_empty() || self.resources.contains(&step.resource))
            && (self.ops.is_empty() || self.ops.contains(&step.op))
            && any(self.roles, role)
            && (self.kinds.is_empty() || self.kinds.contains(&d.kind))
            && any(self.fields, field)
            && any(self.a_values, &d.a)
            && any(self.b_values, &d.b)
            && (self.carries.is_empty() || self.carries.iter().any(|c| carries(step, c)))
            && !(self.uncarried && step.body.as_ref().is_some_and(|b| b.contains_key(field)))
            && (!self.by_slug || step.path.contains("/by-slug/"))
    }
}

/// Whether `step` carries `condition`: `name` in its query or body, or `name=value` with that
/// value (a body string, or any JSON value written as `value`).
fn carries(step: &Step, condition: &str) -> bool {
    let (name, value) = match condition.split_once('=') {
        Some((name, value)) => (name, Some(value)),
        None => (condition, None),
    };
    let in_query = step.query.iter().any(|(n, v)| n == name && value.is_none_or(|x| x == v));
    let in_body = step.body.as_ref().and_then(|b| b.get(name)).is_some_and(|v| match (value, v) {
        (None, _) => true,
        (Some(x), Value::String(s)) => x == s,
        (Some(x), other) => *other.to_string() == *x,
    });
    in_query || in_body
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::explore::generate::Step;
    use serde_json::json;

    fn step(resource: Resource, op: Op, role: &str, body: Option<Value>, query: &[(&str, &str)]) -> Step {
        Step {
            label: 0,
            role: Some(role.to_string()),
            method: if op == Op::List { "GET" } else { "POST" },
            resource,
            op,
            path: format!("/{}", resource.segment()),
            query: query.iter().map(|(n, v)| (n.to_string(), v.to_string())).collect(),
            body: body.and_then(|b| b.as_object().cloned()),
            invalid: false,
        }
    }

    fn difference(path: &str, kind: Kind, a: &str) -> Difference {
        Difference { path: path.into(), kind, a: a.into(), b: "x".into() }
    }

    fn section(step: &Step, d: &Difference) -> Option<&'static str> {
        covering(step, d).map(|row| row.section)
    }

    #[test]
    fn each_row_covers_its_own_differences_only() {
        let list = step(Resource::Events, Op::List, "editor", None, &[("include", "3,4")]);
        assert_eq!(section(&list, &difference("$.events", Kind::Order, "[]")), Some("D8"));
        assert_eq!(section(&list, &difference("$.events[0]", Kind::Item, "absent")), None, "the window is should");
        let plain = step(Resource::Events, Op::List, "editor", None, &[]);
        assert_eq!(section(&plain, &difference("$.events", Kind::Order, "[]")), None);
        assert_eq!(section(&plain, &difference("$.next_rest_url", Kind::Value, "\"u\"")), Some("D10"));
        let trashed = step(Resource::Events, Op::Delete, "editor", None, &[]);
        assert_eq!(section(&trashed, &difference("$.slug", Kind::Value, "\"__trashed\"")), Some("D15"));
        assert_eq!(section(&trashed, &difference("$.slug", Kind::Value, "\"a__trashed\"")), None);
        let update = step(Resource::Events, Op::Update, "editor", Some(json!({"title": "t"})), &[]);
        assert_eq!(section(&update, &difference("$.featured", Kind::Value, "false")), Some("D16"));
        let carried = step(Resource::Events, Op::Update, "editor", Some(json!({"featured": true})), &[]);
        assert_eq!(section(&carried, &difference("$.featured", Kind::Value, "false")), None);
        assert_eq!(section(&update, &difference("$.end_date", Kind::Value, "\"x\"")), None, "dates are should");
        assert_eq!(section(&update, &difference("$.cost", Kind::Value, "\"\"")), Some("D16"));
        assert_eq!(section(&update, &difference("$.organizer[0]", Kind::Item, "absent")), Some("D16"));
        let venue = step(Resource::Venues, Op::Update, "editor", Some(json!({"venue": "v"})), &[]);
        assert_eq!(section(&venue, &difference("$.stateprovince", Kind::Key, "absent")), Some("D16"));
        assert_eq!(section(&venue, &difference("$.status", Kind::Value, "\"publish\"")), Some("D16"));
        assert_eq!(section(&venue, &difference("$.city", Kind::Value, "\"c\"")), None, "not reset");
        let private = json!({"status": "private"});
        let contributor = step(Resource::Venues, Op::Create, "contributor", Some(private.clone()), &[]);
        assert_eq!(section(&contributor, &difference("$.status", Kind::Value, "\"private\"")), Some("D30"));
        assert_eq!(section(&contributor, &difference("$.status", Kind::Value, "\"publish\"")), None);
        let editor = step(Resource::Venues, Op::Create, "editor", Some(private), &[]);
        assert_eq!(section(&editor, &difference("$.status", Kind::Value, "\"private\"")), None);
        let emptied = step(Resource::Organizers, Op::Update, "editor", Some(json!({"description": ""})), &[]);
        assert_eq!(section(&emptied, &difference("$.description", Kind::Value, "\"d\"")), Some("D39"));
        let written = step(Resource::Organizers, Op::Update, "editor", Some(json!({"description": "w"})), &[]);
        assert_eq!(section(&written, &difference("$.description", Kind::Value, "\"d\"")), None);
        assert_eq!(section(&plain, &difference("$.events[2].venue.geo_lat", Kind::Key, "absent")), Some("D27"));
        let mut more = difference("$.events[1]", Kind::Item, "id 3");
        more.b = "absent".into();
        let author = step(Resource::Events, Op::List, "author", None, &[]);
        assert_eq!(section(&author, &more), Some("D12"), "a real site lists others' drafts");
        assert_eq!(section(&author, &difference("$.events[1]", Kind::Item, "absent")), None, "one missing is should");
        assert_eq!(section(&plain, &more), None);
        let mut by_slug = step(Resource::Events, Op::Update, "contributor", Some(json!({"title": "t"})), &[]);
        by_slug.path = "/events/by-slug/{{slug_3}}".into();
        assert_eq!(section(&by_slug, &difference("status", Kind::Status, "200")), Some("D13"));
        assert_eq!(section(&by_slug, &difference("$.code", Kind::Code, "absent")), Some("D13"));
        assert_eq!(section(&by_slug, &difference("status", Kind::Status, "404 (x)")), None);
        let by_id = step(Resource::Events, Op::Update, "contributor", Some(json!({"title": "t"})), &[]);
        assert_eq!(section(&by_id, &difference("status", Kind::Status, "200")), None, "by ID it is S3.2");
    }

    #[test]
    fn every_field_the_reference_adds_has_a_row() {
        use reference_server::interface::post_fields;
        for resource in POSTS {
            for arg in post_fields(*resource).iter().filter(|a| a.description.contains("reference server")) {
                let read = step(*resource, Op::Read, "editor", None, &[]);
                let d = difference(&format!("$.{}", arg.name), Kind::Value, "1");
                assert!(covering(&read, &d).is_some(), "{} of {resource:?}", arg.name);
            }
        }
        let behaviour = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/behaviour.md")).unwrap();
        for row in DECISIONS {
            assert!(row.section.starts_with('D') && !row.what.is_empty(), "{row:?}");
            let heading = format!("\n### {} ", row.section);
            assert!(behaviour.contains(&heading), "{} is a section of docs/behaviour.md", row.section);
        }
    }
}
