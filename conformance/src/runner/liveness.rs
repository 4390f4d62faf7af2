//! Whether the outside implementation still answers. When it stops altogether (it crashed, or
//! was stopped), every later case would fail on its first request, burying the one cause under
//! hundreds of failures. So a request that cannot connect after the implementation has
//! answered is followed by a few more attempts to connect; when they fail too, the run is
//! stopped: the case that found it fails, saying which request was the last one answered, and
//! the cases not run yet are reported as not run, with the reason.

use std::sync::Mutex;
use std::time::{Duration, Instant};

use crate::outcome::SentRequest;

/// The start of the reason given to the cases the run does not run (or does not finish) once
/// the implementation stopped answering; the summary counts them by it.
pub const NOT_RUN: &str = "not run: the implementation stopped answering";

/// How many connections are tried, a pause apart, before the implementation is taken to be
/// stopped; a refused one takes no time.
const PROBES: u32 = 3;
const PROBE_PAUSE: Duration = Duration::from_millis(300);
const PROBE_TIMEOUT: Duration = Duration::from_secs(2);

/// What is known of the implementation's answers during a run.
#[derive(Default)]
pub struct Liveness {
    state: Mutex<State>,
}

#[derive(Default)]
struct State {
    /// The last request answered: `CASE steps[1] (GET URL)`, and when.
    last_answered: Option<(String, Instant)>,
    /// Once the implementation stopped: the case that found it, and what it says.
    stopped: Option<(String, String)>,
}

impl Liveness {
    /// `request`, sent by `what` (`CASE steps[1]`), was answered.
    pub fn answered(&self, what: &str, request: &SentRequest) {
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        state.last_answered = Some((format!("{what} ({} {})", request.method, request.url), Instant::now()));
    }

    /// The reason cases are not run, once the implementation stopped answering.
    pub fn stopped(&self) -> Option<String> {
        let state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        state.stopped.as_ref().map(|(case, _)| format!("{NOT_RUN} (see {case})"))
    }

    /// Whether `case` is the one that found the implementation stopped.
    pub fn found_by(&self, case: &str) -> bool {
        let state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        state.stopped.as_ref().is_some_and(|(by, _)| by == case)
    }

    /// After a request of `case` to `url` could not connect: when the implementation answered
    /// earlier in the run and does not accept a connection now either, it has stopped; the
    /// run then stops, and the first case to find it gets the text to add to its failure.
    pub async fn check(&self, case: &str, url: &str) -> Option<String> {
        {
            let state = self.state.lock().unwrap_or_else(|e| e.into_inner());
            // Never answered: not a stop (pre-flight found it answering, so a network problem).
            state.last_answered.as_ref()?;
            if let Some((by, text)) = &state.stopped {
                return (by == case).then(|| text.clone());
            }
        }
        if accepts_connections(url).await {
            return None;
        }
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        if state.stopped.is_none() {
            let (last, at) = state.last_answered.clone()?;
            let text = format!(
                "the implementation stopped answering: it refuses connections since the last answer, to {last}, \
{:.1} s before; the cases not run yet are not run (did it crash? see its log)",
                at.elapsed().as_secs_f64()
            );
            state.stopped = Some((case.to_string(), text));
        }
        let (by, text) = state.stopped.as_ref()?;
        (by == case).then(|| text.clone())
    }
}

/// Whether the host and port of `url` accept a TCP connection within a few tries.
async fn accepts_connections(url: &str) -> bool {
    let Some(address) = host_and_port(url) else { return true };
    for attempt in 0..PROBES {
        if attempt > 0 {
            tokio::time::sleep(PROBE_PAUSE).await;
        }
        if let Ok(Ok(_)) = tokio::time::timeout(PROBE_TIMEOUT, tokio::net::TcpStream::connect(&address)).await {
            return true;
        }
    }
    false
}

/// `host:port` of an `http` or `https` URL (the scheme's port when none is written).
fn host_and_port(url: &str) -> Option<String> {
    let (scheme, rest) = url.split_once("://")?;
    let authority = rest.split(['/', '?', '#']).next()?;
    let authority = authority.rsplit_once('@').map_or(authority, |(_, host)| host);
    let has_port = match authority.rfind(':') {
        Some(colon) => !authority[colon..].contains(']'),
        None => false,
    };
    if has_port {
        Some(authority.to_string())
    } else {
        let port = if scheme.eq_ignore_ascii_case("https") { 443 } else { 80 };
        Some(format!("{authority}:{port}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_address_to_probe() {
        assert_eq!(host_and_port("http://127.0.0.1:8080/wp-json/x?a=1").as_deref(), Some("127.0.0.1:8080"));
        assert_eq!(host_and_port("https://site.example/wp-json").as_deref(), Some("site.example:443"));
        assert_eq!(host_and_port("http://u:p@[::1]/x").as_deref(), Some("[::1]:80"));
        assert_eq!(host_and_port("http://[::1]:81").as_deref(), Some("[::1]:81"));
    }

    #[tokio::test]
    async fn a_refused_connection_stops_the_run_only_after_an_answer() {
        // A port held bound but not listening: a connection to it is refused, and no other
        // socket can take it while the test runs. (A port freed by dropping a listener could be
        // taken by any server a parallel test starts on port 0, which then accepts the probes:
        // seen once, under load.)
        let held = tokio::net::TcpSocket::new_v4().unwrap();
        held.bind("127.0.0.1:0".parse().unwrap()).unwrap();
        let url = format!("http://{}/wp-json", held.local_addr().unwrap());
        let liveness = Liveness::default();
        assert_eq!(liveness.check("a", &url).await, None, "nothing was answered yet: not a stop");
        let request = SentRequest {
            method: "GET".into(),
            url: url.clone(),
            headers: Vec::new(),
            auth: None,
            auth_name: None,
            body: None,
        };
        liveness.answered("f::a steps[0]", &request);
        let text = liveness.check("b", &url).await.expect("stopped");
        assert!(text.contains(&format!("to f::a steps[0] (GET {url})")), "{text}");
        assert!(liveness.found_by("b"));
        assert_eq!(liveness.check("c", &url).await, None, "said once: by the case that found it");
        assert_eq!(liveness.stopped().as_deref(), Some(format!("{NOT_RUN} (see b)").as_str()));
    }
}
