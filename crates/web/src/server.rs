//! The routes, the headers every answer carries, and serving until told to stop.

use std::future::Future;
use std::io;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::http::{HeaderName, HeaderValue, header};
use axum::routing::{get, post};
use axum::serve::ListenerExt;
use tokio::net::TcpListener;
use tower_http::set_header::SetResponseHeaderLayer;

use super::connections::Bounded;
use super::games::Games;
use super::service::GameService;
use super::{api, assets};

/// Every route of the page and the API (see docs/web.md), on `games`.
pub fn router(games: Arc<Games>) -> Router {
    routes(games)
}

/// The routes on any [`GameService`]: `api`'s tests give it a mock.
pub(crate) fn routes<G: GameService>(games: Arc<G>) -> Router {
    let body_limit = games.body_limit();
    let api = Router::new()
        .route("/games", post(api::create::<G>))
        .route("/games/{id}", get(api::game::<G>))
        .route("/games/{id}/moves", post(api::play::<G>))
        .route("/games/{id}/undo", post(api::undo::<G>))
        .route("/games/{id}/hint", post(api::hint::<G>))
        .route("/games/{id}/resign", post(api::resign::<G>))
        .route("/games/{id}/rematch", post(api::rematch::<G>))
        .route("/games/{id}/events", get(api::events::<G>))
        .route("/scores", get(api::scores::<G>))
        .fallback(api::not_found)
        .method_not_allowed_fallback(api::method_not_allowed)
        .layer(SetResponseHeaderLayer::overriding(
            header::CACHE_CONTROL,
            HeaderValue::from_static("no-store"),
        ));
    Router::new()
        .route("/", get(assets::index))
        .route("/games/{id}", get(assets::index))
        .route("/scores", get(assets::scores))
        .route("/assets/app.js", get(assets::app_js))
        .route("/assets/scores.js", get(assets::scores_js))
        .route("/assets/style.css", get(assets::style))
        .route("/assets/icon.svg", get(assets::icon))
        .nest("/api", api)
        .fallback(api::not_found)
        .method_not_allowed_fallback(api::method_not_allowed)
        .layer(DefaultBodyLimit::max(body_limit))
        .layer(header_layer(
            header::CONTENT_SECURITY_POLICY,
            assets::CONTENT_SECURITY_POLICY,
        ))
        .layer(header_layer(header::X_CONTENT_TYPE_OPTIONS, "nosniff"))
        .layer(header_layer(header::X_FRAME_OPTIONS, "DENY"))
        .layer(header_layer(header::REFERRER_POLICY, "no-referrer"))
        .with_state(games)
}

fn header_layer(name: HeaderName, value: &'static str) -> SetResponseHeaderLayer<HeaderValue> {
    SetResponseHeaderLayer::overriding(name, HeaderValue::from_static(value))
}

/// Serves `games` on `listener` until `shutdown` completes, then stops taking
/// connections, ends the event streams, and returns once the requests in flight are
/// answered (each one's change kept in the store first). Connections are bounded as
/// `games`' limits say. Dropping the last `Arc` of `games` afterwards writes anything
/// still handed over to the store.
pub async fn serve(
    listener: TcpListener,
    games: Arc<Games>,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> io::Result<()> {
    let sweep_every = (games.limits().finished.min(games.limits().idle) / 4)
        .clamp(Duration::from_secs(1), Duration::from_secs(60));
    games.spawn_sweeper(sweep_every);
    let closing = Arc::clone(&games);
    // Answers go out at once rather than waiting to fill a packet (Nagle).
    let listener = listener.tap_io(|connection| {
        let _ = connection.set_nodelay(true);
    });
    let limits = games.limits();
    let listener = Bounded::new(listener, limits.max_connections, limits.idle_connection);
    axum::serve(listener, router(games))
        .with_graceful_shutdown(async move {
            shutdown.await;
            closing.close();
        })
        .await
}
