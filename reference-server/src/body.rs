//! Reading request bodies within bounds: at most 8 MiB each, within the body timeout, and
//! within a memory budget shared by every connection.
//!
//! The first 64 KiB of each body are free: the connection limit bounds them. Beyond that a
//! body takes its bytes from the budget before it reads them; when the budget is spent it
//! waits, and while it waits it reads nothing, so a stalled client is held back by TCP flow
//! control instead of by the server's memory. The body timeout ends every wait.

use std::sync::Arc;
use std::time::Duration;

use bytes::{Bytes, BytesMut};
use http_body_util::BodyExt;
use hyper::body::{Body as _, Incoming};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

/// Bodies above this are refused with 413, as a usual PHP set-up does.
pub const BODY_LIMIT: usize = 8 * 1024 * 1024;

/// What each body may hold without taking from the shared budget.
pub const FREE_BODY_BYTES: usize = 64 * 1024;

/// The memory all bodies being received may hold together (beyond their free part).
#[derive(Debug)]
pub struct BodyBudget {
    semaphore: Arc<Semaphore>,
    total: usize,
}

impl BodyBudget {
    /// A budget of `bytes`, raised to what one body of the largest size needs.
    pub fn new(bytes: usize) -> BodyBudget {
        let total = bytes.max(BODY_LIMIT - FREE_BODY_BYTES);
        BodyBudget { semaphore: Arc::new(Semaphore::new(total)), total }
    }

    /// The bytes bodies hold from the budget right now.
    pub fn in_use(&self) -> usize {
        self.total - self.semaphore.available_permits()
    }
}

/// Why a body could not be read.
#[derive(Debug, PartialEq, Eq)]
pub enum BodyError {
    TooLarge,
    TimedOut,
    /// The client broke the body off (or sent a malformed chunked encoding).
    Broken,
}

/// A body read in full, and the share of the budget it holds until it is dropped.
pub struct ReadBody {
    pub bytes: Bytes,
    _held: Option<OwnedSemaphorePermit>,
}

/// How much of a refused (too large) body is read and thrown away, at most, before answering.
const DRAIN_LIMIT: usize = 32 * 1024 * 1024;

/// How long draining a refused body may take, at most (the body timeout, if shorter, wins).
const DRAIN_TIME: Duration = Duration::from_secs(5);

/// Reads a whole body within the size limit, the timeout and the budget.
pub async fn read_body(mut body: Incoming, budget: &BodyBudget, timeout: Duration) -> Result<ReadBody, BodyError> {
    let result = if body.size_hint().lower() > BODY_LIMIT as u64 {
        Err(BodyError::TooLarge)
    } else {
        tokio::time::timeout(timeout, read_within_budget(&mut body, budget)).await.unwrap_or(Err(BodyError::TimedOut))
    };
    if matches!(result, Err(BodyError::TooLarge)) {
        drain(&mut body, timeout.min(DRAIN_TIME)).await;
    }
    result
}

/// Reads and throws away what is left of a refused body, within bounds of bytes and time and
/// holding no memory. A client is usually still sending when the 413 is decided; closing the
/// connection with its bytes unread makes the kernel reset it, and the client then sees a
/// broken pipe instead of the answer (RFC 9112, section 9.6).
async fn drain(body: &mut Incoming, wait: Duration) {
    let _ = tokio::time::timeout(wait, async {
        let mut left = DRAIN_LIMIT;
        while let Some(Ok(frame)) = body.frame().await {
            let Ok(data) = frame.into_data() else { continue };
            if data.len() >= left {
                break;
            }
            left -= data.len();
        }
    })
    .await;
}

async fn read_within_budget(body: &mut Incoming, budget: &BodyBudget) -> Result<ReadBody, BodyError> {
    let mut buffer = BytesMut::new();
    let mut held: Option<OwnedSemaphorePermit> = None;
    let mut held_bytes = 0usize;
    while let Some(frame) = body.frame().await {
        let frame = frame.map_err(|_| BodyError::Broken)?;
        let Ok(data) = frame.into_data() else { continue };
        let length = buffer.len() + data.len();
        if length > BODY_LIMIT {
            return Err(BodyError::TooLarge);
        }
        let needed = length.saturating_sub(FREE_BODY_BYTES).saturating_sub(held_bytes);
        if needed > 0 {
            let count = u32::try_from(needed).map_err(|_| BodyError::TooLarge)?;
            let permit = budget.semaphore.clone().acquire_many_owned(count).await.map_err(|_| BodyError::Broken)?;
            held_bytes += needed;
            match &mut held {
                Some(all) => all.merge(permit),
                None => held = Some(permit),
            }
        }
        buffer.extend_from_slice(&data);
    }
    Ok(ReadBody { bytes: buffer.freeze(), _held: held })
}
