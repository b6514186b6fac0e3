//! Every example in README.md and docs/ is run against the binary and compared with what the
//! page shows, so a change that alters an example fails until the page is updated.
//!
//! An example is a fenced block whose lines start with `$ ` (a command, run by bash with this
//! build's `mcpl-doctor` first on PATH) followed by its output (stdout and stderr together).
//! An HTML comment on the line before the block sets how it runs (docs/README of the format is
//! this comment; the pages carry only the directive):
//!
//! `<!-- example: cwd=fixtures/servers columns=80 status=1 match=numbers -->`
//! - `cwd=DIR`: the folder, from the repository's root (default: the root); `$ cd DIR` lines
//!   in the block change it too.
//! - `columns=N`: `COLUMNS` (default 80). Colour is off (`NO_COLOR=1`, and stdout is a pipe);
//!   strips are drawn in UTF-8 (`LANG=C.UTF-8`, no `TERM`).
//! - `status=N`: the exit status of the block's last command (checked when given).
//! - `match=numbers`: every number matches any other, every duration (`93 ms`, `3.97 s`,
//!   `2 min 58 s`) any other, and runs of spaces or table rules any other length (for timings
//!   that differ from run to run, and a loaded machine makes them differ a lot); the default,
//!   `exact`, compares lines as they are, trailing spaces aside. Prose is compared paragraph by
//!   paragraph and a table row cell by cell, so a number that grew may move a line break.
//! - `server=COMMAND` (last, it takes the rest of the directive): run COMMAND (from `cwd`)
//!   before the block, wait for its port on stdout (a line `PORT` or `listening PORT`), give the block's commands
//!   `PORT` in their environment, and kill it after the block (for `ws://` examples).
//! - `not-run=REASON`: the block is shown, not run (only for what needs a service the test
//!   cannot start); the reason is required.
//!
//! Write examples whose shape does not depend on timing: `--launches N` or `--until-down`
//! rather than `--for`, and `…` over what a slow machine changes (the day's predictions, the
//! strip, a timer's Why). The test runs them one at a time (`MCPL_DOCTOR_DOCS_JOBS=N` for more),
//! beside the other tests, on a machine that may be busy.
//!
//! A `match=numbers` example that differs is run once more before it fails (a busy machine can
//! stall a server's start past its handshake timeout).
//!
//! In the expected output, a line `…` (or starting with `…  (`) stands for any number of lines.
//! `MCPL_DOCTOR_BLESS=1 cargo test --test cli docs` rewrites the output of every example that
//! has no `…` line with what the binary printed, in place.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::support::root;

#[derive(Debug, Clone)]
struct Example {
    file: PathBuf,
    /// 1-based line of the block's first `$ ` line.
    line: usize,
    cwd: PathBuf,
    columns: u16,
    status: Option<i32>,
    numbers: bool,
    not_run: Option<String>,
    server: Option<String>,
    /// (command, expected output lines, the block's line range of those output lines)
    steps: Vec<(String, Vec<String>, std::ops::Range<usize>)>,
}

fn pages() -> Vec<PathBuf> {
    let mut pages = vec![root().join("README.md")];
    let mut docs: Vec<PathBuf> = std::fs::read_dir(root().join("docs"))
        .expect("docs/")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .collect();
    docs.sort();
    pages.extend(docs);
    pages
}

fn examples_of(file: &Path) -> Vec<Example> {
    let text = std::fs::read_to_string(file).expect("a page");
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        if !lines[i].starts_with("```") {
            i += 1;
            continue;
        }
        let open = i;
        let close = (open + 1..lines.len())
            .find(|&j| lines[j].starts_with("```"))
            .unwrap_or(lines.len());
        i = close + 1;
        let body = &lines[open + 1..close.min(lines.len())];
        if !body.first().is_some_and(|l| l.starts_with("$ ")) {
            continue;
        }
        let directive = open
            .checked_sub(1)
            .map(|k| lines[k].trim())
            .filter(|l| l.starts_with("<!-- example:") && l.ends_with("-->"))
            .map(|l| l["<!-- example:".len()..l.len() - 3].trim().to_string())
            .unwrap_or_default();
        let mut ex = Example {
            file: file.to_path_buf(),
            line: open + 2,
            cwd: root(),
            columns: 80,
            status: None,
            numbers: false,
            not_run: None,
            server: None,
            steps: Vec::new(),
        };
        let (directive, server) = match directive.find("server=") {
            Some(k) => (
                &directive[..k],
                Some(directive[k + "server=".len()..].trim()),
            ),
            None => (directive.as_str(), None),
        };
        ex.server = server.map(str::to_string);
        if let Some(reason) = directive.strip_prefix("not-run=") {
            ex.not_run = Some(reason.to_string());
        } else {
            for word in directive.split_whitespace() {
                match word.split_once('=') {
                    Some(("cwd", v)) => ex.cwd = root().join(v),
                    Some(("columns", v)) => ex.columns = v.parse().expect("columns=N"),
                    Some(("status", v)) => ex.status = Some(v.parse().expect("status=N")),
                    Some(("match", "numbers")) => ex.numbers = true,
                    Some(("match", "exact")) => ex.numbers = false,
                    _ => panic!(
                        "{}:{}: unknown example directive {word:?}",
                        file.display(),
                        open
                    ),
                }
            }
        }
        for (k, l) in body.iter().enumerate() {
            let at = open + 1 + k;
            if let Some(cmd) = l.strip_prefix("$ ") {
                ex.steps.push((cmd.to_string(), Vec::new(), at + 1..at + 1));
            } else if let Some(step) = ex.steps.last_mut() {
                step.1.push(l.to_string());
                step.2.end = at + 1;
            }
        }
        out.push(ex);
    }
    out
}

/// Numbers to `0`, durations to `0 s`; runs of spaces and of table rules to one.
fn loose(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut last: Option<char> = None;
    for c in line.trim_end().chars() {
        let c = if c.is_ascii_digit() { '0' } else { c };
        let squash = matches!(c, '0' | ' ' | '─' | '═' | '┄' | '-' | '·' | '█' | '▄');
        if squash && last == Some(c) {
            continue;
        }
        out.push(c);
        last = Some(c);
    }
    while out.contains("0.0") {
        out = out.replace("0.0", "0");
    }
    // Every unit of a duration reads as `s`, and `0 s 0 s` (`2 min 58 s`) as one.
    let mut units = String::with_capacity(out.len());
    let mut rest = out.as_str();
    while let Some(k) = rest.find("0 ") {
        units.push_str(&rest[..k + 2]);
        rest = &rest[k + 2..];
        for unit in ["ms", "min", "s", "h", "d"] {
            if let Some(after) = rest.strip_prefix(unit) {
                if !after.starts_with(|c: char| c.is_alphanumeric()) {
                    units.push('s');
                    rest = after;
                    break;
                }
            }
        }
    }
    units.push_str(rest);
    while units.contains("0 s 0 s") {
        units = units.replace("0 s 0 s", "0 s");
    }
    units
}

fn is_elision(line: &str) -> bool {
    let t = line.trim();
    t == "…" || t.starts_with("…  (") || t.starts_with("… (")
}

/// For `match=numbers`: each run of prose lines (up to a blank line, a table line or a `…`)
/// as one line, and each table row (a line whose first cell is not empty, with the lines under
/// it whose first cell is) as one line, its cells joined column by column; so text that wraps
/// elsewhere because a number grew still matches.
fn paragraphs(lines: &[String]) -> Vec<String> {
    fn join(into: &mut String, more: &str) {
        if !into.is_empty() && !into.ends_with('-') && !more.is_empty() {
            into.push(' ');
        }
        into.push_str(more);
    }
    let mut out = Vec::new();
    let mut prose: Option<String> = None;
    let mut row: Option<Vec<String>> = None;
    let flush_row = |row: &mut Option<Vec<String>>, out: &mut Vec<String>| {
        if let Some(cells) = row.take() {
            out.push(format!("│ {} │", cells.join(" ┆ ")));
        }
    };
    for l in lines {
        let t = l.trim();
        if let Some(inner) = t.strip_prefix('│') {
            if let Some(p) = prose.take() {
                out.push(p);
            }
            let inner = inner.strip_suffix('│').unwrap_or(inner);
            let cells: Vec<&str> = inner.split('┆').map(str::trim).collect();
            match row.as_mut() {
                Some(r) if cells[0].is_empty() && r.len() == cells.len() => {
                    for (into, more) in r.iter_mut().zip(&cells) {
                        join(into, more);
                    }
                }
                _ => {
                    flush_row(&mut row, &mut out);
                    row = Some(cells.iter().map(|c| c.to_string()).collect());
                }
            }
            continue;
        }
        flush_row(&mut row, &mut out);
        let rule = t.starts_with(['┌', '╞', '├', '└']);
        if t.is_empty() || rule || is_elision(l) {
            out.extend(prose.take());
            out.push(l.clone());
        } else if let Some(p) = prose.as_mut() {
            join(p, t);
        } else {
            prose = Some(l.trim_end().to_string());
        }
    }
    flush_row(&mut row, &mut out);
    out.extend(prose);
    out
}

/// Whether `actual` matches `expected`, `…` lines standing for any run of lines.
fn matches(expected: &[String], actual: &[String], numbers: bool) -> bool {
    if numbers {
        return matches_loosely(&paragraphs(expected), actual).is_ok();
    }
    matches_lines(expected, actual)
}

fn matches_lines(expected: &[String], actual: &[String]) -> bool {
    let eq = |e: &str, a: &str| e.trim_end() == a.trim_end();
    // Dynamic programming over (expected, actual) positions.
    let (n, m) = (expected.len(), actual.len());
    let mut ok = vec![vec![false; m + 1]; n + 1];
    ok[n][m] = true;
    for i in (0..n).rev() {
        for j in (0..=m).rev() {
            ok[i][j] = if is_elision(&expected[i]) {
                ok[i + 1][j] || (j < m && ok[i][j + 1])
            } else {
                j < m && eq(&expected[i], &actual[j]) && ok[i + 1][j + 1]
            };
        }
    }
    ok[0][0]
}

/// The longest a paragraph or a table row may wrap to.
const MAX_WRAP: usize = 40;

/// `match=numbers`: each expected paragraph or row (`paragraphs`) against a run of actual
/// lines that reads the same once joined, wherever the binary broke its lines. `Err` holds
/// the first expected unit that no run matched, and the actual lines where it was looked for.
fn matches_loosely(units: &[String], actual: &[String]) -> Result<(), (String, usize)> {
    let same = |unit: &str, run: &[String]| {
        let joined = paragraphs(run);
        joined.len() == 1 && loose(&joined[0]) == loose(unit)
    };
    let (n, m) = (units.len(), actual.len());
    let mut ok = vec![vec![false; m + 1]; n + 1];
    ok[n][m] = true;
    for i in (0..n).rev() {
        for j in (0..=m).rev() {
            ok[i][j] = if is_elision(&units[i]) {
                ok[i + 1][j] || (j < m && ok[i][j + 1])
            } else {
                (j + 1..=m.min(j + MAX_WRAP))
                    .any(|k| ok[i + 1][k] && same(&units[i], &actual[j..k]))
            };
        }
    }
    if ok[0][0] {
        return Ok(());
    }
    // For the message: follow the first matches as far as they go.
    let (mut i, mut j) = (0, 0);
    while i < n {
        if is_elision(&units[i]) {
            return Err((units[i].clone(), j));
        }
        match (j + 1..=m.min(j + MAX_WRAP)).find(|&k| same(&units[i], &actual[j..k])) {
            Some(k) => (i, j) = (i + 1, k),
            None => break,
        }
    }
    Err((units.get(i).cloned().unwrap_or_default(), j))
}

/// The first line where they part, for the failure message.
fn first_difference(expected: &[String], actual: &[String], numbers: bool) -> String {
    if numbers {
        return match matches_loosely(&paragraphs(expected), actual) {
            Ok(()) => String::new(),
            Err((unit, j)) if is_elision(&unit) => {
                format!("(after line {j} of the output, past a `…`)")
            }
            Err((unit, j)) => format!(
                "line {}:\n  page:   {unit}\n  binary: {}",
                j + 1,
                actual[j.min(actual.len())..]
                    .iter()
                    .take(3)
                    .map(String::as_str)
                    .collect::<Vec<_>>()
                    .join("\n          ")
            ),
        };
    }
    for (k, e) in expected.iter().enumerate() {
        if is_elision(e) {
            return format!("(after line {k} of the output, past a `…`)");
        }
        let a = actual
            .get(k)
            .map(String::as_str)
            .unwrap_or("<end of output>");
        if e.trim_end() != a.trim_end() {
            return format!("line {}:\n  page:   {e}\n  binary: {a}", k + 1);
        }
    }
    format!(
        "the binary printed {} more lines",
        actual.len().saturating_sub(expected.len())
    )
}

/// A `server=` command: started before its block, killed after it.
struct Service {
    child: std::process::Child,
    port: String,
}

impl Service {
    fn start(cmd: &str, cwd: &Path, path: &str) -> Service {
        use std::io::BufRead;
        let mut child = Command::new("bash")
            .arg("-c")
            .arg(format!("exec {cmd}"))
            .current_dir(cwd)
            .env("PATH", path)
            .env_remove("PORT")
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("the example's server starts");
        let stdout = child.stdout.take().expect("its stdout");
        let port = std::io::BufReader::new(stdout)
            .lines()
            .map_while(Result::ok)
            .map(|l| l.trim().trim_start_matches("listening ").to_string())
            .find(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()))
            .unwrap_or_else(|| panic!("`{cmd}` ended without printing its port"));
        Service { child, port }
    }

    fn stop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

struct Ran {
    ex: Example,
    outputs: Vec<(Vec<String>, Option<i32>)>,
}

fn run(ex: &Example) -> Ran {
    let bin_dir = Path::new(env!("CARGO_BIN_EXE_mcpl-doctor"))
        .parent()
        .expect("the binary's folder")
        .to_path_buf();
    let path = format!(
        "{}:{}",
        bin_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut server = ex
        .server
        .as_ref()
        .map(|cmd| Service::start(cmd, &ex.cwd, &path));
    let port = server.as_ref().map(|s| s.port.clone()).unwrap_or_default();
    let mut cwd = ex.cwd.clone();
    let mut outputs = Vec::new();
    for (cmd, _, _) in &ex.steps {
        if let Some(dir) = cmd.strip_prefix("cd ") {
            cwd = root().join(dir.trim());
            outputs.push((Vec::new(), Some(0)));
            continue;
        }
        let o = Command::new("bash")
            .arg("-c")
            .arg(format!("{cmd} 2>&1"))
            .current_dir(&cwd)
            .env("PATH", &path)
            .env("COLUMNS", ex.columns.to_string())
            .env("PORT", &port)
            .env("NO_COLOR", "1")
            .env_remove("TERM")
            .env("LANG", "C.UTF-8")
            .env("LC_ALL", "C.UTF-8")
            .env_remove("MCPL_DOCTOR_PRESET")
            .env_remove("MCPL_DOCTOR_HOST")
            .env_remove("MCPL_DOCTOR_FORMAT")
            .output()
            .expect("bash runs");
        let text = String::from_utf8_lossy(&o.stdout).into_owned();
        outputs.push((text.lines().map(str::to_string).collect(), o.status.code()));
    }
    if let Some(s) = server.as_mut() {
        s.stop();
    }
    Ran {
        ex: ex.clone(),
        outputs,
    }
}

#[test]
fn every_example_in_the_readme_and_docs_is_what_the_binary_prints() {
    let examples: Vec<Example> = pages().iter().flat_map(|p| examples_of(p)).collect();
    assert!(
        examples.len() >= 3,
        "found only {} examples",
        examples.len()
    );
    let bless = std::env::var_os("MCPL_DOCTOR_BLESS").is_some();
    // One at a time by default: a dozen Node servers starting at once on 2 busy cores take
    // longer than a handshake timeout, and slow the timing tests running beside this one.
    let queue = std::sync::Mutex::new(
        examples
            .into_iter()
            .filter(|ex| ex.not_run.is_none())
            .collect::<Vec<_>>(),
    );
    let jobs = std::env::var("MCPL_DOCTOR_DOCS_JOBS")
        .ok()
        .and_then(|j| j.parse().ok())
        .unwrap_or(1usize);
    let mut results: Vec<Ran> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..jobs)
            .map(|_| {
                scope.spawn(|| {
                    let mut done = Vec::new();
                    while let Some(ex) = queue.lock().expect("the queue").pop() {
                        done.push(run(&ex));
                    }
                    done
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().expect("an example thread"))
            .collect()
    });
    results.sort_by(|a, b| (&a.ex.file, a.ex.line).cmp(&(&b.ex.file, b.ex.line)));
    let mut failures = Vec::new();
    let mut blessed: Vec<(PathBuf, std::ops::Range<usize>, Vec<String>)> = Vec::new();
    for mut ran in results {
        // A timing example that differs runs once more: a machine stalled for seconds (Node
        // taking longer than the handshake timeout to start) is not a change to the tool.
        let differs = |ran: &Ran| {
            ran.ex
                .steps
                .iter()
                .zip(&ran.outputs)
                .any(|((_, expected, _), (actual, _))| !matches(expected, actual, true))
        };
        if ran.ex.numbers && !bless && differs(&ran) {
            ran = run(&ran.ex);
        }
        let ex = &ran.ex;
        let where_ = format!(
            "{}:{}",
            ex.file.strip_prefix(root()).unwrap_or(&ex.file).display(),
            ex.line
        );
        for ((cmd, expected, range), (actual, _)) in ex.steps.iter().zip(&ran.outputs) {
            if !matches(expected, actual, ex.numbers) {
                if bless && !expected.iter().any(|l| is_elision(l)) {
                    blessed.push((ex.file.clone(), range.clone(), actual.clone()));
                } else {
                    failures.push(format!(
                        "{where_}: `{cmd}` prints something else than the page shows: {}",
                        first_difference(expected, actual, ex.numbers)
                    ));
                }
            }
        }
        if let (Some(want), Some((_, got))) = (ex.status, ran.outputs.last()) {
            if Some(want) != *got {
                failures.push(format!(
                    "{where_}: exit status {got:?}, the page says {want}"
                ));
            }
        }
    }
    // Bless from the bottom of each file up, so earlier ranges stay valid.
    blessed.sort_by(|a, b| (&a.0, b.1.start).cmp(&(&b.0, a.1.start)));
    for (file, range, actual) in blessed {
        let text = std::fs::read_to_string(&file).expect("the page");
        let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
        lines.splice(range, actual);
        std::fs::write(&file, lines.join("\n") + "\n").expect("write the page");
    }
    assert!(
        failures.is_empty(),
        "{} example(s) differ (MCPL_DOCTOR_BLESS=1 rewrites those without `…`):\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

#[test]
fn the_matcher_elides_and_loosens_as_documented() {
    let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
    assert!(matches(
        &s(&["a", "…", "z"]),
        &s(&["a", "b", "c", "z"]),
        false
    ));
    assert!(matches(
        &s(&["a", "…  (more)", "z"]),
        &s(&["a", "z"]),
        false
    ));
    assert!(!matches(&s(&["a", "z"]), &s(&["a", "b", "z"]), false));
    assert!(matches(
        &s(&["took 93 ms  │"]),
        &s(&["took 104 ms │"]),
        true
    ));
    assert!(matches(&s(&["took 93 ms"]), &s(&["took 3.97 s"]), true));
    assert!(matches(
        &s(&["first at 8.2 s (attempt 5)"]),
        &s(&["first at 2 min 58 s (attempt 5)"]),
        true
    ));
    assert!(!matches(&s(&["took 93 ms"]), &s(&["took 93 tools"]), true));
    assert!(!matches(&s(&["took 93 ms"]), &s(&["took 104 ms"]), false));
    assert_eq!(loose("0.617 s, 14 min, 3 launches"), "0 s, 0 s, 0 launches");
    assert!(!matches(
        &s(&["Stopped: the host would", "  launch at 2.5 s (reset-on-"]),
        &s(&[
            "Stopped: the host",
            "  would launch at 25.48 s (reset-on-handshake"
        ]),
        true
    ));
    assert!(matches(
        &s(&[
            "│ a    ┆ still up 3 s after ┆ x │",
            "│      ┆ its handshake      ┆   │",
            "│ b    ┆ y                  ┆   │",
        ]),
        &s(&[
            "│ a ┆ still up 3.1 s ┆ x │",
            "│   ┆ after its      ┆   │",
            "│   ┆ handshake      ┆   │",
            "│ b ┆ y              ┆   │",
        ]),
        true
    ));
    assert!(matches(
        &s(&[
            "Stopped: the host would",
            "  launch at 2.5 s (reset-on-",
            "  handshake)",
            "",
            "x"
        ]),
        &s(&[
            "Stopped: the host",
            "  would launch at 25.48 s (reset-on-handshake)",
            "",
            "x"
        ]),
        true
    ));
}
