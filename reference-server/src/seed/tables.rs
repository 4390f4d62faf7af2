//! What the generated calendar is made of: cities, names, categories, title words, sentences.

use crate::model::Lang;

/// A city venues are in, with the zone of its events and the language of its venues.
pub struct City {
    pub name: &'static str,
    pub state: &'static str,
    pub province: &'static str,
    pub zip: &'static str,
    pub country: &'static str,
    pub zone: &'static str,
    pub geo: (f64, f64),
    pub lang: Lang,
}

/// `region` is `(state, province)`.
const fn city(
    name: &'static str,
    region: (&'static str, &'static str),
    zip: &'static str,
    country: &'static str,
    zone: &'static str,
    geo: (f64, f64),
    lang: Lang,
) -> City {
    City { name, state: region.0, province: region.1, zip, country, zone, geo, lang }
}

pub const CITIES: &[City] = &[
    city("New York", ("NY", ""), "100", "United States", "America/New_York", (40.71, -74.00), Lang::En),
    city("Chicago", ("IL", ""), "606", "United States", "America/Chicago", (41.88, -87.63), Lang::En),
    city("Denver", ("CO", ""), "802", "United States", "America/Denver", (39.74, -104.99), Lang::En),
    city("Los Angeles", ("CA", ""), "900", "United States", "America/Los_Angeles", (34.05, -118.24), Lang::En),
    city("Toronto", ("", "ON"), "M5V", "Canada", "America/Toronto", (43.65, -79.38), Lang::En),
    city("London", ("", "Greater London"), "EC1", "United Kingdom", "Europe/London", (51.51, -0.13), Lang::En),
    city("Sydney", ("", "NSW"), "20", "Australia", "Australia/Sydney", (-33.87, 151.21), Lang::En),
    city("Tokyo", ("", "Tokyo"), "150-", "Japan", "Asia/Tokyo", (35.66, 139.70), Lang::En),
    city("Bengaluru", ("", "Karnataka"), "5600", "India", "UTC+5:30", (12.97, 77.59), Lang::En),
    city("Auckland", ("", "Auckland"), "10", "New Zealand", "Pacific/Auckland", (-36.85, 174.76), Lang::En),
    city("Paris", ("", "Île-de-France"), "750", "France", "Europe/Paris", (48.86, 2.35), Lang::Fr),
    city("Montréal", ("", "QC"), "H2X", "Canada", "America/Toronto", (45.50, -73.57), Lang::Fr),
    city("Berlin", ("", "Berlin"), "101", "Germany", "Europe/Berlin", (52.52, 13.40), Lang::De),
    city("Madrid", ("", "Madrid"), "280", "Spain", "Europe/Madrid", (40.42, -3.70), Lang::Es),
];

pub const VENUE_NAMES: &[&str] = &[
    "Riverside",
    "Harbour Lights",
    "Maple",
    "Old Mill",
    "Blue Door",
    "Greenfield",
    "Lantern",
    "Northgate",
    "Copper Kettle",
    "Union",
    "Westbank",
    "Foundry",
    "Orchard",
    "Skyline",
    "Canal Street",
    "Elm Tree",
    "Granary",
    "Lighthouse",
    "Parkside",
    "Velvet",
    "Station",
    "Kingfisher",
    "Market Square",
    "Hillcrest",
];

pub const VENUE_KINDS: &[&str] = &[
    "Hall",
    "Community Centre",
    "Theatre",
    "Gallery",
    "Brewery",
    "Library",
    "Park",
    "Studio",
    "Club",
    "Arena",
    "Loft",
    "Garden",
    "Ballroom",
    "Co-working Space",
    "Café",
];

pub const STREETS: &[&str] =
    &["Main St", "Oak Avenue", "Harbour Road", "Station Road", "King Street", "Elm Street", "Bridge Lane", "Park Ave"];

pub const ORGANIZER_NAMES: &[&str] = &[
    "Riverbend",
    "Northside",
    "Lakeshore",
    "Open Source",
    "Downtown",
    "Sunrise",
    "Midtown",
    "Greenway",
    "Eastside",
    "Harbour",
    "Hilltop",
    "Old Town",
    "Westfield",
    "Bayview",
    "Silver Birch",
    "Red Brick",
];

pub const ORGANIZER_KINDS: &[&str] =
    &["Arts Society", "Collective", "Productions", "Club", "Foundation", "Friends", "Meetup Group", "Co-op"];

/// The category tree: `(key, name, parent key)`, parents first. Three levels deep at most.
pub const CATEGORIES: &[(&str, &str, Option<&str>)] = &[
    ("music", "Music", None),
    ("jazz", "Jazz", Some("music")),
    ("big-band", "Big Band", Some("jazz")),
    ("classical", "Classical", Some("music")),
    ("rock", "Rock & Pop", Some("music")),
    ("folk", "Folk", Some("music")),
    ("arts", "Arts & Culture", None),
    ("theatre", "Theatre", Some("arts")),
    ("film", "Film", Some("arts")),
    ("exhibitions", "Exhibitions", Some("arts")),
    ("food", "Food & Drink", None),
    ("wine", "Wine Tasting", Some("food")),
    ("cooking", "Cooking Classes", Some("food")),
    ("sports", "Sports & Fitness", None),
    ("running", "Running", Some("sports")),
    ("yoga", "Yoga", Some("sports")),
    ("tech", "Technology", None),
    ("workshops", "Workshops", Some("tech")),
    ("meetups", "Meetups", Some("tech")),
    ("family", "Family", None),
    ("kids", "Kids", Some("family")),
    ("community", "Community", None),
    ("volunteering", "Volunteering", Some("community")),
    ("markets", "Markets", Some("community")),
    ("education", "Education", None),
    ("lectures", "Lectures", Some("education")),
];

/// Categories of the other languages: `(lang, key, name, parent key)`.
pub const LOCAL_CATEGORIES: &[(Lang, &str, &str, Option<&str>)] = &[
    (Lang::Fr, "music", "Musique", None),
    (Lang::Fr, "jazz", "Jazz manouche", Some("music")),
    (Lang::Fr, "food", "Gastronomie", None),
    (Lang::Fr, "arts", "Arts et culture", None),
    (Lang::De, "music", "Musik", None),
    (Lang::De, "jazz", "Kammermusik", Some("music")),
    (Lang::De, "food", "Essen & Trinken", None),
    (Lang::De, "arts", "Kunst", None),
    (Lang::Es, "music", "Música", None),
    (Lang::Es, "jazz", "Flamenco", Some("music")),
    (Lang::Es, "food", "Gastronomía", None),
    (Lang::Es, "arts", "Arte y cultura", None),
];

/// Title themes and the category (key) each belongs to.
pub const THEMES: &[(&str, &str)] = &[
    ("Jazz", "jazz"),
    ("Swing", "big-band"),
    ("Piano", "classical"),
    ("String Quartet", "classical"),
    ("Indie Rock", "rock"),
    ("Folk & Bluegrass", "folk"),
    ("Shakespeare", "theatre"),
    ("Improv Comedy", "theatre"),
    ("Documentary", "film"),
    ("Silent Film", "film"),
    ("Street Photography", "exhibitions"),
    ("Watercolour", "exhibitions"),
    ("Natural Wine", "wine"),
    ("Pasta Making", "cooking"),
    ("Sourdough", "cooking"),
    ("5K Fun Run", "running"),
    ("Sunrise Yoga", "yoga"),
    ("Rust", "workshops"),
    ("Open Data", "meetups"),
    ("Web Accessibility", "meetups"),
    ("Storytime", "kids"),
    ("LEGO Build", "kids"),
    ("Beach Clean-up", "volunteering"),
    ("Farmers'", "markets"),
    ("Flea", "markets"),
    ("Local History", "lectures"),
    ("Astronomy", "lectures"),
];

pub const ADJECTIVES: &[&str] = &[
    "",
    "",
    "",
    "Late Night",
    "Sunday",
    "Summer",
    "Winter",
    "Beginners'",
    "Community",
    "Annual",
    "Open",
    "Monthly",
    "Intro to",
    "Advanced",
    "Family",
    "Free",
];

pub const FORMATS: &[&str] = &[
    "Night",
    "Workshop",
    "Meetup",
    "Festival",
    "Masterclass",
    "Session",
    "Evening",
    "Weekend",
    "Showcase",
    "Social",
    "Market",
    "Tour",
    "Talk",
    "Jam",
    "Marathon",
    "Fair",
];

/// Words tag names are made of (first × second gives up to 20 × 20 distinct names).
pub const TAG_FIRST: &[&str] = &[
    "outdoor",
    "indoor",
    "free",
    "accessible",
    "beginner",
    "advanced",
    "evening",
    "weekend",
    "family",
    "senior",
    "student",
    "local",
    "live",
    "hands-on",
    "seasonal",
    "charity",
    "members",
    "online",
    "late",
    "early",
];

pub const TAG_SECOND: &[&str] = &[
    "music",
    "food",
    "art",
    "talk",
    "walk",
    "games",
    "film",
    "dance",
    "craft",
    "science",
    "books",
    "history",
    "wellness",
    "market",
    "theatre",
    "networking",
    "coding",
    "photography",
    "nature",
    "comedy",
];

pub const SENTENCES: &[&str] = &[
    "Join us for an evening of live music, good company and the best view in town.",
    "Doors open thirty minutes before the start -- arrive early to get a seat near the front.",
    "Bring a friend, bring your questions, and bring your own cup if you can.",
    "Tickets include a drink at the bar &amp; a programme signed by the performers.",
    "The session is run by <strong>volunteers</strong> from the neighbourhood, as it has been since 2009.",
    "\"It's the highlight of our year,\" says one of the regulars... and we tend to agree.",
    "No experience is needed: everything you need is provided on the day.",
    "The venue is step-free; the nearest station is a five-minute walk away.",
    "We'll finish around 9pm, with time to talk to the speakers afterwards.",
    "Please read the <a href=\"https://example.org/faq\">frequently asked questions</a> before you come.",
    "Children under 12 go free when accompanied by an adult.",
    "Part of a series that runs all season -- each date stands on its own.",
    "Expect a relaxed atmosphere, a 2x2 metre dance floor, and plenty of snacks.",
    "The talk is in English, with slides in French and German.",
    "Seats are limited to 40 people; the waiting list opens once they are gone.",
    "Dress for the weather: we stay outside unless it really pours.",
    "All proceeds go to the local food bank.",
    "Want to help out on the day? Write to the organizers and we'll find you a job.",
];

/// Costs as clients send them; empty for none.
pub const COSTS: &[&str] = &["", "", "", "Free", "$10", "$15 – $25", "20", "€12", "£8.50", "5", "$0 – $40", "Donation"];
