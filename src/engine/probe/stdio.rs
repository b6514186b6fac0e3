//! One attempt against a command over stdio: the child in its own process group, NDJSON on its
//! stdin and stdout, stderr drained into a bounded tail, the host's way of stopping it.

use std::ffi::OsString;
use std::io::ErrorKind;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime};

use serde_json::Value;
use tokio::io::AsyncWriteExt;
use tokio::process::{ChildStderr, ChildStdin, ChildStdout};
use tokio::sync::mpsc;
use tokio::task::JoinHandle;
use tokio::time::Instant;

use super::handshake::{self, Answer, Incoming, PingAction, Pinger};
use super::lines::{LineReader, Tail};
use super::opening::{Close, OpeningDriver};
use super::{
    memory, AttemptOptions, AttemptReport, LaunchError, Misbehaviour, ProcessFacts, Progress,
    ServerInfo, StderrTail, StdoutNoise, StopLevel, Stopped,
};
use crate::engine::diagnosis;
use crate::engine::policy::{Ended, Failure, Outcome};
use crate::engine::process::{self, GroupChild, StopResult};
use crate::engine::redact::Redactor;

/// The longest stdout line read as a message (4 MiB); longer ones are skipped and counted, and
/// one that comes before the handshake's answer fails the attempt as "answer too large" with
/// its size. (The host reads lines of any length; the probe keeps its memory bounded instead,
/// at a limit far above any real answer.)
pub const STDOUT_LINE_LIMIT: usize = 4 * 1024 * 1024;
/// At most this much waits for a server that does not read its stdin (replies, pings); past it
/// the probe stops answering (a finding) rather than queue more. An empty queue always takes
/// one message, whatever its size.
pub const MAX_UNSENT: usize = 1024 * 1024;
/// The longest stderr line kept (the rest is dropped), and the tail's size in bytes (8 KiB).
pub const STDERR_TAIL_BYTES: usize = 8 * 1024;
/// The tail's size in lines.
pub const STDERR_TAIL_LINES: usize = 20;
/// Stderr lines naming a likely cause kept besides the tail, and how many lines are scanned
/// for them (a flood is no crash report).
const NOTABLE_LINES: usize = 8;
const NOTABLE_SCAN_LINES: u64 = 10_000;
/// How many non-JSON stdout lines are kept as samples, and how long each may be.
const NOISE_SAMPLES: usize = 3;
const NOISE_SAMPLE_CHARS: usize = 200;
/// Once stdout closed, how long to wait for the process's exit before calling the end "stdout
/// closed"; once the process exited, how long to keep reading what it wrote before exiting.
const SETTLE: Duration = Duration::from_millis(200);
/// How many stdout messages may wait unread (each at most one line of up to 4 MiB).
const CHANNEL: usize = 1;

/// A command to launch, with the environment the host would give it.
#[derive(Debug, Clone, PartialEq)]
pub struct StdioTarget {
    pub command: OsString,
    pub args: Vec<OsString>,
    /// The child's whole environment (`None`: inherit the probe's own, as for a bare command).
    pub env: Option<Vec<(OsString, OsString)>>,
    /// Working directory (`None`: the probe's).
    pub cwd: Option<PathBuf>,
}

impl StdioTarget {
    /// `command args...`, redacted, for a person.
    pub fn describe(&self, redactor: &Redactor) -> String {
        let mut parts = vec![self.command.to_string_lossy().into_owned()];
        parts.extend(self.args.iter().map(|a| a.to_string_lossy().into_owned()));
        redactor.redact(&parts.join(" "))
    }

    /// The values of the command line's secret options (`--token VALUE`, `--api-key=VALUE`...)
    /// and other shapes (see [`crate::engine::redact::secret_args`]), and of the secret-looking
    /// variables of the environment the server gets (its own, or the probe's it inherits).
    pub fn secrets(&self) -> Vec<String> {
        let args: Vec<String> = self
            .args
            .iter()
            .map(|a| a.to_string_lossy().into_owned())
            .collect();
        let mut out = crate::engine::redact::secret_args(&args);
        out.extend(match &self.env {
            Some(env) => crate::engine::redact::env_secrets(env.iter().map(|(k, v)| (k, v))),
            None => crate::engine::redact::env_secrets(std::env::vars_os()),
        });
        out
    }

    fn command(&self) -> tokio::process::Command {
        let mut cmd = tokio::process::Command::new(&self.command);
        cmd.args(&self.args);
        if let Some(env) = &self.env {
            cmd.env_clear();
            cmd.envs(env.iter().map(|(k, v)| (k, v)));
        }
        if let Some(dir) = &self.cwd {
            cmd.current_dir(dir);
        }
        cmd
    }
}

fn launch_error(target: &StdioTarget, e: &std::io::Error, redactor: &Redactor) -> LaunchError {
    let command = redactor.redact(&target.command.to_string_lossy());
    let cannot = |reason: String| LaunchError::CannotExecute {
        command: command.clone(),
        reason: redactor.redact(&reason),
    };
    if target.cwd.as_ref().is_some_and(|d| !d.is_dir()) {
        return cannot("its working directory does not exist".into());
    }
    let file = resolve_command(target);
    match (e.kind(), file) {
        (_, Some(path)) if path.is_dir() => cannot("it is a directory, not a program".into()),
        (ErrorKind::NotFound | ErrorKind::PermissionDenied, Some(path)) => {
            match interpreter_of(&path) {
                Some(interp) if !interp.exists() => cannot(format!(
                    "its #! interpreter {} does not exist",
                    interp.display()
                )),
                Some(interp) if interp.is_dir() || !is_executable(&interp) => cannot(format!(
                    "its #! interpreter {} is not executable",
                    interp.display()
                )),
                _ if !is_executable(&path) => {
                    cannot("the file is not executable (no x permission; chmod +x?)".into())
                }
                _ if e.kind() == ErrorKind::NotFound => cannot(
                    "the file exists but cannot be run here (its ELF interpreter or a library \
                     loader is missing?)"
                        .into(),
                ),
                _ => cannot(format!("permission denied ({e})")),
            }
        }
        (ErrorKind::NotFound, None) => LaunchError::NotFound { command },
        (ErrorKind::PermissionDenied, None) => cannot("permission denied".into()),
        _ => cannot(e.to_string()),
    }
}

/// The file the command names: a path as given (against the working directory), else the
/// first entry of `PATH` (the child's, else the probe's) that exists.
fn resolve_command(target: &StdioTarget) -> Option<PathBuf> {
    let command = Path::new(&target.command);
    if command.as_os_str().is_empty() {
        return None;
    }
    if command.components().count() > 1 || target.command.to_string_lossy().contains('/') {
        let path = match &target.cwd {
            Some(dir) if command.is_relative() => dir.join(command),
            _ => command.to_path_buf(),
        };
        return path.symlink_metadata().is_ok().then_some(path);
    }
    let path_var = match &target.env {
        Some(env) => env
            .iter()
            .find(|(k, _)| k == "PATH")
            .map(|(_, v)| v.clone()),
        None => std::env::var_os("PATH"),
    }?;
    std::env::split_paths(&path_var)
        .map(|dir| dir.join(command))
        .find(|p| p.metadata().is_ok())
}

/// A script's `#!` interpreter (its first word), when the file starts with `#!`.
fn interpreter_of(path: &Path) -> Option<PathBuf> {
    use std::io::Read;
    let mut head = [0u8; 256];
    let n = std::fs::File::open(path).ok()?.read(&mut head).ok()?;
    let line = head[..n].strip_prefix(b"#!")?;
    let line = line.split(|&b| b == b'\n').next()?;
    let text = String::from_utf8_lossy(line);
    let word = text.split_whitespace().next()?;
    Some(PathBuf::from(word))
}

fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    path.metadata()
        .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

/// What the stdout reader hands over: messages, and lines over the limit (their length);
/// noise is counted in [`StdoutNoise`].
enum StdoutItem {
    Message(Value),
    Overlong(u64),
}

fn spawn_stdout_reader(
    stdout: ChildStdout,
    noise: Arc<Mutex<StdoutNoise>>,
    redactor: Arc<Redactor>,
) -> (mpsc::Receiver<StdoutItem>, JoinHandle<()>) {
    let (tx, rx) = mpsc::channel(CHANNEL);
    let task = tokio::spawn(async move {
        let mut reader = LineReader::new(stdout, STDOUT_LINE_LIMIT);
        loop {
            let Some(line) = reader.next_line().await else {
                break;
            };
            let item = if line.truncated {
                if let Ok(mut n) = noise.lock() {
                    n.overlong_lines += 1;
                }
                // A message (it opens as a JSON object) too large to read; other overlong lines
                // are noise, skipped.
                let json_like = line
                    .bytes
                    .iter()
                    .find(|b| !b.is_ascii_whitespace())
                    .is_some_and(|b| *b == b'{');
                json_like.then_some(StdoutItem::Overlong(line.len))
            } else {
                match handshake::classify(line.bytes) {
                    Incoming::Blank => None,
                    Incoming::Message(v) => Some(StdoutItem::Message(v)),
                    Incoming::NotJsonRpc => {
                        if let Ok(mut n) = noise.lock() {
                            n.non_json_lines += 1;
                            if n.samples.len() < NOISE_SAMPLES {
                                let text = redactor.redact(&String::from_utf8_lossy(line.bytes));
                                let short: String = text.chars().take(NOISE_SAMPLE_CHARS).collect();
                                n.samples.push(short);
                            }
                        }
                        None
                    }
                }
            };
            let total = reader.total_bytes;
            if let Ok(mut n) = noise.lock() {
                n.total_bytes = total;
            }
            if let Some(item) = item {
                if tx.send(item).await.is_err() {
                    // Nobody listens any more: keep draining so the child never blocks.
                    while reader.next_line().await.is_some() {}
                    break;
                }
            }
        }
        if let Ok(mut n) = noise.lock() {
            n.total_bytes = reader.total_bytes;
        }
    });
    (rx, task)
}

struct StderrState {
    tail: Tail,
    total_bytes: u64,
    /// Lines that name a likely cause (for the diagnosis), the latest few.
    notable: std::collections::VecDeque<String>,
}

fn spawn_stderr_reader(
    stderr: ChildStderr,
    state: Arc<Mutex<StderrState>>,
    redactor: Arc<Redactor>,
) -> JoinHandle<()> {
    tokio::spawn(async move {
        let mut reader = LineReader::new(stderr, STDERR_TAIL_BYTES);
        while let Some(line) = reader.next_line().await {
            // Masked before anything is cut: a line cut at the limit hides a secret that the
            // cut fell inside, so no secret's first part is ever kept.
            let text = String::from_utf8_lossy(line.bytes);
            let text = if line.truncated {
                const CUT: &str = " [...]";
                let mut t = redactor.redact_cut(&text);
                let mut at = t.len().min(STDERR_TAIL_BYTES - CUT.len());
                while !t.is_char_boundary(at) {
                    at -= 1;
                }
                t.truncate(at);
                t.push_str(CUT);
                t
            } else {
                redactor.redact(&text)
            };
            let total = reader.total_bytes;
            if let Ok(mut s) = state.lock() {
                if s.tail.total_lines < NOTABLE_SCAN_LINES && diagnosis::table::is_notable(&text) {
                    if s.notable.len() == NOTABLE_LINES {
                        s.notable.pop_front();
                    }
                    s.notable.push_back(text.clone());
                }
                s.tail.push(text);
                s.total_bytes = total;
            }
        }
        if let Ok(mut s) = state.lock() {
            s.total_bytes = reader.total_bytes;
        }
    })
}

/// What the probe sends to the server's stdin, bounded by [`MAX_UNSENT`] bytes waiting.
struct Outbox {
    tx: mpsc::UnboundedSender<Vec<u8>>,
    /// Bytes handed over and not yet written.
    queued: Arc<AtomicUsize>,
    /// Messages dropped because the queue was full (the server was not reading).
    unsent: u64,
}

impl Outbox {
    /// Queue `bytes`, or count them as unsent when the queue is full.
    fn send(&mut self, bytes: Vec<u8>) {
        let n = bytes.len();
        let queued = self.queued.load(Ordering::Acquire);
        if queued > 0 && queued + n > MAX_UNSENT {
            self.unsent += 1;
            return;
        }
        self.queued.fetch_add(n, Ordering::AcqRel);
        if self.tx.send(bytes).is_err() {
            self.queued.fetch_sub(n, Ordering::AcqRel);
        }
    }
}

fn spawn_writer(mut stdin: ChildStdin) -> (Outbox, JoinHandle<()>) {
    let (tx, mut rx) = mpsc::unbounded_channel::<Vec<u8>>();
    let queued = Arc::new(AtomicUsize::new(0));
    let written = queued.clone();
    let task = tokio::spawn(async move {
        while let Some(bytes) = rx.recv().await {
            if stdin.write_all(&bytes).await.is_err() || stdin.flush().await.is_err() {
                break;
            }
            written.fetch_sub(bytes.len(), Ordering::AcqRel);
        }
        // Dropping stdin closes it.
    });
    let outbox = Outbox {
        tx,
        queued,
        unsent: 0,
    };
    (outbox, task)
}

fn frame(v: &Value) -> Vec<u8> {
    let mut bytes = serde_json::to_vec(v).unwrap_or_default();
    bytes.push(b'\n');
    bytes
}

fn ended_of(status: std::process::ExitStatus) -> Ended {
    use std::os::unix::process::ExitStatusExt;
    match (status.code(), status.signal()) {
        (Some(code), _) => Ended::Exit { code },
        (None, Some(signal)) => Ended::Signal { signal },
        (None, None) => Ended::Unknown,
    }
}

/// The failure text for a process that ended before its handshake.
fn before_handshake(ended: &Ended) -> String {
    match ended {
        Ended::Exit { code } => format!("exited with code {code} before its handshake"),
        Ended::Signal { .. } => format!("killed by {ended} before its handshake"),
        Ended::StdoutClosed => "closed its stdout before its handshake".to_string(),
        other => format!("ended ({other}) before its handshake"),
    }
}

/// Where the attempt stands.
enum Phase {
    Handshaking,
    Connected {
        at: Instant,
        pinger: Option<Pinger>,
        opening: Option<Box<OpeningDriver>>,
    },
}

/// How the watching ended.
enum End {
    /// The attempt has its outcome.
    Outcome(Outcome),
    /// Cut before an outcome (stop request or deadline during the handshake).
    Cut,
}

/// Launch `target` once, do the handshake, watch the connection until it ends (or the watch,
/// the deadline or a stop request ends the observation), stop the process group the host's way,
/// and report. `Err` only when the command cannot be launched at all.
pub async fn attempt(
    target: &StdioTarget,
    opts: &AttemptOptions,
    progress: &mut (dyn FnMut(Progress) + Send),
) -> Result<AttemptReport, LaunchError> {
    let redactor = opts.redactor.clone();
    let mut cmd = target.command();
    let launched_wall = SystemTime::now();
    let launched = Instant::now();
    let spawned = process::spawn(&mut cmd).map_err(|e| launch_error(target, &e, &redactor))?;
    let mut child: GroupChild = spawned.child;
    let pid = child.pid();
    let memory = memory::Sampler::start(pid, opts.epoch);
    progress(Progress::Launched {
        at_ms: opts.ms_since_epoch(launched),
        pid: Some(pid),
    });

    let noise = Arc::new(Mutex::new(StdoutNoise::default()));
    let stderr_state = Arc::new(Mutex::new(StderrState {
        tail: Tail::new(STDERR_TAIL_LINES, STDERR_TAIL_BYTES),
        total_bytes: 0,
        notable: Default::default(),
    }));
    let (mut messages, stdout_task) =
        spawn_stdout_reader(spawned.stdout, noise.clone(), redactor.clone());
    let stderr_task = spawn_stderr_reader(spawned.stderr, stderr_state.clone(), redactor.clone());
    let (mut writer, writer_task) = spawn_writer(spawned.stdin);

    writer.send(frame(&handshake::first_request(opts.protocol)));

    let handshake_deadline = launched + opts.handshake_timeout;
    let far = launched + Duration::from_secs(86_400 * 365 * 30);
    let deadline = opts.deadline.unwrap_or(far);
    let mut phase = Phase::Handshaking;
    let mut server: Option<ServerInfo> = None;
    let mut connected_at: Option<Instant> = None;
    let mut stdout_open = true;
    let ended_at: Instant;

    let end: End = loop {
        let (watch_until, ping_due, opening_due) = match &phase {
            Phase::Handshaking => (far, far, far),
            Phase::Connected {
                at,
                pinger,
                opening,
            } => (
                *at + opts.watch,
                pinger.as_ref().map_or(far, Pinger::due),
                opening.as_ref().and_then(|d| d.due()).unwrap_or(far),
            ),
        };
        let handshaking = matches!(phase, Phase::Handshaking);
        tokio::select! {
            biased;
            () = opts.stop.reached(StopLevel::Graceful) => {
                ended_at = Instant::now();
                break match phase {
                    Phase::Handshaking => End::Cut,
                    Phase::Connected { at, .. } => End::Outcome(Outcome::StillUp {
                        lived_ms: ms(ended_at - at),
                    }),
                };
            }
            status = child.wait() => {
                ended_at = Instant::now();
                let how = status.map(ended_of).unwrap_or(Ended::Unknown);
                // Read what it wrote before it exited (its answer may still be in the pipe).
                let settle_until = Instant::now() + SETTLE;
                let mut verdict = None;
                while stdout_open && verdict.is_none() {
                    tokio::select! {
                        m = messages.recv() => match m {
                            Some(StdoutItem::Message(v)) => {
                                verdict = on_message(&v, &mut phase, opts, &mut writer, &mut server, &mut connected_at, progress);
                            }
                            Some(StdoutItem::Overlong(len)) => verdict = overlong(len, &phase),
                            None => stdout_open = false,
                        },
                        () = tokio::time::sleep_until(settle_until) => break,
                    }
                }
                break End::Outcome(match (verdict, &phase) {
                    (Some(v), _) => v,
                    (None, Phase::Connected { at, .. }) => Outcome::Connected {
                        lived_ms: ms(ended_at.saturating_duration_since(*at)),
                        ended: how,
                    },
                    (None, Phase::Handshaking) => {
                        Outcome::FailedToConnect(Failure::Message(before_handshake(&how)))
                    }
                });
            }
            m = messages.recv(), if stdout_open => match m {
                Some(StdoutItem::Message(v)) => {
                    if let Some(o) = on_message(&v, &mut phase, opts, &mut writer, &mut server, &mut connected_at, progress) {
                        ended_at = Instant::now();
                        break End::Outcome(o);
                    }
                }
                Some(StdoutItem::Overlong(len)) => {
                    if let Some(o) = overlong(len, &phase) {
                        ended_at = Instant::now();
                        break End::Outcome(o);
                    }
                }
                None => {
                    ended_at = Instant::now();
                    // Stdout closed: an exit usually follows at once; wait a moment for it.
                    let how = tokio::select! {
                        s = child.wait() => s.map(ended_of).unwrap_or(Ended::Unknown),
                        () = tokio::time::sleep(SETTLE) => Ended::StdoutClosed,
                    };
                    break End::Outcome(match &phase {
                        Phase::Connected { at, .. } => Outcome::Connected {
                            lived_ms: ms(ended_at.saturating_duration_since(*at)),
                            ended: how,
                        },
                        _ => Outcome::FailedToConnect(Failure::Message(before_handshake(&how))),
                    });
                }
            },
            () = tokio::time::sleep_until(handshake_deadline), if handshaking => {
                ended_at = Instant::now();
                break End::Outcome(Outcome::FailedToConnect(Failure::Message(
                    handshake::timeout_message(opts.protocol).to_string(),
                )));
            }
            () = tokio::time::sleep_until(deadline) => {
                ended_at = Instant::now();
                break match phase {
                    Phase::Connected { at, .. } => End::Outcome(Outcome::StillUp { lived_ms: ms(ended_at - at) }),
                    _ => End::Cut,
                };
            }
            () = tokio::time::sleep_until(watch_until), if !handshaking => {
                ended_at = Instant::now();
                let lived = connected_at.map_or(0.0, |c| ms(ended_at - c));
                break End::Outcome(Outcome::StillUp { lived_ms: lived });
            }
            () = tokio::time::sleep_until(opening_due), if !handshaking => {
                if let Phase::Connected { opening: Some(d), .. } = &mut phase {
                    for m in d.on_timer(Instant::now()) {
                        writer.send(frame(&m));
                    }
                }
            }
            () = tokio::time::sleep_until(ping_due), if !handshaking => {
                let now = Instant::now();
                if let Phase::Connected { at, pinger: Some(p), .. } = &mut phase {
                    match p.on_timer(now) {
                        PingAction::Send(v) => { writer.send(frame(&v)); }
                        PingAction::TimedOut => {
                            ended_at = now;
                            break End::Outcome(Outcome::Connected {
                                lived_ms: ms(now - *at),
                                ended: Ended::StoppedAnswering,
                            });
                        }
                        PingAction::Nothing => {}
                    }
                }
            }
        }
    };

    // How it ended on its own (before the probe stops it), and its memory until then.
    let process = ProcessFacts {
        exited: child.status().map(ended_of),
        memory: memory.finish(),
    };
    let (pings_sent, pings_answered) = match &phase {
        Phase::Connected {
            pinger: Some(p), ..
        } => (p.sent, p.answered),
        _ => (0, 0),
    };
    let close = match &end {
        End::Outcome(Outcome::StillUp { .. }) | End::Cut => Close::Watching,
        End::Outcome(_) => Close::Ended,
    };
    let opening = match phase {
        Phase::Connected {
            opening: Some(d), ..
        } => Some(d.finish(close, ended_at)),
        _ => None,
    };

    // From here on stdout is only drained (the reader sees no listener), so a server that
    // writes while it shuts down is never blocked on a full pipe.
    drop(messages);
    // Stop: close stdin, then the group the host's way (or at once when forced).
    let misbehaviour = Misbehaviour {
        unsent_messages: writer.unsent,
        ws_pings: 0,
    };
    drop(writer);
    writer_task.abort();
    let _ = writer_task.await;
    let stop_result = if opts.stop.level() >= StopLevel::Force {
        child.kill(process::GRACE).await
    } else {
        child
            .stop(process::GRACE, opts.stop.reached(StopLevel::Force))
            .await
    };
    // The pipes close once the whole group is gone; don't wait on anything that escaped it.
    let stderr_abort = stderr_task.abort_handle();
    let _ = tokio::time::timeout(Duration::from_millis(200), stderr_task).await;
    stderr_abort.abort();
    stdout_task.abort();

    let outcome = match end {
        End::Outcome(o) => Some(o),
        End::Cut => None,
    };
    let stopped = match stop_result {
        StopResult::AlreadyGone => Stopped::AlreadyGone,
        StopResult::AfterSigterm => Stopped::AfterSigterm,
        StopResult::AfterSigkill => Stopped::AfterSigkill,
        StopResult::Forced => Stopped::Forced,
        // The connection's own outcome is kept: the runner records it as the host does, then
        // halts with the attempt number the host would use next.
        StopResult::CouldNotBeReaped => Stopped::CouldNotBeReaped,
    };

    let stderr = match stderr_state.lock() {
        Ok(s) => StderrTail {
            // Already masked as they were read.
            lines: s.tail.lines().cloned().collect(),
            total_lines: s.tail.total_lines,
            total_bytes: s.total_bytes,
            notable: s.notable.iter().map(|l| redactor.redact(l)).collect(),
        },
        Err(_) => StderrTail::default(),
    };
    let stdout = noise.lock().map(|n| n.clone()).unwrap_or_default();

    Ok(AttemptReport {
        launched_at_ms: opts.ms_since_epoch(launched),
        launched_at_wall: launched_wall,
        pid: Some(pid),
        connected_at_ms: connected_at.map(|c| opts.ms_since_epoch(c)),
        server,
        ended_at_ms: opts.ms_since_epoch(ended_at),
        outcome,
        stopped,
        pings_sent,
        pings_answered,
        stderr,
        stdout,
        process: Some(process),
        misbehaviour,
        opening,
        escaped: child.escaped(),
    })
}

/// A JSON message over [`STDOUT_LINE_LIMIT`]: before the handshake's answer it is taken for the
/// answer, and the attempt fails saying how large it was (rather than waiting for the handshake
/// timeout); afterwards it is skipped (and counted).
fn overlong(len: u64, phase: &Phase) -> Option<Outcome> {
    match phase {
        Phase::Handshaking => Some(Outcome::FailedToConnect(Failure::Message(format!(
            "answer too large: {len} bytes (the probe reads messages of up to {} MiB)",
            STDOUT_LINE_LIMIT >> 20
        )))),
        Phase::Connected { .. } => None,
    }
}

/// Handle one message from the server; `Some` when it settles the attempt (a refused or failed
/// handshake).
fn on_message(
    v: &Value,
    phase: &mut Phase,
    opts: &AttemptOptions,
    writer: &mut Outbox,
    server: &mut Option<ServerInfo>,
    connected_at: &mut Option<Instant>,
    progress: &mut (dyn FnMut(Progress) + Send),
) -> Option<Outcome> {
    let now = Instant::now();
    match phase {
        Phase::Handshaking => match handshake::read_answer(opts.protocol, v, &opts.redactor) {
            Answer::NotYet => None,
            Answer::Connected(info) => {
                if let Some(n) = handshake::after_answer(opts.protocol) {
                    writer.send(frame(&n));
                }
                *connected_at = Some(now);
                *server = Some(info.clone());
                progress(Progress::Connected {
                    at_ms: opts.ms_since_epoch(now),
                    server: info,
                });
                let pinger = opts
                    .ping
                    .map(|p| Pinger::new(opts.protocol, p.every, p.timeout, now));
                let opening = (!opts.handshake_only).then(|| {
                    let mut d = OpeningDriver::new(
                        opts.protocol,
                        true,
                        v,
                        now,
                        opts.epoch,
                        opts.redactor.clone(),
                    );
                    for m in d.start(now) {
                        writer.send(frame(&m));
                    }
                    Box::new(d)
                });
                *phase = Phase::Connected {
                    at: now,
                    pinger,
                    opening,
                };
                None
            }
            Answer::Failed { error, server: s } => {
                *server = s;
                Some(Outcome::FailedToConnect(Failure::Message(error)))
            }
            Answer::Refused { error, server: s } => {
                *server = Some(s);
                Some(Outcome::Permanent(Failure::Message(error)))
            }
        },
        Phase::Connected {
            pinger, opening, ..
        } => {
            if let Some(p) = pinger {
                p.on_message(v, now);
            }
            match opening {
                Some(d) => {
                    for m in d.on_message(v, now) {
                        writer.send(frame(&m));
                    }
                }
                None => {
                    if let Some(reply) = handshake::reply_to_server_request(v) {
                        writer.send(frame(&reply));
                    }
                }
            }
            None
        }
    }
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}
