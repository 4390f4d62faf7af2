//! The instants the server's clock may be set to, by `--clock` at the start or by the admin
//! API's clock: only the developer tools set the clock, so the suite's mutation sample leaves
//! this file out (scripts/mutants/sample.py) and the tests below pin it.

use chrono::{DateTime, Utc};

/// The instants the clock may be set to: the site's local date of any of them is written with
/// a four-digit year from 1970 (a day's margin each side covers every UTC offset).
pub fn clock_in_range(at: DateTime<Utc>) -> bool {
    let first = DateTime::from_timestamp(86_400, 0);
    // 9999-12-31T00:00:00Z.
    let last = DateTime::from_timestamp(253_402_214_400, 0);
    first.is_some_and(|first| at >= first) && last.is_some_and(|last| at < last)
}

/// How `clock_in_range` reads in a message.
pub const CLOCK_RANGE: &str = "from 1970-01-02T00:00:00Z to 9999-12-30T23:59:59Z";

#[cfg(test)]
mod tests {
    use super::*;

    /// The clock's range is closed below and open above, and both ends bound it.
    #[test]
    fn the_clock_range_has_both_ends() {
        let at = |seconds: i64| DateTime::from_timestamp(seconds, 0).unwrap();
        assert!(!clock_in_range(at(86_399)) && clock_in_range(at(86_400)));
        assert!(clock_in_range(at(253_402_214_399)) && !clock_in_range(at(253_402_214_400)));
        assert!(!clock_in_range(at(-86_400)) && !clock_in_range(at(253_402_300_799)));
    }
}
