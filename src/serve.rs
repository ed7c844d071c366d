//! What `serve` says and listens for around the web server the composition root
//! builds: where it listens (the addresses people can use, even when bound to every
//! address), a port that is taken, the signals that stop it, and the limits the
//! command line sets.

use std::io::{self, Write};
use std::net::SocketAddr;

use crate::config::{PublicUrl, ServeBounds};

/// Says where the server listens, on standard output (a script may read the port from
/// its first line). On every address (`--bind 0.0.0.0` or `::`), the first line names
/// this machine's loopback address, which works here, and the next the address other
/// machines reach it by (the one this machine's traffic leaves from, if it has a
/// route out). If nobody reads it any more (a closed pipe), the server serves all
/// the same.
pub(crate) fn say_listening(address: SocketAddr) {
    let mut out = io::stdout().lock();
    if !address.ip().is_unspecified() {
        let _ = writeln!(out, "Serving Tic Tac Toe on http://{address}");
        return;
    }
    let here = match address {
        SocketAddr::V4(_) => SocketAddr::new(std::net::Ipv4Addr::LOCALHOST.into(), address.port()),
        SocketAddr::V6(_) => SocketAddr::new(std::net::Ipv6Addr::LOCALHOST.into(), address.port()),
    };
    let _ = writeln!(out, "Serving Tic Tac Toe on http://{here}");
    match outward_address(address) {
        Some(ip) => {
            let there = SocketAddr::new(ip, address.port());
            let _ = writeln!(
                out,
                "  and to other machines on http://{there} (or this machine's other addresses)"
            );
        }
        None => {
            let _ = writeln!(
                out,
                "  and to other machines on this machine's addresses, port {}",
                address.port()
            );
        }
    }
}

/// The address this machine's traffic leaves from: a UDP socket "connected" to a
/// public address (nothing is sent) is given it by the system's routes. `None`
/// without a route out.
pub(crate) fn outward_address(listening: SocketAddr) -> Option<std::net::IpAddr> {
    let (unbound, public) = match listening {
        SocketAddr::V4(_) => ("0.0.0.0:0", "192.0.2.1:9"),
        SocketAddr::V6(_) => ("[::]:0", "[2001:db8::1]:9"),
    };
    let socket = std::net::UdpSocket::bind(unbound).ok()?;
    socket.connect(public).ok()?;
    let ip = socket.local_addr().ok()?.ip();
    (!ip.is_unspecified() && !ip.is_loopback()).then_some(ip)
}

/// An address that cannot be listened on, said with the address and what to do.
pub(crate) fn busy_port(error: io::Error, address: SocketAddr, choose: &str) -> io::Error {
    match error.kind() {
        io::ErrorKind::AddrInUse => io::Error::new(
            error.kind(),
            format!("{address} is in use by another program: choose another {choose}"),
        ),
        _ => io::Error::new(error.kind(), format!("cannot listen on {address}: {error}")),
    }
}

/// Ctrl-C, or (on Unix) the SIGTERM a service manager sends: watched from the call
/// on, so a signal that comes right after the address is printed is not missed. A
/// signal that cannot be watched never arrives (the server runs until it is killed).
pub(crate) fn stop_signal() -> impl std::future::Future<Output = ()> {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        let interrupt = signal(SignalKind::interrupt());
        let terminate = signal(SignalKind::terminate());
        async move {
            let (mut interrupt, mut terminate) = match (interrupt, terminate) {
                (Ok(interrupt), Ok(terminate)) => (interrupt, terminate),
                _ => return std::future::pending().await,
            };
            tokio::select! {
                _ = interrupt.recv() => {}
                _ = terminate.recv() => {}
            }
        }
    }
    #[cfg(not(unix))]
    async {
        if tokio::signal::ctrl_c().await.is_err() {
            std::future::pending::<()>().await;
        }
    }
}

/// The address people reach a server by, as the web adapter holds it.
pub(crate) fn web_address(url: &PublicUrl) -> tictactoe_web::PublicUrl {
    tictactoe_web::PublicUrl::new(url.https, &url.host, url.port)
}

/// The server's limits: the defaults, with what the command line set.
pub(crate) fn limits(bounds: ServeBounds) -> (tictactoe_web::GameLimits, tictactoe_web::Limits) {
    let default = tictactoe_web::Limits::default();
    let limits = tictactoe_web::Limits {
        head_deadline: bounds.head_deadline.unwrap_or(default.head_deadline),
        body_deadline: bounds.body_deadline.unwrap_or(default.body_deadline),
        grace: bounds.grace.unwrap_or(default.grace),
        connections_per_client: bounds
            .connections_per_client
            .unwrap_or(default.connections_per_client),
        streams_per_client: bounds
            .streams_per_client
            .unwrap_or(default.streams_per_client),
        trusted_proxies: bounds.trusted_proxies,
        public_url: bounds.public_url.as_ref().map(web_address),
        ..default
    };
    (tictactoe_web::GameLimits::default(), limits)
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    #[test]
    fn bounds_left_unset_keep_the_servers_defaults() {
        let (_, limits) = limits(ServeBounds::default());

        let default = tictactoe_web::Limits::default();
        assert_eq!(limits.head_deadline, default.head_deadline);
        assert_eq!(limits.body_deadline, default.body_deadline);
        assert_eq!(limits.grace, default.grace);
        assert_eq!(
            limits.connections_per_client,
            default.connections_per_client
        );
        assert_eq!(limits.streams_per_client, default.streams_per_client);
        assert!(limits.public_url.is_none());
    }

    #[test]
    fn each_bound_given_replaces_its_default() {
        let bounds = ServeBounds {
            head_deadline: Some(Duration::from_secs(3)),
            body_deadline: Some(Duration::from_secs(4)),
            grace: Some(Duration::from_secs(5)),
            connections_per_client: Some(6),
            streams_per_client: Some(7),
            trusted_proxies: vec!["10.0.0.1".parse().unwrap()],
            public_url: Some(PublicUrl {
                https: true,
                host: "ttt.example".into(),
                port: 443,
            }),
            ..ServeBounds::default()
        };

        let (_, limits) = limits(bounds);

        assert_eq!(limits.head_deadline, Duration::from_secs(3));
        assert_eq!(limits.body_deadline, Duration::from_secs(4));
        assert_eq!(limits.grace, Duration::from_secs(5));
        assert_eq!(limits.connections_per_client, 6);
        assert_eq!(limits.streams_per_client, 7);
        assert_eq!(
            limits.trusted_proxies,
            ["10.0.0.1".parse::<std::net::IpAddr>().unwrap()]
        );
        assert_eq!(
            limits.public_url.map(|url| url.origin()),
            Some("https://ttt.example".to_string())
        );
    }
}
