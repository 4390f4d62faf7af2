//! Run and case identifiers: `run_id` and `case_id`.
//!
//! A case id is `c` followed by 10 base-36 characters, a hash of the run's random seed and the
//! test name. All ids have one length, so no id is contained in another unless they are equal,
//! and the ids of one run are made unique.

use std::collections::hash_map::RandomState;
use std::collections::{BTreeMap, HashSet};
use std::hash::{BuildHasher, Hash, Hasher};
use std::time::{SystemTime, UNIX_EPOCH};

const LEN: usize = 10;

fn base36(mut n: u64) -> String {
    const DIGITS: &[u8] = b"0123456789abcdefghijklmnopqrstuvwxyz";
    let mut out = vec![b'0'; LEN];
    for slot in out.iter_mut().rev() {
        *slot = DIGITS[(n % 36) as usize];
        n /= 36;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Identifiers of one run.
pub struct Ids {
    pub run_id: String,
    seed: u64,
}

impl Ids {
    /// A new random run.
    pub fn new() -> Ids {
        let mut hasher = RandomState::new().build_hasher();
        SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_nanos()).unwrap_or(0).hash(&mut hasher);
        std::process::id().hash(&mut hasher);
        let seed = hasher.finish();
        Ids { run_id: format!("r{}", base36(seed)), seed }
    }

    /// One unique id per name.
    pub fn case_ids<'a>(&self, names: impl IntoIterator<Item = &'a str>) -> BTreeMap<String, String> {
        let mut used = HashSet::new();
        let mut out = BTreeMap::new();
        for name in names {
            let mut attempt = 0u64;
            loop {
                let mut hasher = std::collections::hash_map::DefaultHasher::new();
                (self.seed, name, attempt).hash(&mut hasher);
                let id = format!("c{}", base36(hasher.finish()));
                if used.insert(id.clone()) {
                    out.insert(name.to_string(), id);
                    break;
                }
                attempt += 1;
            }
        }
        out
    }
}

impl Default for Ids {
    fn default() -> Self {
        Ids::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_unique_of_one_length_and_lowercase() {
        let names: Vec<String> = (0..2000).map(|i| format!("f::case {i}")).collect();
        let ids = Ids::new().case_ids(names.iter().map(String::as_str));
        let values: HashSet<&String> = ids.values().collect();
        assert_eq!(values.len(), 2000);
        for id in ids.values() {
            assert_eq!(id.len(), 11);
            assert!(id.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit()));
        }
        assert_ne!(Ids::new().run_id, Ids::new().run_id);
    }
}
