//! What the server shows of itself to its operator: one log line per request, with a
//! request id every line about the request carries, and Prometheus metrics with
//! bounded labels, on a listener of their own.
//!
//! * Request ids: the client's `X-Request-Id` when it sends a sane one (1 to 64 of
//!   `A-Z a-z 0-9 - _ . :`), else a new one; returned in `x-request-id` on every
//!   answer (tower-http's request-id layers).
//! * The request's line, at `info`, when it is answered: method, route pattern, status,
//!   duration, request id, the client's address (the connection's peer, or the address
//!   a trusted proxy forwards for: `shares::ClientAddress`), and the game's id where
//!   the path names one; for a refusal the store or a bug caused, what it was
//!   (`error::Detail`).
//! * Metrics (a no-op unless a recorder is installed: `serve --metrics`):
//!   `tictactoe_http_requests_total` and `tictactoe_http_request_duration_seconds`
//!   by route pattern, method and status; the games' own (`tictactoe_moves_total`,
//!   `tictactoe_store_write_duration_seconds`, `tictactoe_commit_batch_requests`,
//!   `tictactoe_store_errors_total`, `tictactoe_games_in_memory`,
//!   `tictactoe_event_streams_open`) where they happen. Labels are route patterns and
//!   fixed words, never a raw path or a name. Every series without a request's labels
//!   is there from the start, at zero (`at_zero`), with `tictactoe_build_info` and
//!   the process's own (`process`).

use std::collections::HashMap;
use std::future::Future;
use std::io;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll, ready};
use std::time::{Duration, Instant};

use axum::Router;
use axum::extract::MatchedPath;
use axum::http::{HeaderName, HeaderValue, Method, StatusCode};
use axum::response::Response;
use axum::routing::get;
use metrics::{Counter, Histogram};
use metrics_exporter_prometheus::{Matcher, PrometheusBuilder, PrometheusHandle};
use pin_project_lite::pin_project;
use tower::{Layer, Service};
use tower_http::request_id::{MakeRequestId, RequestId};
use tracing::instrument::Instrumented;
use tracing::{Instrument, Span};

use tictactoe_core::ports::StoreError;
use tictactoe_core::sync::lock;

use super::error::Detail;
use super::server::{Limits, serve_app, with_security_headers};
use super::shares::ClientAddress;

/// The header a request's id travels in.
pub const REQUEST_ID: HeaderName = HeaderName::from_static("x-request-id");

/// The longest request id taken from a client.
const LONGEST_ID: usize = 64;

/// The route pattern a request matched, carried from the router to the outer layers in
/// the response's extensions.
#[derive(Clone)]
pub struct Route(MatchedPath);

/// New request ids: 16 random hex digits.
#[derive(Clone, Copy, Default)]
pub struct NewRequestId;

impl MakeRequestId for NewRequestId {
    fn make_request_id<B>(&mut self, _: &axum::http::Request<B>) -> Option<RequestId> {
        let id = format!("{:016x}", rand::random::<u64>());
        HeaderValue::from_str(&id).ok().map(RequestId::new)
    }
}

/// Whether a client's request id is one to keep and log as it is.
fn is_sane(id: &HeaderValue) -> bool {
    let bytes = id.as_bytes();
    !bytes.is_empty()
        && bytes.len() <= LONGEST_ID
        && bytes
            .iter()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b':'))
}

/// Takes away a request id the client sent that is not sane (or sent twice), so that
/// a new one is made in its place.
pub fn sane_request_id<B>(mut request: axum::http::Request<B>) -> axum::http::Request<B> {
    let headers = request.headers_mut();
    let mut sent = headers.get_all(&REQUEST_ID).iter();
    let keep = match (sent.next(), sent.next()) {
        (Some(id), None) => is_sane(id),
        _ => false,
    };
    if !keep {
        headers.remove(&REQUEST_ID);
    }
    request
}

/// Inside the router (a `route_layer`): remembers the route pattern the request
/// matched, in its answer, for [`LogAndCountLayer`] outside. (A layer of its own rather
/// than axum's `from_fn`, which boxes every route's future and the route again.)
#[derive(Clone, Copy, Default)]
pub struct RememberRouteLayer;

impl<S> Layer<S> for RememberRouteLayer {
    type Service = RememberRoute<S>;

    fn layer(&self, inner: S) -> RememberRoute<S> {
        RememberRoute { inner }
    }
}

/// See [`RememberRouteLayer`].
#[derive(Clone)]
pub struct RememberRoute<S> {
    inner: S,
}

impl<S, B> Service<axum::http::Request<B>> for RememberRoute<S>
where
    S: Service<axum::http::Request<B>, Response = Response>,
{
    type Response = Response;
    type Error = S::Error;
    type Future = Answering<S::Future, Route>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), S::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, request: axum::http::Request<B>) -> Self::Future {
        let route = request
            .extensions()
            .get::<MatchedPath>()
            .cloned()
            .map(Route);
        Answering {
            answer: self.inner.call(request),
            then: route,
        }
    }
}

/// What is done with an answer once it is given, by [`Answering`].
pub trait WhenAnswered {
    fn answered(self, response: &mut Response);
}

impl WhenAnswered for Route {
    /// The route pattern put in the answer.
    fn answered(self, response: &mut Response) {
        response.extensions_mut().insert(self);
    }
}

pin_project! {
    /// A request being answered by the layers below, and `then` done with its answer
    /// when it is (a future of its own, where an `async` block would be boxed).
    pub struct Answering<F, T> {
        #[pin]
        answer: F,
        then: Option<T>,
    }
}

impl<F, E, T> Future for Answering<F, T>
where
    F: Future<Output = Result<Response, E>>,
    T: WhenAnswered,
{
    type Output = Result<Response, E>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let this = self.project();
        let mut answer = ready!(this.answer.poll(cx));
        if let (Ok(response), Some(then)) = (&mut answer, this.then.take()) {
            then.answered(response);
        }
        Poll::Ready(answer)
    }
}

/// The route pattern of an answered request, or `unmatched` (an unknown path, a method
/// not taken).
fn route_of(response: &Response) -> &str {
    response
        .extensions()
        .get::<Route>()
        .map_or("unmatched", |Route(route)| route.as_str())
}

/// The request's method as a label: one of HTTP's own, or `other`.
fn method_label(method: &Method) -> &'static str {
    match *method {
        Method::GET => "GET",
        Method::POST => "POST",
        Method::PUT => "PUT",
        Method::DELETE => "DELETE",
        Method::HEAD => "HEAD",
        Method::OPTIONS => "OPTIONS",
        Method::PATCH => "PATCH",
        Method::TRACE => "TRACE",
        Method::CONNECT => "CONNECT",
        _ => "other",
    }
}

/// The span every line about a request is logged in, made as the request comes: its
/// id, its method, its client's address, and the game its path names, if any. (Each
/// field is given at once: a field recorded later costs the JSON logs a second
/// formatting of them all. Each is written as it is (`%`), not quoted and escaped as a
/// string would be: none can hold a space, a quote or a control character, and
/// escaping them char by char was half of a span's cost.)
fn request_span<B>(request: &axum::http::Request<B>) -> Span {
    let id = request
        .headers()
        .get(&REQUEST_ID)
        .and_then(|id| id.to_str().ok())
        .unwrap_or("");
    let method = method_label(request.method());
    let client = ClientAddress::of(request.extensions());
    macro_rules! span {
        ($($game:tt)*) => {
            tracing::info_span!("request", request_id = %id, method = %method, client = %client, $($game)*)
        };
    }
    match game_in(request.uri().path()) {
        Some(game) => span!(game = %game),
        None => span!(),
    }
}

/// The game a path names, if it names one: `/api/games/ID...` or `/games/ID`.
fn game_in(path: &str) -> Option<&str> {
    let rest = path
        .strip_prefix("/api/games/")
        .or_else(|| path.strip_prefix("/games/"))?;
    let id = rest.split('/').next()?;
    (id.len() == 32 && id.bytes().all(|b| b.is_ascii_hexdigit())).then_some(id)
}

/// The layer that logs each request's line, and counts it in the metrics, once it is
/// answered; the request is handled in its span, so that every line about it carries
/// its id. (A layer of its own rather than axum's `from_fn`, which boxes every
/// request's future, the whole router's below it.)
#[derive(Clone, Default)]
pub struct LogAndCountLayer {
    series: Arc<Series>,
}

impl<S> Layer<S> for LogAndCountLayer {
    type Service = LogAndCount<S>;

    fn layer(&self, inner: S) -> LogAndCount<S> {
        LogAndCount {
            inner,
            series: Arc::clone(&self.series),
        }
    }
}

/// See [`LogAndCountLayer`].
#[derive(Clone)]
pub struct LogAndCount<S> {
    inner: S,
    series: Arc<Series>,
}

impl<S, B> Service<axum::http::Request<B>> for LogAndCount<S>
where
    S: Service<axum::http::Request<B>, Response = Response>,
{
    type Response = Response;
    type Error = S::Error;
    type Future = Instrumented<Answering<S::Future, Asked>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), S::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, request: axum::http::Request<B>) -> Self::Future {
        let span = request_span(&request);
        let method = method_label(request.method());
        let answer = span.in_scope(|| self.inner.call(request));
        let asked = Asked {
            method,
            started: Instant::now(),
            series: Arc::clone(&self.series),
        };
        Answering {
            answer,
            then: Some(asked),
        }
        .instrument(span)
    }
}

/// A request as it was asked, to be logged and counted once it is answered.
pub struct Asked {
    method: &'static str,
    started: Instant,
    series: Arc<Series>,
}

impl WhenAnswered for Asked {
    fn answered(self, response: &mut Response) {
        log_and_count(&self.series, self.method, self.started.elapsed(), response);
    }
}

/// The line and the metrics of a request answered with `response` after `elapsed`.
fn log_and_count(series: &Series, method: &'static str, elapsed: Duration, response: &Response) {
    let route = route_of(response);
    let status = response.status();
    // To the microsecond, so that it is written as a person reads it (`1.826555`, not
    // `1.8265550000000002`).
    let millis = elapsed.as_micros() as f64 / 1000.0;
    match Detail::of(response) {
        Some(detail) if status.is_server_error() => tracing::info!(
            route = %route,
            status = status.as_u16(),
            ms = millis,
            error = detail,
            "answered"
        ),
        _ => tracing::info!(route = %route, status = status.as_u16(), ms = millis, "answered"),
    }
    series.count(route, method, status, elapsed);
}

/// The two series of the requests' metrics, by route pattern, method and status: each
/// pair made the first time it is counted, and kept. (Made at each request, a series'
/// key, its three labels owned, is built and looked up in the recorder's registry.)
/// Bounded as the labels are: the routes' patterns, HTTP's methods, the statuses.
#[derive(Default)]
pub struct Series(Mutex<HashMap<(u16, &'static str), ByRoute>>);

/// The requests' count and their durations, by route pattern.
type ByRoute = HashMap<Box<str>, (Counter, Histogram)>;

impl Series {
    fn count(&self, route: &str, method: &'static str, status: StatusCode, elapsed: Duration) {
        let mut series = lock(&self.0);
        let of_status = series.entry((status.as_u16(), method)).or_default();
        let (requests, duration) = match of_status.get(route) {
            Some(both) => both,
            None => {
                let labels = [
                    ("route", route.to_owned()),
                    ("method", method.to_owned()),
                    ("status", status.as_str().to_owned()),
                ];
                let both = (
                    metrics::counter!("tictactoe_http_requests_total", &labels),
                    metrics::histogram!("tictactoe_http_request_duration_seconds", &labels),
                );
                of_status.entry(route.into()).or_insert(both)
            }
        };
        requests.increment(1);
        duration.record(elapsed.as_secs_f64());
    }
}

/// Every word [`store_error_kind`] gives: the series registered at zero.
const STORE_ERROR_KINDS: [&str; 9] = [
    "no_database",
    "unreadable",
    "newer",
    "locked",
    "read_only",
    "full",
    "unavailable",
    "no_such_game",
    "conflict",
];

/// A store's error as a label: what kind of trouble, in a fixed word.
pub fn store_error_kind(error: &StoreError) -> &'static str {
    match error {
        StoreError::NoLocation | StoreError::Folder { .. } => "no_database",
        StoreError::Unreadable { .. } => "unreadable",
        StoreError::Newer { .. } => "newer",
        StoreError::Locked { .. } => "locked",
        StoreError::ReadOnly { .. } => "read_only",
        StoreError::Full { .. } => "full",
        StoreError::Unavailable { .. } => "unavailable",
        StoreError::NoSuchGame(_) => "no_such_game",
        StoreError::Conflict { .. } => "conflict",
    }
}

/// The metrics recorder, installed for the whole process: from then on the metrics
/// the server records are kept, to be rendered by [`serve_metrics`].
pub struct Metrics(PrometheusHandle);

/// Seconds: from a millisecond to ten seconds.
const DURATIONS: [f64; 13] = [
    0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 10.0,
];
/// Requests in one commit.
const BATCHES: [f64; 11] = [
    1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0, 128.0, 256.0, 512.0, 1024.0,
];

impl Metrics {
    /// Installs the process's recorder. Fails if one is installed already.
    pub fn install() -> io::Result<Metrics> {
        let handle = PrometheusBuilder::new()
            .set_buckets_for_metric(Matcher::Suffix("_seconds".into()), &DURATIONS)
            .and_then(|builder| {
                builder.set_buckets_for_metric(
                    Matcher::Full("tictactoe_commit_batch_requests".into()),
                    &BATCHES,
                )
            })
            .map_err(io::Error::other)?
            .install_recorder()
            .map_err(io::Error::other)?;
        describe();
        at_zero();
        super::process::start();
        Ok(Metrics(handle))
    }

    /// The metrics as Prometheus reads them (the process's read again first).
    pub fn render(&self) -> String {
        super::process::read();
        self.0.render()
    }
}

/// Every series the operator is told of (docs/web.md, "Metrics") that has no label
/// only a request can give, there from the start, at zero: an alert on a counter that
/// does not exist yet never fires. And the build's version, as `tictactoe_build_info`.
fn at_zero() {
    metrics::counter!("tictactoe_moves_total").increment(0);
    for kind in STORE_ERROR_KINDS {
        metrics::counter!("tictactoe_store_errors_total", "kind" => kind).increment(0);
    }
    for result in super::accounts::SIGN_IN_RESULTS {
        metrics::counter!("tictactoe_sign_ins_total", "result" => result).increment(0);
    }
    for kind in super::budget::Kind::ALL {
        metrics::counter!("tictactoe_engine_refused_total", "kind" => kind.label()).increment(0);
        let _ = metrics::histogram!("tictactoe_engine_seconds", "kind" => kind.label());
    }
    metrics::gauge!("tictactoe_engine_waiting").increment(0.0);
    metrics::gauge!("tictactoe_engine_memory_bytes").increment(0.0);
    let _ = metrics::histogram!("tictactoe_engine_wait_seconds");
    metrics::gauge!("tictactoe_games_in_memory").increment(0.0);
    metrics::gauge!("tictactoe_event_streams_open").increment(0.0);
    // Registered, with no observation yet.
    let _ = metrics::histogram!("tictactoe_store_write_duration_seconds");
    let _ = metrics::histogram!("tictactoe_commit_batch_requests");
    metrics::gauge!("tictactoe_build_info", "version" => env!("CARGO_PKG_VERSION")).set(1.0);
}

/// Each metric's help text, for Prometheus.
fn describe() {
    super::process::describe();
    metrics::describe_gauge!(
        "tictactoe_build_info",
        "Always 1: the version of tictactoe serving, as its label"
    );
    use metrics::{Unit, describe_counter, describe_gauge, describe_histogram};
    describe_counter!(
        "tictactoe_http_requests_total",
        "Requests answered, by route pattern, method and status"
    );
    describe_histogram!(
        "tictactoe_http_request_duration_seconds",
        Unit::Seconds,
        "Time from a request's head to its answer, by route pattern, method and status"
    );
    describe_counter!("tictactoe_moves_total", "Moves kept in the store");
    describe_histogram!(
        "tictactoe_store_write_duration_seconds",
        Unit::Seconds,
        "Time one commit of the group commit took in the store"
    );
    describe_histogram!(
        "tictactoe_commit_batch_requests",
        "Requests whose writes one commit carried"
    );
    describe_counter!(
        "tictactoe_store_errors_total",
        "Failures of the store met by its writer, by kind"
    );
    describe_gauge!("tictactoe_games_in_memory", "Games held in memory");
    describe_gauge!("tictactoe_event_streams_open", "Live event streams open");
    describe_histogram!(
        "tictactoe_engine_seconds",
        Unit::Seconds,
        "Engine time spent on one costly request (hint, review, answer), by kind"
    );
    describe_counter!(
        "tictactoe_engine_refused_total",
        "Costly requests refused for their client's share of the engine's time, by kind"
    );
    describe_gauge!(
        "tictactoe_engine_waiting",
        "Hints and training answers waiting for the advice lane"
    );
    describe_histogram!(
        "tictactoe_engine_wait_seconds",
        Unit::Seconds,
        "How long a hint or a training answer waited for the advice lane"
    );
    describe_gauge!(
        "tictactoe_engine_memory_bytes",
        "What the engine's tables hold across every board shape, at most --engine-memory"
    );
    describe_counter!(
        "tictactoe_sign_ins_total",
        "Sign-ins and sign-ups tried, by what became of them: signed_in, signed_up, wrong \
         (a wrong name or password, or a name taken), throttled (too many tries), busy \
         (the passwords' queue full)"
    );
}

/// Serves `GET /metrics` on `listener` until `shutdown` completes: a listener of its
/// own, so that the public port never shows them, held to the public port's `limits`
/// by the same loop (`server::serve_app`: the head deadline and size, the idle time,
/// the cap on connections and each client's share, a bounded stop), with the same
/// headers on every answer.
pub async fn serve_metrics(
    listener: tokio::net::TcpListener,
    metrics: Metrics,
    limits: Limits,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> io::Result<()> {
    let metrics = std::sync::Arc::new(metrics);
    let upkeep = std::sync::Arc::clone(&metrics);
    let housekeeping = tokio::spawn(async move {
        loop {
            tokio::time::sleep(Duration::from_secs(5)).await;
            upkeep.0.run_upkeep();
        }
    });
    let app = Router::new()
        .route(
            "/metrics",
            get(move || {
                let metrics = std::sync::Arc::clone(&metrics);
                async move {
                    (
                        [(
                            axum::http::header::CONTENT_TYPE,
                            "text/plain; version=0.0.4; charset=utf-8",
                        )],
                        metrics.render(),
                    )
                }
            }),
        )
        .fallback(super::api::not_found);
    serve_app(listener, with_security_headers(app), &limits, shutdown).await;
    housekeeping.abort();
    Ok(())
}

#[cfg(test)]
mod tests {
    use axum::body::Body;
    use axum::extract::Request;

    use super::*;
    use crate::logged::Logged;

    fn with_id(id: &'static [u8]) -> Request {
        axum::http::Request::builder()
            .header(REQUEST_ID, HeaderValue::from_bytes(id).unwrap())
            .body(Body::empty())
            .unwrap()
    }

    #[test]
    fn a_sane_request_id_is_kept() {
        let request = sane_request_id(with_id(b"abc-123.x:y_z"));

        assert_eq!(request.headers()[REQUEST_ID], "abc-123.x:y_z");
    }

    #[rstest::rstest]
    #[case::too_long(&[b'a'; 65])]
    #[case::with_a_space(b"a b")]
    #[case::with_a_quote(b"a\"b")]
    #[case::empty(b"")]
    fn a_request_id_that_is_not_sane_is_dropped_for_a_new_one(#[case] id: &'static [u8]) {
        let request = sane_request_id(with_id(id));

        assert!(request.headers().get(REQUEST_ID).is_none());
    }

    #[test]
    fn a_request_id_sent_twice_is_dropped() {
        let mut request = with_id(b"one");
        request
            .headers_mut()
            .append(REQUEST_ID, HeaderValue::from_static("two"));

        let request = sane_request_id(request);

        assert!(request.headers().get(REQUEST_ID).is_none());
    }

    #[rstest::rstest]
    #[case::api(
        "/api/games/0123456789abcdef0123456789abcdef/moves",
        Some("0123456789abcdef0123456789abcdef")
    )]
    #[case::page(
        "/games/0123456789abcdef0123456789abcdef",
        Some("0123456789abcdef0123456789abcdef")
    )]
    #[case::no_id("/api/games", None)]
    #[case::not_an_id("/api/games/zz", None)]
    fn the_game_a_path_names_is_logged_with_it(#[case] path: &str, #[case] game: Option<&str>) {
        assert_eq!(game_in(path), game);
    }

    #[tokio::test]
    async fn the_requests_line_names_the_address_it_came_from() {
        // Arrange: a request its connection says came from 203.0.113.7 (a trusted
        // proxy's client, say).
        let logged = Logged::start();
        let router = Router::new()
            .route("/api/scores", get(|| async { "{}" }))
            .layer(LogAndCountLayer::default());
        let mut request = with_id(b"abc-1");
        *request.uri_mut() = "/api/scores".parse().unwrap();
        let address = "203.0.113.7".parse().unwrap();
        request.extensions_mut().insert(ClientAddress(address));

        // Act
        tower::ServiceExt::oneshot(router, request).await.unwrap();

        // Assert
        let lines = logged.lines();
        assert_eq!(lines.len(), 1, "{lines:#?}");
        assert!(
            lines[0].contains("request{request_id=abc-1 method=GET client=203.0.113.7}"),
            "{}",
            lines[0]
        );
        assert!(lines[0].contains("answered"), "{}", lines[0]);
    }

    #[test]
    fn an_unknown_method_is_labelled_other() {
        let method = Method::from_bytes(b"BREW").unwrap();

        assert_eq!(method_label(&method), "other");
    }
}
