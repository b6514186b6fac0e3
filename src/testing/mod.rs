//! Scripted servers for tests: a WebSocket MCPL server and a modern-MCP HTTP server, both on
//! 127.0.0.1 with a port of their own.
//!
//! Not in the shipped library: compiled for the library's unit tests (`cfg(test)`) and, behind
//! the `testing` feature, for the integration tests under `tests/`, so that both share one
//! implementation (an integration test starts a server in-process and points the real binary at
//! `server.url(..)`). `cargo test` turns the feature on through the package's dev-dependency on
//! itself (Cargo.toml); `cargo build` and `cargo install` leave it off.

use std::future::Future;
use std::net::SocketAddr;
use std::thread::JoinHandle;

use tokio::net::TcpListener;
use tokio::sync::oneshot;

mod http_server;
pub mod pictures;
mod ws_server;

pub use http_server::{HttpRequestRecord, HttpScenario, HttpServer, HttpTools};
pub use ws_server::{AfterHandshake, WsAnswer, WsConnectionRecord, WsScenario, WsServer};

/// A server loop on 127.0.0.1 with a port of its own, run on its own thread and runtime (so a
/// plain `#[test]` can start one); stopped and joined when dropped.
struct Background {
    addr: SocketAddr,
    stop: Option<oneshot::Sender<()>>,
    thread: Option<JoinHandle<()>>,
}

impl Background {
    /// Bind 127.0.0.1:0 and run `serve(listener)` until dropped.
    ///
    /// # Panics
    /// When 127.0.0.1 cannot be bound or a runtime cannot be built (a test setup failure).
    fn start<F, Fut>(serve: F) -> Background
    where
        F: FnOnce(TcpListener) -> Fut + Send + 'static,
        Fut: Future<Output = ()>,
    {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind 127.0.0.1:0");
        listener.set_nonblocking(true).expect("non-blocking");
        let addr = listener.local_addr().expect("local address");
        let (stop, stopped) = oneshot::channel();
        let thread = std::thread::spawn(move || {
            let rt = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .expect("test server runtime");
            rt.block_on(async move {
                let listener = TcpListener::from_std(listener).expect("tokio listener");
                tokio::select! {
                    _ = serve(listener) => {}
                    _ = stopped => {}
                }
            });
        });
        Background {
            addr,
            stop: Some(stop),
            thread: Some(thread),
        }
    }
}

impl Drop for Background {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}
