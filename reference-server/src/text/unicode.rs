//! Canonical composition (NFC) of the characters slugs transliterate, with the tables of
//! `slug_tables`.

use super::slug_tables::{CCC_0300, COMPOSE};

fn combining_class(c: char) -> u8 {
    let n = c as u32;
    match n {
        0x300..=0x36F => CCC_0300[(n - 0x300) as usize],
        0x483..=0x487 => 230,
        _ => 0,
    }
}

/// The composition table indexed by composite, for decomposition.
fn decompositions() -> &'static [(u32, u32, u32)] {
    static TABLE: std::sync::OnceLock<Vec<(u32, u32, u32)>> = std::sync::OnceLock::new();
    TABLE.get_or_init(|| {
        let mut v: Vec<(u32, u32, u32)> = COMPOSE.iter().map(|&(a, m, c)| (c, a, m)).collect();
        v.sort_unstable();
        v
    })
}

fn decompose_into(c: char, out: &mut Vec<char>) {
    let table = decompositions();
    // Composites nest only a few levels deep (e.g. Vietnamese letters with two marks).
    let mut marks: Vec<char> = Vec::new();
    let mut cur = c;
    for _ in 0..8 {
        match table.binary_search_by(|&(comp, _, _)| comp.cmp(&(cur as u32))) {
            Ok(idx) => {
                let (_, base, mark) = table[idx];
                match (char::from_u32(base), char::from_u32(mark)) {
                    (Some(b), Some(m)) => {
                        marks.push(m);
                        cur = b;
                    }
                    _ => break,
                }
            }
            Err(_) => break,
        }
    }
    out.push(cur);
    out.extend(marks.into_iter().rev());
}

/// Unicode canonical composition (NFC) for the Latin, Greek and Cyrillic letters that have a
/// precomposed form: decomposition, canonical ordering of combining marks, recomposition.
pub(super) fn compose(s: &str) -> Vec<char> {
    let mut decomposed: Vec<char> = Vec::with_capacity(s.len());
    for c in s.chars() {
        if c.is_ascii() {
            decomposed.push(c);
        } else {
            decompose_into(c, &mut decomposed);
        }
    }
    // Canonical ordering: stable sort of every run of combining marks by class.
    let mut i = 0;
    while i < decomposed.len() {
        if combining_class(decomposed[i]) == 0 {
            i += 1;
            continue;
        }
        let start = i;
        while i < decomposed.len() && combining_class(decomposed[i]) != 0 {
            i += 1;
        }
        decomposed[start..i].sort_by_key(|&c| combining_class(c));
    }
    let mut out: Vec<char> = Vec::with_capacity(decomposed.len());
    let mut starter: Option<usize> = None;
    let mut last_ccc: u8 = 0;
    for c in decomposed {
        let ccc = combining_class(c);
        if ccc == 0 {
            starter = Some(out.len());
            last_ccc = 0;
            out.push(c);
            continue;
        }
        if let Some(si) = starter {
            let adjacent = si + 1 == out.len();
            if adjacent || (last_ccc != 0 && last_ccc < ccc) {
                let key = (out[si] as u32, c as u32);
                if let Ok(idx) = COMPOSE.binary_search_by(|&(a, m, _)| (a, m).cmp(&key)) {
                    if let Some(composed) = char::from_u32(COMPOSE[idx].2) {
                        out[si] = composed;
                        continue;
                    }
                }
            }
        }
        last_ccc = ccc;
        out.push(c);
    }
    out
}
