//! Playing one case on both sides in step: every step (each `repeat`/`foreach` iteration, then
//! the cleanup) is built from each side's own variables, sent to A and B together, and its
//! captures kept per side, so that A's IDs drive A's later requests and B's drive B's. The
//! case's expectations are not checked: what the two sides answer is compared instead.

use reqwest::Client;

use super::compare::Leg;
use super::normalise::{Normaliser, Space};
use super::options::SideName;
use crate::model::{Case, Step, Target};
use crate::runner::{self, capture, send, CaseContext, Endpoint};

/// One implementation.
pub struct Side {
    pub name: SideName,
    pub endpoint: Endpoint,
    pub reset_command: Option<String>,
    pub normaliser: Normaliser,
}

/// One request sent (or meant to be sent) to both sides.
pub struct Exchange {
    pub case: String,
    /// `steps[1]`, `steps[2] index 3`, `cleanup[0]`.
    pub step: String,
    /// `GET /events/<id>`: the interface's route, or the request's method and path as written.
    pub route: String,
    /// The ID space of the route's resources.
    pub space: Option<Space>,
    /// The URL each side was sent (empty when it was not).
    pub urls: (String, String),
    pub a: Leg,
    pub b: Leg,
}

/// Plays `case` on both sides and hands each exchange to `on_exchange` as it completes (the
/// comparison learns IDs in order).
pub async fn play(
    case: &Case,
    sides: [&Side; 2],
    client: &Client,
    ctx: &CaseContext,
    max_response: u64,
    on_exchange: &mut impl FnMut(Exchange),
) {
    let mut envs = sides.map(|side| runner::case_env(case, &side.endpoint, ctx));
    let steps = case.steps.iter().enumerate().map(|(i, step)| (format!("steps[{i}]"), step, false));
    let cleanup = case.cleanup.iter().enumerate().map(|(i, step)| (format!("cleanup[{i}]"), step, true));
    for (label, step, is_cleanup) in steps.chain(cleanup) {
        let (route, space) = route_of(step);
        // Each side's iterations (a `foreach` list captured on one side may be longer).
        let iterations: Vec<Result<Vec<runner::Iteration>, String>> = envs
            .iter()
            .map(|env| {
                if is_cleanup {
                    let missing: Vec<String> =
                        runner::step_variables(step).into_iter().filter(|v| !env.contains(v)).collect();
                    if !missing.is_empty() {
                        return Err(format!("not sent: the cleanup needs {}, not captured", missing.join(", ")));
                    }
                }
                runner::iterations(step, &label, env).map_err(|e| format!("not sent: {e}"))
            })
            .collect();
        envs.iter_mut().for_each(|env| runner::begin_step(step, env));
        let count = iterations.iter().map(|i| i.as_ref().map_or(1, Vec::len)).max().unwrap_or(0);
        for n in 0..count {
            let mut legs: Vec<Result<crate::outcome::SentRequest, String>> = Vec::new();
            let mut step_label = label.clone();
            for (k, env) in envs.iter_mut().enumerate() {
                let leg = match &iterations[k] {
                    Err(why) => Err(why.clone()),
                    Ok(list) => match list.get(n) {
                        None => Err(format!("not sent: this side's list has {} items", list.len())),
                        Some((shown, iteration)) => {
                            step_label = shown.clone();
                            runner::enter_iteration(step, env, iteration.clone());
                            env.reset_budget();
                            runner::render_request(&step.request, env, &sides[k].endpoint)
                                .map_err(|e| format!("not sent: {e}"))
                        }
                    },
                };
                legs.push(leg);
            }
            let urls = (url(&legs[0]), url(&legs[1]));
            let (a, b) =
                tokio::join!(send_leg(client, &legs[0], max_response), send_leg(client, &legs[1], max_response));
            for (k, leg) in [&a, &b].into_iter().enumerate() {
                if let Leg::Answered(answer) = leg {
                    let json = send::parse_json(&answer.text).ok();
                    let captured = capture::capture(step, &envs[k], answer, json.as_ref());
                    runner::keep_captures(step, &mut envs[k], captured.values);
                }
            }
            on_exchange(Exchange {
                case: case.name.clone(),
                step: step_label,
                route: route.clone(),
                space,
                urls,
                a,
                b,
            });
        }
    }
}

fn url(leg: &Result<crate::outcome::SentRequest, String>) -> String {
    leg.as_ref().map(|r| format!("{} {}", r.method, r.url)).unwrap_or_default()
}

async fn send_leg(client: &Client, leg: &Result<crate::outcome::SentRequest, String>, max_response: u64) -> Leg {
    match leg {
        Err(why) => Leg::Unanswered(why.clone()),
        Ok(request) => match send::send(client, request, max_response).await {
            Ok(answer) => Leg::Answered(answer),
            Err(error) => Leg::Unanswered(error.to_string()),
        },
    }
}

/// The route a step addresses and the ID space of its resources.
fn route_of(step: &Step) -> (String, Option<Space>) {
    let options = crate::coverage::Options::default();
    let request = &step.request;
    let route = crate::coverage::route_label(request, &options).unwrap_or_else(|| {
        let written = match &request.target {
            Target::Path(t) | Target::Url(t) => t.source.as_str(),
        };
        format!("{} {}", request.method.to_ascii_uppercase(), written.split('?').next().unwrap_or_default())
    });
    let space = Space::of_route(&route);
    (route, space)
}
