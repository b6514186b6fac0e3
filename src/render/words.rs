//! Words for the engine's values, shared by every renderer: what stopped a run, a rule's name in
//! a narrow column.

use crate::engine::stop::StopCause;

/// The report's words for what stopped a run.
impl StopCause {
    /// `interrupted (Ctrl-C)`, `terminated (SIGTERM)`, `hung up (SIGHUP)`.
    pub fn words(self) -> &'static str {
        match self {
            StopCause::Interrupt => "interrupted (Ctrl-C)",
            StopCause::Terminate => "terminated (SIGTERM)",
            StopCause::HangUp => "hung up (SIGHUP)",
        }
    }

    /// `Ctrl-C`, `SIGTERM`, `SIGHUP`.
    pub fn short(self) -> &'static str {
        match self {
            StopCause::Interrupt => "Ctrl-C",
            StopCause::Terminate => "SIGTERM",
            StopCause::HangUp => "SIGHUP",
        }
    }
}

/// A rule's name in a table cell: `reset-on-handshake` breaks after its last hyphen, so that a
/// column of rule names stays narrow at 80 columns.
pub(crate) fn rule_cell(name: &str) -> String {
    match name.rsplit_once('-') {
        Some((head, tail)) if name.len() > 14 => format!("{head}-\n{tail}"),
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
pub fn shell_word(word: &str) -> String {
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
