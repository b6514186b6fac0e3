//! The target a URL names, by its scheme (the URL helpers themselves are in
//! [`super::endpoint`], re-exported here).

use url::Url;

use super::http::HttpTarget;
use super::ws::WsTarget;
use crate::engine::probe::model::{LaunchError, Protocol};
use crate::engine::probe::target::Target;

pub(crate) use super::endpoint::display_url_str;

/// The target a URL names, by its scheme as the host binds it: `ws`/`wss` a legacy MCPL server
/// over WebSocket, `http`/`https` a modern MCP server over HTTP; anything else is a
/// [`LaunchError`] that shows the URL without its token. Also the protocol the attempts speak.
pub(crate) fn target_for_url(
    url: &str,
    token: Option<String>,
) -> Result<(Target, Protocol), LaunchError> {
    let scheme = url.split_once(':').map(|(s, _)| s.to_ascii_lowercase());
    match scheme.as_deref() {
        Some("ws" | "wss") => Ok((
            Target::WebSocket(WsTarget::new(url, token)?),
            Protocol::Legacy,
        )),
        Some("http" | "https") => {
            Ok((Target::Http(HttpTarget::new(url, token)?), Protocol::Modern))
        }
        _ => Err(LaunchError::Other(match Url::parse(url) {
            Ok(_) => format!(
                "not a ws://, wss://, http:// or https:// URL: {}",
                display_url_str(url)
            ),
            Err(e) => format!(
                "not a ws://, wss://, http:// or https:// URL: \"{}\" ({e})",
                display_url_str(url)
            ),
        })),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_pick_their_transport() {
        let (t, p) = target_for_url("WSS://h/x", Some("tok".into())).expect("ws");
        assert!(matches!(t, Target::WebSocket(_)));
        assert_eq!(p, Protocol::Legacy);
        let (t, p) = target_for_url("https://h/mcp", None).expect("http");
        assert!(matches!(t, Target::Http(_)));
        assert_eq!(p, Protocol::Modern);
        let err = target_for_url("ftp://h/?token=abc-secret", None).expect_err("ftp");
        assert_eq!(
            err.to_string(),
            "not a ws://, wss://, http:// or https:// URL: ftp://h/"
        );
    }
}
