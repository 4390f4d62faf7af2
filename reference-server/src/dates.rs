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

use chrono::{
    DateTime, Datelike, Duration, LocalResult, Months, NaiveDate, NaiveDateTime, NaiveTime, Offset, TimeZone, Timelike,
    Utc,
};
use chrono_tz::{OffsetName, Tz};

/// Smallest and largest calendar year a parsed date may have.
const MIN_YEAR: i32 = 1;
const MAX_YEAR: i32 = 9999;
/// Longer inputs are not dates anyone types; refusing them early bounds the work done.
const MAX_INPUT_LEN: usize = 128;
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
    Fixed { seconds: i32, label: String },
}

impl Zone {
    /// None for anything that is not a valid zone ("Mars/Olympus", "", "UTC+99").
    ///
    /// IANA names are matched without regard to case (`europe/paris` gives `Europe/Paris`).
    pub fn parse(text: &str) -> Option<Zone> {
        let text = text.trim();
        if text.is_empty() || text.len() > 64 || !text.is_ascii() {
            return None;
        }
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
            Zone::Fixed { label, .. } => label.clone(),
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
                match offset.abbreviation() {
                    Some(abbr) if !abbr.is_empty() => abbr.to_string(),
                    _ => format_offset(offset.fix().local_minus_utc(), false),
                }
            }
            Zone::Fixed { label, .. } => label.clone(),
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
    fn normalize_local(&self, local: NaiveDateTime) -> NaiveDateTime {
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
    let sign: i32 = match rest.as_bytes().first()? {
        b'+' => 1,
        b'-' => -1,
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
        return Some(Zone::Fixed { seconds: 0, label: "UTC+0".to_string() });
    }
    let sign_char = if sign < 0 { '-' } else { '+' };
    let minutes_label = if minutes == 0 { String::new() } else { minutes_label };
    Some(Zone::Fixed { seconds: sign * total, label: format!("UTC{sign_char}{hours}{minutes_label}") })
}

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

// ---------------------------------------------------------------------------------------------
// Helpers: arithmetic and formatting

fn shift(dt: NaiveDateTime, seconds: i64) -> Option<NaiveDateTime> {
    dt.checked_add_signed(Duration::try_seconds(seconds)?)
}

fn in_range(dt: NaiveDateTime) -> Option<NaiveDateTime> {
    (MIN_YEAR..=MAX_YEAR).contains(&dt.year()).then_some(dt)
}

fn all_digits(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit())
}

/// `+01:00` (with colon) or `+05` / `+0530` (abbreviation style).
fn format_offset(seconds: i32, with_colon: bool) -> String {
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

fn parse_timestamp(digits: &str) -> Option<NaiveDateTime> {
    let seconds: i64 = digits.parse().ok()?;
    DateTime::<Utc>::from_timestamp(seconds, 0).map(|dt| dt.naive_utc())
}

// ---------------------------------------------------------------------------------------------
// Numeric forms: `YYYY-MM-DD[( |T)HH:MM[:SS[.frac]][ ][offset]]`

enum Numeric {
    /// A wall time in the zone.
    Wall(NaiveDateTime),
    /// A UTC instant (the text carried an offset).
    Instant(NaiveDateTime),
    /// The shape matched but a field is out of range (`2026-02-30`, `10:61`).
    Invalid,
    /// Not this shape; let the English parser try.
    Other,
}

struct Cursor<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl Cursor<'_> {
    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    fn eat(&mut self, byte: u8) -> bool {
        if self.peek() == Some(byte) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    fn eat_str(&mut self, word: &str) -> bool {
        let end = self.pos.saturating_add(word.len());
        if self.bytes.get(self.pos..end) == Some(word.as_bytes()) {
            self.pos = end;
            true
        } else {
            false
        }
    }

    fn skip_spaces(&mut self) {
        while self.peek().is_some_and(|b| b.is_ascii_whitespace()) {
            self.pos += 1;
        }
    }

    /// Between `min` and `max` ASCII digits as a number.
    fn number(&mut self, min: usize, max: usize) -> Option<u32> {
        let start = self.pos;
        let mut value: u32 = 0;
        while self.pos - start < max {
            match self.peek() {
                Some(b) if b.is_ascii_digit() => {
                    value = value.checked_mul(10)?.checked_add(u32::from(b - b'0'))?;
                    self.pos += 1;
                }
                _ => break,
            }
        }
        if self.pos - start < min {
            self.pos = start;
            return None;
        }
        Some(value)
    }

    fn at_end(&self) -> bool {
        self.pos >= self.bytes.len()
    }
}

fn parse_numeric(lower: &str) -> Numeric {
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

// ---------------------------------------------------------------------------------------------
// English forms

const WEEKDAYS: [(&str, u32); 17] = [
    ("monday", 0),
    ("mon", 0),
    ("tuesday", 1),
    ("tue", 1),
    ("tues", 1),
    ("wednesday", 2),
    ("wed", 2),
    ("thursday", 3),
    ("thu", 3),
    ("thur", 3),
    ("thurs", 3),
    ("friday", 4),
    ("fri", 4),
    ("saturday", 5),
    ("sat", 5),
    ("sunday", 6),
    ("sun", 6),
];

const MONTHS: [&str; 24] = [
    "january",
    "jan",
    "february",
    "feb",
    "march",
    "mar",
    "april",
    "apr",
    "may",
    "june",
    "jun",
    "july",
    "jul",
    "august",
    "aug",
    "september",
    "sep",
    "sept",
    "october",
    "oct",
    "november",
    "nov",
    "december",
    "dec",
];

/// Words allowed in a relative amount (`+5 weeks`, `3 days ago`, `next month`).
const DURATION_WORDS: [&str; 22] = [
    "sec", "secs", "second", "seconds", "min", "mins", "minute", "minutes", "hour", "hours", "day", "days", "week",
    "weeks", "month", "months", "year", "years", "ago", "next", "last", "this",
];

fn weekday_number(word: &str) -> Option<u32> {
    WEEKDAYS.iter().find(|(name, _)| *name == word).map(|(_, n)| *n)
}

fn is_month(word: &str) -> bool {
    MONTHS.contains(&word)
}

/// Splits into words; commas become words of their own.
fn tokenize(lower: &str) -> Vec<String> {
    let spaced = lower.replace(',', " , ");
    let mut tokens: Vec<String> = Vec::new();
    for word in spaced.split_whitespace() {
        // Ordinal days: `25th` → `25`.
        let word = ["st", "nd", "rd", "th"]
            .iter()
            .find_map(|suffix| word.strip_suffix(suffix).filter(|n| n.len() <= 2 && all_digits(n)))
            .unwrap_or(word);
        tokens.push(word.to_string());
    }
    // `25 of december` → `25 december` (after `25th of december`).
    let mut out: Vec<String> = Vec::with_capacity(tokens.len());
    for (i, token) in tokens.iter().enumerate() {
        if token == "of" && i > 0 && all_digits(&tokens[i - 1]) && tokens.get(i + 1).is_some_and(|t| is_month(t)) {
            continue;
        }
        out.push(token.clone());
    }
    out
}

/// `H`, `H:MM`, `H:MM:SS` (optionally `.fraction`) → (hour, minute, second, had_colon).
fn parse_clock(text: &str) -> Option<(u32, u32, u32, bool)> {
    let mut c = Cursor { bytes: text.as_bytes(), pos: 0 };
    let hour = c.number(1, 2)?;
    let mut minute = 0;
    let mut second = 0;
    let mut colon = false;
    if c.eat(b':') {
        colon = true;
        minute = c.number(2, 2)?;
        if c.eat(b':') {
            second = c.number(2, 2)?;
            if c.eat(b'.') {
                c.number(1, 9)?;
                while c.peek().is_some_and(|b| b.is_ascii_digit()) {
                    c.pos += 1;
                }
            }
        }
    }
    c.at_end().then_some((hour, minute, second, colon))
}

/// `am` / `pm` / `a.m.` / `p.m.` → is it pm.
fn meridiem(word: &str) -> Option<bool> {
    match word {
        "am" | "a.m." | "a.m" => Some(false),
        "pm" | "p.m." | "p.m" => Some(true),
        _ => None,
    }
}

fn twelve_hour(hour: u32, minute: u32, second: u32, pm: bool) -> Result<NaiveTime, ()> {
    if !(1..=12).contains(&hour) {
        return Err(());
    }
    let hour = hour % 12 + if pm { 12 } else { 0 };
    NaiveTime::from_hms_opt(hour, minute, second).ok_or(())
}

/// Takes the time of day out of the words. `Err` when a time is malformed (`25:00`, `13pm`) or
/// there are two of them.
fn extract_time(tokens: &[String]) -> Result<(Option<NaiveTime>, Vec<String>), ()> {
    fn set(t: NaiveTime, time: &mut Option<NaiveTime>) -> Result<(), ()> {
        if time.replace(t).is_some() {
            Err(())
        } else {
            Ok(())
        }
    }
    let mut time: Option<NaiveTime> = None;
    let mut rest: Vec<String> = Vec::new();
    let mut i = 0;
    while i < tokens.len() {
        let token = tokens[i].as_str();
        let next_meridiem = tokens.get(i + 1).and_then(|t| meridiem(t));
        if token == "noon" {
            set(NaiveTime::from_hms_opt(12, 0, 0).ok_or(())?, &mut time)?;
        } else if token == "midnight" {
            set(NaiveTime::MIN, &mut time)?;
        } else if token == "at" {
            // `tomorrow at 9am`: a connector only.
        } else if let Some((clock, pm)) = ["a.m.", "p.m.", "a.m", "p.m", "am", "pm"]
            .iter()
            .find_map(|m| token.strip_suffix(m).map(|c| (c, meridiem(m))))
            .and_then(|(c, pm)| Some((parse_clock(c)?, pm?)))
        {
            let (h, m, s, _) = clock;
            set(twelve_hour(h, m, s, pm)?, &mut time)?;
        } else if let (Some((h, m, s, _)), Some(pm)) = (parse_clock(token), next_meridiem) {
            set(twelve_hour(h, m, s, pm)?, &mut time)?;
            i += 1;
        } else if let Some((h, m, s, true)) = parse_clock(token) {
            set(NaiveTime::from_hms_opt(h, m, s).ok_or(())?, &mut time)?;
        } else if token.contains(':') || meridiem(token).is_some() {
            return Err(()); // a malformed time, or `am` with nothing before it
        } else {
            rest.push(token.to_string());
        }
        i += 1;
    }
    Ok((time, rest))
}

/// The local wall time for the English forms.
fn parse_natural(lower: &str, zone: &Zone, now_utc: NaiveDateTime) -> Option<NaiveDateTime> {
    let now_local = zone.utc_to_local(now_utc);
    let tokens = tokenize(lower);
    let (time, rest) = extract_time(&tokens).ok()?;
    let today = now_local.date();
    let at = |date: NaiveDate| date.and_time(time.unwrap_or(NaiveTime::MIN));

    let words: Vec<&str> = rest.iter().map(String::as_str).collect();
    let wall = match words.as_slice() {
        // A time of day alone: today at that time (`at` alone is nothing).
        [] => today.and_time(time?),
        ["now"] => match time {
            Some(t) => today.and_time(t),
            None => return Some(now_local),
        },
        ["today"] => at(today),
        ["tomorrow"] => at(today.succ_opt()?),
        ["yesterday"] => at(today.pred_opt()?),
        [day] if weekday_number(day).is_some() => at(weekday_date(today, day, "this")?),
        [dir @ ("next" | "last" | "previous" | "this"), day] if weekday_number(day).is_some() => {
            at(weekday_date(today, day, dir)?)
        }
        // A day word or `now`, then relative amounts: `tomorrow +1 day`, `now + 2 hours`.
        [base @ ("now" | "today" | "tomorrow" | "yesterday"), amounts @ ..] => {
            let days = match *base {
                "tomorrow" => 1,
                "yesterday" => -1,
                _ => 0,
            };
            let start = if *base == "now" {
                now_local
            } else {
                today.checked_add_signed(Duration::try_days(days)?)?.and_time(NaiveTime::MIN)
            };
            let amount = parse_amounts(amounts)?;
            return apply_amount(start, amount, time, zone);
        }
        _ => match parse_amounts(&words) {
            Some(amount) => return apply_amount(now_local, amount, time, zone),
            None => {
                let date = parse_calendar_date(&words, now_local)?;
                at(date)
            }
        },
    };
    Some(zone.normalize_local(in_range(wall)?))
}

/// The date of a weekday relative to `today`, as PHP reads it: `monday` / `this monday` is today
/// if today is a Monday, else the coming one; `next monday` is the first Monday after today;
/// `last monday` / `previous monday` the last one before today.
fn weekday_date(today: NaiveDate, day: &str, direction: &str) -> Option<NaiveDate> {
    let target = i64::from(weekday_number(day)?);
    let current = i64::from(today.weekday().num_days_from_monday());
    let ahead = (target - current).rem_euclid(7); // 0..=6
    let days = match direction {
        "next" => (target - current - 1).rem_euclid(7) + 1,
        "last" | "previous" => -((current - target - 1).rem_euclid(7) + 1),
        _ => ahead,
    };
    today.checked_add_signed(Duration::try_days(days)?)
}

/// A sum of relative amounts.
#[derive(Debug, Default, PartialEq)]
struct Amount {
    months: i64,
    days: i64,
    seconds: i64,
}

/// `+5 weeks`, `3 days ago`, `-2 months`, `next month`, `+1 week 2 days`, `a week ago`: each
/// group is read by `interim`. None if these words are not only relative amounts.
fn parse_amounts(words: &[&str]) -> Option<Amount> {
    if words.is_empty() {
        return Some(Amount::default());
    }
    let mut groups: Vec<Vec<String>> = Vec::new();
    for word in words {
        let word = match *word {
            "previous" => "last",
            "a" | "an" => "1",
            w => w,
        };
        let starts_group = word.starts_with(['+', '-'])
            || word.starts_with(|c: char| c.is_ascii_digit())
            || matches!(word, "next" | "last" | "this");
        let after_bare_sign = groups.last().is_some_and(|g| g.len() == 1 && (g[0] == "+" || g[0] == "-"));
        match groups.last_mut() {
            Some(group) if !starts_group || after_bare_sign => group.push(word.to_string()),
            // A unit with no amount before it (`days`) is not an amount.
            _ if !starts_group => return None,
            _ => groups.push(vec![word.to_string()]),
        }
    }
    let mut total = Amount::default();
    for group in groups {
        // Only digits, signs and known unit words; `interim` alone would take any word that
        // starts like a unit (`holiday` as hours, `monkeys` as months).
        for word in &group {
            let letters = word.trim_start_matches(['+', '-']).trim_start_matches(|c: char| c.is_ascii_digit());
            if !letters.is_empty() && !DURATION_WORDS.contains(&letters) {
                return None;
            }
        }
        let mut text = group.join(" ");
        // `interim` has no leading `+`.
        while let Some(stripped) = text.strip_prefix('+') {
            text = stripped.trim_start().to_string();
        }
        match interim::parse_duration(&text).ok()? {
            interim::Interval::Seconds(s) => {
                total.seconds = total.seconds.checked_add(i64::from(s))?;
            }
            interim::Interval::Days(d) => total.days = total.days.checked_add(i64::from(d))?,
            interim::Interval::Months(m) => {
                total.months = total.months.checked_add(i64::from(m))?;
            }
        }
    }
    Some(total)
}

/// Applies relative amounts to a local wall time: months and days on the wall clock, then the
/// time of day if one was given, then seconds as elapsed time. Returns the normalised local
/// wall time.
fn apply_amount(start: NaiveDateTime, amount: Amount, time: Option<NaiveTime>, zone: &Zone) -> Option<NaiveDateTime> {
    let months = u32::try_from(amount.months.unsigned_abs()).ok()?;
    let mut wall = if amount.months >= 0 {
        start.checked_add_months(Months::new(months))?
    } else {
        start.checked_sub_months(Months::new(months))?
    };
    wall = wall.checked_add_signed(Duration::try_days(amount.days)?)?;
    if let Some(t) = time {
        wall = wall.date().and_time(t);
    }
    in_range(wall)?;
    let instant = shift(zone.local_to_utc(wall), amount.seconds)?;
    in_range(zone.utc_to_local(instant))
}

/// Month-name and slash dates, read by `interim`: `december 25, 2026`, `25 december 2026`,
/// `dec 25`, `2018-01-01`, `12/25/2026` (American order, as PHP reads slashes).
fn parse_calendar_date(words: &[&str], now_local: NaiveDateTime) -> Option<NaiveDate> {
    // A month name or a numeric date is needed: bare numbers (`25`, `29`) are not dates.
    if !words.iter().any(|w| is_month(w) || w.contains(['-', '/'])) {
        return None;
    }
    let mut parts: Vec<&str> = Vec::with_capacity(words.len() + 1);
    for (i, word) in words.iter().enumerate() {
        let is_number = all_digits(word);
        let punctuation = word.bytes().all(|b| b.is_ascii_digit() || matches!(b, b'-' | b'/' | b','));
        if !(is_month(word) || punctuation) || word.starts_with(['-', '/']) {
            return None;
        }
        // `december 25 2026` → `december 25, 2026`, the form `interim` wants.
        if is_number && word.len() == 4 && i >= 2 && is_month(words[i - 2]) && all_digits(words[i - 1]) {
            parts.push(",");
        }
        parts.push(word);
    }
    let text = parts.join(" ");
    let base = now_local.and_utc();
    let parsed = interim::parse_date_string(&text, base, interim::Dialect::Us).ok()?;
    Some(parsed.naive_utc().date())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dt(s: &str) -> NaiveDateTime {
        NaiveDateTime::parse_from_str(s, "%Y-%m-%d %H:%M:%S").expect("test date")
    }

    /// The instant the recordings were made.
    fn now() -> NaiveDateTime {
        dt("2026-11-22 01:42:17")
    }

    fn zone(name: &str) -> Zone {
        Zone::parse(name).expect("test zone")
    }

    fn utc() -> Zone {
        zone("UTC")
    }

    fn p(input: &str, z: &Zone) -> Option<String> {
        parse_datetime(input, z, now()).map(format_wp)
    }

    fn pu(input: &str) -> Option<String> {
        p(input, &utc())
    }

    fn some(s: &str) -> Option<String> {
        Some(s.to_string())
    }

    // --- Zone::parse / name ------------------------------------------------------------------

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
            assert_eq!(z, Zone::Fixed { seconds, label: label.to_string() }, "{text}");
            assert_eq!(z.name(), label);
            assert_eq!(z.abbreviation(now()), label);
            assert_eq!(z.offset_seconds(now()), seconds);
        }
    }

    // --- Abbreviations and DST ---------------------------------------------------------------

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

    // --- parse_datetime: numeric forms ---------------------------------------------------------

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

    // --- parse_datetime: English forms -------------------------------------------------------

    #[test]
    fn parses_day_words() {
        // now = 2026-11-22 01:42:17 UTC, a Sunday.
        assert_eq!(pu("now"), some("2026-11-22 01:42:17"));
        assert_eq!(pu("NOW"), some("2026-11-22 01:42:17"));
        assert_eq!(pu("today"), some("2026-11-22 00:00:00"));
        assert_eq!(pu("Today"), some("2026-11-22 00:00:00"));
        assert_eq!(pu("tomorrow"), some("2026-11-23 00:00:00"));
        assert_eq!(pu("yesterday"), some("2026-11-21 00:00:00"));
        assert_eq!(pu("midnight"), some("2026-11-22 00:00:00"));
        assert_eq!(pu("noon"), some("2026-11-22 12:00:00"));
        assert_eq!(pu("tomorrow noon"), some("2026-11-23 12:00:00"));
        assert_eq!(pu("noon tomorrow"), some("2026-11-23 12:00:00"));
        assert_eq!(pu("yesterday midnight"), some("2026-11-21 00:00:00"));
        assert_eq!(pu("today 23:59"), some("2026-11-22 23:59:00"));
        assert_eq!(pu("yesterday 23:59"), some("2026-11-21 23:59:00"));
    }

    #[test]
    fn parses_times_of_day() {
        // Recording: "tomorrow 9am" / "tomorrow 11am" in UTC.
        assert_eq!(pu("tomorrow 9am"), some("2026-11-23 09:00:00"));
        assert_eq!(pu("tomorrow 11am"), some("2026-11-23 11:00:00"));
        assert_eq!(pu("Tomorrow 9AM"), some("2026-11-23 09:00:00"));
        assert_eq!(pu("tomorrow at 9am"), some("2026-11-23 09:00:00"));
        assert_eq!(pu("tomorrow 9 am"), some("2026-11-23 09:00:00"));
        assert_eq!(pu("tomorrow 9:30pm"), some("2026-11-23 21:30:00"));
        assert_eq!(pu("tomorrow 9:30 p.m."), some("2026-11-23 21:30:00"));
        assert_eq!(pu("tomorrow 12pm"), some("2026-11-23 12:00:00"));
        assert_eq!(pu("tomorrow 12am"), some("2026-11-23 00:00:00"));
        assert_eq!(pu("tomorrow 12:30am"), some("2026-11-23 00:30:00"));
        assert_eq!(pu("tomorrow 21:15"), some("2026-11-23 21:15:00"));
        assert_eq!(pu("tomorrow 21:15:30"), some("2026-11-23 21:15:30"));
        assert_eq!(pu("9am"), some("2026-11-22 09:00:00"));
        assert_eq!(pu("4pm"), some("2026-11-22 16:00:00"));
        assert_eq!(pu("16:30"), some("2026-11-22 16:30:00"));
        assert_eq!(pu("9am tomorrow"), some("2026-11-23 09:00:00"));
        assert_eq!(pu("2018-01-01 4pm"), some("2018-01-01 16:00:00"));
        assert_eq!(pu("2018-01-01 noon"), some("2018-01-01 12:00:00"));
    }

    #[test]
    fn relative_words_use_the_zone_day() {
        // 01:42 UTC on the 22nd is still the 21st in New York and already the 22nd in Tokyo.
        let ny = zone("America/New_York");
        assert_eq!(p("now", &ny), some("2026-11-21 20:42:17"));
        assert_eq!(p("today", &ny), some("2026-11-21 00:00:00"));
        assert_eq!(p("tomorrow 9am", &ny), some("2026-11-22 09:00:00"));
        assert_eq!(p("yesterday", &ny), some("2026-11-20 00:00:00"));
        let tokyo = zone("Asia/Tokyo");
        assert_eq!(p("now", &tokyo), some("2026-11-22 10:42:17"));
        assert_eq!(p("tomorrow 9am", &tokyo), some("2026-11-23 09:00:00"));
        let minus3 = zone("UTC-3");
        assert_eq!(p("today", &minus3), some("2026-11-21 00:00:00"));
        assert_eq!(p("+1 day", &minus3), some("2026-11-22 22:42:17"));
    }

    #[test]
    fn parses_weekdays() {
        // now is Sunday 2026-11-22.
        assert_eq!(pu("next wednesday 4pm"), some("2026-11-25 16:00:00"));
        assert_eq!(pu("next wednesday"), some("2026-11-25 00:00:00"));
        assert_eq!(pu("wednesday"), some("2026-11-25 00:00:00"));
        assert_eq!(pu("wed 4pm"), some("2026-11-25 16:00:00"));
        assert_eq!(pu("last monday"), some("2026-11-16 00:00:00"));
        assert_eq!(pu("previous monday"), some("2026-11-16 00:00:00"));
        assert_eq!(pu("monday"), some("2026-11-23 00:00:00"));
        assert_eq!(pu("sunday"), some("2026-11-22 00:00:00"));
        assert_eq!(pu("this sunday"), some("2026-11-22 00:00:00"));
        assert_eq!(pu("next sunday"), some("2026-11-29 00:00:00"));
        assert_eq!(pu("last sunday"), some("2026-11-15 00:00:00"));
        assert_eq!(pu("last saturday"), some("2026-11-21 00:00:00"));
        assert_eq!(pu("next saturday 10:30"), some("2026-11-28 10:30:00"));
        assert_eq!(pu("Next Friday 8PM"), some("2026-11-27 20:00:00"));
    }

    #[test]
    fn parses_relative_amounts() {
        assert_eq!(pu("+5 weeks"), some("2026-12-27 01:42:17"));
        assert_eq!(pu("+1 day"), some("2026-11-23 01:42:17"));
        assert_eq!(pu("+1 days"), some("2026-11-23 01:42:17"));
        assert_eq!(pu("1 day"), some("2026-11-23 01:42:17"));
        // Recording (list): -2 months → 2026-09-22 (then floored to the day).
        assert_eq!(pu("-2 months"), some("2026-09-22 01:42:17"));
        assert_eq!(pu("3 days ago"), some("2026-11-19 01:42:17"));
        assert_eq!(pu("a week ago"), some("2026-11-15 01:42:17"));
        assert_eq!(pu("+1 year"), some("2027-11-22 01:42:17"));
        assert_eq!(pu("+2 hours"), some("2026-11-22 03:42:17"));
        assert_eq!(pu("-30 minutes"), some("2026-11-22 01:12:17"));
        assert_eq!(pu("+1 week 2 days"), some("2026-12-01 01:42:17"));
        assert_eq!(pu("+1 week +2 days"), some("2026-12-01 01:42:17"));
        assert_eq!(pu("next month"), some("2026-12-22 01:42:17"));
        assert_eq!(pu("last year"), some("2025-11-22 01:42:17"));
        assert_eq!(pu("next week"), some("2026-11-29 01:42:17"));
        assert_eq!(pu("+1 day 9am"), some("2026-11-23 09:00:00"));
        assert_eq!(pu("+ 1 day"), some("2026-11-23 01:42:17"));
        assert_eq!(pu("now + 2 hours"), some("2026-11-22 03:42:17"));
        assert_eq!(pu("tomorrow +1 day"), some("2026-11-24 00:00:00"));
        assert_eq!(pu("+24 months"), some("2028-11-22 01:42:17"));
        assert_eq!(pu("+9999 days"), some("2054-04-08 01:42:17"));
    }

    #[test]
    fn month_arithmetic_clamps_to_month_end() {
        let z = utc();
        let jan31 = dt("2026-01-31 10:00:00");
        assert_eq!(parse_datetime("+1 month", &z, jan31), Some(dt("2026-02-28 10:00:00")));
    }

    #[test]
    fn relative_amounts_across_dst() {
        let ny = zone("America/New_York");
        // 2026-03-07 02:30 EST; a day later 02:30 does not exist → 03:30 EDT.
        let now_utc = dt("2026-03-07 07:30:00");
        assert_eq!(parse_datetime("+1 day", &ny, now_utc), Some(dt("2026-03-08 03:30:00")));
        // Hours are elapsed time: 24 hours later is 03:30 EDT too.
        assert_eq!(parse_datetime("+24 hours", &ny, now_utc), Some(dt("2026-03-08 03:30:00")));
        // Days keep the wall clock across the change: 12:00 EST + 1 day = 12:00 EDT.
        let noon = dt("2026-03-07 17:00:00");
        assert_eq!(parse_datetime("+1 day", &ny, noon), Some(dt("2026-03-08 12:00:00")));
        assert_eq!(parse_datetime("+24 hours", &ny, noon), Some(dt("2026-03-08 13:00:00")));
    }

    #[test]
    fn parses_month_names() {
        assert_eq!(pu("December 25, 2026"), some("2026-12-25 00:00:00"));
        assert_eq!(pu("december 25 2026"), some("2026-12-25 00:00:00"));
        assert_eq!(pu("Dec 25, 2026"), some("2026-12-25 00:00:00"));
        assert_eq!(pu("December 25th, 2026"), some("2026-12-25 00:00:00"));
        assert_eq!(pu("25 December 2026 19:30"), some("2026-12-25 19:30:00"));
        assert_eq!(pu("25 December 2026"), some("2026-12-25 00:00:00"));
        assert_eq!(pu("25th of December 2026 7pm"), some("2026-12-25 19:00:00"));
        assert_eq!(pu("December 25, 2026 7:30pm"), some("2026-12-25 19:30:00"));
        assert_eq!(pu("December 25"), some("2026-12-25 00:00:00"));
        assert_eq!(pu("12/25/2026"), some("2026-12-25 00:00:00"));
        assert_eq!(pu("12/25/2026 10:00"), some("2026-12-25 10:00:00"));
        assert_eq!(pu("February 29, 2028"), some("2028-02-29 00:00:00"));
        let ny = zone("America/New_York");
        assert_eq!(p("March 8, 2026 2:30am", &ny), some("2026-03-08 03:30:00"));
    }

    #[test]
    fn rejects_what_is_not_a_date() {
        for bad in [
            "",
            " ",
            "before my birthday",
            "whenever",
            "foo",
            "garbage",
            "holiday",
            "weekend",
            "seriously",
            "days",
            "5 monkeys",
            "+5 monkeys",
            "next",
            "last",
            "next tomorrow",
            "+",
            "-",
            "ago",
            "am",
            "pm",
            "13pm",
            "0am",
            "tomorrow 25:00",
            "tomorrow 9am 10am",
            "tomorrow 9:5",
            "9am 16:00",
            "February 30, 2026",
            "December 32, 2026",
            "25/12/2026",
            "2026-13-45 4pm",
            "+999999 years",
            "+9999 years",
            "-9999 years",
            "+99999 days",
            "next moonday",
            "yesterday tomorrow",
            "tomorrow 9am foo",
            "now now",
            "2026",
            "1.5",
            "-1",
            "30.11.2026",
            "\u{0}",
            "tomorrow\u{0}",
            "明日",
            "tomörrow",
            "2026-11-25 10:00 ünïcode",
            "at",
            "at at",
            "25th",
            "at 29 midnight",
            "12pm 25",
            "5 , 6",
        ] {
            let result = pu(bad);
            // "2026" and "-1"-like digits are timestamps, which is fine for "2026".
            if bad == "2026" {
                assert_eq!(result, some("1970-01-01 00:33:46"));
                continue;
            }
            assert_eq!(result, None, "{bad:?}");
        }
    }

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

    // --- Formatting --------------------------------------------------------------------------

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

    // --- Never panics ------------------------------------------------------------------------

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

    #[test]
    fn odd_strings_do_not_panic() {
        let fixed = [
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
        let long = "1".repeat(10_000);
        let long_words = "next ".repeat(1_000);
        let zones = [utc(), zone("Europe/Paris"), zone("UTC-3:30")];
        for z in &zones {
            for input in fixed.iter().copied().chain([long.as_str(), long_words.as_str()]) {
                let _ = parse_datetime(input, z, now());
                let _ = Zone::parse(input);
            }
        }
    }

    #[test]
    fn random_strings_do_not_panic() {
        // A small deterministic generator over characters that dates are made of.
        let alphabet: Vec<char> =
            "0123456789 -+:/.,TtZzapmAPM utcgmtnextlastdayweekmonthyearagonoonmidnightéü日".chars().collect();
        let words = [
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
        let mut state: u64 = 0x2545_f491_4f6c_dd1d;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let zones = [utc(), zone("America/New_York"), zone("UTC+5.75")];
        for round in 0..20_000 {
            let mut s = String::new();
            let len = (next() % 24) as usize;
            if round % 2 == 0 {
                for _ in 0..len {
                    s.push(alphabet[(next() % alphabet.len() as u64) as usize]);
                }
            } else {
                for _ in 0..len % 6 {
                    s.push_str(words[(next() % words.len() as u64) as usize]);
                    s.push(' ');
                }
            }
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
