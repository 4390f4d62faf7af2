//! The venue and organizer schemas (and the head they share).

use serde_json::Value;

use super::builder::{object, rows, Row, B};
use super::texts::{
    DATE, DATE_UTC, GLOBAL_ID, GLOBAL_ID_LINEAGE, JSON_LD, MODIFIED, MODIFIED_UTC, POST_ID, STATUS, URL,
};
use crate::doc::i18n::{t, Text};

const WEBSITE_LINKED: Text = t(
    "The website URL; absent when empty.",
    "L'URL du site web ; absente si elle est vide.",
    "Die URL der Website; fehlt, wenn sie leer ist.",
    "La URL del sitio web; ausente si está vacía.",
);

const PHONE: Text = t(
    "The phone number; absent when empty.",
    "Le numéro de téléphone ; absent s'il est vide.",
    "Die Telefonnummer; fehlt, wenn sie leer ist.",
    "El número de teléfono; ausente si está vacío.",
);

const IMAGE_OPTIONAL: Text = t(
    "The featured image; absent when there is none.",
    "L'image mise en avant ; absente s'il n'y en a pas.",
    "Das Beitragsbild; fehlt, wenn es keines gibt.",
    "La imagen destacada; ausente si no la hay.",
);

const AUTHOR_LINKED: Text = t(
    "The ID of the author, as a string; absent when 0.",
    "L'ID de l'auteur, sous forme de chaîne ; absent s'il vaut 0.",
    "Die ID des Autors, als Zeichenkette; fehlt, wenn sie 0 ist.",
    "El ID del autor, como cadena; ausente si es 0.",
);

/// What venues and organizers start with, before their name.
const HEAD: &[Row] = &[
    ("id", B::integer, POST_ID),
    ("author", B::digits, AUTHOR_LINKED),
    ("status", B::status, STATUS),
    ("date", B::date, DATE),
    ("date_utc", B::date, DATE_UTC),
    ("modified", B::date, MODIFIED),
    ("modified_utc", B::date, MODIFIED_UTC),
    ("url", B::uri, URL),
];

/// What venues and organizers have after their name.
const HEAD_TAIL: &[Row] = &[
    (
        "description",
        B::string,
        t(
            "The description, as HTML; absent when empty.",
            "La description, en HTML ; absente si elle est vide.",
            "Die Beschreibung, als HTML; fehlt, wenn sie leer ist.",
            "La descripción, en HTML; ausente si está vacía.",
        ),
    ),
    (
        "excerpt",
        B::string,
        t(
            "The excerpt, as HTML; absent when empty.",
            "L'extrait, en HTML ; absent s'il est vide.",
            "Der Textauszug, als HTML; fehlt, wenn er leer ist.",
            "El extracto, en HTML; ausente si está vacío.",
        ),
    ),
    (
        "slug",
        B::string,
        t(
            "The slug: the item's name in addresses; absent when empty.",
            "Le slug : le nom de l'élément dans les adresses ; absent s'il est vide.",
            "Der Slug: der Name des Eintrags in Adressen; fehlt, wenn er leer ist.",
            "El slug: el nombre del elemento en las direcciones; ausente si está vacío.",
        ),
    ),
    ("image", image_ref, IMAGE_OPTIONAL),
];

fn image_ref(b: &B, text: Text) -> Value {
    b.reference("Image", text)
}

fn json_ld_ref(b: &B, text: Text) -> Value {
    b.reference("JsonLd", text)
}

/// A venue or organizer: the shared head, the name, the shared tail, then its own fields.
fn linked(b: &B, name_key: &'static str, name: Text, own: &[Row], required: &[&str]) -> Value {
    let mut properties = rows(b, HEAD);
    properties.push((name_key, b.string(name)));
    properties.extend(rows(b, HEAD_TAIL));
    properties.extend(rows(b, own));
    object(properties, required)
}

/// A venue's own fields.
const VENUE: &[Row] = &[
    (
        "address",
        B::string,
        t(
            "The street address; absent when empty.",
            "L'adresse (rue et numéro) ; absente si elle est vide.",
            "Die Straßenadresse; fehlt, wenn sie leer ist.",
            "La dirección (calle y número); ausente si está vacía.",
        ),
    ),
    (
        "city",
        B::string,
        t(
            "The city; absent when empty.",
            "La ville ; absente si elle est vide.",
            "Die Stadt; fehlt, wenn sie leer ist.",
            "La ciudad; ausente si está vacía.",
        ),
    ),
    (
        "country",
        B::string,
        t(
            "The country; absent when empty.",
            "Le pays ; absent s'il est vide.",
            "Das Land; fehlt, wenn es leer ist.",
            "El país; ausente si está vacío.",
        ),
    ),
    (
        "province",
        B::string,
        t(
            "The province; absent when empty.",
            "La province ; absente si elle est vide.",
            "Die Provinz; fehlt, wenn sie leer ist.",
            "La provincia; ausente si está vacía.",
        ),
    ),
    (
        "state",
        B::string,
        t(
            "The state; absent when empty.",
            "L'État ; absent s'il est vide.",
            "Der Bundesstaat; fehlt, wenn er leer ist.",
            "El estado; ausente si está vacío.",
        ),
    ),
    (
        "zip",
        B::string,
        t(
            "The ZIP or postal code; absent when empty.",
            "Le code postal ; absent s'il est vide.",
            "Die Postleitzahl; fehlt, wenn sie leer ist.",
            "El código postal; ausente si está vacío.",
        ),
    ),
    ("phone", B::string, PHONE),
    ("website", B::string, WEBSITE_LINKED),
    (
        "stateprovince",
        B::string,
        t(
            "The state or province; absent when empty.",
            "L'État ou la province ; absent s'il est vide.",
            "Der Bundesstaat oder die Provinz; fehlt, wenn leer.",
            "El estado o la provincia; ausente si está vacío.",
        ),
    ),
    (
        "geo_lat",
        B::number,
        t(
            "The latitude; only when the venue has coordinates.",
            "La latitude ; uniquement si le lieu a des coordonnées.",
            "Der Breitengrad; nur, wenn der Ort Koordinaten hat.",
            "La latitud; solo si el lugar tiene coordenadas.",
        ),
    ),
    (
        "geo_lng",
        B::number,
        t(
            "The longitude; only when the venue has coordinates.",
            "La longitude ; uniquement si le lieu a des coordonnées.",
            "Der Längengrad; nur, wenn der Ort Koordinaten hat.",
            "La longitud; solo si el lugar tiene coordenadas.",
        ),
    ),
    ("json_ld", json_ld_ref, JSON_LD),
    (
        "show_map",
        B::boolean,
        t(
            "Whether events at the venue show a map.",
            "Indique si les événements de ce lieu affichent une carte.",
            "Ob Veranstaltungen an diesem Ort eine Karte zeigen.",
            "Indica si los eventos de este lugar muestran un mapa.",
        ),
    ),
    (
        "show_map_link",
        B::boolean,
        t(
            "Whether events at the venue show a map link.",
            "Indique si les événements de ce lieu affichent un lien vers une carte.",
            "Ob Veranstaltungen an diesem Ort einen Link zu einer Karte zeigen.",
            "Indica si los eventos de este lugar muestran un enlace a un mapa.",
        ),
    ),
    ("global_id", B::string, GLOBAL_ID),
    ("global_id_lineage", B::strings, GLOBAL_ID_LINEAGE),
];

pub(super) fn venue(b: &B) -> Value {
    const NAME: Text = t(
        "The venue name; absent when empty.",
        "Le nom du lieu ; absent s'il est vide.",
        "Der Name des Veranstaltungsorts; fehlt, wenn er leer ist.",
        "El nombre del lugar; ausente si está vacío.",
    );
    linked(
        b,
        "venue",
        NAME,
        VENUE,
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

/// An organizer's own fields.
const ORGANIZER: &[Row] = &[
    ("phone", B::string, PHONE),
    ("website", B::string, WEBSITE_LINKED),
    (
        "email",
        B::string,
        t(
            "The e-mail address; absent when empty.",
            "L'adresse e-mail ; absente si elle est vide.",
            "Die E-Mail-Adresse; fehlt, wenn sie leer ist.",
            "La dirección de correo electrónico; ausente si está vacía.",
        ),
    ),
    ("json_ld", json_ld_ref, JSON_LD),
    ("global_id", B::string, GLOBAL_ID),
    ("global_id_lineage", B::strings, GLOBAL_ID_LINEAGE),
];

pub(super) fn organizer(b: &B) -> Value {
    const NAME: Text = t(
        "The organizer name; absent when empty.",
        "Le nom de l'organisateur ; absent s'il est vide.",
        "Der Name des Veranstalters; fehlt, wenn er leer ist.",
        "El nombre del organizador; ausente si está vacío.",
    );
    linked(
        b,
        "organizer",
        NAME,
        ORGANIZER,
        &["id", "status", "date", "date_utc", "modified", "modified_utc", "url", "global_id", "global_id_lineage"],
    )
}
