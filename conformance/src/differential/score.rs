//! Collecting the comparisons: the agreement over all exchanges (like a replay score), and the
//! differences grouped by route, then by path and kind, with how often each occurred and the
//! first occurrence.

use std::collections::BTreeMap;

use serde::Serialize;

use super::compare::{path_shape, Agreement, Compared, Difference, Kind, Leg};
use super::play::Exchange;

/// How many exchanges agree on one aspect, out of how many it applies to.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Ratio {
    pub agree: usize,
    pub of: usize,
}

impl Ratio {
    fn add(&mut self, agrees: Option<bool>) {
        if let Some(agrees) = agrees {
            self.of += 1;
            self.agree += usize::from(agrees);
        }
    }

    /// The share that agrees, rounded down to a tenth (so 100.0 means all); `None` for none.
    pub fn percent(&self) -> Option<f64> {
        (self.agree * 1000).checked_div(self.of).map(|per_mille| per_mille as f64 / 10.0)
    }

    /// `99.5%`, or `n/a`.
    pub fn shown(&self) -> String {
        self.percent().map_or_else(|| "n/a".to_string(), |p| format!("{p:.1}%"))
    }
}

/// The agreement of the whole comparison.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Score {
    /// Exchanges at least one side answered.
    pub exchanges: usize,
    /// Exchanges neither side answered (not sent on both, or failed on both): not scored.
    pub unanswered: usize,
    pub status: Ratio,
    pub code: Ratio,
    pub keys: Ratio,
    pub values: Ratio,
    pub headers: Ratio,
}

impl Score {
    fn add(&mut self, agreement: &Agreement) {
        if agreement.status.is_none() {
            self.unanswered += 1;
            return;
        }
        self.exchanges += 1;
        self.status.add(agreement.status);
        self.code.add(agreement.code);
        self.keys.add(agreement.keys);
        self.values.add(agreement.values);
        self.headers.add(agreement.headers);
    }
}

/// Where a difference was first seen.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Example {
    pub case: String,
    pub step: String,
    pub path: String,
    pub a: String,
    pub b: String,
}

/// One difference (a path shape and a kind) on one route.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Finding {
    /// The path with list indices as `[*]`.
    pub path: String,
    pub kind: Kind,
    /// How many times it occurred.
    pub count: usize,
    pub first: Example,
}

/// The exchanges of one route.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct RouteGroup {
    pub route: String,
    pub exchanges: usize,
    /// Exchanges with at least one difference.
    pub differing: usize,
    pub findings: Vec<Finding>,
}

/// One exchange as the JSON report keeps it.
#[derive(Clone, Debug, Serialize)]
pub struct ExchangeRecord {
    pub case: String,
    pub step: String,
    pub route: String,
    pub a: LegRecord,
    pub b: LegRecord,
    pub agreement: Agreement,
    pub differences: Vec<Difference>,
    /// Differences not kept (beyond the bound per exchange).
    pub cut: usize,
}

/// One side of an exchange, as the JSON report keeps it.
#[derive(Clone, Debug, Serialize)]
pub struct LegRecord {
    /// `GET http://...`, empty when nothing was sent.
    pub request: String,
    pub status: Option<u16>,
    /// Why there is no answer.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unanswered: Option<String>,
}

/// A route's findings by (path shape, kind).
type Findings = BTreeMap<(String, Kind), Finding>;

/// Everything collected.
#[derive(Debug, Default)]
pub struct Collector {
    pub score: Score,
    routes: BTreeMap<String, (RouteGroup, Findings)>,
    pub exchanges: Vec<ExchangeRecord>,
}

impl Collector {
    pub fn add(&mut self, exchange: Exchange, compared: Compared) {
        self.score.add(&compared.agreement);
        let (group, findings) = self.routes.entry(exchange.route.clone()).or_default();
        group.route = exchange.route.clone();
        if compared.agreement.status.is_some() {
            group.exchanges += 1;
        }
        if !compared.differences.is_empty() {
            group.differing += 1;
        }
        for difference in &compared.differences {
            let shape = path_shape(&difference.path);
            findings.entry((shape.clone(), difference.kind)).and_modify(|f| f.count += 1).or_insert_with(|| Finding {
                path: shape,
                kind: difference.kind,
                count: 1,
                first: Example {
                    case: exchange.case.clone(),
                    step: exchange.step.clone(),
                    path: difference.path.clone(),
                    a: difference.a.clone(),
                    b: difference.b.clone(),
                },
            });
        }
        let leg = |leg: &Leg, request: &str| match leg {
            Leg::Answered(answer) => {
                LegRecord { request: request.to_string(), status: Some(answer.status), unanswered: None }
            }
            Leg::Unanswered(why) => {
                LegRecord { request: request.to_string(), status: None, unanswered: Some(why.clone()) }
            }
        };
        self.exchanges.push(ExchangeRecord {
            a: leg(&exchange.a, &exchange.urls.0),
            b: leg(&exchange.b, &exchange.urls.1),
            case: exchange.case,
            step: exchange.step,
            route: exchange.route,
            agreement: compared.agreement,
            differences: compared.differences,
            cut: compared.cut,
        });
    }

    /// The routes in order, their findings by path then kind.
    pub fn routes(&self) -> Vec<RouteGroup> {
        self.routes
            .values()
            .filter(|(group, _)| group.exchanges > 0)
            .map(|(group, findings)| RouteGroup { findings: findings.values().cloned().collect(), ..group.clone() })
            .collect()
    }

    /// Whether any difference was found.
    pub fn differs(&self) -> bool {
        self.exchanges.iter().any(|e| !e.differences.is_empty() || e.cut > 0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentages_round_down_so_that_100_means_all() {
        assert_eq!(Ratio { agree: 999, of: 1000 }.shown(), "99.9%");
        assert_eq!(Ratio { agree: 1999, of: 2000 }.shown(), "99.9%");
        assert_eq!(Ratio { agree: 5, of: 5 }.shown(), "100.0%");
        assert_eq!(Ratio { agree: 0, of: 0 }.shown(), "n/a");
        let mut score = Score::default();
        score.add(&Agreement {
            status: Some(true),
            code: None,
            keys: Some(true),
            values: Some(false),
            headers: Some(true),
        });
        score.add(&Agreement::default());
        assert_eq!((score.exchanges, score.unanswered), (1, 1));
        assert_eq!((score.values, score.code), (Ratio { agree: 0, of: 1 }, Ratio::default()));
    }
}
