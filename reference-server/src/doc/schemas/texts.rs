//! Descriptions shared by the schemas of events, venues, organizers and terms.

use crate::doc::i18n::{t, Text};

pub(super) const POST_ID: Text =
    t("The post ID.", "L'ID de la publication.", "Die ID des Beitrags.", "El ID de la entrada.");

pub(super) const STATUS: Text =
    t("The post status.", "Le statut de publication.", "Der Beitragsstatus.", "El estado de publicación.");

pub(super) const DATE: Text = t(
    "The publication date, in the site's time zone.",
    "La date de publication, dans le fuseau horaire du site.",
    "Das Veröffentlichungsdatum, in der Zeitzone der Website.",
    "La fecha de publicación, en la zona horaria del sitio.",
);

pub(super) const DATE_UTC: Text = t(
    "The publication date in UTC; 0000-00-00 00:00:00 if the item was never published.",
    "La date de publication en UTC ; 0000-00-00 00:00:00 si l'élément n'a jamais été publié.",
    "Das Veröffentlichungsdatum in UTC; 0000-00-00 00:00:00, wenn der Eintrag nie veröffentlicht wurde.",
    "La fecha de publicación en UTC; 0000-00-00 00:00:00 si el elemento nunca se publicó.",
);

pub(super) const MODIFIED: Text = t(
    "The date of the last change, in the site's time zone.",
    "La date de la dernière modification, dans le fuseau horaire du site.",
    "Das Datum der letzten Änderung, in der Zeitzone der Website.",
    "La fecha del último cambio, en la zona horaria del sitio.",
);

pub(super) const MODIFIED_UTC: Text = t(
    "The date of the last change, in UTC.",
    "La date de la dernière modification, en UTC.",
    "Das Datum der letzten Änderung, in UTC.",
    "La fecha del último cambio, en UTC.",
);

pub(super) const URL: Text = t(
    "The address of the item's public page.",
    "L'adresse de la page publique de l'élément.",
    "Die Adresse der öffentlichen Seite des Eintrags.",
    "La dirección de la página pública del elemento.",
);

pub(super) const GLOBAL_ID: Text = t(
    "An identifier unique across sites: the site's host and path, then ?id= and the post ID.",
    "Un identifiant unique d'un site à l'autre : l'hôte et le chemin du site, puis ?id= et l'ID de la publication.",
    "Eine websiteübergreifend eindeutige Kennung: Host und Pfad der Website, dann ?id= und die ID des Beitrags.",
    "Un identificador único entre sitios: el host y la ruta del sitio, seguidos de ?id= y el ID de la entrada.",
);

pub(super) const GLOBAL_ID_LINEAGE: Text = t(
    "The global IDs the item comes from, its own first.",
    "Les identifiants globaux dont l'élément est issu, le sien en premier.",
    "Die globalen Kennungen, von denen der Eintrag abstammt, die eigene zuerst.",
    "Los identificadores globales de los que procede el elemento, el suyo primero.",
);

pub(super) const JSON_LD: Text = t(
    "Structured data about the item (schema.org); only when one item is read.",
    "Données structurées sur l'élément (schema.org) ; uniquement à la lecture d'un seul élément.",
    "Strukturierte Daten zum Eintrag (schema.org); nur beim Lesen eines einzelnen Eintrags.",
    "Datos estructurados sobre el elemento (schema.org); solo al leer un único elemento.",
);
