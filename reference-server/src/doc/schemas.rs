//! The component schemas of `/doc`: what every response carries, field by field.
//!
//! They follow `views` (items) and the list handlers (envelopes) exactly. Objects are closed
//! (`additionalProperties: false`) and list what is always present as `required`, so a field
//! added to or dropped from a response without updating this file fails the response checks.

use serde_json::{json, Map, Value};

use super::i18n::{t, Text};
use crate::interface::POST_STATUSES;
use crate::model::Lang;

/// `YYYY-MM-DD HH:MM:SS`, as the CMS writes dates.
const DATE_PATTERN: &str = "^[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2}$";

/// Builds schemas with descriptions in one language.
struct B {
    lang: Lang,
}

impl B {
    fn with(&self, mut schema: Value, text: Text) -> Value {
        schema["description"] = json!(text.get(self.lang));
        schema
    }

    fn string(&self, text: Text) -> Value {
        self.with(json!({"type": "string"}), text)
    }

    fn date(&self, text: Text) -> Value {
        self.with(json!({"type": "string", "pattern": DATE_PATTERN}), text)
    }

    fn integer(&self, text: Text) -> Value {
        self.with(json!({"type": "integer"}), text)
    }

    fn boolean(&self, text: Text) -> Value {
        self.with(json!({"type": "boolean"}), text)
    }

    /// A flag a password can hide (then `null`).
    fn flag(&self, text: Text) -> Value {
        self.with(json!({"type": "boolean", "nullable": true}), text)
    }

    fn reference(&self, name: &str, text: Text) -> Value {
        self.with(json!({"allOf": [{"$ref": format!("#/components/schemas/{name}")}]}), text)
    }

    fn list_of(&self, name: &str, text: Text) -> Value {
        self.with(json!({"type": "array", "items": {"$ref": format!("#/components/schemas/{name}")}}), text)
    }
}

/// A closed object.
fn object(properties: Vec<(&str, Value)>, required: &[&str]) -> Value {
    let properties: Map<String, Value> = properties.into_iter().map(|(key, value)| (key.to_string(), value)).collect();
    let mut schema = json!({"type": "object", "properties": properties, "additionalProperties": false});
    if !required.is_empty() {
        schema["required"] = json!(required);
    }
    schema
}

/// `[]`: what the CMS writes for an empty PHP array where an object would otherwise be.
fn empty_list() -> Value {
    json!({"type": "array", "maxItems": 0, "items": {}})
}

// ----- texts shared by events, venues and organizers -----

const POST_ID: Text = t("The post ID.", "L'ID de la publication.", "Die ID des Beitrags.", "El ID de la entrada.");
const AUTHOR: Text = t(
    "The ID of the author, as a string.",
    "L'ID de l'auteur, sous forme de chaîne.",
    "Die ID des Autors, als Zeichenkette.",
    "El ID del autor, como cadena.",
);
const AUTHOR_LINKED: Text = t(
    "The ID of the author, as a string; absent when 0.",
    "L'ID de l'auteur, sous forme de chaîne ; absent s'il vaut 0.",
    "Die ID des Autors, als Zeichenkette; fehlt, wenn sie 0 ist.",
    "El ID del autor, como cadena; ausente si es 0.",
);
const STATUS: Text =
    t("The post status.", "Le statut de publication.", "Der Beitragsstatus.", "El estado de publicación.");
const DATE: Text = t(
    "The publication date, in the site's time zone.",
    "La date de publication, dans le fuseau horaire du site.",
    "Das Veröffentlichungsdatum, in der Zeitzone der Website.",
    "La fecha de publicación, en la zona horaria del sitio.",
);
const DATE_UTC: Text = t(
    "The publication date in UTC; 0000-00-00 00:00:00 if the item was never published.",
    "La date de publication en UTC ; 0000-00-00 00:00:00 si l'élément n'a jamais été publié.",
    "Das Veröffentlichungsdatum in UTC; 0000-00-00 00:00:00, wenn der Eintrag nie veröffentlicht wurde.",
    "La fecha de publicación en UTC; 0000-00-00 00:00:00 si el elemento nunca se publicó.",
);
const MODIFIED: Text = t(
    "The date of the last change, in the site's time zone.",
    "La date de la dernière modification, dans le fuseau horaire du site.",
    "Das Datum der letzten Änderung, in der Zeitzone der Website.",
    "La fecha del último cambio, en la zona horaria del sitio.",
);
const MODIFIED_UTC: Text = t(
    "The date of the last change, in UTC.",
    "La date de la dernière modification, en UTC.",
    "Das Datum der letzten Änderung, in UTC.",
    "La fecha del último cambio, en UTC.",
);
const URL: Text = t(
    "The address of the item's public page.",
    "L'adresse de la page publique de l'élément.",
    "Die Adresse der öffentlichen Seite des Eintrags.",
    "La dirección de la página pública del elemento.",
);
const DESCRIPTION: Text = t(
    "The description, as HTML.",
    "La description, en HTML.",
    "Die Beschreibung, als HTML.",
    "La descripción, en HTML.",
);
const EXCERPT: Text =
    t("The excerpt, as HTML.", "L'extrait, en HTML.", "Der Textauszug, als HTML.", "El extracto, en HTML.");
const SLUG: Text = t(
    "The slug: the item's name in addresses.",
    "Le slug : le nom de l'élément dans les adresses.",
    "Der Slug: der Name des Eintrags in Adressen.",
    "El slug: el nombre del elemento en las direcciones.",
);
const GLOBAL_ID: Text = t(
    "An identifier unique across sites: the site's host and path, then ?id= and the post ID.",
    "Un identifiant unique d'un site à l'autre : l'hôte et le chemin du site, puis ?id= et l'ID de la publication.",
    "Eine websiteübergreifend eindeutige Kennung: Host und Pfad der Website, dann ?id= und die ID des Beitrags.",
    "Un identificador único entre sitios: el host y la ruta del sitio, seguidos de ?id= y el ID de la entrada.",
);
const GLOBAL_ID_LINEAGE: Text = t(
    "The global IDs the item comes from, its own first.",
    "Les identifiants globaux dont l'élément est issu, le sien en premier.",
    "Die globalen Kennungen, von denen der Eintrag abstammt, die eigene zuerst.",
    "Los identificadores globales de los que procede el elemento, el suyo primero.",
);
const JSON_LD: Text = t(
    "Structured data about the item (schema.org); only when one item is read.",
    "Données structurées sur l'élément (schema.org) ; uniquement à la lecture d'un seul élément.",
    "Strukturierte Daten zum Eintrag (schema.org); nur beim Lesen eines einzelnen Eintrags.",
    "Datos estructurados sobre el elemento (schema.org); solo al leer un único elemento.",
);
const IMAGE_OPTIONAL: Text = t(
    "The featured image; absent when there is none.",
    "L'image mise en avant ; absente s'il n'y en a pas.",
    "Das Beitragsbild; fehlt, wenn es keines gibt.",
    "La imagen destacada; ausente si no la hay.",
);
const PHONE: Text = t(
    "The phone number; absent when empty.",
    "Le numéro de téléphone ; absent s'il est vide.",
    "Die Telefonnummer; fehlt, wenn sie leer ist.",
    "El número de teléfono; ausente si está vacío.",
);
const WEBSITE_LINKED: Text = t(
    "The website URL; absent when empty.",
    "L'URL du site web ; absente si elle est vide.",
    "Die URL der Website; fehlt, wenn sie leer ist.",
    "La URL del sitio web; ausente si está vacía.",
);
const WIDTH: Text = t("The width in pixels.", "La largeur en pixels.", "Die Breite in Pixeln.", "El ancho en píxeles.");
const HEIGHT: Text = t("The height in pixels.", "La hauteur en pixels.", "Die Höhe in Pixeln.", "El alto en píxeles.");
const FILESIZE: Text = t(
    "The file size in bytes; only when known.",
    "La taille du fichier en octets ; uniquement si elle est connue.",
    "Die Dateigröße in Bytes; nur, wenn sie bekannt ist.",
    "El tamaño del archivo en bytes; solo si se conoce.",
);
const LINK_HREF: Text = t("The address.", "L'adresse.", "Die Adresse.", "La dirección.");

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

fn event(b: &B) -> Value {
    let details = |text: Text| b.reference("DateDetails", text);
    let properties = vec![
        ("id", b.integer(POST_ID)),
        ("global_id", b.string(GLOBAL_ID)),
        ("global_id_lineage", b.with(json!({"type": "array", "items": {"type": "string"}}), GLOBAL_ID_LINEAGE)),
        ("author", b.with(json!({"type": "string", "pattern": "^[0-9]+$"}), AUTHOR)),
        ("status", b.with(json!({"type": "string", "enum": POST_STATUSES}), STATUS)),
        ("date", b.date(DATE)),
        ("date_utc", b.date(DATE_UTC)),
        ("modified", b.date(MODIFIED)),
        ("modified_utc", b.date(MODIFIED_UTC)),
        ("url", b.with(json!({"type": "string", "format": "uri"}), URL)),
        (
            "rest_url",
            b.with(
                json!({"type": "string", "format": "uri"}),
                t(
                    "The address of this event in this interface.",
                    "L'adresse de cet événement dans cette interface.",
                    "Die Adresse dieser Veranstaltung in dieser Schnittstelle.",
                    "La dirección de este evento en esta interfaz.",
                ),
            ),
        ),
        ("title", b.string(t("The event title.", "Le titre de l'événement.", "Der Titel der Veranstaltung.", "El título del evento."))),
        ("description", b.string(DESCRIPTION)),
        ("excerpt", b.string(EXCERPT)),
        ("slug", b.string(SLUG)),
        (
            "image",
            b.with(
                json!({"oneOf": [{"$ref": "#/components/schemas/Image"}, {"type": "boolean", "enum": [false]}]}),
                t(
                    "The featured image, or false when there is none.",
                    "L'image mise en avant, ou false s'il n'y en a pas.",
                    "Das Beitragsbild oder false, wenn es keines gibt.",
                    "La imagen destacada, o false si no la hay.",
                ),
            ),
        ),
        (
            "all_day",
            b.flag(t(
                "Whether the event lasts all day; null when a password hides it.",
                "Indique si l'événement dure toute la journée ; null si un mot de passe le masque.",
                "Ob die Veranstaltung den ganzen Tag dauert; null, wenn ein Passwort es verbirgt.",
                "Indica si el evento dura todo el día; null si una contraseña lo oculta.",
            )),
        ),
        (
            "start_date",
            b.date(t(
                "The start, in the event's time zone.",
                "Le début, dans le fuseau horaire de l'événement.",
                "Der Beginn, in der Zeitzone der Veranstaltung.",
                "El inicio, en la zona horaria del evento.",
            )),
        ),
        (
            "start_date_details",
            details(t(
                "The start, split into its parts.",
                "Le début, décomposé en ses parties.",
                "Der Beginn, in seine Bestandteile zerlegt.",
                "El inicio, desglosado en sus partes.",
            )),
        ),
        (
            "end_date",
            b.date(t(
                "The end, in the event's time zone.",
                "La fin, dans le fuseau horaire de l'événement.",
                "Das Ende, in der Zeitzone der Veranstaltung.",
                "El final, en la zona horaria del evento.",
            )),
        ),
        (
            "end_date_details",
            details(t(
                "The end, split into its parts.",
                "La fin, décomposée en ses parties.",
                "Das Ende, in seine Bestandteile zerlegt.",
                "El final, desglosado en sus partes.",
            )),
        ),
        ("utc_start_date", b.date(t("The start, in UTC.", "Le début, en UTC.", "Der Beginn, in UTC.", "El inicio, en UTC."))),
        (
            "utc_start_date_details",
            details(t(
                "The start in UTC, split into its parts.",
                "Le début en UTC, décomposé en ses parties.",
                "Der Beginn in UTC, in seine Bestandteile zerlegt.",
                "El inicio en UTC, desglosado en sus partes.",
            )),
        ),
        ("utc_end_date", b.date(t("The end, in UTC.", "La fin, en UTC.", "Das Ende, in UTC.", "El final, en UTC."))),
        (
            "utc_end_date_details",
            details(t(
                "The end in UTC, split into its parts.",
                "La fin en UTC, décomposée en ses parties.",
                "Das Ende in UTC, in seine Bestandteile zerlegt.",
                "El final en UTC, desglosado en sus partes.",
            )),
        ),
        (
            "timezone",
            b.string(t(
                "The event's time zone.",
                "Le fuseau horaire de l'événement.",
                "Die Zeitzone der Veranstaltung.",
                "La zona horaria del evento.",
            )),
        ),
        (
            "timezone_abbr",
            b.string(t(
                "The abbreviation of the time zone at the start, such as CET.",
                "L'abréviation du fuseau horaire au début, comme CET.",
                "Die Abkürzung der Zeitzone zu Beginn, etwa CET.",
                "La abreviatura de la zona horaria al inicio, como CET.",
            )),
        ),
        (
            "cost",
            b.string(t(
                "The cost as visitors see it, such as $10 – $20 or Free; empty when there is none.",
                "Le coût tel que le voient les visiteurs, comme 10 $ – 20 $ ou Free ; vide s'il n'y en a pas.",
                "Der Preis, wie Besucher ihn sehen, etwa $10 – $20 oder Free; leer, wenn es keinen gibt.",
                "El precio tal como lo ven los visitantes, como $10 – $20 o Free; vacío si no lo hay.",
            )),
        ),
        (
            "cost_details",
            b.reference(
                "CostDetails",
                t(
                    "The cost, split into currency and values.",
                    "Le coût, décomposé en devise et en valeurs.",
                    "Der Preis, aufgeteilt in Währung und Werte.",
                    "El precio, desglosado en moneda y valores.",
                ),
            ),
        ),
        (
            "website",
            b.string(t(
                "The event website; the address of the event page when none was given.",
                "Le site web de l'événement ; l'adresse de la page de l'événement si aucun n'a été indiqué.",
                "Die Website der Veranstaltung; die Adresse der Veranstaltungsseite, wenn keine angegeben wurde.",
                "El sitio web del evento; la dirección de la página del evento si no se indicó ninguno.",
            )),
        ),
        (
            "show_map",
            b.flag(t(
                "Whether the event shows a map; null when a password hides it.",
                "Indique si l'événement affiche une carte ; null si un mot de passe le masque.",
                "Ob die Veranstaltung eine Karte zeigt; null, wenn ein Passwort es verbirgt.",
                "Indica si el evento muestra un mapa; null si una contraseña lo oculta.",
            )),
        ),
        (
            "show_map_link",
            b.flag(t(
                "Whether the event shows a map link; null when a password hides it.",
                "Indique si l'événement affiche un lien vers une carte ; null si un mot de passe le masque.",
                "Ob die Veranstaltung einen Link zu einer Karte zeigt; null, wenn ein Passwort es verbirgt.",
                "Indica si el evento muestra un enlace a un mapa; null si una contraseña lo oculta.",
            )),
        ),
        (
            "hide_from_listings",
            b.flag(t(
                "Whether the event is left out of lists; null when a password hides it.",
                "Indique si l'événement est exclu des listes ; null si un mot de passe le masque.",
                "Ob die Veranstaltung in Listen fehlt; null, wenn ein Passwort es verbirgt.",
                "Indica si el evento queda fuera de las listas; null si una contraseña lo oculta.",
            )),
        ),
        (
            "sticky",
            b.flag(t(
                "Whether the event sticks to the top of the month view; null when a password hides it.",
                "Indique si l'événement reste épinglé en haut de la vue mensuelle ; null si un mot de passe le masque.",
                "Ob die Veranstaltung oben in der Monatsansicht angeheftet bleibt; null, wenn ein Passwort es verbirgt.",
                "Indica si el evento queda fijado arriba en la vista mensual; null si una contraseña lo oculta.",
            )),
        ),
        (
            "featured",
            b.flag(t(
                "Whether the event is featured; null when a password hides it.",
                "Indique si l'événement est mis en avant ; null si un mot de passe le masque.",
                "Ob die Veranstaltung hervorgehoben ist; null, wenn ein Passwort es verbirgt.",
                "Indica si el evento está destacado; null si una contraseña lo oculta.",
            )),
        ),
        (
            "categories",
            b.list_of(
                "EventTerm",
                t("The event's categories.", "Les catégories de l'événement.", "Die Kategorien der Veranstaltung.", "Las categorías del evento."),
            ),
        ),
        (
            "tags",
            b.list_of(
                "EventTerm",
                t("The event's tags.", "Les étiquettes de l'événement.", "Die Schlagwörter der Veranstaltung.", "Las etiquetas del evento."),
            ),
        ),
        (
            "venue",
            b.with(
                json!({"oneOf": [{"$ref": "#/components/schemas/Venue"}, empty_list()]}),
                t(
                    "The event's venue, or an empty list when it has none.",
                    "Le lieu de l'événement, ou une liste vide s'il n'en a pas.",
                    "Der Veranstaltungsort oder eine leere Liste, wenn es keinen gibt.",
                    "El lugar del evento, o una lista vacía si no tiene.",
                ),
            ),
        ),
        (
            "organizer",
            b.list_of(
                "Organizer",
                t(
                    "The event's organizers (those in the trash left out).",
                    "Les organisateurs de l'événement (sauf ceux qui sont à la corbeille).",
                    "Die Veranstalter der Veranstaltung (ohne die im Papierkorb).",
                    "Los organizadores del evento (sin los que están en la papelera).",
                ),
            ),
        ),
        (
            "custom_fields",
            b.with(
                json!({"oneOf": [
                    {"type": "object", "minProperties": 1, "additionalProperties": {
                        "type": "object",
                        "properties": {"label": {"type": "string"}, "value": {"type": "string"}}
                    }},
                    empty_list()
                ]}),
                t(
                    "Additional fields that have a value, by name; an empty list when there are none.",
                    "Les champs supplémentaires qui ont une valeur, par nom ; une liste vide s'il n'y en a pas.",
                    "Die Zusatzfelder mit einem Wert, nach Namen; eine leere Liste, wenn es keine gibt.",
                    "Los campos adicionales que tienen un valor, por nombre; una lista vacía si no hay ninguno.",
                ),
            ),
        ),
        ("json_ld", b.reference("JsonLd", JSON_LD)),
    ];
    let required: Vec<&str> = properties.iter().map(|(key, _)| *key).filter(|key| *key != "json_ld").collect();
    object(properties, &required)
}

/// What venues and organizers share.
fn linked_head(b: &B, name_key: &'static str, name: Text) -> Vec<(&'static str, Value)> {
    vec![
        ("id", b.integer(POST_ID)),
        ("author", b.with(json!({"type": "string", "pattern": "^[0-9]+$"}), AUTHOR_LINKED)),
        ("status", b.with(json!({"type": "string", "enum": POST_STATUSES}), STATUS)),
        ("date", b.date(DATE)),
        ("date_utc", b.date(DATE_UTC)),
        ("modified", b.date(MODIFIED)),
        ("modified_utc", b.date(MODIFIED_UTC)),
        ("url", b.with(json!({"type": "string", "format": "uri"}), URL)),
        (name_key, b.string(name)),
        (
            "description",
            b.string(t(
                "The description, as HTML; absent when empty.",
                "La description, en HTML ; absente si elle est vide.",
                "Die Beschreibung, als HTML; fehlt, wenn sie leer ist.",
                "La descripción, en HTML; ausente si está vacía.",
            )),
        ),
        (
            "excerpt",
            b.string(t(
                "The excerpt, as HTML; absent when empty.",
                "L'extrait, en HTML ; absent s'il est vide.",
                "Der Textauszug, als HTML; fehlt, wenn er leer ist.",
                "El extracto, en HTML; ausente si está vacío.",
            )),
        ),
        (
            "slug",
            b.string(t(
                "The slug: the item's name in addresses; absent when empty.",
                "Le slug : le nom de l'élément dans les adresses ; absent s'il est vide.",
                "Der Slug: der Name des Eintrags in Adressen; fehlt, wenn er leer ist.",
                "El slug: el nombre del elemento en las direcciones; ausente si está vacío.",
            )),
        ),
        ("image", b.reference("Image", IMAGE_OPTIONAL)),
    ]
}

fn venue(b: &B) -> Value {
    let absent = |en, fr, de, es| b.string(t(en, fr, de, es));
    let mut properties = linked_head(
        b,
        "venue",
        t(
            "The venue name; absent when empty.",
            "Le nom du lieu ; absent s'il est vide.",
            "Der Name des Veranstaltungsorts; fehlt, wenn er leer ist.",
            "El nombre del lugar; ausente si está vacío.",
        ),
    );
    properties.extend([
        (
            "address",
            absent(
                "The street address; absent when empty.",
                "L'adresse (rue et numéro) ; absente si elle est vide.",
                "Die Straßenadresse; fehlt, wenn sie leer ist.",
                "La dirección (calle y número); ausente si está vacía.",
            ),
        ),
        (
            "city",
            absent(
                "The city; absent when empty.",
                "La ville ; absente si elle est vide.",
                "Die Stadt; fehlt, wenn sie leer ist.",
                "La ciudad; ausente si está vacía.",
            ),
        ),
        (
            "country",
            absent(
                "The country; absent when empty.",
                "Le pays ; absent s'il est vide.",
                "Das Land; fehlt, wenn es leer ist.",
                "El país; ausente si está vacío.",
            ),
        ),
        (
            "province",
            absent(
                "The province; absent when empty.",
                "La province ; absente si elle est vide.",
                "Die Provinz; fehlt, wenn sie leer ist.",
                "La provincia; ausente si está vacía.",
            ),
        ),
        (
            "state",
            absent(
                "The state; absent when empty.",
                "L'État ; absent s'il est vide.",
                "Der Bundesstaat; fehlt, wenn er leer ist.",
                "El estado; ausente si está vacío.",
            ),
        ),
        (
            "zip",
            absent(
                "The ZIP or postal code; absent when empty.",
                "Le code postal ; absent s'il est vide.",
                "Die Postleitzahl; fehlt, wenn sie leer ist.",
                "El código postal; ausente si está vacío.",
            ),
        ),
        ("phone", b.string(PHONE)),
        ("website", b.string(WEBSITE_LINKED)),
        (
            "stateprovince",
            absent(
                "The state or province; absent when empty.",
                "L'État ou la province ; absent s'il est vide.",
                "Der Bundesstaat oder die Provinz; fehlt, wenn leer.",
                "El estado o la provincia; ausente si está vacío.",
            ),
        ),
        (
            "geo_lat",
            b.with(
                json!({"type": "number"}),
                t(
                    "The latitude; only when the venue has coordinates.",
                    "La latitude ; uniquement si le lieu a des coordonnées.",
                    "Der Breitengrad; nur, wenn der Ort Koordinaten hat.",
                    "La latitud; solo si el lugar tiene coordenadas.",
                ),
            ),
        ),
        (
            "geo_lng",
            b.with(
                json!({"type": "number"}),
                t(
                    "The longitude; only when the venue has coordinates.",
                    "La longitude ; uniquement si le lieu a des coordonnées.",
                    "Der Längengrad; nur, wenn der Ort Koordinaten hat.",
                    "La longitud; solo si el lugar tiene coordenadas.",
                ),
            ),
        ),
        ("json_ld", b.reference("JsonLd", JSON_LD)),
        (
            "show_map",
            b.boolean(t(
                "Whether events at the venue show a map.",
                "Indique si les événements de ce lieu affichent une carte.",
                "Ob Veranstaltungen an diesem Ort eine Karte zeigen.",
                "Indica si los eventos de este lugar muestran un mapa.",
            )),
        ),
        (
            "show_map_link",
            b.boolean(t(
                "Whether events at the venue show a map link.",
                "Indique si les événements de ce lieu affichent un lien vers une carte.",
                "Ob Veranstaltungen an diesem Ort einen Link zu einer Karte zeigen.",
                "Indica si los eventos de este lugar muestran un enlace a un mapa.",
            )),
        ),
        ("global_id", b.string(GLOBAL_ID)),
        ("global_id_lineage", b.with(json!({"type": "array", "items": {"type": "string"}}), GLOBAL_ID_LINEAGE)),
    ]);
    object(
        properties,
        &[
            "id",
            "status",
            "date",
            "date_utc",
            "modified",
            "modified_utc",
            "url",
            "show_map",
            "show_map_link",
            "global_id",
            "global_id_lineage",
        ],
    )
}

fn organizer(b: &B) -> Value {
    let mut properties = linked_head(
        b,
        "organizer",
        t(
            "The organizer name; absent when empty.",
            "Le nom de l'organisateur ; absent s'il est vide.",
            "Der Name des Veranstalters; fehlt, wenn er leer ist.",
            "El nombre del organizador; ausente si está vacío.",
        ),
    );
    properties.extend([
        ("phone", b.string(PHONE)),
        ("website", b.string(WEBSITE_LINKED)),
        (
            "email",
            b.string(t(
                "The e-mail address; absent when empty.",
                "L'adresse e-mail ; absente si elle est vide.",
                "Die E-Mail-Adresse; fehlt, wenn sie leer ist.",
                "La dirección de correo electrónico; ausente si está vacía.",
            )),
        ),
        ("json_ld", b.reference("JsonLd", JSON_LD)),
        ("global_id", b.string(GLOBAL_ID)),
        ("global_id_lineage", b.with(json!({"type": "array", "items": {"type": "string"}}), GLOBAL_ID_LINEAGE)),
    ]);
    object(
        properties,
        &["id", "status", "date", "date_utc", "modified", "modified_utc", "url", "global_id", "global_id_lineage"],
    )
}

const TERM_ID: Text = t("The term ID.", "L'ID du terme.", "Die ID des Begriffs.", "El ID del término.");
const TERM_NAME: Text = t("The term name.", "Le nom du terme.", "Der Name des Begriffs.", "El nombre del término.");
const TERM_SLUG: Text = t("The term slug.", "Le slug du terme.", "Der Slug des Begriffs.", "El slug del término.");
const TERM_DESCRIPTION: Text = t(
    "The term description.",
    "La description du terme.",
    "Die Beschreibung des Begriffs.",
    "La descripción del término.",
);
const TERM_COUNT: Text = t(
    "The number of published events that have the term.",
    "Le nombre d'événements publiés qui portent ce terme.",
    "Die Anzahl der veröffentlichten Veranstaltungen mit diesem Begriff.",
    "El número de eventos publicados que tienen este término.",
);
const TERM_TAXONOMY: Text = t(
    "The taxonomy: tribe_events_cat for categories, post_tag for tags.",
    "La taxonomie : tribe_events_cat pour les catégories, post_tag pour les étiquettes.",
    "Die Taxonomie: tribe_events_cat für Kategorien, post_tag für Schlagwörter.",
    "La taxonomía: tribe_events_cat para las categorías, post_tag para las etiquetas.",
);
const TERM_URLS: Text = t(
    "The term's addresses in this interface.",
    "Les adresses du terme dans cette interface.",
    "Die Adressen des Begriffs in dieser Schnittstelle.",
    "Las direcciones del término en esta interfaz.",
);

fn taxonomy(b: &B) -> Value {
    b.with(json!({"type": "string", "enum": ["tribe_events_cat", "post_tag"]}), TERM_TAXONOMY)
}

fn term(b: &B) -> Value {
    object(
        vec![
            ("id", b.integer(TERM_ID)),
            ("count", b.integer(TERM_COUNT)),
            ("description", b.string(TERM_DESCRIPTION)),
            ("name", b.string(TERM_NAME)),
            ("slug", b.string(TERM_SLUG)),
            ("taxonomy", taxonomy(b)),
            (
                "parent",
                b.integer(t(
                    "The parent category's ID, 0 for none; categories only.",
                    "L'ID de la catégorie parente, 0 s'il n'y en a pas ; catégories uniquement.",
                    "Die ID der übergeordneten Kategorie, 0 für keine; nur bei Kategorien.",
                    "El ID de la categoría padre, 0 si no hay; solo en las categorías.",
                )),
            ),
            (
                "meta",
                b.with(
                    empty_list(),
                    t("Always an empty list.", "Toujours une liste vide.", "Immer eine leere Liste.", "Siempre una lista vacía."),
                ),
            ),
            (
                "url",
                b.with(
                    json!({"type": "string", "format": "uri"}),
                    t(
                        "The public archive page of the term.",
                        "La page d'archive publique du terme.",
                        "Die öffentliche Archivseite des Begriffs.",
                        "La página de archivo pública del término.",
                    ),
                ),
            ),
            ("urls", b.reference("TermUrls", TERM_URLS)),
            (
                "_links",
                b.with(
                    json!({"type": "object", "additionalProperties": {"type": "array", "items": {"type": "object"}}}),
                    t(
                        "Links to the term in the CMS's core interface, by relation; not in delete responses.",
                        "Les liens vers le terme dans l'interface principale du CMS, par relation ; absents des réponses de suppression.",
                        "Links zum Begriff in der Kernschnittstelle des CMS, nach Beziehung; nicht in Antworten auf Löschungen.",
                        "Los enlaces al término en la interfaz principal del CMS, por relación; no aparecen en las respuestas de borrado.",
                    ),
                ),
            ),
        ],
        &["id", "count", "description", "name", "slug", "taxonomy", "meta", "url", "urls"],
    )
}

fn event_term(b: &B) -> Value {
    let properties = vec![
        ("name", b.string(TERM_NAME)),
        ("slug", b.string(TERM_SLUG)),
        (
            "term_group",
            b.integer(t(
                "The term group (always 0).",
                "Le groupe du terme (toujours 0).",
                "Die Begriffsgruppe (immer 0).",
                "El grupo del término (siempre 0).",
            )),
        ),
        (
            "term_taxonomy_id",
            b.integer(t(
                "The ID of the term in its taxonomy (the same as id).",
                "L'ID du terme dans sa taxonomie (le même que id).",
                "Die ID des Begriffs in seiner Taxonomie (dieselbe wie id).",
                "El ID del término en su taxonomía (el mismo que id).",
            )),
        ),
        ("taxonomy", taxonomy(b)),
        ("description", b.string(TERM_DESCRIPTION)),
        (
            "parent",
            b.integer(t(
                "The parent term's ID; 0 for none.",
                "L'ID du terme parent ; 0 s'il n'y en a pas.",
                "Die ID des übergeordneten Begriffs; 0 für keinen.",
                "El ID del término padre; 0 si no hay.",
            )),
        ),
        ("count", b.integer(TERM_COUNT)),
        (
            "filter",
            b.with(
                json!({"type": "string", "enum": ["raw"]}),
                t("Always raw.", "Toujours raw.", "Immer raw.", "Siempre raw."),
            ),
        ),
        ("id", b.integer(TERM_ID)),
        ("urls", b.reference("TermUrls", TERM_URLS)),
    ];
    let required: Vec<&str> = properties.iter().map(|(key, _)| *key).collect();
    object(properties, &required)
}

fn term_urls(b: &B) -> Value {
    let uri = |text: Text| b.with(json!({"type": "string", "format": "uri"}), text);
    object(
        vec![
            (
                "self",
                uri(t(
                    "The term's own address.",
                    "L'adresse du terme.",
                    "Die Adresse des Begriffs.",
                    "La dirección del término.",
                )),
            ),
            (
                "collection",
                uri(t(
                    "The address of the list of terms.",
                    "L'adresse de la liste des termes.",
                    "Die Adresse der Begriffsliste.",
                    "La dirección de la lista de términos.",
                )),
            ),
            (
                "up",
                uri(t(
                    "The parent's address; only when there is a parent.",
                    "L'adresse du parent ; uniquement s'il y en a un.",
                    "Die Adresse des übergeordneten Begriffs; nur, wenn es einen gibt.",
                    "La dirección del padre; solo si lo hay.",
                )),
            ),
        ],
        &["self", "collection"],
    )
}

fn image(b: &B) -> Value {
    object(
        vec![
            (
                "url",
                b.with(
                    json!({"type": "string", "format": "uri"}),
                    t(
                        "The address of the full-size image.",
                        "L'adresse de l'image en taille réelle.",
                        "Die Adresse des Bildes in voller Größe.",
                        "La dirección de la imagen a tamaño completo.",
                    ),
                ),
            ),
            ("id", b.integer(t("The image ID.", "L'ID de l'image.", "Die ID des Bildes.", "El ID de la imagen."))),
            (
                "extension",
                b.string(t(
                    "The file extension.",
                    "L'extension du fichier.",
                    "Die Dateiendung.",
                    "La extensión del archivo.",
                )),
            ),
            ("width", b.integer(WIDTH)),
            ("height", b.integer(HEIGHT)),
            ("filesize", b.integer(FILESIZE)),
            (
                "sizes",
                b.with(
                    json!({"type": "object", "additionalProperties": {"$ref": "#/components/schemas/ImageSize"}}),
                    t(
                        "The other sizes of the image, by size name.",
                        "Les autres tailles de l'image, par nom de taille.",
                        "Die weiteren Größen des Bildes, nach Größenname.",
                        "Los demás tamaños de la imagen, por nombre de tamaño.",
                    ),
                ),
            ),
        ],
        &["url", "id", "extension"],
    )
}

fn image_size(b: &B) -> Value {
    let properties = vec![
        ("width", b.integer(WIDTH)),
        ("height", b.integer(HEIGHT)),
        ("mime-type", b.string(t("The MIME type.", "Le type MIME.", "Der MIME-Typ.", "El tipo MIME."))),
        ("filesize", b.integer(FILESIZE)),
        (
            "url",
            b.with(
                json!({"type": "string", "format": "uri"}),
                t(
                    "The address of the image in this size.",
                    "L'adresse de l'image dans cette taille.",
                    "Die Adresse des Bildes in dieser Größe.",
                    "La dirección de la imagen en este tamaño.",
                ),
            ),
        ),
    ];
    object(properties, &["width", "height", "mime-type", "url"])
}

fn date_details(b: &B) -> Value {
    let part =
        |digits: u8, text: Text| b.with(json!({"type": "string", "pattern": format!("^[0-9]{{{digits}}}$")}), text);
    let properties = vec![
        (
            "year",
            part(
                4,
                t(
                    "The year, in four digits.",
                    "L'année, sur quatre chiffres.",
                    "Das Jahr, vierstellig.",
                    "El año, con cuatro dígitos.",
                ),
            ),
        ),
        (
            "month",
            part(
                2,
                t(
                    "The month, in two digits.",
                    "Le mois, sur deux chiffres.",
                    "Der Monat, zweistellig.",
                    "El mes, con dos dígitos.",
                ),
            ),
        ),
        (
            "day",
            part(
                2,
                t(
                    "The day, in two digits.",
                    "Le jour, sur deux chiffres.",
                    "Der Tag, zweistellig.",
                    "El día, con dos dígitos.",
                ),
            ),
        ),
        (
            "hour",
            part(
                2,
                t(
                    "The hour, in two digits.",
                    "L'heure, sur deux chiffres.",
                    "Die Stunde, zweistellig.",
                    "La hora, con dos dígitos.",
                ),
            ),
        ),
        (
            "minutes",
            part(
                2,
                t(
                    "The minutes, in two digits.",
                    "Les minutes, sur deux chiffres.",
                    "Die Minuten, zweistellig.",
                    "Los minutos, con dos dígitos.",
                ),
            ),
        ),
        (
            "seconds",
            part(
                2,
                t(
                    "The seconds, in two digits.",
                    "Les secondes, sur deux chiffres.",
                    "Die Sekunden, zweistellig.",
                    "Los segundos, con dos dígitos.",
                ),
            ),
        ),
    ];
    let required: Vec<&str> = properties.iter().map(|(key, _)| *key).collect();
    object(properties, &required)
}

fn cost_details(b: &B) -> Value {
    let properties = vec![
        (
            "currency_symbol",
            b.string(t(
                "The currency symbol, such as $; may be empty.",
                "Le symbole de la devise, comme € ; peut être vide.",
                "Das Währungssymbol, etwa €; kann leer sein.",
                "El símbolo de la moneda, como €; puede estar vacío.",
            )),
        ),
        (
            "currency_code",
            b.string(t(
                "The ISO 4217 currency code, such as USD; may be empty.",
                "Le code ISO 4217 de la devise, comme EUR ; peut être vide.",
                "Der ISO-4217-Währungscode, etwa EUR; kann leer sein.",
                "El código ISO 4217 de la moneda, como EUR; puede estar vacío.",
            )),
        ),
        (
            "currency_position",
            b.with(
                json!({"type": "string", "enum": ["prefix", "postfix", ""]}),
                t(
                    "Where the symbol goes: prefix, postfix, or empty when there is no symbol.",
                    "La place du symbole : prefix (avant), postfix (après), ou vide s'il n'y a pas de symbole.",
                    "Die Stellung des Symbols: prefix (davor), postfix (danach) oder leer, wenn es kein Symbol gibt.",
                    "La posición del símbolo: prefix (delante), postfix (detrás) o vacío si no hay símbolo.",
                ),
            ),
        ),
        (
            "values",
            b.with(
                json!({"type": "array", "items": {"type": "string"}}),
                t(
                    "The numeric costs, sorted, as strings.",
                    "Les coûts numériques, triés, sous forme de chaînes.",
                    "Die numerischen Preise, sortiert, als Zeichenketten.",
                    "Los precios numéricos, ordenados, como cadenas.",
                ),
            ),
        ),
    ];
    let required: Vec<&str> = properties.iter().map(|(key, _)| *key).collect();
    object(properties, &required)
}

fn json_ld(b: &B) -> Value {
    json!({
        "type": "object",
        "properties": {
            "@context": b.string(t("The vocabulary: http://schema.org.", "Le vocabulaire : http://schema.org.", "Das Vokabular: http://schema.org.", "El vocabulario: http://schema.org.")),
            "@type": b.string(t("The schema.org type, such as Event or Place.", "Le type schema.org, comme Event ou Place.", "Der schema.org-Typ, etwa Event oder Place.", "El tipo de schema.org, como Event o Place.")),
        },
        "additionalProperties": true
    })
}

fn error(b: &B) -> Value {
    object(
        vec![
            (
                "code",
                b.string(t(
                    "A code for programs, such as rest_invalid_param.",
                    "Un code destiné aux programmes, comme rest_invalid_param.",
                    "Ein Code für Programme, etwa rest_invalid_param.",
                    "Un código para programas, como rest_invalid_param.",
                )),
            ),
            (
                "message",
                b.string(t(
                    "A message for people, in English.",
                    "Un message destiné aux personnes, en anglais.",
                    "Eine Meldung für Menschen, auf Englisch.",
                    "Un mensaje para personas, en inglés.",
                )),
            ),
            (
                "data",
                b.reference(
                    "ErrorData",
                    t(
                        "The HTTP status and, for some errors, more details.",
                        "Le statut HTTP et, pour certaines erreurs, plus de détails.",
                        "Der HTTP-Status und, bei manchen Fehlern, weitere Angaben.",
                        "El estado HTTP y, para algunos errores, más detalles.",
                    ),
                ),
            ),
            (
                "additional_data",
                b.with(
                    json!({"type": "array", "items": {}}),
                    t(
                        "Extra data of some errors, such as the existing term's ID for term_exists.",
                        "Des données supplémentaires de certaines erreurs, comme l'ID du terme existant pour term_exists.",
                        "Zusätzliche Daten mancher Fehler, etwa die ID des vorhandenen Begriffs bei term_exists.",
                        "Datos adicionales de algunos errores, como el ID del término existente en term_exists.",
                    ),
                ),
            ),
        ],
        &["code", "message", "data"],
    )
}

fn error_data(b: &B) -> Value {
    json!({
        "type": "object",
        "required": ["status"],
        "properties": {
            "status": b.integer(t("The HTTP status code.", "Le code de statut HTTP.", "Der HTTP-Statuscode.", "El código de estado HTTP.")),
            "params": b.with(
                json!({"oneOf": [
                    {"type": "array", "items": {"type": "string"}},
                    {"type": "object", "additionalProperties": {"type": "string"}}
                ]}),
                t(
                    "The parameters at fault: their names (missing parameters) or a message for each (invalid parameters).",
                    "Les paramètres en cause : leurs noms (paramètres manquants) ou un message pour chacun (paramètres invalides).",
                    "Die betroffenen Parameter: ihre Namen (fehlende Parameter) oder eine Meldung je Parameter (ungültige Parameter).",
                    "Los parámetros implicados: sus nombres (parámetros que faltan) o un mensaje para cada uno (parámetros no válidos).",
                ),
            ),
            "details": b.with(
                json!({"oneOf": [
                    {"type": "object", "additionalProperties": {
                        "type": "object",
                        "required": ["code", "message"],
                        "properties": {"code": {"type": "string"}, "message": {"type": "string"}, "data": {}}
                    }},
                    empty_list()
                ]}),
                t(
                    "For each invalid parameter that explains itself: its code, message and data.",
                    "Pour chaque paramètre invalide qui s'explique : son code, son message et ses données.",
                    "Für jeden ungültigen Parameter, der sich selbst erklärt: sein Code, seine Meldung und seine Daten.",
                    "Para cada parámetro no válido que se explica: su código, su mensaje y sus datos.",
                ),
            ),
        },
        "additionalProperties": true
    })
}

fn list(b: &B, key: &'static str, item: &str, term_list: bool) -> Value {
    let items = b.list_of(
        item,
        t(
            "The items of this page.",
            "Les éléments de cette page.",
            "Die Einträge dieser Seite.",
            "Los elementos de esta página.",
        ),
    );
    let uri = |text: Text| b.with(json!({"type": "string", "format": "uri"}), text);
    let rest_url = uri(t(
        "The address of this page, with the parameters given.",
        "L'adresse de cette page, avec les paramètres indiqués.",
        "Die Adresse dieser Seite, mit den angegebenen Parametern.",
        "La dirección de esta página, con los parámetros indicados.",
    ));
    let next = uri(t(
        "The address of the next page; only when there is one.",
        "L'adresse de la page suivante ; uniquement s'il y en a une.",
        "Die Adresse der nächsten Seite; nur, wenn es eine gibt.",
        "La dirección de la página siguiente; solo si la hay.",
    ));
    let previous = uri(t(
        "The address of the previous page; only when there is one.",
        "L'adresse de la page précédente ; uniquement s'il y en a une.",
        "Die Adresse der vorherigen Seite; nur, wenn es eine gibt.",
        "La dirección de la página anterior; solo si la hay.",
    ));
    let total = b.integer(t(
        "The number of items across all pages.",
        "Le nombre d'éléments sur l'ensemble des pages.",
        "Die Anzahl der Einträge über alle Seiten.",
        "El número de elementos en todas las páginas.",
    ));
    let total_pages =
        b.integer(t("The number of pages.", "Le nombre de pages.", "Die Anzahl der Seiten.", "El número de páginas."));
    let properties = if term_list {
        vec![
            ("rest_url", rest_url),
            ("total", total),
            ("total_pages", total_pages),
            (key, items),
            ("next_rest_url", next),
            ("previous_rest_url", previous),
        ]
    } else {
        vec![
            (key, items),
            ("rest_url", rest_url),
            ("next_rest_url", next),
            ("previous_rest_url", previous),
            ("total", total),
            ("total_pages", total_pages),
        ]
    };
    object(properties, &[key, "rest_url", "total", "total_pages"])
}

fn link(b: &B) -> Value {
    object(vec![("href", b.with(json!({"type": "string", "format": "uri"}), LINK_HREF))], &["href"])
}

fn links_of(b: &B, relation: &'static str, text: Text) -> Value {
    b.with(
        object(vec![(relation, json!({"type": "array", "items": {"$ref": "#/components/schemas/Link"}}))], &[relation]),
        text,
    )
}

fn namespace_index(b: &B) -> Value {
    object(
        vec![
            (
                "namespace",
                b.string(t(
                    "The namespace described.",
                    "L'espace de noms décrit.",
                    "Der beschriebene Namensraum.",
                    "El espacio de nombres descrito.",
                )),
            ),
            (
                "routes",
                b.with(
                    json!({"type": "object", "additionalProperties": {"$ref": "#/components/schemas/RouteDescription"}}),
                    t(
                        "Every route of the namespace, by its pattern.",
                        "Toutes les routes de l'espace de noms, par motif.",
                        "Alle Routen des Namensraums, nach ihrem Muster.",
                        "Todas las rutas del espacio de nombres, por su patrón.",
                    ),
                ),
            ),
            (
                "_links",
                links_of(
                    b,
                    "up",
                    t(
                        "Links: up leads to the REST root.",
                        "Les liens : up mène à la racine REST.",
                        "Links: up führt zur REST-Wurzel.",
                        "Los enlaces: up lleva a la raíz REST.",
                    ),
                ),
            ),
        ],
        &["namespace", "routes", "_links"],
    )
}

fn route_description(b: &B) -> Value {
    let methods = |text: Text| {
        b.with(
            json!({"type": "array", "items": {"type": "string", "enum": ["GET", "POST", "PUT", "PATCH", "DELETE"]}}),
            text,
        )
    };
    let endpoint = object(
        vec![
            (
                "methods",
                methods(t(
                    "The methods of this operation.",
                    "Les méthodes de cette opération.",
                    "Die Methoden dieser Operation.",
                    "Los métodos de esta operación.",
                )),
            ),
            (
                "args",
                b.with(
                    json!({"type": "object", "additionalProperties": {"$ref": "#/components/schemas/ArgDescription"}}),
                    t(
                        "The operation's arguments, by name.",
                        "Les arguments de l'opération, par nom.",
                        "Die Argumente der Operation, nach Namen.",
                        "Los argumentos de la operación, por nombre.",
                    ),
                ),
            ),
        ],
        &["methods", "args"],
    );
    object(
        vec![
            (
                "namespace",
                b.string(t(
                    "The namespace of the route.",
                    "L'espace de noms de la route.",
                    "Der Namensraum der Route.",
                    "El espacio de nombres de la ruta.",
                )),
            ),
            (
                "methods",
                methods(t(
                    "The HTTP methods the route answers.",
                    "Les méthodes HTTP auxquelles la route répond.",
                    "Die HTTP-Methoden, auf die die Route antwortet.",
                    "Los métodos HTTP a los que responde la ruta.",
                )),
            ),
            (
                "endpoints",
                b.with(
                    json!({"type": "array", "items": endpoint}),
                    t(
                        "The route's operations; methods that share their arguments are grouped.",
                        "Les opérations de la route ; les méthodes qui partagent leurs arguments sont regroupées.",
                        "Die Operationen der Route; Methoden mit denselben Argumenten sind zusammengefasst.",
                        "Las operaciones de la ruta; los métodos que comparten argumentos se agrupan.",
                    ),
                ),
            ),
            (
                "_links",
                links_of(
                    b,
                    "self",
                    t(
                        "The route's own address; only for routes without path variables.",
                        "L'adresse de la route ; uniquement pour les routes sans variable de chemin.",
                        "Die Adresse der Route; nur bei Routen ohne Pfadvariablen.",
                        "La dirección de la ruta; solo en las rutas sin variables de ruta.",
                    ),
                ),
            ),
        ],
        &["namespace", "methods", "endpoints"],
    )
}

fn arg_description(b: &B) -> Value {
    object(
        vec![
            (
                "default",
                b.with(
                    json!({"nullable": true}),
                    t(
                        "The value used when the argument is not given.",
                        "La valeur utilisée si l'argument n'est pas fourni.",
                        "Der Wert, der gilt, wenn das Argument fehlt.",
                        "El valor que se usa si no se da el argumento.",
                    ),
                ),
            ),
            (
                "description",
                b.string(t(
                    "What the argument means, in the request's language.",
                    "Ce que signifie l'argument, dans la langue de la requête.",
                    "Was das Argument bedeutet, in der Sprache der Anfrage.",
                    "Lo que significa el argumento, en el idioma de la solicitud.",
                )),
            ),
            (
                "type",
                b.with(
                    json!({"type": "string", "enum": ["string", "integer", "number", "boolean", "array"]}),
                    t(
                        "The JSON type of the value; absent when any value is checked by its rule alone.",
                        "Le type JSON de la valeur ; absent si seule sa règle vérifie la valeur.",
                        "Der JSON-Typ des Werts; fehlt, wenn nur die Regel den Wert prüft.",
                        "El tipo JSON del valor; ausente si solo su regla comprueba el valor.",
                    ),
                ),
            ),
            (
                "items",
                b.with(
                    object(vec![("type", json!({"type": "string", "enum": ["string", "integer"]}))], &["type"]),
                    t(
                        "The type of the items of a list.",
                        "Le type des éléments d'une liste.",
                        "Der Typ der Elemente einer Liste.",
                        "El tipo de los elementos de una lista.",
                    ),
                ),
            ),
            (
                "enum",
                b.with(
                    json!({"type": "array", "items": {"type": "string"}}),
                    t(
                        "The allowed values.",
                        "Les valeurs autorisées.",
                        "Die zulässigen Werte.",
                        "Los valores permitidos.",
                    ),
                ),
            ),
            (
                "required",
                b.boolean(t(
                    "Whether the argument must be given.",
                    "Indique si l'argument est obligatoire.",
                    "Ob das Argument angegeben werden muss.",
                    "Indica si el argumento es obligatorio.",
                )),
            ),
        ],
        &["description", "required"],
    )
}

fn openapi_document(b: &B) -> Value {
    json!({
        "type": "object",
        "required": ["openapi", "info", "servers", "components", "paths"],
        "properties": {
            "openapi": b.with(json!({"type": "string", "pattern": "^3\\.0\\.[0-9]+$"}), t("The OpenAPI version.", "La version d'OpenAPI.", "Die OpenAPI-Version.", "La versión de OpenAPI.")),
            "info": b.with(json!({"type": "object", "required": ["title", "version"]}), t("The interface's title, version and summary.", "Le titre, la version et le résumé de l'interface.", "Titel, Version und Zusammenfassung der Schnittstelle.", "El título, la versión y el resumen de la interfaz.")),
            "servers": b.with(json!({"type": "array", "minItems": 1, "items": {"type": "object", "required": ["url"]}}), t("The base address of the interface, as the request reached it.", "L'adresse de base de l'interface, telle que la requête l'a atteinte.", "Die Basisadresse der Schnittstelle, wie die Anfrage sie erreicht hat.", "La dirección base de la interfaz, tal como la alcanzó la solicitud.")),
            "components": b.with(json!({"type": "object"}), t("The shared schemas and the security schemes.", "Les schémas communs et les schémas de sécurité.", "Die gemeinsamen Schemas und die Sicherheitsschemas.", "Los esquemas comunes y los esquemas de seguridad.")),
            "paths": b.with(json!({"type": "object"}), t("Every route and method of the interface.", "Toutes les routes et méthodes de l'interface.", "Alle Routen und Methoden der Schnittstelle.", "Todas las rutas y métodos de la interfaz.")),
        },
        "additionalProperties": false
    })
}
