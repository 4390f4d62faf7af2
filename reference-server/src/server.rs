//! Binding the listener, serving connections within their limits, and shutting down; then the
//! request pipeline every request goes through.

use std::net::SocketAddr;
use std::sync::{Arc, Weak};

use bytes::Bytes;
use http_body_util::Full;
use hyper::body::Incoming;
use hyper::http::{HeaderMap, HeaderValue, Method as HttpMethod, Request, Response};
use hyper_util::rt::TokioIo;
use hyper_util::server::graceful::GracefulShutdown;
use serde_json::Value;
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::net::TcpListener;
use tokio::sync::{oneshot, OwnedSemaphorePermit, Semaphore};
use tokio::task::JoinHandle;

use crate::app::{App, Clock, Ctx};
use crate::auth::{User, Users};
use crate::body::{read_body, BodyBudget, BodyError, ReadBody};
use crate::config::{Config, UserSpec};
use crate::conn::{ConnState, GuardedStream, StreamConfig};
use crate::dates::Zone;
use crate::devtools::{self, DevTools, Dropped, Note, Seen};
use crate::error::ApiError;
use crate::faults::{Plan, ServeBody};
use crate::http::{self, effective_method, locate, parse_body, parse_form, ApiRequest, Finish, Reply};
use crate::interface::{errors, Method, Route};
use crate::journal::hints::Prefix;
use crate::model::Lang;
use crate::state::{Header, Opening, WithData};
use crate::store::{Data, Store};
use crate::validate::Params;

/// A server started by [`serve`]; dropping it does not stop it, call [`RunningServer::shutdown`].
pub struct RunningServer {
    addr: SocketAddr,
    site_url: String,
    base_url: String,
    api_url: String,
    users: Vec<UserSpec>,
    shared: Arc<Shared>,
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

    /// A fingerprint of the store's content, for tests that check a rejected write changed
    /// nothing. Not part of the server's interface.
    #[doc(hidden)]
    pub fn store_fingerprint(&self) -> u64 {
        self.shared.app.store.read().fingerprint(&self.shared.app.site_url)
    }

    /// How many fragments the render cache has rendered (missed) so far, for tests that a
    /// reading is not repeated. Not part of the server's interface.
    #[doc(hidden)]
    pub fn renderings(&self) -> u64 {
        self.shared.app.store.renders.rendered()
    }

    /// Waits until the state file (`--state`) has no compaction under way or due, for tests of
    /// compaction that must not depend on timing. Not part of the server's interface.
    #[doc(hidden)]
    pub async fn compactions_settled(&self) {
        if let Some(state) = &self.shared.tools.state {
            state.compactions_settled().await;
        }
    }

    /// The bytes request bodies hold from the shared budget now, for tests of the bound.
    /// Not part of the server's interface.
    #[doc(hidden)]
    pub fn buffered_body_bytes(&self) -> usize {
        self.shared.budget.in_use()
    }

    /// Serves one connection over `stream` (an in-memory one, say) as an accepted TCP
    /// connection is served, timeouts included, but outside the connection limit and the
    /// graceful shutdown; the task ends with the connection. For tests of the connection's
    /// timeouts with a paused clock. Not part of the server's interface.
    #[doc(hidden)]
    pub fn serve_stream<S>(&self, stream: S) -> JoinHandle<()>
    where
        S: AsyncRead + AsyncWrite + Unpin + Send + 'static,
    {
        spawn_connection(&self.shared, stream, None, false, None)
    }

    /// Stops accepting connections, lets requests in flight finish, and waits for the end.
    pub async fn shutdown(mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        let _ = (&mut self.task).await;
        if let Some(state) = &self.shared.tools.state {
            state.close();
        }
    }
}

/// The largest request head (request line and headers) accepted: room for a URI of 64 KiB,
/// the most the HTTP layer takes, and ordinary headers. Larger heads are answered 431.
const MAX_HEAD_BYTES: usize = 96 * 1024;

/// What every connection shares.
pub(crate) struct Shared {
    pub app: App,
    pub budget: BodyBudget,
    stream: Arc<StreamConfig>,
    pub tools: DevTools,
    /// The `Link` header every answer carries (the REST root, where clients discover the API).
    link: HeaderValue,
    /// The site address's path (`/blog` for `http://host/blog`), or empty.
    site_path: String,
    /// `--proxy-to`: the interface's requests go to a real site (see `proxy`).
    proxy: Option<crate::proxy::Proxy>,
}

/// Binds `config.listen` and starts serving in the background.
pub async fn serve(mut config: Config) -> std::io::Result<RunningServer> {
    let invalid = |message: String| std::io::Error::new(std::io::ErrorKind::InvalidInput, message);
    let site_zone = checked_zone(&config).map_err(invalid)?;
    let (fixture, fixture_problems) = devtools::read_fixture(&mut config)?;
    let logins: Vec<&str> = config.users.iter().map(|user| user.name.as_str()).collect();
    if config.proxy_to.is_some() && !config.stub_files.is_empty() {
        return Err(invalid(format!("--stub: {}", crate::admin::STUBS_AND_PROXY)));
    }
    let stubs = crate::stubs::read_files(&config.stub_files, &logins).map_err(std::io::Error::other)?;
    let listener = TcpListener::bind(config.listen).await?;
    let addr = listener.local_addr()?;
    let site_url =
        config.site_url.clone().unwrap_or_else(|| format!("http://{addr}")).trim_end_matches('/').to_string();
    let base_url = format!("{site_url}{}", config.root);
    let api_url = format!("{base_url}/{}", config.namespace);
    let users = config.users.clone();
    let limits = config.limits;
    let mut opening = config.state.as_deref().map(Opening::open).transpose().map_err(invalid)?;
    let app = App {
        users: Users::new(&config.users),
        store: Store::new(Data::fresh_site(&site_url)),
        clock: Clock::new(config.clock),
        site_zone,
        site_url: site_url.clone(),
        config,
    };
    let fixture_data = match &fixture {
        Some(fixture) => Some(crate::fixtures::build(&app, fixture, fixture_problems).map_err(std::io::Error::other)?),
        None => None,
    };
    devtools::fill_store(&app, opening.as_mut(), fixture_data);
    let stream = Arc::new(StreamConfig {
        header_timeout: limits.header_timeout,
        idle_timeout: limits.idle_timeout,
        link: http::api_link(&site_url, &app.config.root),
    });
    let link = HeaderValue::from_str(&stream.link)
        .map_err(|_| invalid(format!("the site address {site_url:?} cannot be written in a Link header")))?;
    let site_path = site_path(&site_url);
    let budget = BodyBudget::new(limits.body_memory);
    let proxy = crate::proxy::Proxy::new(&app, addr).map_err(invalid)?;
    let shared = share(app, opening, |app, mut tools| {
        tools.fixture = fixture;
        // `read_files` keeps to the bound: the stubs of the files fit.
        if let Err(message) = tools.stubs.add(stubs) {
            tracing::warn!("--stub: {message}");
        }
        Shared { app, budget, stream, tools, link, site_path, proxy }
    })
    .map_err(invalid)?;
    devtools::warn_if_exposed(&shared.tools, addr);
    let (stop, stopped) = oneshot::channel::<()>();
    let task = tokio::spawn(accept_loop(listener, shared.clone(), limits.max_connections.max(1), stopped));
    Ok(RunningServer { addr, site_url, base_url, api_url, users, shared, stop: Some(stop), task })
}

/// What `--users`, `--clock` and `--timezone` allow: the site's time zone, or why not.
fn checked_zone(config: &Config) -> Result<Zone, String> {
    UserSpec::check_unique(&config.users)?;
    if let Some(at) = config.clock.filter(|at| !crate::clock_range::clock_in_range(*at)) {
        return Err(format!("--clock must be {}, not {at}", crate::clock_range::CLOCK_RANGE));
    }
    Zone::parse(&config.timezone).ok_or_else(|| format!("unknown time zone {:?}", config.timezone))
}

/// The site address's path (`/blog` for `http://host/blog`), or empty.
fn site_path(site_url: &str) -> String {
    site_url
        .split_once("://")
        .and_then(|(_, rest)| rest.split_once('/'))
        .map_or(String::new(), |(_, path)| format!("/{}", path.trim_end_matches('/')))
}

/// What every connection shares, made by `make` from the app and the developer tools, with
/// the state file started (its compaction borrows the store while the server lives). On a
/// failure the state file is closed and the message returned.
fn share(
    app: App,
    opening: Option<Opening>,
    make: impl FnOnce(App, DevTools) -> Shared,
) -> Result<Arc<Shared>, String> {
    let mut failure = None;
    let shared = Arc::new_cyclic(|weak: &Weak<Shared>| {
        let state = opening.and_then(|opening| {
            let header = Header::new(&app.site_url, &app.config.timezone);
            let compact_bytes = app.config.state_compact_bytes;
            let started = opening.start(&mut app.store.write(), &header, compact_bytes, lend_store(weak.clone()));
            started.map_err(|message| failure = Some(message)).ok()
        });
        let tools = DevTools::new(&app.config, state).unwrap_or_else(|message| {
            failure = Some(message);
            DevTools::new(&Config::default(), None).expect("the default configuration has no fault rules")
        });
        make(app, tools)
    });
    if let Some(message) = failure {
        if let Some(state) = &shared.tools.state {
            state.close();
        }
        return Err(message);
    }
    Ok(shared)
}

/// Lends the compaction thread the store while the server lives.
fn lend_store(weak: Weak<Shared>) -> WithData {
    Box::new(move |visit| match weak.upgrade() {
        Some(shared) => {
            visit(&shared.app.store.read());
            true
        }
        None => false,
    })
}

/// Accepts connections while fewer than `max_connections` are open; those beyond wait in the
/// listen queue until one ends. On stop, open connections finish the request they are on.
async fn accept_loop(
    listener: TcpListener,
    shared: Arc<Shared>,
    max_connections: usize,
    stopped: oneshot::Receiver<()>,
) {
    let slots = Arc::new(Semaphore::new(max_connections));
    // With `--admin`, one more connection is kept for the admin API, so that it can remove the
    // faults (or see the journal) when slow requests hold every other slot.
    let admin = shared.tools.admin;
    let reserve = Arc::new(Semaphore::new(1));
    let graceful = GracefulShutdown::new();
    tokio::pin!(stopped);
    loop {
        let slot = tokio::select! {
            biased;
            _ = &mut stopped => break,
            slot = slots.clone().acquire_owned() => slot.map(|slot| (slot, false)),
            slot = reserve.clone().acquire_owned(), if admin => slot.map(|slot| (slot, true)),
        };
        let Ok((mut slot, mut reserved)) = slot else { break };
        let accepted = tokio::select! {
            accepted = listener.accept() => accepted,
            _ = &mut stopped => break,
        };
        let Ok((tcp, _)) = accepted else {
            // Out of file descriptors, most likely: wait a moment rather than spin.
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
            continue;
        };
        let _ = tcp.set_nodelay(true);
        // A slot freed while this one waited: the reserved one is given back.
        if reserved {
            if let Ok(normal) = slots.clone().try_acquire_owned() {
                (slot, reserved) = (normal, false);
            }
        }
        spawn_connection(&shared, tcp, Some(slot), reserved, Some(&graceful));
    }
    drop(listener);
    graceful.shutdown().await;
}

/// Serves one accepted connection in a task of its own; its slot is freed when it ends. On
/// the connection kept for the admin API (`reserved`), only the admin API is answered.
fn spawn_connection<S>(
    shared: &Arc<Shared>,
    stream: S,
    slot: Option<OwnedSemaphorePermit>,
    reserved: bool,
    graceful: Option<&GracefulShutdown>,
) -> JoinHandle<()>
where
    S: AsyncRead + AsyncWrite + Unpin + Send + 'static,
{
    let state = ConnState::new();
    let io = TokioIo::new(GuardedStream::new(stream, state.clone(), shared.stream.clone()));
    let handler = shared.clone();
    let service = hyper::service::service_fn(move |request: Request<Incoming>| {
        let busy = state.begin();
        let shared = handler.clone();
        async move {
            let response = match (reserved, crate::admin::for_admin(&shared.tools, &shared.site_path, &request)) {
                (true, false) => Ok(devtools::reserved_answer()),
                // The kept connection serves one request: then it is free for the next.
                (true, true) => handle(&shared, request).await.map(|mut response| {
                    response.headers_mut().insert("connection", HeaderValue::from_static("close"));
                    response
                }),
                (false, _) => handle(&shared, request).await,
            };
            drop(busy);
            response
        }
    });
    let connection = hyper::server::conn::http1::Builder::new()
        .header_read_timeout(None)
        .max_header_size(MAX_HEAD_BYTES)
        .serve_connection(io, service);
    match graceful {
        Some(graceful) => {
            let connection = graceful.watch(connection);
            tokio::spawn(async move {
                let _ = connection.await;
                drop(slot);
            })
        }
        None => tokio::spawn(async move {
            let _ = connection.await;
            drop(slot);
        }),
    }
}

/// One request: the site's pages and the admin API, the real site's answer through the checking
/// proxy (`--proxy-to`), or the interface's pipeline with the faults that apply to it, the wait
/// for durability and its journal entry. Every error is an envelope; `Err` is a connection a
/// fault drops without an answer.
async fn handle(shared: &Shared, request: Request<Incoming>) -> Result<Response<ServeBody>, Dropped> {
    let started = std::time::Instant::now();
    let app = &shared.app;
    let tools = &shared.tools;
    // The journal's clock reading: only `--admin` keeps a journal.
    let time = tools.admin.then(chrono::Utc::now);
    let method = request.method().clone();
    let uri = request.uri().clone();
    let request = match crate::admin::site_or_admin(app, tools, &shared.budget, &shared.site_path, request).await {
        Ok(response) => {
            log(&method, &uri, Some(response.status().as_u16()), started, [None, None]);
            return Ok(response.map(ServeBody::from));
        }
        Err(request) => request,
    };
    if let Some(proxy) = &shared.proxy {
        let answer = devtools::proxied(app, tools, &shared.budget, &shared.site_path, proxy, request).await;
        return Ok(answer.map(ServeBody::from));
    }
    let query = parse_form(uri.query().unwrap_or(""));
    let effective = effective_method(&method, &query, request.headers());
    let prefix = Prefix { site_path: &shared.site_path, root: &app.config.root, namespace: &app.config.namespace };
    let located = locate(uri.path(), &query, prefix.site_path, prefix.root, prefix.namespace);
    let plan = devtools::fault_plan(tools, &effective, located.path.as_deref(), uri.path());
    let plain = devtools::plain_finish(&shared.link, &method);
    if !plan.delay_before.is_zero() {
        tokio::time::sleep(plan.delay_before).await;
    }
    let mut note = Note::default();
    // The journal shows the query as it came; the pipeline takes it over otherwise.
    let journal_query = tools.admin.then(|| query.clone());
    let cors = if tools.admin { devtools::cors_refusal(app, request.headers()) } else { None };
    let outcome = match plan.stop_before.clone() {
        Some(stop) => devtools::stop_answer(stop, &plain),
        None => {
            let arrived = Arrived { query, effective: &effective, located };
            answer_durably(shared, request, arrived, &mut note, &plan, &plain).await
        }
    };
    let fault = plan.mark();
    let status = outcome.as_ref().ok().map(|response| response.status().as_u16());
    let stub = note.stub.clone();
    // Only `--admin` can read the journal: without it, other users' traffic is not kept.
    let outcome = match (time, &journal_query) {
        (Some(time), Some(query)) => {
            let (user, fault) = (note.user.take(), fault.clone());
            let seen =
                Seen { time, started, method: &effective, uri: &uri, query, user, fault, cors, stub, bodies: None };
            devtools::journal(&tools.journal, &prefix, seen, outcome, &mut note).await
        }
        _ => outcome,
    };
    log(&method, &uri, status, started, [fault.as_deref(), note.stub.as_deref()]);
    let response = outcome?;
    Ok(match plan.slow {
        Some((chunk, delay)) => devtools::slow(response, chunk, delay).await,
        None => response.map(ServeBody::from),
    })
}

/// The pipeline's answer once it is durable, with the faults planned after it. Once the file
/// has failed, writes are refused up front and reads go on without waiting for a durability
/// that will not come.
async fn answer_durably(
    shared: &Shared,
    request: Request<Incoming>,
    arrived: Arrived<'_>,
    note: &mut Note,
    plan: &Plan,
    plain: &Finish<'_>,
) -> Result<Response<Full<Bytes>>, Dropped> {
    let tools = &shared.tools;
    let failed_before = devtools::state_failed(tools);
    let mut response = match devtools::refuse_if_read_only(tools, arrived.effective) {
        Some(error) => http::finish(Reply::from(error), plain),
        None => answer(shared, request, arrived, note).await,
    };
    if let Some(failed) = devtools::settle(tools, plain).await.filter(|_| !failed_before) {
        response = failed;
    }
    if !plan.delay_after.is_zero() {
        tokio::time::sleep(plan.delay_after).await;
    }
    match plan.stop_after.clone() {
        Some(stop) => devtools::stop_answer(stop, plain),
        None => Ok(response),
    }
}

/// The request log line (secrets redacted; an injected fault and a stub's answer marked).
fn log(
    method: &HttpMethod,
    uri: &hyper::Uri,
    status: Option<u16>,
    started: std::time::Instant,
    marks: [Option<&str>; 2],
) {
    if !tracing::enabled!(target: "reference_server::request", tracing::Level::INFO) {
        return;
    }
    let status = status.map_or_else(|| "dropped".to_string(), |status| status.to_string());
    let [fault, stub] = marks;
    let mut fault = fault.map_or_else(String::new, |fault| format!(" [fault: {fault}]"));
    if let Some(stub) = stub {
        fault.push_str(&format!(" [{}]", stub.escape_debug()));
    }
    tracing::info!(
        target: "reference_server::request",
        "{} {} {} {:?}{}",
        method,
        crate::request_log::redacted(uri),
        status,
        started.elapsed(),
        fault
    );
}

/// What the pipeline read of a request before answering it: its query, the method it is
/// treated as, and where it is headed.
struct Arrived<'a> {
    query: Params,
    effective: &'a str,
    located: http::Located,
}

/// The interface's answer to a request: authorize, find the route, read the body, then
/// dispatch in the request's language.
async fn answer(
    shared: &Shared,
    request: Request<Incoming>,
    arrived: Arrived<'_>,
    note: &mut Note,
) -> Response<Full<Bytes>> {
    let app = &shared.app;
    let Arrived { query, effective, located } = arrived;
    let (parts, body) = request.into_parts();
    let origin = parts.headers.get("origin").cloned();
    let mut finish = finish_for(shared, &parts.method, origin.clone(), &query);
    let fail = |error: ApiError, finish: &Finish| http::finish(Reply::from(error), finish);
    let options = parts.method == HttpMethod::OPTIONS;
    let method_name = if options { "GET" } else { effective };
    let user = match authenticate(app, &parts.headers, note) {
        Ok(user) => user,
        Err(error) => return fail(error, &finish),
    };
    if let Some(error) = foreign_write(origin.as_ref(), &finish, method_name, options) {
        return fail(error, &finish);
    }
    if located.rest_root {
        return http::finish(rest_root(app, user, located.base_lang, method_name), &finish);
    }
    let Some((route, var, method)) = find_route(located.path.as_deref(), method_name) else {
        return fail(ApiError::no_route(), &finish);
    };
    // Errors of the body itself carry the route's `Allow` too, as the CMS's do.
    let early_lang = query_lang(app, &query).or(located.base_lang).unwrap_or_default();
    let early_allow = route.op(method).is_some() || options;
    if early_allow {
        let ctx = context(app, user, early_lang, located.base_lang);
        finish.allow = Some(allow_for(&ctx, route, var.as_deref()));
    }
    // The body's hold on the budget lasts until the answer is made.
    let mut read = match read_whole_body(shared, body, &mut finish).await {
        Ok(read) => read,
        Err(error) => return fail(error, &finish),
    };
    devtools::keep_request_body(&shared.tools, &parts.headers, &read, note);
    let body = match body_params(&parts.headers, &mut read, method, options).await {
        Ok(params) => params,
        Err(error) => return fail(error, &finish),
    };
    let api_request = ApiRequest { method, route, var, query, body, headers: parts.headers };
    let ctx = context(app, user, named_lang(app, &api_request, located.base_lang), located.base_lang);
    if early_allow && ctx.lang != early_lang {
        finish.allow = Some(allow_for(&ctx, route, api_request.var.as_deref()));
    }
    let path = located.path.as_deref().unwrap_or("/");
    // A stub's answer, if one matches (never a preflight's); else the route's.
    let stubbed = if options {
        None
    } else {
        devtools::stub_answer(&shared.tools, &ctx, &api_request, path, &mut finish, note, route_reply)
    };
    stubbed.unwrap_or_else(|| dispatch(&ctx, &api_request, options, &mut finish))
}

/// How answers to this request are finished: links, CORS, HEAD, `_fields` and `_envelope`.
fn finish_for<'a>(shared: &'a Shared, method: &HttpMethod, origin: Option<HeaderValue>, query: &Params) -> Finish<'a> {
    let app = &shared.app;
    Finish {
        link: &shared.link,
        origin: origin.filter(|origin| http::origin_allowed(&app.config.cors_origins, &app.site_url, origin)),
        head: method == HttpMethod::HEAD,
        allow: None,
        fields: query.get("_fields").and_then(Value::as_str).map(str::to_string),
        envelope: query.contains_key("_envelope"),
        close: false,
        cms_exposed_only: app.config.quirks.on(crate::quirks::Quirk::CmsExposedHeaders),
    }
}

/// The user the credentials name (checked before anything else, as the CMS does), noted for
/// the journal.
fn authenticate<'a>(app: &'a App, headers: &HeaderMap, note: &mut Note) -> Result<Option<&'a User>, ApiError> {
    let authorization = headers.get("authorization").and_then(|value| value.to_str().ok());
    note.user = authorization.and_then(crate::auth::decode_basic).map(|(name, _)| name);
    let user = app.users.authenticate(authorization)?;
    if user.is_none() && headers.contains_key("x-wp-nonce") {
        let reason = "an X-WP-Nonce header without credentials (cookie authentication is not supported)";
        return Err(ApiError::of(&errors::COOKIE_INVALID_NONCE).because(reason));
    }
    Ok(user)
}

/// A browser request from an origin outside `--cors-origin` may not write: its answer could
/// not be read, but the write would happen (cross-site request forgery).
fn foreign_write(origin: Option<&HeaderValue>, finish: &Finish, method_name: &str, options: bool) -> Option<ApiError> {
    if origin.is_some() && finish.origin.is_none() && method_name != "GET" && method_name != "HEAD" && !options {
        let reason = format!(
            "a write from a browser page of origin {:?}, which --cors-origin does not list",
            origin.and_then(|origin| origin.to_str().ok()).unwrap_or("?")
        );
        return Some(ApiError::forbidden(true).because(reason));
    }
    None
}

/// The REST root's answer (`GET` only).
fn rest_root(app: &App, user: Option<&User>, base_lang: Option<Lang>, method_name: &str) -> Reply {
    match Method::parse(method_name) {
        Some(Method::Get) => {
            let ctx = context(app, user, base_lang.unwrap_or_default(), base_lang);
            Reply::ok(crate::api::index::rest_root(&ctx))
        }
        _ => Reply::from(ApiError::no_route()),
    }
}

/// The route of a path in the namespace, its variable and the method; None: no route.
fn find_route(path: Option<&str>, method_name: &str) -> Option<(&'static Route, Option<String>, Method)> {
    let (route, var) = http::route_for(path?)?;
    Some((route, var, Method::parse(method_name)?))
}

/// The `Allow` header of a route, as the request's user sees it.
fn allow_for(ctx: &Ctx, route: &Route, var: Option<&str>) -> String {
    let data = ctx.app.store.read();
    crate::api::allow_header(ctx, &data, route, var)
}

/// The request body, read whole within the budget and the time allowed; after an error the
/// connection is closed (the rest of the body was not read).
async fn read_whole_body(shared: &Shared, body: Incoming, finish: &mut Finish<'_>) -> Result<ReadBody, ApiError> {
    read_body(body, &shared.budget, shared.app.config.limits.body_timeout).await.map_err(|error| {
        finish.close = true;
        match error {
            BodyError::TooLarge => ApiError::of(&errors::TOO_LARGE),
            BodyError::TimedOut => ApiError::bad_request(408),
            BodyError::Broken => ApiError::bad_request(400),
        }
    })
}

/// The language the query names. Before the body is read, that or the address's is the
/// request's language (the one a body could name is not known yet).
fn query_lang(app: &App, query: &Params) -> Option<Lang> {
    query.get(&app.config.language_param).and_then(Value::as_str).and_then(Lang::parse)
}

/// The body's parameters; a `GET` (not `OPTIONS`) has none, whatever it sent.
async fn body_params(
    headers: &HeaderMap,
    read: &mut ReadBody,
    method: Method,
    options: bool,
) -> Result<Params, ApiError> {
    if matches!(method, Method::Get) && !options {
        return Ok(Params::new());
    }
    parse_body(headers, std::mem::take(&mut read.bytes)).await
}

/// The language a request names (body over query, as the CMS merges them), else its address's.
fn named_lang(app: &App, request: &ApiRequest, base_lang: Option<Lang>) -> Lang {
    let param = app.config.language_param.as_str();
    let named = request.body.get(param).or_else(|| request.query.get(param));
    named.and_then(Value::as_str).and_then(Lang::parse).or(base_lang).unwrap_or_default()
}

/// The route's description for `OPTIONS`, else the operation's answer.
fn dispatch(ctx: &Ctx, request: &ApiRequest, options: bool, finish: &mut Finish) -> Response<Full<Bytes>> {
    let reply = route_reply(ctx, request, options, finish);
    http::finish(reply, finish)
}

/// The route's reply, before it is finished.
fn route_reply(ctx: &Ctx, request: &ApiRequest, options: bool, _finish: &mut Finish) -> Reply {
    if options {
        return Reply::ok(crate::api::index::describe_route(ctx, request.route));
    }
    // A method the route does not have: no Allow was set (`early_allow`), as real sites send
    // none without a matched route.
    if request.route.op(request.method).is_none() {
        return Reply::from(ApiError::no_route());
    }
    crate::api::dispatch(ctx, request).unwrap_or_else(Reply::from)
}

/// The request's view of the server: user, language and the API prefix it came to.
fn context<'a>(app: &'a App, user: Option<&'a crate::auth::User>, lang: Lang, base_lang: Option<Lang>) -> Ctx<'a> {
    let lang_segment = base_lang.map_or(String::new(), |lang| format!("/{}", lang.code()));
    Ctx {
        app,
        user,
        lang,
        api_base: format!("{}{}{}/{}", app.site_url, lang_segment, app.config.root, app.config.namespace),
        now: app.clock.now(),
    }
}
