//! The server's shared state and the per-request context handlers work with.

use std::time::Instant;

use chrono::{DateTime, NaiveDateTime, Utc};
use parking_lot::RwLock;

use crate::auth::{User, Users};
use crate::config::Config;
use crate::dates::Zone;
use crate::model::Lang;
use crate::store::Store;

/// The server's clock: real time, or an instant that runs on from when it was set (`--clock`,
/// the admin API), or an instant that stands still (frozen through the admin API).
#[derive(Debug)]
pub struct Clock {
    mode: RwLock<ClockMode>,
}

/// How the clock tells the time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClockMode {
    Real,
    /// It was `at` when the process's monotonic clock read `since`.
    Running {
        at: DateTime<Utc>,
        since: Instant,
    },
    Frozen(DateTime<Utc>),
}

impl Clock {
    pub fn new(start: Option<DateTime<Utc>>) -> Clock {
        let mode = match start {
            Some(at) => ClockMode::Running { at, since: Instant::now() },
            None => ClockMode::Real,
        };
        Clock { mode: RwLock::new(mode) }
    }

    /// Now, in UTC, to the second.
    pub fn now(&self) -> NaiveDateTime {
        let naive = self.instant().naive_utc();
        naive - chrono::Duration::nanoseconds(i64::from(chrono::Timelike::nanosecond(&naive)))
    }

    /// Now, to the nanosecond.
    pub fn instant(&self) -> DateTime<Utc> {
        match *self.mode.read() {
            ClockMode::Real => Utc::now(),
            ClockMode::Running { at, since } => at + chrono::Duration::from_std(since.elapsed()).unwrap_or_default(),
            ClockMode::Frozen(at) => at,
        }
    }

    pub fn mode(&self) -> ClockMode {
        *self.mode.read()
    }

    /// Sets the clock (the admin API).
    pub fn set(&self, mode: ClockMode) {
        *self.mode.write() = mode;
    }
}

/// Everything a request can reach: configuration, users, store and clock.
pub struct App {
    pub config: Config,
    pub users: Users,
    pub store: Store,
    pub clock: Clock,
    pub site_zone: Zone,
    /// `http://host:port` (no trailing slash).
    pub site_url: String,
}

impl App {
    /// `host[/path]` of the site, as `global_id` shows it (the plugin leaves the port out).
    pub fn global_id_base(&self) -> String {
        let rest = self.site_url.split_once("://").map_or(self.site_url.as_str(), |(_, rest)| rest);
        let (host, path) = rest.split_once('/').map_or((rest, ""), |(host, path)| (host, path));
        let host = match host.rsplit_once(':') {
            Some((name, port)) if !name.is_empty() && port.bytes().all(|b| b.is_ascii_digit()) => name,
            _ => host,
        };
        if path.is_empty() {
            host.to_string()
        } else {
            format!("{host}/{path}")
        }
    }
}

/// One request's view of the server.
pub struct Ctx<'a> {
    pub app: &'a App,
    pub user: Option<&'a User>,
    pub lang: Lang,
    /// The API prefix the request came to: `{site}[/{lang}]{root}/{ns}`.
    pub api_base: String,
    pub now: NaiveDateTime,
}

impl Ctx<'_> {
    pub fn logged_in(&self) -> bool {
        self.user.is_some()
    }

    pub fn user_id(&self) -> u64 {
        self.user.map_or(0, |user| user.id)
    }

    /// The site's local time now.
    pub fn local_now(&self) -> NaiveDateTime {
        self.app.site_zone.utc_to_local(self.now)
    }
}
