//! Words for the engine's values, shared by every renderer: what stopped a run, a rule's name in
//! a narrow column.

use crate::engine::policy::{Counted, Preset, Relaunch};
use crate::engine::stop::StopCause;

/// What an attempt counted as, in the host's terms: a host that does not relaunch by itself
/// keeps no failure count, so a connection that ended (or never came) is the state it leaves
/// the server in (`failed` for Claude Desktop, `stopped` for VS Code); a host that backs off
/// counts it (`failure`, `reset by handshake`).
pub(crate) fn counted(counted: Counted, relaunch: Relaunch) -> &'static str {
    match (counted, relaunch.ended_state()) {
        (
            Counted::Failure | Counted::ShortLived | Counted::Lasted | Counted::HandshakeReset,
            Some(state),
        ) => state,
        (Counted::Failure, None) => "failure",
        (Counted::ShortLived, None) => "short-lived",
        (Counted::Lasted, None) => "lasted (count reset)",
        (Counted::HandshakeReset, None) => "reset by handshake",
        (Counted::Permanent, _) => "permanent failure",
        (Counted::StillUp, _) => "still up",
        (Counted::Pending, _) => "not decided",
    }
}

/// The report's words for what stopped a run.
impl StopCause {
    /// `interrupted (Ctrl-C)`, `terminated (SIGTERM)`, `hung up (SIGHUP)`.
    pub(crate) fn words(self) -> &'static str {
        match self {
            StopCause::Interrupt => "interrupted (Ctrl-C)",
            StopCause::Terminate => "terminated (SIGTERM)",
            StopCause::HangUp => "hung up (SIGHUP)",
        }
    }

    /// `Ctrl-C`, `SIGTERM`, `SIGHUP`.
    pub(crate) fn short(self) -> &'static str {
        match self {
            StopCause::Interrupt => "Ctrl-C",
            StopCause::Terminate => "SIGTERM",
            StopCause::HangUp => "SIGHUP",
        }
    }
}

/// The rules a file's entries ran under, for a header: `rule vscode`; `each entry's VS Code
/// rule: vscode, vscode-http` where they differ (a mixed file), naming the host when it is one.
pub(crate) fn rules_phrase(rules: &[Preset]) -> String {
    let names = || {
        rules
            .iter()
            .map(|r| r.name())
            .collect::<Vec<_>>()
            .join(", ")
    };
    match rules {
        [] => "no rule".to_string(),
        [one] => format!("rule {one}"),
        [first, rest @ ..] => match first.host_title() {
            Some(host) if rest.iter().all(|r| r.host_title() == Some(host)) => {
                format!("each entry's {host} rule: {}", names())
            }
            _ => format!("each entry's own rule: {}", names()),
        },
    }
}

/// A rule's name in a table cell: `reset-on-handshake`, `claude-desktop` break after their last
/// hyphen, so that a column of rule names stays narrow at 80 columns.
pub(crate) fn rule_cell(name: &str) -> String {
    match name.rsplit_once('-') {
        Some((head, tail)) if name.len() > 13 => format!("{head}-\n{tail}"),
        _ => name.to_string(),
    }
}

/// A rule's name as a column's header (`simulate`'s summary): whole from 100 columns, where a
/// side-by-side summary has room for it; broken as [`rule_cell`] below.
pub(crate) fn rule_header(name: &str) -> String {
    if crate::render::terminal::terminal_width() >= 100 {
        name.to_string()
    } else {
        rule_cell(name)
    }
}

/// `word` as a POSIX shell reads it back as one word (shlex's quoting: bare when it holds
/// nothing a shell treats specially, else in single quotes), for command lines printed to be
/// copied. A NUL (which no argument can hold) is dropped.
pub(crate) fn shell_word(word: &str) -> String {
    let word = word.replace('\0', "");
    match shlex::try_quote(&word) {
        Ok(q) => q.into_owned(),
        Err(_) => word,
    }
}

#[cfg(test)]
mod tests {
    use super::shell_word;

    /// Review 4 / issue 31 item 5: the hand-written quoting left `*?[]~#!{}` bare, so a copied
    /// command line globbed, expanded `~` or history, or commented the rest out.
    #[test]
    fn shell_words_quote_what_a_shell_would_expand() {
        for word in [
            "*.json", "a?b", "[ab]", "~/x", "#note", "!!", "{a,b}", "a b", "it's", "$HOME", "",
        ] {
            let quoted = shell_word(word);
            assert_ne!(quoted, word, "{word:?} left bare");
            assert_eq!(
                shlex::split(&quoted).as_deref(),
                Some(&[word.to_string()][..]),
                "{quoted} does not read back as {word:?}"
            );
        }
        for bare in [
            "node",
            "server.mjs",
            "--interval",
            "200ms",
            "./my-server",
            "/a/b_c.py",
        ] {
            assert_eq!(shell_word(bare), bare);
        }
    }
}
