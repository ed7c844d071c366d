//! What `serve` says and listens for around the web server the composition root
//! builds: where it listens (the addresses people can use, even when bound to every
//! address), a port that is taken, and the signals that stop it.

use std::io::{self, Write};
use std::net::SocketAddr;

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
