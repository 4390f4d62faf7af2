//! The namespace index, route and argument descriptions, and the document itself.

use serde_json::{json, Value};

use super::builder::{object, rows, Row, B};
use super::envelopes::links_of;
use crate::doc::i18n::{t, Text};

pub(super) fn namespace_index(b: &B) -> Value {
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

/// A list of HTTP methods.
fn methods(b: &B, text: Text) -> Value {
    b.with(
        json!({"type": "array", "items": {"type": "string", "enum": ["GET", "POST", "PUT", "PATCH", "DELETE"]}}),
        text,
    )
}

/// One operation of a route: its methods and arguments.
fn endpoint(b: &B) -> Value {
    object(
        vec![
            (
                "methods",
                methods(
                    b,
                    t(
                        "The methods of this operation.",
                        "Les méthodes de cette opération.",
                        "Die Methoden dieser Operation.",
                        "Los métodos de esta operación.",
                    ),
                ),
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
    )
}

/// The fields of a route's description.
const ROUTE: &[Row] = &[
    (
        "namespace",
        B::string,
        t(
            "The namespace of the route.",
            "L'espace de noms de la route.",
            "Der Namensraum der Route.",
            "El espacio de nombres de la ruta.",
        ),
    ),
    (
        "methods",
        methods,
        t(
            "The HTTP methods the route answers.",
            "Les méthodes HTTP auxquelles la route répond.",
            "Die HTTP-Methoden, auf die die Route antwortet.",
            "Los métodos HTTP a los que responde la ruta.",
        ),
    ),
    (
        "endpoints",
        endpoints,
        t(
            "The route's operations; methods that share their arguments are grouped.",
            "Les opérations de la route ; les méthodes qui partagent leurs arguments sont regroupées.",
            "Die Operationen der Route; Methoden mit denselben Argumenten sind zusammengefasst.",
            "Las operaciones de la ruta; los métodos que comparten argumentos se agrupan.",
        ),
    ),
    (
        "_links",
        self_link,
        t(
            "The route's own address; only for routes without path variables.",
            "L'adresse de la route ; uniquement pour les routes sans variable de chemin.",
            "Die Adresse der Route; nur bei Routen ohne Pfadvariablen.",
            "La dirección de la ruta; solo en las rutas sin variables de ruta.",
        ),
    ),
];

/// The operations of a route.
fn endpoints(b: &B, text: Text) -> Value {
    b.with(json!({"type": "array", "items": endpoint(b)}), text)
}

fn self_link(b: &B, text: Text) -> Value {
    links_of(b, "self", text)
}

pub(super) fn route_description(b: &B) -> Value {
    object(rows(b, ROUTE), &["namespace", "methods", "endpoints"])
}

/// The fields of an argument's description.
const ARG: &[Row] = &[
    (
        "default",
        any_value,
        t(
            "The value used when the argument is not given.",
            "La valeur utilisée si l'argument n'est pas fourni.",
            "Der Wert, der gilt, wenn das Argument fehlt.",
            "El valor que se usa si no se da el argumento.",
        ),
    ),
    (
        "description",
        B::string,
        t(
            "What the argument means, in the request's language.",
            "Ce que signifie l'argument, dans la langue de la requête.",
            "Was das Argument bedeutet, in der Sprache der Anfrage.",
            "Lo que significa el argumento, en el idioma de la solicitud.",
        ),
    ),
    (
        "type",
        value_type,
        t(
            "The JSON type of the value; absent when any value is checked by its rule alone.",
            "Le type JSON de la valeur ; absent si seule sa règle vérifie la valeur.",
            "Der JSON-Typ des Werts; fehlt, wenn nur die Regel den Wert prüft.",
            "El tipo JSON del valor; ausente si solo su regla comprueba el valor.",
        ),
    ),
    (
        "items",
        item_type,
        t(
            "The type of the items of a list.",
            "Le type des éléments d'une liste.",
            "Der Typ der Elemente einer Liste.",
            "El tipo de los elementos de una lista.",
        ),
    ),
    (
        "enum",
        B::strings,
        t("The allowed values.", "Les valeurs autorisées.", "Die zulässigen Werte.", "Los valores permitidos."),
    ),
    (
        "required",
        B::boolean,
        t(
            "Whether the argument must be given.",
            "Indique si l'argument est obligatoire.",
            "Ob das Argument angegeben werden muss.",
            "Indica si el argumento es obligatorio.",
        ),
    ),
];

/// A value of any type, or null.
fn any_value(b: &B, text: Text) -> Value {
    b.with(json!({"nullable": true}), text)
}

fn value_type(b: &B, text: Text) -> Value {
    b.with(json!({"type": "string", "enum": ["string", "integer", "number", "boolean", "array"]}), text)
}

fn item_type(b: &B, text: Text) -> Value {
    b.with(object(vec![("type", json!({"type": "string", "enum": ["string", "integer"]}))], &["type"]), text)
}

pub(super) fn arg_description(b: &B) -> Value {
    object(rows(b, ARG), &["description", "required"])
}

pub(super) fn openapi_document(b: &B) -> Value {
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
