//! Which HTTP transport a URL speaks, found as hosts.md 5.3 says, and one attempt over it.
//!
//! The modern request first (`server/discover`): a valid answer, or an error naming
//! 2026-07-28 or with code -32022, means the stateless era. Otherwise `initialize` over
//! Streamable HTTP, unless the discover POST got 400, 404 or 405 and a GET of the URL opens an
//! event stream whose first event is `endpoint`: the legacy HTTP+SSE transport (C22). The era
//! is kept in the target for every later attempt; a URL that gave no HTTP answer at all is
//! tried again next time (the stateless attempt then says why, as before).

use std::sync::Arc;
use std::time::Duration;

use super::endpoint::redactor_with;
use super::http::{self, DiscoverResult, Era, HttpTarget};
use super::legacy_sse::{self, SseTransport};
use super::remote_facts;
use super::streamable::StreamableTransport;
use crate::engine::policy::Outcome;
use crate::engine::probe::model::{AttemptOptions, AttemptReport, LaunchError, Progress, Protocol};
use crate::engine::probe::session;
use crate::engine::probe::session::handshake::{MODERN_VERSION, VERSION_REFUSED};
use crate::engine::redact::Redactor;

/// How long the GET that looks for a legacy event stream may take.
const SSE_LOOK: Duration = Duration::from_secs(5);

/// The era `target` speaks, and whether that is known for good (`false`: the URL gave no
/// usable HTTP answer, try again next attempt).
pub(crate) async fn detect(
    target: &HttpTarget,
    timeout: Duration,
    redactor: &Redactor,
) -> (Era, bool) {
    let d = http::discover(target, timeout, redactor).await;
    let (error, server) = match &d.result {
        DiscoverResult::Valid(_) => return (Era::Stateless, true),
        DiscoverResult::TimedOut => return (Era::Stateless, false),
        DiscoverResult::Failed { error, server } => (error, server),
    };
    let modern_error = server
        .as_ref()
        .is_some_and(|s| s.supported_versions.iter().any(|v| v == MODERN_VERSION))
        || error.contains(&format!("code {VERSION_REFUSED}"));
    if modern_error {
        return (Era::Stateless, true);
    }
    match d.status {
        None => (Era::Stateless, false),
        Some(400 | 404 | 405) => {
            if speaks_sse(target).await {
                (Era::Sse, true)
            } else {
                (Era::StreamableHttp, true)
            }
        }
        Some(s) if (400..500).contains(&s) => (Era::StreamableHttp, false),
        Some(s) if (200..300).contains(&s) => (Era::StreamableHttp, true),
        Some(_) => (Era::Stateless, false),
    }
}

/// Whether a GET of the URL opens a legacy event stream (its first event names an endpoint).
async fn speaks_sse(target: &HttpTarget) -> bool {
    let look = tokio::time::timeout(SSE_LOOK.min(target.open_timeout), async {
        let mut events = legacy_sse::open_stream(target).await?;
        legacy_sse::endpoint(&mut events, target.url()).await
    })
    .await;
    matches!(look, Ok(Ok(_)))
}

/// One attempt against `target` over its era (detected at the first attempt, then kept).
pub(crate) async fn attempt(
    target: &mut HttpTarget,
    opts: &AttemptOptions,
    progress: &mut (dyn FnMut(Progress) + Send),
) -> Result<AttemptReport, LaunchError> {
    let redactor = Arc::new(redactor_with(&opts.redactor, target.secrets()));
    let era = match target.era {
        Some(era) => era,
        None => {
            let (era, known) = detect(target, opts.handshake_timeout, &redactor).await;
            if known {
                target.era = Some(era);
            }
            era
        }
    };
    let mut legacy = opts.clone();
    legacy.protocol = Protocol::Legacy;
    let mut report = match era {
        Era::Stateless => http::attempt(target, opts, progress).await?,
        Era::StreamableHttp => {
            let t = StreamableTransport::new(target.clone(), redactor);
            session::play(t, &legacy, progress).await?
        }
        Era::Sse => {
            let t = SseTransport::new(target.clone(), redactor);
            session::play(t, &legacy, progress).await?
        }
    };
    if let Some(server) = report.server.as_mut() {
        server.era.get_or_insert_with(|| era.name().to_string());
    }
    let failed = matches!(report.outcome, Some(Outcome::FailedToConnect(_)));
    let running = opts.stop.level() == crate::engine::probe::stop::StopLevel::Run;
    if failed && running {
        report.remote = Some(remote_facts::look(target).await);
    } else if running && !target.tls_checked && super::dial::is_tls(target.url()) {
        // The doctor got through with this machine's store: would a Node host?
        target.tls_checked = true;
        let facts = super::tls_trust::inspect(
            target.url(),
            target.open_timeout.min(std::time::Duration::from_secs(5)),
            super::tls_trust::node_extra().as_deref(),
        )
        .await;
        report.session.node_tls = facts.filter(|f| {
            f.system == super::rungs::Trust::Trusted
                && matches!(f.node, Some((_, super::rungs::Trust::Refused(_))))
        });
    }
    Ok(report)
}
