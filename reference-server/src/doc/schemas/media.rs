//! Images and their sizes.

use serde_json::{json, Value};

use super::builder::{object, B};
use crate::doc::i18n::{t, Text};

const FILESIZE: Text = t(
    "The file size in bytes; only when known.",
    "La taille du fichier en octets ; uniquement si elle est connue.",
    "Die Dateigröße in Bytes; nur, wenn sie bekannt ist.",
    "El tamaño del archivo en bytes; solo si se conoce.",
);

const HEIGHT: Text = t("The height in pixels.", "La hauteur en pixels.", "Die Höhe in Pixeln.", "El alto en píxeles.");

const WIDTH: Text = t("The width in pixels.", "La largeur en pixels.", "Die Breite in Pixeln.", "El ancho en píxeles.");

pub(super) fn image(b: &B) -> Value {
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

pub(super) fn image_size(b: &B) -> Value {
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
