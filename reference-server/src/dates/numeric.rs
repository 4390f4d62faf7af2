//! Numeric date forms: `YYYY-MM-DD[( |T)HH:MM[:SS[.frac]][ ][offset]]`.

use super::arith::shift;
use super::cursor::Cursor;
use chrono::{NaiveDate, NaiveDateTime, NaiveTime};

pub(super) enum Numeric {
    /// A wall time in the zone.
    Wall(NaiveDateTime),
    /// A UTC instant (the text carried an offset).
    Instant(NaiveDateTime),
    /// The shape matched but a field is out of range (`2026-02-30`, `10:61`).
    Invalid,
    /// Not this shape; let the English parser try.
    Other,
}

pub(super) fn parse_numeric(lower: &str) -> Numeric {
    parse_numeric_shape(lower).unwrap_or(Numeric::Other)
}

/// None when the text does not have the numeric shape.
fn parse_numeric_shape(lower: &str) -> Option<Numeric> {
    let mut c = Cursor { bytes: lower.as_bytes(), pos: 0 };
    let year = c.number(4, 4)?;
    if !c.eat(b'-') {
        return None;
    }
    let month = c.number(1, 2)?;
    if !c.eat(b'-') {
        return None;
    }
    let day = c.number(1, 2)?;
    // A digit right after the day means a longer number, not this shape.
    if c.peek().is_some_and(|b| b.is_ascii_digit()) {
        return None;
    }
    let date = match i32::try_from(year).ok().and_then(|y| NaiveDate::from_ymd_opt(y, month, day)) {
        Some(date) => date,
        None => return Some(Numeric::Invalid),
    };
    if c.at_end() {
        return Some(Numeric::Wall(date.and_time(NaiveTime::MIN)));
    }
    if !c.eat(b't') {
        if !c.peek().is_some_and(|b| b.is_ascii_whitespace()) {
            return None;
        }
        c.skip_spaces();
    }
    let hour = c.number(1, 2)?;
    if !c.eat(b':') {
        return None;
    }
    let minute = c.number(2, 2)?;
    let mut second = 0;
    if c.eat(b':') {
        second = c.number(2, 2)?;
        if c.eat(b'.') || c.eat(b',') {
            c.number(1, 9)?;
            while c.peek().is_some_and(|b| b.is_ascii_digit()) {
                c.pos += 1;
            }
        }
    }
    let time = match NaiveTime::from_hms_opt(hour, minute, second) {
        Some(time) => time,
        None => return Some(Numeric::Invalid),
    };
    let wall = date.and_time(time);
    c.skip_spaces();
    if c.at_end() {
        return Some(Numeric::Wall(wall));
    }
    // An offset: `z`, `utc`, `gmt`, optionally followed by `±HH[[:]MM]`, or `±HH[[:]MM]` alone.
    let named = c.eat(b'z') || c.eat_str("utc") || c.eat_str("gmt");
    let mut offset: i64 = 0;
    let sign = if c.eat(b'+') {
        Some(1)
    } else if c.eat(b'-') {
        Some(-1)
    } else {
        None
    };
    match sign {
        Some(sign) => {
            let hours = c.number(2, 2)?;
            let colon = c.eat(b':');
            let minutes = if colon { c.number(2, 2)? } else { c.number(2, 2).unwrap_or(0) };
            if hours > 23 || minutes > 59 {
                return Some(Numeric::Invalid);
            }
            offset = sign * (i64::from(hours) * 3600 + i64::from(minutes) * 60);
        }
        None if !named => return None,
        None => {}
    }
    if !c.at_end() {
        return None;
    }
    Some(match shift(wall, -offset) {
        Some(instant) => Numeric::Instant(instant),
        None => Numeric::Invalid,
    })
}

#[cfg(test)]
mod tests {
    use crate::dates::test_support::*;

    #[test]
    fn parses_plain_forms() {
        assert_eq!(pu("2026-12-03"), some("2026-12-03 00:00:00"));
        assert_eq!(pu("2026-11-25 09:00"), some("2026-11-25 09:00:00"));
        assert_eq!(pu("2026-11-25 09:00:07"), some("2026-11-25 09:00:07"));
        assert_eq!(pu("2026-11-25T09:00"), some("2026-11-25 09:00:00"));
        assert_eq!(pu("2026-11-25T09:00:07"), some("2026-11-25 09:00:07"));
        assert_eq!(pu("2026-11-25t09:00:07"), some("2026-11-25 09:00:07"));
        assert_eq!(pu("  2026-11-25   9:05  "), some("2026-11-25 09:05:00"));
        assert_eq!(pu("2026-1-5 09:00"), some("2026-01-05 09:00:00"));
        assert_eq!(pu("2026-11-25 09:00:07.123456"), some("2026-11-25 09:00:07"));
        assert_eq!(pu("0001-01-01"), some("0001-01-01 00:00:00"));
        assert_eq!(pu("9999-12-31 23:59:59"), some("9999-12-31 23:59:59"));
        assert_eq!(pu("2028-02-29"), some("2028-02-29 00:00:00"));
    }

    #[test]
    fn plain_forms_are_wall_times_in_the_zone() {
        let ny = zone("America/New_York");
        assert_eq!(p("2026-11-27 19:00:00", &ny), some("2026-11-27 19:00:00"));
        let tokyo = zone("Asia/Tokyo");
        assert_eq!(p("2026-11-28 08:00:00", &tokyo), some("2026-11-28 08:00:00"));
        let plus5 = zone("UTC+5");
        assert_eq!(p("2026-11-29 12:00:00", &plus5), some("2026-11-29 12:00:00"));
    }

    #[test]
    fn offsets_are_converted_into_the_zone() {
        // The recording kept 10:00 and dropped the offset; Part A converts.
        assert_eq!(pu("2026-11-30T10:00:00+02:00"), some("2026-11-30 08:00:00"));
        assert_eq!(pu("2026-11-30T12:00:00Z"), some("2026-11-30 12:00:00"));
        let paris = zone("Europe/Paris");
        assert_eq!(p("2026-11-30T10:00:00+02:00", &paris), some("2026-11-30 09:00:00"));
        assert_eq!(p("2026-11-30T12:00:00Z", &paris), some("2026-11-30 13:00:00"));
        assert_eq!(p("2026-07-30T12:00:00Z", &paris), some("2026-07-30 14:00:00"));
        let ny = zone("America/New_York");
        assert_eq!(p("2026-11-28T00:00:00Z", &ny), some("2026-11-27 19:00:00"));
        assert_eq!(p("2026-11-30T10:00:00-05:00", &ny), some("2026-11-30 10:00:00"));
        assert_eq!(p("2026-11-30T10:00:00+0200", &ny), some("2026-11-30 03:00:00"));
        assert_eq!(p("2026-11-30T10:00:00+02", &ny), some("2026-11-30 03:00:00"));
        assert_eq!(p("2026-11-30 10:00:00 +02:00", &ny), some("2026-11-30 03:00:00"));
        assert_eq!(p("2026-11-30T10:00:00.000Z", &ny), some("2026-11-30 05:00:00"));
        assert_eq!(p("2026-11-30T10:00Z", &ny), some("2026-11-30 05:00:00"));
        assert_eq!(p("2026-11-30 10:00:00 UTC", &ny), some("2026-11-30 05:00:00"));
        assert_eq!(p("2026-11-30 10:00:00 GMT+01:00", &ny), some("2026-11-30 04:00:00"));
        let plus5 = zone("UTC+5");
        assert_eq!(p("2026-11-30T10:00:00Z", &plus5), some("2026-11-30 15:00:00"));
        // Across the date line and into the previous day.
        let tokyo = zone("Asia/Tokyo");
        assert_eq!(p("2026-11-30T20:00:00Z", &tokyo), some("2026-12-01 05:00:00"));
    }

    #[test]
    fn unix_timestamps_are_instants() {
        // Recording: 1796133600 in UTC is 2026-12-01 14:00:00.
        assert_eq!(pu("1796133600"), some("2026-12-01 14:00:00"));
        assert_eq!(pu("1796139000"), some("2026-12-01 15:30:00"));
        assert_eq!(pu("1799625600"), some("2027-01-11 00:00:00"));
        assert_eq!(pu("0"), some("1970-01-01 00:00:00"));
        // Converted into the event's zone, so its UTC time is the timestamp.
        let ny = zone("America/New_York");
        assert_eq!(p("1796133600", &ny), some("2026-12-01 09:00:00"));
        let plus5 = zone("UTC+5");
        assert_eq!(p("1796133600", &plus5), some("2026-12-01 19:00:00"));
        assert_eq!(pu("253402300799"), some("9999-12-31 23:59:59"));
        assert_eq!(pu("253402300800"), None);
        assert_eq!(pu("9999999999999999999"), None);
        assert_eq!(pu("99999999999999999999999999"), None);
    }

    #[test]
    fn rejects_invalid_numeric_dates() {
        for bad in [
            "2026-02-30",
            "2026-13-45",
            "2026-13-01",
            "2026-00-10",
            "2027-02-29",
            "0000-01-01",
            "2026-11-25 25:00",
            "2026-11-25 24:00",
            "2026-11-25 10:60",
            "2026-11-25 10:00:60",
            "2026-11-25 10:5",
            "2026-11-25T",
            "2026-11-25 10",
            "2026-11-25T10:00:00+25:00",
            "2026-11-25T10:00:00+02:00x",
            "2026-11-25T10:00:00 pst",
            "2026-11-25-",
            "-2026-11-25",
        ] {
            assert_eq!(pu(bad), None, "{bad:?}");
        }
    }
}
