//! The wording of parameter and field descriptions in the four languages of the interface.
//!
//! Argument descriptions live in English in the route table (`interface`); this table gives
//! each one its French, German and Spanish wording, keyed by the English text. A unit test
//! checks that every description of the route table has its translations, so changing an
//! English description in the table means updating its entry here.

use crate::model::Lang;

/// One text in English, French, German and Spanish.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Text {
    pub en: &'static str,
    pub fr: &'static str,
    pub de: &'static str,
    pub es: &'static str,
}

impl Text {
    pub fn get(self, lang: Lang) -> &'static str {
        match lang {
            Lang::En => self.en,
            Lang::Fr => self.fr,
            Lang::De => self.de,
            Lang::Es => self.es,
        }
    }
}

pub const fn t(en: &'static str, fr: &'static str, de: &'static str, es: &'static str) -> Text {
    Text { en, fr, de, es }
}

/// Appended to the description of every date argument.
pub const DATE_FORMS: Text = t(
    "Accepted forms: YYYY-MM-DD, YYYY-MM-DD HH:MM[:SS], ISO 8601 with T and a time zone offset or Z, a Unix timestamp, or English relative expressions such as now, tomorrow 9am or +5 weeks.",
    "Formes acceptées : AAAA-MM-JJ, AAAA-MM-JJ HH:MM[:SS], ISO 8601 avec T et un décalage horaire ou Z, un horodatage Unix, ou des expressions relatives en anglais comme now, tomorrow 9am ou +5 weeks.",
    "Akzeptierte Formen: JJJJ-MM-TT, JJJJ-MM-TT HH:MM[:SS], ISO 8601 mit T und einem Zeitzonenversatz oder Z, ein Unix-Zeitstempel oder englische relative Angaben wie now, tomorrow 9am oder +5 weeks.",
    "Formas aceptadas: AAAA-MM-DD, AAAA-MM-DD HH:MM[:SS], ISO 8601 con T y un desfase horario o Z, una marca de tiempo Unix o expresiones relativas en inglés como now, tomorrow 9am o +5 weeks.",
);

/// The language parameter, on every operation.
pub const LANGUAGE_PARAM: Text = t(
    "The language of the request: en, fr, de or es; by default, the language of the base address.",
    "La langue de la requête : en, fr, de ou es ; par défaut, la langue de l'adresse de base.",
    "Die Sprache der Anfrage: en, fr, de oder es; standardmäßig die Sprache der Basisadresse.",
    "El idioma de la solicitud: en, fr, de o es; por defecto, el idioma de la dirección base.",
);

/// The argument descriptions of the route table, by their English text.
const ARGS: &[Text] = &[
    // Lists
    t(
        "The archive page to return.",
        "La page de la liste à renvoyer.",
        "Die Seite der Liste, die zurückgegeben wird.",
        "La página de la lista que se devuelve.",
    ),
    t(
        "The number of items to return per page (at most 50).",
        "Le nombre d'éléments renvoyés par page (50 au plus).",
        "Die Anzahl der Einträge pro Seite (höchstens 50).",
        "El número de elementos por página (50 como máximo).",
    ),
    t(
        "Post status, or a comma-separated list of them; users who may not edit posts can only ask for publish.",
        "Statut de publication, ou une liste de statuts séparés par des virgules ; les utilisateurs qui ne peuvent pas modifier de contenus ne peuvent demander que publish.",
        "Beitragsstatus oder eine kommagetrennte Liste davon; Benutzer ohne Bearbeitungsrecht können nur publish anfragen.",
        "Estado de publicación, o una lista de estados separados por comas; los usuarios que no pueden editar entradas solo pueden pedir publish.",
    ),
    // Events list
    t(
        "Events that start on or after this date.",
        "Les événements qui commencent à cette date ou après.",
        "Veranstaltungen, die an diesem Datum oder danach beginnen.",
        "Los eventos que empiezan en esta fecha o después.",
    ),
    t(
        "Events that end on or before this date.",
        "Les événements qui se terminent à cette date ou avant.",
        "Veranstaltungen, die an diesem Datum oder davor enden.",
        "Los eventos que terminan en esta fecha o antes.",
    ),
    t(
        "Events whose title or description contains this text.",
        "Les événements dont le titre ou la description contient ce texte.",
        "Veranstaltungen, deren Titel oder Beschreibung diesen Text enthält.",
        "Los eventos cuyo título o descripción contiene este texto.",
    ),
    t(
        "Events in any of these categories (IDs or slugs).",
        "Les événements classés dans l'une de ces catégories (ID ou slugs).",
        "Veranstaltungen in einer dieser Kategorien (IDs oder Slugs).",
        "Los eventos de cualquiera de estas categorías (ID o slugs).",
    ),
    t(
        "Events with any of these tags (IDs or slugs).",
        "Les événements portant l'une de ces étiquettes (ID ou slugs).",
        "Veranstaltungen mit einem dieser Schlagwörter (IDs oder Slugs).",
        "Los eventos con cualquiera de estas etiquetas (ID o slugs).",
    ),
    t(
        "Events at any of these venues (IDs).",
        "Les événements qui ont lieu dans l'un de ces lieux (ID).",
        "Veranstaltungen an einem dieser Veranstaltungsorte (IDs).",
        "Los eventos celebrados en cualquiera de estos lugares (ID).",
    ),
    t(
        "Events by any of these organizers (IDs).",
        "Les événements de l'un de ces organisateurs (ID).",
        "Veranstaltungen eines dieser Veranstalter (IDs).",
        "Los eventos de cualquiera de estos organizadores (ID).",
    ),
    t(
        "Only featured events (true) or only events that are not (false).",
        "Uniquement les événements mis en avant (true) ou uniquement les autres (false).",
        "Nur hervorgehobene Veranstaltungen (true) oder nur nicht hervorgehobene (false).",
        "Solo los eventos destacados (true) o solo los que no lo están (false).",
    ),
    t(
        "Only events whose venue has coordinates (true) or has none (false).",
        "Uniquement les événements dont le lieu a des coordonnées (true) ou n'en a pas (false).",
        "Nur Veranstaltungen, deren Ort Koordinaten hat (true) oder keine hat (false).",
        "Solo los eventos cuyo lugar tiene coordenadas (true) o no las tiene (false).",
    ),
    t(
        "Latitude of a point: only events whose venue lies within 25 km of it; needs geoloc_lng.",
        "Latitude d'un point : uniquement les événements dont le lieu se trouve à 25 km au plus de ce point ; geoloc_lng est alors requis.",
        "Breitengrad eines Punkts: nur Veranstaltungen, deren Ort höchstens 25 km davon entfernt liegt; erfordert geoloc_lng.",
        "Latitud de un punto: solo los eventos cuyo lugar está a 25 km o menos de él; requiere geoloc_lng.",
    ),
    t(
        "Longitude of a point: only events whose venue lies within 25 km of it; needs geoloc_lat.",
        "Longitude d'un point : uniquement les événements dont le lieu se trouve à 25 km au plus de ce point ; geoloc_lat est alors requis.",
        "Längengrad eines Punkts: nur Veranstaltungen, deren Ort höchstens 25 km davon entfernt liegt; erfordert geoloc_lat.",
        "Longitud de un punto: solo los eventos cuyo lugar está a 25 km o menos de él; requiere geoloc_lat.",
    ),
    t(
        "Events whose parent event is this ID.",
        "Les événements dont l'événement parent a cet ID.",
        "Veranstaltungen, deren übergeordnete Veranstaltung diese ID hat.",
        "Los eventos cuyo evento padre tiene este ID.",
    ),
    t(
        "Only these event IDs (a list or comma-separated); date filters are then ignored.",
        "Uniquement ces ID d'événements (une liste ou des valeurs séparées par des virgules) ; les filtres de date sont alors ignorés.",
        "Nur diese Veranstaltungs-IDs (als Liste oder kommagetrennt); Datumsfilter werden dann ignoriert.",
        "Solo estos ID de eventos (una lista o valores separados por comas); en ese caso se ignoran los filtros de fecha.",
    ),
    t(
        "Events that start before this date.",
        "Les événements qui commencent avant cette date.",
        "Veranstaltungen, die vor diesem Datum beginnen.",
        "Los eventos que empiezan antes de esta fecha.",
    ),
    t(
        "Events that start after this date.",
        "Les événements qui commencent après cette date.",
        "Veranstaltungen, die nach diesem Datum beginnen.",
        "Los eventos que empiezan después de esta fecha.",
    ),
    t(
        "Events that end before this date.",
        "Les événements qui se terminent avant cette date.",
        "Veranstaltungen, die vor diesem Datum enden.",
        "Los eventos que terminan antes de esta fecha.",
    ),
    t(
        "Events that end after this date.",
        "Les événements qui se terminent après cette date.",
        "Veranstaltungen, die nach diesem Datum enden.",
        "Los eventos que terminan después de esta fecha.",
    ),
    t(
        "When true, date filters apply at the exact times given; when false (the default), they cover whole days.",
        "Avec true, les filtres de date s'appliquent aux heures exactes indiquées ; avec false (par défaut), ils couvrent des journées entières.",
        "Bei true gelten die Datumsfilter genau zu den angegebenen Uhrzeiten; bei false (Standard) umfassen sie ganze Tage.",
        "Con true, los filtros de fecha se aplican a las horas exactas indicadas; con false (el valor predeterminado), abarcan días completos.",
    ),
    t(
        "Only events with tickets (true) or without (false).",
        "Uniquement les événements avec billetterie (true) ou sans (false).",
        "Nur Veranstaltungen mit Tickets (true) oder ohne (false).",
        "Solo los eventos con entradas (true) o sin ellas (false).",
    ),
    // Venue and organizer lists
    t(
        "Items whose title, description or details contain this text.",
        "Les éléments dont le titre, la description ou les coordonnées contiennent ce texte.",
        "Einträge, deren Titel, Beschreibung oder Angaben diesen Text enthalten.",
        "Los elementos cuyo título, descripción o datos contienen este texto.",
    ),
    t(
        "Items linked to this event ID.",
        "Les éléments liés à l'événement qui a cet ID.",
        "Einträge, die mit der Veranstaltung mit dieser ID verknüpft sind.",
        "Los elementos vinculados al evento con este ID.",
    ),
    t(
        "Only items linked to events (true) or to none (false).",
        "Uniquement les éléments liés à des événements (true) ou à aucun (false).",
        "Nur Einträge, die mit Veranstaltungen verknüpft sind (true) oder mit keiner (false).",
        "Solo los elementos vinculados a eventos (true) o a ninguno (false).",
    ),
    t(
        "Only items linked to upcoming events.",
        "Uniquement les éléments liés à des événements à venir.",
        "Nur Einträge, die mit bevorstehenden Veranstaltungen verknüpft sind.",
        "Solo los elementos vinculados a eventos próximos.",
    ),
    // Category and tag lists
    t(
        "Terms whose name or slug contains this text.",
        "Les termes dont le nom ou le slug contient ce texte.",
        "Begriffe, deren Name oder Slug diesen Text enthält.",
        "Los términos cuyo nombre o slug contiene este texto.",
    ),
    t(
        "Term IDs (or slugs) to leave out.",
        "Les ID (ou slugs) des termes à exclure.",
        "IDs (oder Slugs) der Begriffe, die ausgelassen werden.",
        "Los ID (o slugs) de los términos que se excluyen.",
    ),
    t(
        "Only these term IDs (or slugs).",
        "Uniquement les termes qui ont ces ID (ou slugs).",
        "Nur die Begriffe mit diesen IDs (oder Slugs).",
        "Solo los términos con estos ID (o slugs).",
    ),
    t(
        "Sort direction: asc (the default) or desc.",
        "Sens du tri : asc (par défaut) ou desc.",
        "Sortierrichtung: asc (Standard) oder desc.",
        "Sentido del orden: asc (el valor predeterminado) o desc.",
    ),
    t(
        "Term attribute to sort by: name (the default), slug, id, count, description, parent or include.",
        "Attribut du terme qui sert au tri : name (par défaut), slug, id, count, description, parent ou include.",
        "Attribut des Begriffs, nach dem sortiert wird: name (Standard), slug, id, count, description, parent oder include.",
        "Atributo del término por el que se ordena: name (el valor predeterminado), slug, id, count, description, parent o include.",
    ),
    t(
        "Hide terms not assigned to any event.",
        "Masquer les termes qui ne sont attribués à aucun événement.",
        "Begriffe ausblenden, die keiner Veranstaltung zugeordnet sind.",
        "Ocultar los términos que no están asignados a ningún evento.",
    ),
    t(
        "Only the direct children of this category (ID or slug).",
        "Uniquement les enfants directs de cette catégorie (ID ou slug).",
        "Nur die direkten Unterkategorien dieser Kategorie (ID oder Slug).",
        "Solo los hijos directos de esta categoría (ID o slug).",
    ),
    t(
        "Terms assigned to this event ID.",
        "Les termes attribués à l'événement qui a cet ID.",
        "Begriffe, die der Veranstaltung mit dieser ID zugeordnet sind.",
        "Los términos asignados al evento con este ID.",
    ),
    t(
        "Terms assigned to this event ID (alias of post; wins over it).",
        "Les termes attribués à l'événement qui a cet ID (alias de post, prioritaire sur lui).",
        "Begriffe, die der Veranstaltung mit dieser ID zugeordnet sind (Alias von post, hat Vorrang davor).",
        "Los términos asignados al evento con este ID (alias de post, con prioridad sobre él).",
    ),
    t("Terms with this slug.", "Les termes qui ont ce slug.", "Begriffe mit diesem Slug.", "Los términos con este slug."),
    // Event fields
    t(
        "The ID of the event's author.",
        "L'ID de l'auteur de l'événement.",
        "Die ID des Autors der Veranstaltung.",
        "El ID del autor del evento.",
    ),
    t("The publication date.", "La date de publication.", "Das Veröffentlichungsdatum.", "La fecha de publicación."),
    t(
        "The publication date in UTC.",
        "La date de publication en UTC.",
        "Das Veröffentlichungsdatum in UTC.",
        "La fecha de publicación en UTC.",
    ),
    t("The event title.", "Le titre de l'événement.", "Der Titel der Veranstaltung.", "El título del evento."),
    t(
        "The event description (HTML allowed).",
        "La description de l'événement (HTML autorisé).",
        "Die Beschreibung der Veranstaltung (HTML erlaubt).",
        "La descripción del evento (se admite HTML).",
    ),
    t("The event slug.", "Le slug de l'événement.", "Der Slug der Veranstaltung.", "El slug del evento."),
    t("The event excerpt.", "L'extrait de l'événement.", "Der Textauszug der Veranstaltung.", "El extracto del evento."),
    t("The post status.", "Le statut de publication.", "Der Beitragsstatus.", "El estado de publicación."),
    t(
        "The event time zone: an IANA name (such as Europe/Paris) or UTC±N.",
        "Le fuseau horaire de l'événement : un nom IANA (comme Europe/Paris) ou UTC±N.",
        "Die Zeitzone der Veranstaltung: ein IANA-Name (etwa Europe/Paris) oder UTC±N.",
        "La zona horaria del evento: un nombre IANA (como Europe/Paris) o UTC±N.",
    ),
    t(
        "Whether the event lasts all day.",
        "Indique si l'événement dure toute la journée.",
        "Ob die Veranstaltung den ganzen Tag dauert.",
        "Indica si el evento dura todo el día.",
    ),
    t("The start date and time.", "La date et l'heure de début.", "Datum und Uhrzeit des Beginns.", "La fecha y la hora de inicio."),
    t("The end date and time.", "La date et l'heure de fin.", "Datum und Uhrzeit des Endes.", "La fecha y la hora de finalización."),
    t(
        "The featured image: an image ID or an image URL.",
        "L'image mise en avant : l'ID d'une image ou l'URL d'une image.",
        "Das Beitragsbild: die ID oder die URL eines Bildes.",
        "La imagen destacada: el ID o la URL de una imagen.",
    ),
    t(
        "The featured image: an image ID or an image URL; empty removes it.",
        "L'image mise en avant : l'ID d'une image ou l'URL d'une image ; une valeur vide la retire.",
        "Das Beitragsbild: die ID oder die URL eines Bildes; ein leerer Wert entfernt es.",
        "La imagen destacada: el ID o la URL de una imagen; un valor vacío la quita.",
    ),
    t(
        "The cost: a text, a number or a list of them.",
        "Le coût : un texte, un nombre ou une liste de ceux-ci.",
        "Der Preis: ein Text, eine Zahl oder eine Liste davon.",
        "El precio: un texto, un número o una lista de ellos.",
    ),
    t(
        "The event website URL.",
        "L'URL du site web de l'événement.",
        "Die URL der Website der Veranstaltung.",
        "La URL del sitio web del evento.",
    ),
    t("Whether to show a map.", "Indique s'il faut afficher une carte.", "Ob eine Karte angezeigt wird.", "Indica si se muestra un mapa."),
    t(
        "Whether to show a map link.",
        "Indique s'il faut afficher un lien vers une carte.",
        "Ob ein Link zu einer Karte angezeigt wird.",
        "Indica si se muestra un enlace a un mapa.",
    ),
    t(
        "Whether to hide the event from lists.",
        "Indique s'il faut masquer l'événement dans les listes.",
        "Ob die Veranstaltung in Listen ausgeblendet wird.",
        "Indica si el evento se oculta en las listas.",
    ),
    t(
        "Whether the event sticks to the top of the month view.",
        "Indique si l'événement reste épinglé en haut de la vue mensuelle.",
        "Ob die Veranstaltung oben in der Monatsansicht angeheftet bleibt.",
        "Indica si el evento queda fijado en la parte superior de la vista mensual.",
    ),
    t(
        "Whether the event is featured.",
        "Indique si l'événement est mis en avant.",
        "Ob die Veranstaltung hervorgehoben ist.",
        "Indica si el evento está destacado.",
    ),
    t(
        "Categories, as IDs or names (a list or comma-separated text); an unknown name creates the category, an unknown ID is ignored.",
        "Les catégories, par ID ou par nom (une liste ou un texte séparé par des virgules) ; un nom inconnu crée la catégorie, un ID inconnu est ignoré.",
        "Die Kategorien, als IDs oder Namen (eine Liste oder kommagetrennter Text); ein unbekannter Name legt die Kategorie an, eine unbekannte ID wird ignoriert.",
        "Las categorías, por ID o por nombre (una lista o un texto separado por comas); un nombre desconocido crea la categoría y un ID desconocido se ignora.",
    ),
    t(
        "Tags, as IDs or names (a list or comma-separated text); an unknown name creates the tag, an unknown ID is ignored.",
        "Les étiquettes, par ID ou par nom (une liste ou un texte séparé par des virgules) ; un nom inconnu crée l'étiquette, un ID inconnu est ignoré.",
        "Die Schlagwörter, als IDs oder Namen (eine Liste oder kommagetrennter Text); ein unbekannter Name legt das Schlagwort an, eine unbekannte ID wird ignoriert.",
        "Las etiquetas, por ID o por nombre (una lista o un texto separado por comas); un nombre desconocido crea la etiqueta y un ID desconocido se ignora.",
    ),
    t(
        "The venue: its ID, an object with its id, or the fields of a new venue; empty unlinks it.",
        "Le lieu : son ID, un objet qui contient son id, ou les champs d'un nouveau lieu ; une valeur vide le dissocie.",
        "Der Veranstaltungsort: seine ID, ein Objekt mit seiner id oder die Felder eines neuen Orts; ein leerer Wert hebt die Verknüpfung auf.",
        "El lugar: su ID, un objeto con su id o los campos de un lugar nuevo; un valor vacío lo desvincula.",
    ),
    t(
        "The organizers: IDs, objects with an id, or the fields of new organizers; an empty list unlinks them.",
        "Les organisateurs : des ID, des objets qui contiennent un id, ou les champs de nouveaux organisateurs ; une liste vide les dissocie.",
        "Die Veranstalter: IDs, Objekte mit einer id oder die Felder neuer Veranstalter; eine leere Liste hebt die Verknüpfung auf.",
        "Los organizadores: ID, objetos con un id o los campos de organizadores nuevos; una lista vacía los desvincula.",
    ),
    t(
        "A password that protects the event; empty removes it (reference server extension).",
        "Un mot de passe qui protège l'événement ; une valeur vide le retire (extension du serveur de référence).",
        "Ein Passwort, das die Veranstaltung schützt; ein leerer Wert entfernt es (Erweiterung des Referenzservers).",
        "Una contraseña que protege el evento; un valor vacío la quita (extensión del servidor de referencia).",
    ),
    t(
        "Whether the event has tickets (reference server extension).",
        "Indique si l'événement propose des billets (extension du serveur de référence).",
        "Ob es für die Veranstaltung Tickets gibt (Erweiterung des Referenzservers).",
        "Indica si el evento tiene entradas (extensión del servidor de referencia).",
    ),
    t(
        "A new slug for the item (renames it).",
        "Un nouveau slug pour l'élément, qui est alors renommé.",
        "Ein neuer Slug für den Eintrag (benennt ihn um).",
        "Un slug nuevo para el elemento (lo cambia de nombre).",
    ),
    t(
        "The ID of the parent event, for a series (reference server).",
        "L'ID de l'événement parent, pour une série (serveur de référence).",
        "Die ID der übergeordneten Veranstaltung, für eine Reihe (Referenzserver).",
        "El ID del evento padre, para una serie (servidor de referencia).",
    ),
    // Venue fields
    t(
        "The ID of the venue's author.",
        "L'ID de l'auteur du lieu.",
        "Die ID des Autors des Veranstaltungsorts.",
        "El ID del autor del lugar.",
    ),
    t("The venue name.", "Le nom du lieu.", "Der Name des Veranstaltungsorts.", "El nombre del lugar."),
    t(
        "The venue description.",
        "La description du lieu.",
        "Die Beschreibung des Veranstaltungsorts.",
        "La descripción del lugar.",
    ),
    t(
        "Whether events at the venue show a map (a string such as true or false).",
        "Indique si les événements de ce lieu affichent une carte (une chaîne comme true ou false).",
        "Ob Veranstaltungen an diesem Ort eine Karte zeigen (eine Zeichenkette wie true oder false).",
        "Indica si los eventos de este lugar muestran un mapa (una cadena como true o false).",
    ),
    t(
        "Whether events at the venue show a map link (a string such as true or false).",
        "Indique si les événements de ce lieu affichent un lien vers une carte (une chaîne comme true ou false).",
        "Ob Veranstaltungen an diesem Ort einen Link zu einer Karte zeigen (eine Zeichenkette wie true oder false).",
        "Indica si los eventos de este lugar muestran un enlace a un mapa (una cadena como true o false).",
    ),
    t("The street address.", "L'adresse (rue et numéro).", "Die Straßenadresse.", "La dirección (calle y número)."),
    t("The city.", "La ville.", "Die Stadt.", "La ciudad."),
    t("The country.", "Le pays.", "Das Land.", "El país."),
    t("The province.", "La province.", "Die Provinz.", "La provincia."),
    t("The state.", "L'État.", "Der Bundesstaat.", "El estado."),
    t("The ZIP or postal code.", "Le code postal.", "Die Postleitzahl.", "El código postal."),
    t("The phone number.", "Le numéro de téléphone.", "Die Telefonnummer.", "El número de teléfono."),
    t("The state or province.", "L'État ou la province.", "Der Bundesstaat oder die Provinz.", "El estado o la provincia."),
    t(
        "The venue website URL.",
        "L'URL du site web du lieu.",
        "Die URL der Website des Veranstaltungsorts.",
        "La URL del sitio web del lugar.",
    ),
    t(
        "Latitude of the venue (reference server extension).",
        "La latitude du lieu (extension du serveur de référence).",
        "Der Breitengrad des Veranstaltungsorts (Erweiterung des Referenzservers).",
        "La latitud del lugar (extensión del servidor de referencia).",
    ),
    t(
        "Longitude of the venue (reference server extension).",
        "La longitude du lieu (extension du serveur de référence).",
        "Der Längengrad des Veranstaltungsorts (Erweiterung des Referenzservers).",
        "La longitud del lugar (extensión del servidor de referencia).",
    ),
    // Organizer fields
    t(
        "The ID of the organizer's author.",
        "L'ID de l'auteur de l'organisateur.",
        "Die ID des Autors des Veranstalters.",
        "El ID del autor del organizador.",
    ),
    t("The organizer name.", "Le nom de l'organisateur.", "Der Name des Veranstalters.", "El nombre del organizador."),
    t(
        "The organizer description.",
        "La description de l'organisateur.",
        "Die Beschreibung des Veranstalters.",
        "La descripción del organizador.",
    ),
    t(
        "The organizer website URL.",
        "L'URL du site web de l'organisateur.",
        "Die URL der Website des Veranstalters.",
        "La URL del sitio web del organizador.",
    ),
    t("The e-mail address.", "L'adresse e-mail.", "Die E-Mail-Adresse.", "La dirección de correo electrónico."),
    // Term fields
    t("The term name.", "Le nom du terme.", "Der Name des Begriffs.", "El nombre del término."),
    t("The term description.", "La description du terme.", "Die Beschreibung des Begriffs.", "La descripción del término."),
    t("The term slug.", "Le slug du terme.", "Der Slug des Begriffs.", "El slug del término."),
    t(
        "The parent category: its ID or slug.",
        "La catégorie parente : son ID ou son slug.",
        "Die übergeordnete Kategorie: ihre ID oder ihr Slug.",
        "La categoría padre: su ID o su slug.",
    ),
    // Single items
    t("The slug of the item.", "Le slug de l'élément.", "Der Slug des Eintrags.", "El slug del elemento."),
    t("The ID of the item.", "L'ID de l'élément.", "Die ID des Eintrags.", "El ID del elemento."),
    t(
        "The event password, for a password-protected event.",
        "Le mot de passe de l'événement, pour un événement protégé par mot de passe.",
        "Das Passwort der Veranstaltung, für eine passwortgeschützte Veranstaltung.",
        "La contraseña del evento, para un evento protegido con contraseña.",
    ),
    t(
        "With edit, users who may edit a password-protected event see it without the password.",
        "Avec edit, les utilisateurs autorisés à modifier un événement protégé par mot de passe le voient sans le mot de passe.",
        "Mit edit sehen Benutzer, die eine passwortgeschützte Veranstaltung bearbeiten dürfen, sie ohne das Passwort.",
        "Con edit, los usuarios que pueden editar un evento protegido con contraseña lo ven sin la contraseña.",
    ),
    // Namespace index
    t(
        "The namespace to describe.",
        "L'espace de noms à décrire.",
        "Der zu beschreibende Namensraum.",
        "El espacio de nombres que se describe.",
    ),
    t(
        "The scope of the answer: view or help.",
        "La portée de la réponse : view ou help.",
        "Der Umfang der Antwort: view oder help.",
        "El alcance de la respuesta: view o help.",
    ),
];

/// The description of an argument in a language; English when the table has no entry (a unit
/// test makes sure it always has one).
pub fn arg_text(lang: Lang, english: &'static str) -> &'static str {
    ARGS.iter().find(|text| text.en == english).map_or(english, |text| text.get(lang))
}

#[cfg(test)]
pub fn has_translation(english: &str) -> bool {
    ARGS.iter().any(|text| text.en == english)
}

/// Sanity checks of the table: no English text twice, no empty or untranslated wording.
#[cfg(test)]
pub fn check_table() -> Result<(), String> {
    let mut seen = std::collections::HashSet::new();
    for text in ARGS.iter().chain([&DATE_FORMS, &LANGUAGE_PARAM]) {
        if !seen.insert(text.en) {
            return Err(format!("twice in the table: {:?}", text.en));
        }
        for (lang, wording) in [("fr", text.fr), ("de", text.de), ("es", text.es)] {
            if wording.trim().is_empty() || wording == text.en {
                return Err(format!("no {lang} wording for {:?}", text.en));
            }
            if wording.ends_with('.') != text.en.ends_with('.') {
                return Err(format!("{lang} wording of {:?} ends differently", text.en));
            }
        }
    }
    Ok(())
}
