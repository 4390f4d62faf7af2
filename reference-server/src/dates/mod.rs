//! Dates as a person types them, and time zones.
//!
//! Everything here works on naive wall times (`NaiveDateTime`): a value is either a local wall
//! time in some [`Zone`] or a UTC wall time, and the function names say which. Nothing in this
//! module panics: every calendar computation is checked, and a value that cannot be computed is
//! reported as `None` (or, where the signature has no `Option`, the input is returned unchanged).
//!
//! # Accepted date forms ([`parse_datetime`])
//! - `YYYY-MM-DD`, `YYYY-MM-DD HH:MM[:SS]`, `YYYY-MM-DDTHH:MM[:SS]` (wall time in the zone);
//! - the same with fractional seconds and an offset (`Z`, `+02:00`, `+0200`, `+02`, `UTC`,
//!   `GMT`): the instant is converted into the zone;
//! - a Unix timestamp written as digits: the instant is converted into the zone;
//! - English forms: `now`, `today`, `tomorrow`, `yesterday`, `midnight`, `noon`, a time of day
//!   alone (`9am`, `16:30`), weekdays with `next` / `last` / `previous` / `this`, relative amounts
//!   (`+5 weeks`, `-2 months`, `3 days ago`, `next month`, `+1 week 2 days`), month-name dates
//!   (`December 25, 2026`, `25 December 2026`, `Dec 25th`), `MM/DD/YYYY`, and any of these with a
//!   time of day (`tomorrow 9am`, `next wednesday 4pm`, `2018-01-01 4pm`, `noon tomorrow`).
//!
//! # Layout
//! `zone` (time zones), `format` (how the API writes dates), `parse` (the entry point), with
//! `offset` (how a UTC offset is written, for both `zone` and `format`),
//! `numeric` and `natural` for the two families of forms, `cursor` (reading bytes) and `arith`
//! (checked arithmetic, the year range).

mod arith;
mod cursor;
mod format;
mod natural;
mod numeric;
mod offset;
mod parse;
mod plugin_offsets;
#[cfg(test)]
mod test_support;
mod zone;

pub use format::{details, end_of_day, format_wp, iso_with_offset, start_of_day};
pub use parse::parse_datetime;
pub use plugin_offsets::converting_zone;
pub use zone::Zone;
