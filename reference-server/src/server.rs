//! Binding the listener, running the HTTP service and shutting it down.

use std::net::SocketAddr;
use std::sync::Arc;

use axum::body::Body;
use axum::http::{Request, Response, StatusCode};
use tokio::net::TcpListener;
use tokio::sync::oneshot;
use tokio::task::JoinHandle;

use crate::config::{Config, UserSpec};

/// A server started by [`serve`]; dropping it does not stop it, call [`RunningServer::shutdown`].
pub struct RunningServer {
    addr: SocketAddr,
    site_url: String,
    base_url: String,
    api_url: String,
    users: Vec<UserSpec>,
    stop: Option<oneshot::Sender<()>>,
    task: JoinHandle<()>,
}

impl RunningServer {
    /// The address the listener is bound to.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// The site address, e.g. `http://127.0.0.1:8080`.
    pub fn site_url(&self) -> &str {
        &self.site_url
    }

    /// The interface's `{base_url}`: the site address followed by the REST root.
    pub fn base_url(&self) -> &str {
        &self.base_url
    }

    /// The full API address: `{base_url}/{namespace}`.
    pub fn api_url(&self) -> &str {
        &self.api_url
    }

    /// The users the server accepts.
    pub fn users(&self) -> &[UserSpec] {
        &self.users
    }

    /// Stops accepting connections, lets requests in flight finish, and waits for the end.
    pub async fn shutdown(mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        let _ = (&mut self.task).await;
    }
}

/// Binds `config.listen` and starts serving in the background.
pub async fn serve(config: Config) -> std::io::Result<RunningServer> {
    let listener = TcpListener::bind(config.listen).await?;
    let addr = listener.local_addr()?;
    let site_url = config
        .site_url
        .clone()
        .unwrap_or_else(|| format!("http://{addr}"))
        .trim_end_matches('/')
        .to_string();
    let base_url = format!("{site_url}{}", config.root);
    let api_url = format!("{base_url}/{}", config.namespace);
    let users = config.users.clone();
    let state = Arc::new(config);
    let app = axum::Router::new().fallback(move |request: Request<Body>| {
        let state = state.clone();
        async move { handle(state, request).await }
    });
    let (stop, stopped) = oneshot::channel::<()>();
    let task = tokio::spawn(async move {
        let _ = axum::serve(listener, app)
            .with_graceful_shutdown(async move {
                let _ = stopped.await;
            })
            .await;
    });
    Ok(RunningServer {
        addr,
        site_url,
        base_url,
        api_url,
        users,
        stop: Some(stop),
        task,
    })
}

async fn handle(_state: Arc<Config>, _request: Request<Body>) -> Response<Body> {
    let body = r#"{"code":"rest_no_route","message":"No route was found matching the URL and request method.","data":{"status":404}}"#;
    Response::builder()
        .status(StatusCode::NOT_FOUND)
        .header("content-type", "application/json; charset=UTF-8")
        .body(Body::from(body))
        .unwrap()
}
