//! The connect experiment (bounded by [`EXPERIMENT`]) and the services well-known ports belong
//! to, shared by the rows that test an address (`structured.rs`, `call_rows.rs`,
//! `answer_rows.rs`).

use std::net::{TcpStream, ToSocketAddrs};

use super::experiment::LIMIT as EXPERIMENT;

/// The result of connecting to `host:port` within [`EXPERIMENT`]: `true` when it answers.
pub(crate) fn connects(host: &str, port: u16) -> Result<bool, String> {
    let addrs: Vec<_> = (host, port)
        .to_socket_addrs()
        .map_err(|e| format!("no address ({e})"))?
        .take(2)
        .collect();
    for a in &addrs {
        if let Ok(stream) = TcpStream::connect_timeout(a, EXPERIMENT) {
            drop(stream);
            return Ok(true);
        }
    }
    Ok(false)
}

/// A well-known port's service, to say what is not running.
pub(super) fn service_of(port: u16) -> Option<&'static str> {
    Some(match port {
        5432 => "PostgreSQL",
        3306 => "MySQL/MariaDB",
        6379 => "Redis",
        27017 => "MongoDB",
        6333 | 6334 => "Qdrant",
        9200 => "Elasticsearch",
        8000 => "an HTTP service",
        11434 => "Ollama",
        11211 => "Memcached",
        1433 => "SQL Server",
        5672 => "RabbitMQ",
        _ => return None,
    })
}
