//! The bounded pool for blocking work (file reads, parsing, rendering).
//!
//! Work runs on tokio's blocking threads, never on the async runtime. At most `workers` jobs
//! run at once and at most `queue` wait; past that a request is refused with 429 at once.
//! Each job has a deadline covering its wait and its run; past it the caller gets 503 (the
//! job itself finishes in the background and its result is dropped, holding its permit until
//! then so the bound stays true).

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::Semaphore;
use tokio::time::Instant;

use crate::config::WorkConfig;
use crate::error::Error;

/// Counts of the pool, for `/healthz`.
#[derive(Debug, Clone, Copy, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PoolStats {
    /// Jobs running now.
    pub running: usize,
    /// Jobs waiting for a worker.
    pub waiting: usize,
    /// Most jobs running at once.
    pub workers: usize,
}

/// A bounded pool for blocking work.
#[derive(Debug)]
pub struct Pool {
    permits: Arc<Semaphore>,
    workers: usize,
    waiting: AtomicUsize,
    queue: usize,
    deadline: Duration,
}

struct Waiting<'a>(&'a AtomicUsize);

impl Drop for Waiting<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

impl Pool {
    /// A pool with these bounds.
    pub fn new(config: &WorkConfig) -> Pool {
        let workers = config.effective_workers().max(1);
        Pool {
            permits: Arc::new(Semaphore::new(workers)),
            workers,
            waiting: AtomicUsize::new(0),
            queue: config.queue,
            deadline: Duration::from_millis(config.deadline_ms.max(1)),
        }
    }

    /// Current counts.
    pub fn stats(&self) -> PoolStats {
        PoolStats {
            running: self.workers - self.permits.available_permits(),
            waiting: self.waiting.load(Ordering::SeqCst),
            workers: self.workers,
        }
    }

    /// Runs `job` on a blocking thread within the pool's bounds and deadline.
    pub async fn run<T, F>(&self, job: F) -> Result<T, Error>
    where
        T: Send + 'static,
        F: FnOnce() -> Result<T, Error> + Send + 'static,
    {
        let deadline = Instant::now() + self.deadline;
        let permit = match self.permits.clone().try_acquire_owned() {
            Ok(permit) => permit,
            Err(_) => {
                if self.waiting.fetch_add(1, Ordering::SeqCst) >= self.queue {
                    self.waiting.fetch_sub(1, Ordering::SeqCst);
                    return Err(Error::Busy {
                        reason: "previewd is busy; try again shortly".into(),
                        retry_after: Some(1),
                    });
                }
                let _waiting = Waiting(&self.waiting);
                match tokio::time::timeout_at(deadline, self.permits.clone().acquire_owned()).await
                {
                    Ok(Ok(permit)) => permit,
                    Ok(Err(_)) => return Err(Error::Internal),
                    Err(_) => return Err(Error::Timeout(self.deadline.as_millis() as u64)),
                }
            }
        };
        let handle = tokio::task::spawn_blocking(move || {
            let _permit = permit;
            job()
        });
        match tokio::time::timeout_at(deadline, handle).await {
            Ok(Ok(result)) => result,
            Ok(Err(join)) => {
                tracing::error!(error = %join, "a blocking job panicked");
                Err(Error::Internal)
            }
            Err(_) => Err(Error::Timeout(self.deadline.as_millis() as u64)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pool(workers: usize, queue: usize, deadline_ms: u64) -> Arc<Pool> {
        Arc::new(Pool::new(&WorkConfig {
            workers,
            queue,
            deadline_ms,
        }))
    }

    #[tokio::test]
    async fn runs_jobs() {
        let p = pool(1, 1, 5_000);
        assert_eq!(p.run(|| Ok(41 + 1)).await.unwrap(), 42);
        assert_eq!(
            p.run(|| Err::<(), _>(Error::Internal)).await,
            Err(Error::Internal)
        );
    }

    #[tokio::test]
    async fn a_full_queue_answers_busy() {
        let p = pool(1, 0, 5_000);
        let (tx, rx) = std::sync::mpsc::channel::<()>();
        let p2 = p.clone();
        let blocker = tokio::spawn(async move {
            p2.run(move || {
                let _ = rx.recv();
                Ok(())
            })
            .await
        });
        // Wait until the blocker holds the only worker.
        while p.stats().running == 0 {
            tokio::task::yield_now().await;
        }
        let err = p.run(|| Ok(())).await.unwrap_err();
        assert_eq!(err.code(), "busy");
        tx.send(()).unwrap();
        blocker.await.unwrap().unwrap();
    }

    #[tokio::test]
    async fn a_slow_job_times_out() {
        let p = pool(1, 1, 50);
        let (tx, rx) = std::sync::mpsc::channel::<()>();
        let err = p
            .run(move || {
                let _ = rx.recv();
                Ok(())
            })
            .await
            .unwrap_err();
        assert_eq!(err.code(), "timeout");
        tx.send(()).unwrap();
    }
}
