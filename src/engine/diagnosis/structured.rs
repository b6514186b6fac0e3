//! Rules keyed on typed evidence ([`super::evidence`]): an exception type, an error code, a
//! usage or choice structure, a validation block, each tied to the entry's own values (which
//! argument or variable holds what the server complains about) and, where a human would check,
//! tested by a bounded experiment (connect to the host:port; ask the `node` that runs it for
//! its version; read the package's manifest in npx's cache), shown as `tried:` evidence.
//!
//! These rows run after the table's: they replace only a generic answer (`crash`,
//! `cause-unknown`, a usage line read as `missing-argument`, `timer`), never a specific one.

use super::asked_rows;
pub(super) use super::connect::{connects, service_of};
use super::drift_rows;
use super::entry_rows;
use super::env_rows;
use super::evidence::{self, Fact};
use super::file_rows::{self, Tied};
use super::given::entry_values;
use super::import_rows;
use super::meant_rows;
use super::model::{cut, Found};
use super::model::{Diagnosis, Evidence, Setting, Source, MAX_EVIDENCE};
use super::node_rows;
use super::resolver_rows;
use super::runtime_rows;
use super::settings_rows;
use super::table::{Confidence, Id};
use super::tied_rows::{self, Tie};
use super::typed_rows;
use super::url_rows;
use super::usage_rows;
use super::value_rows;
use super::wrapper_rows;
use crate::engine::probe::Launch;

/// What a structured row is keyed on (listed by a test: never one server's wording).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Key {
    /// A resolver's refusal of the Python it was given (uv's `does not satisfy Python>=3.12`,
    /// uv run's `the project's Python requirement`, pip's `requires a different Python` and
    /// `Requires-Python`), tied to the entry's `--python` or `UV_PYTHON` (`resolver_rows.rs`).
    ResolverRefusesThePython,
    /// A refused connection (Node `code: 'ECONNREFUSED'`, Python `ConnectionRefusedError` /
    /// errno 111) and a connect experiment that is refused too; an address the entry does not
    /// hold named by the one unset variable the server's source reads for it.
    RefusedAndTested,
    /// A URL-parse failure (`ERR_INVALID_URL`, an error about a URL/URI/scheme) beside an
    /// entry value shaped `host:port` with no scheme; also a failed `--call`'s error (the
    /// whole run's row: `call_rows.rs`).
    UrlParseWithSchemelessValue,
    /// An entry value `scheme://...` whose scheme an error about a scheme, dialect, driver,
    /// DSN, plugin or protocol quotes as a word of its own (asyncpg's `ClientConfigurationError`,
    /// SQLAlchemy's `NoSuchModuleError` `sqlalchemy.dialects:NAME`) (`scheme_rows.rs`).
    SchemeRefusedIsAnEntryValue,
    /// An entry URL's query parameter (`?sslmode=required`) that an error line names as a word
    /// and whose value it quotes, with a refusal's word (`unrecognized`, `invalid`, `unknown`)
    /// (`query_rows.rs`).
    QueryValueRefused,
    /// A labelled error block (`Problem:` / `Detected:` / `Fix:`, `Error:` / `Hint:`) whose
    /// detected value is one of the entry's values, or whose problem names a flag the entry
    /// passes; a path looked up (`block_rows.rs`).
    ErrorBlockDetectsAnEntryValue,
    /// A validation block (pydantic's; a schema validator's issues, `schema_issues.rs`): each field mapped to the entry's variable.
    ValidationBlock,
    /// A settings library's own error naming a field (pydantic-settings' `SettingsError`,
    /// dynaconf's `ValidationError`), the entry's one variable so named (`field_rows.rs`).
    SettingsLibraryRefusesAField,
    /// A Node error raised in a package whose message is one `PATH: text` line per refused
    /// setting (convict's `validate()`), and an experiment reading the server's file that
    /// called it: the schema object of that path binds a variable (`env: "ZOO_PORT"`)
    /// (`bound_rows.rs`).
    SchemaPathBoundToAVariable,
    /// SQLite's `unable to open database file`, or a unix socket not found, and a stat of the
    /// entry's one database path or `unix://` value: its folder or socket absent (`opened_rows.rs`).
    EntryPathUnopenableOnDisk,
    /// A `ModuleNotFoundError` that ended the process (the last of a chain) naming a module the
    /// entry gives whole (`DJANGO_SETTINGS_MODULE`), and an experiment: its package's folder
    /// looked at for the modules it holds (`module_rows.rs`).
    SetModuleNotFound,
    /// Django's `Unknown command: 'NAME'` above its `Type '... help' for usage.`, and an
    /// experiment: `<app>/management/commands/NAME.py` found in the interpreter's site-packages
    /// or the folder it starts in: the app is not in INSTALLED_APPS (`module_rows.rs`).
    CommandOfAnAppNotInstalled,
    /// An `ImportError`/`ModuleNotFoundError` raised in a library's frame (`site-packages`),
    /// and an experiment: the server's own interpreter cannot import a module its message
    /// names (`find_spec`; a `pkg[extra]`'s requirements) (`import_rows.rs`).
    LibraryImportNotImportable,
    /// `No module named 'a.b'`, and the server's interpreter imports `a` (`drift_rows.rs`).
    InstalledPackageLacksSubmodule,
    /// `ERR_PACKAGE_PATH_NOT_EXPORTED` naming a `node_modules` `package.json` (`drift_rows.rs`).
    SubpathNotExported,
    /// `ERR_REQUIRE_ESM` on a `node` (asked) that cannot require() ES modules (`runtime_rows.rs`).
    EsmRequiredOnOldNode,
    /// A traceback through installed code whose dist's Requires-Python, read, excludes the
    /// Python its frames ran (`runtime_rows.rs`).
    RequiresPythonAboveRunning,
    /// A load-time TypeError/ReferenceError in a dependency's frame, Node below LTS (`runtime_rows.rs`).
    DependencyFrameOnOldNode,
    /// A missing file (`file_rows.rs`: `ENOENT`/`FileNotFoundError`/`[Errno 2]` with its
    /// path, Go's `open X: no such file or directory`, a file's name or path beside not-found
    /// words) and a stat experiment: one of the entry's path-like values, resolved against the
    /// folder the server starts in, is that path, has that name, or is the variable the
    /// server's source reads the file's path from, and does not exist.
    MissingFileIsAnEntryValue,
    /// A missing file, and an experiment reading the server's installed source: the variable
    /// read nearest to where the file's name is written (its default), which the entry does
    /// not set.
    MissingFileReadFromAnUnsetVariable,
    /// A missing file whose path the failure prints, looked at (`stat`: no such file), that no
    /// entry value or variable read beside it names: the path the server reads by default.
    MissingFileAtItsDefaultPath,
    /// Last words saying a thing was not found (`Credentials not found.`), and a variable of
    /// the entry whose name holds a word of that line set to a path where nothing exists (an
    /// experiment: the path looked up) (`absent_rows.rs`).
    LastWordsNotFoundAndEntryPathAbsent,
    /// git's `not a git repository` (or GitPython's `InvalidGitRepositoryError`) and the one
    /// entry value that is a folder with no `.git` in it or above it (looked at: `git_rows.rs`).
    NotAGitRepositoryAndEntryFolderHasNone,
    /// A missing file by a bare name or pattern (`panda.config.{ts,js}`), none in the folder it
    /// starts in, looked at (`file_patterns.rs`).
    MissingFileRelativeToWorkingFolder,
    /// A configuration file's parser refusing it (PyYAML's `ScannerError`, `JSONDecodeError`,
    /// `TOMLDecodeError`, Node's `SyntaxError ... in JSON`) and a stat experiment: one entry
    /// value is such a file, and it exists (`parse_rows.rs`).
    ConfigFileDoesNotParse,
    /// Node's `EISDIR` or Python's `IsADirectoryError` and the entry's one value that is a
    /// folder on disk (`folder_rows.rs`).
    FolderGivenForAFile,
    /// Node's `ERR_INVALID_ARG_TYPE` `Received undefined` raised from a source line that reads
    /// a variable the entry does not set (`frame_rows.rs`); V8's `TypeError: Cannot read
    /// properties of undefined` too, at the first frame outside `node_modules`.
    UndefinedArgumentReadFromAnUnsetVariable,
    /// An error naming two variables the entry sets.
    ErrorNamesTwoSetVariables,
    /// An exception, an error line or the last words naming one variable the entry sets
    /// (`tied_rows.rs`: and what the server wants there, from the failure's structure).
    ErrorNamesOneSetVariable,
    /// An exception, an error line or the last words quoting the value of one variable the
    /// entry sets, whole or a part shaped as a path or an address (`tied_rows.rs`).
    ErrorQuotesASetValue,
    /// The source line of the frame an exception was raised in (Python's under its innermost
    /// `File`, Node's above its `^`) reads one variable the entry sets (`os.environ.get("X")`,
    /// `process.env.X`, `settings.x` by the entry's prefix) (`tied_rows.rs`).
    FailingLineReadsASetVariable,
    /// An exception type of a well-known library, anywhere in the chain, that means a
    /// variable is unset or wrong (botocore's `NoRegionError`: `AWS_REGION`) (`typed_rows.rs`).
    ExceptionTypeMeansAVariable,
    /// A choice structure (argument, given, choices).
    ChoiceStructure,
    /// An error line quoting one of the entry's values that the server knows in another case:
    /// listed so in the message, or a log level name (`Level 'debug' does not exist`)
    /// (`value_rows.rs`).
    GivenValueInAnotherCase,
    /// A help text's commands (the usage's `{a,b,c}` or its commands section, or its `--help`
    /// asked: an experiment) none of which the entry's args hold, where an error line quotes
    /// one of the entry's arguments or the parser says a command is missing (argparse's
    /// `arguments are required`, click's `Missing command.`, yargs' `Not enough non-option
    /// arguments`, a help printed alone).
    CommandsTheArgsLack,
    /// An argument parser's unknown-flag error (Go flag, cobra, commander, yargs, click,
    /// clap, argparse, `util.parseArgs`: each library's own format) naming a flag the entry
    /// passes, with one dash or two.
    UnknownFlagGiven,
    /// An argument parser's required-argument error (commander, yargs, click, argparse, clap,
    /// cobra: each library's own format) naming an argument the entry's args lack: its name in
    /// the doctor's words, with the kind of value its name says (`asked_rows.rs`).
    RequiredArgumentNamed,
    /// An error whose message names a flag the entry passes (`--api-key`, or its words `API
    /// key`) or quotes that flag's value.
    ErrorNamesAGivenFlag,
    /// A usage's error line naming a flag the entry's args lack (`flag_needs.rs`).
    ErrorNamesAFlagTheArgsLack,
    /// A relative path of the entry that a line judges not absolute (`relative_rows.rs`).
    RelativePathWantedAbsolute,
    /// A usage text with an error line (above it: cobra, a hand-written check; under it:
    /// urfave/cli, clap) whose paragraph names a flag its usage lists or a variable, tied to
    /// the entry's args and env (`usage_rows.rs`).
    UsageErrorNamesAFlagOrVariable,
    /// A usage text with the error line under or above it.
    UsageWithErrorLine,
    /// An npm error block's what-line, with the package's manifest read from the cache.
    NpmBlock,
    /// `ERR_UNKNOWN_BUILTIN_MODULE`, or a Node version on an error line above the version the
    /// `node` that runs it reports, or its own major there with a capability it lacks
    /// (`Node.js 20 detected without native WebSocket support`).
    NodeOlderThanNamed,
    /// An experiment on the entry's own args: `uv --directory DIR run X` (or `--project`)
    /// where DIR, looked at, does not exist or does not hold X (or a `pyproject.toml`).
    UvFolderLacksProject,
    /// An experiment: the `engines.node` of the package the launch runs (or of the failing
    /// frame's package, or of a dependency), read from its package.json, excludes the version
    /// `node --version` reports.
    EnginesAboveRunningNode,
    /// An experiment reading the server's installed source: the entry sets a variable the
    /// server never reads, and the server reads an unset one close to it (the same words, one
    /// misspelt or abbreviated, or more of them: `SHORTCUT_TOKEN`, `SHORTCUT_API_TOKEN`).
    SetNameNeverReadBesideACloseOne,
    /// An experiment reading the server's installed source: last words that name no
    /// variable hold the words of exactly one variable it reads that the entry does not set.
    LastWordsAreAnUnsetReadName,
    /// An exception or error line of a launch that died whose message means a variable by its
    /// concept (credentials, a region) and names none, and an experiment reading the server's
    /// installed source: the variables of that concept it reads that the entry does not set,
    /// those read in the raising frame's file first (`meant_rows.rs`).
    ErrorMeansAnUnsetReadVariable,
    /// Last words (stderr's, or stdout's before an exit: `stdout_words.rs`) that show a flag
    /// with a placeholder (`-p <preset>`, `--config <path>`) the entry's args lack, with the
    /// values they list for it (`asked_rows.rs`).
    LastWordsShowAFlagTheArgsLack,
    /// The last line of a launch that died names variables (`UPPER_SNAKE` identifiers) or
    /// flags the entry does not set (an identifier written `NAME=value` is an example, not a
    /// need).
    NamesUnsetVariables,
    /// A `--call` that failed on a server that is up, and a connect experiment to an address
    /// its error names or the entry gives (`*_HOST` with `*_PORT`, a `host:port` in a value)
    /// that is refused (the whole run's row: `call_rows.rs`).
    CallFailedAndAddressRefused,
    /// A `--call` result not marked `isError` whose text holds a connect failure's code
    /// (`Errno 111`, `ECONNREFUSED`, Go's `dial tcp ...: connect:`) or an address the entry
    /// gives, and a connect experiment there that is refused (`call_rows.rs`).
    CallAnswerHoldsRefusedAddress,
    /// A `--call` that failed (an error, `isError`, or a result not marked so whose structure
    /// says it failed: an error record, the server's ERROR log line repeated) whose error, or
    /// the server's ERROR log line, names one of the entry's values as a whole word
    /// (`call_record.rs`, `call_rows.rs`).
    CallErrorNamesAnEntryValue,
    /// A `--call` that failed whose refusal (`not allowed`, `denied`) names a word the call's
    /// own arguments sent, while a variable of the entry holds a comma list without it
    /// (`allow_rows.rs`).
    CallRefusesAWordAnEntryListLacks,
    /// A `--call` that failed whose error means a variable by its concept, naming none
    /// (credentials: `Authentication credentials are missing`, `401`; a region), and an
    /// experiment reading the server's installed source: the variables of that concept it reads
    /// that the entry does not set (`call_unset.rs`).
    CallErrorMeansAnUnsetReadVariable,
    /// A `--call` that failed whose error names variables (`UPPER_SNAKE`) that the entry does
    /// not set, read by the server's source or asked for in the error's words (`set`,
    /// `environment`), or one the entry sets to a path where nothing exists (an experiment: the
    /// path looked up) (`call_unset.rs`).
    CallErrorNamesAVariable,
    /// A `--call` that failed whose error (or the server's stderr) says a command the server
    /// launches was not found (Node's `spawn NAME ENOENT`, Python's `[Errno 2]` from
    /// `subprocess`, Go's `exec: "NAME": executable file not found`), and an experiment: it is
    /// not on the server's PATH (`call_child.rs`, `child_rows.rs`).
    CallErrorLaunchesAMissingCommand,
    /// The same on a launch that died, from its stderr (`child_rows.rs`).
    LaunchedCommandNotFound,
    /// No tools listed, and a start warning names a variable the entry lacks (`call_unset.rs`).
    NoToolsAndAWarningNamesAnUnsetVariable,
    /// `initialize` answered a JSON-RPC error, or the server ended right after its handshake
    /// without a word (or, on a server that stayed up, `tools/list` answered an error), and a
    /// connect experiment to an address the entry holds (a `host:port`, a URL at its scheme's
    /// default port, `*_HOST` with `*_PORT`) is refused (`answer_rows.rs`).
    #[cfg_attr(not(test), allow(dead_code))]
    AnswerErrorAndEntryAddressRefused,
    /// An experiment on the launch itself: a stdio launch that answered nothing and was still
    /// running at its handshake's end listens on a TCP port (its `/proc` sockets). Its row is
    /// `listening::hit`, reached from the table's `http-mode` row.
    #[cfg_attr(not(test), allow(dead_code))]
    ListensOnTcpSilently,
    /// An experiment relaunching it: its answer came with stdin closed right after
    /// `initialize`, not with stdin held open longer (`relaunch_rows.rs`).
    #[cfg_attr(not(test), allow(dead_code))]
    AnswersOnlyOnceStdinCloses,
    /// An experiment relaunching it with the other environment (this shell's whole one, or a
    /// host's allowlist): it answered there (`relaunch_rows.rs`).
    #[cfg_attr(not(test), allow(dead_code))]
    AnswersInTheOtherEnvironment,
    /// A help text (a usage line with a section or its commands), on stdout or stderr, of a
    /// launch that ended on its own before its handshake: the command that serves it lists, or
    /// (an experiment reading the package's `bin` or `entry_points.txt`) the package's other
    /// program that is its server (`help_rows.rs`).
    #[cfg_attr(not(test), allow(dead_code))]
    HelpPrintedAndExited,
}

/// Every key, in the order the rows are tried.
pub(crate) const KEYS: &[Key] = &[
    Key::UvFolderLacksProject,
    Key::ResolverRefusesThePython,
    Key::RefusedAndTested,
    Key::UrlParseWithSchemelessValue,
    Key::SchemeRefusedIsAnEntryValue,
    Key::QueryValueRefused,
    Key::ErrorBlockDetectsAnEntryValue,
    Key::ValidationBlock,
    Key::SettingsLibraryRefusesAField,
    Key::SchemaPathBoundToAVariable,
    Key::SetModuleNotFound,
    Key::CommandOfAnAppNotInstalled,
    Key::RelativePathWantedAbsolute,
    Key::ExceptionTypeMeansAVariable,
    Key::LibraryImportNotImportable,
    Key::InstalledPackageLacksSubmodule,
    Key::SubpathNotExported,
    Key::EsmRequiredOnOldNode,
    Key::LaunchedCommandNotFound,
    Key::EntryPathUnopenableOnDisk,
    Key::MissingFileIsAnEntryValue,
    Key::MissingFileReadFromAnUnsetVariable,
    Key::MissingFileAtItsDefaultPath,
    Key::ConfigFileDoesNotParse,
    Key::FolderGivenForAFile,
    Key::UndefinedArgumentReadFromAnUnsetVariable,
    Key::LastWordsNotFoundAndEntryPathAbsent,
    Key::NotAGitRepositoryAndEntryFolderHasNone,
    Key::ErrorNamesTwoSetVariables,
    Key::NodeOlderThanNamed,
    Key::ChoiceStructure,
    Key::GivenValueInAnotherCase,
    Key::CommandsTheArgsLack,
    Key::UnknownFlagGiven,
    Key::NpmBlock,
    Key::SetNameNeverReadBesideACloseOne, // an unread name is no value refused
    Key::ErrorNamesOneSetVariable,
    Key::ErrorQuotesASetValue,
    Key::FailingLineReadsASetVariable,
    Key::ErrorNamesAFlagTheArgsLack,
    Key::ErrorNamesAGivenFlag,
    Key::RequiredArgumentNamed,
    Key::UsageErrorNamesAFlagOrVariable,
    Key::UsageWithErrorLine,
    Key::NamesUnsetVariables,
    Key::LastWordsAreAnUnsetReadName,
    Key::ErrorMeansAnUnsetReadVariable,
    Key::LastWordsShowAFlagTheArgsLack,
    Key::MissingFileRelativeToWorkingFolder,
    Key::RequiresPythonAboveRunning,
    // Last: a manifest's `engines.node` is a package's claim, not what happened. A server that
    // ran far enough to say what is wrong (its usage, a variable it lacks) is believed first:
    // @sentry/mcp-server declares Node 22.13 and runs on Node 20.
    Key::EnginesAboveRunningNode,
    Key::DependencyFrameOnOldNode,
];

/// Rows about the arguments a server refused as it started: never on a launch that completed
/// its handshake.
const ARGUMENT_KEYS: &[Key] = &[
    Key::CommandsTheArgsLack,
    Key::LastWordsShowAFlagTheArgsLack,
    Key::RequiredArgumentNamed,
    Key::UnknownFlagGiven,
    Key::ErrorNamesAGivenFlag,
    Key::ErrorNamesAFlagTheArgsLack,
    Key::UsageErrorNamesAFlagOrVariable,
];

/// Rows about a server that failed as it loaded: never on a launch that completed its handshake.
const LOAD_KEYS: &[Key] = &[Key::DependencyFrameOnOldNode];

/// Rows whose answer is a likely one (medium confidence): the evidence fits, nothing proves it.
const HEDGED: &[Key] = &[
    Key::DependencyFrameOnOldNode,
    Key::LastWordsShowAFlagTheArgsLack,
];

/// The keys of the rows that read the whole run, not a launch that died: they run in
/// `run.rs`, also when every launch stayed up.
#[cfg(test)]
pub(crate) const RUN_KEYS: &[Key] = &[
    Key::UrlParseWithSchemelessValue,
    Key::CallFailedAndAddressRefused,
    Key::CallAnswerHoldsRefusedAddress,
    Key::CallErrorNamesAnEntryValue,
    Key::CallRefusesAWordAnEntryListLacks,
    Key::CallErrorMeansAnUnsetReadVariable,
    Key::CallErrorNamesAVariable,
    Key::CallErrorLaunchesAMissingCommand,
    Key::NoToolsAndAWarningNamesAnUnsetVariable,
    Key::AnswerErrorAndEntryAddressRefused,
];
/// Rows keyed on an experiment on the launch itself, found outside [`row`] (they read the
/// launch's facts or a relaunch's, not its stderr): `listening.rs`, `relaunch_rows.rs`.
#[cfg(test)]
pub(crate) const LAUNCH_KEYS: &[Key] = &[
    super::listening::KEY,
    Key::AnswersOnlyOnceStdinCloses,
    Key::AnswersInTheOtherEnvironment,
    Key::AnswerErrorAndEntryAddressRefused,
    super::help_rows::KEY,
];

/// The ids only these rows give (the table has no row for them).
#[cfg(test)]
pub(crate) const IDS: &[Id] = &[
    Id::ServiceNotRunning,
    Id::ConflictingSettings,
    Id::NoExecutable,
    Id::MissingFile,
];

/// Rows whose finding is surer than the table's `bad-argument` (a structure plus the entry's
/// value, or an experiment's result): they replace it too.
pub(crate) const STRONG: &[Key] = &[
    Key::UvFolderLacksProject,
    Key::RefusedAndTested,
    Key::UrlParseWithSchemelessValue,
    Key::SchemeRefusedIsAnEntryValue,
    Key::SettingsLibraryRefusesAField,
    Key::EntryPathUnopenableOnDisk,
    Key::QueryValueRefused,
    Key::ErrorBlockDetectsAnEntryValue,
    Key::NodeOlderThanNamed,
    Key::ChoiceStructure,
    Key::GivenValueInAnotherCase,
    Key::CommandsTheArgsLack,
    Key::UnknownFlagGiven,
    Key::MissingFileIsAnEntryValue,
    Key::SetNameNeverReadBesideACloseOne, // the code never reads what the words tied
    Key::RelativePathWantedAbsolute,
    // A chain's first exception (`KeyError: 'stdio_server'`) or Django's `Unknown command`
    // quote an argument the table took; the module or the app is the entry's fault.
    Key::SetModuleNotFound,
    Key::CommandOfAnAppNotInstalled,
];

/// Rows that outrank the table's `missing-env-var` too: a URL the server could not parse,
/// held by the entry without its scheme, explains the failure; variables named in a warning
/// before it (`X not set`) do not; nor does a parser refusing a flag the entry passes (it
/// stops before the server reads its variables).
pub(crate) const OUTRANK_MISSING: &[Key] = &[
    Key::UrlParseWithSchemelessValue,
    Key::SetNameNeverReadBesideACloseOne, // the table's variable, set under another name
    Key::UnknownFlagGiven,
    // A file the server wants, tied to the entry's value or to the variable its source reads
    // the path from: a how-to line's variable (`To use a custom token location, set X`) the
    // table took is no complaint.
    Key::MissingFileIsAnEntryValue,
    Key::MissingFileReadFromAnUnsetVariable,
];

/// Rows that outrank the table's `missing-dependency` (its next step names no environment):
/// the same answer, with the module and the environment to install it into, tested.
pub(crate) const OUTRANK_DEPENDENCY: &[Key] = &[
    // The module missing is the one the entry names: nothing to install.
    Key::SetModuleNotFound,
    Key::LibraryImportNotImportable,
    Key::InstalledPackageLacksSubmodule,
    Key::EsmRequiredOnOldNode,
];

/// The answers of the table these rows may replace.
pub(crate) const GENERIC: &[Id] = &[Id::Crash, Id::CauseUnknown, Id::MissingArgument, Id::Timer];

/// The most connect experiments per diagnosis.
const MAX_CONNECTS: usize = 3;

/// The stderr lines of a launch, oldest first (notable lines that scrolled out first; the
/// head of Node's report of an uncaught error whole, when its first line scrolled out).
pub(super) fn stderr_lines(l: &Launch) -> Vec<&str> {
    l.report
        .stderr
        .all_lines()
        .into_iter()
        .map(String::as_str)
        .collect()
}

/// The structured diagnoses of the launches that died (the same finding on several launches
/// is one diagnosis), each with the key of the row that found it.
#[cfg(test)]
pub(crate) fn diagnose_keyed(died: &[&Launch], setting: &Setting) -> Vec<(Key, Diagnosis)> {
    diagnose_keyed_but(died, setting, &[])
}

/// The rows about a missing file (`file_rows.rs`): skipped where their answer may not replace
/// the table's, so that they never hide a later row that may.
pub(crate) const FILE_KEYS: &[Key] = &[
    Key::MissingFileIsAnEntryValue,
    Key::MissingFileReadFromAnUnsetVariable,
    Key::MissingFileAtItsDefaultPath,
    Key::MissingFileRelativeToWorkingFolder,
];

/// [`diagnose_keyed`] without the rows of `skip`.
pub(crate) fn diagnose_keyed_but(
    died: &[&Launch],
    setting: &Setting,
    skip: &[Key],
) -> Vec<(Key, Diagnosis)> {
    let mut out: Vec<(Key, Diagnosis)> = Vec::new();
    for l in died {
        let lines = stderr_lines(l);
        let facts = evidence::parse(&lines);
        // A server that completed its handshake accepted its arguments: an error naming one
        // later (`crashed on tools/list` under `--crash-on tools/list`) is about something else.
        let connected = l.report.connected_at_ms.is_some();
        let Some((key, f)) = KEYS
            .iter()
            .filter(|k| !skip.contains(k))
            .filter(|k| !(connected && (ARGUMENT_KEYS.contains(k) || LOAD_KEYS.contains(k))))
            .find_map(|k| row(*k, &facts, &lines, setting).map(|f| (*k, f)))
        else {
            continue;
        };
        if let Some((_, d)) = out
            .iter_mut()
            .find(|(_, d)| d.id == f.id && d.summary == f.summary)
        {
            d.launches.push(l.number);
            for e in &mut d.evidence {
                if e.source != Source::Tried {
                    e.launches.push(l.number);
                }
            }
            continue;
        }
        out.push((
            key,
            Diagnosis {
                id: f.id,
                confidence: if HEDGED.contains(&key) {
                    Confidence::Medium
                } else {
                    Confidence::High
                },
                summary: f.summary,
                launches: vec![l.number],
                evidence: f
                    .evidence
                    .into_iter()
                    .take(MAX_EVIDENCE)
                    .map(|(source, text)| Evidence {
                        launches: if source == Source::Tried {
                            Vec::new()
                        } else {
                            vec![l.number]
                        },
                        source,
                        text,
                    })
                    .collect(),
                next_step: f.next,
            },
        ));
    }
    out
}

fn row(key: Key, facts: &[Fact], lines: &[&str], s: &Setting) -> Option<Found> {
    match key {
        Key::UvFolderLacksProject => wrapper_rows::uv_folder_row(s),
        Key::ResolverRefusesThePython => resolver_rows::row(lines, s),
        Key::RefusedAndTested => refused(facts, lines, s),
        Key::UrlParseWithSchemelessValue => url_rows::schemeless(facts, lines, s),
        Key::SchemeRefusedIsAnEntryValue => super::scheme_rows::row(facts, s),
        Key::QueryValueRefused => super::query_rows::row(lines, s),
        Key::ErrorBlockDetectsAnEntryValue => super::block_rows::row(lines, s),
        Key::ValidationBlock => settings_rows::validation(facts, s),
        Key::SettingsLibraryRefusesAField => super::field_rows::row(facts, s),
        Key::SchemaPathBoundToAVariable => super::bound_rows::row(lines, s),
        Key::EntryPathUnopenableOnDisk => super::opened_rows::row(lines, s),
        Key::SetModuleNotFound => super::module_rows::set_module_missing(lines, s),
        Key::CommandOfAnAppNotInstalled => super::module_rows::command_app_missing(lines, s),
        Key::LibraryImportNotImportable => import_rows::library_import(lines, s),
        Key::InstalledPackageLacksSubmodule => drift_rows::python_submodule(lines, s),
        Key::SubpathNotExported => drift_rows::node_subpath(lines),
        Key::EsmRequiredOnOldNode => runtime_rows::esm_required(lines, s),
        Key::DependencyFrameOnOldNode => runtime_rows::dependency_on_old_node(lines, s),
        Key::RequiresPythonAboveRunning => runtime_rows::requires_python(lines, s),
        Key::MissingFileIsAnEntryValue => file_rows::row(Tied::EntryValue, facts, lines, s),
        Key::MissingFileReadFromAnUnsetVariable => {
            file_rows::row(Tied::UnsetVariable, facts, lines, s)
        }
        Key::MissingFileAtItsDefaultPath => file_rows::row(Tied::DefaultPath, facts, lines, s),
        Key::MissingFileRelativeToWorkingFolder => {
            file_rows::row(Tied::WorkingFolder, facts, lines, s)
        }
        Key::ConfigFileDoesNotParse => super::parse_rows::row(lines, s),
        Key::FolderGivenForAFile => super::folder_rows::row(facts, lines, s),
        Key::UndefinedArgumentReadFromAnUnsetVariable => {
            super::frame_rows::undefined_argument(facts, lines, s)
        }
        Key::ErrorNamesTwoSetVariables => settings_rows::two_vars(facts, s),
        Key::ErrorNamesOneSetVariable => tied_rows::row(Tie::Named, facts, lines, s),
        Key::ErrorQuotesASetValue => tied_rows::row(Tie::Quoted, facts, lines, s),
        Key::FailingLineReadsASetVariable => tied_rows::row(Tie::Read, facts, lines, s),
        Key::ExceptionTypeMeansAVariable => typed_rows::row(lines, s),
        Key::ChoiceStructure => value_rows::choice(facts, s),
        Key::GivenValueInAnotherCase => value_rows::case_variant(lines, s),
        Key::CommandsTheArgsLack => entry_rows::command_first(lines, s),
        Key::UnknownFlagGiven => entry_rows::unknown_flag(lines, s),
        Key::ErrorNamesAGivenFlag => entry_rows::flag_named(facts, s),
        Key::ErrorNamesAFlagTheArgsLack => super::flag_needs::row(facts, s),
        Key::RelativePathWantedAbsolute => super::relative_rows::row(lines, s),
        Key::UsageErrorNamesAFlagOrVariable => usage_rows::row(facts, lines, s),
        Key::UsageWithErrorLine => usage_rows::usage(facts),
        Key::NpmBlock => node_rows::npm(facts, s),
        Key::NodeOlderThanNamed => node_rows::node_too_old(facts, lines, s),
        Key::EnginesAboveRunningNode => node_rows::engines_too_new(lines, s),
        Key::NamesUnsetVariables => super::unset_rows::row(lines, s),
        Key::LastWordsNotFoundAndEntryPathAbsent => super::absent_rows::row(lines, s),
        Key::NotAGitRepositoryAndEntryFolderHasNone => super::git_rows::row(lines, s),
        Key::SetNameNeverReadBesideACloseOne => env_rows::renamed(lines, s),
        Key::LastWordsAreAnUnsetReadName => env_rows::worded(lines, s),
        Key::ErrorMeansAnUnsetReadVariable => meant_rows::row(facts, lines, s),
        Key::LastWordsShowAFlagTheArgsLack => asked_rows::row(lines, s),
        Key::RequiredArgumentNamed => asked_rows::required_row(lines, s),
        // A row of the whole run (`call_rows.rs`), not of one launch's stderr.
        Key::CallFailedAndAddressRefused
        | Key::CallAnswerHoldsRefusedAddress
        | Key::CallErrorNamesAnEntryValue
        | Key::CallRefusesAWordAnEntryListLacks
        | Key::CallErrorMeansAnUnsetReadVariable
        | Key::CallErrorNamesAVariable
        | Key::CallErrorLaunchesAMissingCommand
        | Key::NoToolsAndAWarningNamesAnUnsetVariable => None,
        Key::LaunchedCommandNotFound => super::child_rows::row(lines, s),
        // Found on the launch's facts (see LAUNCH_KEYS).
        Key::AnswerErrorAndEntryAddressRefused
        | Key::ListensOnTcpSilently
        | Key::AnswersOnlyOnceStdinCloses
        | Key::AnswersInTheOtherEnvironment
        | Key::HelpPrintedAndExited => None,
    }
}

/// Which of the entry's values holds `needle` (whole, or as the tail of a URL: `host:port`).
fn holder(s: &Setting, needle: &str) -> Option<String> {
    entry_values(s)
        .into_iter()
        .find(|(_, v)| v == needle || v.contains(needle))
        .map(|(shown, _)| shown)
}

/// The class names (their endings) Python client libraries raise when no server answered.
const UNREACHED: &[&str] = &[
    "ConnectionError",
    "ConnectError",
    "NoValidConnectionsError",
    "NoBrokersAvailable",
    "ServiceUnavailable",
    "ServerSelectionTimeoutError",
    // aiohttp's `Cannot connect to host H:P ...` (its cause far up); grpcio's status
    // `UNAVAILABLE` in the repr lines under its `_InactiveRpcError`.
    "ClientConnectorError",
    "_InactiveRpcError",
];

fn is_refused(f: &Fact) -> bool {
    match f {
        Fact::Node { code, message, .. } => {
            code.as_deref() == Some("ECONNREFUSED") || message.contains("ECONNREFUSED")
        }
        Fact::Python { kind, message, .. } => {
            kind.contains("ConnectionRefused")
                || message.contains("Errno 111")
                || message.contains("ECONNREFUSED")
                || (kind.contains("Connect") && message.contains("111"))
                // ECONNREFUSED's own words, as a C client library prints them (libpq under
                // psycopg/psycopg2's `OperationalError: connection to server at "127.0.0.1",
                // port 5999 failed: Connection refused`, MySQL's `(111 "Connection refused")`).
                || message.contains("Connection refused")
                // MySQL's client error 2003 with the errno in parentheses
                // (mysql-connector-python's `Can't connect to MySQL server on 'H:P' (111)`).
                || message.trim_end().ends_with("(111)")
                // A client library's own class for "no server answered", whose message may
                // name no errno (kafka-python's `NoBrokersAvailable`, pika's bare
                // `AMQPConnectionError`, paramiko's `NoValidConnectionsError`, neo4j's
                // `ServiceUnavailable`, pymongo's `ServerSelectionTimeoutError`): the connect
                // experiment decides.
                || UNREACHED.iter().any(|k| kind.ends_with(k))
        }
        Fact::ErrorLine { text } => evidence::code_in(text).as_deref() == Some("ECONNREFUSED"),
        _ => false,
    }
}

fn refused(facts: &[Fact], lines: &[&str], s: &Setting) -> Option<Found> {
    let f = facts
        .iter()
        .find(|f| is_refused(f) && !evidence::superseded(&f.quoted(), lines))?;
    let mut targets: Vec<(String, u16)> = Vec::new();
    if let Fact::Node {
        address: Some(a),
        port: Some(p),
        ..
    } = f
    {
        if let Ok(p) = p.parse() {
            targets.push((a.clone(), p));
        }
    }
    // The entry's addresses too: a `*_HOST` beside its `*_PORT` (pymysql's `Can't connect to
    // MySQL server on 'localhost'` names no port).
    let given = super::addresses::entry_addresses(s);
    // A traceback's source line (under its `File "..."` line) is code, not what was dialled:
    // `KafkaProducer(bootstrap_servers=os.environ.get("X", "localhost:9092"))` shows a default.
    let said = lines.iter().enumerate().filter(|(i, _)| {
        !i.checked_sub(1)
            .and_then(|p| lines.get(p))
            .is_some_and(|p| p.trim_start().starts_with("File \""))
    });
    for t in said
        .flat_map(|(_, l)| evidence::host_ports(l))
        .chain(
            entry_values(s)
                .iter()
                .flat_map(|(_, v)| evidence::host_ports(v)),
        )
        .chain(given.iter().map(|a| (a.host.clone(), a.port)))
    {
        if !targets.contains(&t) {
            targets.push(t);
        }
    }
    let mut tried = Vec::new();
    let mut down: Option<(String, u16)> = None;
    // A refused address the entry holds is named before one only the lines show.
    let mut down_held = false;
    for (h, p) in targets.into_iter().take(MAX_CONNECTS) {
        let held = holder(s, &format!("{h}:{p}")).is_some()
            || given.iter().any(|a| a.host == h && a.port == p);
        let r = connects(&h, p);
        tried.push(format!(
            "connect {h}:{p}: {}",
            match &r {
                Ok(true) => "it answers".to_string(),
                Ok(false) => "refused".to_string(),
                Err(e) => e.clone(),
            }
        ));
        if r == Ok(false) && (down.is_none() || (held && !down_held)) {
            down = Some((h, p));
            down_held = held;
        }
    }
    let (h, p) = down?;
    let what = service_of(p)
        .map(|x| format!(" ({x}'s usual port)"))
        .unwrap_or_default();
    let at = format!("{h}:{p}");
    let next = match holder(s, &at)
        .or_else(|| holder(s, &format!(":{p}")))
        .or_else(|| super::addresses::split_holder(s, &h, p))
    {
        Some(v) => format!("start the service at {at}{what}, or point {v} at where it runs: nothing listens there"),
        None => match super::addresses::unset_address_read(s, p) {
            Some((var, read_at)) => format!(
                "set `{var}` to where the service runs, or start it at {at}{what}: nothing listens there; the entry does not set `{var}`, which the server reads ({read_at}), so it connects to its default"
            ),
            None => format!(
                "start the service at {at}{what}: nothing listens there; the entry gives no such address, so it is the server's default (set its URL variable or argument to where the service runs)"
            ),
        },
    };
    let mut evidence = vec![(Source::Stderr, cut(&f.quoted()))];
    evidence.extend(tried.into_iter().map(|t| (Source::Tried, t)));
    Some(Found {
        id: Id::ServiceNotRunning,
        summary: format!("nothing listens on {at}{what}, which the server connects to"),
        next,
        evidence,
    })
}

#[cfg(test)]
#[path = "structured_tests.rs"]
mod tests;
