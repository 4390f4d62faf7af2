//! Dates as the API writes them: `YYYY-MM-DD HH:MM:SS`, `*_details` objects, ISO 8601 with
//! offset, and the bounds of a day.

use super::offset::format_offset;
use super::zone::Zone;
use chrono::{Datelike, NaiveDateTime, NaiveTime, Timelike};

/// `YYYY-MM-DD HH:MM:SS`.
pub fn format_wp(dt: NaiveDateTime) -> String {
    dt.format("%Y-%m-%d %H:%M:%S").to_string()
}

/// `{year, month, day, hour, minutes, seconds}` as zero-padded strings (the `*_details`
/// objects), in that key order.
pub fn details(dt: NaiveDateTime) -> serde_json::Value {
    serde_json::json!({
        "year": format!("{:04}", dt.year()),
        "month": format!("{:02}", dt.month()),
        "day": format!("{:02}", dt.day()),
        "hour": format!("{:02}", dt.hour()),
        "minutes": format!("{:02}", dt.minute()),
        "seconds": format!("{:02}", dt.second()),
    })
}

/// ISO 8601 with the zone's offset at that local time: `2026-12-02T20:00:00+01:00` (for
/// JSON-LD). A local time in a DST gap is shown as the time it really denotes.
pub fn iso_with_offset(local: NaiveDateTime, zone: &Zone) -> String {
    let utc = zone.local_to_utc(local);
    let shown = zone.utc_to_local(utc);
    format!("{}{}", shown.format("%Y-%m-%dT%H:%M:%S"), format_offset(zone.offset_seconds(utc), true))
}

/// Start of the local day: 00:00:00.
pub fn start_of_day(dt: NaiveDateTime) -> NaiveDateTime {
    dt.date().and_time(NaiveTime::MIN)
}

/// End of the local day: 23:59:59.
pub fn end_of_day(dt: NaiveDateTime) -> NaiveDateTime {
    NaiveTime::from_hms_opt(23, 59, 59).map_or(dt, |t| dt.date().and_time(t))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dates::test_support::*;

    #[test]
    fn formats() {
        let d = dt("2017-01-05 14:23:36");
        assert_eq!(format_wp(d), "2017-01-05 14:23:36");
        assert_eq!(
            details(d).to_string(),
            r#"{"year":"2017","month":"01","day":"05","hour":"14","minutes":"23","seconds":"36"}"#
        );
        assert_eq!(details(dt("0042-12-31 00:00:09"))["year"], serde_json::json!("0042"));
        assert_eq!(start_of_day(d), dt("2017-01-05 00:00:00"));
        assert_eq!(end_of_day(d), dt("2017-01-05 23:59:59"));
        assert_eq!(end_of_day(dt("2017-01-05 23:59:59")), dt("2017-01-05 23:59:59"));
    }

    #[test]
    fn iso_offsets() {
        let paris = zone("Europe/Paris");
        assert_eq!(iso_with_offset(dt("2026-12-02 20:00:00"), &paris), "2026-12-02T20:00:00+01:00");
        assert_eq!(iso_with_offset(dt("2026-07-02 20:00:00"), &paris), "2026-07-02T20:00:00+02:00");
        assert_eq!(iso_with_offset(dt("2026-11-27 19:00:00"), &zone("America/New_York")), "2026-11-27T19:00:00-05:00");
        assert_eq!(iso_with_offset(now(), &utc()), "2026-11-22T01:42:17+00:00");
        assert_eq!(iso_with_offset(now(), &zone("UTC+5:30")), "2026-11-22T01:42:17+05:30");
        assert_eq!(iso_with_offset(now(), &zone("UTC-9.5")), "2026-11-22T01:42:17-09:30");
        assert_eq!(iso_with_offset(now(), &zone("Asia/Kathmandu")), "2026-11-22T01:42:17+05:45");
    }
}
