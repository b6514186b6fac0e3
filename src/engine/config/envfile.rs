//! An `envFile` (VS Code, Cursor): `NAME=value` lines, `#` comments, an optional `export `,
//! values in single or double quotes (double quotes read `\n`), as VS Code's `parseEnvFile`.
//! Every value is a secret.

/// The variables of an env file's text, in order (a later line wins when the host merges them).
pub(super) fn parse(text: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for line in text.lines() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let line = line.strip_prefix("export ").unwrap_or(line);
        let Some((name, value)) = line.split_once('=') else {
            continue;
        };
        let name = name.trim();
        if name.is_empty() || name.contains(char::is_whitespace) {
            continue;
        }
        out.push((name.to_string(), unquote(value.trim())));
    }
    out
}

fn unquote(v: &str) -> String {
    let quoted = |q: char| v.len() >= 2 && v.starts_with(q) && v.ends_with(q);
    if quoted('"') {
        v[1..v.len() - 1].replace("\\n", "\n").replace("\\\"", "\"")
    } else if quoted('\'') {
        v[1..v.len() - 1].to_string()
    } else {
        // An unquoted value ends at a ` #` comment.
        v.split(" #").next().unwrap_or("").trim_end().to_string()
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn reads_dotenv_lines() {
        let text = "# c\nA=1\nexport B = two \nC=\"x\\ny\"\nD='$lit'\nE=v # note\nnot a line\n";
        let got = super::parse(text);
        let want = [
            ("A", "1"),
            ("B", "two"),
            ("C", "x\ny"),
            ("D", "$lit"),
            ("E", "v"),
        ];
        assert_eq!(
            got,
            want.iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect::<Vec<_>>()
        );
    }
}
