//! The component schemas of `/doc`: what every response carries, field by field.
//!
//! They follow `views` (items) and the list handlers (envelopes) exactly. Objects are closed
//! (`additionalProperties: false`) and list what is always present as `required`, so a field
//! added to or dropped from a response without updating these files fails the response checks.
//!
//! # Layout
//! [`components`] lists them; `builder` makes typed fields and closed objects, and turns
//! tables of `(name, shape, description)` rows into properties; one file per family: `event`,
//! `linked` (venues, organizers), `terms`, `media`, `envelopes` (errors, lists, links),
//! `discovery` (the index, route descriptions, the document); `texts` holds the descriptions
//! several families share.

mod builder;
mod discovery;
mod envelopes;
mod event;
mod linked;
mod media;
mod terms;
mod texts;

use serde_json::{Map, Value};

use crate::model::Lang;
use builder::B;
use discovery::{arg_description, namespace_index, openapi_document, route_description};
use envelopes::{error, error_data, link, list};
use event::{cost_details, date_details, event, json_ld};
use linked::{organizer, venue};
use media::{image, image_size};
use terms::{event_term, term, term_urls};

/// Every component schema of the document, in one language.
pub fn components(lang: Lang) -> Map<String, Value> {
    let b = B { lang };
    let mut schemas = Map::new();
    let mut add = |name: &str, schema: Value| {
        schemas.insert(name.to_string(), schema);
    };
    add("Event", event(&b));
    add("Venue", venue(&b));
    add("Organizer", organizer(&b));
    add("Term", term(&b));
    add("EventTerm", event_term(&b));
    add("TermUrls", term_urls(&b));
    add("Image", image(&b));
    add("ImageSize", image_size(&b));
    add("DateDetails", date_details(&b));
    add("CostDetails", cost_details(&b));
    add("JsonLd", json_ld(&b));
    add("Error", error(&b));
    add("ErrorData", error_data(&b));
    for (name, key, item, term_list) in [
        ("EventList", "events", "Event", false),
        ("VenueList", "venues", "Venue", false),
        ("OrganizerList", "organizers", "Organizer", false),
        ("CategoryList", "categories", "Term", true),
        ("TagList", "tags", "Term", true),
    ] {
        add(name, list(&b, key, item, term_list));
    }
    add("NamespaceIndex", namespace_index(&b));
    add("RouteDescription", route_description(&b));
    add("ArgDescription", arg_description(&b));
    add("Link", link(&b));
    add("OpenApiDocument", openapi_document(&b));
    schemas
}
