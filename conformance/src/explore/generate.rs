//! Generation: random but meaningful request sequences, read from the interface table
//! (`reference_server::interface`, the one routing, validation, `/doc` and coverage read).
//!
//! A step is a request with templates the lockstep fills in per side: `{{id_N}}` is the ID
//! the create of step `N` got on that side, `{{token}}` the run's word (in every title, and the
//! `search` of every list, so that lists see only the run's own items), `{{date(+Nd)}}` a date
//! relative to the run's clock. The same templates are those of a case file.

use std::collections::BTreeMap;

use reference_server::interface::{self, Arg, Item, Op, Resource, Rule, Target, Ty};
use serde_json::{json, Map, Value};

use super::rng::Rng;

/// The five credential names the runner knows.
pub const ROLES: [&str; 5] = ["administrator", "editor", "author", "contributor", "subscriber"];

/// An ID no implementation has handed out in a run.
pub const UNKNOWN_ID: u64 = 9_999_999;

/// One request of a sequence.
#[derive(Clone, Debug, PartialEq)]
pub struct Step {
    /// Stable through shrinking: `{{id_<label>}}` names the ID this step's create got.
    pub label: usize,
    pub role: Option<String>,
    pub method: &'static str,
    pub resource: Resource,
    pub op: Op,
    /// Relative to the namespace, with templates: `/events/{{id_3}}`.
    pub path: String,
    pub query: Vec<(String, String)>,
    pub body: Option<Map<String, Value>>,
    /// Whether an invalid value was planted on purpose.
    pub invalid: bool,
}

impl Step {
    /// Whether the step creates an item (its answer's `id` is kept as `id_<label>`).
    pub fn creates(&self) -> bool {
        self.op == Op::Create
    }

    /// The route, IDs aside: `/events/{{id_3}}` and `/events/9999999` are `/events/{id}`.
    pub fn route(&self) -> String {
        let segments: Vec<&str> = self
            .path
            .split('/')
            .map(|s| match s {
                _ if s.starts_with("{{id_") || s == UNKNOWN_ID.to_string() => "{id}",
                _ if s.starts_with("{{slug_") => "{slug}",
                _ => s,
            })
            .collect();
        segments.join("/")
    }

    /// The labels of the steps whose IDs this step uses.
    pub fn uses(&self) -> Vec<usize> {
        let mut text = self.path.clone();
        self.query.iter().for_each(|(_, v)| text.push_str(v));
        if let Some(body) = &self.body {
            text.push_str(&Value::Object(body.clone()).to_string());
        }
        Step::linked_in(&text)
    }

    /// The labels of the `{{id_N}}` templates in `text`.
    pub fn labels_in(text: &str) -> Vec<usize> {
        labels_after(text, "{{id_")
    }

    /// The labels of the `{{id_N}}` and `{{slug_N}}` templates in `text`, in their order.
    fn linked_in(text: &str) -> Vec<usize> {
        let mut found: Vec<(usize, usize)> = Vec::new();
        for prefix in ["{{id_", "{{slug_"] {
            let starts = text.match_indices(prefix).map(|(at, _)| at);
            found.extend(starts.filter_map(|at| Some((at, *labels_after(&text[at..], prefix).first()?))));
        }
        found.sort();
        found.into_iter().map(|(_, label)| label).collect()
    }
}

/// The labels after each `prefix` in `text` (`{{id_` → the 3 of `{{id_3}}`).
fn labels_after(text: &str, prefix: &str) -> Vec<usize> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(at) = rest.find(prefix) {
        rest = &rest[at + prefix.len()..];
        let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
        if let Ok(n) = digits.parse() {
            out.push(n);
        }
    }
    out
}

/// The language parameter's name in a step's query: sent under the implementation's own name
/// (`--language-param`), as a case file's top-level `multilingual_language` key is.
pub const LANGUAGE_PARAM: &str = "multilingual_language";

/// What the generator knows of the sequence so far.
pub struct Generator {
    rng: Rng,
    roles: Vec<String>,
    without: Vec<String>,
    next: usize,
    /// Creates so far: (resource, label), and whether a delete was sent for it.
    made: Vec<(Resource, usize, bool)>,
    /// An event's start (day offset, hour) as last sent.
    starts: BTreeMap<usize, (i64, i64)>,
    /// The creates that gave a slug (`{{slug_N}}`): the by-slug routes address them.
    slugged: Vec<usize>,
}

const RESOURCES: [Resource; 5] =
    [Resource::Events, Resource::Venues, Resource::Organizers, Resource::Categories, Resource::Tags];
/// The resources with by-slug routes.
const BY_SLUG: [Resource; 3] = [Resource::Events, Resource::Venues, Resource::Organizers];
const WORDS: [&str; 12] = [
    "jazz", "river", "market", "lantern", "harbour", "summit", "garden", "violet", "echo", "meadow", "atlas", "copper",
];
/// Write fields left out: they depend on the site (users, images, clocks) or hide the item.
const SKIPPED: [&str; 7] = ["author", "date_utc", "image", "password", "post_parent", "slug", "ticketed"];

impl Generator {
    /// A generator for `seed`, acting as `roles` (and anonymously), leaving out the arguments of
    /// the features in `without`.
    pub fn new(seed: u64, roles: &[String], without: &[String]) -> Generator {
        Generator {
            rng: Rng::new(seed),
            roles: roles.to_vec(),
            without: without.to_vec(),
            next: 0,
            made: Vec::new(),
            starts: BTreeMap::new(),
            slugged: Vec::new(),
        }
    }

    /// The next step.
    pub fn step(&mut self) -> Step {
        let label = self.next;
        self.next += 1;
        let resource = RESOURCES[self.rng.weighted(&[6, 2, 2, 1, 1])];
        let live = self.live(resource);
        // Most steps meet existing data: creates dominate only while there is little.
        let weights: [u64; 5] = if live.len() < 2 { [8, 1, 1, 3, 0] } else { [3, 3, 2, 4, 1] };
        let mut step = match self.rng.weighted(&weights) {
            0 => self.create(label, resource),
            1 => self.update(label, resource, &live),
            2 => self.single(label, resource, &live, "GET", Op::Read),
            3 => self.list(label, resource),
            _ => self.delete(label, resource, &live),
        };
        if self.rng.chance(10) {
            self.plant_invalid(&mut step);
        }
        self.language(&mut step);
        if step.creates() {
            self.made.push((resource, label, false));
        }
        step
    }

    fn live(&self, resource: Resource) -> Vec<usize> {
        self.made.iter().filter(|(r, _, deleted)| *r == resource && !deleted).map(|(_, l, _)| *l).collect()
    }

    fn role(&mut self, writing: bool) -> Option<String> {
        let weights: Vec<u64> = self
            .roles
            .iter()
            .map(|r| match (writing, r.as_str()) {
                (true, "administrator" | "editor") => 6,
                (true, "author" | "contributor") => 3,
                (true, _) => 1,
                (false, _) => 1,
            })
            .chain([if writing { 1 } else { 3 }])
            .collect();
        let i = self.rng.weighted(&weights);
        self.roles.get(i).cloned()
    }

    fn step_of(&self, label: usize, role: Option<String>, method: &'static str, resource: Resource, op: Op) -> Step {
        let path = format!("/{}", resource.segment());
        Step { label, role, method, resource, op, path, query: Vec::new(), body: None, invalid: false }
    }

    /// Most creates come from a role that may create anything (administrator, editor), so that
    /// later steps find the items; the others try now and then.
    fn creator(&mut self) -> Option<String> {
        let able: Vec<String> =
            self.roles.iter().filter(|r| matches!(r.as_str(), "administrator" | "editor")).cloned().collect();
        if able.is_empty() || self.rng.chance(15) {
            self.role(true)
        } else {
            Some(self.rng.pick(&able).clone())
        }
    }

    fn create(&mut self, label: usize, resource: Resource) -> Step {
        let role = self.creator();
        let mut step = self.step_of(label, role, "POST", resource, Op::Create);
        let mut body = Map::new();
        for arg in interface::args(resource, Target::Collection, Op::Create) {
            if self.usable(&arg) && (arg.required || self.rng.chance(35)) {
                if let Some(value) = self.value(resource, &arg) {
                    body.insert(arg.name.to_string(), value);
                }
            }
        }
        if resource == Resource::Events {
            self.event_dates(label, &mut body, true);
        }
        if BY_SLUG.contains(&resource) && self.rng.chance(30) {
            body.insert("slug".into(), json!(format!("{{{{slug_{label}}}}}")));
            self.slugged.push(label);
        }
        step.body = Some(body);
        step
    }

    /// Now and then the language parameter on a read or a list: `en`, the language every item
    /// of the run is in, and on reads by ID also `fr` (an item is found whatever its language).
    fn language(&mut self, step: &mut Step) {
        let value = match step.op {
            Op::List | Op::Read if self.rng.chance(8) => "en",
            Op::Read if step.path.contains("{{id_") && self.rng.chance(5) => "fr",
            _ => return,
        };
        step.query.push((LANGUAGE_PARAM.to_string(), value.to_string()));
    }

    fn update(&mut self, label: usize, resource: Resource, live: &[usize]) -> Step {
        let mut step = self.single(label, resource, live, "POST", Op::Update);
        let target = step.uses().first().copied();
        step.role = self.role(true);
        step.method = *self.rng.pick(&["POST", "PUT", "PATCH"]);
        let args: Vec<Arg> = interface::args(resource, Target::ById, Op::Update)
            .into_iter()
            .filter(|a| a.name != "id" && self.usable(a) && !a.name.ends_with("_date"))
            .collect();
        let mut body = Map::new();
        for _ in 0..self.rng.range(1, 3) {
            let arg = *self.rng.pick(&args);
            if let Some(value) = self.value(resource, &arg) {
                body.insert(arg.name.to_string(), value);
            }
        }
        if resource == Resource::Events && self.rng.chance(8) {
            // Sticky with a new publication date, as one update (drafts included).
            body.insert("sticky".into(), json!(true));
            body.insert("date".into(), json!(self.publication_date()));
        }
        if resource == Resource::Events && self.rng.chance(40) {
            if let Some(target) = target {
                let whole = self.rng.chance(30);
                body.retain(|k, _| k != "start_date" && k != "end_date");
                self.event_dates(target, &mut body, whole);
            }
        }
        step.body = Some(body);
        step
    }

    /// A live item of the resource (now and then an unknown ID), chosen for a single route.
    fn target(&mut self, live: &[usize]) -> Option<usize> {
        (!live.is_empty()).then(|| *self.rng.pick(live))
    }

    fn single(&mut self, label: usize, resource: Resource, live: &[usize], method: &'static str, op: Op) -> Step {
        let role = self.role(op != Op::Read);
        let mut step = self.step_of(label, role, method, resource, op);
        let segment = resource.segment();
        step.path = match self.target(live) {
            Some(target) if self.slugged.contains(&target) && self.rng.chance(40) => {
                format!("/{segment}/by-slug/{{{{slug_{target}}}}}")
            }
            Some(target) if !self.rng.chance(5) => format!("/{segment}/{{{{id_{target}}}}}"),
            _ => format!("/{segment}/{UNKNOWN_ID}"),
        };
        step
    }

    fn delete(&mut self, label: usize, resource: Resource, live: &[usize]) -> Step {
        let step = self.single(label, resource, live, "DELETE", Op::Delete);
        if let Some(made) = self.made.iter_mut().find(|m| step.uses().contains(&m.1)) {
            made.2 = true;
        }
        step
    }

    fn list(&mut self, label: usize, resource: Resource) -> Step {
        let role = self.role(false);
        let mut step = self.step_of(label, role, "GET", resource, Op::List);
        step.query.push(("search".into(), "{{token}}".into()));
        for arg in interface::args(resource, Target::Collection, Op::List) {
            let geo_point = arg.name.starts_with("geoloc_");
            if arg.name == "search" || arg.name == "slug" || geo_point || !self.usable(&arg) || !self.rng.chance(18) {
                continue;
            }
            let reader = matches!(step.role.as_deref(), None | Some("subscriber" | "contributor"));
            let value = match arg.rule {
                // Only those who may edit may ask for other statuses: readers mostly ask for publish.
                Rule::StatusList if reader && self.rng.chance(75) => Some("publish".to_string()),
                _ => self.query_value(&arg),
            };
            if let Some(value) = value {
                step.query.push((arg.name.to_string(), value));
            }
        }
        step
    }

    fn usable(&self, arg: &Arg) -> bool {
        !SKIPPED.contains(&arg.name) && arg.feature.is_none_or(|f| !self.without.iter().any(|w| w == f))
    }

    /// A comma-separated list of 1 to 3 live items of `resource`.
    fn refs(&mut self, resource: Resource) -> Option<String> {
        let live = self.live(resource);
        if live.is_empty() {
            return None;
        }
        let picked: Vec<String> = (0..self.rng.range(1, 3.min(live.len() as i64)))
            .map(|_| format!("{{{{id_{}}}}}", self.rng.pick(&live)))
            .collect();
        Some(picked.join(","))
    }

    fn one_ref(&mut self, resource: Resource) -> Option<Value> {
        let live = self.live(resource);
        (!live.is_empty()).then(|| Value::String(format!("{{{{id_{}}}}}", self.rng.pick(&live))))
    }

    fn ref_list(&mut self, resource: Resource) -> Option<Value> {
        let refs = self.refs(resource)?;
        Some(Value::Array(refs.split(',').map(|r| Value::String(r.to_string())).collect()))
    }
}

impl Generator {
    fn words(&mut self, n: usize) -> String {
        let words: Vec<&str> = (0..n).map(|_| *self.rng.pick(&WORDS)).collect();
        words.join(" ")
    }

    /// A valid value of a write field, by its rule and type (`None`: nothing fits yet).
    fn value(&mut self, resource: Resource, arg: &Arg) -> Option<Value> {
        let text = match (arg.rule, arg.name) {
            (_, "title" | "venue" | "organizer" | "name") if arg.ty == Ty::String => {
                let words = self.words(2);
                return Some(json!(format!("{words} {{{{token}}}}")));
            }
            (_, "date") => return Some(json!(self.publication_date())),
            (Rule::Time, _) => return Some(json!(self.date(0, 400, 10))),
            (Rule::PostStatus, _) => return Some(json!(self.rng.pick(&["publish", "draft", "pending", "private"]))),
            (Rule::TimezoneOrEmpty, _) => {
                return Some(json!(self.rng.pick(&["UTC", "Europe/Paris", "America/New_York", "UTC+2"])))
            }
            (Rule::UrlOrEmpty, _) => return Some(json!("https://example.org/{{token}}")),
            // The interface's "array of integer" as a list now and then (`[12]`).
            (Rule::VenueEntry, _) if self.rng.chance(30) => return self.one_ref(Resource::Venues).map(|v| json!([v])),
            (Rule::VenueEntry, _) => return self.one_ref(Resource::Venues),
            (Rule::OrganizerEntry, _) if self.rng.chance(25) => return self.one_ref(Resource::Organizers),
            (Rule::OrganizerEntry, _) => return self.ref_list(Resource::Organizers),
            (Rule::TermList, _) => return self.one_ref(resource),
            (_, "email") => "mail@example.org".to_string(),
            (_, "phone") => format!("+33 1 {:02} {:02}", self.rng.below(100), self.rng.below(100)),
            (_, "categories") => return self.ref_list(Resource::Categories),
            (_, "tags") => return self.ref_list(Resource::Tags),
            (_, "cost") => return Some(if self.rng.chance(50) { json!(self.rng.range(0, 90)) } else { json!("free") }),
            (_, "geo_lat") => return Some(json!(self.rng.range(-80, 80) as f64 / 2.0)),
            (_, "geo_lng") => return Some(json!(self.rng.range(-170, 170) as f64 / 2.0)),
            _ => match arg.ty {
                Ty::Boolean => return Some(json!(self.rng.chance(50))),
                Ty::Integer => return Some(json!(self.rng.range(1, 5))),
                Ty::Number => return Some(json!(self.rng.range(0, 100))),
                Ty::Array(_) => return None,
                Ty::String if matches!(arg.name, "show_map" | "show_map_link") => {
                    return Some(json!(if self.rng.chance(50) { "true" } else { "false" }))
                }
                _ => self.words(3),
            },
        };
        Some(Value::String(text))
    }

    /// `{{date(+Nd)}} HH:00:00` with N in `low..=high` (`past` percent of the time before now).
    fn date(&mut self, low: i64, high: i64, past: u64) -> String {
        let days = if self.rng.chance(past) { -self.rng.range(1, 60) } else { self.rng.range(low, high) };
        format!("{} {:02}:00:00", day(days), self.rng.range(8, 20))
    }

    /// A publication date: mostly past, now and then a few days ahead (a scheduled item).
    fn publication_date(&mut self) -> String {
        let days = if self.rng.chance(15) { self.rng.range(1, 30) } else { -self.rng.range(1, 400) };
        format!("{} {:02}:{:02}:00", day(days), self.rng.range(0, 23), self.rng.range(0, 59))
    }

    /// Start and end of an event: both (`whole`), or a lone `end_date` after its known start.
    fn event_dates(&mut self, label: usize, body: &mut Map<String, Value>, whole: bool) {
        let known = self.starts.get(&label).copied();
        if whole || known.is_none() {
            let days = if self.rng.chance(25) { -self.rng.range(1, 60) } else { self.rng.range(0, 400) };
            let hour = self.rng.range(8, 18);
            self.starts.insert(label, (days, hour));
            body.insert("start_date".into(), json!(format!("{} {hour:02}:00:00", day(days))));
            let (end_day, end_hour) = (days + self.rng.range(0, 2), hour + self.rng.range(1, 4));
            body.insert("end_date".into(), json!(format!("{} {end_hour:02}:30:00", day(end_day))));
        } else if let Some((days, hour)) = known {
            let (end_day, end_hour) = (days + self.rng.range(0, 3), hour + self.rng.range(1, 5));
            body.insert("end_date".into(), json!(format!("{} {end_hour:02}:15:00", day(end_day))));
        }
    }

    /// A valid value of a list filter, as query text.
    fn query_value(&mut self, arg: &Arg) -> Option<String> {
        Some(match (arg.rule, arg.name) {
            (Rule::PositiveInt, "per_page") => self.rng.range(1, 5).to_string(),
            (Rule::PositiveInt, _) => self.rng.range(1, 3).to_string(),
            (Rule::Time, _) => self.date(-30, 400, 20),
            (Rule::PositiveIntList, _) => self.refs(Resource::Events)?,
            (Rule::CategoryList, _) => self.refs(Resource::Categories)?,
            (Rule::TagList, _) => self.refs(Resource::Tags)?,
            (Rule::VenueIdList, _) => self.refs(Resource::Venues)?,
            (Rule::OrganizerIdList, _) => self.refs(Resource::Organizers)?,
            (Rule::TermList, "parent") => self.refs(Resource::Categories)?.split(',').next()?.to_string(),
            (Rule::TermList, _) => {
                let taxonomy = if self.rng.chance(50) { Resource::Categories } else { Resource::Tags };
                self.refs(taxonomy)?
            }
            (Rule::EventId, _) => self.refs(Resource::Events)?.split(',').next()?.to_string(),
            (Rule::StatusList, _) => self.rng.pick(&["publish", "draft", "publish,draft", "pending"]).to_string(),
            (_, "order") => self.rng.pick(&["asc", "desc"]).to_string(),
            (_, "orderby") => self.rng.pick(&["name", "slug", "id", "count"]).to_string(),
            (_, "strict_dates") | (Rule::None, _) | (Rule::Ticketed, _) => {
                (if self.rng.chance(50) { "true" } else { "false" }).to_string()
            }
            _ => return None,
        })
    }

    /// Replaces one value by an invalid one: a wrong type, an unknown ID, a number out of range,
    /// an empty string.
    fn plant_invalid(&mut self, step: &mut Step) {
        let target = match step.op {
            Op::List => Target::Collection,
            Op::Create => Target::Collection,
            _ => Target::ById,
        };
        let args: Vec<Arg> = interface::args(step.resource, target, step.op)
            .into_iter()
            .filter(|a| a.name != "id" && a.name != "search" && self.usable(a) && !a.name.starts_with("geoloc_"))
            .collect();
        if args.is_empty() {
            return;
        }
        let arg = *self.rng.pick(&args);
        let bad = match (arg.ty, arg.rule) {
            (_, Rule::PositiveInt) => json!(*self.rng.pick(&[0, -3, 1000])),
            (Ty::Integer | Ty::Number, _) => json!("abc"),
            (Ty::Boolean, _) => json!("maybe"),
            (Ty::Array(Item::Integer), _) => json!(UNKNOWN_ID.to_string()),
            (_, Rule::Time) => json!("not a date"),
            (_, Rule::PostStatus | Rule::StatusList) => json!("bogus"),
            _ => json!(""),
        };
        step.invalid = true;
        match &mut step.body {
            Some(body) => {
                body.insert(arg.name.to_string(), bad);
            }
            None if step.op == Op::List => {
                let text = match bad {
                    Value::String(s) => s,
                    other => other.to_string(),
                };
                step.query.retain(|(k, _)| k != arg.name);
                step.query.push((arg.name.to_string(), text));
            }
            None => step.invalid = false,
        }
    }
}

/// `{{date(+Nd)}}`: the date N days from the run's clock.
fn day(days: i64) -> String {
    format!("{{{{date({days:+}d)}}}}")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sequence(seed: u64, n: usize) -> Vec<Step> {
        let roles: Vec<String> = ROLES.iter().map(|r| r.to_string()).collect();
        let mut generator = Generator::new(seed, &roles, &[]);
        (0..n).map(|_| generator.step()).collect()
    }

    #[test]
    fn the_same_seed_gives_the_same_sequence() {
        assert_eq!(sequence(3, 200), sequence(3, 200));
        assert_ne!(sequence(3, 50), sequence(4, 50));
    }

    #[test]
    fn sequences_meet_existing_data_and_cover_every_resource() {
        let steps = sequence(1, 2000);
        for resource in RESOURCES {
            for op in [Op::Create, Op::Update, Op::Read, Op::List, Op::Delete] {
                assert!(steps.iter().any(|s| s.resource == resource && s.op == op), "{resource:?} {op:?}");
            }
        }
        let linked = steps.iter().filter(|s| !s.uses().is_empty()).count();
        assert!(linked * 2 > steps.len(), "most steps use earlier items: {linked} of {}", steps.len());
        let invalid = steps.iter().filter(|s| s.invalid).count();
        assert!((100..400).contains(&invalid), "{invalid} invalid");
        assert!(steps.iter().all(|s| s.op != Op::List || s.query[0] == ("search".into(), "{{token}}".into())));
        for role in ROLES {
            assert!(steps.iter().any(|s| s.role.as_deref() == Some(role)));
        }
        assert!(steps.iter().any(|s| s.role.is_none()));
    }

    #[test]
    fn sequences_use_the_by_slug_routes_languages_dates_and_list_forms() {
        let steps = sequence(1, 2000);
        let count = |f: &dyn Fn(&Step) -> bool| steps.iter().filter(|s| f(s)).count();
        let body = |s: &Step, key: &str| s.body.as_ref().and_then(|b| b.get(key)).cloned();
        for resource in BY_SLUG {
            let by_slug = |s: &Step| s.resource == resource && s.path.contains("/by-slug/{{slug_");
            assert!(count(&by_slug) >= 5, "{resource:?} by slug");
            // A by-slug step addresses a create that gave that slug.
            for step in steps.iter().filter(|s| by_slug(s)) {
                let target = step.uses()[0];
                let create = steps.iter().find(|s| s.label == target).unwrap();
                assert_eq!(body(create, "slug"), Some(json!(format!("{{{{slug_{target}}}}}"))));
            }
        }
        let language = |s: &Step| s.query.iter().any(|(n, _)| n == LANGUAGE_PARAM);
        assert!(count(&language) >= 50, "{}", count(&language));
        assert!(count(&|s| s.resource == Resource::Events && body(s, "date").is_some()) >= 30);
        let sticky_dated = |s: &Step| s.op == Op::Update && body(s, "date").is_some() && body(s, "sticky").is_some();
        assert!(count(&sticky_dated) >= 10, "{}", count(&sticky_dated));
        assert!(count(&|s| body(s, "venue").is_some_and(|v| v.is_array())) >= 10);
        assert!(count(&|s| body(s, "venue").is_some_and(|v| v.is_string())) >= 10);
        assert!(count(&|s| body(s, "organizer").is_some_and(|v| v.is_string())) >= 5);
        assert!(count(&|s| body(s, "organizer").is_some_and(|v| v.is_array())) >= 10);
    }
}
