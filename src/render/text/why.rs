//! The "Why" section: each likely cause with how sure it is, its evidence (quoted, with launch
//! numbers) and the next step. The engine decides the causes ([`crate::engine::diagnosis`]);
//! this only draws them, sanitising what the server wrote.

use std::io::{self, Write};

use super::layout::prose;
use crate::engine::diagnosis::Diagnosis;
use crate::render::sanitize::sanitize;

/// `launch 2`, `launches 1-3`, `launches 1, 3, 5-7`.
pub(crate) fn launches_text(launches: &[u32]) -> String {
    let mut sorted = launches.to_vec();
    sorted.sort_unstable();
    sorted.dedup();
    let mut parts: Vec<String> = Vec::new();
    let mut i = 0;
    while i < sorted.len() {
        let start = sorted[i];
        let mut end = start;
        while i + 1 < sorted.len() && sorted[i + 1] == end + 1 {
            i += 1;
            end = sorted[i];
        }
        parts.push(if end == start {
            start.to_string()
        } else {
            format!("{start}-{end}")
        });
        i += 1;
    }
    let word = if sorted.len() == 1 {
        "launch"
    } else {
        "launches"
    };
    format!("{word} {}", parts.join(", "))
}

/// The section, after a blank line: nothing when there is no diagnosis (nothing died).
pub(crate) fn write_why(out: &mut dyn Write, why: &[Diagnosis]) -> io::Result<()> {
    if why.is_empty() {
        return Ok(());
    }
    writeln!(out)?;
    writeln!(out, "Why:")?;
    for d in why {
        // Wrapped to the terminal, continuation lines indented under their item.
        let head = format!(
            "  {} ({} confidence): {}",
            d.id,
            d.confidence.as_str(),
            sanitize(&d.summary)
        );
        writeln!(out, "{}", prose(&head, "      "))?;
        for e in &d.evidence {
            let whence = if e.launches.is_empty() {
                e.source.as_str().to_string()
            } else {
                format!("{}, {}", launches_text(&e.launches), e.source.as_str())
            };
            let line = format!("    {whence}: {}", sanitize(&e.text));
            writeln!(out, "{}", prose(&line, "      "))?;
        }
        let next = format!("    next: {}", sanitize(&d.next_step));
        writeln!(out, "{}", prose(&next, "      "))?;
    }
    Ok(())
}

/// The surest cause in one line (a `--all` summary): `missing-dependency: ... (launches
/// 1-3)`, with how many others there are.
pub(crate) fn one_line(why: &[Diagnosis]) -> Option<String> {
    let d = why.first()?;
    let launches = if d.launches.is_empty() {
        String::new()
    } else {
        format!(", {}", launches_text(&d.launches))
    };
    let more = match why.len() - 1 {
        0 => String::new(),
        1 => "; 1 more cause".to_string(),
        n => format!("; {n} more causes"),
    };
    Some(format!(
        "{}: {} ({} confidence{launches}){more}",
        d.id,
        sanitize(&d.summary),
        d.confidence.as_str()
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn launch_lists_read_as_ranges() {
        assert_eq!(launches_text(&[2]), "launch 2");
        assert_eq!(launches_text(&[1, 2, 3]), "launches 1-3");
        assert_eq!(launches_text(&[5, 1, 3, 6, 7]), "launches 1, 3, 5-7");
    }
}
