//! The routes, the headers every answer carries, and serving until told to stop.

use std::future::Future;
use std::io;
use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::extract::{DefaultBodyLimit, Request};
use axum::http::{HeaderName, HeaderValue, header};
use axum::response::Response;
use axum::routing::get;
use axum::serve::Listener;
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::{GracefulConnection, GracefulShutdown};
use hyper_util::service::TowerToHyperService;
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::net::{TcpListener, TcpStream};
use tokio::task::JoinSet;
use tower::ServiceBuilder;
use tower::util::MapResponseLayer;
use tower_http::request_id::{PropagateRequestIdLayer, SetRequestIdLayer};
use tower_http::set_header::SetResponseHeaderLayer;
use tower_http::timeout::{DeadlineBody, RequestBodyDeadlineLayer};
use utoipa::OpenApi;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::accounts::Accounts;
use super::api::{self, App, Edge};
use super::assets;
use super::connections::{Connection, Places};
use super::edge::{self, PublicUrl};
use super::error::{ApiError, SECURITY_HEADERS};
use super::games::Games;
use super::health::Health;
use super::hyper_refusals::Dressed;
use super::observe::{self, NewRequestId, REQUEST_ID};
use super::openapi::{self, ApiDoc};
use super::port::{AccountService, GameService, LobbyService};
use super::shares::{Client, ClientAddress, forwarded_for};
use super::stream_places::StreamPlaces;

/// The bounds the server's transport keeps to, whatever its clients do. (The games'
/// own are [`GameLimits`](super::games::GameLimits).)
#[derive(Debug, Clone)]
pub struct Limits {
    /// The largest request body accepted.
    pub body_bytes: usize,
    /// A request's body must arrive whole within this long of its head, or the answer
    /// is a 408 and the connection is closed.
    pub body_deadline: Duration,
    /// The largest request head (its first line and headers) accepted; past it, 431.
    pub head_bytes: usize,
    /// A request's head must arrive whole within this long of the connection's being
    /// ready for it (opened, or done with the request before), or the connection is
    /// closed; trickling bytes do not push this back.
    pub head_deadline: Duration,
    /// Connections open at once; past it, the next wait to be accepted.
    pub max_connections: usize,
    /// Connections open at once from one client (an IPv4 address, an IPv6 /64); past
    /// it, that client's next connection is refused at once.
    pub connections_per_client: usize,
    /// A connection with nothing sent or received for this long is closed.
    pub idle_connection: Duration,
    /// Live event streams at once; past it, a new stream is refused with 503.
    pub max_streams: usize,
    /// Live event streams at once for one client; past it, 429.
    pub streams_per_client: usize,
    /// Proxies whose `X-Forwarded-For` is believed: their requests count for the
    /// client the header names, and their connections against no client's share.
    pub trusted_proxies: Vec<IpAddr>,
    /// After the server is told to stop, how long requests in flight have to finish
    /// before every connection is closed.
    pub grace: Duration,
    /// The address people use (`--public-url`), if the server was told: then a request
    /// sent to another (its `Host`) is refused 421, but for the health checks.
    pub public_url: Option<PublicUrl>,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            body_bytes: 4 * 1024,
            body_deadline: Duration::from_secs(10),
            head_bytes: 8 * 1024,
            head_deadline: Duration::from_secs(10),
            max_connections: 4096,
            connections_per_client: 256,
            idle_connection: Duration::from_secs(60),
            max_streams: 2048,
            streams_per_client: 64,
            trusted_proxies: Vec::new(),
            grace: Duration::from_secs(5),
            public_url: None,
        }
    }
}

/// Every route of the page and the API (see docs/web.md), on `games` and `accounts`,
/// within `limits`.
pub fn router(games: &Games, accounts: &Accounts, limits: &Limits) -> Router {
    routes(
        Arc::new(games.clone()),
        Arc::new(accounts.clone()),
        Arc::new(games.clone()),
        games.health(),
        limits,
    )
}

/// The API's document, as served at `/api/openapi.json` (and kept in
/// docs/openapi.json).
pub fn openapi() -> String {
    api_routes()
        .1
        .to_pretty_json()
        .expect("the API's document (made of strings, numbers and maps) serialises")
}

/// The API's routes, each handler registered once for the router and the document:
/// every route under `/api`, and the operators' `/healthz` and `/readyz`, is added here
/// and nowhere else, so none goes undocumented.
fn api_routes() -> (Router<App>, utoipa::openapi::OpenApi) {
    let (router, mut document) = OpenApiRouter::with_openapi(ApiDoc::openapi())
        .routes(routes!(api::create, api::history))
        .routes(routes!(api::game))
        .routes(routes!(api::join))
        .routes(routes!(api::play))
        .routes(routes!(api::undo))
        .routes(routes!(api::hint))
        .routes(routes!(api::resign))
        .routes(routes!(api::rename))
        .routes(routes!(api::rematch))
        .routes(routes!(api::events))
        .routes(routes!(api::review))
        .routes(routes!(api::rating_changes))
        .routes(routes!(api::scores))
        .routes(routes!(api::player))
        .routes(routes!(api::ratings))
        .routes(routes!(api::puzzles))
        .routes(routes!(api::answer_puzzle))
        .routes(routes!(api::accounts::sign_up))
        .routes(routes!(
            api::accounts::sign_in,
            api::accounts::session,
            api::accounts::sign_out
        ))
        .routes(routes!(api::accounts::add_token, api::accounts::tokens))
        .routes(routes!(api::accounts::revoke_token))
        .routes(routes!(api::lobby::open_seek))
        .routes(routes!(api::lobby::pairing))
        .routes(routes!(api::lobby::lobby))
        .routes(routes!(api::lobby::lobby_events))
        .routes(routes!(api::lobby::seek, api::lobby::cancel_seek))
        .routes(routes!(api::lobby::seek_events))
        .routes(routes!(api::lobby::accept_seek))
        .routes(routes!(api::lobby::tv))
        .routes(routes!(api::lobby::block, api::lobby::blocks))
        .routes(routes!(api::lobby::unblock))
        .routes(routes!(api::healthz))
        .routes(routes!(api::readyz))
        .routes(routes!(api::document))
        .split_for_parts();
    openapi::link_begun_games(&mut document);
    openapi::link_puzzles(&mut document);
    (router, document)
}

/// The routes on any [`GameService`] and [`AccountService`]: `api`'s tests give them
/// mocks.
pub(crate) fn routes(
    games: Arc<dyn GameService>,
    accounts: Arc<dyn AccountService>,
    lobby: Arc<dyn LobbyService>,
    health: Health,
    limits: &Limits,
) -> Router {
    let (api, document) = api_routes();
    let app = App {
        games,
        accounts,
        lobby,
        health,
        edge: Arc::new(Edge {
            secure_cookies: limits.public_url.as_ref().is_some_and(PublicUrl::is_https),
            body_limit: limits.body_bytes,
            body_deadline: limits.body_deadline,
            stream_places: StreamPlaces::new(limits.max_streams, limits.streams_per_client),
            streams_per_client: limits.streams_per_client,
        }),
        document: document
            .to_pretty_json()
            .expect("the API's document (made of strings, numbers and maps) serialises")
            .into(),
    };
    let api = api.layer(SetResponseHeaderLayer::overriding(
        header::CACHE_CONTROL,
        HeaderValue::from_static("no-store"),
    ));
    let pages = assets::routes().route("/games/{id}", get(api::game_page));
    let routes = pages
        .merge(api)
        .fallback(api::not_found)
        .method_not_allowed_fallback(api::method_not_allowed)
        .route_layer(edge::other_sites(limits.public_url.as_ref()))
        .route_layer(observe::RememberRouteLayer);
    // The layers every request goes through wrap the whole router once, outermost
    // first: `Router::layer` would wrap each route in all of them, boxed layer by
    // layer, and clone and drop that nest of boxes at every request.
    let this_host_only = limits.public_url.as_ref().map(|public| {
        axum::middleware::from_fn_with_state(Arc::new(public.clone()), edge::this_host_only)
    });
    let layered = ServiceBuilder::new()
        .map_request(observe::sane_request_id)
        .layer(SetRequestIdLayer::new(REQUEST_ID, NewRequestId))
        .layer(PropagateRequestIdLayer::new(REQUEST_ID))
        .layer(observe::LogAndCountLayer::default())
        .map_response(security_headers)
        .option_layer(this_host_only)
        .layer(DefaultBodyLimit::max(limits.body_bytes))
        .service(routes.with_state(app));
    Router::new().fallback_service(layered)
}

/// `routes`, each answer of which carries the [`SECURITY_HEADERS`] (the metrics'
/// listener's too).
pub(crate) fn with_security_headers<S>(routes: Router<S>) -> Router<S>
where
    S: Clone + Send + Sync + 'static,
{
    routes.layer(MapResponseLayer::new(security_headers))
}

/// An answer with the [`SECURITY_HEADERS`], in place of any of the same names. (A
/// plain function, as the request id's check: tower's `map_request` and
/// `map_response` call it in place, where axum's box each request's future.)
fn security_headers(mut response: Response) -> Response {
    let headers = response.headers_mut();
    for (name, value) in SECURITY_HEADERS {
        headers.insert(
            HeaderName::from_static(name),
            HeaderValue::from_static(value),
        );
    }
    response
}

/// Serves `games` on `listener` until `shutdown` completes; then stops taking
/// connections, ends the event streams, and gives the requests in flight
/// `limits.grace` to be answered (each one's change kept in the store first) before it
/// closes every connection left, whatever its client is doing, and returns.
///
/// From the moment it is told to stop, the server is not ready (`/readyz` answers 503),
/// so that a proxy sends it nothing new. Once the connections are closed, the store's
/// writer is stopped after writing everything handed to it ([`Games::shutdown`]).
///
/// Each connection is held to `limits`: its place under the cap and in its client's
/// share (`connections::Places`); a request head whole within `head_deadline` and no
/// larger than `head_bytes` (hyper's own timer and limits; its refusals dressed by
/// `hyper_refusals::Dressed`); a request body whole within `body_deadline` of its head
/// (tower-http's `RequestBodyDeadline`; `api::JsonBody` answers the 408) and no larger
/// than `body_bytes` (axum's `DefaultBodyLimit`; the 413 is `api::JsonBody`'s too);
/// quiet for no longer than `idle_connection` (`connections::Connection`). The stop is
/// hyper-util's `GracefulShutdown`, cut short after the grace period. (The loop that
/// does all this, `accept_until`, serves the metrics' listener too.)
pub async fn serve(
    listener: TcpListener,
    games: Games,
    accounts: Accounts,
    limits: Limits,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> io::Result<()> {
    games.spawn_housekeeping();
    let app = router(&games, &accounts, &limits);
    let open = accept_until(listener, app, &limits, shutdown).await;
    games.health().drain();
    games.close();
    open.close(limits.grace).await;
    games.shutdown().await;
    Ok(())
}

/// Serves `app` on `listener`, each connection held to `limits` as the public port's
/// are, until `shutdown` completes; then closes its connections within the grace
/// period: for a listener of another kind than the games' (the metrics').
pub(crate) async fn serve_app(
    listener: TcpListener,
    app: Router,
    limits: &Limits,
    shutdown: impl Future<Output = ()> + Send + 'static,
) {
    let open = accept_until(listener, app, limits, shutdown).await;
    open.close(limits.grace).await;
}

/// The connections a listener accepted and still serves, once it has stopped taking
/// more: each watched by `graceful`, and run as a task of `connections`.
/// `GracefulShutdown` tells connections to stop and waits for them, but cannot end one
/// whose client holds it open past the grace period: its task is aborted.
struct Open {
    connections: JoinSet<Result<(), hyper::Error>>,
    graceful: GracefulShutdown,
}

impl Open {
    /// Tells every connection to stop once its request in flight is answered, gives
    /// them `grace` to, then closes those left, whatever their clients are doing.
    async fn close(self, grace: Duration) {
        let Open {
            mut connections,
            graceful,
        } = self;
        if tokio::time::timeout(grace, graceful.shutdown())
            .await
            .is_err()
        {
            connections.abort_all();
        }
        while connections.join_next().await.is_some() {}
    }
}

/// Accepts connections on `listener` and serves `app` on each, held to `limits` as
/// [`serve`] says, until `shutdown` completes; then stops accepting (the listener is
/// closed) and gives back the connections still open.
async fn accept_until(
    mut listener: TcpListener,
    app: Router,
    limits: &Limits,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> Open {
    let places = Places::new(limits.max_connections, limits.connections_per_client);
    let graceful = GracefulShutdown::new();
    let mut connections = JoinSet::new();
    tokio::pin!(shutdown);
    // Room under the cap, once waited for: the next connection accepted takes it.
    let mut room = None;
    loop {
        let accepted = tokio::select! {
            () = &mut shutdown => break,
            // A finished connection's task is let go at once: until it is joined, its
            // memory (sized for the whole connection) stays taken.
            Some(_) = connections.join_next(), if !connections.is_empty() => continue,
            waited = places.room(), if room.is_none() => {
                room = Some(waited);
                continue;
            }
            // axum's accept: a failure is skipped when the client gave up while waiting,
            // otherwise logged and waited out for a second rather than spun on.
            accepted = Listener::accept(&mut listener), if room.is_some() => accepted,
        };
        let (stream, peer) = accepted;
        let Some(room) = room.take() else {
            continue; // accept is polled only with room in hand
        };
        let trusted = limits.trusted_proxies.contains(&peer.ip());
        let client = (!trusted).then(|| Client::of(peer.ip()));
        let Some(place) = places.admit(room, client) else {
            refuse_past_share(&stream, limits.connections_per_client);
            continue;
        };
        // Answers go out at once rather than waiting to fill a packet (Nagle).
        let _ = stream.set_nodelay(true);
        let io = Connection::new(stream, place, limits.idle_connection);
        let connection = serve_connection(
            Dressed::new(io, limits.head_bytes),
            peer,
            app.clone(),
            limits,
        );
        // Served until it closes, or, once the server is stopping, until its request in
        // flight is answered (`Open::close` cuts it off after the grace period).
        connections.spawn(graceful.watch(connection));
    }
    drop(listener);
    Open {
        connections,
        graceful,
    }
}

/// One connection of `app`'s, from `peer`, held to `limits`: each request carries the
/// address it comes from ([`ClientAddress`]), and its body a deadline from its head.
/// (The deadline wraps hyper's body before the router boxes it, so no body is boxed
/// twice.)
fn serve_connection<T>(
    io: T,
    peer: SocketAddr,
    app: Router,
    limits: &Limits,
) -> impl GracefulConnection<Error = hyper::Error> + Send + 'static
where
    T: AsyncRead + AsyncWrite + Unpin + Send + 'static,
{
    let trusted = limits.trusted_proxies.clone();
    let app = ServiceBuilder::new()
        .layer(RequestBodyDeadlineLayer::new(limits.body_deadline))
        .map_request(move |mut request: Request<DeadlineBody<Incoming>>| {
            let address = forwarded_for(peer.ip(), request.headers(), &trusted);
            request.extensions_mut().insert(ClientAddress(address));
            request
        })
        .service(app);
    let mut http = http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(limits.head_deadline)
        .max_header_size(limits.head_bytes)
        .max_buf_size(limits.head_bytes.max(SMALLEST_BUFFER));
    http.serve_connection(TokioIo::new(io), TowerToHyperService::new(app))
}

/// The smallest read buffer hyper takes (it refuses less).
const SMALLEST_BUFFER: usize = 8192;

/// A client past its share of connections is told so, if its socket takes the few
/// bytes at once, and the connection is closed: reading its request would hold the
/// place it may not have.
fn refuse_past_share(stream: &TcpStream, most: usize) {
    let answer = ApiError::ConnectionShare { most }.raw_answer();
    let _ = stream.try_write(answer.as_bytes());
}
