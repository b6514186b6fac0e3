//! The structured row keyed on a configuration file's parser refusing it (see
//! [`super::structured`]): a parser's own exception type (PyYAML's `yaml.scanner.ScannerError`,
//! the standard library's `json.decoder.JSONDecodeError` and `tomllib.TOMLDecodeError`, Node's
//! `SyntaxError: ... in JSON at position N`) and a stat experiment: exactly one of the entry's
//! values (an argument or a variable) is a file that exists with that format's extension (or
//! the very path PyYAML prints, `in "/x/c.yaml", line 2, column 1`). The file is there; its
//! content is wrong: the next step names the file, the value that holds it and where the parser
//! stopped, never `crash` at a library's frame.

use std::path::{Path, PathBuf};

use super::given::entry_values;
use super::model::{cut, Found, Setting, Source};
use super::table::Id;

/// A parser's exception: its full type (or Node's head and the words its message holds), the
/// format and the extensions a file of it has.
struct Parser {
    types: &'static [&'static str],
    /// Words the message must hold (Node's `JSON.parse`: ` in JSON`, ` is not valid JSON`).
    within: &'static [&'static str],
    format: &'static str,
    extensions: &'static [&'static str],
}

const YAML: &[&str] = &["yaml", "yml"];

const PARSERS: &[Parser] = &[
    Parser {
        types: &[
            "yaml.scanner.ScannerError",
            "yaml.parser.ParserError",
            "yaml.composer.ComposerError",
            "yaml.constructor.ConstructorError",
            "ruamel.yaml.scanner.ScannerError",
            "ruamel.yaml.parser.ParserError",
        ],
        within: &[],
        format: "YAML",
        extensions: YAML,
    },
    // js-yaml 4's `YAMLException: MESSAGE (LINE:COLUMN)`, its snippet under it.
    Parser {
        types: &["YAMLException"],
        within: &[],
        format: "YAML",
        extensions: YAML,
    },
    Parser {
        types: &["json.decoder.JSONDecodeError", "json.JSONDecodeError"],
        within: &[],
        format: "JSON",
        extensions: &["json"],
    },
    Parser {
        types: &[
            "tomllib.TOMLDecodeError",
            "tomli.TOMLDecodeError",
            "toml.decoder.TomlDecodeError",
        ],
        within: &[],
        format: "TOML",
        extensions: &["toml"],
    },
    Parser {
        types: &["SyntaxError"],
        within: &[" in JSON at position ", " is not valid JSON"],
        format: "JSON",
        extensions: &["json"],
    },
];

/// The parser of `line` (`type: message`, from the line's start), if one.
fn parser_of(line: &str) -> Option<&'static Parser> {
    let (head, message) = line.trim_end().split_once(": ")?;
    PARSERS.iter().find(|p| {
        p.types.contains(&head)
            && (p.within.is_empty() || p.within.iter().any(|w| message.contains(w)))
    })
}

/// PyYAML's mark: `  in "/x/c.yaml", line 2, column 1` (the path and where).
fn yaml_mark(line: &str) -> Option<(&str, &str)> {
    let rest = line.trim().strip_prefix("in \"")?;
    let (path, at) = rest.split_once("\", ")?;
    at.starts_with("line ").then_some((path, at))
}

/// js-yaml's place at the end of its head (`YAMLException: ... (3:1)`), as PyYAML's mark
/// says it: `line 3, column 1`.
fn js_yaml_at(head: &str) -> Option<String> {
    let rest = head.strip_prefix("YAMLException: ")?;
    let (_, tail) = rest.trim_end().strip_suffix(')')?.rsplit_once(" (")?;
    let (line, column) = tail.split_once(':')?;
    let (line, column): (u32, u32) = (line.parse().ok()?, column.parse().ok()?);
    Some(format!("line {line}, column {column}"))
}

/// `v` as the server opens it: a relative path under the folder it starts in.
fn resolve(v: &str, s: &Setting) -> Option<PathBuf> {
    let p = Path::new(v);
    if p.is_absolute() {
        return Some(p.to_path_buf());
    }
    let dir = s.cwd.clone().or_else(|| std::env::current_dir().ok())?;
    Some(dir.join(p))
}

/// The row: the last parser error of the launch, tied to the one entry value naming a file of
/// its format that exists (or the path the parser names).
pub(super) fn row(lines: &[&str], s: &Setting) -> Option<Found> {
    let (i, p) = lines
        .iter()
        .enumerate()
        .rev()
        .find_map(|(i, l)| parser_of(l).map(|p| (i, p)))?;
    let head = lines[i].trim();
    // PyYAML's lines under its head: the problem (`found character '\t' that cannot start any
    // token`) and the mark of each (the last one is where it stopped).
    // js-yaml's are its snippet (` 3 | →- x`), not a problem or a mark: its head says where.
    let js_yaml = js_yaml_at(head);
    let under: Vec<&str> = lines[i + 1..]
        .iter()
        .take_while(|l| !l.trim().is_empty() && !l.starts_with("Traceback"))
        .take(if js_yaml.is_some() { 0 } else { 6 })
        .copied()
        .collect();
    let mark = under.iter().rev().find_map(|l| yaml_mark(l));
    let ties: Vec<(String, String, PathBuf)> = entry_values(s)
        .into_iter()
        .filter_map(|(shown, v)| {
            let ext = Path::new(&v).extension()?.to_str()?.to_ascii_lowercase();
            if !p.extensions.contains(&ext.as_str()) {
                return None;
            }
            let path = resolve(&v, s)?;
            let named = mark.is_some_and(|(m, _)| Path::new(m) == path || m == v);
            (path.is_file() && (mark.is_none() || named)).then_some((shown, v, path))
        })
        .collect();
    let [(shown, v, path)] = ties.as_slice() else {
        return None;
    };
    let problem = under
        .iter()
        .map(|l| l.trim())
        .find(|l| yaml_mark(l).is_none())
        .map(|l| format!(": {l}"))
        .unwrap_or_default();
    let tab = if problem.contains("'\\t'") || head.contains("tab characters") {
        "YAML indents with spaces, never tabs"
    } else {
        ""
    };
    let mark = mark.or(js_yaml.as_ref().map(|at| ("", at.as_str())));
    let at = match mark {
        Some((_, at)) if !tab.is_empty() => format!(" ({at}; {tab})"),
        Some((_, at)) => format!(" ({at})"),
        None if !tab.is_empty() => format!(" ({tab})"),
        None => String::new(),
    };
    let mut evidence = vec![(Source::Stderr, cut(head))];
    if !problem.is_empty() {
        evidence.push((Source::Stderr, cut(problem.trim_start_matches(": "))));
    }
    evidence.push((
        Source::Tried,
        format!("looked at {}: a file ({shown})", path.display()),
    ));
    Some(Found {
        id: Id::BadArgument,
        summary: format!(
            "the file {shown} names is there, but it is not valid {} ({})",
            p.format,
            cut(head)
        ),
        next: format!(
            "fix the {} in `{v}`, the file {shown} names{at}: its parser says \"{}\"",
            p.format,
            cut(&format!(
                "{}{problem}",
                head.split_once(": ").map_or(head, |(_, m)| m)
            ))
        ),
        evidence,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_parsers_type_is_known_by_its_full_name_and_nodes_by_its_words() {
        assert_eq!(
            js_yaml_at("YAMLException: bad indentation of a mapping entry (2:5)").as_deref(),
            Some("line 2, column 5")
        );
        assert_eq!(js_yaml_at("YAMLException: no place (here)"), None);
        for (line, format) in [
            ("yaml.scanner.ScannerError: while scanning for the next token", "YAML"),
            (
                "json.decoder.JSONDecodeError: Expecting property name enclosed in double quotes: line 1 column 12 (char 11)",
                "JSON",
            ),
            ("tomllib.TOMLDecodeError: Invalid value (at line 1, column 8)", "TOML"),
            (
                "YAMLException: tab characters must not be used in indentation (3:1)",
                "YAML",
            ),
            (
                "SyntaxError: Expected double-quoted property name in JSON at position 11",
                "JSON",
            ),
        ] {
            assert_eq!(parser_of(line).map(|p| p.format), Some(format), "{line}");
        }
        for line in [
            "myapp.ScannerError: bad",
            "ScannerError: while scanning",
            "SyntaxError: Unexpected token '??='",
            "  yaml.scanner.ScannerError: indented is a frame's text",
        ] {
            assert!(parser_of(line).is_none(), "{line}");
        }
        assert_eq!(
            yaml_mark("  in \"/tmp/c.yaml\", line 2, column 1"),
            Some(("/tmp/c.yaml", "line 2, column 1"))
        );
    }
}
