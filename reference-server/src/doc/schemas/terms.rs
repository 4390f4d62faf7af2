//! Category and tag schemas: the term, the term embedded in an event, its links.

use serde_json::{json, Value};

use super::builder::{empty_list, object, rows, Row, B};
use crate::doc::i18n::{t, Text};

const TERM_URLS: Text = t(
    "The term's addresses in this interface.",
    "Les adresses du terme dans cette interface.",
    "Die Adressen des Begriffs in dieser Schnittstelle.",
    "Las direcciones del término en esta interfaz.",
);

const TERM_TAXONOMY: Text = t(
    "The taxonomy: tribe_events_cat for categories, post_tag for tags.",
    "La taxonomie : tribe_events_cat pour les catégories, post_tag pour les étiquettes.",
    "Die Taxonomie: tribe_events_cat für Kategorien, post_tag für Schlagwörter.",
    "La taxonomía: tribe_events_cat para las categorías, post_tag para las etiquetas.",
);

const TERM_COUNT: Text = t(
    "The number of published events that have the term.",
    "Le nombre d'événements publiés qui portent ce terme.",
    "Die Anzahl der veröffentlichten Veranstaltungen mit diesem Begriff.",
    "El número de eventos publicados que tienen este término.",
);

const TERM_DESCRIPTION: Text = t(
    "The term description.",
    "La description du terme.",
    "Die Beschreibung des Begriffs.",
    "La descripción del término.",
);

const TERM_SLUG: Text = t("The term slug.", "Le slug du terme.", "Der Slug des Begriffs.", "El slug del término.");

const TERM_NAME: Text = t("The term name.", "Le nom du terme.", "Der Name des Begriffs.", "El nombre del término.");

const TERM_ID: Text = t("The term ID.", "L'ID du terme.", "Die ID des Begriffs.", "El ID del término.");

fn taxonomy(b: &B, text: Text) -> Value {
    b.with(json!({"type": "string", "enum": ["tribe_events_cat", "post_tag"]}), text)
}

/// The fields of a category or tag.
const TERM: &[Row] = &[
            ("id", B::integer, TERM_ID),
            ("count", B::integer, TERM_COUNT),
            ("description", B::string, TERM_DESCRIPTION),
            ("name", B::string, TERM_NAME),
            ("slug", B::string, TERM_SLUG),
            ("taxonomy", taxonomy, TERM_TAXONOMY),
            (
                "parent",
                B::integer, t(
                    "The parent category's ID, 0 for none; categories only.",
                    "L'ID de la catégorie parente, 0 s'il n'y en a pas ; catégories uniquement.",
                    "Die ID der übergeordneten Kategorie, 0 für keine; nur bei Kategorien.",
                    "El ID de la categoría padre, 0 si no hay; solo en las categorías.",
                ),
            ),
            (
                "meta",
                always_empty, t("Always an empty list.", "Toujours une liste vide.", "Immer eine leere Liste.", "Siempre una lista vacía."),
            ),
            (
                "url",
                B::uri, t(
                        "The public archive page of the term.",
                        "La page d'archive publique du terme.",
                        "Die öffentliche Archivseite des Begriffs.",
                        "La página de archivo pública del término.",
                    ),
            ),
            ("urls", term_urls_ref, TERM_URLS),
            (
                "_links",
                term_links, t(
                        "Links to the term in the CMS's core interface, by relation; not in delete responses.",
                        "Les liens vers le terme dans l'interface principale du CMS, par relation ; absents des réponses de suppression.",
                        "Links zum Begriff in der Kernschnittstelle des CMS, nach Beziehung; nicht in Antworten auf Löschungen.",
                        "Los enlaces al término en la interfaz principal del CMS, por relación; no aparecen en las respuestas de borrado.",
                    ),
            ),];

/// `[]`, always.
fn always_empty(b: &B, text: Text) -> Value {
    b.with(empty_list(), text)
}

/// Links by relation, each a list of objects.
fn term_links(b: &B, text: Text) -> Value {
    b.with(json!({"type": "object", "additionalProperties": {"type": "array", "items": {"type": "object"}}}), text)
}

fn term_urls_ref(b: &B, text: Text) -> Value {
    b.reference("TermUrls", text)
}

pub(super) fn term(b: &B) -> Value {
    object(rows(b, TERM), &["id", "count", "description", "name", "slug", "taxonomy", "meta", "url", "urls"])
}

pub(super) fn event_term(b: &B) -> Value {
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
        ("taxonomy", taxonomy(b, TERM_TAXONOMY)),
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

pub(super) fn term_urls(b: &B) -> Value {
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
