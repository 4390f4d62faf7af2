//! The demo calendar of `--demo`: a few dozen upcoming events with venues, organizers,
//! categories and tags, in several languages and time zones.
//!
//! Everything is described by the tables below and built by [`load`] the way the API builds
//! records: slugs unique per kind and language, UTC times computed from local times in each
//! event's zone, term counts kept by the store. Dates are relative to the server's clock (event
//! `day` is the number of days after today in the event's zone), so the calendar is always
//! upcoming, and nothing is random: the same clock gives the same calendar.

use std::collections::HashMap;

use chrono::{Days, Duration, NaiveDateTime, NaiveTime};
use serde_json::Value;

use crate::app::App;
use crate::config::Role;
use crate::cost::store_cost;
use crate::dates::{end_of_day, start_of_day, Zone};
use crate::model::{Event, Id, Lang, Organizer, Post, Status, Taxonomy, Term, Venue};
use crate::store::{Data, SlugKind};
use crate::text::sanitize_title;

// ----- the tables -----

/// A venue; `zone` is the time zone of the events held there.
struct VenueSpec {
    key: &'static str,
    lang: Lang,
    name: &'static str,
    description: &'static str,
    address: &'static str,
    city: &'static str,
    state: &'static str,
    province: &'static str,
    zip: &'static str,
    country: &'static str,
    phone: &'static str,
    website: &'static str,
    geo: Option<(f64, f64)>,
    zone: &'static str,
}

struct OrganizerSpec {
    key: &'static str,
    lang: Lang,
    name: &'static str,
    description: &'static str,
    phone: &'static str,
    website: &'static str,
    email: &'static str,
}

/// A category or tag; `parent` is the key of another category.
struct TermSpec {
    key: &'static str,
    lang: Lang,
    name: &'static str,
    description: &'static str,
    parent: Option<&'static str>,
}

/// How long an event lasts.
#[derive(Clone, Copy)]
enum Length {
    Minutes(i64),
    /// All day, over this many days.
    AllDays(u64),
}

/// Who writes a post.
#[derive(Clone, Copy)]
enum Writer {
    /// The users who may publish, in turn.
    Publisher,
    /// The first user with this role (user 1 when there is none).
    First(Role),
}

struct EventSpec {
    lang: Lang,
    title: &'static str,
    description: &'static str,
    /// Days after today (in the event's zone).
    day: u64,
    /// Local start time, `HH:MM` (ignored for all-day events).
    at: &'static str,
    length: Length,
    /// The event's zone; `None`: the venue's, else UTC.
    zone: Option<&'static str>,
    venue: Option<&'static str>,
    organizers: &'static [&'static str],
    categories: &'static [&'static str],
    tags: &'static [&'static str],
    /// As a client would send it; empty for no cost.
    cost: &'static str,
    website: Option<&'static str>,
    featured: bool,
    sticky: bool,
    ticketed: bool,
    hidden: bool,
    /// Shows one of the site's sample images.
    image: bool,
    status: Status,
    writer: Writer,
}

/// What the event table leaves out.
const EVENT: EventSpec = EventSpec {
    lang: Lang::En,
    title: "",
    description: "",
    day: 1,
    at: "19:00",
    length: Length::Minutes(120),
    zone: None,
    venue: None,
    organizers: &[],
    categories: &[],
    tags: &[],
    cost: "",
    website: None,
    featured: false,
    sticky: false,
    ticketed: false,
    hidden: false,
    image: false,
    status: Status::Publish,
    writer: Writer::Publisher,
};

const VENUES: &[VenueSpec] = &[
    VenueSpec {
        key: "hudson",
        lang: Lang::En,
        name: "Hudson Riverside Hall",
        description: "A converted warehouse on the West Side with a 400-seat hall and a rooftop terrace.",
        address: "601 W 26th St",
        city: "New York",
        state: "NY",
        province: "",
        zip: "10001",
        country: "United States",
        phone: "+1 212 555 0142",
        website: "https://hudson-riverside.example",
        geo: Some((40.7506, -74.0068)),
        zone: "America/New_York",
    },
    VenueSpec {
        key: "garden",
        lang: Lang::En,
        name: "Prospect Community Garden",
        description: "A volunteer-run garden in Park Slope with raised beds, a pergola and picnic tables.",
        address: "325 7th Ave",
        city: "Brooklyn",
        state: "NY",
        province: "",
        zip: "11215",
        country: "United States",
        phone: "",
        website: "",
        geo: None,
        zone: "America/New_York",
    },
    VenueSpec {
        key: "meadows",
        lang: Lang::En,
        name: "Greenfield Meadows",
        description: "Forty acres of farmland in the Hudson Valley, two hours north of the city.",
        address: "1200 County Route 9",
        city: "Hudson",
        state: "NY",
        province: "",
        zip: "12534",
        country: "United States",
        phone: "+1 518 555 0177",
        website: "https://greenfield-meadows.example",
        geo: None,
        zone: "America/New_York",
    },
    VenueSpec {
        key: "shibuya",
        lang: Lang::En,
        name: "Shibuya Stream Hall",
        description: "An event space above the Shibuya River, five minutes from the station.",
        address: "3-21-3 Shibuya",
        city: "Tokyo",
        state: "",
        province: "Tokyo",
        zip: "150-0002",
        country: "Japan",
        phone: "+81 3 5555 0188",
        website: "https://shibuya-stream-hall.example",
        geo: Some((35.6575, 139.7030)),
        zone: "Asia/Tokyo",
    },
    VenueSpec {
        key: "koramangala",
        lang: Lang::En,
        name: "Koramangala Makers Hub",
        description: "A co-working space with a 120-seat auditorium and a fully equipped maker lab.",
        address: "80 Feet Road, 4th Block",
        city: "Bengaluru",
        state: "",
        province: "Karnataka",
        zip: "560034",
        country: "India",
        phone: "+91 80 5555 0131",
        website: "https://makers-hub.example",
        geo: Some((12.9352, 77.6245)),
        zone: "UTC+5:30",
    },
    VenueSpec {
        key: "marais",
        lang: Lang::Fr,
        name: "Théâtre du Marais",
        description: "Une petite salle de 180 places au cœur du Marais, consacrée au théâtre et à la musique.",
        address: "37 rue Volta",
        city: "Paris",
        state: "",
        province: "Île-de-France",
        zip: "75003",
        country: "France",
        phone: "+33 1 55 55 01 23",
        website: "https://theatre-du-marais.example",
        geo: Some((48.8650, 2.3580)),
        zone: "Europe/Paris",
    },
    VenueSpec {
        key: "spreeufer",
        lang: Lang::De,
        name: "Kulturhaus am Spreeufer",
        description: "Ein ehemaliges Lagerhaus direkt an der Spree mit Saal, Galerie und Biergarten.",
        address: "Holzmarktstraße 25",
        city: "Berlin",
        state: "",
        province: "Berlin",
        zip: "10243",
        country: "Deutschland",
        phone: "+49 30 5555 0100",
        website: "https://kulturhaus-spreeufer.example",
        geo: Some((52.5114, 13.4246)),
        zone: "Europe/Berlin",
    },
    VenueSpec {
        key: "latina",
        lang: Lang::Es,
        name: "Centro Cultural La Latina",
        description: "Un centro cultural de barrio con cocina abierta, patio y sala de conciertos.",
        address: "Calle de Toledo 52",
        city: "Madrid",
        state: "",
        province: "Comunidad de Madrid",
        zip: "28005",
        country: "España",
        phone: "+34 91 555 0100",
        website: "",
        geo: None,
        zone: "Europe/Madrid",
    },
];

const ORGANIZERS: &[OrganizerSpec] = &[
    OrganizerSpec {
        key: "arts",
        lang: Lang::En,
        name: "City Arts Collective",
        description: "A non-profit that has run concerts, workshops and festivals in New York since 2009.",
        phone: "+1 212 555 0199",
        website: "https://cityarts.example",
        email: "hello@cityarts.example",
    },
    OrganizerSpec {
        key: "tokyo-dev",
        lang: Lang::En,
        name: "Tokyo Developers Circle",
        description: "A bilingual community of software developers meeting in Tokyo every month.",
        phone: "+81 3 5555 0123",
        website: "https://tokyodev.example",
        email: "team@tokyodev.example",
    },
    OrganizerSpec {
        key: "oss-blr",
        lang: Lang::En,
        name: "Open Source Bengaluru",
        description: "Volunteers who bring open-source contributors and companies together in Bengaluru.",
        phone: "+91 80 5555 0110",
        website: "https://osblr.example",
        email: "hello@osblr.example",
    },
    OrganizerSpec {
        key: "remote",
        lang: Lang::En,
        name: "Remote Work Guild",
        description: "An online community for people who work from anywhere.",
        phone: "",
        website: "https://remoteguild.example",
        email: "events@remoteguild.example",
    },
    OrganizerSpec {
        key: "marais",
        lang: Lang::Fr,
        name: "Association culturelle du Marais",
        description: "Une association de quartier qui organise concerts, ateliers et spectacles toute l’année.",
        phone: "+33 1 55 55 04 56",
        website: "https://culture-marais.example",
        email: "contact@culture-marais.example",
    },
    OrganizerSpec {
        key: "kulturverein",
        lang: Lang::De,
        name: "Berliner Kulturverein",
        description: "Ein gemeinnütziger Verein für Lesungen, Konzerte und Nachbarschaftsfeste.",
        phone: "+49 30 5555 0177",
        website: "https://kulturverein.example",
        email: "info@kulturverein.example",
    },
    OrganizerSpec {
        key: "colectivo",
        lang: Lang::Es,
        name: "Colectivo Cultural Lavapiés",
        description: "Un colectivo de vecinos que organiza talleres, rutas y noches de música en Madrid.",
        phone: "+34 91 555 0177",
        website: "https://colectivo-lavapies.example",
        email: "hola@colectivo-lavapies.example",
    },
];

const fn term(key: &'static str, lang: Lang, name: &'static str, description: &'static str) -> TermSpec {
    TermSpec { key, lang, name, description, parent: None }
}

const CATEGORIES: &[TermSpec] = &[
    term("music", Lang::En, "Music", "Concerts, jam sessions and listening parties."),
    TermSpec { parent: Some("music"), ..term("jazz", Lang::En, "Jazz", "From big band to late-night trios.") },
    term("tech", Lang::En, "Technology", "Meetups, talks and hack days for people who build software."),
    term("workshops", Lang::En, "Workshops", "Hands-on classes where you make or learn something."),
    term("food", Lang::En, "Food & Drink", "Tastings, markets and cooking classes."),
    term("arts", Lang::En, "Arts & Culture", "Exhibitions, crafts and performances."),
    term("community", Lang::En, "Community", "Neighbourhood gatherings and volunteer days."),
    term("outdoors", Lang::En, "Sports & Outdoors", "Events in parks, gardens and the open air."),
    term("theatre-fr", Lang::Fr, "Théâtre", "Pièces, lectures et ateliers de théâtre."),
    term("music-fr", Lang::Fr, "Musique", "Concerts et soirées musicales."),
    term("culture-de", Lang::De, "Kultur", "Lesungen, Märkte und Ausstellungen."),
    term("music-de", Lang::De, "Musik", "Konzerte und Clubnächte."),
    term("food-es", Lang::Es, "Gastronomía", "Rutas de tapas y talleres de cocina."),
    term("music-es", Lang::Es, "Música", "Conciertos y noches de flamenco."),
];

const TAGS: &[TermSpec] = &[
    term("family", Lang::En, "Family friendly", ""),
    term("outdoor", Lang::En, "Outdoor", ""),
    term("live", Lang::En, "Live music", ""),
    term("beginner", Lang::En, "Beginner friendly", ""),
    term("networking", Lang::En, "Networking", ""),
    term("online", Lang::En, "Online", ""),
    term("evening", Lang::En, "Evening", ""),
    term("hands-on", Lang::En, "Hands-on", ""),
    term("family-fr", Lang::Fr, "En famille", ""),
    term("family-de", Lang::De, "Familienfreundlich", ""),
    term("outdoor-es", Lang::Es, "Al aire libre", ""),
];

const EVENTS: &[EventSpec] = &[
    // New York
    EventSpec {
        title: "Late Night Jazz at the Hudson",
        description: "The Marcus Reed Trio plays two sets of standards and originals. Doors open at 8:30pm.",
        day: 2,
        at: "21:00",
        length: Length::Minutes(150),
        venue: Some("hudson"),
        organizers: &["arts"],
        categories: &["jazz"],
        tags: &["live", "evening"],
        cost: "$25",
        website: Some("https://hudson-riverside.example/late-night-jazz"),
        featured: true,
        ticketed: true,
        image: true,
        ..EVENT
    },
    EventSpec {
        title: "Community Garden Volunteer Morning",
        description: "Help us build new raised beds and plant the next crops. Gloves and tools provided.",
        day: 4,
        at: "09:00",
        length: Length::Minutes(180),
        venue: Some("garden"),
        organizers: &["arts"],
        categories: &["community", "outdoors"],
        tags: &["family", "outdoor"],
        cost: "Free",
        ..EVENT
    },
    EventSpec {
        title: "Intro to Screen Printing",
        description: "Print your own tote bag in this two-and-a-half-hour beginners' class. All materials included.",
        day: 6,
        at: "18:30",
        length: Length::Minutes(150),
        venue: Some("hudson"),
        organizers: &["arts"],
        categories: &["workshops", "arts"],
        tags: &["hands-on", "beginner"],
        cost: "$40",
        ..EVENT
    },
    EventSpec {
        title: "Farmers' Market Tasting Walk",
        description: "A guided walk through the weekend market with tastings from a dozen local growers.",
        day: 9,
        at: "10:00",
        venue: Some("garden"),
        organizers: &["arts"],
        categories: &["food", "outdoors"],
        tags: &["outdoor", "family"],
        cost: "$12.50",
        ..EVENT
    },
    EventSpec {
        title: "Jazz Jam Session",
        description: "Bring your instrument: the house band opens, then the stage is yours.",
        day: 13,
        at: "20:00",
        length: Length::Minutes(180),
        venue: Some("hudson"),
        organizers: &["arts"],
        categories: &["jazz"],
        tags: &["live", "evening"],
        cost: "$10",
        ..EVENT
    },
    EventSpec {
        title: "Volunteer Briefing: Festival Crew",
        description: "Shift assignments and a site walkthrough for festival volunteers.",
        day: 15,
        at: "18:00",
        length: Length::Minutes(60),
        venue: Some("hudson"),
        organizers: &["arts"],
        categories: &["community"],
        cost: "Free",
        hidden: true,
        ..EVENT
    },
    EventSpec {
        title: "Gallery Night: New York Printmakers",
        description: "Meet twelve local printmakers and see their new work. Wine and snacks served.",
        day: 16,
        at: "18:00",
        length: Length::Minutes(180),
        venue: Some("hudson"),
        organizers: &["arts"],
        categories: &["arts"],
        tags: &["evening", "networking"],
        cost: "Free",
        ..EVENT
    },
    EventSpec {
        title: "Hudson Valley Folk & Food Festival",
        description: "Three days of live music, farm food and workshops for all ages. \
                      Camping is available on site.",
        day: 20,
        length: Length::AllDays(3),
        venue: Some("meadows"),
        organizers: &["arts"],
        categories: &["music", "food", "community"],
        tags: &["family", "outdoor", "live"],
        cost: "10, 20",
        website: Some("https://harvestfest.example"),
        featured: true,
        sticky: true,
        image: true,
        ..EVENT
    },
    EventSpec {
        title: "Morning Yoga in the Garden",
        description: "An hour of gentle yoga among the flower beds. Bring a mat; all levels welcome.",
        day: 24,
        at: "07:00",
        length: Length::Minutes(60),
        venue: Some("garden"),
        organizers: &["arts"],
        categories: &["outdoors", "community"],
        tags: &["outdoor", "beginner"],
        cost: "Free",
        ..EVENT
    },
    EventSpec {
        title: "Big Band Brunch",
        description: "A seventeen-piece big band and a three-course brunch on the rooftop terrace.",
        day: 30,
        at: "11:00",
        venue: Some("hudson"),
        organizers: &["arts"],
        categories: &["jazz", "food"],
        tags: &["live", "family"],
        cost: "$35",
        website: Some("https://hudson-riverside.example/big-band-brunch"),
        ticketed: true,
        ..EVENT
    },
    EventSpec {
        title: "Ceramics for Beginners",
        description: "Learn to centre clay and throw your first bowl on the wheel.",
        day: 37,
        at: "18:30",
        venue: Some("hudson"),
        organizers: &["arts"],
        categories: &["workshops", "arts"],
        tags: &["hands-on", "beginner"],
        cost: "$45",
        ..EVENT
    },
    EventSpec {
        title: "Community Potluck Picnic",
        description: "Bring a dish to share and meet your neighbours. Lawn games for the kids.",
        day: 44,
        at: "12:00",
        length: Length::Minutes(180),
        venue: Some("garden"),
        organizers: &["arts"],
        categories: &["food", "community"],
        tags: &["family", "outdoor"],
        cost: "Free",
        ..EVENT
    },
    EventSpec {
        title: "Jazz Piano Masterclass",
        description: "Voicings, comping and reharmonisation, with time for questions at the piano.",
        day: 52,
        at: "14:00",
        venue: Some("hudson"),
        organizers: &["arts"],
        categories: &["jazz", "workshops"],
        tags: &["hands-on"],
        cost: "$30",
        status: Status::Draft,
        writer: Writer::First(Role::Author),
        ..EVENT
    },
    EventSpec {
        title: "Street Photography Walk",
        description: "Two hours of shooting around Park Slope with tips on light and composition.",
        day: 58,
        at: "16:00",
        venue: Some("garden"),
        organizers: &["arts"],
        categories: &["arts", "outdoors"],
        tags: &["outdoor", "beginner"],
        cost: "$15",
        status: Status::Pending,
        writer: Writer::First(Role::Contributor),
        ..EVENT
    },
    // Tokyo
    EventSpec {
        title: "Rust Tokyo Meetup",
        description: "Three short talks on async Rust, embedded Rust and WebAssembly, then pizza.",
        day: 3,
        at: "19:00",
        length: Length::Minutes(150),
        venue: Some("shibuya"),
        organizers: &["tokyo-dev"],
        categories: &["tech"],
        tags: &["networking", "beginner"],
        cost: "Free",
        featured: true,
        image: true,
        ..EVENT
    },
    EventSpec {
        title: "Hands-on WebAssembly Workshop",
        description: "Build and ship a small WebAssembly module in an afternoon. Bring a laptop.",
        day: 10,
        at: "13:00",
        length: Length::Minutes(240),
        venue: Some("shibuya"),
        organizers: &["tokyo-dev"],
        categories: &["tech", "workshops"],
        tags: &["hands-on"],
        cost: "¥3000",
        ..EVENT
    },
    EventSpec {
        title: "Tokyo Indie Game Showcase",
        description: "Play twenty unreleased games and vote for your favourite.",
        day: 17,
        at: "18:00",
        length: Length::Minutes(180),
        venue: Some("shibuya"),
        organizers: &["tokyo-dev"],
        categories: &["tech", "arts"],
        tags: &["networking", "evening"],
        cost: "¥1500",
        ..EVENT
    },
    EventSpec {
        title: "Shibuya Acoustic Night",
        description: "Singer-songwriters from across Japan play short unplugged sets.",
        day: 25,
        at: "19:30",
        venue: Some("shibuya"),
        organizers: &["tokyo-dev"],
        categories: &["music"],
        tags: &["live", "evening"],
        cost: "¥2500",
        ..EVENT
    },
    EventSpec {
        title: "Machine Learning Study Group",
        description: "This month: reading and discussing a classic paper on attention.",
        day: 32,
        venue: Some("shibuya"),
        organizers: &["tokyo-dev"],
        categories: &["tech"],
        tags: &["beginner", "networking"],
        cost: "Free",
        ..EVENT
    },
    EventSpec {
        title: "Ramen & Code Social",
        description: "An informal evening of ramen and side projects. Everyone pays for their own bowl.",
        day: 39,
        at: "18:30",
        venue: Some("shibuya"),
        organizers: &["tokyo-dev"],
        categories: &["food", "tech"],
        tags: &["networking"],
        cost: "¥2000",
        ..EVENT
    },
    EventSpec {
        title: "Open Source Sprint Day",
        description: "Pair up with maintainers and land your first pull request. Lunch provided.",
        day: 47,
        at: "10:00",
        length: Length::Minutes(480),
        venue: Some("shibuya"),
        organizers: &["tokyo-dev"],
        categories: &["tech", "community"],
        tags: &["hands-on"],
        cost: "Free",
        ..EVENT
    },
    // Bengaluru
    EventSpec {
        title: "Bengaluru Open Source Day",
        description: "A full day of talks, lightning demos and contribution tables for thirty projects.",
        day: 5,
        at: "10:00",
        length: Length::Minutes(420),
        venue: Some("koramangala"),
        organizers: &["oss-blr"],
        categories: &["tech", "community"],
        tags: &["networking", "hands-on"],
        cost: "Free",
        featured: true,
        sticky: true,
        ..EVENT
    },
    EventSpec {
        title: "Carnatic Fusion Evening",
        description: "Violin, mridangam and electric bass in an evening of new Carnatic fusion.",
        day: 12,
        length: Length::Minutes(150),
        venue: Some("koramangala"),
        organizers: &["oss-blr"],
        categories: &["music"],
        tags: &["live", "evening"],
        cost: "₹500",
        ..EVENT
    },
    EventSpec {
        title: "Startup Pitch Night",
        description: "Eight early-stage teams pitch to a panel of founders and investors.",
        day: 19,
        at: "18:00",
        length: Length::Minutes(180),
        venue: Some("koramangala"),
        organizers: &["oss-blr"],
        categories: &["tech", "community"],
        tags: &["networking", "evening"],
        cost: "₹300",
        ..EVENT
    },
    EventSpec {
        title: "Kubernetes Hands-on Lab",
        description: "Deploy, scale and debug a small service on a real cluster. Laptops required.",
        day: 27,
        at: "10:00",
        length: Length::Minutes(360),
        venue: Some("koramangala"),
        organizers: &["oss-blr"],
        categories: &["tech", "workshops"],
        tags: &["hands-on"],
        cost: "₹1200",
        ..EVENT
    },
    EventSpec {
        title: "South Indian Street Food Trail",
        description: "Dosas, vadas and filter coffee at six stalls around Koramangala.",
        day: 34,
        at: "17:00",
        length: Length::Minutes(150),
        venue: Some("koramangala"),
        organizers: &["oss-blr"],
        categories: &["food", "outdoors"],
        tags: &["outdoor", "family"],
        cost: "₹800",
        ..EVENT
    },
    EventSpec {
        title: "Design Systems Workshop",
        description: "Turn a messy interface into a small set of reusable components.",
        day: 49,
        at: "14:00",
        length: Length::Minutes(180),
        venue: Some("koramangala"),
        organizers: &["oss-blr"],
        categories: &["workshops", "arts"],
        tags: &["hands-on", "beginner"],
        cost: "₹600",
        ..EVENT
    },
    // Online
    EventSpec {
        title: "Remote Work Roundtable",
        description: "An open conversation about rituals, tools and boundaries for distributed teams.",
        day: 7,
        at: "15:00",
        length: Length::Minutes(90),
        zone: Some("UTC"),
        organizers: &["remote"],
        categories: &["community", "tech"],
        tags: &["online", "networking"],
        cost: "Free",
        ..EVENT
    },
    EventSpec {
        title: "Writing Better API Docs",
        description: "A one-hour webinar on reference pages, examples and changelogs people actually read.",
        day: 14,
        at: "16:00",
        length: Length::Minutes(60),
        zone: Some("UTC"),
        organizers: &["remote"],
        categories: &["tech", "workshops"],
        tags: &["online", "beginner"],
        cost: "Free",
        ..EVENT
    },
    EventSpec {
        title: "Global Jazz Listening Party",
        description: "We play a classic album start to finish and chat about it as it spins.",
        day: 22,
        at: "20:00",
        zone: Some("UTC"),
        organizers: &["remote"],
        categories: &["jazz"],
        tags: &["online", "live"],
        cost: "Free",
        ..EVENT
    },
    EventSpec {
        title: "Open Data Europe Webinar",
        description: "How European cities publish transport and budget data, with live examples from Paris.",
        day: 28,
        at: "10:00",
        length: Length::Minutes(90),
        zone: Some("Europe/Paris"),
        organizers: &["remote"],
        categories: &["tech"],
        tags: &["online"],
        cost: "Free",
        ..EVENT
    },
    EventSpec {
        title: "Async Collaboration Clinic",
        description: "Bring a real problem from your team and leave with a written process for it.",
        day: 41,
        at: "14:00",
        length: Length::Minutes(90),
        zone: Some("UTC"),
        organizers: &["remote"],
        categories: &["workshops", "community"],
        tags: &["online"],
        cost: "Free",
        ..EVENT
    },
    EventSpec {
        title: "Sourdough Baking Live Class",
        description: "Bake along from your own kitchen: starter, shaping and scoring.",
        day: 55,
        at: "09:00",
        zone: Some("UTC"),
        organizers: &["remote"],
        categories: &["food", "workshops"],
        tags: &["online", "hands-on", "family"],
        cost: "$20",
        ..EVENT
    },
    EventSpec {
        title: "Community Town Hall",
        description: "Plans for the coming months, a look at the budget and your questions.",
        day: 59,
        at: "17:00",
        length: Length::Minutes(60),
        zone: Some("UTC"),
        organizers: &["remote"],
        categories: &["community"],
        tags: &["online"],
        cost: "Free",
        ..EVENT
    },
    // Paris
    EventSpec {
        lang: Lang::Fr,
        title: "Soirée jazz manouche",
        description: "Le trio Django Swing revisite les classiques de Django Reinhardt.",
        day: 8,
        at: "20:30",
        venue: Some("marais"),
        organizers: &["marais"],
        categories: &["music-fr"],
        cost: "€15",
        featured: true,
        ..EVENT
    },
    EventSpec {
        lang: Lang::Fr,
        title: "Atelier théâtre pour enfants",
        description: "Deux heures de jeux et d’improvisation pour les 7 à 12 ans.",
        day: 18,
        at: "14:00",
        venue: Some("marais"),
        organizers: &["marais"],
        categories: &["theatre-fr"],
        tags: &["family-fr"],
        cost: "€8",
        ..EVENT
    },
    EventSpec {
        lang: Lang::Fr,
        title: "Concert de musique baroque",
        description: "L’ensemble Les Folies joue Rameau et Couperin sur instruments d’époque.",
        day: 35,
        venue: Some("marais"),
        organizers: &["marais"],
        categories: &["music-fr"],
        cost: "€12",
        ..EVENT
    },
    // Berlin
    EventSpec {
        lang: Lang::De,
        title: "Lesung: Neue Berliner Literatur",
        description: "Drei junge Autorinnen lesen aus ihren Debütromanen, danach Gespräch mit dem Publikum.",
        day: 11,
        at: "19:30",
        length: Length::Minutes(90),
        venue: Some("spreeufer"),
        organizers: &["kulturverein"],
        categories: &["culture-de"],
        cost: "€10",
        ..EVENT
    },
    EventSpec {
        lang: Lang::De,
        title: "Elektronische Musik am Fluss",
        description: "Live-Sets und DJs im Saal und im Biergarten bis in den Morgen.",
        day: 26,
        at: "22:00",
        length: Length::Minutes(300),
        venue: Some("spreeufer"),
        organizers: &["kulturverein"],
        categories: &["music-de"],
        cost: "€18",
        ..EVENT
    },
    EventSpec {
        lang: Lang::De,
        title: "Familienflohmarkt",
        description: "Kinderkleidung, Spielzeug und Bücher, dazu Kuchen und Kaffee.",
        day: 45,
        at: "10:00",
        length: Length::Minutes(300),
        venue: Some("spreeufer"),
        organizers: &["kulturverein"],
        categories: &["culture-de"],
        tags: &["family-de"],
        cost: "Free",
        ..EVENT
    },
    // Madrid
    EventSpec {
        lang: Lang::Es,
        title: "Ruta de tapas por La Latina",
        description: "Un recorrido por cinco bares históricos del barrio con una tapa y una bebida en cada uno.",
        day: 9,
        at: "20:00",
        length: Length::Minutes(150),
        venue: Some("latina"),
        organizers: &["colectivo"],
        categories: &["food-es"],
        tags: &["outdoor-es"],
        cost: "€25",
        ..EVENT
    },
    EventSpec {
        lang: Lang::Es,
        title: "Taller de cocina: paella valenciana",
        description: "Aprende a preparar una paella auténtica y cómetela con el grupo.",
        day: 23,
        at: "11:00",
        length: Length::Minutes(180),
        venue: Some("latina"),
        organizers: &["colectivo"],
        categories: &["food-es"],
        cost: "€30",
        website: Some("https://colectivo-lavapies.example/paella"),
        ticketed: true,
        ..EVENT
    },
    EventSpec {
        lang: Lang::Es,
        title: "Noche de flamenco",
        description: "Cante, toque y baile con artistas del barrio en el patio del centro.",
        day: 38,
        at: "21:30",
        venue: Some("latina"),
        organizers: &["colectivo"],
        categories: &["music-es"],
        cost: "€20",
        ..EVENT
    },
];

// ----- building -----

/// Fills the store with the demo calendar.
pub fn load(app: &App) {
    let mut data = app.store.write();
    fill(app, &mut data);
}

/// Adds the demo calendar to `data` (a store being built: an admin reset builds it aside and
/// swaps it in whole).
pub fn fill(app: &App, data: &mut Data) {
    let mut builder = Builder::new(app, data);
    for spec in ORGANIZERS {
        builder.organizer(spec);
    }
    for spec in VENUES {
        builder.venue(spec);
    }
    for spec in CATEGORIES {
        builder.term(spec, Taxonomy::Category);
    }
    for spec in TAGS {
        builder.term(spec, Taxonomy::Tag);
    }
    for spec in EVENTS {
        builder.event(spec);
    }
}

struct Builder<'a> {
    app: &'a App,
    data: &'a mut Data,
    now: NaiveDateTime,
    /// Users who may publish, taken in turn for published posts.
    publishers: Vec<Id>,
    /// Posts made so far: each is published a few hours after the one before.
    made: i64,
    /// The sample images of the media library, for events that show one.
    images: Vec<Id>,
    images_used: usize,
    venues: HashMap<&'static str, (Id, &'static str)>,
    organizers: HashMap<&'static str, Id>,
    terms: HashMap<(Taxonomy, &'static str), Id>,
}

impl<'a> Builder<'a> {
    fn new(app: &'a App, data: &'a mut Data) -> Builder<'a> {
        let users = (1..).map_while(|id| app.users.get(id));
        let mut publishers: Vec<Id> = users.filter(|user| user.can_publish()).map(|user| user.id).collect();
        if publishers.is_empty() {
            publishers.push(1);
        }
        let mut images: Vec<Id> = data.images.keys().copied().collect();
        images.sort_unstable();
        Builder {
            app,
            data,
            now: app.clock.now(),
            publishers,
            made: 0,
            images,
            images_used: 0,
            venues: HashMap::new(),
            organizers: HashMap::new(),
            terms: HashMap::new(),
        }
    }

    fn author(&self, writer: Writer) -> Id {
        match writer {
            Writer::Publisher => self.publishers[self.made as usize % self.publishers.len()],
            Writer::First(role) => {
                (1..).map_while(|id| self.app.users.get(id)).find(|user| user.role == role).map_or(1, |user| user.id)
            }
        }
    }

    /// A new post's common fields, as the API's `new_post` makes them (the ID comes later).
    fn post(
        &mut self,
        kind: SlugKind,
        lang: Lang,
        title: &str,
        description: &str,
        status: Status,
        writer: Writer,
    ) -> Post {
        let author = self.author(writer);
        // Published over the last month, oldest first, a few hours apart.
        let published = self.now - Duration::days(30) + Duration::hours(3 * self.made);
        self.made += 1;
        let date = self.app.site_zone.utc_to_local(published);
        let slug = self.data.unique_slug(kind, lang, &sanitize_title(title), None);
        Post {
            id: 0,
            author,
            status,
            lang,
            slug: slug.into(),
            title: title.into(),
            content: format!("<p>{description}</p>").into(),
            excerpt: Box::from(""),
            date,
            date_utc: matches!(status, Status::Publish | Status::Future | Status::Private).then_some(published),
            modified: date,
            modified_utc: published,
            image: None,
            password: None,
            trashed: None,
        }
    }

    fn organizer(&mut self, spec: &OrganizerSpec) {
        let mut post =
            self.post(SlugKind::Organizer, spec.lang, spec.name, spec.description, Status::Publish, Writer::Publisher);
        post.id = self.data.allocate_post_id();
        self.organizers.insert(spec.key, post.id);
        self.data.put_organizer(Organizer {
            post,
            phone: spec.phone.into(),
            website: spec.website.into(),
            email: spec.email.into(),
        });
    }

    fn venue(&mut self, spec: &VenueSpec) {
        let mut post =
            self.post(SlugKind::Venue, spec.lang, spec.name, spec.description, Status::Publish, Writer::Publisher);
        post.id = self.data.allocate_post_id();
        self.venues.insert(spec.key, (post.id, spec.zone));
        // As the plugin fills it: the state for US addresses, else the province.
        let stateprovince = if spec.country == "United States" { spec.state } else { spec.province };
        self.data.put_venue(Venue {
            post,
            address: spec.address.into(),
            city: spec.city.into(),
            country: spec.country.into(),
            province: spec.province.into(),
            state: spec.state.into(),
            zip: spec.zip.into(),
            phone: spec.phone.into(),
            stateprovince: stateprovince.into(),
            website: spec.website.into(),
            show_map: None,
            show_map_link: None,
            geo: spec.geo.filter(|_| self.app.config.features.geoloc),
        });
    }

    fn term(&mut self, spec: &TermSpec, taxonomy: Taxonomy) {
        let id = self.data.allocate_term_id();
        let slug = self.data.unique_slug(SlugKind::from(taxonomy), spec.lang, &sanitize_title(spec.name), None);
        let parent = spec.parent.and_then(|key| self.terms.get(&(taxonomy, key)).copied()).unwrap_or(0);
        self.terms.insert((taxonomy, spec.key), id);
        self.data.put_term(Term {
            id,
            taxonomy,
            name: spec.name.into(),
            slug: slug.into(),
            description: spec.description.into(),
            parent,
            lang: spec.lang,
            count: 0,
        });
    }

    fn event(&mut self, spec: &EventSpec) {
        let venue = spec.venue.and_then(|key| self.venues.get(key).copied());
        let zone = spec
            .zone
            .or(venue.map(|(_, zone)| zone))
            .and_then(Zone::parse)
            .unwrap_or_else(|| Zone::parse("UTC").unwrap_or_else(|| self.app.site_zone.clone()));
        let Some((start, end)) = schedule(spec, &zone, self.now) else { return };
        let mut post = self.post(SlugKind::Event, spec.lang, spec.title, spec.description, spec.status, spec.writer);
        if spec.image && !self.images.is_empty() {
            post.image = Some(self.images[self.images_used % self.images.len()]);
            self.images_used += 1;
        }
        let terms = |taxonomy: Taxonomy, keys: &[&'static str]| -> Vec<Id> {
            keys.iter().filter_map(|key| self.terms.get(&(taxonomy, *key)).copied()).collect()
        };
        let categories = terms(Taxonomy::Category, spec.categories);
        let tags = terms(Taxonomy::Tag, spec.tags);
        let organizers = spec.organizers.iter().filter_map(|key| self.organizers.get(key).copied()).collect();
        let cost = if spec.cost.is_empty() { None } else { store_cost(&Value::from(spec.cost)) };
        post.id = self.data.allocate_post_id();
        self.data.put_event(Event {
            post,
            start_utc: zone.local_to_utc(start),
            end_utc: zone.local_to_utc(end),
            zone,
            start,
            end,
            all_day: matches!(spec.length, Length::AllDays(_)),
            cost: cost.unwrap_or_default(),
            website: spec.website.map(Into::into),
            show_map: venue.is_some(),
            show_map_link: venue.is_some(),
            hide_from_listings: spec.hidden,
            sticky: spec.sticky,
            featured: spec.featured,
            ticketed: spec.ticketed,
            categories,
            tags,
            venue: venue.map(|(id, _)| id),
            organizers,
            parent: None,
        });
    }
}

/// Local start and end of an event in its zone, `spec.day` days after today there. A local
/// time skipped by a clock change is moved forward, as the API's date parsing does.
fn schedule(spec: &EventSpec, zone: &Zone, now: NaiveDateTime) -> Option<(NaiveDateTime, NaiveDateTime)> {
    let day = zone.utc_to_local(now).date().checked_add_days(Days::new(spec.day))?;
    match spec.length {
        Length::Minutes(minutes) => {
            let at = NaiveTime::parse_from_str(spec.at, "%H:%M").ok()?;
            let start = zone.utc_to_local(zone.local_to_utc(day.and_time(at)));
            let end = start.checked_add_signed(Duration::minutes(minutes))?;
            Some((start, zone.utc_to_local(zone.local_to_utc(end))))
        }
        Length::AllDays(days) => {
            let last = day.checked_add_days(Days::new(days.saturating_sub(1)))?;
            Some((start_of_day(day.and_time(NaiveTime::MIN)), end_of_day(last.and_time(NaiveTime::MIN))))
        }
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use chrono::{TimeZone, Utc};

    use super::*;
    use crate::app::Clock;
    use crate::auth::Users;
    use crate::config::{Config, UserSpec};
    use crate::store::Store;

    const SITE: &str = "http://demo.test";

    fn demo_app(users: Vec<UserSpec>, at: (i32, u32, u32)) -> App {
        let clock = Utc.with_ymd_and_hms(at.0, at.1, at.2, 12, 0, 0).single();
        let config = Config { demo: true, users, clock, ..Config::ephemeral() };
        let app = App {
            users: Users::new(&config.users),
            store: Store::new(Data::fresh_site(SITE)),
            clock: Clock::new(config.clock),
            site_zone: Zone::parse("UTC").expect("UTC is a zone"),
            site_url: SITE.to_string(),
            config,
        };
        load(&app);
        app
    }

    fn find<'d>(data: &'d Data, title: &str) -> &'d Event {
        data.events.values().find(|event| &*event.post.title == title).expect(title)
    }

    #[test]
    fn every_row_becomes_a_record_with_all_its_links() {
        let app = demo_app(UserSpec::defaults(), (2026, 3, 1));
        let data = app.store.read();
        assert_eq!(data.events.len(), EVENTS.len());
        assert_eq!(data.venues.len(), VENUES.len());
        assert_eq!(data.organizers.len(), ORGANIZERS.len());
        assert_eq!(data.terms.len(), CATEGORIES.len() + TAGS.len());
        for spec in EVENTS {
            let event = find(&data, spec.title);
            assert_eq!(event.post.lang, spec.lang, "{}", spec.title);
            assert_eq!(event.categories.len(), spec.categories.len(), "categories of {}", spec.title);
            assert_eq!(event.tags.len(), spec.tags.len(), "tags of {}", spec.title);
            assert_eq!(event.organizers.len(), spec.organizers.len(), "organizers of {}", spec.title);
            assert_eq!(event.venue.is_some(), spec.venue.is_some(), "venue of {}", spec.title);
            // Linked records are in the event's language.
            let venue_lang = event.venue.map(|id| data.venues[&id].post.lang);
            assert!(venue_lang.is_none_or(|lang| lang == spec.lang), "{}", spec.title);
            for id in event.categories.iter().chain(&event.tags) {
                assert_eq!(data.terms[id].lang, spec.lang, "{}", spec.title);
            }
            let (cost, _) = crate::cost::render_cost(&event.cost);
            assert_eq!(cost.is_empty(), spec.cost.is_empty(), "cost of {}", spec.title);
        }
        let jazz = data.terms.values().find(|t| &*t.name == "Jazz").expect("jazz");
        assert_eq!(data.terms[&jazz.parent].name.as_ref(), "Music");
        // The draft does not count.
        let published = |title: &str| find(&data, title).post.status == Status::Publish;
        assert!(!published("Jazz Piano Masterclass"));
        let jazz_events = EVENTS.iter().filter(|e| e.categories.contains(&"jazz") && published(e.title)).count();
        assert_eq!(jazz.count, jazz_events as u64);
        assert!(data.terms.values().all(|t| t.count > 0), "every term is used by a published event");
    }

    #[test]
    fn events_are_upcoming_in_their_own_zones() {
        let app = demo_app(UserSpec::defaults(), (2026, 10, 20));
        let now = app.clock.now();
        let data = app.store.read();
        let mut zones = HashSet::new();
        for event in data.events.values() {
            assert!(event.start_utc > now && event.start_utc < now + Duration::days(61), "{}", event.post.title);
            assert!(event.end_utc >= event.start_utc, "{}", event.post.title);
            assert_eq!(event.start_utc, event.zone.local_to_utc(event.start));
            assert_eq!(event.end_utc, event.zone.local_to_utc(event.end));
            zones.insert(event.zone.name());
        }
        for zone in ["Europe/Paris", "America/New_York", "Asia/Tokyo", "UTC", "UTC+5:30"] {
            assert!(zones.contains(zone), "{zone}");
        }
        // 2026-10-21 is in daylight saving time in New York, 4 hours behind UTC.
        let jazz = find(&data, "Late Night Jazz at the Hudson");
        assert_eq!(jazz.start.to_string(), "2026-10-22 21:00:00");
        assert_eq!(jazz.start_utc.to_string(), "2026-10-23 01:00:00");
        let open_source = find(&data, "Bengaluru Open Source Day");
        assert_eq!(open_source.start_utc.to_string(), "2026-10-25 04:30:00");
        let festival = find(&data, "Hudson Valley Folk & Food Festival");
        assert!(festival.all_day);
        assert_eq!((festival.start.to_string(), festival.end.to_string()), {
            ("2026-11-09 00:00:00".to_string(), "2026-11-11 23:59:59".to_string())
        });
        // Wall-clock times stay put across the clock change of early November.
        let masterclass = find(&data, "Jazz Piano Masterclass");
        assert_eq!(masterclass.start.to_string(), "2026-12-11 14:00:00");
        assert_eq!(masterclass.start_utc.to_string(), "2026-12-11 19:00:00");
    }

    #[test]
    fn slugs_are_unique_and_records_are_like_api_ones() {
        let app = demo_app(UserSpec::defaults(), (2026, 1, 15));
        let data = app.store.read();
        let mut seen = HashSet::new();
        let posts = data
            .events
            .values()
            .map(|e| (SlugKind::Event, &e.post))
            .chain(data.venues.values().map(|v| (SlugKind::Venue, &v.post)))
            .chain(data.organizers.values().map(|o| (SlugKind::Organizer, &o.post)));
        for (kind, post) in posts {
            assert!(!post.slug.is_empty(), "{}", post.title);
            assert!(seen.insert((kind, post.lang, post.slug.clone())), "duplicate slug {}", post.slug);
            assert_eq!(data.slug_owner(kind, post.lang, &post.slug), Some(post.id));
            assert_eq!(post.date_utc.is_some(), post.status == Status::Publish, "{}", post.title);
            assert!(post.date_utc.is_none_or(|at| at < app.clock.now()), "{}", post.title);
        }
        for term in data.terms.values() {
            assert_eq!(data.slug_owner(SlugKind::from(term.taxonomy), term.lang, &term.slug), Some(term.id));
        }
        // Calendar items come after the site's own posts and images.
        assert!(data.venues.keys().chain(data.organizers.keys()).copied().chain(data.events.keys()).all(|id| id > 5));
    }

    #[test]
    fn authors_spread_over_users_who_may_write_them() {
        let app = demo_app(UserSpec::defaults(), (2026, 5, 5));
        let data = app.store.read();
        let authors: HashSet<Id> = data.events.values().map(|e| e.post.author).collect();
        // Administrator, editor and author publish; the author drafts; the contributor submits.
        assert_eq!(authors, HashSet::from([1, 2, 3, 4]));
        assert_eq!(find(&data, "Jazz Piano Masterclass").post.author, 3);
        assert_eq!(find(&data, "Street Photography Walk").post.author, 4);
        assert_eq!(find(&data, "Street Photography Walk").post.status, Status::Pending);
        drop(data);

        let only_admin = vec![UserSpec::defaults().remove(0)];
        let app = demo_app(only_admin, (2026, 5, 5));
        assert!(app.store.read().events.values().all(|e| e.post.author == 1));
        let app = demo_app(Vec::new(), (2026, 5, 5));
        assert!(app.store.read().events.values().all(|e| e.post.author == 1));
    }

    #[test]
    fn the_same_clock_gives_the_same_calendar() {
        let snapshot = || {
            let app = demo_app(UserSpec::defaults(), (2027, 2, 2));
            let data = app.store.read();
            let mut rows: Vec<(Id, String, NaiveDateTime, NaiveDateTime)> =
                data.events.values().map(|e| (e.post.id, e.post.slug.to_string(), e.start_utc, e.end_utc)).collect();
            rows.sort();
            rows
        };
        assert_eq!(snapshot(), snapshot());
    }
}
