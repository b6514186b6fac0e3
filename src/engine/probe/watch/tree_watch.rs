//! What a launched server's process tree shows while it starts (Linux; elsewhere nothing):
//! an installer at work (`npx -y`, `npm exec`, `uvx`, `uv run`, `pip`, `pipx`), and processes
//! still running when its first process exits (a wrapper that started the server in the
//! background and exited).
//!
//! A first `npx -y PKG` spends seconds to minutes installing before the server starts; a
//! handshake timeout that kills it then leaves a lock and a half-written package in npx's cache,
//! and every later launch fails. The watcher tells the session when an install is under way (it
//! then gets the host's start budget rather than the handshake timeout), how long it took, and,
//! when the launch ended during it, which cache folders it was writing.

use std::ffi::OsString;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime};

use serde::Serialize;
use tokio::task::JoinHandle;
use tokio::time::Instant;

/// How often the tree is read.
const EVERY: Duration = Duration::from_millis(100);
/// The most processes read per scan.
const MAX_PROCESSES: usize = 64;

/// Programs that install a package before they run it.
const INSTALLERS: &[&str] = &[
    "npx", "npm", "pnpm", "yarn", "bunx", "uvx", "uv", "pip", "pip3", "pipx",
];
/// Programs that may sit between an installer and what it runs without being the server.
const PLUMBING: &[&str] = &[
    "sh", "bash", "dash", "env", "node-gyp", "make", "cc", "gcc", "git",
];

/// An install seen in a launch's process tree.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub(crate) struct Install {
    /// The installer: `npx`, `uvx`, `pip`...
    pub tool: String,
    /// From the spawn to the last moment it was seen installing.
    pub spent_ms: f64,
    /// The launch ended (or was stopped) while it was still installing.
    pub unfinished: bool,
    /// Unfinished: the cache folders written during the launch (npx: `~/.npm/_npx/<hash>`),
    /// which may be left half-written (redacted).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub folders: Vec<String>,
}

#[derive(Default)]
struct State {
    tool: Option<String>,
    installing: bool,
    last_installing: Option<Instant>,
}

/// A background reader of one launch's process tree.
pub(crate) struct TreeWatch {
    state: Arc<Mutex<State>>,
    started: Instant,
    started_wall: SystemTime,
    task: Option<JoinHandle<()>>,
}

impl TreeWatch {
    /// Read `pid`'s tree now and every 100 ms.
    pub(crate) fn start(pid: u32) -> TreeWatch {
        let state = Arc::new(Mutex::new(State::default()));
        let started = Instant::now();
        let task = cfg!(target_os = "linux").then(|| {
            let state = state.clone();
            tokio::spawn(async move {
                while let Some(tree) = tree(pid) {
                    let found = installing(&tree);
                    if let Ok(mut s) = state.lock() {
                        s.installing = found.is_some();
                        if let Some(tool) = found {
                            s.tool = Some(tool);
                            s.last_installing = Some(Instant::now());
                        }
                    }
                    tokio::time::sleep(EVERY).await;
                }
            })
        });
        TreeWatch {
            state,
            started,
            started_wall: SystemTime::now(),
            task,
        }
    }

    /// Whether an installer is at work in the tree (at the last reading).
    pub(crate) fn installing(&self) -> bool {
        self.state.lock().map(|s| s.installing).unwrap_or(false)
    }

    /// Stop reading; the install seen, if any. `env` is the server's environment (`None`: the
    /// probe's), where the installer's cache is.
    pub(crate) fn finish(mut self, env: Option<&[(OsString, OsString)]>) -> Option<Install> {
        if let Some(t) = self.task.take() {
            t.abort();
        }
        let s = self.state.lock().ok()?;
        let tool = s.tool.clone()?;
        let last = s.last_installing?;
        let unfinished = s.installing;
        let spent = last.saturating_duration_since(self.started) + EVERY.min(last.elapsed());
        let folders = if unfinished {
            written_since(&tool, env, self.started_wall)
        } else {
            Vec::new()
        };
        Some(Install {
            tool,
            spent_ms: spent.as_secs_f64() * 1000.0,
            unfinished,
            folders: folders
                .into_iter()
                .map(|p| p.display().to_string())
                .collect(),
        })
    }
}

impl Drop for TreeWatch {
    fn drop(&mut self) {
        if let Some(t) = self.task.take() {
            t.abort();
        }
    }
}

/// One process of the tree: its pid, its parent and what it runs.
struct Node {
    pid: u32,
    parent: u32,
    argv: Vec<String>,
}

/// `pid` and its descendants (at most [`MAX_PROCESSES`]); `None` once `pid` is gone.
fn tree(pid: u32) -> Option<Vec<Node>> {
    let argv = |p: u32| -> Option<Vec<String>> {
        let raw = std::fs::read(format!("/proc/{p}/cmdline")).ok()?;
        Some(
            raw.split(|b| *b == 0)
                .filter(|a| !a.is_empty())
                .map(|a| String::from_utf8_lossy(a).into_owned())
                .collect(),
        )
    };
    let mut out = vec![Node {
        pid,
        parent: 0,
        argv: argv(pid)?,
    }];
    let mut i = 0;
    while i < out.len() && out.len() < MAX_PROCESSES {
        let p = out[i].pid;
        for c in children(p) {
            if let Some(a) = argv(c) {
                out.push(Node {
                    pid: c,
                    parent: p,
                    argv: a,
                });
            }
        }
        i += 1;
    }
    Some(out)
}

/// `pid`'s children (those its main thread forked).
fn children(pid: u32) -> Vec<u32> {
    std::fs::read_to_string(format!("/proc/{pid}/task/{pid}/children"))
        .map(|s| {
            s.split_whitespace()
                .filter_map(|p| p.parse().ok())
                .collect()
        })
        .unwrap_or_default()
}

fn base(arg: &str) -> &str {
    arg.rsplit('/').next().unwrap_or(arg)
}

/// The installer `argv` runs, if it is one: `npx ...`, `node .../npx-cli.js ...`,
/// `python3 -m pip ...`, `python3 /x/npx ...`.
pub(crate) fn installer(argv: &[String]) -> Option<String> {
    // A process that set its title (`npx` shows `npm exec @scope/pkg`) reads as one string.
    let split: Vec<String>;
    let argv = match argv {
        [one] if one.contains(' ') => {
            split = one.split_whitespace().map(String::from).collect();
            &split[..]
        }
        _ => argv,
    };
    let named = |a: &str| {
        let b = base(a);
        let b = b.strip_suffix("-cli.js").unwrap_or(b);
        INSTALLERS.contains(&b).then(|| b.to_string())
    };
    let first = argv.first()?;
    if let Some(n) = named(first) {
        return Some(n);
    }
    let runtime = base(first);
    if runtime.starts_with("node") || runtime.starts_with("python") || runtime == "bun" {
        if let [_, m, module, ..] = argv {
            if m == "-m" {
                return named(module);
            }
        }
        return argv.get(1).and_then(|a| named(a));
    }
    None
}

/// The installer at work in `tree`: one whose descendants are all installers or plumbing
/// (once it runs the server, it is done installing).
fn installing(tree: &[Node]) -> Option<String> {
    let is_installer = |n: &Node| installer(&n.argv);
    let below = |pid: u32| -> Vec<&Node> {
        let mut out = Vec::new();
        let mut queue = vec![pid];
        while let Some(p) = queue.pop() {
            for n in tree.iter().filter(|n| n.parent == p) {
                out.push(n);
                queue.push(n.pid);
            }
        }
        out
    };
    tree.iter().find_map(|n| {
        let tool = is_installer(n)?;
        let runs_something = below(n.pid).iter().any(|d| {
            is_installer(d).is_none()
                && !d.argv.first().is_some_and(|a| PLUMBING.contains(&base(a)))
        });
        (!runs_something).then_some(tool)
    })
}

/// The cache folders an installer wrote since `since` (npx: the entries of `_npx` in npm's
/// cache, `$npm_config_cache` or `~/.npm`).
fn written_since(
    tool: &str,
    env: Option<&[(OsString, OsString)]>,
    since: SystemTime,
) -> Vec<PathBuf> {
    let var = |name: &str| -> Option<OsString> {
        match env {
            Some(e) => e.iter().find(|(k, _)| k == name).map(|(_, v)| v.clone()),
            None => std::env::var_os(name),
        }
    };
    let root = match tool {
        "npx" | "npm" => var("npm_config_cache")
            .or_else(|| var("NPM_CONFIG_CACHE"))
            .map(PathBuf::from)
            .or_else(|| var("HOME").map(|h| PathBuf::from(h).join(".npm")))
            .map(|c| c.join("_npx")),
        _ => None,
    };
    let Some(root) = root else {
        return Vec::new();
    };
    let since = since - Duration::from_secs(1);
    let Ok(entries) = std::fs::read_dir(&root) else {
        return Vec::new();
    };
    let mut out: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .filter(|e| {
            e.metadata()
                .and_then(|m| m.modified())
                .is_ok_and(|t| t >= since)
        })
        .map(|e| e.path())
        .collect();
    out.sort();
    out.truncate(4);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn argv(s: &str) -> Vec<String> {
        s.split(' ').map(String::from).collect()
    }

    #[test]
    fn names_the_installer_however_it_is_run() {
        assert_eq!(
            installer(&argv("npx -y @modelcontextprotocol/server-memory")).as_deref(),
            Some("npx")
        );
        assert_eq!(
            installer(&argv("node /usr/lib/node_modules/npm/bin/npx-cli.js -y x")).as_deref(),
            Some("npx")
        );
        assert_eq!(
            installer(&argv("python3 -m pip install x")).as_deref(),
            Some("pip")
        );
        assert_eq!(
            installer(&argv("/home/u/.local/bin/uvx mcp-server-time")).as_deref(),
            Some("uvx")
        );
        // npx's process title, read from /proc as one string.
        assert_eq!(
            installer(&["npm exec @modelcontextprotocol/server-memory".to_string()]).as_deref(),
            Some("npm")
        );
        assert_eq!(installer(&["node /srv/a b/server.mjs".to_string()]), None);
        assert_eq!(installer(&argv("node server.mjs")), None);
        assert_eq!(installer(&argv("python3 -m mcp_server_time")), None);
    }

    #[test]
    fn an_installer_that_runs_the_server_is_done() {
        let n = |pid, parent, a: &str| Node {
            pid,
            parent,
            argv: argv(a),
        };
        let during = vec![n(1, 0, "npx -y x"), n(2, 1, "sh -c node-gyp rebuild")];
        assert_eq!(installing(&during).as_deref(), Some("npx"));
        let after = vec![
            n(1, 0, "npx -y x"),
            n(2, 1, "sh -c mcp-server-x"),
            n(3, 2, "node /cache/_npx/ab/node_modules/.bin/mcp-server-x"),
        ];
        assert_eq!(installing(&after), None);
        assert_eq!(installing(&[n(1, 0, "node server.mjs")]), None);
    }
}
