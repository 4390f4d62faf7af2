//! Checked arithmetic on wall times, and the range of years a date may have.

use chrono::{Datelike, Duration, NaiveDateTime};

/// Smallest and largest calendar year a parsed date may have.
pub(super) const MIN_YEAR: i32 = 1;

pub(super) const MAX_YEAR: i32 = 9999;

pub(super) fn shift(dt: NaiveDateTime, seconds: i64) -> Option<NaiveDateTime> {
    dt.checked_add_signed(Duration::try_seconds(seconds)?)
}

pub(super) fn in_range(dt: NaiveDateTime) -> Option<NaiveDateTime> {
    (MIN_YEAR..=MAX_YEAR).contains(&dt.year()).then_some(dt)
}

pub(super) fn all_digits(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit())
}
