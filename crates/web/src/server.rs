//! The routes, the headers every answer carries, and serving until told to stop.

use std::future::Future;
use std::io;
use std::sync::Arc;
use std::time::Duration;

use std::net::SocketAddr;

use axum::Router;
use axum::extract::{DefaultBodyLimit, Request};
use axum::http::{HeaderName, HeaderValue, header};
use axum::routing::{get, post};
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;
use tokio::task::JoinSet;
use tower::ServiceExt;
use tower_http::set_header::SetResponseHeaderLayer;

use super::connections::{Connection, Places};
use super::games::{Games, Limits};
use super::refusals::{Dressed, SECURITY_HEADERS};
use super::service::GameService;
use super::shares::Client;
use super::{api, assets};

/// Every route of the page and the API (see docs/web.md), on `games`.
pub fn router(games: Arc<Games>) -> Router {
    routes(games)
}

/// The routes on any [`GameService`]: `api`'s tests give it a mock.
pub(crate) fn routes<G: GameService>(games: Arc<G>) -> Router {
    let body_limit = games.body_limit();
    let api = Router::new()
        .route("/games", post(api::create::<G>).get(api::history::<G>))
        .route("/games/{id}", get(api::game::<G>))
        .route("/games/{id}/moves", post(api::play::<G>))
        .route("/games/{id}/undo", post(api::undo::<G>))
        .route("/games/{id}/hint", post(api::hint::<G>))
        .route("/games/{id}/resign", post(api::resign::<G>))
        .route("/games/{id}/rematch", post(api::rematch::<G>))
        .route("/games/{id}/events", get(api::events::<G>))
        .route("/games/{id}/review", get(api::review::<G>))
        .route("/scores", get(api::scores::<G>))
        .route("/players/{name}", get(api::player::<G>))
        .fallback(api::not_found)
        .method_not_allowed_fallback(api::method_not_allowed)
        .layer(SetResponseHeaderLayer::overriding(
            header::CACHE_CONTROL,
            HeaderValue::from_static("no-store"),
        ));
    let routes = Router::new()
        .route("/", get(assets::index))
        .route("/games/{id}", get(assets::index))
        .route("/scores", get(assets::scores))
        .route("/players/{name}", get(assets::players))
        .route("/assets/app.js", get(assets::app_js))
        .route("/assets/replay.js", get(assets::replay_js))
        .route("/assets/scores.js", get(assets::scores_js))
        .route("/assets/players.js", get(assets::players_js))
        .route("/assets/style.css", get(assets::style))
        .route("/assets/icon.svg", get(assets::icon))
        .nest("/api", api)
        .fallback(api::not_found)
        .method_not_allowed_fallback(api::method_not_allowed)
        .layer(DefaultBodyLimit::max(body_limit));
    SECURITY_HEADERS
        .into_iter()
        .fold(routes, |routes, (name, value)| {
            routes.layer(SetResponseHeaderLayer::overriding(
                HeaderName::from_static(name),
                HeaderValue::from_static(value),
            ))
        })
        .with_state(games)
}

/// Serves `games` on `listener` until `shutdown` completes; then stops taking
/// connections, ends the event streams, and gives the requests in flight
/// `limits.grace` to be answered (each one's change kept in the store first) before it
/// closes every connection left, whatever its client is doing, and returns.
///
/// Each connection is held to `games`' limits: its place under the cap and in its
/// client's share (`connections::Places`); a request head whole within
/// `head_deadline` and no larger than `head_bytes` (hyper's own timer and limits; its
/// refusals dressed by `refusals::Dressed`); quiet for no longer than
/// `idle_connection`. A body's deadline is the handler's (`api::JsonBody`). Dropping
/// the last `Arc` of `games` afterwards writes anything still handed over to the store.
pub async fn serve(
    listener: TcpListener,
    games: Arc<Games>,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> io::Result<()> {
    let limits = games.limits().clone();
    let sweep_every = (limits.finished.min(limits.idle) / 4)
        .clamp(Duration::from_secs(1), Duration::from_secs(60));
    games.spawn_sweeper(sweep_every);
    let app = router(Arc::clone(&games));
    let places = Places::new(limits.max_connections, limits.connections_per_client);
    let (stopping, stop_told) = watch::channel(false);
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
            accepted = listener.accept(), if room.is_some() => accepted,
        };
        let (stream, peer) = match accepted {
            Ok(accepted) => accepted,
            Err(error) => {
                wait_after_failed_accept(error).await;
                continue;
            }
        };
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
        connections.spawn(serve_connection(
            Dressed::new(io, limits.head_bytes),
            peer,
            app.clone(),
            limits.clone(),
            stop_told.clone(),
        ));
    }
    drop(listener);
    games.close();
    stopping.send_replace(true);
    let drained = tokio::time::timeout(limits.grace, async {
        while connections.join_next().await.is_some() {}
    })
    .await;
    if drained.is_err() {
        connections.abort_all();
        while connections.join_next().await.is_some() {}
    }
    Ok(())
}

/// One connection, served until it closes, or, once the server is stopping, until its
/// request in flight is answered (the server cuts it off after the grace period).
async fn serve_connection<T>(
    io: T,
    peer: SocketAddr,
    app: Router,
    limits: Limits,
    mut stopping: watch::Receiver<bool>,
) where
    T: AsyncRead + AsyncWrite + Unpin + Send + 'static,
{
    let trusted = limits.trusted_proxies.clone();
    let app = app.map_request(move |mut request: Request<Incoming>| {
        let client = Client::behind(peer.ip(), request.headers(), &trusted);
        request.extensions_mut().insert(client);
        request
    });
    let mut http = http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(limits.head_deadline)
        .max_header_size(limits.head_bytes)
        .max_buf_size(limits.head_bytes.max(SMALLEST_BUFFER));
    let connection = http.serve_connection(TokioIo::new(io), TowerToHyperService::new(app));
    tokio::pin!(connection);
    tokio::select! {
        _ = connection.as_mut() => return,
        _ = stopping.wait_for(|stopping| *stopping) => connection.as_mut().graceful_shutdown(),
    }
    let _ = connection.await;
}

/// The smallest read buffer hyper takes (it refuses less).
const SMALLEST_BUFFER: usize = 8192;

/// A client past its share of connections is told so, if its socket takes the few
/// bytes at once, and the connection is closed: reading its request would hold the
/// place it may not have.
fn refuse_past_share(stream: &TcpStream, most: usize) {
    let body = serde_json::json!({
        "error": format!(
            "this address already has {most} connections open to the server, as many as one \
             address may; close some, or try again later"
        )
    })
    .to_string();
    let mut answer = String::from("HTTP/1.1 429 Too Many Requests\r\n");
    for (name, value) in SECURITY_HEADERS {
        answer.push_str(&format!("{name}: {value}\r\n"));
    }
    answer.push_str(&format!(
        "cache-control: no-store\r\ncontent-type: application/json\r\nretry-after: 10\r\n\
         connection: close\r\ncontent-length: {}\r\n\r\n{body}",
        body.len()
    ));
    let _ = stream.try_write(answer.as_bytes());
}

/// After a failed accept: a client that gave up while waiting is nobody's trouble; a
/// lack of file descriptors or memory is waited out for a second rather than spun on.
async fn wait_after_failed_accept(error: io::Error) {
    use io::ErrorKind::{ConnectionAborted, ConnectionRefused, ConnectionReset};
    if !matches!(
        error.kind(),
        ConnectionAborted | ConnectionRefused | ConnectionReset
    ) {
        eprintln!("tictactoe serve: accepting a connection failed: {error}");
        tokio::time::sleep(Duration::from_secs(1)).await;
    }
}
