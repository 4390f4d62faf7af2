//! Errors, list envelopes and links.

use serde_json::{json, Value};

use super::builder::{empty_list, object, rows, Row, B};
use crate::doc::i18n::{t, Text};

const LINK_HREF: Text = t("The address.", "L'adresse.", "Die Adresse.", "La dirección.");

pub(super) fn error(b: &B) -> Value {
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

pub(super) fn error_data(b: &B) -> Value {
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

const LIST_ITEMS: Text = t(
    "The items of this page.",
    "Les éléments de cette page.",
    "Die Einträge dieser Seite.",
    "Los elementos de esta página.",
);

const REST_URL: Row = (
    "rest_url",
    B::uri,
    t(
        "The address of this page, with the parameters given.",
        "L'adresse de cette page, avec les paramètres indiqués.",
        "Die Adresse dieser Seite, mit den angegebenen Parametern.",
        "La dirección de esta página, con los parámetros indicados.",
    ),
);

const NEXT: Row = (
    "next_rest_url",
    B::uri,
    t(
        "The address of the next page; only when there is one.",
        "L'adresse de la page suivante ; uniquement s'il y en a une.",
        "Die Adresse der nächsten Seite; nur, wenn es eine gibt.",
        "La dirección de la página siguiente; solo si la hay.",
    ),
);

const PREVIOUS: Row = (
    "previous_rest_url",
    B::uri,
    t(
        "The address of the previous page; only when there is one.",
        "L'adresse de la page précédente ; uniquement s'il y en a une.",
        "Die Adresse der vorherigen Seite; nur, wenn es eine gibt.",
        "La dirección de la página anterior; solo si la hay.",
    ),
);

const TOTAL: Row = (
    "total",
    B::integer,
    t(
        "The number of items across all pages.",
        "Le nombre d'éléments sur l'ensemble des pages.",
        "Die Anzahl der Einträge über alle Seiten.",
        "El número de elementos en todas las páginas.",
    ),
);

const TOTAL_PAGES: Row = (
    "total_pages",
    B::integer,
    t("The number of pages.", "Le nombre de pages.", "Die Anzahl der Seiten.", "El número de páginas."),
);

/// A page of a list: the items under `key` and the paging fields, in the order the handlers
/// write them (term lists put the totals first).
pub(super) fn list(b: &B, key: &'static str, item: &str, term_list: bool) -> Value {
    let (before, after): (&[Row], &[Row]) = if term_list {
        (&[REST_URL, TOTAL, TOTAL_PAGES], &[NEXT, PREVIOUS])
    } else {
        (&[], &[REST_URL, NEXT, PREVIOUS, TOTAL, TOTAL_PAGES])
    };
    let mut properties = rows(b, before);
    properties.push((key, b.list_of(item, LIST_ITEMS)));
    properties.extend(rows(b, after));
    object(properties, &[key, "rest_url", "total", "total_pages"])
}

pub(super) fn link(b: &B) -> Value {
    object(vec![("href", b.with(json!({"type": "string", "format": "uri"}), LINK_HREF))], &["href"])
}

pub(super) fn links_of(b: &B, relation: &'static str, text: Text) -> Value {
    b.with(
        object(vec![(relation, json!({"type": "array", "items": {"$ref": "#/components/schemas/Link"}}))], &[relation]),
        text,
    )
}
