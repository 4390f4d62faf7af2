//! Binding the listener, running the HTTP service and shutting it down.

use std::net::SocketAddr;
use std::sync::Arc;

use axum::body::Body;
use axum::http::{Method as HttpMethod, Request, Response};
use serde_json::Value;
use tokio::net::TcpListener;
use tokio::sync::oneshot;
use tokio::task::JoinHandle;

use crate::app::{App, Clock, Ctx};
use crate::auth::Users;
use crate::config::{Config, UserSpec};
use crate::dates::Zone;
use crate::error::ApiError;
use crate::http::{self, effective_method, locate, parse_body, parse_form, ApiRequest, Finish, Reply, BODY_LIMIT};
use crate::interface::Method;
use crate::model::Lang;
use crate::store::{Data, Store};
use crate::validate::Params;

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
    let site_url =
        config.site_url.clone().unwrap_or_else(|| format!("http://{addr}")).trim_end_matches('/').to_string();
    let base_url = format!("{site_url}{}", config.root);
    let api_url = format!("{base_url}/{}", config.namespace);
    let users = config.users.clone();
    let site_zone = Zone::parse(&config.timezone).ok_or_else(|| {
        std::io::Error::new(std::io::ErrorKind::InvalidInput, format!("unknown time zone {:?}", config.timezone))
    })?;
    let app = Arc::new(App {
        users: Users::new(&config.users),
        store: Store::new(Data::fresh_site(&site_url)),
        clock: Clock::new(config.clock),
        site_zone,
        site_url: site_url.clone(),
        config,
    });
    if app.config.demo {
        crate::demo::load(&app);
    }
    crate::seed::load(&app, app.config.seed_events);
    let router = axum::Router::new().fallback(move |request: Request<Body>| {
        let app = app.clone();
        async move { handle(&app, request).await }
    });
    let (stop, stopped) = oneshot::channel::<()>();
    let task = tokio::spawn(async move {
        let _ = axum::serve(listener, router)
            .with_graceful_shutdown(async move {
                let _ = stopped.await;
            })
            .await;
    });
    Ok(RunningServer { addr, site_url, base_url, api_url, users, stop: Some(stop), task })
}

/// One request through the whole pipeline; never fails, every error is an envelope.
async fn handle(app: &App, request: Request<Body>) -> Response<Body> {
    let started = std::time::Instant::now();
    let method = request.method().clone();
    let uri = request.uri().clone();
    let response = answer(app, request).await;
    tracing::info!(target: "reference_server::request", "{} {} {} {:?}", method, uri, response.status().as_u16(), started.elapsed());
    response
}

async fn answer(app: &App, request: Request<Body>) -> Response<Body> {
    let (parts, body) = request.into_parts();
    let query = parse_form(parts.uri.query().unwrap_or(""));
    let site_path = app
        .site_url
        .split_once("://")
        .and_then(|(_, rest)| rest.split_once('/'))
        .map_or(String::new(), |(_, path)| format!("/{path}"));
    let located = locate(parts.uri.path(), &query, &site_path, &app.config.root, &app.config.namespace);
    let head = parts.method == HttpMethod::HEAD;
    let mut finish = Finish {
        site_url: &app.site_url,
        root: &app.config.root,
        origin: parts.headers.get("origin").cloned(),
        head,
        allow: None,
        fields: query.get("_fields").and_then(Value::as_str).map(str::to_string),
        envelope: query.contains_key("_envelope"),
    };
    let fail = |error: ApiError, finish: &Finish| http::finish(Reply::from(error), finish);

    // Credentials are checked before anything else, as the CMS does.
    let authorization = parts.headers.get("authorization").and_then(|value| value.to_str().ok());
    let user = match app.users.authenticate(authorization) {
        Ok(user) => user,
        Err(error) => return fail(error, &finish),
    };
    if user.is_none() && parts.headers.contains_key("x-wp-nonce") {
        return fail(ApiError::new(403, "rest_cookie_invalid_nonce", "Cookie check failed"), &finish);
    }
    let Some(path) = located.path else {
        return fail(ApiError::no_route(), &finish);
    };
    let Some((route, var)) = http::route_for(&path) else {
        return fail(ApiError::no_route(), &finish);
    };

    let options = parts.method == HttpMethod::OPTIONS;
    let method_name = if options { "GET".to_string() } else { effective_method(&parts.method, &query, &parts.headers) };
    let Some(method) = Method::parse(&method_name) else {
        return fail(ApiError::no_route(), &finish);
    };
    let body = match axum::body::to_bytes(body, BODY_LIMIT).await {
        Ok(bytes) => bytes,
        Err(_) => {
            let error = ApiError::new(413, "rest_request_too_large", "The request body is too large.");
            return fail(error, &finish);
        }
    };
    let body = if matches!(method, Method::Get) && !options {
        Params::new()
    } else {
        match parse_body(&parts.headers, body).await {
            Ok(params) => params,
            Err(error) => return fail(error, &finish),
        }
    };
    let api_request = ApiRequest { method, route, var, query, body, headers: parts.headers };
    let params_lang =
        api_request.params().get(&app.config.language_param).and_then(Value::as_str).and_then(Lang::parse);
    let lang = params_lang.or(located.base_lang).unwrap_or_default();
    let lang_segment = located.base_lang.map_or(String::new(), |lang| format!("/{}", lang.code()));
    let ctx = Ctx {
        app,
        user,
        lang,
        api_base: format!("{}{}{}/{}", app.site_url, lang_segment, app.config.root, app.config.namespace),
        now: app.clock.now(),
    };
    {
        let data = app.store.read();
        finish.allow = Some(crate::api::allow_header(&ctx, &data, route, api_request.var.as_deref()));
    }
    if options {
        let body = crate::api::index::describe_route(&ctx, route);
        return http::finish(Reply::ok(body), &finish);
    }
    if route.op(method).is_none() {
        finish.allow = None;
        return fail(ApiError::no_route(), &finish);
    }
    let reply = match crate::api::dispatch(&ctx, &api_request) {
        Ok(reply) => reply,
        Err(error) => Reply::from(error),
    };
    http::finish(reply, &finish)
}
