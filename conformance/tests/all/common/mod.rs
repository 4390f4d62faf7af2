//! Set-up shared by the integration tests that start reference servers or need scratch folders.
//! Each test binary uses part of it.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

/// A reference server on its own runtime, with or without the tickets extension.
pub struct Server {
    _runtime: tokio::runtime::Runtime,
    pub base_url: String,
}

pub fn server(tickets: bool) -> Server {
    let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
    let mut config = reference_server::Config::ephemeral();
    config.features.tickets = tickets;
    let server = runtime.block_on(reference_server::serve(config)).unwrap();
    let base_url = server.base_url().to_string();
    std::mem::forget(server); // serves until the runtime is dropped
    Server { _runtime: runtime, base_url }
}

/// A fresh temporary folder, removed when the test ends (passed or not).
pub struct Temp(PathBuf);

impl std::ops::Deref for Temp {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.0
    }
}

impl Drop for Temp {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A folder named after the test binary, the process and `name`.
pub fn temp(name: &str) -> Temp {
    let dir =
        std::env::temp_dir().join(format!("conformance-{}-{}-{name}", env!("CARGO_CRATE_NAME"), std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    Temp(dir)
}
