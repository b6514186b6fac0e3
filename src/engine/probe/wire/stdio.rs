//! One attempt against a command over stdio: the child in its own process group, NDJSON on its
//! stdin and stdout, stderr drained into a bounded tail, the host's way of stopping it.

use std::ffi::OsString;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::Value;
use tokio::io::AsyncWriteExt;
use tokio::process::{ChildStderr, ChildStdin, ChildStdout};
use tokio::sync::mpsc;
use tokio::task::JoinHandle;
use tokio::time::Instant;

use super::http_mode;
use super::stdio_spawn::{ended_of, launch_error};
use crate::engine::policy::Ended;
use crate::engine::probe::model::{
    AttemptOptions, AttemptReport, LaunchError, Misbehaviour, NotableStderr, ProcessFacts,
    Progress, Protocol, StderrTail, StdoutNoise, Stopped,
};
use crate::engine::probe::read::help::{self, HelpBlock, Part};
use crate::engine::probe::read::lines::{without_colour, LineReader, Tail};
use crate::engine::probe::read::long_message;
use crate::engine::probe::session::handshake::{self, Answer, Incoming};
use crate::engine::probe::session::initialize;
use crate::engine::probe::session::{self, Closing, Gone, Received, Remains, Sent, Transport};
use crate::engine::probe::stop::{StopLevel, StopSignal};
use crate::engine::probe::watch::limits;
use crate::engine::probe::watch::memory;
use crate::engine::probe::watch::sockets;
use crate::engine::probe::watch::tree_watch::TreeWatch;
use crate::engine::process::{self, GroupChild, StopResult};
use crate::engine::redact::Redactor;

/// The longest stdout line kept whole (4 MiB). A longer one that may be an answer is parsed as
/// it is read, up to the host's own limit (`long_message`); other longer lines are skipped and
/// counted, and one that fails before the handshake's answer fails the attempt with its size.
pub(crate) const STDOUT_LINE_LIMIT: usize = 4 * 1024 * 1024;
/// At most this much waits for a server that does not read its stdin (replies, pings); past it
/// the probe stops answering (a finding) rather than queue more. An empty queue always takes
/// one message, whatever its size.
pub(crate) const MAX_UNSENT: usize = 1024 * 1024;
/// The longest stderr line kept (the rest is dropped), and the tail's size in bytes (8 KiB).
pub(crate) const STDERR_TAIL_BYTES: usize = 8 * 1024;
/// The tail's size in lines.
pub(crate) const STDERR_TAIL_LINES: usize = 20;
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
pub(crate) struct StdioTarget {
    pub command: OsString,
    pub args: Vec<OsString>,
    /// The child's whole environment (`None`: inherit the probe's own, as for a bare command).
    pub env: Option<Vec<(OsString, OsString)>>,
    /// Working directory (`None`: the probe's).
    pub cwd: Option<PathBuf>,
    /// Who plays the host's side of the handshake (agent-framework, or an editor's client).
    pub client: initialize::Client,
}

impl StdioTarget {
    /// `command args...`, redacted, for a person.
    pub(crate) fn describe(&self, redactor: &Redactor) -> String {
        let mut parts = vec![self.command.to_string_lossy().into_owned()];
        parts.extend(self.args.iter().map(|a| a.to_string_lossy().into_owned()));
        redactor.redact(&parts.join(" "))
    }

    /// The values of the command line's secret options (`--token VALUE`, `--api-key=VALUE`...)
    /// and other shapes (see [`crate::engine::redact::secret_args`]), and of the secret-looking
    /// variables of the environment the server gets (its own, or the probe's it inherits).
    pub(crate) fn secrets(&self) -> Vec<String> {
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

/// What the stdout reader hands over: messages, and lines over the limit (their length);
/// noise is counted in [`StdoutNoise`].
enum StdoutItem {
    Message(Value),
    Overlong(u64),
}

/// When a line of the server's said it listens for HTTP (see [`http_mode`]).
type HttpSeen = Arc<Mutex<Option<Instant>>>;

fn note_http(seen: &HttpSeen, line: &str) {
    if http_mode::listening(line).is_some() {
        if let Ok(mut s) = seen.lock() {
            s.get_or_insert_with(Instant::now);
        }
    }
}

fn spawn_stdout_reader(
    stdout: ChildStdout,
    noise: Arc<Mutex<StdoutNoise>>,
    redactor: Arc<Redactor>,
    http: HttpSeen,
) -> (mpsc::Receiver<StdoutItem>, JoinHandle<()>) {
    let (tx, rx) = mpsc::channel(CHANNEL);
    let task = tokio::spawn(async move {
        let mut reader = LineReader::new(stdout, STDOUT_LINE_LIMIT);
        loop {
            let Some(line) = reader.next_head().await else {
                break;
            };
            let item = if line.truncated {
                // A message (it opens as a JSON object) too long to keep that may be an
                // answer is parsed as it is read (the host reads it: a big tools/list page);
                // other overlong lines (noise, a request, a notification) are skipped.
                let json_like = line
                    .bytes
                    .iter()
                    .find(|b| !b.is_ascii_whitespace())
                    .is_some_and(|b| *b == b'{');
                let read = json_like
                    && crate::engine::probe::read::bounded_json::may_be_an_answer(line.bytes);
                let parsed = if read {
                    let head = reader.take_head();
                    long_message::read(&mut reader, head).await
                } else {
                    Err(0)
                };
                match parsed {
                    Ok(v) => Some(StdoutItem::Message(v)),
                    Err(len) => {
                        if let Ok(mut n) = noise.lock() {
                            n.overlong_lines += 1;
                        }
                        read.then_some(StdoutItem::Overlong(len))
                    }
                }
            } else {
                match handshake::classify(line.bytes) {
                    Incoming::Blank => {
                        StdoutNoise::keep_blank(&noise);
                        None
                    }
                    Incoming::Message(v) => Some(StdoutItem::Message(v)),
                    Incoming::NotJsonRpc => {
                        let text = String::from_utf8_lossy(line.bytes);
                        note_http(&http, &text);
                        if let Ok(mut n) = noise.lock() {
                            n.non_json_lines += 1;
                            n.keep(&redactor.redact(&text));
                            // The line that says it serves HTTP is kept among the first few.
                            let listens = n.samples.len() == NOISE_SAMPLES
                                && http_mode::listening(&text).is_some()
                                && !n.samples.iter().any(|x| http_mode::listening(x).is_some());
                            if n.samples.len() < NOISE_SAMPLES || listens {
                                let text = redactor.redact(&text);
                                let short: String = text.chars().take(NOISE_SAMPLE_CHARS).collect();
                                if listens {
                                    n.samples.pop();
                                }
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
    /// The head of Node's report of an uncaught error, kept past the tail.
    head: crate::engine::probe::read::crash_head::CrashHead,
    /// Where the lines stand in a help text (its flag list is no cause, however it is worded).
    help: HelpBlock,
}

fn spawn_stderr_reader(
    stderr: ChildStderr,
    state: Arc<Mutex<StderrState>>,
    redactor: Arc<Redactor>,
    http: HttpSeen,
    is_notable: NotableStderr,
) -> JoinHandle<()> {
    tokio::spawn(async move {
        let mut reader = LineReader::new(stderr, STDERR_TAIL_BYTES);
        while let Some(line) = reader.next_line().await {
            note_http(&http, &String::from_utf8_lossy(line.bytes));
            // Masked before anything is cut: a line cut at the limit hides a secret that the
            // cut fell inside, so no secret's first part is ever kept.
            let text = String::from_utf8_lossy(line.bytes);
            let text = without_colour(&text);
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
                // A help text's flags and their descriptions (`Falls back to the X environment
                // variable`) are never notable: they would push the error out of the ring. Its
                // usage line is, with the line above it.
                let part = s.help.feed(&text);
                let usage = part == Part::Start && help::starts_usage(&text);
                if s.tail.total_lines < NOTABLE_SCAN_LINES
                    && part != Part::Body
                    && (usage || is_notable(&text))
                {
                    // The line above a usage text is most often the error it answers (`X must
                    // be a full URL`, then `Usage: ...`), or the paragraph an error line heads
                    // (cobra's `Error: ...` and a hint, then `Usage:`): kept with it.
                    let above = if usage {
                        let tail: Vec<&String> = s.tail.lines().collect();
                        help::kept_above_usage(&tail)
                    } else {
                        Vec::new()
                    };
                    let above: Vec<String> = above
                        .into_iter()
                        .filter(|p| !s.notable.contains(p))
                        .collect();
                    for t in above.into_iter().chain(std::iter::once(text.clone())) {
                        if s.notable.len() == NOTABLE_LINES {
                            s.notable.pop_front();
                        }
                        s.notable.push_back(t);
                    }
                }
                s.head.feed(&text);
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

/// Read before a launch is stopped: whether it is still running with nothing at all written
/// on stdout, and, when it is running and sent no message, the TCP ports its processes listen
/// on.
fn silent_and_listening(
    child: &GroupChild,
    running: bool,
    answered: bool,
    noise: &Mutex<StdoutNoise>,
) -> (bool, Vec<sockets::Listening>) {
    let silent = running && noise.lock().is_ok_and(|n| n.total_bytes == 0);
    if !running || answered {
        return (silent, Vec::new());
    }
    let mut pids = crate::engine::process_tree::running_of(child.marker());
    if !pids.contains(&child.pid()) {
        pids.insert(0, child.pid());
    }
    (silent, sockets::listening(&pids))
}

/// The commands of what launch `marker` still runs (at most 3, redacted).
fn left_running(marker: &str, redactor: &Redactor) -> Vec<String> {
    crate::engine::process_tree::running_of(marker)
        .into_iter()
        .filter_map(|pid| {
            let raw = std::fs::read(format!("/proc/{pid}/cmdline")).ok()?;
            let words: Vec<String> = raw
                .split(|b| *b == 0)
                .filter(|a| !a.is_empty())
                .map(|a| String::from_utf8_lossy(a).into_owned())
                .collect();
            (!words.is_empty()).then(|| redactor.redact(&words.join(" ")))
        })
        .take(3)
        .collect()
}

fn frame(v: &Value) -> Vec<u8> {
    let mut bytes = serde_json::to_vec(v).unwrap_or_default();
    bytes.push(b'\n');
    bytes
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

/// The failure for a line over [`STDOUT_LINE_LIMIT`] that may be an answer but could not be
/// read as one, before the handshake's answer (it is taken for the answer rather than waiting
/// for the handshake's deadline; afterwards it is skipped and counted).
fn too_large(len: u64) -> Received {
    Received::Overlong {
        why: format!(
            "unreadable answer: {len} bytes on one line, not a JSON-RPC message or over the \
             host's {} MiB",
            long_message::HOST_LINE_LIMIT >> 20
        ),
    }
}

/// Launch `target` once, do the handshake, watch the connection until it ends (or the watch,
/// the deadline or a stop request ends the observation), stop the process group the host's way,
/// and report. `Err` only when the command cannot be launched at all.
pub(crate) async fn attempt(
    target: &StdioTarget,
    opts: &AttemptOptions,
    progress: &mut (dyn FnMut(Progress) + Send),
) -> Result<AttemptReport, LaunchError> {
    let transport = StdioTransport {
        target,
        epoch: opts.epoch,
        redactor: opts.redactor.clone(),
        notable_stderr: opts.notable_stderr,
        running: None,
    };
    session::play(transport, opts, progress).await
}

/// A command's stdio as a [`Transport`]: NDJSON on its stdin and stdout.
struct StdioTransport<'a> {
    target: &'a StdioTarget,
    epoch: Instant,
    redactor: Arc<Redactor>,
    notable_stderr: NotableStderr,
    running: Option<Running>,
}

/// The launched process and the tasks that read and write its pipes.
struct Running {
    child: GroupChild,
    memory: memory::Sampler,
    limits: limits::Watcher,
    tree: TreeWatch,
    noise: Arc<Mutex<StdoutNoise>>,
    stderr_state: Arc<Mutex<StderrState>>,
    http: HttpSeen,
    messages: mpsc::Receiver<StdoutItem>,
    stdout_open: bool,
    /// A JSON-RPC message came on stdout.
    answered: bool,
    stdout_task: JoinHandle<()>,
    stderr_task: JoinHandle<()>,
    writer: Outbox,
    writer_task: JoinHandle<()>,
    ending: Option<Ending>,
}

/// The end, once seen.
#[derive(Clone)]
enum Ending {
    /// The process exited at `at`: what it wrote before is read until `settle_until`.
    Exited {
        how: Ended,
        at: Instant,
        settle_until: Instant,
    },
    /// Its stdout closed at `at`: its exit usually follows at once.
    StdoutClosed { at: Instant },
}

fn gone(at: Instant, how: Ended) -> Received {
    Received::Gone(Gone {
        at,
        before_handshake: before_handshake(&how),
        ended: how,
    })
}

impl Running {
    /// What the process wrote after its end was seen, then how it ended.
    async fn after_end(&mut self, ending: Ending) -> Received {
        match ending {
            Ending::Exited {
                how,
                at,
                settle_until,
            } => {
                if self.stdout_open {
                    tokio::select! {
                        m = self.messages.recv() => match m {
                            Some(StdoutItem::Message(v)) => return Received::Message(v),
                            Some(StdoutItem::Overlong(len)) => return too_large(len),
                            None => self.stdout_open = false,
                        },
                        () = tokio::time::sleep_until(settle_until) => {}
                    }
                }
                gone(at, how)
            }
            Ending::StdoutClosed { at } => {
                let how = tokio::select! {
                    s = self.child.wait() => s.map(ended_of).unwrap_or(Ended::Unknown),
                    () = tokio::time::sleep(SETTLE) => Ended::StdoutClosed,
                };
                gone(at, how)
            }
        }
    }

    async fn recv(&mut self) -> Received {
        if let Some(ending) = self.ending.clone() {
            return self.after_end(ending).await;
        }
        tokio::select! {
            biased;
            status = self.child.wait() => {
                let at = Instant::now();
                let how = status.map(ended_of).unwrap_or(Ended::Unknown);
                // Read what it wrote before it exited (its answer may still be in the pipe).
                let settle_until = Instant::now() + SETTLE;
                self.ending = Some(Ending::Exited { how, at, settle_until });
                Received::Ending { at }
            }
            m = self.messages.recv(), if self.stdout_open => match m {
                Some(StdoutItem::Message(v)) => {
                    self.answered = true;
                    Received::Message(v)
                }
                Some(StdoutItem::Overlong(len)) => too_large(len),
                None => {
                    let at = Instant::now();
                    self.stdout_open = false;
                    self.ending = Some(Ending::StdoutClosed { at });
                    Received::Ending { at }
                }
            },
        }
    }

    /// Stop the process group the host's way (or at once when forced) and report. `env` is the
    /// server's environment (where an installer's cache is).
    async fn stop(
        self,
        stop: &StopSignal,
        redactor: &Redactor,
        env: Option<&[(OsString, OsString)]>,
    ) -> Remains {
        let Running {
            mut child,
            memory,
            limits,
            tree,
            noise,
            stderr_state,
            messages,
            stdout_task,
            stderr_task,
            writer,
            writer_task,
            answered,
            ..
        } = self;
        // How it ended on its own (before the probe stops it), and its memory until then.
        let exited = child.status().map(ended_of);
        let (silent, listening) = silent_and_listening(&child, exited.is_none(), answered, &noise);
        // What of the launch still runs once its first process exited on its own.
        let left_running = if exited.is_some() {
            left_running(child.marker(), redactor)
        } else {
            Vec::new()
        };
        let install = tree.finish(env).map(|mut i| {
            i.folders = i.folders.iter().map(|f| redactor.redact(f)).collect();
            i
        });
        let process = ProcessFacts {
            exited,
            memory: memory.finish(),
            stdin: limits.stdin().map(|s| redactor.redact(&s)),
            limits: limits.finish(),
            install,
            left_running,
            listening,
            silent,
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
        let stop_result = if stop.level() >= StopLevel::Force {
            child.kill(process::GRACE).await
        } else {
            child
                .stop(process::GRACE, stop.reached(StopLevel::Force))
                .await
        };
        // The pipes close once the whole group is gone; don't wait on anything that escaped it.
        let stderr_abort = stderr_task.abort_handle();
        let _ = tokio::time::timeout(Duration::from_millis(200), stderr_task).await;
        stderr_abort.abort();
        stdout_task.abort();
        let stopped = match stop_result {
            StopResult::AlreadyGone => Stopped::AlreadyGone,
            StopResult::AfterSigterm => Stopped::AfterSigterm,
            StopResult::AfterSigkill => Stopped::AfterSigkill,
            StopResult::Forced => Stopped::Forced,
            // The connection's own outcome is kept: the runner records it as the host does,
            // then halts with the attempt number the host would use next.
            StopResult::CouldNotBeReaped => Stopped::CouldNotBeReaped,
        };
        let stderr = match stderr_state.lock() {
            Ok(s) => StderrTail {
                // Already masked as they were read.
                lines: s.tail.lines().cloned().collect(),
                total_lines: s.tail.total_lines,
                total_bytes: s.total_bytes,
                notable: s.notable.iter().map(|l| redactor.redact(l)).collect(),
                head: s.head.lines().to_vec(),
            },
            Err(_) => StderrTail::default(),
        };
        let stdout = noise.lock().map(|n| n.clone()).unwrap_or_default();
        Remains {
            stopped: Some(stopped),
            stderr,
            stdout,
            process: Some(process),
            escaped: child.escaped(),
            misbehaviour,
            get_stream: None,
            session: Default::default(),
        }
    }
}

impl Transport for StdioTransport<'_> {
    fn redactor(&self) -> Arc<Redactor> {
        self.redactor.clone()
    }

    fn first_request(&self, protocol: Protocol) -> Value {
        initialize::stdio_first_request(self.target.client, protocol)
    }

    fn read_answer(&self, protocol: Protocol, msg: &Value, redactor: &Redactor) -> Answer {
        initialize::stdio_read_answer(self.target.client, protocol, msg, redactor)
    }

    fn launch(&mut self) -> Result<Option<u32>, LaunchError> {
        let redactor = self.redactor.clone();
        let mut cmd = self.target.command();
        let spawned = process::spawn(&mut cmd).map_err(|e| {
            let t = self.target;
            launch_error(
                &t.command,
                t.cwd.as_deref(),
                t.env.as_deref(),
                &e,
                &redactor,
            )
        })?;
        let child: GroupChild = spawned.child;
        let pid = child.pid();
        let memory = memory::Sampler::start(pid, self.epoch);
        let limits = limits::Watcher::start(pid);
        let tree = TreeWatch::start(pid);
        let noise = Arc::new(Mutex::new(StdoutNoise::default()));
        let stderr_state = Arc::new(Mutex::new(StderrState {
            tail: Tail::new(STDERR_TAIL_LINES, STDERR_TAIL_BYTES),
            total_bytes: 0,
            notable: Default::default(),
            head: Default::default(),
            help: HelpBlock::new(),
        }));
        let http = HttpSeen::default();
        let (messages, stdout_task) = spawn_stdout_reader(
            spawned.stdout,
            noise.clone(),
            redactor.clone(),
            http.clone(),
        );
        let stderr_task = spawn_stderr_reader(
            spawned.stderr,
            stderr_state.clone(),
            redactor,
            http.clone(),
            self.notable_stderr,
        );
        let (writer, writer_task) = spawn_writer(spawned.stdin);
        self.running = Some(Running {
            child,
            memory,
            limits,
            tree,
            noise,
            stderr_state,
            http,
            messages,
            stdout_open: true,
            answered: false,
            stdout_task,
            stderr_task,
            writer,
            writer_task,
            ending: None,
        });
        Ok(Some(pid))
    }

    type OpenError = std::convert::Infallible;

    async fn open(&mut self) -> Result<(), Self::OpenError> {
        Ok(())
    }

    async fn send(&mut self, msg: &Value, _until: Instant) -> Sent {
        // Never waits: a server that does not read its stdin fills the bounded queue, and what
        // does not fit is counted as unsent.
        if let Some(r) = self.running.as_mut() {
            r.writer.send(frame(msg));
        }
        Sent::Done
    }

    async fn recv(&mut self) -> Received {
        match self.running.as_mut() {
            Some(r) => r.recv().await,
            None => std::future::pending().await,
        }
    }

    fn is_stdio(&self) -> bool {
        true
    }

    fn installing(&self) -> bool {
        self.running.as_ref().is_some_and(|r| r.tree.installing())
    }

    fn serves_http(&self) -> Option<Instant> {
        let r = self.running.as_ref()?;
        r.http.lock().ok().and_then(|s| *s)
    }

    async fn close(self, _how: Closing, stop: &StopSignal) -> Remains {
        match self.running {
            Some(r) => {
                r.stop(stop, &self.redactor, self.target.env.as_deref())
                    .await
            }
            None => Remains::default(),
        }
    }
}
