//! `serve`'s HTTP: hyper's HTTP/1.1 server on one listener, bounded (at most
//! [`MAX_CONNECTIONS`] connections, request heads of at most 16 KiB read within 10 s, GET and
//! HEAD only, no body read), answering four read-only endpoints. Nothing a request says can
//! start, stop or change the supervision; `/probe` runs one bounded extra launch of a
//! supervised entry, at most one per entry and [`MAX_PROBES`] in all at a time.

use std::collections::HashSet;
use std::convert::Infallible;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use bytes::Bytes;
use http_body_util::Full;
use hyper::body::Incoming;
use hyper::header::{HeaderValue, ALLOW, CONTENT_TYPE};
use hyper::{Method, Request, Response, StatusCode};
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::net::TcpListener;
use tokio::sync::Semaphore;

use crate::engine::diagnosis;
use crate::engine::probe::{StopLevel, StopSignal};
use crate::engine::serve::{self, Board};
use crate::render::metrics::probe::ProbeResult;
use crate::render::metrics::serve::{ExporterFacts, ServeMetrics};
use crate::render::metrics::{self, Format};

use super::args::ServeArgs;

/// The most HTTP connections open at once; one more is closed at once.
pub(crate) const MAX_CONNECTIONS: usize = 64;
/// The most `/probe` requests running at once.
pub(crate) const MAX_PROBES: usize = 4;
/// The longest a `/probe` may take, whatever the scraper's timeout.
const PROBE_CEILING: Duration = Duration::from_secs(120);

/// What every request handler shares.
pub(crate) struct Shared {
    board: Arc<Board>,
    scrapes: AtomicU64,
    connections: AtomicU64,
    probes: AtomicU64,
    probing: Mutex<HashSet<String>>,
    probe_watch: Duration,
}

impl Shared {
    pub(crate) fn new(board: Arc<Board>, args: &ServeArgs) -> Shared {
        Shared {
            board,
            scrapes: AtomicU64::new(0),
            connections: AtomicU64::new(0),
            probes: AtomicU64::new(0),
            probing: Mutex::new(HashSet::new()),
            probe_watch: crate::engine::fleet::duration(args.probe_watch),
        }
    }
}

/// Accept connections until `stop`, each served on its own task.
pub(crate) async fn serve(listener: TcpListener, shared: Arc<Shared>, stop: StopSignal) {
    let permits = Arc::new(Semaphore::new(MAX_CONNECTIONS));
    loop {
        let accepted = tokio::select! {
            a = listener.accept() => a,
            () = stop.reached(StopLevel::Graceful) => return,
        };
        let Ok((stream, _)) = accepted else {
            // Out of descriptors, or a connection reset before it was accepted: go on.
            tokio::time::sleep(Duration::from_millis(50)).await;
            continue;
        };
        let Ok(permit) = permits.clone().try_acquire_owned() else {
            drop(stream);
            continue;
        };
        let shared = shared.clone();
        tokio::spawn(async move {
            shared.connections.fetch_add(1, Ordering::Relaxed);
            let service = hyper::service::service_fn(|req| {
                let shared = shared.clone();
                async move { Ok::<_, Infallible>(answer(req, &shared).await) }
            });
            let _ = hyper::server::conn::http1::Builder::new()
                .timer(TokioTimer::new())
                .header_read_timeout(Duration::from_secs(10))
                .max_buf_size(16 * 1024)
                .serve_connection(TokioIo::new(stream), service)
                .await;
            shared.connections.fetch_sub(1, Ordering::Relaxed);
            drop(permit);
        });
    }
}

fn text(status: StatusCode, body: impl Into<Bytes>) -> Response<Full<Bytes>> {
    let mut r = Response::new(Full::new(body.into()));
    *r.status_mut() = status;
    r.headers_mut().insert(
        CONTENT_TYPE,
        HeaderValue::from_static("text/plain; charset=utf-8"),
    );
    r
}

fn typed(content_type: &'static str, body: String) -> Response<Full<Bytes>> {
    let mut r = text(StatusCode::OK, body);
    r.headers_mut()
        .insert(CONTENT_TYPE, HeaderValue::from_static(content_type));
    r
}

async fn answer(req: Request<Incoming>, shared: &Shared) -> Response<Full<Bytes>> {
    if req.method() != Method::GET && req.method() != Method::HEAD {
        let mut r = text(StatusCode::METHOD_NOT_ALLOWED, "GET or HEAD only\n");
        r.headers_mut()
            .insert(ALLOW, HeaderValue::from_static("GET, HEAD"));
        return r;
    }
    let header = |name: &str| {
        req.headers()
            .get(name)
            .and_then(|v| v.to_str().ok())
            .map(str::to_string)
    };
    let format = Format::from_accept(header("accept").as_deref());
    match req.uri().path() {
        "/metrics" => {
            let scrapes = shared.scrapes.fetch_add(1, Ordering::Relaxed) + 1;
            let collector = ServeMetrics {
                board: shared.board.clone(),
                exporter: ExporterFacts {
                    scrapes,
                    http_connections: shared.connections.load(Ordering::Relaxed),
                    probes_in_flight: shared.probes.load(Ordering::Relaxed),
                    resident_bytes: crate::engine::process::own_resident_bytes(),
                },
            };
            typed(format.content_type(), metrics::encode(collector, format))
        }
        "/probe" => {
            let query = req.uri().query().unwrap_or("");
            let server = url::form_urlencoded::parse(query.as_bytes())
                .find(|(k, _)| k == "server")
                .map(|(_, v)| v.into_owned());
            let timeout = header("x-prometheus-scrape-timeout-seconds")
                .and_then(|t| t.trim().parse::<f64>().ok())
                .and_then(|t| Duration::try_from_secs_f64((t - 0.5).max(0.5)).ok());
            probe(shared, server, timeout, format).await
        }
        "/healthz" => text(StatusCode::OK, "ok\n"),
        "/" => {
            let page = crate::render::picture::status::page(
                &shared.board.statuses(),
                shared.board.started_wall,
            );
            let mut r = typed("text/html; charset=utf-8", page);
            r.headers_mut().insert(
                "content-security-policy",
                HeaderValue::from_static(
                    "default-src 'none'; style-src 'unsafe-inline'; img-src data:",
                ),
            );
            r
        }
        _ => text(
            StatusCode::NOT_FOUND,
            "not found: /metrics, /probe?server=ID, /healthz or /\n",
        ),
    }
}

/// Takes a server's `/probe` slot, given back when dropped.
struct Slot<'a> {
    shared: &'a Shared,
    name: String,
}

impl Drop for Slot<'_> {
    fn drop(&mut self) {
        if let Ok(mut p) = self.shared.probing.lock() {
            p.remove(&self.name);
        }
        self.shared.probes.fetch_sub(1, Ordering::Relaxed);
    }
}

async fn probe(
    shared: &Shared,
    server: Option<String>,
    timeout: Option<Duration>,
    format: Format,
) -> Response<Full<Bytes>> {
    let Some(name) = server else {
        return text(StatusCode::BAD_REQUEST, "give ?server=ID\n");
    };
    let Some(s) = shared.board.find(&name) else {
        return text(
            StatusCode::NOT_FOUND,
            "no such supervised server (its entry id, as /metrics labels it)\n",
        );
    };
    let slot = {
        let Ok(mut p) = shared.probing.lock() else {
            return text(StatusCode::INTERNAL_SERVER_ERROR, "busy\n");
        };
        if p.len() >= MAX_PROBES || p.contains(&name) {
            return text(
                StatusCode::TOO_MANY_REQUESTS,
                "a probe of this server (or too many probes) already running\n",
            );
        }
        p.insert(name.clone());
        shared.probes.fetch_add(1, Ordering::Relaxed);
        Slot {
            shared,
            name: name.clone(),
        }
    };
    let handshake = s.template.run.attempt.handshake_timeout;
    let budget = timeout
        .unwrap_or(handshake + shared.probe_watch + Duration::from_secs(2))
        .min(PROBE_CEILING);
    let started = Instant::now();
    let ran = serve::probe_once(s, shared.probe_watch, budget).await;
    let setting = &s.template.setting;
    let (run, diagnosis) = match ran {
        Ok(run) => {
            let why = diagnosis::diagnose(&run, setting).first().map(|d| d.id);
            (Ok(run), why)
        }
        Err(e) => {
            let why = diagnosis::of_launch_error(&e, setting).id;
            (Err(e.to_string()), Some(why))
        }
    };
    drop(slot);
    let result = ProbeResult {
        server: name,
        run,
        diagnosis,
        duration_s: started.elapsed().as_secs_f64(),
    };
    typed(format.content_type(), metrics::encode(result, format))
}
