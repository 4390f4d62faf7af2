//! The event schema, with its date details, cost details and JSON-LD.

use serde_json::{json, Value};

use super::builder::{empty_list, names, object, rows, Row, B};
use super::texts::{
    DATE, DATE_UTC, GLOBAL_ID, GLOBAL_ID_LINEAGE, JSON_LD, MODIFIED, MODIFIED_UTC, POST_ID, STATUS, URL,
};
use crate::doc::i18n::{t, Text};

const SLUG: Text = t(
    "The slug: the item's name in addresses.",
    "Le slug : le nom de l'élément dans les adresses.",
    "Der Slug: der Name des Eintrags in Adressen.",
    "El slug: el nombre del elemento en las direcciones.",
);

const EXCERPT: Text =
    t("The excerpt, as HTML.", "L'extrait, en HTML.", "Der Textauszug, als HTML.", "El extracto, en HTML.");

const DESCRIPTION: Text = t(
    "The description, as HTML.",
    "La description, en HTML.",
    "Die Beschreibung, als HTML.",
    "La descripción, en HTML.",
);

const AUTHOR: Text = t(
    "The ID of the author, as a string.",
    "L'ID de l'auteur, sous forme de chaîne.",
    "Die ID des Autors, als Zeichenkette.",
    "El ID del autor, como cadena.",
);

/// The fields of an event, in the order the views write them; all but `json_ld` always there.
const EVENT: &[Row] = &[
    ("id", B::integer, POST_ID),
    ("global_id", B::string, GLOBAL_ID),
    ("global_id_lineage", B::strings, GLOBAL_ID_LINEAGE),
    ("author", B::digits, AUTHOR),
    ("status", B::status, STATUS),
    ("date", B::date, DATE),
    ("date_utc", B::date, DATE_UTC),
    ("modified", B::date, MODIFIED),
    ("modified_utc", B::date, MODIFIED_UTC),
    ("url", B::uri, URL),
    (
        "rest_url",
        B::uri,
        t(
            "The address of this event in this interface.",
            "L'adresse de cet événement dans cette interface.",
            "Die Adresse dieser Veranstaltung in dieser Schnittstelle.",
            "La dirección de este evento en esta interfaz.",
        ),
    ),
    (
        "title",
        B::string,
        t("The event title.", "Le titre de l'événement.", "Der Titel der Veranstaltung.", "El título del evento."),
    ),
    ("description", B::string, DESCRIPTION),
    ("excerpt", B::string, EXCERPT),
    ("slug", B::string, SLUG),
    (
        "image",
        image_or_false,
        t(
            "The featured image, or false when there is none.",
            "L'image mise en avant, ou false s'il n'y en a pas.",
            "Das Beitragsbild oder false, wenn es keines gibt.",
            "La imagen destacada, o false si no la hay.",
        ),
    ),
    (
        "all_day",
        B::flag,
        t(
            "Whether the event lasts all day; null when a password hides it.",
            "Indique si l'événement dure toute la journée ; null si un mot de passe le masque.",
            "Ob die Veranstaltung den ganzen Tag dauert; null, wenn ein Passwort es verbirgt.",
            "Indica si el evento dura todo el día; null si una contraseña lo oculta.",
        ),
    ),
    (
        "start_date",
        B::date,
        t(
            "The start, in the event's time zone.",
            "Le début, dans le fuseau horaire de l'événement.",
            "Der Beginn, in der Zeitzone der Veranstaltung.",
            "El inicio, en la zona horaria del evento.",
        ),
    ),
    (
        "start_date_details",
        date_parts,
        t(
            "The start, split into its parts.",
            "Le début, décomposé en ses parties.",
            "Der Beginn, in seine Bestandteile zerlegt.",
            "El inicio, desglosado en sus partes.",
        ),
    ),
    (
        "end_date",
        B::date,
        t(
            "The end, in the event's time zone.",
            "La fin, dans le fuseau horaire de l'événement.",
            "Das Ende, in der Zeitzone der Veranstaltung.",
            "El final, en la zona horaria del evento.",
        ),
    ),
    (
        "end_date_details",
        date_parts,
        t(
            "The end, split into its parts.",
            "La fin, décomposée en ses parties.",
            "Das Ende, in seine Bestandteile zerlegt.",
            "El final, desglosado en sus partes.",
        ),
    ),
    (
        "utc_start_date",
        B::date,
        t("The start, in UTC.", "Le début, en UTC.", "Der Beginn, in UTC.", "El inicio, en UTC."),
    ),
    (
        "utc_start_date_details",
        date_parts,
        t(
            "The start in UTC, split into its parts.",
            "Le début en UTC, décomposé en ses parties.",
            "Der Beginn in UTC, in seine Bestandteile zerlegt.",
            "El inicio en UTC, desglosado en sus partes.",
        ),
    ),
    ("utc_end_date", B::date, t("The end, in UTC.", "La fin, en UTC.", "Das Ende, in UTC.", "El final, en UTC.")),
    (
        "utc_end_date_details",
        date_parts,
        t(
            "The end in UTC, split into its parts.",
            "La fin en UTC, décomposée en ses parties.",
            "Das Ende in UTC, in seine Bestandteile zerlegt.",
            "El final en UTC, desglosado en sus partes.",
        ),
    ),
    (
        "timezone",
        B::string,
        t(
            "The event's time zone.",
            "Le fuseau horaire de l'événement.",
            "Die Zeitzone der Veranstaltung.",
            "La zona horaria del evento.",
        ),
    ),
    (
        "timezone_abbr",
        B::string,
        t(
            "The abbreviation of the time zone at the start, such as CET.",
            "L'abréviation du fuseau horaire au début, comme CET.",
            "Die Abkürzung der Zeitzone zu Beginn, etwa CET.",
            "La abreviatura de la zona horaria al inicio, como CET.",
        ),
    ),
    (
        "cost",
        B::string,
        t(
            "The cost as visitors see it, such as $10 – $20 or Free; empty when there is none.",
            "Le coût tel que le voient les visiteurs, comme 10 $ – 20 $ ou Free ; vide s'il n'y en a pas.",
            "Der Preis, wie Besucher ihn sehen, etwa $10 – $20 oder Free; leer, wenn es keinen gibt.",
            "El precio tal como lo ven los visitantes, como $10 – $20 o Free; vacío si no lo hay.",
        ),
    ),
    (
        "cost_details",
        cost_parts,
        t(
            "The cost, split into currency and values.",
            "Le coût, décomposé en devise et en valeurs.",
            "Der Preis, aufgeteilt in Währung und Werte.",
            "El precio, desglosado en moneda y valores.",
        ),
    ),
    (
        "website",
        B::string,
        t(
            "The event website; the address of the event page when none was given.",
            "Le site web de l'événement ; l'adresse de la page de l'événement si aucun n'a été indiqué.",
            "Die Website der Veranstaltung; die Adresse der Veranstaltungsseite, wenn keine angegeben wurde.",
            "El sitio web del evento; la dirección de la página del evento si no se indicó ninguno.",
        ),
    ),
    (
        "show_map",
        B::flag,
        t(
            "Whether the event shows a map; null when a password hides it.",
            "Indique si l'événement affiche une carte ; null si un mot de passe le masque.",
            "Ob die Veranstaltung eine Karte zeigt; null, wenn ein Passwort es verbirgt.",
            "Indica si el evento muestra un mapa; null si una contraseña lo oculta.",
        ),
    ),
    (
        "show_map_link",
        B::flag,
        t(
            "Whether the event shows a map link; null when a password hides it.",
            "Indique si l'événement affiche un lien vers une carte ; null si un mot de passe le masque.",
            "Ob die Veranstaltung einen Link zu einer Karte zeigt; null, wenn ein Passwort es verbirgt.",
            "Indica si el evento muestra un enlace a un mapa; null si una contraseña lo oculta.",
        ),
    ),
    (
        "hide_from_listings",
        B::flag,
        t(
            "Whether the event is left out of lists; null when a password hides it.",
            "Indique si l'événement est exclu des listes ; null si un mot de passe le masque.",
            "Ob die Veranstaltung in Listen fehlt; null, wenn ein Passwort es verbirgt.",
            "Indica si el evento queda fuera de las listas; null si una contraseña lo oculta.",
        ),
    ),
    (
        "sticky",
        B::flag,
        t(
            "Whether the event sticks to the top of the month view; null when a password hides it.",
            "Indique si l'événement reste épinglé en haut de la vue mensuelle ; null si un mot de passe le masque.",
            "Ob die Veranstaltung oben in der Monatsansicht angeheftet bleibt; null, wenn ein Passwort es verbirgt.",
            "Indica si el evento queda fijado arriba en la vista mensual; null si una contraseña lo oculta.",
        ),
    ),
    (
        "featured",
        B::flag,
        t(
            "Whether the event is featured; null when a password hides it.",
            "Indique si l'événement est mis en avant ; null si un mot de passe le masque.",
            "Ob die Veranstaltung hervorgehoben ist; null, wenn ein Passwort es verbirgt.",
            "Indica si el evento está destacado; null si una contraseña lo oculta.",
        ),
    ),
    (
        "categories",
        event_terms,
        t(
            "The event's categories.",
            "Les catégories de l'événement.",
            "Die Kategorien der Veranstaltung.",
            "Las categorías del evento.",
        ),
    ),
    (
        "tags",
        event_terms,
        t(
            "The event's tags.",
            "Les étiquettes de l'événement.",
            "Die Schlagwörter der Veranstaltung.",
            "Las etiquetas del evento.",
        ),
    ),
    (
        "venue",
        venue_or_empty,
        t(
            "The event's venue, or an empty list when it has none.",
            "Le lieu de l'événement, ou une liste vide s'il n'en a pas.",
            "Der Veranstaltungsort oder eine leere Liste, wenn es keinen gibt.",
            "El lugar del evento, o una lista vacía si no tiene.",
        ),
    ),
    (
        "organizer",
        organizers,
        t(
            "The event's organizers (those in the trash left out).",
            "Les organisateurs de l'événement (sauf ceux qui sont à la corbeille).",
            "Die Veranstalter der Veranstaltung (ohne die im Papierkorb).",
            "Los organizadores del evento (sin los que están en la papelera).",
        ),
    ),
    (
        "custom_fields",
        custom_fields,
        t(
            "Additional fields that have a value, by name; an empty list when there are none.",
            "Les champs supplémentaires qui ont une valeur, par nom ; une liste vide s'il n'y en a pas.",
            "Die Zusatzfelder mit einem Wert, nach Namen; eine leere Liste, wenn es keine gibt.",
            "Los campos adicionales que tienen un valor, por nombre; una lista vacía si no hay ninguno.",
        ),
    ),
    ("json_ld", json_ld_ref, JSON_LD),
];

fn date_parts(b: &B, text: Text) -> Value {
    b.reference("DateDetails", text)
}

fn cost_parts(b: &B, text: Text) -> Value {
    b.reference("CostDetails", text)
}

fn json_ld_ref(b: &B, text: Text) -> Value {
    b.reference("JsonLd", text)
}

fn event_terms(b: &B, text: Text) -> Value {
    b.list_of("EventTerm", text)
}

fn organizers(b: &B, text: Text) -> Value {
    b.list_of("Organizer", text)
}

fn image_or_false(b: &B, text: Text) -> Value {
    b.with(json!({"oneOf": [{"$ref": "#/components/schemas/Image"}, {"type": "boolean", "enum": [false]}]}), text)
}

fn venue_or_empty(b: &B, text: Text) -> Value {
    b.with(json!({"oneOf": [{"$ref": "#/components/schemas/Venue"}, empty_list()]}), text)
}

fn custom_fields(b: &B, text: Text) -> Value {
    b.with(
        json!({"oneOf": [
            {"type": "object", "minProperties": 1, "additionalProperties": {
                "type": "object",
                "properties": {"label": {"type": "string"}, "value": {"type": "string"}}
            }},
            empty_list()
        ]}),
        text,
    )
}

pub(super) fn event(b: &B) -> Value {
    let required: Vec<&str> = names(EVENT).into_iter().filter(|key| *key != "json_ld").collect();
    object(rows(b, EVENT), &required)
}

/// The parts of a date, each a string of a fixed number of digits.
const DATE_PARTS: &[Row] = &[
    (
        "year",
        part4,
        t(
            "The year, in four digits.",
            "L'année, sur quatre chiffres.",
            "Das Jahr, vierstellig.",
            "El año, con cuatro dígitos.",
        ),
    ),
    (
        "month",
        part2,
        t(
            "The month, in two digits.",
            "Le mois, sur deux chiffres.",
            "Der Monat, zweistellig.",
            "El mes, con dos dígitos.",
        ),
    ),
    (
        "day",
        part2,
        t(
            "The day, in two digits.",
            "Le jour, sur deux chiffres.",
            "Der Tag, zweistellig.",
            "El día, con dos dígitos.",
        ),
    ),
    (
        "hour",
        part2,
        t(
            "The hour, in two digits.",
            "L'heure, sur deux chiffres.",
            "Die Stunde, zweistellig.",
            "La hora, con dos dígitos.",
        ),
    ),
    (
        "minutes",
        part2,
        t(
            "The minutes, in two digits.",
            "Les minutes, sur deux chiffres.",
            "Die Minuten, zweistellig.",
            "Los minutos, con dos dígitos.",
        ),
    ),
    (
        "seconds",
        part2,
        t(
            "The seconds, in two digits.",
            "Les secondes, sur deux chiffres.",
            "Die Sekunden, zweistellig.",
            "Los segundos, con dos dígitos.",
        ),
    ),
];

fn part4(b: &B, text: Text) -> Value {
    b.with(json!({"type": "string", "pattern": "^[0-9]{4}$"}), text)
}

fn part2(b: &B, text: Text) -> Value {
    b.with(json!({"type": "string", "pattern": "^[0-9]{2}$"}), text)
}

pub(super) fn date_details(b: &B) -> Value {
    object(rows(b, DATE_PARTS), &names(DATE_PARTS))
}

/// The cost split into currency and values.
const COST_PARTS: &[Row] = &[
    (
        "currency_symbol",
        B::string,
        t(
            "The currency symbol, such as $; may be empty.",
            "Le symbole de la devise, comme € ; peut être vide.",
            "Das Währungssymbol, etwa €; kann leer sein.",
            "El símbolo de la moneda, como €; puede estar vacío.",
        ),
    ),
    (
        "currency_code",
        B::string,
        t(
            "The ISO 4217 currency code, such as USD; may be empty.",
            "Le code ISO 4217 de la devise, comme EUR ; peut être vide.",
            "Der ISO-4217-Währungscode, etwa EUR; kann leer sein.",
            "El código ISO 4217 de la moneda, como EUR; puede estar vacío.",
        ),
    ),
    (
        "currency_position",
        position,
        t(
            "Where the symbol goes: prefix, postfix, or empty when there is no symbol.",
            "La place du symbole : prefix (avant), postfix (après), ou vide s'il n'y a pas de symbole.",
            "Die Stellung des Symbols: prefix (davor), postfix (danach) oder leer, wenn es kein Symbol gibt.",
            "La posición del símbolo: prefix (delante), postfix (detrás) o vacío si no hay símbolo.",
        ),
    ),
    (
        "values",
        B::strings,
        t(
            "The numeric costs, sorted, as strings.",
            "Les coûts numériques, triés, sous forme de chaînes.",
            "Die numerischen Preise, sortiert, als Zeichenketten.",
            "Los precios numéricos, ordenados, como cadenas.",
        ),
    ),
];

/// Where the currency symbol goes.
fn position(b: &B, text: Text) -> Value {
    b.with(json!({"type": "string", "enum": ["prefix", "postfix", ""]}), text)
}

pub(super) fn cost_details(b: &B) -> Value {
    object(rows(b, COST_PARTS), &names(COST_PARTS))
}

pub(super) fn json_ld(b: &B) -> Value {
    json!({
        "type": "object",
        "properties": {
            "@context": b.string(t("The vocabulary: http://schema.org.", "Le vocabulaire : http://schema.org.", "Das Vokabular: http://schema.org.", "El vocabulario: http://schema.org.")),
            "@type": b.string(t("The schema.org type, such as Event or Place.", "Le type schema.org, comme Event ou Place.", "Der schema.org-Typ, etwa Event oder Place.", "El tipo de schema.org, como Event o Place.")),
        },
        "additionalProperties": true
    })
}
