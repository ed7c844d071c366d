//! Each client's share: no one client holds more than a bounded number of the server's
//! connections, so one client cannot take the places everyone else needs. (Live event
//! streams are shared in `stream_places`, which also evens them out when full.)
//!
//! A client is an address as [`Client::of`] reads it: an IPv4 address, or the /64 an
//! IPv6 address belongs to (one machine usually has a whole /64 to pick addresses
//! from). Loopback addresses count like any other. Behind a proxy every connection
//! comes from the proxy, so for a proxy named as trusted the client is read from the
//! `X-Forwarded-For` header instead ([`forwarded_for`]); nobody else's header is
//! believed. The address so read travels with the request ([`ClientAddress`]): its
//! share is counted by it, and its log line names it.
//!
//! Kept by hand: hyper, tower, tower-http and axum count nothing per client address
//! (tower's limits are one count for every caller), so the shares are counted here.

use std::collections::HashMap;
use std::net::{IpAddr, Ipv6Addr};
use std::sync::{Arc, Mutex};

use axum::http::request::Parts;
use axum::http::{Extensions, HeaderMap};
use tictactoe_core::sync::lock;

/// Who a request or a connection comes from, as far as shares are counted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Client(IpAddr);

impl Client {
    /// The client at `address`: IPv4 as it is (also when written as IPv6), IPv6 as its
    /// /64.
    pub fn of(address: IpAddr) -> Client {
        match address {
            IpAddr::V4(v4) => Client(IpAddr::V4(v4)),
            IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
                Some(v4) => Client(IpAddr::V4(v4)),
                None => {
                    let prefix = u128::from(v6) & !u128::from(u64::MAX);
                    Client(IpAddr::V6(Ipv6Addr::from(prefix)))
                }
            },
        }
    }

    #[cfg(test)]
    fn address(&self) -> IpAddr {
        self.0
    }
}

/// The address a request from `peer` comes from. A trusted proxy's request speaks for
/// the last address of its `X-Forwarded-For` that is not itself a trusted proxy (the
/// right end is the nearest hop; anything left of it could be made up by the client);
/// without one, or from anyone else, the request is the peer's own.
pub fn forwarded_for(peer: IpAddr, headers: &HeaderMap, trusted: &[IpAddr]) -> IpAddr {
    if !trusted.contains(&peer) {
        return peer;
    }
    let forwarded = headers
        .get_all("x-forwarded-for")
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|value| value.split(','))
        .map(str::trim)
        .collect::<Vec<_>>();
    forwarded
        .iter()
        .rev()
        .map(|hop| hop.parse::<IpAddr>())
        .take_while(Result::is_ok)
        .flatten()
        .find(|hop| !trusted.contains(hop))
        .unwrap_or(peer)
}

/// The address a request comes from, as [`forwarded_for`] reads it, carried in its
/// extensions: put there when its connection serves it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClientAddress(pub IpAddr);

impl ClientAddress {
    /// The address of the request whose extensions these are; the unspecified address
    /// for a request that has none (one sent to the router directly, as the tests do).
    pub fn of(extensions: &Extensions) -> IpAddr {
        extensions
            .get::<ClientAddress>()
            .map_or(IpAddr::from([0, 0, 0, 0]), |ClientAddress(address)| {
                *address
            })
    }
}

/// A request's client is the one its address ([`ClientAddress`]) belongs to.
impl<S: Send + Sync> axum::extract::FromRequestParts<S> for Client {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Self::Rejection> {
        Ok(Client::of(ClientAddress::of(&parts.extensions)))
    }
}

/// How many places each client holds, each at most `per_client`.
pub struct Shares {
    per_client: usize,
    held: Mutex<HashMap<Client, usize>>,
}

impl Shares {
    pub fn new(per_client: usize) -> Arc<Shares> {
        Arc::new(Shares {
            per_client,
            held: Mutex::new(HashMap::new()),
        })
    }

    /// One more place for `client`, held until the [`Share`] is dropped; `None` when
    /// the client already holds its whole share.
    pub fn take(self: &Arc<Self>, client: Client) -> Option<Share> {
        let mut held = self.lock();
        let count = held.entry(client).or_insert(0);
        if *count >= self.per_client {
            return None;
        }
        *count += 1;
        Some(Share {
            shares: Arc::clone(self),
            client,
        })
    }

    fn give_back(&self, client: Client) {
        let mut held = self.lock();
        if let Some(count) = held.get_mut(&client) {
            *count -= 1;
            if *count == 0 {
                held.remove(&client);
            }
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<Client, usize>> {
        // A count is changed in one step, so a panic elsewhere cannot leave it half-done.
        lock(&self.held)
    }
}

/// One place of a client's share, given back when dropped.
pub struct Share {
    shares: Arc<Shares>,
    client: Client,
}

impl Drop for Share {
    fn drop(&mut self) {
        self.shares.give_back(self.client);
    }
}

#[cfg(test)]
mod tests {
    use axum::http::HeaderValue;
    use rstest::rstest;

    use super::*;

    fn ip(text: &str) -> IpAddr {
        text.parse().unwrap()
    }

    #[test]
    fn a_client_gets_no_more_places_than_its_share() {
        // Arrange
        let shares = Shares::new(2);
        let client = Client::of(ip("192.0.2.1"));
        let _first = shares.take(client).unwrap();
        let _second = shares.take(client).unwrap();

        // Act
        let third = shares.take(client);

        // Assert
        assert!(third.is_none());
    }

    #[test]
    fn another_client_keeps_its_own_share_when_one_has_used_all_of_its() {
        // Arrange
        let shares = Shares::new(1);
        let _greedy = shares.take(Client::of(ip("127.0.0.1"))).unwrap();

        // Act
        let other = shares.take(Client::of(ip("127.0.0.2")));

        // Assert
        assert!(other.is_some());
    }

    #[test]
    fn a_place_given_back_can_be_taken_again_and_nothing_is_left_counted() {
        // Arrange
        let shares = Shares::new(1);
        let client = Client::of(ip("192.0.2.1"));
        drop(shares.take(client).unwrap());

        // Act
        let again = shares.take(client);
        drop(again);

        // Assert
        assert!(
            shares.lock().is_empty(),
            "a client with no places is forgotten"
        );
    }

    #[rstest]
    #[case::ipv4("192.0.2.7", "192.0.2.7")]
    #[case::ipv4_written_as_ipv6("::ffff:192.0.2.7", "192.0.2.7")]
    #[case::ipv6_by_its_64("2001:db8:1:2:aaaa:bbbb:cccc:dddd", "2001:db8:1:2::")]
    #[case::loopback_like_any_other("127.0.0.1", "127.0.0.1")]
    fn a_client_is_an_ipv4_address_or_an_ipv6_64(#[case] address: &str, #[case] client: &str) {
        assert_eq!(Client::of(ip(address)).address(), ip(client));
    }

    fn forwarded(value: &str) -> HeaderMap {
        let mut headers = HeaderMap::new();
        headers.insert("x-forwarded-for", HeaderValue::from_str(value).unwrap());
        headers
    }

    #[rstest]
    #[case::untrusted_peer_is_itself("198.51.100.9", "203.0.113.5", "198.51.100.9")]
    #[case::trusted_proxy_speaks_for_the_nearest_hop(
        "10.0.0.1",
        "1.2.3.4, 203.0.113.5",
        "203.0.113.5"
    )]
    #[case::trusted_hops_are_skipped("10.0.0.1", "203.0.113.5, 10.0.0.1", "203.0.113.5")]
    #[case::a_garbled_header_leaves_the_proxy("10.0.0.1", "not an address", "10.0.0.1")]
    fn forwarded_addresses_are_believed_only_from_a_trusted_proxy(
        #[case] peer: &str,
        #[case] header: &str,
        #[case] client: &str,
    ) {
        // Arrange
        let trusted = [ip("10.0.0.1")];

        // Act
        let seen = forwarded_for(ip(peer), &forwarded(header), &trusted);

        // Assert
        assert_eq!(seen, ip(client));
    }

    #[test]
    fn a_trusted_proxys_request_without_the_header_is_the_proxys_own() {
        let trusted = [ip("10.0.0.1")];

        let seen = forwarded_for(ip("10.0.0.1"), &HeaderMap::new(), &trusted);

        assert_eq!(seen, ip("10.0.0.1"));
    }

    #[test]
    fn a_request_without_an_address_comes_from_the_unspecified_one() {
        assert_eq!(
            ClientAddress::of(&Extensions::new()),
            IpAddr::from([0, 0, 0, 0])
        );
    }
}
