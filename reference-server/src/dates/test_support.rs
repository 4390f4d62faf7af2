//! What the tests of this module share.

use chrono::NaiveDateTime;

use super::{format_wp, parse_datetime, Zone};

pub(super) fn dt(s: &str) -> NaiveDateTime {
    NaiveDateTime::parse_from_str(s, "%Y-%m-%d %H:%M:%S").expect("test date")
}

/// The instant the recordings were made.
pub(super) fn now() -> NaiveDateTime {
    dt("2026-11-22 01:42:17")
}

pub(super) fn zone(name: &str) -> Zone {
    Zone::parse(name).expect("test zone")
}

pub(super) fn utc() -> Zone {
    zone("UTC")
}

pub(super) fn p(input: &str, z: &Zone) -> Option<String> {
    parse_datetime(input, z, now()).map(format_wp)
}

pub(super) fn pu(input: &str) -> Option<String> {
    p(input, &utc())
}

pub(super) fn some(s: &str) -> Option<String> {
    Some(s.to_string())
}
