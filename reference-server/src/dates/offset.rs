//! How a UTC offset is written: the one piece of formatting that the zones need too (their
//! abbreviations), so it stands below both `zone` and `format`.

/// `+01:00` (with colon) or `+05` / `+0530` (abbreviation style).
pub(super) fn format_offset(seconds: i32, with_colon: bool) -> String {
    let sign = if seconds < 0 { '-' } else { '+' };
    let abs = seconds.unsigned_abs();
    let (hours, minutes) = (abs / 3600, abs % 3600 / 60);
    if with_colon {
        format!("{sign}{hours:02}:{minutes:02}")
    } else if minutes == 0 {
        format!("{sign}{hours:02}")
    } else {
        format!("{sign}{hours:02}{minutes:02}")
    }
}

#[cfg(test)]
mod tests {
    use super::format_offset;

    #[test]
    fn offsets_with_and_without_colon() {
        assert_eq!(format_offset(3600, true), "+01:00");
        assert_eq!(format_offset(-34_200, true), "-09:30");
        assert_eq!(format_offset(0, true), "+00:00");
        assert_eq!(format_offset(18_000, false), "+05");
        assert_eq!(format_offset(19_800, false), "+0530");
        assert_eq!(format_offset(-20_700, false), "-0545");
    }
}
