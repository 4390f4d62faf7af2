//! One client connection as the HTTP layer sees it: a TCP stream that enforces the header and
//! idle timeouts, and that turns the HTTP layer's own refusals into error envelopes.
//!
//! hyper answers a request it cannot parse (a bad request line, a URI over 64 KiB, too many or
//! too large headers) by itself, with an empty body, before any handler runs. Those answers
//! are the only ones without a `Content-Type` (every answer of the handlers has one), so the
//! stream recognises them as they are written and writes the envelope in their place.
//!
//! Timeouts are kept here rather than in hyper because hyper has one timer for both the idle
//! time between requests and the time to send a head; a connection is in one of three phases:
//! idle (waiting for a request: `idle_timeout`), receiving a head (`header_timeout` from its
//! first byte) or busy (a handler runs; the body timeout is the handler's).

use std::future::Future;
use std::io;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll, Waker};
use std::time::Duration;

use parking_lot::Mutex;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::TcpStream;
use tokio::time::{Instant, Sleep};

use crate::error::ApiError;

/// Where a connection is between requests.
#[derive(Clone, Copy, Debug)]
enum Phase {
    /// Waiting for the next request since this instant.
    Idle(Instant),
    /// The first bytes of a request head came at this instant.
    Head(Instant),
    /// A request is being handled (hyper's HTTP/1 connection hands its handler one request at
    /// a time: the next head is read only once the answer is made).
    Busy,
}

/// The phase of one connection, shared by its stream and its request handler.
#[derive(Debug)]
pub struct ConnState {
    phase: Mutex<Phase>,
    /// The task waiting on the stream's read side, to wake when a busy phase ends.
    reader: Mutex<Option<Waker>>,
}

impl ConnState {
    pub fn new() -> Arc<ConnState> {
        Arc::new(ConnState { phase: Mutex::new(Phase::Idle(Instant::now())), reader: Mutex::new(None) })
    }

    fn waiting(&self, waker: &Waker) {
        *self.reader.lock() = Some(waker.clone());
    }

    /// A request head is complete and its handler starts; the guard marks its end.
    pub fn begin(self: &Arc<Self>) -> BusyGuard {
        *self.phase.lock() = Phase::Busy;
        BusyGuard { state: self.clone() }
    }

    /// The handler is done: the connection waits for its next request.
    fn end(&self) {
        *self.phase.lock() = Phase::Idle(Instant::now());
        if let Some(reader) = self.reader.lock().take() {
            reader.wake();
        }
    }

    /// Bytes arrived: an idle connection starts receiving a head.
    fn received(&self) {
        let mut phase = self.phase.lock();
        if let Phase::Idle(_) = *phase {
            *phase = Phase::Head(Instant::now());
        }
    }

    fn phase(&self) -> Phase {
        *self.phase.lock()
    }
}

/// Marks the end of a request's handling when dropped.
pub struct BusyGuard {
    state: Arc<ConnState>,
}

impl Drop for BusyGuard {
    fn drop(&mut self) {
        self.state.end();
    }
}

/// What the stream needs to know to bound and to answer.
#[derive(Clone, Debug)]
pub struct StreamConfig {
    pub header_timeout: Duration,
    pub idle_timeout: Duration,
    /// The `Link` header value every answer carries.
    pub link: String,
}

/// A replacement answer being written in place of one of hyper's.
struct Rewrite {
    bytes: Vec<u8>,
    written: usize,
    /// How much of hyper's own answer the replacement stands for.
    replaces: usize,
}

/// The TCP stream of one connection, with its timeouts and the envelope for hyper's refusals.
/// (Any byte stream will do: the server's tests drive a connection over an in-memory one, with
/// a paused clock, to pin the timeouts without waiting for them.)
pub struct GuardedStream<S = TcpStream> {
    inner: S,
    state: Arc<ConnState>,
    config: Arc<StreamConfig>,
    sleep: Pin<Box<Sleep>>,
    /// Since when writing has been blocked (the client reads nothing), and its timer.
    write_blocked: Option<Instant>,
    write_sleep: Pin<Box<Sleep>>,
    rewrite: Option<Rewrite>,
}

impl<S> GuardedStream<S> {
    pub fn new(inner: S, state: Arc<ConnState>, config: Arc<StreamConfig>) -> GuardedStream<S> {
        let sleep = Box::pin(tokio::time::sleep(config.idle_timeout));
        let write_sleep = Box::pin(tokio::time::sleep(config.idle_timeout));
        GuardedStream { inner, state, config, sleep, write_blocked: None, write_sleep, rewrite: None }
    }

    /// When the current phase runs out, and whether running out is a plain end (idle).
    fn deadline(&self) -> Option<(Instant, bool)> {
        match self.state.phase() {
            Phase::Idle(since) => Some((since + self.config.idle_timeout, true)),
            Phase::Head(since) => Some((since + self.config.header_timeout, false)),
            Phase::Busy => None,
        }
    }
}

impl<S: AsyncRead + Unpin> AsyncRead for GuardedStream<S> {
    fn poll_read(self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        match Pin::new(&mut this.inner).poll_read(cx, buf) {
            Poll::Ready(Ok(())) => {
                // Bytes arrived (or the end: then hyper reads no more, and the phase no longer
                // matters).
                this.state.received();
                return Poll::Ready(Ok(()));
            }
            Poll::Ready(Err(error)) => return Poll::Ready(Err(error)),
            Poll::Pending => {}
        }
        // hyper polls again only when woken: the end of a busy phase wakes this read so that
        // the idle timer starts.
        this.state.waiting(cx.waker());
        let Some((deadline, idle)) = this.deadline() else {
            return Poll::Pending;
        };
        this.sleep.as_mut().reset(deadline);
        if this.sleep.as_mut().poll(cx).is_pending() {
            return Poll::Pending;
        }
        if idle {
            // An idle connection that times out simply ends, as if the client had closed it.
            Poll::Ready(Ok(()))
        } else {
            Poll::Ready(Err(io::Error::new(io::ErrorKind::TimedOut, "request head not received in time")))
        }
    }
}

impl<S: AsyncWrite + Unpin> GuardedStream<S> {
    /// Writes to the socket; a client that takes nothing for the idle timeout is dropped, so
    /// that an answer nobody reads does not hold its memory.
    fn write_inner(&mut self, cx: &mut Context<'_>, buf: &[u8]) -> Poll<io::Result<usize>> {
        match Pin::new(&mut self.inner).poll_write(cx, buf) {
            Poll::Pending => {
                let since = *self.write_blocked.get_or_insert_with(Instant::now);
                let deadline = since + self.config.idle_timeout;
                self.write_sleep.as_mut().reset(deadline);
                match self.write_sleep.as_mut().poll(cx) {
                    Poll::Ready(()) => {
                        Poll::Ready(Err(io::Error::new(io::ErrorKind::TimedOut, "answer not read in time")))
                    }
                    Poll::Pending => Poll::Pending,
                }
            }
            done => {
                self.write_blocked = None;
                done
            }
        }
    }
}

impl<S: AsyncWrite + Unpin> AsyncWrite for GuardedStream<S> {
    fn poll_write(self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &[u8]) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        if this.rewrite.is_none() {
            if let Some(status) = automatic_refusal(buf) {
                let bytes = envelope_response(status, &this.config.link);
                this.rewrite = Some(Rewrite { bytes, written: 0, replaces: buf.len() });
            }
        }
        let Some(mut rewrite) = this.rewrite.take() else {
            return this.write_inner(cx, buf);
        };
        while rewrite.written < rewrite.bytes.len() {
            match this.write_inner(cx, &rewrite.bytes[rewrite.written..]) {
                Poll::Ready(Ok(0)) => return Poll::Ready(Err(io::ErrorKind::WriteZero.into())),
                Poll::Ready(Ok(n)) => rewrite.written += n,
                Poll::Ready(Err(error)) => return Poll::Ready(Err(error)),
                Poll::Pending => {
                    this.rewrite = Some(rewrite);
                    return Poll::Pending;
                }
            }
        }
        Poll::Ready(Ok(rewrite.replaces))
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().inner).poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().inner).poll_shutdown(cx)
    }
}

/// The status of an answer hyper wrote by itself to refuse a request it could not parse: a
/// 4xx head without a `Content-Type`. Every answer of the handlers has one.
fn automatic_refusal(buf: &[u8]) -> Option<u16> {
    let rest = buf.strip_prefix(b"HTTP/1.1 ").or_else(|| buf.strip_prefix(b"HTTP/1.0 "))?;
    let status: u16 = std::str::from_utf8(rest.get(..3)?).ok()?.parse().ok()?;
    if !(400..500).contains(&status) {
        return None;
    }
    let head_end = buf.windows(4).position(|window| window == b"\r\n\r\n").unwrap_or(buf.len());
    let head = String::from_utf8_lossy(&buf[..head_end]).to_ascii_lowercase();
    (!head.contains("\r\ncontent-type:")).then_some(status)
}

/// A complete HTTP/1.1 answer in the error envelope, closing the connection.
fn envelope_response(status: u16, link: &str) -> Vec<u8> {
    let body = serde_json::to_vec(&ApiError::bad_request(status).to_json()).unwrap_or_default();
    let reason = hyper::StatusCode::from_u16(status).ok().and_then(|code| code.canonical_reason()).unwrap_or("");
    let mut out = format!(
        "HTTP/1.1 {status} {reason}\r\ncontent-type: application/json; charset=UTF-8\r\ncontent-length: {}\r\n\
         connection: close\r\nx-robots-tag: noindex\r\nx-content-type-options: nosniff\r\nlink: {link}\r\n\r\n",
        body.len()
    )
    .into_bytes();
    out.extend_from_slice(&body);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recognises_only_hyper_s_own_refusals() {
        assert_eq!(automatic_refusal(b"HTTP/1.1 414 URI Too Long\r\ncontent-length: 0\r\n\r\n"), Some(414));
        assert_eq!(automatic_refusal(b"HTTP/1.1 431 Request Header Fields Too Large\r\n\r\n"), Some(431));
        let ours = b"HTTP/1.1 404 Not Found\r\ncontent-type: application/json; charset=UTF-8\r\n\r\n{}";
        assert_eq!(automatic_refusal(ours), None);
        assert_eq!(automatic_refusal(b"HTTP/1.1 200 OK\r\n\r\n"), None);
        assert_eq!(automatic_refusal(b"{\"HTTP/1.1 400\"}"), None);
    }

    #[test]
    fn the_replacement_is_a_complete_envelope() {
        let bytes = envelope_response(431, "<http://x/wp-json/>; rel=\"https://api.w.org/\"");
        let text = String::from_utf8(bytes).unwrap();
        let (head, body) = text.split_once("\r\n\r\n").unwrap();
        assert!(head.starts_with("HTTP/1.1 431 Request Header Fields Too Large\r\n"));
        assert!(head.contains(&format!("content-length: {}", body.len())));
        let json: serde_json::Value = serde_json::from_str(body).unwrap();
        assert_eq!(json["code"], "rest_bad_request");
        assert_eq!(json["data"]["status"], 431);
    }
}
