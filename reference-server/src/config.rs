//! Everything the command line (or an embedding program) can set.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use chrono::{DateTime, Utc};

pub use crate::faults::RuleSpec as FaultRule;
use crate::quirks::Quirks;

/// A role of the CMS's permission model, from most to least powerful.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Role {
    Administrator,
    Editor,
    Author,
    Contributor,
    Subscriber,
}

impl Role {
    pub const ALL: [Role; 5] = [Role::Administrator, Role::Editor, Role::Author, Role::Contributor, Role::Subscriber];

    pub fn name(self) -> &'static str {
        match self {
            Role::Administrator => "administrator",
            Role::Editor => "editor",
            Role::Author => "author",
            Role::Contributor => "contributor",
            Role::Subscriber => "subscriber",
        }
    }

    pub fn parse(text: &str) -> Option<Role> {
        Role::ALL.into_iter().find(|role| role.name().eq_ignore_ascii_case(text))
    }
}

/// One login the server accepts with HTTP Basic authentication.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UserSpec {
    pub name: String,
    pub password: String,
    pub role: Role,
}

impl UserSpec {
    /// The five default users, one per role, in role order (IDs 1 to 5).
    pub fn defaults() -> Vec<UserSpec> {
        Role::ALL
            .into_iter()
            .map(|role| {
                let name = if role == Role::Administrator { "admin" } else { role.name() };
                UserSpec { name: name.to_string(), password: format!("{name}-password"), role }
            })
            .collect()
    }
}

/// One optional feature of an implementation, by the name both the reference server's
/// `--without` and the conformance runner (its `--without`, the `requires` of case files) use.
#[derive(Clone, Copy, Debug)]
pub struct Feature {
    pub name: &'static str,
    /// One line, for `--help` and the documentation.
    pub description: &'static str,
    /// The reference server can be started without it (its `--without`, `Features`).
    pub switchable: bool,
}

/// Every optional feature: the one list both programs read.
pub const FEATURES: &[Feature] = &[
    Feature {
        name: "fresh-store",
        description: "an empty store: always in embedded mode; against an outside server only with --reset-command",
        switchable: false,
    },
    Feature {
        name: "geoloc",
        description: "the venue geolocation filters (geoloc, geoloc_lat, geoloc_lng) and venues' geo_lat/geo_lng",
        switchable: true,
    },
    Feature {
        name: "tickets",
        description: "the ticketed filter and the events' ticketed flag (a ticketing extension)",
        switchable: true,
    },
    Feature {
        name: "series",
        description: "events take the write field post_parent (the reference server's way to make a child event)",
        switchable: true,
    },
    Feature {
        name: "event-password",
        description: "events take the write field password, on create and on update (the reference server's addition)",
        switchable: true,
    },
    Feature {
        name: "large-store",
        description: "takes hundreds of events in one run: cases that store more than 512 events on one day \
                      (a slow site skips them with --without large-store)",
        switchable: false,
    },
    Feature {
        name: "languages",
        description: "a translation plugin is active: the language parameter scopes lists and by-slug lookups, \
                      items keep the language they were created in, and /{lang}{root}/{ns} serves the API",
        switchable: false,
    },
];

/// Other names accepted for a feature: (alias, feature).
pub const FEATURE_ALIASES: &[(&str, &str)] = &[("password-on-create", "event-password")];

/// The features of `FEATURES` the reference server has or lacks (those it can be without; it
/// always has the others).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Features {
    /// Venue geolocation filters (`geoloc`, `geoloc_lat`, `geoloc_lng`), a premium extension.
    pub geoloc: bool,
    /// The `ticketed` filter, which needs the ticketing extension.
    pub tickets: bool,
    /// The events' write field `post_parent` (series of events).
    pub series: bool,
    /// The events' write field `password`.
    pub event_password: bool,
}

impl Default for Features {
    fn default() -> Self {
        Features { geoloc: true, tickets: true, series: true, event_password: true }
    }
}

impl Features {
    /// Whether the server has the optional feature a parameter or field names (`geoloc`,
    /// `tickets`, `series`, `event-password`); every other name is always on.
    pub fn on(&self, name: &str) -> bool {
        match name {
            "geoloc" => self.geoloc,
            "tickets" => self.tickets,
            "series" => self.series,
            "event-password" => self.event_password,
            _ => true,
        }
    }

    /// Switches a feature off by its name or an alias; false when the server cannot be without
    /// it (it is not switchable, or not a feature).
    pub fn switch_off(&mut self, name: &str) -> bool {
        match feature_name(name) {
            Some("geoloc") => self.geoloc = false,
            Some("tickets") => self.tickets = false,
            Some("series") => self.series = false,
            Some("event-password") => self.event_password = false,
            _ => return false,
        }
        true
    }
}

/// The feature a name or an alias stands for.
pub fn feature_name(name: &str) -> Option<&'static str> {
    let name = FEATURE_ALIASES.iter().find(|(alias, _)| *alias == name).map_or(name, |(_, feature)| feature);
    FEATURES.iter().find(|feature| feature.name == name).map(|feature| feature.name)
}

/// Bounds on what connections may cost: time to send a request, idle time between requests,
/// how many connections are served at once, and how much memory request bodies may hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// From the first byte of a request to the end of its head (request line and headers).
    pub header_timeout: Duration,
    /// From the end of the head to the end of the body.
    pub body_timeout: Duration,
    /// How long a kept-alive connection may wait for its next request.
    pub idle_timeout: Duration,
    /// Connections served at once; more wait to be accepted.
    pub max_connections: usize,
    /// Bytes all request bodies being received may hold together, beyond the first 64 KiB
    /// of each (never less than the 8 MiB a single body may have).
    pub body_memory: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            header_timeout: Duration::from_secs(10),
            body_timeout: Duration::from_secs(30),
            idle_timeout: Duration::from_secs(30),
            max_connections: 512,
            body_memory: 64 * 1024 * 1024,
        }
    }
}

/// The whole configuration of one server.
#[derive(Clone, Debug)]
pub struct Config {
    pub listen: SocketAddr,
    /// REST root path, `/wp-json` by default.
    pub root: String,
    /// Route namespace, `calendar/events/v1` by default.
    pub namespace: String,
    /// Name of the language parameter, `multilingual_language` by default.
    pub language_param: String,
    /// Public address of the site; `http://{bound address}` when not set.
    pub site_url: Option<String>,
    /// Site time zone (IANA name or `UTC±N`).
    pub timezone: String,
    pub users: Vec<UserSpec>,
    /// When set, the server's clock starts at this instant and runs on from there.
    pub clock: Option<DateTime<Utc>>,
    /// Load the demo calendar at start.
    pub demo: bool,
    /// Load this fixture file (JSON, or YAML for `.yaml`/`.yml`) at start; the admin API's
    /// reset returns to it.
    pub fixtures: Option<PathBuf>,
    /// Load this many generated events at start (after the demo calendar, if any), for
    /// benchmarks: the same count and clock give the same calendar.
    pub seed_events: usize,
    pub features: Features,
    /// The plugin's quirks the server reproduces (`--quirk`, `--like`); none by default.
    pub quirks: Quirks,
    pub limits: Limits,
    /// Origins whose browser requests may read answers and write (`Access-Control-Allow-Origin`
    /// with credentials). Empty: every origin, as the CMS does (see the README for the risk).
    pub cors_origins: Vec<String>,
    /// Keep the store in this file across restarts; `None`: in memory only.
    pub state: Option<PathBuf>,
    /// Compact the state file once the records since its image pass this many bytes (and the
    /// image's own size).
    pub state_compact_bytes: u64,
    /// Serve the admin API and the request journal page under `/__admin`.
    pub admin: bool,
    /// Fault rules from the start, and the seed their draws start from.
    pub faults: Vec<FaultRule>,
    pub fault_seed: u64,
    /// How many requests the request journal keeps.
    pub journal_size: usize,
    /// Stub files (`--stub`, YAML or JSON): stubbed answers from the start.
    pub stub_files: Vec<PathBuf>,
    /// The checking proxy: forward every request of the interface to this real site's
    /// `{base_url}` (`https://example.org/wp-json`) and check each exchange (see `proxy`).
    pub proxy_to: Option<String>,
    /// With `proxy_to`: write the exchanges as a case file into this folder.
    pub record: Option<PathBuf>,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            listen: SocketAddr::from(([127, 0, 0, 1], 8080)),
            root: "/wp-json".to_string(),
            namespace: "calendar/events/v1".to_string(),
            language_param: "multilingual_language".to_string(),
            site_url: None,
            timezone: "UTC".to_string(),
            users: UserSpec::defaults(),
            clock: None,
            demo: false,
            fixtures: None,
            seed_events: 0,
            features: Features::default(),
            quirks: Quirks::default(),
            limits: Limits::default(),
            cors_origins: Vec::new(),
            state: None,
            state_compact_bytes: 4 * 1024 * 1024,
            admin: false,
            faults: Vec::new(),
            fault_seed: 0,
            journal_size: 1000,
            stub_files: Vec::new(),
            proxy_to: None,
            record: None,
        }
    }
}

impl Config {
    /// A configuration for tests and embedding: a free port on loopback, defaults otherwise.
    pub fn ephemeral() -> Config {
        Config { listen: SocketAddr::from(([127, 0, 0, 1], 0)), ..Config::default() }
    }
}
