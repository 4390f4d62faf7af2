//! Time zones: IANA names and fixed offsets, local wall time to UTC and back, abbreviations.

use super::arith::{all_digits, shift};
use super::offset::format_offset;
use chrono::{LocalResult, NaiveDateTime, Offset, TimeZone};
use chrono_tz::{OffsetName, Tz};

/// The widest fixed offset accepted (`UTC-14` .. `UTC+14`, the range of real zones).
const MAX_FIXED_OFFSET: i32 = 14 * 3600;

/// A time zone as the interface accepts it: an IANA name (`Europe/Paris`, `UTC`) or a fixed
/// offset written `UTC+5`, `UTC-3`, `UTC+5:30`, `UTC+5.5` (WordPress style), `UTC+0`.
#[derive(Clone, Debug, PartialEq)]
pub enum Zone {
    /// An IANA zone, with its rules for daylight saving time.
    Named(Tz),
    /// A fixed offset east of UTC, in seconds, and its canonical label (`UTC+5`, `UTC-3:30`,
    /// `UTC+5.5`), which is both its name and its abbreviation.
    Fixed { seconds: i32, label: Box<str> },
}

impl Zone {
    /// None for anything that is not a valid zone ("Mars/Olympus", "", "UTC+99").
    ///
    /// IANA names are matched without regard to case (`europe/paris` gives `Europe/Paris`).
    pub fn parse(text: &str) -> Option<Zone> {
        // Nothing else to check first: an empty, long or non-ASCII text is neither an offset
        // nor the name of a zone (the names are ASCII), so both lookups below refuse it.
        let text = text.trim();
        if let Some(zone) = parse_fixed_offset(text) {
            return Some(zone);
        }
        chrono_tz::TZ_VARIANTS.iter().find(|tz| tz.name().eq_ignore_ascii_case(text)).map(|tz| Zone::Named(*tz))
    }

    /// The identifier to store and show in `timezone` (the IANA name in its canonical case, or
    /// the offset label such as `UTC+5`).
    pub fn name(&self) -> String {
        match self {
            Zone::Named(tz) => tz.name().to_string(),
            Zone::Fixed { label, .. } => label.to_string(),
        }
    }

    /// The abbreviation in effect at this local wall time: `CET`/`CEST`, `EST`/`EDT`, `JST`,
    /// `UTC`; for a fixed offset the label itself (`UTC+5`). Where the zone database only has a
    /// numeric abbreviation (e.g. `+05`), that is returned.
    pub fn abbreviation(&self, local: NaiveDateTime) -> String {
        match self {
            Zone::Named(tz) => {
                let utc = self.local_to_utc(local);
                let offset = tz.offset_from_utc_datetime(&utc);
                // The zone database gives no abbreviation (rather than an empty one) where it
                // has only a numeric one: `no_zone_has_an_empty_abbreviation`.
                match offset.abbreviation() {
                    Some(abbr) => abbr.to_string(),
                    None => format_offset(offset.fix().local_minus_utc(), false),
                }
            }
            Zone::Fixed { label, .. } => label.to_string(),
        }
    }

    /// Local wall time → UTC.
    ///
    /// A local time that does not exist (in the gap of a spring-forward night) is read with the
    /// offset in force before the gap, which moves it forward by the gap as PHP does (02:30 in
    /// New York on that night is 03:30 EDT). An ambiguous local time (fall-back night) is the
    /// earlier instant, the first occurrence, still in daylight saving time. If the result
    /// would leave chrono's range the input is returned unchanged.
    pub fn local_to_utc(&self, local: NaiveDateTime) -> NaiveDateTime {
        match self {
            Zone::Fixed { seconds, .. } => shift(local, -i64::from(*seconds)).unwrap_or(local),
            Zone::Named(tz) => match tz.from_local_datetime(&local) {
                LocalResult::Single(dt) => dt.naive_utc(),
                LocalResult::Ambiguous(a, b) => a.naive_utc().min(b.naive_utc()),
                LocalResult::None => {
                    // Any instant a day earlier lies before the transition (offsets are below
                    // a day), so its offset is the one in force before the gap.
                    let before = shift(local, -86_400).unwrap_or(local);
                    let offset = tz.offset_from_utc_datetime(&before).fix().local_minus_utc();
                    shift(local, -i64::from(offset)).unwrap_or(local)
                }
            },
        }
    }

    /// UTC → local wall time. If the result would leave chrono's range the input is returned
    /// unchanged.
    pub fn utc_to_local(&self, utc: NaiveDateTime) -> NaiveDateTime {
        shift(utc, i64::from(self.offset_seconds(utc))).unwrap_or(utc)
    }

    /// UTC offset in seconds at this UTC instant.
    pub fn offset_seconds(&self, utc: NaiveDateTime) -> i32 {
        match self {
            Zone::Fixed { seconds, .. } => *seconds,
            Zone::Named(tz) => tz.offset_from_utc_datetime(&utc).fix().local_minus_utc(),
        }
    }

    /// The local wall time that a (possibly nonexistent) local wall time really denotes: the
    /// identity, except in a DST gap, where it is moved forward by the gap.
    pub(super) fn normalize_local(&self, local: NaiveDateTime) -> NaiveDateTime {
        self.utc_to_local(self.local_to_utc(local))
    }
}

/// `UTC±H`, `UTC±H:MM`, `UTC±H.D` (case-insensitive) → a fixed zone with a canonical label.
fn parse_fixed_offset(text: &str) -> Option<Zone> {
    let prefix = text.get(..3)?;
    if !prefix.eq_ignore_ascii_case("utc") {
        return None;
    }
    let rest = &text[3..];
    let (sign, sign_char): (i32, char) = match rest.as_bytes().first()? {
        b'+' => (1, '+'),
        b'-' => (-1, '-'),
        _ => return None,
    };
    let body = &rest[1..];
    // (hours text, minutes, how to write the minutes in the label)
    let (hours_text, minutes, minutes_label) = if let Some((h, m)) = body.split_once(':') {
        if m.len() != 2 || !all_digits(m) {
            return None;
        }
        let minutes: i32 = m.parse().ok()?;
        if minutes >= 60 {
            return None;
        }
        (h, minutes, format!(":{m}"))
    } else if let Some((h, f)) = body.split_once('.') {
        if f.is_empty() || f.len() > 4 || !all_digits(f) {
            return None;
        }
        let numerator: i32 = f.parse().ok()?;
        let denominator = 10_i32.checked_pow(u32::try_from(f.len()).ok()?)?;
        let scaled = numerator.checked_mul(60)?;
        if scaled % denominator != 0 {
            return None; // not a whole number of minutes
        }
        let trimmed = f.trim_end_matches('0');
        let label = if trimmed.is_empty() { String::new() } else { format!(".{trimmed}") };
        (h, scaled / denominator, label)
    } else {
        (body, 0, String::new())
    };
    if hours_text.is_empty() || hours_text.len() > 2 || !all_digits(hours_text) {
        return None;
    }
    let hours: i32 = hours_text.parse().ok()?;
    let total = hours.checked_mul(3600)?.checked_add(minutes.checked_mul(60)?)?;
    if total > MAX_FIXED_OFFSET {
        return None;
    }
    if total == 0 {
        return Some(Zone::Fixed { seconds: 0, label: "UTC+0".into() });
    }
    let minutes_label = if minutes == 0 { String::new() } else { minutes_label };
    Some(Zone::Fixed { seconds: sign * total, label: format!("UTC{sign_char}{hours}{minutes_label}").into() })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dates::format::iso_with_offset;
    use crate::dates::parse::parse_datetime;
    use crate::dates::test_support::*;

    #[test]
    fn parses_iana_names_case_insensitively() {
        assert_eq!(zone("Europe/Paris").name(), "Europe/Paris");
        assert_eq!(zone("europe/paris").name(), "Europe/Paris");
        assert_eq!(zone("AMERICA/NEW_YORK").name(), "America/New_York");
        assert_eq!(zone("utc").name(), "UTC");
        assert_eq!(zone("UTC").name(), "UTC");
        assert_eq!(zone("Asia/Tokyo").name(), "Asia/Tokyo");
        assert_eq!(zone("  Asia/Tokyo ").name(), "Asia/Tokyo");
        assert_eq!(zone("Etc/GMT+5").name(), "Etc/GMT+5");
        assert!(matches!(zone("UTC"), Zone::Named(_)));
    }

    #[test]
    fn rejects_bad_zones() {
        for bad in [
            "",
            "   ",
            "Mars/Olympus",
            "Mars/Olympus_Mons",
            "Nowhere/Land",
            "UTC+99",
            "UTC+15",
            "UTC-14:30",
            "UTC+",
            "UTC+5:3",
            "UTC+5:60",
            "UTC+5.",
            "UTC+5.x",
            "UTC+5.3333",
            "UTC+005",
            "UTC5",
            "UTC +5",
            "+05:00",
            "Europe/Paris\u{0}",
            "Éurope/Paris",
            "Europe/Parisx",
            "9999999999999999999",
        ] {
            assert_eq!(Zone::parse(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn parses_fixed_offsets() {
        let cases = [
            ("UTC+5", 5 * 3600, "UTC+5"),
            ("utc+5", 5 * 3600, "UTC+5"),
            ("UTC-3", -3 * 3600, "UTC-3"),
            ("UTC+05", 5 * 3600, "UTC+5"),
            ("UTC+5:30", 5 * 3600 + 1800, "UTC+5:30"),
            ("UTC+05:30", 5 * 3600 + 1800, "UTC+5:30"),
            ("UTC+5:00", 5 * 3600, "UTC+5"),
            ("UTC+5.5", 5 * 3600 + 1800, "UTC+5.5"),
            ("UTC+5.50", 5 * 3600 + 1800, "UTC+5.5"),
            ("UTC+5.75", 5 * 3600 + 2700, "UTC+5.75"),
            ("UTC-9.5", -(9 * 3600 + 1800), "UTC-9.5"),
            ("UTC+0", 0, "UTC+0"),
            ("UTC-0", 0, "UTC+0"),
            ("UTC+0.0", 0, "UTC+0"),
            ("UTC+14", 14 * 3600, "UTC+14"),
            ("UTC-12", -12 * 3600, "UTC-12"),
        ];
        for (text, seconds, label) in cases {
            let z = zone(text);
            assert_eq!(z, Zone::Fixed { seconds, label: label.into() }, "{text}");
            assert_eq!(z.name(), label);
            assert_eq!(z.abbreviation(now()), label);
            assert_eq!(z.offset_seconds(now()), seconds);
        }
    }

    #[test]
    fn abbreviations_follow_dst() {
        let paris = zone("Europe/Paris");
        assert_eq!(paris.abbreviation(dt("2026-12-02 20:00:00")), "CET");
        assert_eq!(paris.abbreviation(dt("2026-07-01 12:00:00")), "CEST");
        // Last Sunday of March 2026 is the 29th: 02:00 → 03:00.
        assert_eq!(paris.abbreviation(dt("2026-03-29 01:59:59")), "CET");
        assert_eq!(paris.abbreviation(dt("2026-03-29 03:00:00")), "CEST");
        // Last Sunday of October 2026 is the 25th: 03:00 CEST → 02:00 CET.
        assert_eq!(paris.abbreviation(dt("2026-10-25 01:59:59")), "CEST");
        assert_eq!(paris.abbreviation(dt("2026-10-25 03:00:00")), "CET");

        let ny = zone("America/New_York");
        assert_eq!(ny.abbreviation(dt("2026-11-27 19:00:00")), "EST");
        assert_eq!(ny.abbreviation(dt("2026-07-04 12:00:00")), "EDT");
        // 2026: DST from 8 March 02:00 to 1 November 02:00.
        assert_eq!(ny.abbreviation(dt("2026-03-08 01:59:59")), "EST");
        assert_eq!(ny.abbreviation(dt("2026-03-08 03:00:00")), "EDT");
        assert_eq!(ny.abbreviation(dt("2026-11-01 00:30:00")), "EDT");
        assert_eq!(ny.abbreviation(dt("2026-11-01 02:00:00")), "EST");

        assert_eq!(zone("Asia/Tokyo").abbreviation(now()), "JST");
        assert_eq!(utc().abbreviation(now()), "UTC");
        assert_eq!(zone("America/Los_Angeles").abbreviation(dt("2026-12-02 19:00:00")), "PST");
        assert_eq!(zone("Europe/London").abbreviation(dt("2026-12-02 19:00:00")), "GMT");
        assert_eq!(zone("Europe/London").abbreviation(dt("2026-06-02 19:00:00")), "BST");
        // The zone database has only a numeric abbreviation here.
        assert_eq!(zone("Asia/Dubai").abbreviation(now()), "+04");
        assert_eq!(zone("Asia/Kathmandu").abbreviation(now()), "+0545");
    }

    #[test]
    fn no_zone_has_an_empty_abbreviation() {
        // Twice a year from 1900 to 2100 in every zone: an abbreviation is either there or
        // missing (then the offset is written), never empty.
        let mut missing = 0;
        for tz in chrono_tz::TZ_VARIANTS {
            for year in 1900..=2100 {
                for month in [1, 7] {
                    let utc = dt(&format!("{year:04}-{month:02}-01 12:00:00"));
                    match tz.offset_from_utc_datetime(&utc).abbreviation() {
                        Some(abbr) => assert!(!abbr.is_empty(), "{} {utc}", tz.name()),
                        None => missing += 1,
                    }
                }
            }
        }
        assert!(missing > 0, "some zones have only a numeric abbreviation");
    }

    #[test]
    fn texts_that_are_no_zone_are_refused_by_the_lookups() {
        let long = format!("Europe/Paris{}", "x".repeat(100));
        for text in ["", "   ", "\u{0}", "Éurope/Paris", "UTC+5\u{e9}", "utc\u{e9}5", long.as_str()] {
            assert_eq!(Zone::parse(text), None, "{text:?}");
        }
    }

    #[test]
    fn abbreviation_in_gap_and_overlap() {
        let ny = zone("America/New_York");
        // 02:30 does not exist on 8 March: it is 03:30 EDT.
        assert_eq!(ny.abbreviation(dt("2026-03-08 02:30:00")), "EDT");
        // 01:30 happens twice on 1 November: the first, EDT.
        assert_eq!(ny.abbreviation(dt("2026-11-01 01:30:00")), "EDT");
        let paris = zone("Europe/Paris");
        assert_eq!(paris.abbreviation(dt("2026-03-29 02:30:00")), "CEST");
        assert_eq!(paris.abbreviation(dt("2026-10-25 02:30:00")), "CEST");
    }

    #[test]
    fn local_to_utc_and_back() {
        let ny = zone("America/New_York");
        // Recording: New York 19:00 local → 00:00 UTC the next day.
        assert_eq!(ny.local_to_utc(dt("2026-11-27 19:00:00")), dt("2026-11-28 00:00:00"));
        assert_eq!(ny.local_to_utc(dt("2026-11-27 21:00:00")), dt("2026-11-28 02:00:00"));
        assert_eq!(ny.utc_to_local(dt("2026-11-28 00:00:00")), dt("2026-11-27 19:00:00"));
        // Recording: Tokyo 08:00 → 23:00 UTC the day before.
        let tokyo = zone("Asia/Tokyo");
        assert_eq!(tokyo.local_to_utc(dt("2026-11-28 08:00:00")), dt("2026-11-27 23:00:00"));
        assert_eq!(tokyo.local_to_utc(dt("2026-11-28 09:30:00")), dt("2026-11-28 00:30:00"));
        // Recording: UTC+5 12:00 → 07:00 UTC.
        let plus5 = zone("UTC+5");
        assert_eq!(plus5.local_to_utc(dt("2026-11-29 12:00:00")), dt("2026-11-29 07:00:00"));
        assert_eq!(plus5.utc_to_local(dt("2026-11-29 07:00:00")), dt("2026-11-29 12:00:00"));
        // Recording (update): Los Angeles 19:00 → 03:00 UTC; Paris 20:00 → 19:00 UTC.
        let la = zone("America/Los_Angeles");
        assert_eq!(la.local_to_utc(dt("2026-12-02 19:00:00")), dt("2026-12-03 03:00:00"));
        let paris = zone("Europe/Paris");
        assert_eq!(paris.local_to_utc(dt("2026-12-02 20:00:00")), dt("2026-12-02 19:00:00"));
        assert_eq!(paris.local_to_utc(dt("2026-07-02 20:00:00")), dt("2026-07-02 18:00:00"));
        let half = zone("UTC-3:30");
        assert_eq!(half.local_to_utc(dt("2026-01-01 00:00:00")), dt("2026-01-01 03:30:00"));
        assert_eq!(utc().local_to_utc(now()), now());
    }

    #[test]
    fn dst_gap_moves_forward() {
        let ny = zone("America/New_York");
        // 02:30 on the spring-forward night → 03:30 EDT = 07:30 UTC.
        assert_eq!(ny.local_to_utc(dt("2026-03-08 02:30:00")), dt("2026-03-08 07:30:00"));
        assert_eq!(ny.utc_to_local(dt("2026-03-08 07:30:00")), dt("2026-03-08 03:30:00"));
        assert_eq!(ny.local_to_utc(dt("2026-03-08 02:00:00")), dt("2026-03-08 07:00:00"));
        assert_eq!(ny.local_to_utc(dt("2026-03-08 01:59:59")), dt("2026-03-08 06:59:59"));
        assert_eq!(ny.local_to_utc(dt("2026-03-08 03:00:00")), dt("2026-03-08 07:00:00"));
        let paris = zone("Europe/Paris");
        // 02:30 on 29 March 2026 → 03:30 CEST = 01:30 UTC.
        assert_eq!(paris.local_to_utc(dt("2026-03-29 02:30:00")), dt("2026-03-29 01:30:00"));
        assert_eq!(parse_datetime("2026-03-29 02:30:00", &paris, now()), Some(dt("2026-03-29 03:30:00")));
        assert_eq!(parse_datetime("2026-03-08 02:30", &ny, now()), Some(dt("2026-03-08 03:30:00")));
        assert_eq!(iso_with_offset(dt("2026-03-08 02:30:00"), &ny), "2026-03-08T03:30:00-04:00");
    }

    #[test]
    fn ambiguous_time_takes_first_occurrence() {
        let ny = zone("America/New_York");
        // 01:30 on 1 November 2026 happens at 05:30 UTC (EDT) and 06:30 UTC (EST).
        assert_eq!(ny.local_to_utc(dt("2026-11-01 01:30:00")), dt("2026-11-01 05:30:00"));
        assert_eq!(ny.utc_to_local(dt("2026-11-01 06:30:00")), dt("2026-11-01 01:30:00"));
        assert_eq!(ny.offset_seconds(dt("2026-11-01 05:30:00")), -4 * 3600);
        assert_eq!(ny.offset_seconds(dt("2026-11-01 06:30:00")), -5 * 3600);
        let paris = zone("Europe/Paris");
        // 02:30 on 25 October 2026: 00:30 UTC (CEST) and 01:30 UTC (CET).
        assert_eq!(paris.local_to_utc(dt("2026-10-25 02:30:00")), dt("2026-10-25 00:30:00"));
        assert_eq!(iso_with_offset(dt("2026-10-25 02:30:00"), &paris), "2026-10-25T02:30:00+02:00");
    }

    #[test]
    fn offset_seconds_by_zone() {
        assert_eq!(zone("Europe/Paris").offset_seconds(dt("2026-12-01 00:00:00")), 3600);
        assert_eq!(zone("Europe/Paris").offset_seconds(dt("2026-06-01 00:00:00")), 7200);
        assert_eq!(zone("Asia/Kolkata").offset_seconds(now()), 19800);
        assert_eq!(zone("UTC").offset_seconds(now()), 0);
        assert_eq!(zone("UTC-3").offset_seconds(now()), -10800);
    }
}
