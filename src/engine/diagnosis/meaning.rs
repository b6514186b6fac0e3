//! What an exit code or a signal means for a server, in a few words (for the evidence).

use crate::engine::policy::signal_name;

/// What an exit code is known to mean, when it is one of the few with a meaning.
pub(crate) fn exit_meaning(code: i32) -> Option<String> {
    Some(match code {
        124 => "what `timeout(1)` exits with when its time runs out".to_string(),
        125 => "`timeout(1)` or `env` itself failed".to_string(),
        126 => "a command found but not executable".to_string(),
        127 => "a command not found".to_string(),
        129..=159 => {
            let s = code - 128;
            format!(
                "128 + {s}: a child killed by {} ({}), passed on by a wrapper",
                signal_name(s),
                signal_meaning(s)
            )
        }
        _ => return None,
    })
}

/// What a signal usually means for a server.
pub(crate) fn signal_meaning(signal: i32) -> &'static str {
    match signal {
        1 => "its terminal or session closed",
        2 => "Ctrl-C",
        4 => "an instruction this CPU lacks: a binary built for another CPU",
        5 => "a trap: V8's fatal-error handler ends Node this way",
        6 => "abort(): a failed assertion or a fatal runtime error",
        7 => "a bad memory access: a truncated memory-mapped file, a full /dev/shm",
        8 => "an arithmetic fault in native code",
        9 => "kill -9: the OOM killer, a supervisor, a hard limit",
        11 => "an invalid memory access in native code",
        13 => "it wrote to a pipe nobody reads",
        15 => "asked to stop: a supervisor, `timeout`, `docker stop`",
        24 => "its CPU-time limit ran out",
        25 => "its file-size limit was reached",
        _ => "a signal",
    }
}

/// The line where a managed runtime reports the exception that ended it before it aborts
/// (SIGABRT by the runtime itself, not a crash in native code): .NET's `Unhandled exception.
/// System.X: ...` (`Unhandled Exception:` in .NET Framework and Mono), C++'s `terminate called
/// after throwing an instance of 'X'`, a Rust panic under `panic = "abort"` (`thread 'main'
/// panicked at ...`). The first such line of `lines`, trimmed.
pub(crate) fn unhandled_report<'a>(lines: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    const REPORTS: &[&str] = &[
        "Unhandled exception. ",
        "Unhandled Exception: ",
        "terminate called after throwing an instance of ",
    ];
    lines.into_iter().map(str::trim).find(|l| {
        REPORTS.iter().any(|r| l.starts_with(r))
            || (l.starts_with("thread '") && l.contains("' panicked at "))
    })
}

/// `exit 124 (what ...)`: an exit code with its meaning, when it has one.
pub(crate) fn exit_text(code: i32) -> String {
    match exit_meaning(code) {
        Some(m) => format!("exit {code} ({m})"),
        None => format!("exit {code}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exit_codes_and_signals_have_their_meanings() {
        assert_eq!(
            exit_text(124),
            "exit 124 (what `timeout(1)` exits with when its time runs out)"
        );
        assert!(exit_text(137).contains("128 + 9: a child killed by SIGKILL"));
        assert!(exit_text(143).contains("SIGTERM"));
        assert!(exit_text(133).contains("SIGTRAP (a trap: V8's fatal-error handler"));
        assert_eq!(exit_text(1), "exit 1");
        assert_eq!(signal_name(24), "SIGXCPU");
    }

    #[test]
    fn an_unhandled_exception_report_is_a_runtime_s_structure() {
        // @microsoft/workiq 1.0.0 (.NET) with `--log-level verbose`, then SIGABRT.
        let net = [
            "Unhandled exception. System.InvalidOperationException: Cannot parse argument 'verbose' for option '--log-level' as expected type 'Microsoft.Extensions.Logging.LogLevel'.",
            "   at System.CommandLine.Binding.ArgumentConverter.GetValueOrDefault[T](ArgumentConversionResult result)",
        ];
        assert_eq!(unhandled_report(net), Some(net[0]));
        let cpp = [
            "terminate called after throwing an instance of 'std::runtime_error'",
            "  what():  bad config",
        ];
        assert_eq!(unhandled_report(cpp), Some(cpp[0]));
        let rust = ["thread 'main' panicked at src/main.rs:4:5:", "no port"];
        assert_eq!(unhandled_report(rust), Some(rust[0]));
        // Healthy look-alikes: a log line about exceptions, V8's fatal error, a handled one.
        for quiet in [
            "[info] handled exception count: 0",
            "# Fatal error in , line 0",
            "Error: Unhandled exception in handler was logged",
            "panicked at nothing",
        ] {
            assert_eq!(unhandled_report([quiet]), None, "{quiet}");
        }
    }
}
