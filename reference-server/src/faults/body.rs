//! The body of every answer: whole, or (a `slow` fault) a few bytes at a time.

use std::convert::Infallible;
use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use bytes::Bytes;
use http_body_util::Full;
use hyper::body::{Body, Frame, SizeHint};
use tokio::time::Sleep;

/// An answer's body.
pub enum ServeBody {
    Full(Full<Bytes>),
    Slow(SlowBody),
}

/// A body sent `chunk` bytes at a time, each after `delay`. Its length is known, so the
/// answer still carries `Content-Length`: the client sees a slow site, not a broken one.
pub struct SlowBody {
    data: Bytes,
    chunk: usize,
    delay: Duration,
    sleep: Option<Pin<Box<Sleep>>>,
}

impl SlowBody {
    pub fn new(data: Bytes, chunk: usize, delay: Duration) -> SlowBody {
        SlowBody { data, chunk: chunk.max(1), delay, sleep: None }
    }
}

impl From<Full<Bytes>> for ServeBody {
    fn from(body: Full<Bytes>) -> ServeBody {
        ServeBody::Full(body)
    }
}

impl Body for ServeBody {
    type Data = Bytes;
    type Error = Infallible;

    fn poll_frame(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Result<Frame<Bytes>, Infallible>>> {
        match self.get_mut() {
            ServeBody::Full(body) => Pin::new(body).poll_frame(cx),
            ServeBody::Slow(slow) => {
                if slow.data.is_empty() {
                    return Poll::Ready(None);
                }
                let delay = slow.delay;
                let sleep = slow.sleep.get_or_insert_with(|| Box::pin(tokio::time::sleep(delay)));
                if sleep.as_mut().poll(cx).is_pending() {
                    return Poll::Pending;
                }
                slow.sleep = None;
                let take = slow.chunk.min(slow.data.len());
                Poll::Ready(Some(Ok(Frame::data(slow.data.split_to(take)))))
            }
        }
    }

    fn is_end_stream(&self) -> bool {
        match self {
            ServeBody::Full(body) => body.is_end_stream(),
            ServeBody::Slow(slow) => slow.data.is_empty(),
        }
    }

    fn size_hint(&self) -> SizeHint {
        match self {
            ServeBody::Full(body) => body.size_hint(),
            ServeBody::Slow(slow) => SizeHint::with_exact(slow.data.len() as u64),
        }
    }
}
