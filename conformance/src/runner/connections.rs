//! Which request went last on each connection, so that a connection the implementation closes
//! or resets under a request can be blamed on the right exchange: the usual cause is the answer
//! before it on the same kept-alive connection (a request body the implementation did not read
//! to its end, a wrong `Content-Length`), which may belong to another case.
//!
//! A connection is known by its local address (the client's side of it): the client gives it
//! with every answer, and with a failure once the request got as far as a connection. Two
//! connections open at once never share it, so the last exchange logged under the address of a
//! failed request's connection is the request before it on that connection. An entry older than
//! the client's idle timeout and a request's timeout together is forgotten: its connection cannot
//! carry another request.

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use reqwest::Client;

use super::send::{self, Answer};
use crate::outcome::{SentRequest, StepError};

/// The exchanges of a run, by connection.
#[derive(Default)]
pub struct Connections {
    last: Mutex<HashMap<SocketAddr, Exchange>>,
}

/// The last exchange on a connection.
struct Exchange {
    /// `CASE steps[1]`.
    what: String,
    method: String,
    url: String,
    status: u16,
    ended: Instant,
}

/// How long an entry is kept: a connection idle longer is closed by the client
/// ([`send::POOL_IDLE_TIMEOUT`]); a request may take up to a day (`--timeout`) on top.
const FORGET_AFTER: Duration = Duration::from_secs(90 + 86_400);

impl Connections {
    /// Sends `request` (`what`: the case and step, for a later failure on the same connection)
    /// and logs the exchange under its connection. A connection dropped under it names the
    /// request before it on that connection, or says that it was a new one.
    pub async fn send(
        &self,
        client: &Client,
        request: &SentRequest,
        max_bytes: u64,
        what: &str,
    ) -> Result<Answer, StepError> {
        let (result, connection) = send::send_on(client, request, max_bytes).await;
        let Some(connection) = connection else { return result };
        let mut last = self.last.lock().unwrap_or_else(|e| e.into_inner());
        match result {
            Ok(answer) => {
                let now = Instant::now();
                last.retain(|_, e| now.duration_since(e.ended) < FORGET_AFTER);
                let exchange = Exchange {
                    what: what.to_string(),
                    method: request.method.clone(),
                    url: request.url.clone(),
                    status: answer.status,
                    ended: now,
                };
                last.insert(connection, exchange);
                Ok(answer)
            }
            Err(error) => {
                let note = match last.remove(&connection) {
                    Some(e) => format!(
                        "the request before it on this connection was {} ({} {}), answered {} {:.1} s before",
                        e.what,
                        e.method,
                        e.url,
                        e.status,
                        e.ended.elapsed().as_secs_f64()
                    ),
                    None => "no earlier request of a case went on this connection (it was new, or carried only \
the pre-flight check)"
                        .to_string(),
                };
                Err(send::with_connection_note(error, &note))
            }
        }
    }
}
