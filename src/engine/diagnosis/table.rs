//! The diagnoses as data: one row per kind of evidence, in the order they are tried (and
//! shown when equally sure). Several rows may give the same diagnosis. The interpreter in
//! [`super`] knows how to look for each kind of [`When`]; everything a row says (the texts it
//! matches, what it names, how sure it is, the next step) is here.

use crate::engine::probe::watch::limits::LimitKind;

pub(crate) use super::ids::{Confidence, Id};

/// How a row names the thing a matched line is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Name {
    /// Nothing to name.
    Nothing,
    /// The first quoted text after the needle: `Cannot find module 'express'`.
    Quoted,
    /// The first word after the needle: `require() of ES Module /x/y.js`.
    WordAfter,
    /// Quoted, else the first word.
    QuotedOrWord,
    /// An upper-case name on the line (a quoted one first): `API_KEY is not set`.
    EnvVar,
    /// A port on the line: `address already in use :::3000`.
    Port,
    /// The word before the needle: `sh: 1: nodee: not found`.
    CommandBefore,
    /// The whole line: `Please provide a database URL as a command-line argument`.
    Line,
}

impl Name {
    /// Whether a line that names nothing is no evidence for the row (a missing variable must be
    /// named; a port in use is one even when the line gives no number).
    pub(crate) fn required(self) -> bool {
        !matches!(self, Name::Nothing | Name::Port)
    }
}

/// A line of stderr that is evidence.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Text {
    /// The line contains this (case-sensitive).
    pub contains: &'static str,
    /// What it names.
    pub name: Name,
    /// The row only counts when some line of the same tail also contains this (`KeyError`
    /// only with `environ` in a frame).
    pub with: Option<&'static str>,
}

const fn text(contains: &'static str, name: Name) -> Text {
    Text {
        contains,
        name,
        with: None,
    }
}

/// The evidence a row looks for.
#[derive(Debug, Clone, Copy)]
pub(crate) enum When {
    /// The command could not be spawned: not found (ENOENT).
    SpawnNotFound,
    /// The command could not be spawned: permission denied (EACCES).
    SpawnDenied,
    /// The process exited with one of these codes (before or after its handshake); the thing
    /// is named from the first stderr line matching one of `named_by`.
    Exit {
        codes: &'static [i32],
        named_by: &'static [Text],
    },
    /// A line of the launch's stderr matches one of these (the first match names the thing).
    Stderr(&'static [Text]),
    /// A crash in the stderr tail: its error line and first frame (Node, Python, Rust, Go).
    CrashTrace,
    /// Killed by SIGKILL (or another signal) with its RSS rising to the end (`/proc` samples).
    KilledWithMemoryRising,
    /// Ended by one of these signals, which the probe had not sent; or exited with 128 plus one
    /// of them (a wrapper passing its child's death on).
    Signal(&'static [i32]),
    /// The connection ended while a host request was unanswered.
    RequestPending,
    /// Two or more connections lived the same time (within 5 % or 50 ms).
    SameLifetime,
    /// Lines on stdout that are not JSON-RPC.
    StdoutNoise,
    /// Exit 0 (or stdout closed) within this many ms of the handshake.
    QuietExitAfterHandshake { within_ms: f64 },
    /// A protocol-version refusal (-32022), or an answer with another version.
    VersionRefused,
    /// A resource limit too low for the server: a stderr line or a signal only that limit
    /// gives (`sure`, `signals`), or one it gives when the limit is known to be set (read from
    /// `/proc/PID/limits`: `if_limited`, `signals_if_limited`).
    Limited {
        limit: LimitKind,
        sure: &'static [Text],
        if_limited: &'static [Text],
        signals: &'static [i32],
        signals_if_limited: &'static [i32],
    },
    /// Ended by one of these signals of a crash in native code (or exit 128 plus one).
    NativeSignal(&'static [i32]),
    /// A line of stderr (not a stack frame) with one of these words that names a value the
    /// launch was given: an argument, or a variable's value (matched on word boundaries,
    /// relative paths also made absolute).
    NamesAValue(&'static [&'static str]),
    /// Ended (or stopped) while an installer in its process tree was still installing.
    InstallUnfinished,
    /// Its first process exited on its own while others of the launch kept running.
    LeftRunning,
    /// Before its handshake, a line of stderr or stdout says it listens for HTTP.
    ServesHttp,
    /// Exit 0 before its handshake: its stdin ended at once (read from `/proc/PID/fd/0`).
    StdinEnded,
}

/// One row.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Rule {
    pub id: Id,
    pub when: When,
    /// How sure the diagnosis is when this evidence is on a launch that died.
    pub confidence: Confidence,
    /// The diagnosis in a few words; `{}` is the thing named.
    pub says: &'static str,
    /// The same when nothing could be named.
    pub says_unnamed: &'static str,
    /// The one next step; `{}` is the thing named.
    pub next: &'static str,
    /// The same when nothing could be named.
    pub next_unnamed: &'static str,
    /// Diagnoses that explain the same launch better: when one of them is found on a launch,
    /// this row gives nothing for it.
    pub unless: &'static [Id],
}

/// Diagnoses a crash trace or a signal gives way to (they explain the crash).
const SPECIFIC: &[Id] = &[
    Id::CommandNotFound,
    Id::NotExecutable,
    Id::MissingScript,
    Id::MissingDependency,
    Id::PortInUse,
    Id::MissingEnvVar,
    Id::OutOfMemory,
    Id::ResourceLimit,
    Id::BadArgument,
    Id::MissingArgument,
    Id::WrongInterpreter,
    Id::RuntimeTooOld,
    Id::PackageNotFound,
    Id::BrokenNpxCache,
    Id::DependencyDrift,
];

/// Every row, in order.
pub(crate) const RULES: &[Rule] = &[
    Rule {
        id: Id::CommandNotFound,
        when: When::SpawnNotFound,
        confidence: Confidence::High,
        says: "`{}` was not found",
        says_unnamed: "the command was not found",
        next: "install `{}` or give its full path as `command` (the host starts it without a shell, with the PATH shown)",
        next_unnamed: "install the command or give its full path as `command` (the host starts it without a shell, with the PATH shown)",
        unless: &[],
    },
    Rule {
        id: Id::CommandNotFound,
        when: When::Exit {
            codes: &[127],
            named_by: &[
                text(": command not found", Name::CommandBefore),
                text(": not found", Name::CommandBefore),
                text(": No such file or directory", Name::CommandBefore),
            ],
        },
        confidence: Confidence::High,
        says: "`{}` was not found (exit 127)",
        says_unnamed: "a command it runs was not found (exit 127)",
        next: "install `{}` or use its full path in the wrapper that runs it (the PATH the server gets is shown)",
        next_unnamed: "install the missing command or use its full path in the wrapper that runs it (the PATH the server gets is shown)",
        unless: &[Id::MissingDependency, Id::MissingScript, Id::ResourceLimit],
    },
    Rule {
        id: Id::NotExecutable,
        when: When::SpawnDenied,
        confidence: Confidence::High,
        says: "`{}` cannot be executed",
        says_unnamed: "the command cannot be executed",
        next: "make `{}` executable (`chmod +x`) or run it through its interpreter (e.g. `node`, `python3`)",
        next_unnamed: "make the command executable (`chmod +x`) or run it through its interpreter (e.g. `node`, `python3`)",
        unless: &[],
    },
    Rule {
        id: Id::NotExecutable,
        when: When::Exit {
            codes: &[126],
            named_by: &[
                text(": Permission denied", Name::CommandBefore),
                text(": Is a directory", Name::CommandBefore),
            ],
        },
        confidence: Confidence::High,
        says: "`{}` cannot be executed (exit 126)",
        says_unnamed: "a command it runs cannot be executed (exit 126)",
        next: "make `{}` executable (`chmod +x`) or run it through its interpreter",
        next_unnamed: "make the command executable (`chmod +x`) or run it through its interpreter",
        unless: &[],
    },
    Rule {
        id: Id::ResourceLimit,
        when: When::Limited {
            limit: LimitKind::AddressSpace,
            sure: &[
                text("failed to map segment from shared object", Name::Nothing),
                text("Failed to reserve virtual memory for CodeRange", Name::Nothing),
            ],
            if_limited: &[
                text("Fatal process out of memory", Name::Nothing),
                text("Fatal process OOM", Name::Nothing),
                text("JavaScript heap out of memory", Name::Nothing),
                text("MemoryError", Name::Nothing),
                text("Cannot allocate memory", Name::Nothing),
                text("std::bad_alloc", Name::Nothing),
                text("uv_thread_create", Name::Nothing),
                text("runtime: out of memory", Name::Nothing),
                text("memory allocation of ", Name::Nothing),
            ],
            signals: &[],
            signals_if_limited: &[5, 6, 11],
        },
        confidence: Confidence::High,
        says: "it runs under an address-space limit of {}: too small to map its runtime and libraries",
        says_unnamed: "it hit an address-space limit (`ulimit -v`, or a container's): too small to map its runtime and libraries",
        next: "raise the address-space limit where the server is started (`ulimit -v unlimited` in the wrapper or the shell that starts the host, `LimitAS=` in a systemd unit): {} is too small for its runtime (Node alone reserves over 1 GiB)",
        next_unnamed: "raise the address-space limit where the server is started (`ulimit -v`, in the wrapper or the shell that starts the host; `LimitAS=` in a systemd unit); Node alone reserves over 1 GiB",
        unless: &[],
    },
    Rule {
        id: Id::ResourceLimit,
        when: When::Limited {
            limit: LimitKind::CpuTime,
            sure: &[],
            if_limited: &[],
            signals: &[24],
            signals_if_limited: &[9],
        },
        confidence: Confidence::High,
        says: "it runs under a CPU-time limit of {}, and used it up",
        says_unnamed: "it used up its CPU-time limit (SIGXCPU: `ulimit -t`)",
        next: "raise or remove the CPU-time limit where the server is started (`ulimit -t unlimited`, `LimitCPU=` in a systemd unit): {} of CPU is less than a long-running server uses",
        next_unnamed: "raise or remove the CPU-time limit where the server is started (`ulimit -t unlimited`, `LimitCPU=` in a systemd unit)",
        unless: &[],
    },
    Rule {
        id: Id::ResourceLimit,
        when: When::Limited {
            limit: LimitKind::OpenFiles,
            sure: &[
                text("EMFILE", Name::Nothing),
                text("Too many open files", Name::Nothing),
            ],
            if_limited: &[],
            signals: &[],
            signals_if_limited: &[],
        },
        confidence: Confidence::High,
        says: "it runs under an open-files limit of {}, and reached it",
        says_unnamed: "it ran out of file descriptors (EMFILE: `ulimit -n`)",
        next: "raise the open-files limit where the server is started (`ulimit -n 65536`, `LimitNOFILE=` in a systemd unit): {} is too few; if it still runs out, it leaks descriptors",
        next_unnamed: "raise the open-files limit where the server is started (`ulimit -n 65536`, `LimitNOFILE=` in a systemd unit); if it still runs out, it leaks descriptors",
        unless: &[],
    },
    Rule {
        id: Id::ResourceLimit,
        when: When::Limited {
            limit: LimitKind::Processes,
            sure: &[],
            if_limited: &[
                text("Resource temporarily unavailable", Name::Nothing),
                text("EAGAIN", Name::Nothing),
                text("can't start new thread", Name::Nothing),
                text("uv_thread_create", Name::Nothing),
            ],
            signals: &[],
            signals_if_limited: &[],
        },
        confidence: Confidence::High,
        says: "it runs under a processes limit of {}, and cannot start a thread or a process",
        says_unnamed: "it cannot start a thread or a process (a processes limit: `ulimit -u`)",
        next: "raise the processes limit where the server is started (`ulimit -u`, `LimitNPROC=` or `TasksMax=` in a systemd unit): {} counts every thread of the user",
        next_unnamed: "raise the processes limit where the server is started (`ulimit -u`, `LimitNPROC=` or `TasksMax=` in a systemd unit)",
        unless: &[],
    },
    Rule {
        // Node's "Cannot find module" naming a path: the script itself, not a dependency
        // (launch.rs keeps only a path; a package name is missing-dependency). CPython's
        // `python3: can't open file 'x.py': [Errno 2] ...` names the script as it was given.
        id: Id::MissingScript,
        when: When::Stderr(&[
            text("Cannot find module ", Name::Quoted),
            text("can't open file ", Name::Quoted),
        ]),
        confidence: Confidence::High,
        says: "`{}` does not exist",
        says_unnamed: "the script the server's interpreter was asked to run does not exist",
        next: "check the script's path: `{}` does not exist",
        next_unnamed: "check the script's path in the command's arguments",
        unless: &[Id::ResourceLimit, Id::BadArgument],
    },
    Rule {
        id: Id::MissingDependency,
        when: When::Stderr(&[
            text("Cannot find package ", Name::Quoted),
            text("Cannot find module ", Name::Quoted),
            text("require() of ES Module ", Name::WordAfter),
            text("ERR_REQUIRE_ESM", Name::Nothing),
            text("ModuleNotFoundError: No module named ", Name::Quoted),
            text("ImportError: cannot import name ", Name::Quoted),
            text("ImportError: No module named ", Name::QuotedOrWord),
            text("error while loading shared libraries: ", Name::WordAfter),
        ]),
        confidence: Confidence::High,
        says: "`{}` is not installed where the server looks for it",
        says_unnamed: "a module the server imports is missing",
        next: "install the server's dependencies where it runs (`npm install` / `pip install` in its folder, with the same interpreter), or fix the import of `{}`",
        next_unnamed: "install the server's dependencies where it runs (`npm install` / `pip install` in its folder, with the same interpreter)",
        unless: &[
            Id::MissingScript,
            Id::ResourceLimit,
            Id::BadArgument,
            Id::WrongInterpreter,
            Id::RuntimeTooOld,
            Id::PackageNotFound,
            Id::BrokenNpxCache,
            Id::DependencyDrift,
        ],
    },
    Rule {
        id: Id::HttpMode,
        when: When::ServesHttp,
        confidence: Confidence::High,
        says: "it serves HTTP ({}), not stdio",
        says_unnamed: "it serves HTTP, not stdio",
        next: "{}",
        next_unnamed: "start it in its stdio mode, or probe it with `--url`",
        unless: &[],
    },
    Rule {
        id: Id::PortInUse,
        when: When::Stderr(&[
            text("EADDRINUSE", Name::Port),
            text("address already in use", Name::Port),
            text("Address already in use", Name::Port),
            text("is already in use", Name::Port),
        ]),
        confidence: Confidence::High,
        says: "port {} is already in use",
        says_unnamed: "the port it listens on is already in use",
        next: "find what holds port {} (`ss -ltnp 'sport = :{}'`), likely an earlier instance still running; stop it, or give each instance its own port",
        next_unnamed: "find what holds the port (`ss -ltnp`), likely an earlier instance still running; stop it, or give each instance its own port",
        unless: &[],
    },
    Rule {
        id: Id::MissingEnvVar,
        when: When::Stderr(&[
            text("is not set", Name::EnvVar),
            text("environment variable", Name::EnvVar),
            text("Environment variable", Name::EnvVar),
            text("env var", Name::EnvVar),
            Text {
                contains: "KeyError: ",
                name: Name::EnvVar,
                with: Some("environ"),
            },
        ]),
        confidence: Confidence::High,
        says: "the environment variable `{}` is not set",
        says_unnamed: "an environment variable is not set",
        next: "set `{}` in the entry's `env`",
        next_unnamed: "set the variable the server names in the entry's `env`",
        unless: &[],
    },
    Rule {
        id: Id::OutOfMemory,
        when: When::Stderr(&[
            text("JavaScript heap out of memory", Name::Nothing),
            text("Reached heap limit", Name::Nothing),
            text("MemoryError", Name::Nothing),
            text("runtime: out of memory", Name::Nothing),
            text("memory allocation of ", Name::Nothing),
        ]),
        confidence: Confidence::High,
        says: "it ran out of memory",
        says_unnamed: "it ran out of memory",
        next: "find what grows (a heap snapshot, `--inspect`, tracemalloc); raise the limit only once it stops growing (`--max-old-space-size`)",
        next_unnamed: "find what grows (a heap snapshot, `--inspect`, tracemalloc); raise the limit only once it stops growing (`--max-old-space-size`)",
        unless: &[Id::ResourceLimit],
    },
    Rule {
        id: Id::OutOfMemory,
        when: When::KilledWithMemoryRising,
        confidence: Confidence::High,
        says: "it was killed with its memory rising (the OOM killer or a memory limit)",
        says_unnamed: "it was killed with its memory rising (the OOM killer or a memory limit)",
        next: "confirm with `journalctl -k | grep -i oom` (or the container's memory events) and find what grows in the server",
        next_unnamed: "confirm with `journalctl -k | grep -i oom` (or the container's memory events) and find what grows in the server",
        unless: &[Id::ResourceLimit],
    },
    Rule {
        id: Id::Crash,
        when: When::CrashTrace,
        confidence: Confidence::High,
        says: "it crashed: {}",
        says_unnamed: "it crashed",
        next: "fix the error at the frame shown (run the command by hand to see the whole trace)",
        next_unnamed: "fix the error at the frame shown (run the command by hand to see the whole trace)",
        unless: SPECIFIC,
    },
    Rule {
        id: Id::DiesOnRequest,
        when: When::RequestPending,
        confidence: Confidence::High,
        says: "it dies on the host's `{}` request",
        says_unnamed: "it dies on a host request",
        next: "send the server `{}` by hand (or run `probe --format events`) and fix its handler; `--handshake-only` probes it without that request meanwhile",
        next_unnamed: "run `probe --format events` to see the request it dies on and fix its handler; `--handshake-only` probes it without that request meanwhile",
        unless: &[],
    },
    Rule {
        id: Id::Timer,
        when: When::SameLifetime,
        confidence: Confidence::High,
        says: "every connection lived {}: a timer (an idle timeout or a deliberate exit)",
        says_unnamed: "every connection lived the same time: a timer",
        next: "look for a timeout of about {} in the server or what runs it (an idle timeout, a proxy closing idle connections)",
        next_unnamed: "look for a timeout in the server or what runs it (an idle timeout, a proxy closing idle connections)",
        unless: &[
            Id::Crash,
            Id::MissingDependency,
            Id::MissingScript,
            Id::PortInUse,
            Id::MissingEnvVar,
            Id::OutOfMemory,
            Id::DiesOnRequest,
            Id::ExitsAfterHandshake,
            Id::ResourceLimit,
            Id::FatalSignal,
            Id::BadArgument,
            Id::MissingArgument,
            Id::Backgrounded,
            Id::InstallCutShort,
        ],
    },
    Rule {
        id: Id::Timer,
        when: When::Exit {
            codes: &[124],
            named_by: &[],
        },
        confidence: Confidence::Medium,
        says: "a `timeout` wrapper ended it (exit 124)",
        says_unnamed: "a `timeout` wrapper ended it (exit 124)",
        next: "remove the `timeout` that wraps the command, or give it longer: a host keeps a server running as long as it is connected",
        next_unnamed: "remove the `timeout` that wraps the command, or give it longer: a host keeps a server running as long as it is connected",
        unless: &[Id::ResourceLimit, Id::Crash, Id::MissingDependency, Id::MissingScript, Id::MissingEnvVar],
    },
    Rule {
        id: Id::StdoutLogging,
        when: When::StdoutNoise,
        confidence: Confidence::High,
        says: "it writes logs to stdout, where only JSON-RPC may go",
        says_unnamed: "it writes logs to stdout, where only JSON-RPC may go",
        next: "send the server's logs to stderr (`console.error`, `print(..., file=sys.stderr)`, a logger on stderr); the host ignores other lines on stdout and a log glued to a message breaks it",
        next_unnamed: "send the server's logs to stderr (`console.error`, `print(..., file=sys.stderr)`, a logger on stderr); the host ignores other lines on stdout and a log glued to a message breaks it",
        unless: &[Id::HttpMode],
    },
    Rule {
        id: Id::ExitsAfterHandshake,
        when: When::QuietExitAfterHandshake { within_ms: 250.0 },
        confidence: Confidence::Medium,
        says: "it ends right after its handshake without an error: it believes its input ended or it was told to stop",
        says_unnamed: "it ends right after its handshake without an error: it believes its input ended or it was told to stop",
        next: "run it by hand with its stdin held open (`cat | COMMAND`): a server must read until its stdin closes; look for a one-shot mode, or a wrapper that closes its stdin",
        next_unnamed: "run it by hand with its stdin held open (`cat | COMMAND`): a server must read until its stdin closes; look for a one-shot mode, or a wrapper that closes its stdin",
        unless: &[Id::DiesOnRequest, Id::Backgrounded],
    },
    Rule {
        id: Id::KilledFromOutside,
        when: When::Signal(&[9, 15, 2, 1]),
        confidence: Confidence::Medium,
        says: "it was killed by {}, which the probe did not send",
        says_unnamed: "it was killed by a signal the probe did not send",
        next: "find who sends it: the kernel's OOM killer (`journalctl -k | grep -i oom`), a supervisor, a container limit or a script that kills old instances",
        next_unnamed: "find who sends it: the kernel's OOM killer (`journalctl -k | grep -i oom`), a supervisor, a container limit or a script that kills old instances",
        unless: &[Id::OutOfMemory, Id::Crash, Id::ResourceLimit],
    },
    Rule {
        id: Id::FatalSignal,
        when: When::NativeSignal(&[5, 6, 11, 7, 4, 8]),
        confidence: Confidence::High,
        says: "it died of {}",
        says_unnamed: "it died of a signal of a crash in native code",
        next: "{}",
        next_unnamed: "update the runtime and the server's native modules (`npm rebuild`, reinstall its wheels); run it by hand with `ulimit -c unlimited` to get a core dump",
        unless: &[
            Id::CommandNotFound,
            Id::NotExecutable,
            Id::MissingDependency,
            Id::MissingScript,
            Id::PortInUse,
            Id::MissingEnvVar,
            Id::OutOfMemory,
            Id::ResourceLimit,
            Id::Crash,
        ],
    },
    Rule {
        id: Id::InstallCutShort,
        when: When::InstallUnfinished,
        confidence: Confidence::High,
        says: "it was still installing ({}) when the launch ended: a first start longer than the host waits",
        says_unnamed: "it was still installing when the launch ended: a first start longer than the host waits",
        next: "install the package once before the host starts it (run the entry's command in a terminal until it serves, or install it globally and use its command), or give the host a longer start budget (probe: --start-budget)",
        next_unnamed: "install the package once before the host starts it (run the entry's command in a terminal until it serves, or install it globally and use its command), or give the host a longer start budget (probe: --start-budget)",
        unless: &[Id::PackageNotFound, Id::BrokenNpxCache, Id::RuntimeTooOld],
    },
    Rule {
        id: Id::Backgrounded,
        when: When::LeftRunning,
        confidence: Confidence::High,
        says: "the command exited and left {} running: it starts the server in the background",
        says_unnamed: "the command exited and left the server running in the background",
        next: "run the server in the foreground: drop the `&` (or `nohup`, `--daemon`, `--detach`) from the command, or `exec` it as the wrapper's last line; a host talks to the process it started, over its stdin and stdout, and takes that process's exit for the server's end",
        next_unnamed: "run the server in the foreground: drop the `&` (or `nohup`, `--daemon`, `--detach`) from the command, or `exec` it as the wrapper's last line; a host talks to the process it started, over its stdin and stdout, and takes that process's exit for the server's end",
        unless: &[],
    },
    Rule {
        id: Id::StdinClosed,
        when: When::StdinEnded,
        confidence: Confidence::High,
        says: "its stdin ended at once",
        says_unnamed: "its stdin ended at once",
        next: "{}",
        next_unnamed: "give the server the host's stdin",
        unless: &[
            Id::CommandNotFound,
            Id::NotExecutable,
            Id::MissingDependency,
            Id::MissingScript,
            Id::PortInUse,
            Id::MissingEnvVar,
            Id::ResourceLimit,
            Id::Crash,
            Id::BadArgument,
            Id::MissingArgument,
            Id::WrongInterpreter,
            Id::RuntimeTooOld,
            Id::PackageNotFound,
            Id::BrokenNpxCache,
            Id::DependencyDrift,
            Id::InstallCutShort,
            Id::Backgrounded,
            Id::HttpMode,
        ],
    },
    Rule {
        id: Id::WrongProtocol,
        when: When::VersionRefused,
        confidence: Confidence::High,
        says: "it speaks another protocol version than this entry's ({} handshake)",
        says_unnamed: "it speaks another protocol version than this entry's",
        next: "{}",
        next_unnamed: "set the entry's `protocol` to the handshake the server speaks",
        unless: &[],
    },
    // The server's own words about what it was given (the next step is written from the
    // argument or variable it names: see `words.rs`).
    Rule {
        id: Id::BadArgument,
        when: When::NamesAValue(&[
            "not a valid",
            "is not a ",
            "is not an ",
            "does not exist",
            "doesn't exist",
            "not exist",
            "Cannot access",
            "cannot access",
            "Can't access",
            "No such file",
            "no such file",
            "ENOENT",
            "EACCES",
            "ENOTDIR",
            "Permission denied",
            "permission denied",
            "not found",
            "Not found",
            "NotFound",
            "nvalid",
            "nknown",
            "nrecognized",
            "No such option",
            "not accessible",
            "NoSuchPathError",
            "NotADirectoryError",
            "FileNotFoundError",
            "No time zone found",
            "must be",
            "xpected",
            "ailed to",
            "ould not",
            "nable to",
            "rror",
        ]),
        confidence: Confidence::High,
        says: "the server rejects {}",
        says_unnamed: "the server rejects a value it was given",
        next: "change {} in the entry's args",
        next_unnamed: "change the value the server names in the entry's args",
        unless: &[
            Id::CommandNotFound,
            Id::WrongInterpreter,
            Id::RuntimeTooOld,
            Id::PackageNotFound,
            Id::BrokenNpxCache,
            Id::DependencyDrift,
        ],
    },
    Rule {
        id: Id::MissingArgument,
        when: When::Stderr(&[
            text("Please provide ", Name::Line),
            text("please provide ", Name::Line),
            text("the following arguments are required", Name::Line),
            text("Missing option ", Name::Line),
            text("Missing argument ", Name::Line),
            text("missing required argument", Name::Line),
            text("required option ", Name::Line),
            text("requires at least one", Name::Line),
            text("must be provided", Name::Line),
            // A usage line alone says less (medium: see `words.rs`).
            text("Usage: ", Name::Line),
            text("usage: ", Name::Line),
        ]),
        confidence: Confidence::High,
        says: "it was started without an argument it needs",
        says_unnamed: "it was started without an argument it needs",
        next: "add the argument it asks for to the entry's args (it says: \"{}\")",
        next_unnamed: "add the argument it asks for to the entry's args",
        unless: &[Id::BadArgument, Id::MissingEnvVar, Id::MissingDependency, Id::MissingScript],
    },
    // Runtime and install (the next step is written from the line: see `runtime.rs`).
    Rule {
        // `python -m PKG` of a package without `__main__`: the interpreter has it; the module
        // in the entry's args is the fix (`no_main.rs` asks the interpreter which one).
        id: Id::BadArgument,
        when: When::Stderr(&[text(
            "is a package and cannot be directly executed",
            Name::Nothing,
        )]),
        confidence: Confidence::High,
        says: "the package given to `python -m` has no `__main__`",
        says_unnamed: "the package given to `python -m` has no `__main__`",
        next: "run the package's server command (its console script) or the module of it that runs (`-m PKG.server`) in place of `-m PKG` in the entry's args",
        next_unnamed: "run the package's server command (its console script) or the module of it that runs (`-m PKG.server`) in place of `-m PKG` in the entry's args",
        unless: &[],
    },
    Rule {
        id: Id::WrongInterpreter,
        when: When::Stderr(&[text(": No module named ", Name::QuotedOrWord)]),
        confidence: Confidence::High,
        says: "the interpreter that ran it has no module `{}`",
        says_unnamed: "the interpreter that ran it lacks the server's module",
        next: "run it with the interpreter of the environment where `{}` is installed",
        next_unnamed: "run it with the interpreter of the environment where the server is installed",
        unless: &[],
    },
    Rule {
        id: Id::RuntimeTooOld,
        when: When::Stderr(&[
            text("cannot import name ", Name::Quoted),
            text("ModuleNotFoundError: No module named ", Name::Quoted),
            text("unsupported operand type(s) for |", Name::Nothing),
            text("SyntaxError: invalid syntax", Name::Nothing),
            text("Unsupported engine", Name::Nothing),
            text("Unexpected token '", Name::Nothing),
            text(" is not defined", Name::Nothing),
            text(" is not a function", Name::Nothing),
        ]),
        confidence: Confidence::High,
        says: "the server needs {}",
        says_unnamed: "the server needs a newer runtime",
        next: "run it with {} or newer",
        next_unnamed: "run it with a newer runtime",
        unless: &[],
    },
    Rule {
        id: Id::PackageNotFound,
        when: When::Stderr(&[
            text("is not in this registry", Name::Nothing),
            text("404 Not Found - GET ", Name::Nothing),
            text("No matching distribution found for ", Name::WordAfter),
            text("was not found in the package registry", Name::Nothing),
        ]),
        confidence: Confidence::High,
        says: "the registry has no package `{}`",
        says_unnamed: "the registry has no package of that name",
        next: "check the package name `{}` in the entry's args",
        next_unnamed: "check the package name in the entry's args",
        unless: &[],
    },
    Rule {
        id: Id::BrokenNpxCache,
        when: When::Stderr(&[Text {
            contains: "/_npx/",
            name: Name::Nothing,
            with: Some("Cannot find "),
        }]),
        confidence: Confidence::High,
        says: "npx's cached copy of the package is incomplete: {}",
        says_unnamed: "npx's cached copy of the package is incomplete",
        next: "delete {}; the next launch installs the package again",
        next_unnamed: "delete the `~/.npm/_npx/<hash>` folder named above; the next launch installs the package again",
        unless: &[],
    },
    Rule {
        id: Id::DependencyDrift,
        when: When::Stderr(&[
            text("cannot import name ", Name::Quoted),
            text("does not provide an export named ", Name::Quoted),
            // Checked against the importing file: see `runtime.rs`.
            Text {
                contains: "AttributeError: ",
                name: Name::Nothing,
                with: Some("-packages/"),
            },
        ]),
        confidence: Confidence::High,
        says: "a dependency no longer has `{}`, which the server imports",
        says_unnamed: "a dependency changed under the server",
        next: "pin the dependency to the version the server was built with",
        next_unnamed: "pin the dependency to the version the server was built with",
        unless: &[Id::RuntimeTooOld],
    },
];

/// Lines that are never evidence for a stderr row: runtimes' own hints and warnings, which name
/// variables and flags that have nothing to do with the end (`note: run with `RUST_BACKTRACE=1`
/// environment variable ...`, `(node:123) Warning: Setting the NODE_TLS_REJECT_UNAUTHORIZED
/// environment variable ...`).
/// (The list is the probe's [`RUNTIME_HINTS`](crate::engine::probe::model::RUNTIME_HINTS), which its
/// opening summary reads too.)
pub(crate) const NOT_EVIDENCE: &[&str] = crate::engine::probe::model::RUNTIME_HINTS;

/// Whether a stderr line is evidence for some stderr row (kept for the diagnosis even when it
/// scrolls out of the tail).
pub(crate) fn is_notable(line: &str) -> bool {
    line.len() <= 1024
        && !NOT_EVIDENCE.iter().any(|n| line.contains(n))
        && (crate::engine::probe::wire::http_mode::listening(line).is_some()
            || super::cli_parsers::is_parser_error(line)
            || super::logline::parse(line).is_some_and(|l| l.is_error())
            || RULES.iter().any(|r| match r.when {
                When::Stderr(texts) => texts.iter().any(|t| line.contains(t.contains)),
                When::Limited {
                    sure, if_limited, ..
                } => sure
                    .iter()
                    .chain(if_limited)
                    .any(|t| line.contains(t.contains)),
                _ => false,
            }))
}

/// What `cause-unknown` says (its next step names what was seen: see `run.rs`).
pub(crate) const UNKNOWN_SAYS: &str = "no known pattern in what was seen";
