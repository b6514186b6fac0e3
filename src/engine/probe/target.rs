//! What to probe, one variant per transport, and the [`Connector`] the runner drives.

use std::future::Future;
use std::time::Duration;

use super::model::{AttemptOptions, AttemptReport, LaunchError, Progress};
use super::wire::http::HttpTarget;
use super::wire::http_era;
use super::wire::remote_facts;
use super::wire::stdio::{self, StdioTarget};
use super::wire::ws::{self, WsTarget};
use super::wire::{bridge, bridge_cache};
use crate::engine::policy::Outcome;
use crate::engine::redact::Redactor;

/// What to probe. One variant per transport; each variant's `attempt` plays
/// [`super::session::play`] over its transport.
#[derive(Debug, Clone)]
pub(crate) enum Target {
    Stdio(StdioTarget),
    /// A legacy MCPL server over `ws://` / `wss://`.
    WebSocket(WsTarget),
    /// A modern MCP server over `http://` / `https://`.
    Http(HttpTarget),
}

impl Target {
    /// How to name the target to a person (secrets redacted, e.g. a URL without its token).
    pub(crate) fn describe(&self, redactor: &Redactor) -> String {
        match self {
            Target::Stdio(t) => t.describe(redactor),
            Target::WebSocket(t) => t.describe(redactor),
            Target::Http(t) => t.describe(redactor),
        }
    }

    /// Every secret the target itself carries (a URL's token, as given and as encoded, its
    /// secret-named query parameters, a password; a command's `--token VALUE` and the like),
    /// for the run's [`Redactor`]. An entry's env values, token and substituted values are the
    /// caller's to add.
    pub(crate) fn secrets(&self) -> Vec<String> {
        match self {
            Target::Stdio(t) => {
                let mut out = t.secrets();
                if let Some(b) = bridge::of_target(t) {
                    for (name, value) in &b.headers {
                        out.extend(super::wire::endpoint::header_secrets(name, value));
                    }
                }
                out
            }
            Target::WebSocket(t) => t.secrets(),
            Target::Http(t) => t.secrets(),
        }
    }

    /// The same target with another deadline for opening a connection (WebSocket: dial, TLS
    /// and upgrade; HTTP: the dial inside each request). A command has none.
    pub(crate) fn with_open_timeout(self, open_timeout: Duration) -> Target {
        match self {
            Target::Stdio(t) => Target::Stdio(t),
            Target::WebSocket(t) => Target::WebSocket(t.with_open_timeout(open_timeout)),
            Target::Http(t) => Target::Http(t.with_open_timeout(open_timeout)),
        }
    }

    /// The transport's name, as a host configuration names it: `stdio`, `websocket`, `http`.
    pub(crate) fn transport(&self) -> &'static str {
        match self {
            Target::Stdio(_) => "stdio",
            Target::WebSocket(_) => "websocket",
            Target::Http(_) => "http",
        }
    }
}

/// Something that makes attempts: a real [`Target`], or a scripted one in tests.
pub(crate) trait Connector {
    /// Make one attempt. It must have stopped and reaped (or closed) everything it started by
    /// the time it returns.
    fn attempt(
        &mut self,
        opts: &AttemptOptions,
        progress: &mut (dyn FnMut(Progress) + Send),
    ) -> impl Future<Output = Result<AttemptReport, LaunchError>>;
}

impl Connector for Target {
    async fn attempt(
        &mut self,
        opts: &AttemptOptions,
        progress: &mut (dyn FnMut(Progress) + Send),
    ) -> Result<AttemptReport, LaunchError> {
        match self {
            Target::Stdio(t) => {
                let mut report = stdio::attempt(t, opts, progress).await?;
                // A bridge that failed: the remote it names, dialled as the bridge would.
                let failed = matches!(report.outcome, Some(Outcome::FailedToConnect(_)));
                if failed && opts.stop.level() == super::stop::StopLevel::Run {
                    if let Some(b) = bridge::of_target(t) {
                        if let Some(remote) = b.target() {
                            let mut facts = remote_facts::look(&remote).await;
                            // Its callback port, bound by someone else (not a message's words).
                            facts.callback_taken = b.callback_port.filter(|p| {
                                std::net::TcpListener::bind(("127.0.0.1", *p))
                                    .is_err_and(|e| e.kind() == std::io::ErrorKind::AddrInUse)
                            });
                            facts.auth_cache = b.cache.as_ref().map(bridge_cache::read);
                            report.remote = Some(facts);
                        }
                    }
                }
                Ok(report)
            }
            Target::WebSocket(t) => ws::attempt(t, opts, progress).await,
            Target::Http(t) => http_era::attempt(t, opts, progress).await,
        }
    }
}

impl Connector for WsTarget {
    async fn attempt(
        &mut self,
        opts: &AttemptOptions,
        progress: &mut (dyn FnMut(Progress) + Send),
    ) -> Result<AttemptReport, LaunchError> {
        ws::attempt(self, opts, progress).await
    }
}

impl Connector for HttpTarget {
    async fn attempt(
        &mut self,
        opts: &AttemptOptions,
        progress: &mut (dyn FnMut(Progress) + Send),
    ) -> Result<AttemptReport, LaunchError> {
        http_era::attempt(self, opts, progress).await
    }
}
