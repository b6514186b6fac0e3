use super::*;
use crate::engine::diagnosis::evidence::{self, Fact};

fn lines(text: &str) -> Vec<String> {
    text.lines().map(str::to_string).collect()
}

/// pagerduty-mcp 0.x (rich 14) without PAGERDUTY_USER_API_KEY: its exact stderr.
const PAGERDUTY: &str = include_str!("../../../fixtures/servers/rich-traceback.txt");

fn facts(read: &[String]) -> Vec<Fact> {
    let l: Vec<&str> = read.iter().map(String::as_str).collect();
    evidence::python(&l)
}

#[test]
fn a_rich_traceback_is_read_as_the_plain_one_with_its_frames() {
    let read = unbox(&lines(PAGERDUTY));
    assert!(read.contains(&"Traceback (most recent call last):".to_string()));
    let f = facts(&read);
    let Some(Fact::Python {
        kind,
        message,
        library_frame,
        ..
    }) = f.last()
    else {
        panic!("{read:#?}");
    };
    assert_eq!(kind, "RuntimeError");
    assert!(message.starts_with("An API key is required"), "{message}");
    let frame = library_frame.as_deref().unwrap_or_default();
    assert!(
        frame.ends_with("site-packages/pagerduty_mcp/context/application_context_strategy.py\", line 24, in create_pd_client"),
        "{frame}"
    );
    // The raised line is under its frame; the locals' boxes are gone.
    assert!(
        read.iter()
            .any(|l| l.trim().starts_with("raise RuntimeError(")),
        "{read:#?}"
    );
    assert!(
        !read.iter().any(|l| l.contains("api_key = None")),
        "{read:#?}"
    );
}

#[test]
fn a_box_whose_head_scrolled_out_is_read_from_its_raised_line() {
    // The probe's stderr tail: its last 20 lines.
    let all = lines(PAGERDUTY);
    let tail = all[all.len() - 20..].to_vec();
    assert!(!tail.iter().any(|l| l.contains("Traceback")));
    let read = unbox(&tail);
    let Some(Fact::Python {
        kind,
        library_frame,
        ..
    }) = facts(&read).pop()
    else {
        panic!("{read:#?}");
    };
    assert_eq!(kind, "RuntimeError");
    assert!(
        library_frame.is_some_and(|f| f.contains("application_context_strategy.py\", line 24")),
        "{read:#?}"
    );
}

#[test]
fn loguru_marks_the_raising_frame_with_an_arrow() {
    // loguru 0.7 `logger.exception` (backtrace and diagnose on).
    let text = "2026-01-02 10:00:00.000 | ERROR    | __main__:main:9 - boom\nTraceback (most recent call last):\n\n> File \"/app/server.py\", line 12, in <module>\n    main()\n    └ <function main at 0x7f>\n\n  File \"/app/server.py\", line 8, in main\n    raise ValueError(\"DB_URL is not set\")\n\nValueError: DB_URL is not set";
    let read = unbox(&lines(text));
    let Some(Fact::Python {
        kind, user_frame, ..
    }) = facts(&read).pop()
    else {
        panic!("{read:#?}");
    };
    assert_eq!(kind, "ValueError");
    assert!(
        user_frame.is_some_and(|f| f.contains("line 8, in main")),
        "{read:#?}"
    );
}

#[test]
fn a_rich_panel_that_is_no_traceback_is_left_alone() {
    // FastMCP 2's start banner and a rich log box: no head, no raised line.
    let panel = lines("╭─ FastMCP 2.0 ──────────────────────────╮\n│ Server name: weather                   │\n│ Transport:   STDIO                     │\n│   12 │ not a frame                     │\n╰────────────────────────────────────────╯\nValueError: an old warning");
    assert!(!any(&panel));
    assert_eq!(unbox(&panel), panel);
}
