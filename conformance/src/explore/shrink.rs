//! Shrinking: a failing sequence is cut down to a short one that still shows the same
//! difference (same level, kind and path). Each try replays the candidate from the start on
//! both sides, with a new word (so that it meets none of the earlier tries' items): whole runs
//! of steps are dropped first (halves, quarters, … single steps), then body fields, elements of
//! the body's lists and list filters, then lists of IDs in filters are cut to their first; the
//! two passes alternate until neither changes anything. A step that used an ID of a dropped create
//! gets an unknown ID on both sides, so references stay consistent.

use chrono::{DateTime, Utc};
use reqwest::Client;

use super::generate::Step;
use super::judge::{findings, Finding, Level};
use super::lockstep::{Lockstep, Played, Side};
use crate::differential::compare::Kind;

/// What shrinking found: the sequence, and its last step's exchange.
pub struct Shrunk {
    pub steps: Vec<Step>,
    pub finding: Finding,
    pub played: Played,
    /// The IDs the reference server (B) gave the creates of the last replay, by label.
    pub reference_ids: std::collections::BTreeMap<usize, u64>,
    pub token: String,
    pub replays: usize,
    /// What the reference server answered each step (its status; `None`: no answer).
    pub statuses: Vec<Option<u16>>,
}

impl Shrunk {
    /// The raw sequence of a finding: every step up to the one that showed it, as played.
    pub fn raw(
        (steps, statuses): (Vec<Step>, Vec<Option<u16>>),
        finding: Finding,
        played: Played,
        lockstep: &Lockstep,
        token: &str,
    ) -> Shrunk {
        let reference_ids = lockstep.ids_of(1).clone();
        Shrunk { steps, finding, played, reference_ids, token: token.to_string(), replays: 0, statuses }
    }
}

/// Replays candidates.
pub struct Replayer<'a> {
    pub sides: [&'a Side; 2],
    pub client: &'a Client,
    pub now: DateTime<Utc>,
    pub seed: u64,
    pub replays: usize,
    /// The most replays shrinking may take.
    pub budget: usize,
    /// When shrinking stops trying, whatever the budget left.
    pub deadline: std::time::Instant,
    /// The requests sent to the implementation so far, and the most shrinking may send.
    pub requests: usize,
    pub request_budget: usize,
}

impl<'a> Replayer<'a> {
    /// A replayer with the budgets of the command line.
    pub fn new(
        sides: [&'a Side; 2],
        client: &'a Client,
        now: DateTime<Utc>,
        cli: &super::options::ExploreCli,
    ) -> Replayer<'a> {
        Replayer {
            sides,
            client,
            now,
            seed: cli.seed,
            replays: 0,
            budget: cli.shrink_budget,
            deadline: std::time::Instant::now() + cli.shrink_time,
            requests: 0,
            request_budget: cli.shrink_requests,
        }
    }

    /// Whether a budget (replays, requests) or the time is used up.
    fn spent(&self) -> bool {
        self.replays >= self.budget
            || self.requests >= self.request_budget
            || std::time::Instant::now() >= self.deadline
    }

    /// A word for replay `n`: 11 lowercase letters and digits, like a case's `case_id`.
    fn token(&self) -> String {
        word(self.seed.wrapping_mul(1_000_003).wrapping_add(self.replays as u64))
    }

    /// Replays `steps`; the first step showing `signature`, cut there, with what it gave.
    async fn replay(&mut self, steps: &[Step], signature: &(Level, Kind, String)) -> Option<Shrunk> {
        self.replays += 1;
        let token = self.token();
        let mut lockstep = Lockstep::new(self.sides, self.client, &token, self.now);
        let mut statuses = Vec::with_capacity(steps.len());
        for (i, step) in steps.iter().enumerate() {
            self.requests += 1;
            let played = lockstep.play(step).await;
            statuses.push(played.reference_status());
            let found =
                findings(step, &played.compared, &played.legs).into_iter().find(|f| f.signature() == *signature);
            if let Some(finding) = found {
                {
                    let steps = steps[..=i].to_vec();
                    let reference_ids = lockstep.ids_of(1).clone();
                    let replays = self.replays;
                    return Some(Shrunk { steps, finding, played, reference_ids, token, replays, statuses });
                }
            }
        }
        None
    }
}

/// Shrinks `steps` (whose last step showed `finding`); `None` when not even the whole sequence
/// shows it again (a difference that depends on timing or on the implementation's history).
/// Dropping steps and simplifying them alternate until neither changes anything: a create
/// that a later step links to can go once the link has gone.
pub async fn shrink(replayer: &mut Replayer<'_>, steps: Vec<Step>, finding: &Finding) -> Option<Shrunk> {
    let signature = finding.signature();
    let mut best = replayer.replay(&steps, &signature).await?;
    // Two cheap tries first, each one replay: only the writes on what the last step leans on,
    // then no reads at all (reads change nothing).
    for candidate in [slice(&best.steps, &best.finding, &best.reference_ids), writes_only(&best.steps)] {
        if candidate.len() < best.steps.len() {
            if let Some(shorter) = replayer.replay(&candidate, &signature).await {
                best = shorter;
            }
        }
    }
    loop {
        let before = best.steps.clone();
        best = drop_steps(replayer, best, &signature).await;
        best = simplify(replayer, best, &signature).await;
        if best.steps == before || replayer.spent() {
            break;
        }
    }
    best.replays = replayer.replays;
    Some(best)
}

/// Every step but the reads (the last step stays).
fn writes_only(steps: &[Step]) -> Vec<Step> {
    let last = steps.len() - 1;
    steps.iter().enumerate().filter(|(i, s)| *i == last || s.method != "GET").map(|(_, s)| s.clone()).collect()
}

/// The steps the last one leans on: the writes of every item it names or the difference shows
/// (a list item of the reference's), and of the items those name, in their order.
fn slice(steps: &[Step], finding: &Finding, ids: &std::collections::BTreeMap<usize, u64>) -> Vec<Step> {
    let last = steps.len() - 1;
    let mut wanted: std::collections::BTreeSet<usize> = steps[last].uses().into_iter().collect();
    let shown = finding.difference.b.strip_prefix("id ").and_then(|r| r.split(' ').next()?.parse::<u64>().ok());
    wanted.extend(ids.iter().filter(|(_, id)| Some(**id) == shown).map(|(label, _)| *label));
    let writes_on = |step: &Step, wanted: &std::collections::BTreeSet<usize>| {
        step.method != "GET"
            && ((step.creates() && wanted.contains(&step.label))
                || Step::labels_in(&step.path).iter().any(|l| wanted.contains(l)))
    };
    loop {
        let before = wanted.len();
        for step in steps[..last].iter().filter(|s| writes_on(s, &wanted)).cloned().collect::<Vec<_>>() {
            wanted.extend(step.uses());
        }
        if wanted.len() == before {
            break;
        }
    }
    let mut out: Vec<Step> = steps[..last].iter().filter(|s| writes_on(s, &wanted)).cloned().collect();
    out.push(steps[last].clone());
    out
}

/// Drops runs of steps: halves, quarters, … single steps (the last step stays).
async fn drop_steps(replayer: &mut Replayer<'_>, mut best: Shrunk, signature: &(Level, Kind, String)) -> Shrunk {
    let mut chunk = best.steps.len().div_ceil(2);
    while chunk >= 1 && !replayer.spent() {
        let mut removed = false;
        let mut at = 0;
        while at + 1 < best.steps.len() && !replayer.spent() {
            let end = (at + chunk).min(best.steps.len() - 1);
            let mut candidate = best.steps.clone();
            candidate.drain(at..end);
            match replayer.replay(&candidate, signature).await {
                Some(shrunk) => {
                    best = shrunk;
                    removed = true;
                }
                None => at += chunk,
            }
        }
        if !removed {
            chunk /= 2;
        }
    }
    best
}

/// One simplification of a step.
enum Edit {
    DropField(String),
    /// Drops one element of a list in the body.
    DropElement(String, usize),
    DropFilter(String),
    FirstOnly(String),
}

impl Edit {
    /// The step with the edit, if it changes it.
    fn apply(&self, step: &Step) -> Option<Step> {
        let mut out = step.clone();
        match self {
            Edit::DropField(key) => {
                out.body.as_mut()?.remove(key)?;
            }
            Edit::DropElement(key, n) => match out.body.as_mut()?.get_mut(key)? {
                serde_json::Value::Array(items) if *n < items.len() => {
                    items.remove(*n);
                }
                _ => return None,
            },
            Edit::DropFilter(name) => out.query.retain(|(n, _)| n != name),
            Edit::FirstOnly(name) => {
                let value = out.query.iter_mut().find(|(n, _)| n == name)?;
                value.1 = value.1.split_once(',')?.0.to_string();
            }
        }
        (out != *step).then_some(out)
    }
}

/// Drops body fields, elements of lists in the body and list filters one by one, then cuts
/// lists of IDs in filters to their first.
async fn simplify(replayer: &mut Replayer<'_>, mut best: Shrunk, signature: &(Level, Kind, String)) -> Shrunk {
    let mut i = 0;
    while i < best.steps.len() {
        let step = &best.steps[i];
        let mut edits: Vec<Edit> =
            step.body.iter().flat_map(|b| b.keys()).map(|k| Edit::DropField(k.clone())).collect();
        for (key, value) in step.body.iter().flatten() {
            let elements = value.as_array().map_or(0, Vec::len);
            edits.extend((0..elements).rev().map(|n| Edit::DropElement(key.clone(), n)));
        }
        let filters = step.query.iter().map(|(n, _)| n).filter(|n| *n != "search");
        edits.extend(filters.clone().map(|n| Edit::DropFilter(n.clone())));
        edits.extend(filters.map(|n| Edit::FirstOnly(n.clone())));
        for edit in edits {
            if replayer.spent() || i >= best.steps.len() {
                break;
            }
            let Some(changed) = edit.apply(&best.steps[i]) else { continue };
            let mut steps = best.steps.clone();
            steps[i] = changed;
            if let Some(shrunk) = replayer.replay(&steps, signature).await {
                best = shrunk;
            }
        }
        i += 1;
    }
    best
}

/// 11 characters of `[0-9a-z]`, starting with a letter.
pub fn word(seed: u64) -> String {
    let mut rng = super::rng::Rng::new(seed);
    let alphabet = b"0123456789abcdefghijklmnopqrstuvwxyz";
    let mut out = String::from("x");
    for _ in 0..10 {
        out.push(alphabet[rng.below(36) as usize] as char);
    }
    out
}
