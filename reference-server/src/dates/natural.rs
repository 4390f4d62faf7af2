//! English date forms: day words, times of day, weekdays, relative amounts, month names.

use super::arith::{all_digits, in_range, shift};
use super::cursor::Cursor;
use super::zone::Zone;
use chrono::{Datelike, Duration, Months, NaiveDate, NaiveDateTime, NaiveTime};

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
        } else {
            // A malformed time (`9:5`) or `am` with nothing before it stays among the words,
            // where no form takes it.
            rest.push(token.to_string());
        }
        i += 1;
    }
    Ok((time, rest))
}

/// The local wall time for the English forms.
pub(super) fn parse_natural(lower: &str, zone: &Zone, now_utc: NaiveDateTime) -> Option<NaiveDateTime> {
    let now_local = zone.utc_to_local(now_utc);
    let tokens = tokenize(lower);
    let (time, rest) = extract_time(&tokens).ok()?;
    let today = now_local.date();
    let at = |date: NaiveDate| date.and_time(time.unwrap_or(NaiveTime::MIN));

    let words: Vec<&str> = rest.iter().map(String::as_str).collect();
    let wall = match words.as_slice() {
        // A time of day alone: today at that time (`at` alone is nothing).
        [] => today.and_time(time?),
        [day] if weekday_number(day).is_some() => at(weekday_date(today, day, "this")?),
        [dir @ ("next" | "last" | "previous" | "this"), day] if weekday_number(day).is_some() => {
            at(weekday_date(today, day, dir)?)
        }
        // A day word or `now`, alone or with relative amounts: `tomorrow`, `tomorrow +1 day`,
        // `now + 2 hours`.
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
        let after_bare_sign = groups.last().is_some_and(|g| *g == ["+"] || *g == ["-"]);
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
    use crate::dates::parse::parse_datetime;
    use crate::dates::test_support::*;

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

    /// Texts that are not dates: unknown words, words without what they need, fields out of range.
    const NOT_DATES: &[&str] = &[
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
    ];

    #[test]
    fn rejects_what_is_not_a_date() {
        for &bad in NOT_DATES {
            let result = pu(bad);
            // "2026" and "-1"-like digits are timestamps, which is fine for "2026".
            if bad == "2026" {
                assert_eq!(result, some("1970-01-01 00:33:46"));
                continue;
            }
            assert_eq!(result, None, "{bad:?}");
        }
    }
}
