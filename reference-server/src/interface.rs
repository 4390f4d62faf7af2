//! The interface as data: every route, the methods on it, and every argument each takes.
//!
//! This table is the one description of the interface. The router dispatches from it, argument
//! validation reads its types and rules, the namespace index and `/doc` are generated from it,
//! and the conformance runner's coverage report counts cases against it.

/// A JSON Schema type of an argument, as the CMS's REST layer checks it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ty {
    String,
    Integer,
    Number,
    Boolean,
    /// A list, given as a JSON array, repeated `key[]=` pairs or a comma-separated string.
    Array(Item),
    /// No type check (the interface calls these "untyped").
    Untyped,
}

/// The element type of an array argument.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Item {
    Integer,
    String,
}

impl Ty {
    /// The name the CMS uses in "… is not of type X." messages and in schemas.
    pub fn name(self) -> Option<&'static str> {
        match self {
            Ty::String => Some("string"),
            Ty::Integer => Some("integer"),
            Ty::Number => Some("number"),
            Ty::Boolean => Some("boolean"),
            Ty::Array(_) => Some("array"),
            Ty::Untyped => None,
        }
    }
}

/// The validation rule an argument's value must pass (before its type is checked).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rule {
    None,
    PositiveInt,
    PositiveIntList,
    /// A date a person would type (see `dates`).
    Time,
    /// A non-empty string.
    NonEmpty,
    /// Any string, empty included.
    StringOrEmpty,
    UserId,
    PostStatus,
    /// A status list for archives: what is allowed depends on the user.
    StatusList,
    EventId,
    VenueIdList,
    OrganizerIdList,
    /// Existing categories, by ID or slug, as a list.
    CategoryList,
    /// Existing tags, by ID or slug, as a list.
    TagList,
    /// Existing terms of the route's own taxonomy, by ID or slug.
    TermList,
    TimezoneOrEmpty,
    ImageOrEmpty,
    UrlOrEmpty,
    /// An event's `venue`: empty, IDs, `{id}` or inline venue data.
    VenueEntry,
    /// An event's `organizer`: empty, IDs, `{id}` objects or inline organizer data, or lists of those.
    OrganizerEntry,
    /// The `ticketed` filter: truthy needs the ticketing feature.
    Ticketed,
}

/// A default value as the interface states it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Default {
    Int(i64),
    Bool(bool),
    Text(&'static str),
    Null,
    /// Computed per request (the events list's date window).
    Computed(&'static str),
}

/// One argument of one route and method.
#[derive(Clone, Copy, Debug)]
pub struct Arg {
    pub name: &'static str,
    pub ty: Ty,
    pub required: bool,
    pub default: Option<Default>,
    pub rule: Rule,
    /// Needs an optional feature of the server (`geoloc`, `tickets`).
    pub feature: Option<&'static str>,
    /// Whether the CMS enforces `ty` (some arguments only document a type).
    pub enforced: bool,
    /// English description; `doc` translates it.
    pub description: &'static str,
}

const fn arg(name: &'static str, ty: Ty, rule: Rule, description: &'static str) -> Arg {
    Arg { name, ty, required: false, default: None, rule, feature: None, enforced: true, description }
}

/// The type is documented but not checked: the rule alone decides.
const fn loose(mut a: Arg) -> Arg {
    a.enforced = false;
    a
}

const fn required(mut a: Arg) -> Arg {
    a.required = true;
    a
}

const fn default(mut a: Arg, value: Default) -> Arg {
    a.default = Some(value);
    a
}

const fn feature(mut a: Arg, name: &'static str) -> Arg {
    a.feature = Some(name);
    a
}

/// The resource family a route belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Resource {
    Index,
    Doc,
    Events,
    Venues,
    Organizers,
    Categories,
    Tags,
}

impl Resource {
    /// The path segment of the collection (`events`, …).
    pub fn segment(self) -> &'static str {
        match self {
            Resource::Index => "",
            Resource::Doc => "doc",
            Resource::Events => "events",
            Resource::Venues => "venues",
            Resource::Organizers => "organizers",
            Resource::Categories => "categories",
            Resource::Tags => "tags",
        }
    }

    /// Events, venues and organizers are posts; categories and tags are terms.
    pub fn is_term(self) -> bool {
        matches!(self, Resource::Categories | Resource::Tags)
    }
}

/// How a route addresses its target.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Target {
    /// The namespace index or `/doc`.
    Fixed,
    Collection,
    ById,
    BySlug,
}

/// What a method does on a route.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Op {
    Index,
    Doc,
    List,
    Create,
    Read,
    Update,
    Delete,
}

/// HTTP methods the interface uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Method {
    Get,
    Post,
    Put,
    Patch,
    Delete,
}

impl Method {
    pub fn name(self) -> &'static str {
        match self {
            Method::Get => "GET",
            Method::Post => "POST",
            Method::Put => "PUT",
            Method::Patch => "PATCH",
            Method::Delete => "DELETE",
        }
    }

    pub fn parse(text: &str) -> Option<Method> {
        match text.to_ascii_uppercase().as_str() {
            "GET" | "HEAD" => Some(Method::Get),
            "POST" => Some(Method::Post),
            "PUT" => Some(Method::Put),
            "PATCH" => Some(Method::Patch),
            "DELETE" => Some(Method::Delete),
            _ => None,
        }
    }
}

/// One route of the interface.
#[derive(Clone, Copy, Debug)]
pub struct Route {
    pub resource: Resource,
    pub target: Target,
    /// The path as the interface document writes it, e.g. `/events/<id>`.
    pub path: &'static str,
    /// Methods and the operation each performs, in registration order.
    pub methods: &'static [(Method, Op)],
}

impl Route {
    pub fn op(&self, method: Method) -> Option<Op> {
        self.methods.iter().find(|(m, _)| *m == method).map(|(_, op)| *op)
    }

    /// The arguments of one method of this route (the language parameter aside).
    pub fn args(&self, method: Method) -> Vec<Arg> {
        match self.op(method) {
            Some(op) => args(self.resource, self.target, op),
            None => Vec::new(),
        }
    }

    /// The path with `{id}` / `{slug}` placeholders, as OpenAPI writes it.
    pub fn openapi_path(&self) -> String {
        self.path.replace("<id>", "{id}").replace("<slug>", "{slug}")
    }

    /// The route as the CMS registers it: a regular expression.
    pub fn pattern(&self) -> String {
        self.path.replace("<id>", r"(?P<id>\d+)").replace("<slug>", r"(?P<slug>[^/]+)")
    }
}

const COLLECTION: &[(Method, Op)] = &[(Method::Get, Op::List), (Method::Post, Op::Create)];
const SINGLE: &[(Method, Op)] = &[
    (Method::Get, Op::Read),
    (Method::Delete, Op::Delete),
    (Method::Post, Op::Update),
    (Method::Put, Op::Update),
    (Method::Patch, Op::Update),
];
/// Terms are served by the CMS's own terms controller, which registers read, edit, delete.
const TERM_SINGLE: &[(Method, Op)] = &[
    (Method::Get, Op::Read),
    (Method::Post, Op::Update),
    (Method::Put, Op::Update),
    (Method::Patch, Op::Update),
    (Method::Delete, Op::Delete),
];

/// Every route of the interface (§4.1), in the order the real plugin registers them.
pub const ROUTES: &[Route] = &[
    Route { resource: Resource::Index, target: Target::Fixed, path: "", methods: &[(Method::Get, Op::Index)] },
    Route { resource: Resource::Doc, target: Target::Fixed, path: "/doc", methods: &[(Method::Get, Op::Doc)] },
    Route { resource: Resource::Events, target: Target::Collection, path: "/events", methods: COLLECTION },
    Route { resource: Resource::Events, target: Target::ById, path: "/events/<id>", methods: SINGLE },
    Route { resource: Resource::Events, target: Target::BySlug, path: "/events/by-slug/<slug>", methods: SINGLE },
    Route { resource: Resource::Venues, target: Target::Collection, path: "/venues", methods: COLLECTION },
    Route { resource: Resource::Venues, target: Target::ById, path: "/venues/<id>", methods: SINGLE },
    Route { resource: Resource::Venues, target: Target::BySlug, path: "/venues/by-slug/<slug>", methods: SINGLE },
    Route { resource: Resource::Organizers, target: Target::Collection, path: "/organizers", methods: COLLECTION },
    Route { resource: Resource::Organizers, target: Target::ById, path: "/organizers/<id>", methods: SINGLE },
    Route {
        resource: Resource::Organizers,
        target: Target::BySlug,
        path: "/organizers/by-slug/<slug>",
        methods: SINGLE,
    },
    Route { resource: Resource::Categories, target: Target::Collection, path: "/categories", methods: COLLECTION },
    Route { resource: Resource::Categories, target: Target::ById, path: "/categories/<id>", methods: TERM_SINGLE },
    Route { resource: Resource::Tags, target: Target::Collection, path: "/tags", methods: COLLECTION },
    Route { resource: Resource::Tags, target: Target::ById, path: "/tags/<id>", methods: TERM_SINGLE },
];

use Item as I;
use Rule as R;
use Ty as T;

const INT_LIST: Ty = T::Array(I::Integer);

const PAGE: Arg = default(arg("page", T::Integer, R::PositiveInt, "The archive page to return."), Default::Int(1));
const PER_PAGE: Arg = default(
    arg("per_page", T::Integer, R::PositiveInt, "The number of items to return per page (at most 50)."),
    Default::Int(10),
);

/// Arguments of the events list (§4.2).
pub const EVENT_LIST_ARGS: &[Arg] = &[
    PAGE,
    PER_PAGE,
    default(
        arg("start_date", T::Untyped, R::Time, "Events that start on or after this date."),
        Default::Computed("today 00:00:00"),
    ),
    default(
        arg("end_date", T::Untyped, R::Time, "Events that end on or before this date."),
        Default::Computed("two years from today 23:59:59"),
    ),
    arg("search", T::String, R::NonEmpty, "Events whose title or description contains this text."),
    loose(arg("categories", INT_LIST, R::CategoryList, "Events in any of these categories (IDs or slugs).")),
    loose(arg("tags", INT_LIST, R::TagList, "Events with any of these tags (IDs or slugs).")),
    loose(arg("venue", INT_LIST, R::VenueIdList, "Events at any of these venues (IDs).")),
    loose(arg("organizer", INT_LIST, R::OrganizerIdList, "Events by any of these organizers (IDs).")),
    arg("featured", T::Boolean, R::None, "Only featured events (true) or only events that are not (false)."),
    feature(
        arg("geoloc", T::Boolean, R::None, "Only events whose venue has coordinates (true) or has none (false)."),
        "geoloc",
    ),
    feature(
        loose(arg(
            "geoloc_lat",
            T::Number,
            R::None,
            "Latitude of a point: only events whose venue lies within 25 km of it; needs geoloc_lng.",
        )),
        "geoloc",
    ),
    feature(
        loose(arg(
            "geoloc_lng",
            T::Number,
            R::None,
            "Longitude of a point: only events whose venue lies within 25 km of it; needs geoloc_lat.",
        )),
        "geoloc",
    ),
    loose(arg(
        "status",
        T::String,
        R::StatusList,
        "Post status, or a comma-separated list of them; users who may not edit posts can only ask for publish.",
    )),
    arg("post_parent", T::Integer, R::EventId, "Events whose parent event is this ID."),
    loose(arg(
        "include",
        INT_LIST,
        R::PositiveIntList,
        "Only these event IDs (a list or comma-separated); date filters are then ignored.",
    )),
    arg("starts_before", T::Untyped, R::Time, "Events that start before this date."),
    arg("starts_after", T::Untyped, R::Time, "Events that start after this date."),
    arg("ends_before", T::Untyped, R::Time, "Events that end before this date."),
    arg("ends_after", T::Untyped, R::Time, "Events that end after this date."),
    default(
        arg(
            "strict_dates",
            T::Untyped,
            R::NonEmpty,
            "When true, date filters apply at the exact times given; when false (the default), they cover whole days.",
        ),
        Default::Text("false"),
    ),
    feature(arg("ticketed", T::Boolean, R::Ticketed, "Only events with tickets (true) or without (false)."), "tickets"),
];

/// Arguments of the venue and organizer lists (§4.3).
pub const LINKED_LIST_ARGS: &[Arg] = &[
    PAGE,
    PER_PAGE,
    arg("search", T::String, R::NonEmpty, "Items whose title, description or details contain this text."),
    arg("event", T::Integer, R::EventId, "Items linked to this event ID."),
    arg("has_events", T::Untyped, R::None, "Only items linked to events (true) or to none (false)."),
    default(
        arg("only_with_upcoming", T::Untyped, R::None, "Only items linked to upcoming events."),
        Default::Bool(false),
    ),
    // A list too (`status[]=publish&status[]=draft`), as on the events list: the plugin's
    // archives share the status rule.
    loose(arg(
        "status",
        T::String,
        R::StatusList,
        "Post status, or a comma-separated list of them; users who may not edit posts can only ask for publish.",
    )),
];

/// Arguments of the category and tag lists (§4.4); `parent` is for categories only.
pub fn term_list_args(resource: Resource) -> Vec<Arg> {
    let mut args = vec![
        PAGE,
        PER_PAGE,
        arg("search", T::String, R::NonEmpty, "Terms whose name or slug contains this text."),
        loose(arg("exclude", INT_LIST, R::TermList, "Term IDs (or slugs) to leave out.")),
        loose(arg("include", INT_LIST, R::TermList, "Only these term IDs (or slugs).")),
        arg("order", T::String, R::NonEmpty, "Sort direction: asc (the default) or desc."),
        arg(
            "orderby",
            T::String,
            R::NonEmpty,
            "Term attribute to sort by: name (the default), slug, id, count, description, parent or include.",
        ),
        default(arg("hide_empty", T::Boolean, R::None, "Hide terms not assigned to any event."), Default::Bool(true)),
    ];
    if resource == Resource::Categories {
        args.push(arg("parent", T::Integer, R::TermList, "Only the direct children of this category (ID or slug)."));
    }
    args.extend([
        arg("post", T::Integer, R::EventId, "Terms assigned to this event ID."),
        arg("event", T::Integer, R::EventId, "Terms assigned to this event ID (alias of post; wins over it)."),
        arg("slug", T::String, R::NonEmpty, "Terms with this slug."),
    ]);
    args
}

/// Write fields of an event (§2.1), plus the reference server's own `password` (and `ticketed`).
pub const EVENT_FIELDS: &[Arg] = &[
    arg("author", T::Integer, R::UserId, "The ID of the event's author."),
    arg("date", T::String, R::Time, "The publication date."),
    arg("date_utc", T::String, R::Time, "The publication date in UTC."),
    required(arg("title", T::String, R::NonEmpty, "The event title.")),
    arg("description", T::String, R::NonEmpty, "The event description (HTML allowed)."),
    arg("slug", T::String, R::NonEmpty, "The event slug."),
    arg("excerpt", T::String, R::NonEmpty, "The event excerpt."),
    arg("status", T::String, R::PostStatus, "The post status."),
    arg("timezone", T::String, R::TimezoneOrEmpty, "The event time zone: an IANA name (such as Europe/Paris) or UTC±N."),
    default(arg("all_day", T::Boolean, R::None, "Whether the event lasts all day."), Default::Bool(false)),
    required(arg("start_date", T::String, R::Time, "The start date and time.")),
    required(arg("end_date", T::String, R::Time, "The end date and time.")),
    arg("image", T::String, R::ImageOrEmpty, "The featured image: an image ID or an image URL; empty removes it."),
    loose(arg("cost", T::Untyped, R::None, "The cost: a text, a number or a list of them.")),
    default(loose(arg("website", T::Untyped, R::UrlOrEmpty, "The event website URL.")), Default::Null),
    arg("show_map", T::Boolean, R::None, "Whether to show a map."),
    arg("show_map_link", T::Boolean, R::None, "Whether to show a map link."),
    arg("hide_from_listings", T::Boolean, R::None, "Whether to hide the event from lists."),
    arg("sticky", T::Boolean, R::None, "Whether the event sticks to the top of the month view."),
    arg("featured", T::Boolean, R::None, "Whether the event is featured."),
    default(loose(arg("categories", INT_LIST, R::None, "Categories, as IDs or names (a list or comma-separated text); an unknown name creates the category, an unknown ID is ignored.")), Default::Null),
    default(loose(arg("tags", INT_LIST, R::None, "Tags, as IDs or names (a list or comma-separated text); an unknown name creates the tag, an unknown ID is ignored.")), Default::Null),
    default(loose(arg("venue", INT_LIST, R::VenueEntry, "The venue: its ID, an object with its id, or the fields of a new venue; empty unlinks it.")), Default::Null),
    default(loose(arg("organizer", INT_LIST, R::OrganizerEntry, "The organizers: IDs, objects with an id, or the fields of new organizers; an empty list unlinks them.")), Default::Null),
    feature(arg("password", T::String, R::StringOrEmpty, "A password that protects the event; empty removes it (reference server extension)."), "event-password"),
    feature(arg("post_parent", T::Integer, R::EventId, "The ID of the parent event, for a series (reference server)."), "series"),
    feature(arg("ticketed", T::Boolean, R::None, "Whether the event has tickets (reference server extension)."), "tickets"),
];

/// Write fields of a venue (§2.2), plus coordinates for the geolocation filters.
pub const VENUE_FIELDS: &[Arg] = &[
    arg("author", T::Integer, R::UserId, "The ID of the venue's author."),
    arg("date", T::String, R::Time, "The publication date."),
    arg("date_utc", T::String, R::Time, "The publication date in UTC."),
    required(arg("venue", T::String, R::NonEmpty, "The venue name.")),
    default(arg("description", T::String, R::StringOrEmpty, "The venue description."), Default::Null),
    arg("status", T::String, R::PostStatus, "The post status."),
    default(
        arg("show_map", T::String, R::None, "Whether events at the venue show a map (a string such as true or false)."),
        Default::Null,
    ),
    default(
        arg(
            "show_map_link",
            T::String,
            R::None,
            "Whether events at the venue show a map link (a string such as true or false).",
        ),
        Default::Null,
    ),
    default(arg("address", T::String, R::StringOrEmpty, "The street address."), Default::Null),
    default(arg("city", T::String, R::StringOrEmpty, "The city."), Default::Null),
    default(arg("country", T::String, R::StringOrEmpty, "The country."), Default::Null),
    default(arg("province", T::String, R::StringOrEmpty, "The province."), Default::Null),
    default(arg("state", T::String, R::StringOrEmpty, "The state."), Default::Null),
    default(arg("zip", T::String, R::StringOrEmpty, "The ZIP or postal code."), Default::Null),
    default(arg("phone", T::String, R::StringOrEmpty, "The phone number."), Default::Null),
    default(arg("stateprovince", T::String, R::StringOrEmpty, "The state or province."), Default::Null),
    default(arg("website", T::String, R::UrlOrEmpty, "The venue website URL."), Default::Null),
    default(
        arg("image", T::String, R::ImageOrEmpty, "The featured image: an image ID or an image URL; empty removes it."),
        Default::Null,
    ),
    feature(arg("geo_lat", T::Number, R::None, "Latitude of the venue (reference server extension)."), "geoloc"),
    feature(arg("geo_lng", T::Number, R::None, "Longitude of the venue (reference server extension)."), "geoloc"),
];

/// Write fields of an organizer (§2.3).
pub const ORGANIZER_FIELDS: &[Arg] = &[
    default(arg("author", T::Integer, R::UserId, "The ID of the organizer's author."), Default::Null),
    default(arg("date", T::String, R::Time, "The publication date."), Default::Null),
    default(arg("date_utc", T::String, R::Time, "The publication date in UTC."), Default::Null),
    required(default(arg("organizer", T::String, R::NonEmpty, "The organizer name."), Default::Null)),
    default(arg("description", T::String, R::StringOrEmpty, "The organizer description."), Default::Null),
    default(arg("status", T::String, R::PostStatus, "The post status."), Default::Null),
    default(arg("phone", T::String, R::StringOrEmpty, "The phone number."), Default::Null),
    default(arg("website", T::String, R::UrlOrEmpty, "The organizer website URL."), Default::Null),
    default(arg("email", T::String, R::StringOrEmpty, "The e-mail address."), Default::Null),
    default(
        arg("image", T::String, R::ImageOrEmpty, "The featured image: an image ID or an image URL; empty removes it."),
        Default::Null,
    ),
];

/// Write fields of a category (§2.4) or tag (§2.5).
pub fn term_fields(resource: Resource) -> Vec<Arg> {
    let mut fields = vec![
        required(arg("name", T::String, R::NonEmpty, "The term name.")),
        arg("description", T::String, R::NonEmpty, "The term description."),
        arg("slug", T::String, R::NonEmpty, "The term slug."),
    ];
    if resource == Resource::Categories {
        fields.push(arg("parent", T::Integer, R::TermList, "The parent category: its ID or slug."));
    }
    fields
}

/// The write fields of a post resource.
pub fn post_fields(resource: Resource) -> &'static [Arg] {
    match resource {
        Resource::Events => EVENT_FIELDS,
        Resource::Venues => VENUE_FIELDS,
        Resource::Organizers => ORGANIZER_FIELDS,
        _ => &[],
    }
}

/// The arguments of one operation, in the order they are validated and documented.
pub fn args(resource: Resource, target: Target, op: Op) -> Vec<Arg> {
    let single = |target: Target| match target {
        Target::BySlug => vec![required(arg("slug", T::String, R::None, "The slug of the item."))],
        _ => vec![required(arg("id", T::Integer, R::None, "The ID of the item."))],
    };
    let password = arg("password", T::String, R::NonEmpty, "The event password, for a password-protected event.");
    let context = arg(
        "context",
        T::String,
        R::None,
        "With edit, users who may edit a password-protected event see it without the password.",
    );
    match (resource, op) {
        (Resource::Index, _) => vec![
            default(
                arg("namespace", T::String, R::None, "The namespace to describe."),
                Default::Computed("the configured namespace"),
            ),
            default(
                arg("context", T::String, R::None, "The scope of the answer: view or help."),
                Default::Text("view"),
            ),
        ],
        (Resource::Doc, _) => Vec::new(),
        (Resource::Events, Op::List) => EVENT_LIST_ARGS.to_vec(),
        (Resource::Venues | Resource::Organizers, Op::List) => LINKED_LIST_ARGS.to_vec(),
        (Resource::Categories | Resource::Tags, Op::List) => term_list_args(resource),
        (Resource::Categories | Resource::Tags, Op::Create) => term_fields(resource),
        (Resource::Categories | Resource::Tags, Op::Update) => {
            let mut all = single(target);
            all.extend(term_fields(resource).into_iter().map(optional));
            all
        }
        (_, Op::Create) => post_fields(resource).to_vec(),
        (_, Op::Update) => {
            // By slug, the path's slug finds the item and a body `slug` renames it (Part A 32).
            let mut all = single(target);
            all.extend(post_fields(resource).iter().copied().map(optional));
            if target == Target::BySlug && !all.iter().any(|a| a.name == "slug" && !a.required) {
                all.push(arg("slug", T::String, R::NonEmpty, "A new slug for the item (renames it)."));
            }
            all
        }
        (Resource::Events, Op::Read) => {
            let mut all = single(target);
            all.extend([password, context]);
            all
        }
        (Resource::Events, Op::Delete) if target == Target::ById => {
            let mut all = single(target);
            all.push(password);
            all
        }
        (_, Op::Read | Op::Delete) => single(target),
        _ => Vec::new(),
    }
}

/// Update arguments are never required, and carry no default (updates are partial).
fn optional(mut a: Arg) -> Arg {
    a.required = false;
    a.default = None;
    a
}

/// The language codes the interface accepts.
pub const LANGUAGES: &[&str] = &["en", "fr", "de", "es"];

/// The post statuses the CMS registers (what `status` accepts).
pub const POST_STATUSES: &[&str] =
    &["publish", "future", "draft", "pending", "private", "trash", "auto-draft", "inherit"];

/// Finds the route and path variables for a path relative to the namespace (no trailing slash).
pub fn match_route(path: &str) -> Option<(&'static Route, Option<String>)> {
    let segments: Vec<&str> =
        if path.is_empty() { Vec::new() } else { path.trim_start_matches('/').split('/').collect() };
    for route in ROUTES {
        let pattern: Vec<&str> =
            if route.path.is_empty() { Vec::new() } else { route.path.trim_start_matches('/').split('/').collect() };
        if pattern.len() != segments.len() {
            continue;
        }
        let mut variable = None;
        let matched = pattern.iter().zip(&segments).all(|(want, got)| match *want {
            "<id>" => {
                let ok = !got.is_empty() && got.bytes().all(|b| b.is_ascii_digit());
                if ok {
                    variable = Some(got.to_string());
                }
                ok
            }
            "<slug>" => {
                let ok = !got.is_empty();
                if ok {
                    variable = Some(got.to_string());
                }
                ok
            }
            literal => literal.eq_ignore_ascii_case(got),
        });
        if matched {
            return Some((route, variable));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_routes_and_variables() {
        let (route, var) = match_route("/events/12").unwrap();
        assert_eq!((route.resource, route.target, var.as_deref()), (Resource::Events, Target::ById, Some("12")));
        let (route, var) = match_route("/Events/By-Slug/jazz").unwrap();
        assert_eq!((route.target, var.as_deref()), (Target::BySlug, Some("jazz")));
        assert_eq!(match_route("").unwrap().0.resource, Resource::Index);
        assert!(match_route("/events/abc").is_none());
        assert!(match_route("/events/-1").is_none());
        assert!(match_route("/categories/by-slug/x").is_none());
        assert!(match_route("/nope").is_none());
    }

    #[test]
    fn every_route_has_args_for_every_method() {
        for route in ROUTES {
            for (method, op) in route.methods {
                let args = route.args(*method);
                if matches!(op, Op::Read | Op::Update | Op::Delete) {
                    assert!(args.iter().any(|a| a.required && (a.name == "id" || a.name == "slug")), "{}", route.path);
                }
            }
        }
    }
}

/// One error the interface can answer: its code, HTTP status, usual message and when it
/// happens. Handlers build their errors from these entries (`ApiError::of`), so the catalog,
/// `/doc` and the answers cannot drift apart.
#[derive(Clone, Copy, Debug)]
pub struct ErrorKind {
    pub code: &'static str,
    pub status: u16,
    /// The message, as the plugin or the CMS words it (`{}` marks where a detail goes).
    pub message: &'static str,
    pub when: &'static str,
}

const fn error(code: &'static str, status: u16, message: &'static str, when: &'static str) -> ErrorKind {
    ErrorKind { code, status, message, when }
}

/// The errors one by one, for the code that answers them.
pub mod errors {
    use super::{error, ErrorKind};

    pub const NO_ROUTE: ErrorKind = error(
        "rest_no_route",
        404,
        "No route was found matching the URL and request method.",
        "no route matches the path and method",
    );
    pub const MISSING_PARAM: ErrorKind =
        error("rest_missing_callback_param", 400, "Missing parameter(s): {}", "a required argument is missing");
    pub const INVALID_PARAM: ErrorKind =
        error("rest_invalid_param", 400, "Invalid parameter(s): {}", "an argument fails its rule or type");
    pub const INVALID_JSON: ErrorKind =
        error("rest_invalid_json", 400, "Invalid JSON body passed.", "the JSON body does not parse");
    pub const FORBIDDEN: ErrorKind = error(
        "rest_forbidden",
        401,
        "Sorry, you are not allowed to do that.",
        "a write without credentials (403 when logged in without the right, or from an origin outside --cors-origin)",
    );
    pub const CANNOT_EDIT_OTHERS: ErrorKind = error(
        "rest_cannot_edit_others",
        403,
        "Sorry, you are not allowed to create posts as this user.",
        "setting another user as author without the right",
    );
    pub const INVALID_USERNAME: ErrorKind = error(
        "invalid_username",
        401,
        "<strong>Error:</strong> Unknown username. Check again or try your email address.",
        "Basic credentials name no user",
    );
    pub const INCORRECT_PASSWORD: ErrorKind = error(
        "incorrect_password",
        401,
        "The provided password is an invalid application password.",
        "Basic credentials with a wrong password",
    );
    pub const COOKIE_INVALID_NONCE: ErrorKind =
        error("rest_cookie_invalid_nonce", 403, "Cookie check failed", "an X-WP-Nonce header without a logged-in user");
    pub const INVALID_NAMESPACE: ErrorKind = error(
        "rest_invalid_namespace",
        404,
        "The specified namespace could not be found.",
        "the namespace index asked about another namespace",
    );
    pub const EVENT_NOT_FOUND: ErrorKind =
        error("rest-event-not-found", 404, "Event with ID {} does not exist.", "no post has the event ID");
    pub const INVALID_EVENT_ID: ErrorKind = error(
        "rest-invalid-event-id",
        400,
        "The specified ID is not a valid event.",
        "the ID is a post that is not an event",
    );
    pub const EVENT_NO_LONGER_AVAILABLE: ErrorKind =
        error("event-no-longer-available", 403, "This event is no longer available", "the event is in the trash");
    pub const EVENT_NOT_ACCESSIBLE: ErrorKind = error(
        "event-not-accessible",
        403,
        "The requested event is not accessible",
        "an unpublished event the user may not read",
    );
    pub const EVENT_PASSWORD_PROTECTED: ErrorKind = error(
        "event-password-protected",
        403,
        "The requested event is not accessible without a password",
        "a password-protected event read without its password",
    );
    pub const EVENT_IN_TRASH: ErrorKind =
        error("event-is-in-trash", 410, "The event is already trashed", "deleting an event already in the trash");
    pub const EVENT_PAGE_NOT_FOUND: ErrorKind = error(
        "event-archive-page-not-found",
        404,
        "The requested event archive page does not exist",
        "an events list page past the end",
    );
    pub const VENUE_NOT_ACCESSIBLE: ErrorKind = error(
        "venue-not-accessible",
        403,
        "The requested venue is not accessible",
        "an unpublished venue the user may not read",
    );
    pub const ORGANIZER_NOT_ACCESSIBLE: ErrorKind = error(
        "organizer-not-accessible",
        403,
        "The requested organizer is not accessible",
        "an unpublished organizer the user may not read",
    );
    pub const VENUE_IN_TRASH: ErrorKind =
        error("venue-is-in-trash", 410, "The venue is already trashed", "deleting a venue already in the trash");
    pub const ORGANIZER_IN_TRASH: ErrorKind = error(
        "organizer-is-in-trash",
        410,
        "The organizer is already trashed",
        "deleting an organizer already in the trash",
    );
    pub const VENUE_PAGE_NOT_FOUND: ErrorKind = error(
        "venue-archive-page-not-found",
        404,
        "The requested venue archive page does not exist",
        "a venues list page past the end",
    );
    pub const ORGANIZER_PAGE_NOT_FOUND: ErrorKind = error(
        "organizer-archive-page-not-found",
        404,
        "The requested organizer archive page does not exist",
        "an organizers list page past the end",
    );
    pub const COULD_NOT_CREATE_VENUE: ErrorKind = error(
        "could-not-create-venue",
        400,
        "The venue could not be created from the provided data",
        "inline venue data in an event passes its checks but cannot become a venue (another author without the right)",
    );
    pub const COULD_NOT_CREATE_ORGANIZER: ErrorKind = error(
        "could-not-create-organizer",
        400,
        "The organizer could not be created from the provided data",
        "inline organizer data in an event passes its checks but cannot become an organizer (another author without the right)",
    );
    pub const TICKETS_NOT_ACTIVE: ErrorKind = error(
        "event-tickets-not-active",
        400,
        "Event Tickets plugin is not activated.",
        "`ticketed=true` on a site without tickets (inside rest_invalid_param)",
    );
    pub const TERM_EXISTS: ErrorKind = error(
        "term_exists",
        400,
        "A term with the name provided already exists in this taxonomy.",
        "a term with that name already exists (under that parent)",
    );
    pub const NOT_HIERARCHICAL: ErrorKind = error(
        "rest_taxonomy_not_hierarchical",
        400,
        "Cannot set parent term, taxonomy is not hierarchical.",
        "a parent given for a tag",
    );
    pub const TOO_LARGE: ErrorKind =
        error("rest_request_too_large", 413, "The request body is too large.", "a body over 8 MiB");
    pub const BAD_REQUEST: ErrorKind = error(
        "rest_bad_request",
        400,
        "The request could not be read.",
        "the HTTP request itself cannot be read: malformed (400), its body not received within the body timeout (408), a URI over 64 KiB (414), a head over 96 KiB or more than 100 headers (431)",
    );
}

/// The error catalog (reference profile Part B §3, the CMS codes seen through the interface,
/// and the server's own transport error), limited to the errors this server can answer.
pub const ERRORS: &[ErrorKind] = &[
    errors::NO_ROUTE,
    errors::MISSING_PARAM,
    errors::INVALID_PARAM,
    errors::INVALID_JSON,
    errors::FORBIDDEN,
    errors::CANNOT_EDIT_OTHERS,
    errors::INVALID_USERNAME,
    errors::INCORRECT_PASSWORD,
    errors::COOKIE_INVALID_NONCE,
    errors::INVALID_NAMESPACE,
    errors::EVENT_NOT_FOUND,
    errors::INVALID_EVENT_ID,
    errors::EVENT_NO_LONGER_AVAILABLE,
    errors::EVENT_NOT_ACCESSIBLE,
    errors::EVENT_PASSWORD_PROTECTED,
    errors::EVENT_IN_TRASH,
    errors::EVENT_PAGE_NOT_FOUND,
    errors::VENUE_NOT_ACCESSIBLE,
    errors::ORGANIZER_NOT_ACCESSIBLE,
    errors::VENUE_IN_TRASH,
    errors::ORGANIZER_IN_TRASH,
    errors::VENUE_PAGE_NOT_FOUND,
    errors::ORGANIZER_PAGE_NOT_FOUND,
    errors::COULD_NOT_CREATE_VENUE,
    errors::COULD_NOT_CREATE_ORGANIZER,
    errors::TICKETS_NOT_ACTIVE,
    errors::TERM_EXISTS,
    errors::NOT_HIERARCHICAL,
    errors::TOO_LARGE,
    errors::BAD_REQUEST,
];
