//! Parsing a date as a person types it ([`parse_datetime`]): timestamps, then the numeric
//! forms, then the English ones.

use super::arith::{all_digits, in_range};
use super::natural::parse_natural;
use super::numeric::{parse_numeric, Numeric};
use super::zone::Zone;
use chrono::{DateTime, NaiveDateTime, Timelike, Utc};

/// Longer inputs are not dates anyone types; refusing them early bounds the work done.
const MAX_INPUT_LEN: usize = 128;

/// Parses a date as a person types it, in the given zone, relative to `now_utc`.
/// Returns the LOCAL WALL TIME in `zone`. Anything not understood → None.
///
/// Decisions:
/// - A wall time written without an offset is a wall time in `zone`; one that falls in a DST
///   gap is moved forward by the gap (02:30 → 03:30 on a spring-forward night), as PHP does.
/// - A value carrying an offset or `Z` denotes an instant, which is converted into `zone`.
/// - A Unix timestamp (a string of digits) also denotes an instant and is converted into
///   `zone`, so the UTC time computed from the result is the timestamp itself. The recorded
///   create with timestamps as strings agrees (its UTC start equals the timestamp), though it
///   was made in UTC, where both readings coincide. Reading the timestamp's UTC wall clock as a
///   local time instead would shift the instant in every other zone, the same fault as
///   dropping an ISO offset, which Part A rules out.
/// - Relative words are evaluated on the wall clock of `zone`: `today` is the local day of
///   `now_utc` in that zone, `tomorrow 9am` is 09:00 local. `today`, `tomorrow`, `yesterday`,
///   `midnight`, weekdays and month-name dates give 00:00:00 unless a time is given; `now` and
///   relative amounts (`+1 day`, `-2 months`) keep the current time of day, as PHP does.
///   Days, weeks, months and years move the wall clock (a month later is the same day number,
///   clamped to the month's last day); hours, minutes and seconds are elapsed time.
/// - Sub-second parts are dropped. Years outside 1..=9999 are refused.
pub fn parse_datetime(input: &str, zone: &Zone, now_utc: NaiveDateTime) -> Option<NaiveDateTime> {
    let text = input.trim();
    if text.is_empty() || text.len() > MAX_INPUT_LEN || !text.is_ascii() {
        return None;
    }
    let lower = text.to_ascii_lowercase();
    let now_utc = now_utc.with_nanosecond(0)?;

    let local = if all_digits(&lower) {
        let instant = parse_timestamp(&lower)?;
        in_range(instant)?;
        zone.utc_to_local(instant)
    } else {
        match parse_numeric(&lower) {
            Numeric::Wall(wall) => zone.normalize_local(in_range(wall)?),
            Numeric::Instant(instant) => zone.utc_to_local(in_range(instant)?),
            Numeric::Invalid => return None,
            Numeric::Other => parse_natural(&lower, zone, now_utc)?,
        }
    };
    in_range(local)
}

fn parse_timestamp(digits: &str) -> Option<NaiveDateTime> {
    let seconds: i64 = digits.parse().ok()?;
    DateTime::<Utc>::from_timestamp(seconds, 0).map(|dt| dt.naive_utc())
}

#[cfg(test)]
mod tests {
    use chrono::Datelike;

    use super::*;
    use crate::dates::arith::{MAX_YEAR, MIN_YEAR};
    use crate::dates::format::{details, end_of_day, format_wp, iso_with_offset, start_of_day};
    use crate::dates::test_support::*;

    #[test]
    fn refuses_years_out_of_range() {
        let z = utc();
        let near_end = dt("9999-12-31 12:00:00");
        assert_eq!(parse_datetime("tomorrow", &z, near_end), None);
        assert_eq!(parse_datetime("+1 day", &z, near_end), None);
        assert_eq!(parse_datetime("today", &z, near_end), Some(dt("9999-12-31 00:00:00")));
        let near_start = dt("0001-01-01 12:00:00");
        assert_eq!(parse_datetime("yesterday", &z, near_start), None);
        assert_eq!(parse_datetime("-1 month", &z, near_start), None);
        // Converted into a zone east of UTC, the last second of 9999 leaves the range.
        assert_eq!(parse_datetime("9999-12-31T23:00:00Z", &zone("Asia/Tokyo"), now()), None);
    }

    #[test]
    fn extreme_values_do_not_panic() {
        let zones = [utc(), zone("America/New_York"), zone("Asia/Tokyo"), zone("UTC+14"), zone("UTC-12")];
        for z in &zones {
            for t in [NaiveDateTime::MIN, NaiveDateTime::MAX, now()] {
                let _ = z.local_to_utc(t);
                let _ = z.utc_to_local(t);
                let _ = z.offset_seconds(t);
                let _ = z.abbreviation(t);
                let _ = iso_with_offset(t, z);
                let _ = details(t);
                let _ = format_wp(t);
                let _ = start_of_day(t);
                let _ = end_of_day(t);
                for input in ["now", "tomorrow 9am", "+1 month", "-2 hours", "monday", "1"] {
                    let _ = parse_datetime(input, z, t);
                }
            }
        }
    }

    /// Strings at the edges of what the parsers read: empty, non-ASCII, huge numbers, fields
    /// out of range, separators alone, words without what they need.
    const ODD_STRINGS: &[&str] = &[
        "",
        "\u{0}",
        "\u{feff}",
        "日本語",
        "🙂",
        "9999999999999999999",
        "18446744073709551616",
        "-9223372036854775808",
        "2026-13-45",
        "+999999 years",
        "-999999 years",
        "9999 years",
        "+9999 years ago",
        "9999 months",
        "9999 weeks",
        "9999 hours",
        "9999:9999",
        "99:99",
        "9999pm",
        "12:00:00:00",
        "1:2:3:4:5",
        "2026-11-25T10:00:00+99:99",
        "2026-11-25T10:00:00+9999",
        "2026-11-25T10:00:00.99999999999999999999Z",
        "2026-11-25T10:00:00.",
        "2026-11-25 10:00:00.",
        "----",
        "++++",
        "+-+-1 day",
        ",,,,",
        "//",
        "1/1/1",
        "99/99/9999",
        "12/31/9999",
        "1/1/0",
        "dec 9999, 9999",
        "9999 dec 9999",
        "december 0, 2026",
        "0 december 2026",
        "next 9999",
        "last 9999 days",
        "this",
        "t",
        "z",
        "2026-11-25tz",
        "a",
        "an hour",
        "at",
        "at at at",
        "of",
        "25th of",
        "th",
        "1st",
        "a.m.",
        "12 a.m.",
        "0:00am",
        "12:60pm",
        "tomorrow 9.30pm",
        "9.30",
        "noon noon",
        "midnight 9am",
    ];

    #[test]
    fn odd_strings_do_not_panic() {
        let long = "1".repeat(10_000);
        let long_words = "next ".repeat(1_000);
        let zones = [utc(), zone("Europe/Paris"), zone("UTC-3:30")];
        for z in &zones {
            for input in ODD_STRINGS.iter().copied().chain([long.as_str(), long_words.as_str()]) {
                let _ = parse_datetime(input, z, now());
                let _ = Zone::parse(input);
            }
        }
    }

    /// The words random date strings are made of.
    const DATE_WORDS: &[&str] = &[
        "now",
        "today",
        "tomorrow",
        "yesterday",
        "next",
        "last",
        "this",
        "ago",
        "day",
        "days",
        "week",
        "month",
        "year",
        "hours",
        "monday",
        "dec",
        "december",
        "9am",
        "12pm",
        "16:30",
        "2026-11-25",
        "+5",
        "-2",
        "a",
        "at",
        "noon",
        "midnight",
        ",",
        "25th",
        "of",
        "1796133600",
        "T10:00:00Z",
        "+02:00",
    ];

    /// One of 20 000 random strings: characters of dates (even rounds) or their words (odd).
    fn random_date_string(round: usize, alphabet: &[char], next: &mut impl FnMut() -> u64) -> String {
        let mut s = String::new();
        let len = (next() % 24) as usize;
        if round % 2 == 0 {
            for _ in 0..len {
                s.push(alphabet[(next() % alphabet.len() as u64) as usize]);
            }
        } else {
            for _ in 0..len % 6 {
                s.push_str(DATE_WORDS[(next() % DATE_WORDS.len() as u64) as usize]);
                s.push(' ');
            }
        }
        s
    }

    #[test]
    fn random_strings_do_not_panic() {
        // A small deterministic generator over characters that dates are made of.
        let alphabet: Vec<char> =
            "0123456789 -+:/.,TtZzapmAPM utcgmtnextlastdayweekmonthyearagonoonmidnightéü日".chars().collect();
        let mut state: u64 = 0x2545_f491_4f6c_dd1d;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let zones = [utc(), zone("America/New_York"), zone("UTC+5.75")];
        for round in 0..20_000 {
            let s = random_date_string(round, &alphabet, &mut next);
            let z = &zones[round % zones.len()];
            if let Some(result) = parse_datetime(&s, z, now()) {
                assert!((MIN_YEAR..=MAX_YEAR).contains(&result.year()), "{s:?}");
                assert_eq!(result.nanosecond(), 0, "{s:?}");
            }
            let _ = Zone::parse(&s);
        }
    }

    #[test]
    fn result_round_trips_through_the_zone() {
        // Whatever is parsed is a real local time: converting to UTC and back gives it again.
        let zones = [zone("America/New_York"), zone("Europe/Paris"), zone("UTC+5")];
        let inputs = [
            "2026-03-08 02:30",
            "2026-03-29 02:30",
            "2026-11-01 01:30",
            "tomorrow 9am",
            "+1 day",
            "next wednesday 4pm",
        ];
        for z in &zones {
            for input in inputs {
                let local = parse_datetime(input, z, now()).expect(input);
                assert_eq!(z.utc_to_local(z.local_to_utc(local)), local, "{input}");
            }
        }
    }
}
