//! The plugin's `offset-zones` quirk: how a real site running the plugin converts an event time
//! whose zone is a fixed offset (`UTC+2`). It does not apply the offset: it picks one named zone
//! for it and converts by that zone's rules, summer time included, or by UTC itself when it has
//! none for the offset. The table was read back from a real site (docs/real-site.md): an event
//! at noon in July and in January for every offset of the site's list of zones.

use chrono_tz::Tz;

use super::Zone;

/// The zone an event's UTC times come from: its own, except with the quirk on (`offset-zones`),
/// where a fixed offset converts by the named zone the plugin picks for it.
pub fn converting_zone(zone: &Zone, offset_zones: bool) -> Zone {
    match zone {
        Zone::Fixed { seconds, .. } if offset_zones => zone_for_offset(*seconds),
        other => other.clone(),
    }
}

/// The named zone the plugin converts by, for an offset in seconds east of UTC; UTC for any
/// offset the table does not hold (`UTC-12`, `UTC+3:30`, `UTC+5:17`…).
fn zone_for_offset(seconds: i32) -> Zone {
    let tz = OFFSET_ZONES.iter().find(|(offset, _)| *offset == seconds).map_or(Tz::UTC, |(_, tz)| *tz);
    Zone::Named(tz)
}

const HOUR: i32 = 3600;

/// Each offset the site converts by a named zone, and that zone. The zone's offset today is
/// what the site applies: `UTC-11` is read as a zone that is now 13 hours ahead of UTC.
const OFFSET_ZONES: &[(i32, Tz)] = &[
    (-11 * HOUR, Tz::Pacific__Apia),
    (-10 * HOUR, Tz::Pacific__Honolulu),
    (-9 * HOUR, Tz::America__Anchorage),
    (-8 * HOUR, Tz::America__Los_Angeles),
    (-7 * HOUR, Tz::America__Denver),
    (-6 * HOUR, Tz::America__Chicago),
    (-5 * HOUR, Tz::America__New_York),
    (-4 * HOUR, Tz::America__Halifax),
    (-3 * HOUR, Tz::America__Sao_Paulo),
    (-HOUR, Tz::Atlantic__Azores),
    (HOUR, Tz::Europe__Paris),
    (2 * HOUR, Tz::Europe__Helsinki),
    (3 * HOUR, Tz::Europe__Moscow),
    (4 * HOUR, Tz::Asia__Dubai),
    (5 * HOUR, Tz::Asia__Karachi),
    (5 * HOUR + 1800, Tz::Asia__Kolkata),
    (5 * HOUR + 2700, Tz::Asia__Kathmandu),
    (7 * HOUR, Tz::Asia__Krasnoyarsk),
    (8 * HOUR, Tz::Asia__Shanghai),
    (9 * HOUR, Tz::Asia__Tokyo),
    (9 * HOUR + 1800, Tz::Australia__Adelaide),
    (10 * HOUR, Tz::Australia__Melbourne),
    (12 * HOUR, Tz::Pacific__Auckland),
];

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::NaiveDateTime;

    fn at(text: &str) -> NaiveDateTime {
        NaiveDateTime::parse_from_str(text, "%Y-%m-%d %H:%M").unwrap()
    }

    /// Noon local in July and in January 2027, as the real site converted it (docs/real-site.md).
    #[test]
    fn only_a_fixed_offset_with_the_quirk_on_converts_otherwise() {
        let fixed = Zone::parse("UTC+2").unwrap();
        let paris = Zone::parse("Europe/Paris").unwrap();
        assert_eq!(converting_zone(&fixed, false), fixed);
        assert_eq!(converting_zone(&fixed, true), Zone::Named(Tz::Europe__Helsinki));
        assert_eq!(converting_zone(&paris, true), paris);
    }

    #[test]
    fn offsets_convert_as_the_site_did() {
        let rows: &[(i32, &str, &str)] = &[
            (-12 * HOUR, "2027-07-02 12:00", "2027-01-12 12:00"),
            (-11 * HOUR, "2027-07-01 23:00", "2027-01-11 23:00"),
            (-9 * HOUR, "2027-07-02 20:00", "2027-01-12 21:00"),
            (-5 * HOUR, "2027-07-02 16:00", "2027-01-12 17:00"),
            (-3 * HOUR, "2027-07-02 15:00", "2027-01-12 15:00"),
            (-HOUR, "2027-07-02 12:00", "2027-01-12 13:00"),
            (0, "2027-07-02 12:00", "2027-01-12 12:00"),
            (2 * HOUR, "2027-07-02 09:00", "2027-01-12 10:00"),
            (3 * HOUR + 1800, "2027-07-02 12:00", "2027-01-12 12:00"),
            (5 * HOUR + 1800, "2027-07-02 06:30", "2027-01-12 06:30"),
            (6 * HOUR, "2027-07-02 12:00", "2027-01-12 12:00"),
            (9 * HOUR + 1800, "2027-07-02 02:30", "2027-01-12 01:30"),
            (10 * HOUR, "2027-07-02 02:00", "2027-01-12 01:00"),
            (12 * HOUR, "2027-07-02 00:00", "2027-01-11 23:00"),
            (5 * HOUR + 17 * 60, "2027-07-02 12:00", "2027-01-12 12:00"),
        ];
        for (seconds, july, january) in rows {
            let zone = zone_for_offset(*seconds);
            assert_eq!(zone.local_to_utc(at("2027-07-02 12:00")), at(july), "{seconds} in July");
            assert_eq!(zone.local_to_utc(at("2027-01-12 12:00")), at(january), "{seconds} in January");
        }
    }
}
