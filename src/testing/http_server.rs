//! A scripted modern-MCP HTTP server on 127.0.0.1 for tests: just enough HTTP/1.1 (one request
//! per connection, `Connection: close`) to answer `server/discover` well or badly.
//!
//! Request `i` plays `script[i]` (the last one repeats). Every request is recorded: method,
//! target, headers (names lower-cased), body. Like [`super::WsServer`] it runs on its own thread
//! and stops when dropped.

use std::net::SocketAddr;
use std::sync::{Arc, Mutex};

use super::Background;
use serde_json::{json, Value};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

/// What the server does with one request.
#[derive(Debug, Clone)]
pub enum HttpScenario {
    /// 200 with a valid discover result as `application/json`.
    Discover,
    /// 200 with a valid discover result as one `text/event-stream` event.
    DiscoverSse,
    /// 200 with a discover result whose `supportedVersions` is this list.
    DiscoverVersions(Vec<String>),
    /// This status with a short plain-text body.
    Status(u16),
    /// Anything: status, content type, body.
    Raw {
        status: u16,
        content_type: String,
        body: String,
    },
    /// Read the request and never answer.
    Silent,
    /// Read the request and close the connection without answering.
    Close,
}

/// How the server answers the host's `tools/list` (it does not count in the script).
#[derive(Debug, Clone, PartialEq)]
pub enum HttpTools {
    /// 200 with this many tools, one page.
    List(u32),
    /// This status with a short plain-text body.
    Status(u16),
    /// Read the request and never answer.
    Silent,
}

/// One request as the server saw it.
#[derive(Debug, Clone, Default)]
pub struct HttpRequestRecord {
    pub method: String,
    pub target: String,
    /// Header names lower-cased, in order.
    pub headers: Vec<(String, String)>,
    pub body: String,
}

impl HttpRequestRecord {
    /// The first value of header `name` (case-insensitive).
    pub fn header(&self, name: &str) -> Option<&str> {
        let name = name.to_ascii_lowercase();
        self.headers
            .iter()
            .find(|(k, _)| *k == name)
            .map(|(_, v)| v.as_str())
    }
}

#[derive(Debug, Default)]
struct Shared {
    requests: Vec<HttpRequestRecord>,
}

/// A running scripted HTTP server; stops when dropped.
pub struct HttpServer {
    background: Background,
    shared: Arc<Mutex<Shared>>,
}

impl HttpServer {
    /// Start a server that answers every request as `scenario` says.
    pub fn start(scenario: HttpScenario) -> HttpServer {
        HttpServer::script(vec![scenario])
    }

    /// Start a server whose request `i` plays `script[i]` (the last one repeats).
    ///
    /// # Panics
    /// When the script is empty or 127.0.0.1 cannot be bound (a test setup failure).
    pub fn script(script: Vec<HttpScenario>) -> HttpServer {
        HttpServer::script_with_tools(script, HttpTools::List(2))
    }

    /// [`HttpServer::script`], answering `tools/list` requests as `tools` says (they are not
    /// counted in the script).
    ///
    /// # Panics
    /// As [`HttpServer::script`].
    pub fn script_with_tools(script: Vec<HttpScenario>, tools: HttpTools) -> HttpServer {
        assert!(!script.is_empty(), "a script needs at least one scenario");
        let shared = Arc::new(Mutex::new(Shared::default()));
        let thread_shared = shared.clone();
        let background =
            Background::start(move |listener| accept_loop(listener, script, tools, thread_shared));
        HttpServer { background, shared }
    }

    pub fn addr(&self) -> SocketAddr {
        self.background.addr
    }

    /// `http://127.0.0.1:PORT{path}`.
    pub fn url(&self, path: &str) -> String {
        format!("http://{}{}", self.background.addr, path)
    }

    /// Every request so far, in order of arrival.
    pub fn requests(&self) -> Vec<HttpRequestRecord> {
        lock(&self.shared).requests.clone()
    }
}

fn lock(shared: &Mutex<Shared>) -> std::sync::MutexGuard<'_, Shared> {
    shared
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

async fn accept_loop(
    listener: TcpListener,
    script: Vec<HttpScenario>,
    tools: HttpTools,
    shared: Arc<Mutex<Shared>>,
) {
    let counter = Arc::new(Mutex::new(0usize));
    loop {
        let Ok((tcp, _)) = listener.accept().await else {
            continue;
        };
        let shared = shared.clone();
        let script = script.clone();
        let tools = tools.clone();
        let counter = counter.clone();
        tokio::spawn(async move {
            let Some(request) = read_request(tcp).await else {
                return;
            };
            let (mut tcp, record) = request;
            let body: Value = serde_json::from_str(&record.body).unwrap_or(Value::Null);
            if body.get("method").and_then(Value::as_str) == Some("tools/list") {
                let id = body.get("id").cloned().unwrap_or(Value::Null);
                lock(&shared).requests.push(record);
                let scenario = match tools {
                    HttpTools::List(n) => HttpScenario::Raw {
                        status: 200,
                        content_type: "application/json".into(),
                        body: tools_answer(id.clone(), n),
                    },
                    HttpTools::Status(code) => HttpScenario::Status(code),
                    HttpTools::Silent => HttpScenario::Silent,
                };
                respond(&mut tcp, &scenario, id).await;
                return;
            }
            let index = {
                let mut n = counter.lock().unwrap_or_else(|p| p.into_inner());
                let i = *n;
                *n += 1;
                i
            };
            let id = serde_json::from_str::<Value>(&record.body)
                .ok()
                .and_then(|v| v.get("id").cloned())
                .unwrap_or(Value::Null);
            lock(&shared).requests.push(record);
            let scenario = &script[index.min(script.len() - 1)];
            respond(&mut tcp, scenario, id).await;
        });
    }
}

/// Read one request: head up to the blank line, then `content-length` bytes of body.
async fn read_request(mut tcp: TcpStream) -> Option<(TcpStream, HttpRequestRecord)> {
    let mut buf = Vec::new();
    let mut chunk = [0u8; 4096];
    let head_end = loop {
        if let Some(pos) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
            break pos;
        }
        let n = tcp.read(&mut chunk).await.ok()?;
        if n == 0 {
            return None;
        }
        buf.extend_from_slice(&chunk[..n]);
    };
    let head = String::from_utf8_lossy(&buf[..head_end]).into_owned();
    let mut lines = head.split("\r\n");
    let mut first = lines.next()?.split(' ');
    let method = first.next()?.to_string();
    let target = first.next()?.to_string();
    let headers: Vec<(String, String)> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_string()))
        .collect();
    let length: usize = headers
        .iter()
        .find(|(k, _)| k == "content-length")
        .and_then(|(_, v)| v.parse().ok())
        .unwrap_or(0);
    let mut body = buf[head_end + 4..].to_vec();
    while body.len() < length {
        let n = tcp.read(&mut chunk).await.ok()?;
        if n == 0 {
            break;
        }
        body.extend_from_slice(&chunk[..n]);
    }
    let record = HttpRequestRecord {
        method,
        target,
        headers,
        body: String::from_utf8_lossy(&body).into_owned(),
    };
    Some((tcp, record))
}

fn tools_answer(id: Value, n: u32) -> String {
    let tools: Vec<Value> = (1..=n)
        .map(|i| json!({"name": format!("tool_{i}"), "inputSchema": {"type": "object"}}))
        .collect();
    json!({"jsonrpc": "2.0", "id": id, "result": {"tools": tools}}).to_string()
}

fn discover_answer(id: Value, versions: &[String]) -> String {
    json!({
        "jsonrpc": "2.0",
        "id": id,
        "result": {
            "resultType": "complete",
            "supportedVersions": versions,
            "capabilities": {"tools": {}},
            "serverInfo": {"name": "test-http", "version": "1.0.0"},
        }
    })
    .to_string()
}

async fn respond(tcp: &mut TcpStream, scenario: &HttpScenario, id: Value) {
    let modern = vec!["2026-07-28".to_string()];
    let (status, content_type, body) = match scenario {
        HttpScenario::Discover => (200, "application/json".into(), discover_answer(id, &modern)),
        HttpScenario::DiscoverSse => (
            200,
            "text/event-stream".into(),
            format!(
                ": a comment\n\nevent: message\ndata: {}\n\n",
                discover_answer(id, &modern)
            ),
        ),
        HttpScenario::DiscoverVersions(v) => {
            (200, "application/json".into(), discover_answer(id, v))
        }
        HttpScenario::Status(code) => (*code, "text/plain".into(), format!("status {code}\n")),
        HttpScenario::Raw {
            status,
            content_type,
            body,
        } => (*status, content_type.clone(), body.clone()),
        HttpScenario::Silent => {
            std::future::pending::<()>().await;
            return;
        }
        HttpScenario::Close => return,
    };
    let reason = match status {
        200 => "OK",
        401 => "Unauthorized",
        404 => "Not Found",
        500 => "Internal Server Error",
        503 => "Service Unavailable",
        _ => "Status",
    };
    let response = format!(
        "HTTP/1.1 {status} {reason}\r\ncontent-type: {content_type}\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
        body.len()
    );
    let _ = tcp.write_all(response.as_bytes()).await;
    let _ = tcp.shutdown().await;
}
