//! Hostile processes, round 3 (issue 21 items 5, 7 and 10): a descendant that leaves the group
//! and keeps re-forking (a new pid every few milliseconds), stopped by freezing the whole
//! marked set before killing it, on the normal stop and on a SIGKILL of the probe; launch
//! markers that are random and matched exactly; too few file descriptors.

use std::process::{Command, Stdio};

use crate::support::stderr;

// ---------------------------------------------------------------------------------------------
// Item 10: `ulimit -n 7`.

#[test]
fn too_few_file_descriptors_is_said_not_panicked() {
    let exe = env!("CARGO_BIN_EXE_mcpl-doctor");
    for n in [7, 12] {
        let o = Command::new("sh")
            .arg("-c")
            .arg(format!(
                "ulimit -n {n} && exec \"$0\" probe --launches 1 --watch 100ms -- true"
            ))
            .arg(exe)
            .stdin(Stdio::null())
            .output()
            .expect("sh runs");
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "ulimit -n {n}: {err}");
        assert!(!err.contains("panicked"), "ulimit -n {n}: {err}");
        assert!(
            err.contains("too few file descriptors: the limit is"),
            "ulimit -n {n}: {err}"
        );
    }
    // A low soft limit under a higher hard one is raised, and the probe runs.
    let o = Command::new("sh")
        .arg("-c")
        .arg("ulimit -S -n 12 && exec \"$0\" probe --launches 1 --watch 100ms -- true")
        .arg(exe)
        .stdin(Stdio::null())
        .output()
        .expect("sh runs");
    assert!(
        !stderr(&o).contains("too few file descriptors"),
        "{}",
        stderr(&o)
    );
}
