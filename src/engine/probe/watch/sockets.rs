//! The TCP sockets a launch's processes listen on (Linux `/proc`; elsewhere none): a stdio
//! server that answered nothing and listens on a port started an HTTP server (a FastMCP server
//! run with `streamable-http` under a stdio host prints nothing at all).
//!
//! Read once, while the processes are still running (before they are stopped): each one's
//! `/proc/PID/fd` socket inodes, matched against the LISTEN rows of `/proc/PID/net/tcp` and
//! `tcp6` (the table of the process's own network namespace). Bounded: at most
//! [`MAX_PROCESSES`] processes, [`MAX_FDS`] descriptors each, [`MAX_TABLE`] bytes of each table.

use std::collections::BTreeSet;
use std::io::Read;

use serde::Serialize;

/// The most processes looked at.
const MAX_PROCESSES: usize = 16;
/// The most file descriptors read per process.
const MAX_FDS: usize = 4096;
/// The most bytes read of each socket table.
const MAX_TABLE: u64 = 1 << 20;
/// The most sockets reported.
const MAX_SOCKETS: usize = 8;
/// A socket table's state column for LISTEN.
const LISTEN: &str = "0A";

/// One listening TCP socket.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, schemars::JsonSchema)]
pub(crate) struct Listening {
    /// The local address, as the kernel shows it (`127.0.0.1`, `0.0.0.0`, `::`).
    pub address: String,
    pub port: u16,
}

impl Listening {
    /// `127.0.0.1:8024`, `[::]:8024`.
    pub(crate) fn shown(&self) -> String {
        if self.address.contains(':') {
            format!("[{}]:{}", self.address, self.port)
        } else {
            format!("{}:{}", self.address, self.port)
        }
    }
}

/// The TCP sockets `pids` listen on, by port then address (at most [`MAX_SOCKETS`]).
pub(crate) fn listening(pids: &[u32]) -> Vec<Listening> {
    let mut out: BTreeSet<(u16, String)> = BTreeSet::new();
    for &pid in pids.iter().take(MAX_PROCESSES) {
        let inodes = socket_inodes(pid);
        if inodes.is_empty() {
            continue;
        }
        for (table, v6) in [("tcp", false), ("tcp6", true)] {
            let Some(text) = read_capped(&format!("/proc/{pid}/net/{table}")) else {
                continue;
            };
            for (address, port, inode) in listen_rows(&text, v6) {
                if inodes.contains(&inode) {
                    out.insert((port, address));
                }
            }
        }
    }
    out.into_iter()
        .take(MAX_SOCKETS)
        .map(|(port, address)| Listening { address, port })
        .collect()
}

/// The inodes of the sockets `pid` holds open (`socket:[INODE]` links in `/proc/PID/fd`).
fn socket_inodes(pid: u32) -> BTreeSet<u64> {
    let Ok(dir) = std::fs::read_dir(format!("/proc/{pid}/fd")) else {
        return BTreeSet::new();
    };
    dir.flatten()
        .take(MAX_FDS)
        .filter_map(|e| {
            let link = std::fs::read_link(e.path()).ok()?;
            let link = link.to_str()?;
            link.strip_prefix("socket:[")?
                .strip_suffix(']')?
                .parse()
                .ok()
        })
        .collect()
}

fn read_capped(path: &str) -> Option<String> {
    let mut text = String::new();
    std::fs::File::open(path)
        .ok()?
        .take(MAX_TABLE)
        .read_to_string(&mut text)
        .ok()?;
    Some(text)
}

/// The LISTEN rows of a `/proc/net/tcp` (or `tcp6`) table: address, port, inode.
fn listen_rows(table: &str, v6: bool) -> Vec<(String, u16, u64)> {
    table
        .lines()
        .skip(1)
        .filter_map(|line| {
            let cols: Vec<&str> = line.split_whitespace().collect();
            // sl local_address rem_address st tx:rx tr:tm retrnsmt uid timeout inode
            if cols.get(3) != Some(&LISTEN) {
                return None;
            }
            let (addr, port) = cols.get(1)?.split_once(':')?;
            let port = u16::from_str_radix(port, 16).ok()?;
            let inode = cols.get(9)?.parse().ok()?;
            Some((address(addr, v6)?, port, inode))
        })
        .collect()
}

/// A table's hex address in words: 4 bytes (IPv4) or 16 (IPv6), each 32-bit word in the
/// machine's byte order.
fn address(hex: &str, v6: bool) -> Option<String> {
    let words: Vec<u32> = (0..hex.len() / 8)
        .map(|i| u32::from_str_radix(hex.get(i * 8..i * 8 + 8)?, 16).ok())
        .collect::<Option<_>>()?;
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_ne_bytes()).collect();
    if !v6 {
        let b: [u8; 4] = bytes.try_into().ok()?;
        return Some(std::net::Ipv4Addr::from(b).to_string());
    }
    let b: [u8; 16] = bytes.try_into().ok()?;
    let ip = std::net::Ipv6Addr::from(b);
    Some(match ip.to_ipv4_mapped() {
        Some(v4) => v4.to_string(),
        None => ip.to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_listen_rows_of_both_tables() {
        // Rows as Linux writes them on a little-endian machine.
        let v4 = "  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode\n   0: 0100007F:1F58 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 41234 1 0000000000000000 100 0 0 10 0\n   1: 0100007F:9C40 0100007F:1F58 01 00000000:00000000 00:00000000 00000000     0        0 41299 1 0000000000000000 20 4 30 10 -1\n";
        if cfg!(target_endian = "little") {
            assert_eq!(
                listen_rows(v4, false),
                vec![("127.0.0.1".to_string(), 8024, 41234)]
            );
            let v6 = "  sl  local_address                         remote_address                        st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode\n   0: 00000000000000000000000000000000:1F58 00000000000000000000000000000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 51234 1 0000000000000000 100 0 0 10 0\n";
            assert_eq!(listen_rows(v6, true), vec![("::".to_string(), 8024, 51234)]);
        }
    }

    #[test]
    fn finds_a_real_listening_socket_of_this_process_and_not_a_closed_one() {
        if !cfg!(target_os = "linux") {
            return;
        }
        let l = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
        let port = l.local_addr().expect("addr").port();
        let found = listening(&[std::process::id()]);
        assert!(
            found
                .iter()
                .any(|s| s.port == port && s.address == "127.0.0.1"),
            "{found:?}"
        );
        drop(l);
        let found = listening(&[std::process::id()]);
        assert!(found.iter().all(|s| s.port != port), "{found:?}");
        assert_eq!(
            Listening {
                address: "::".into(),
                port: 8
            }
            .shown(),
            "[::]:8"
        );
    }
}
