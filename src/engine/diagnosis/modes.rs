//! The mode a stdio server was started in, when it is not the host's: an HTTP server under a
//! stdio host (`listening on port 3001`), and a server whose stdin was closed or replaced
//! before it could read the handshake (`< /dev/null`, `docker run` without `-i`).

use super::launch::{ended, ev};
use super::model::{Evidence, Hit, Setting, Source};
use super::table::{Confidence, When, RULES};
use super::text;
use super::words::terms;
use crate::engine::policy::Ended;
use crate::engine::probe::wire::http_mode;
use crate::engine::probe::Launch;

/// The rows of this file on launch `l` (`None` for the other rows).
pub(super) fn mode_hit(i: usize, l: &Launch, setting: &Setting) -> Option<Hit> {
    match RULES[i].when {
        When::ServesHttp => http_hit(i, l, setting),
        When::StdinEnded => stdin_hit(i, l, setting),
        _ => None,
    }
}

/// The stderr lines then the stdout lines of the launch (the notable ones that scrolled out
/// first).
fn all_lines(l: &Launch) -> impl Iterator<Item = (&String, Source)> {
    let tail = &l.report.stderr;
    tail.notable
        .iter()
        .filter(|n| !tail.lines.contains(n))
        .chain(tail.lines.iter())
        .map(|x| (x, Source::Stderr))
        .chain(l.report.stdout.samples.iter().map(|x| (x, Source::Stdout)))
}

/// `http-mode`: a launch that never completed its handshake while the server said it listens
/// for HTTP.
fn http_hit(i: usize, l: &Launch, setting: &Setting) -> Option<Hit> {
    // Still running when its handshake ended (an HTTP server waits for requests); one that
    // exited said something else that explains it (a port in use, a crash).
    if l.report.connected_at_ms.is_some() || ended(l).is_some() {
        return None;
    }
    let Some((line, source, url)) =
        all_lines(l).find_map(|(x, s)| http_mode::listening(x).map(|u| (x, s, u)))
    else {
        // No words: the sockets its processes listen on.
        return super::listening::hit(i, l, setting);
    };
    let drop = super::listening::stdio_step(
        super::listening::http_switch(setting, None).as_ref(),
        setting,
    );
    let next = if setting.entry {
        format!(
            "this command starts an HTTP server ({url}), which a stdio host cannot talk to: {drop}; or run it apart and give the entry `\"url\": \"{url}\"` in place of `command` (probe: `--url {url}`)"
        )
    } else {
        format!("this command starts an HTTP server: probe `--url {url}` while it runs, or {drop}")
    };
    Some(Hit {
        rule: i,
        confidence: RULES[i].confidence,
        name: Some(url.clone()),
        says: Some(format!(
            "it serves HTTP ({url}), not stdio: a stdio host waits for an answer that never comes"
        )),
        next: Some(next),
        launches: vec![l.number],
        evidence: vec![ev(l, source, text::quote(line))],
    })
}

/// `docker run` (or podman's) without `-i`: the container gets no stdin.
fn docker_without_i(setting: &Setting) -> Option<String> {
    let cmd = setting.command.as_deref()?;
    let base = cmd.rsplit('/').next().unwrap_or(cmd);
    if !["docker", "podman"].contains(&base) || !setting.args.iter().any(|a| a == "run") {
        return None;
    }
    let interactive = setting.args.iter().any(|a| {
        a == "--interactive"
            || a == "--interactive=true"
            || (a.starts_with('-') && !a.starts_with("--") && a.contains('i'))
    });
    (!interactive).then(|| base.to_string())
}

/// `stdin-closed`: exit 0 before its handshake, with no error: its stdin ended at once.
fn stdin_hit(i: usize, l: &Launch, setting: &Setting) -> Option<Hit> {
    if l.report.connected_at_ms.is_some() || !matches!(ended(l)?, Ended::Exit { code: 0 }) {
        return None;
    }
    let r = &l.report;
    let lived = r.ended_at_ms - r.launched_at_ms;
    let mut evidence = vec![ev(
        l,
        Source::Exit,
        format!("exited with code 0 {lived:.0} ms after its spawn, before its handshake"),
    )];
    let seen = r.process.as_ref().and_then(|p| p.stdin.clone());
    let docker = docker_without_i(setting);
    if let Some(s) = &seen {
        evidence.push(Evidence {
            launches: vec![l.number],
            source: Source::Spawn,
            text: format!("its stdin was {s}, not the host's pipe (/proc/PID/fd/0)"),
        });
    }
    if let Some(d) = &docker {
        evidence.push(Evidence {
            launches: Vec::new(),
            source: Source::Spawn,
            text: format!("`{d} run` without `-i`: the container gets no stdin"),
        });
    }
    if let Some(last) = r.stderr.lines.iter().rev().find(|s| !s.trim().is_empty()) {
        evidence.push(ev(l, Source::Stderr, text::quote(last)));
    }
    let next = match (&docker, &seen) {
        (Some(d), _) => format!(
            "add `-i` to `{d} run` in {} (`{d} run -i --rm ...`): without it the server reads end-of-file at once and exits",
            terms("the entry's args", setting)
        ),
        (None, Some(s)) => format!(
            "give the server the host's stdin: drop the `< {s}` (or whatever redirects its stdin) from {}; a stdio server reads the host's messages there and exits when it ends",
            terms("the entry's args", setting)
        ),
        (None, None) => "look for what closes or replaces its stdin before it reads the handshake (a `< /dev/null`, `docker run` without `-i`, a wrapper that runs it with `&` or `nohup`, a one-shot mode): a stdio server exits when its stdin ends".to_string(),
    };
    let says = match (&docker, &seen) {
        (Some(d), _) => format!("`{d} run` without `-i` gives the server no stdin: it read end-of-file and exited before its handshake"),
        (None, Some(s)) => format!("its stdin was {s}: it read end-of-file and exited before its handshake"),
        (None, None) => "it exited 0 before its handshake, with no error: its stdin ended at once (closed or replaced)".to_string(),
    };
    let sure = seen.is_some() || docker.is_some();
    // Words on stdout before the exit: the server ended on what it told its user, not on an
    // end of its stdin nothing shows (`stdout_words.rs`).
    if !sure && super::launch::talked_and_left(l) {
        return None;
    }
    Some(Hit {
        rule: i,
        confidence: if sure {
            RULES[i].confidence
        } else {
            Confidence::Medium
        },
        name: seen.or(docker),
        says: Some(says),
        next: Some(next),
        launches: vec![l.number],
        evidence,
    })
}
