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
    let mut c = Cursor { bytes: lower.as_bytes(), pos: 0 };
    read_numeric(&mut c).unwrap_or_else(|stop| stop)
}

/// A step of the numeric shape: `Err(Other)` when the text leaves the shape, `Err(Invalid)`
/// when a field is out of range.
type Step<T> = Result<T, Numeric>;

/// A part the shape needs: `Other` without it.
fn needed<T>(part: Option<T>) -> Step<T> {
    part.ok_or(Numeric::Other)
}

/// A separator the shape needs.
fn eat_needed(c: &mut Cursor, byte: u8) -> Step<()> {
    if c.eat(byte) {
        Ok(())
    } else {
        Err(Numeric::Other)
    }
}

/// The date, then a time and an offset if they follow.
fn read_numeric(c: &mut Cursor) -> Step<Numeric> {
    let date = read_date(c)?;
    if c.at_end() {
        return Ok(Numeric::Wall(date.and_time(NaiveTime::MIN)));
    }
    if !c.eat(b't') {
        if !c.peek().is_some_and(|b| b.is_ascii_whitespace()) {
            return Err(Numeric::Other);
        }
        c.skip_spaces();
    }
    let wall = date.and_time(read_time(c)?);
    c.skip_spaces();
    if c.at_end() {
        return Ok(Numeric::Wall(wall));
    }
    let offset = read_offset(c)?;
    if !c.at_end() {
        return Err(Numeric::Other);
    }
    Ok(match shift(wall, -offset) {
        Some(instant) => Numeric::Instant(instant),
        None => Numeric::Invalid,
    })
}

/// `YYYY-M[M]-D[D]`.
fn read_date(c: &mut Cursor) -> Step<NaiveDate> {
    let year = needed(c.number(4, 4))?;
    eat_needed(c, b'-')?;
    let month = needed(c.number(1, 2))?;
    eat_needed(c, b'-')?;
    let day = needed(c.number(1, 2))?;
    // A digit right after the day means a longer number, not this shape.
    if c.peek().is_some_and(|b| b.is_ascii_digit()) {
        return Err(Numeric::Other);
    }
    i32::try_from(year).ok().and_then(|y| NaiveDate::from_ymd_opt(y, month, day)).ok_or(Numeric::Invalid)
}

/// `H[H]:MM[:SS[(.|,)fraction]]`; the fraction is read and dropped.
fn read_time(c: &mut Cursor) -> Step<NaiveTime> {
    let hour = needed(c.number(1, 2))?;
    eat_needed(c, b':')?;
    let minute = needed(c.number(2, 2))?;
    let mut second = 0;
    if c.eat(b':') {
        second = needed(c.number(2, 2))?;
        if c.eat(b'.') || c.eat(b',') {
            needed(c.number(1, 9))?;
            while c.peek().is_some_and(|b| b.is_ascii_digit()) {
                c.pos += 1;
            }
        }
    }
    NaiveTime::from_hms_opt(hour, minute, second).ok_or(Numeric::Invalid)
}

/// An offset in seconds east of UTC: `z`, `utc`, `gmt`, optionally followed by `±HH[[:]MM]`,
/// or `±HH[[:]MM]` alone.
fn read_offset(c: &mut Cursor) -> Step<i64> {
    let named = c.eat(b'z') || c.eat_str("utc") || c.eat_str("gmt");
    let sign = if c.eat(b'+') {
        1
    } else if c.eat(b'-') {
        -1
    } else if named {
        return Ok(0);
    } else {
        return Err(Numeric::Other);
    };
    let hours = needed(c.number(2, 2))?;
    let colon = c.eat(b':');
    let minutes = if colon { needed(c.number(2, 2))? } else { c.number(2, 2).unwrap_or(0) };
    if hours > 23 || minutes > 59 {
        return Err(Numeric::Invalid);
    }
    Ok(sign * (i64::from(hours) * 3600 + i64::from(minutes) * 60))
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
