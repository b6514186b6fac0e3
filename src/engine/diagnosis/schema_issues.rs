//! A schema validator's issue list, read as a validation block (`evidence.rs`'s `Fact::Pydantic`, the row of
//! `Key::ValidationBlock`): objects with a `path` list and a `message`, beside the validator's
//! own `code`, `expected` or `received` (zod 3 and 4: `ZodError: [ { "code": "invalid_type",
//! "path": [ "API_KEY" ], "message": "Required" } ]` as JSON in its message, or as Node prints
//! its `issues`; what a server prints of them, t3-env's `Invalid environment variables: [ {
//! ..., path: [ 'LOG_LEVEL' ], message: ... } ]`), and ajv's errors (`instancePath: '/port'`
//! with its `keyword`). The structure, not the wording: a `path` that is a list (or ajv's
//! `instancePath` string) inside an object that has a validator's keys; an HTTP log record's
//! `path: '/users'` is none. Also an env validator's list (envalid: a line ending in `:`, then
//! indented `NAME: undefined` or `NAME: Invalid url: "x"` rows), see [`env_list`], and a
//! field-error map (t3-env 0.x's `{ X: [ 'message' ] }`), see [`field_map`].

/// One issue: the field (its path joined by `.`), the message and the kind (`missing` for a
/// value not there, else the validator's code). `evidence.rs` reads them as a validation block.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Issue {
    pub field: String,
    pub message: String,
    pub kind: Option<String>,
}

/// The keys that make an object with a path a validator's issue (joi's `type`, see
/// [`joi_type`], is one only in its dotted form).
const ISSUE_KEYS: &[&str] = &["code", "keyword", "expected", "received"];

/// joi's issue type (`details: [ { message, path: [ 'X' ], type: 'any.required', context } ]`,
/// joi 17): a schema kind and a rule joined by a dot, lower-case words (`string.base`,
/// `any.only`, `number.port`).
fn joi_type(t: &str) -> bool {
    t.split_once('.').is_some_and(|(a, b)| {
        [a, b].iter().all(|w| {
            !w.is_empty()
                && w.chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
        }) && !b.contains('.')
    })
}

/// The keys of a path whose items are objects (valibot 1's `path: [ { type: 'object', origin:
/// 'value', input: {...}, key: 'API_KEY', value: undefined } ]`): each item's own `key`.
fn object_path(object: &str) -> Option<Vec<String>> {
    let at = object.find("path:")?;
    let rest = object[at + "path:".len()..].trim_start();
    let inner = rest.strip_prefix('[')?.trim_start();
    if !inner.starts_with('{') {
        return None;
    }
    // The items at depth 1 of the list, each read for its own `key:` at its own level.
    let mut keys = Vec::new();
    let mut depth = 0i32;
    let mut start = None;
    for (i, c) in inner.char_indices() {
        match c {
            '{' | '[' => {
                if depth == 0 && c == '{' {
                    start = Some(i);
                }
                depth += 1;
            }
            '}' | ']' => {
                depth -= 1;
                if depth == 0 {
                    let item = &inner[start.take()?..=i];
                    keys.push(own_key(item)?);
                }
                if depth < 0 {
                    break;
                }
            }
            _ => {}
        }
        if i > 8192 {
            return None;
        }
    }
    (!keys.is_empty()).then_some(keys)
}

/// The `key: 'X'` of an inspected object at its own level (not in a nested `input: {...}`).
fn own_key(item: &str) -> Option<String> {
    let mut depth = 0i32;
    for (i, c) in item.char_indices() {
        match c {
            '{' | '[' => depth += 1,
            '}' | ']' => depth -= 1,
            _ if depth == 1 && item[i..].starts_with("key:") => {
                let before = item[..i].chars().next_back();
                if before.is_some_and(|b| b.is_ascii_alphanumeric() || b == '_') {
                    continue;
                }
                let v = item[i + "key:".len()..].trim_start();
                let q = v.chars().next().filter(|q| *q == '\'' || *q == '"')?;
                return quoted(&v[1..], q);
            }
            _ => {}
        }
    }
    None
}

/// The most issues read.
const MAX_ISSUES: usize = 8;

/// The issues of `lines` and the schema's kind (none when no object is an issue).
pub(crate) fn parse(lines: &[&str]) -> Option<(&'static str, Vec<Issue>)> {
    let text = lines.join("\n");
    if text.len() > 256 * 1024 {
        return None;
    }
    let mut fields: Vec<Issue> = Vec::new();
    let mut from = 0;
    while let Some((at, key)) = next_path_key(&text, from) {
        from = at + key.len();
        let Some(object) = enclosing(&text, at) else {
            continue;
        };
        let Some(f) = issue(object, key) else {
            continue;
        };
        if !fields
            .iter()
            .any(|g| g.field == f.field && g.message == f.message)
        {
            fields.push(f);
        }
        if fields.len() >= MAX_ISSUES {
            break;
        }
    }
    if fields.is_empty() {
        fields = env_list(lines);
    }
    if fields.is_empty() {
        fields = field_map(lines);
    }
    let model = if text.contains("instancePath") || text.contains("dataPath") {
        "JSON schema"
    } else {
        "schema"
    };
    (!fields.is_empty()).then_some((model, fields))
}

/// An env validator's list (envalid 8): under a line ending in `:`, indented rows `NAME:
/// text` whose name is a variable's (`UPPER_SNAKE`) and whose text is JavaScript's `undefined`
/// (the variable is not set) or a message before a quoted value (`Invalid url: "nope"`). A
/// dump of settings (`PORT: 3000`, `API_URL: "http://x"`) has neither.
fn env_list(lines: &[&str]) -> Vec<Issue> {
    let mut out = Vec::new();
    // The header's indent while under one.
    let mut header: Option<usize> = None;
    for l in lines {
        let t = l.trim();
        let indent = l.len() - l.trim_start().len();
        let row = t
            .split_once(": ")
            .is_some_and(|(n, _)| super::model::upper_snake(n));
        if !row {
            header = (t.ends_with(':') && !t.is_empty()).then_some(indent);
            continue;
        }
        if header.is_none_or(|h| indent <= h) {
            continue;
        }
        let Some((name, text)) = t.split_once(": ") else {
            continue;
        };
        let text = text.trim();
        let kind = if text == "undefined" {
            "missing"
        } else if text.find('"').is_some_and(|q| q > 0) && text.ends_with('"') {
            "invalid"
        } else {
            continue;
        };
        out.push(Issue {
            field: name.to_string(),
            message: if kind == "missing" {
                "not set".to_string()
            } else {
                text.to_string()
            },
            kind: Some(kind.to_string()),
        });
        if out.len() >= MAX_ISSUES {
            break;
        }
    }
    // The variables not set first: the value refused may be a default's.
    out.sort_by_key(|f| f.kind.as_deref() != Some("missing"));
    out
}

/// A key of `util.inspect`'s object: a word of letters, digits and `_`.
fn is_key(k: &str) -> bool {
    !k.is_empty()
        && k.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        && k.chars().next().is_some_and(|c| !c.is_ascii_digit())
}

/// The strings of an inspected array's line (`"a"`, `'b',`).
fn strings_in(line: &str) -> Vec<String> {
    let t = line.trim().trim_end_matches(',');
    let t = t.trim_start_matches('[').trim_end_matches(']').trim();
    if t.len() >= 2 {
        let q = &t[..1];
        if (q == "'" || q == "\"") && t.ends_with(q) {
            return vec![t[1..t.len() - 1].to_string()];
        }
    }
    Vec::new()
}

/// A field-error map printed by `console.error(label, fieldErrors)`, as @t3-oss/env-core 0.x
/// does with zod's `error.flatten().fieldErrors` (`❌ Invalid environment variables: {`, then
/// `  X: [` and the messages, `  ]`, `}`): each key a field, zod's `Required` a missing value.
/// Keyed on `util.inspect`'s layout of an object of arrays of strings, never on the label.
fn field_map(lines: &[&str]) -> Vec<Issue> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        i += 1;
        // Not the property block under a stack's last frame (`at ... {`, dotenv-safe's
        // `missing: [ ... ]`).
        if !line.ends_with(" {") || line.trim_start().starts_with("at ") {
            continue;
        }
        let mut fields = Vec::new();
        let mut j = i;
        while let Some(l) = lines.get(j) {
            let Some((key, rest)) = l.strip_prefix("  ").and_then(|x| x.split_once(": [")) else {
                break;
            };
            // A variable's name: the map of an env validator (lower-case keys are an
            // object's properties).
            if !is_key(key) || !super::model::upper_snake(key) {
                break;
            }
            j += 1;
            let mut messages = strings_in(rest);
            if !rest.trim_end_matches(',').ends_with(']') {
                while let Some(m) = lines.get(j) {
                    j += 1;
                    if m.trim().trim_end_matches(',') == "]" {
                        break;
                    }
                    messages.extend(strings_in(m));
                }
            }
            let Some(message) = messages.first() else {
                break;
            };
            fields.push(Issue {
                field: key.to_string(),
                message: message.clone(),
                kind: (message == "Required").then(|| "missing".to_string()),
            });
        }
        if !fields.is_empty() && lines.get(j).is_some_and(|l| *l == "}") {
            out.extend(fields);
            i = j + 1;
        }
    }
    out
}

/// The next `path:` / `"path":` / `instancePath:` key at or after `from`: where it starts (its
/// quote, if any) and the key.
fn next_path_key(text: &str, from: usize) -> Option<(usize, &'static str)> {
    ["path", "instancePath", "dataPath"]
        .iter()
        .filter_map(|k| {
            let mut i = from;
            while let Some(found) = text.get(i..)?.find(k) {
                let at = i + found;
                let before = text[..at].chars().next_back();
                let after = &text[at + k.len()..];
                let after = after.strip_prefix(['"', '\'']).unwrap_or(after);
                let own = before.is_none_or(|c| matches!(c, '"' | '\'' | ' ' | '{' | ',' | '\n'));
                if own && after.trim_start().starts_with(':') {
                    return Some((at, *k));
                }
                i = at + k.len();
            }
            None
        })
        .min_by_key(|(at, _)| *at)
}

/// The object around `at`: from its unmatched `{` before to its matching `}` after (quotes
/// skipped roughly: a brace inside a message is rare and only loses that issue).
fn enclosing(text: &str, at: usize) -> Option<&str> {
    let bytes = text.as_bytes();
    let mut depth = 0i32;
    let mut start = None;
    for i in (0..at).rev() {
        match bytes[i] {
            b'}' => depth += 1,
            b'{' if depth == 0 => {
                start = Some(i);
                break;
            }
            b'{' => depth -= 1,
            _ => {}
        }
        if at - i > 4096 {
            return None;
        }
    }
    let start = start?;
    let mut depth = 0i32;
    for (i, b) in bytes.iter().enumerate().skip(start) {
        match b {
            b'{' => depth += 1,
            b'}' => {
                depth -= 1;
                if depth == 0 {
                    return text.get(start..=i);
                }
            }
            _ => {}
        }
        if i - start > 8192 {
            return None;
        }
    }
    None
}

/// The value after `key:` in `object` (the first at the object's own level is enough here): a
/// quoted string, a list's quoted items and numbers (joined by `.`), or a bare word.
fn value(object: &str, key: &str) -> Option<Value> {
    let mut i = 0;
    while let Some(found) = object.get(i..)?.find(key) {
        let at = i + found;
        i = at + key.len();
        let before = object[..at].chars().next_back();
        if !before.is_none_or(|c| matches!(c, '"' | '\'' | ' ' | '{' | ',' | '\n')) {
            continue;
        }
        let rest = &object[at + key.len()..];
        let rest = rest.strip_prefix(['"', '\'']).unwrap_or(rest).trim_start();
        let Some(rest) = rest.strip_prefix(':') else {
            continue;
        };
        let rest = rest.trim_start();
        return Some(match rest.chars().next()? {
            '[' => Value::List(list(&rest[1..rest.find(']')?])),
            q @ ('"' | '\'') => Value::Text(quoted(&rest[1..], q)?),
            _ => Value::Text(
                rest.split([',', '\n', '}'])
                    .next()
                    .unwrap_or_default()
                    .trim()
                    .to_string(),
            ),
        });
    }
    None
}

enum Value {
    Text(String),
    List(Vec<String>),
}

/// A quoted string's body up to its closing `q` (a backslash escapes).
fn quoted(body: &str, q: char) -> Option<String> {
    let mut out = String::new();
    let mut chars = body.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => out.push(chars.next()?),
            c if c == q => return Some(out),
            c => out.push(c),
        }
    }
    None
}

/// A list's items: quoted strings and bare numbers.
fn list(inner: &str) -> Vec<String> {
    inner
        .split(',')
        .map(|p| p.trim().trim_matches(['"', '\'']).to_string())
        .filter(|p| !p.is_empty() && p.len() <= 80)
        .collect()
}

/// One issue: its field (the path's items joined by `.`; ajv's `/a/b` as `a.b`), message and
/// kind (`missing` for a value that is not there: zod's `invalid_type` received `undefined`).
fn issue(object: &str, key: &str) -> Option<Issue> {
    let text = |k: &str| match value(object, k) {
        Some(Value::Text(t)) => Some(t),
        _ => None,
    };
    let joi = text("type").filter(|t| joi_type(t));
    if joi.is_none() && !ISSUE_KEYS.iter().any(|k| value(object, k).is_some()) {
        return None;
    }
    let objects = (key == "path").then(|| object_path(object)).flatten();
    let field = match value(object, key)? {
        _ if objects.is_some() => objects.unwrap_or_default().join("."),
        Value::List(items) if key == "path" => items.join("."),
        Value::Text(t) if key != "path" => t.trim_start_matches(['/', '.']).replace('/', "."),
        _ => return None,
    };
    let message = match value(object, "message")? {
        Value::Text(t) if !t.is_empty() => t,
        _ => return None,
    };
    let code = text("code").or_else(|| text("keyword")).or(joi);
    let absent = text("received").as_deref() == Some("undefined")
        || message.ends_with("received undefined")
        || message == "Required";
    // zod 3's `invalid_string` with `validation: "url"`, zod 4's `invalid_format` with
    // `format: "url"`: a URL that did not parse (pydantic's name for it, so the URL rows read it).
    let url = matches!(
        (
            code.as_deref(),
            text("validation").or_else(|| text("format")).as_deref()
        ),
        (Some("invalid_string" | "invalid_format"), Some("url"))
    );
    // valibot names no code: its `kind: 'schema'` issue that received `undefined` is a value
    // not there; joi's `any.required` is one.
    let kind = if matches!(code.as_deref(), Some("invalid_type") | None) && absent
        || matches!(code.as_deref(), Some("required" | "any.required"))
    {
        Some("missing".to_string())
    } else if url {
        Some("url_parsing".to_string())
    } else {
        code
    };
    Some(Issue {
        field,
        message,
        kind,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fields(lines: &[&str]) -> Vec<(String, String, Option<String>)> {
        match parse(lines) {
            Some((_, fields)) => fields
                .into_iter()
                .map(|f| (f.field, f.message, f.kind))
                .collect(),
            None => Vec::new(),
        }
    }

    #[test]
    fn joi_details_and_valibot_object_paths_are_issues() {
        // joi 17's `Joi.assert` uncaught: its `details` under the stack.
        let lines = [
            "  details: [",
            "    {",
            "      message: '\"API_KEY\" is required',",
            "      path: [ 'API_KEY' ],",
            "      type: 'any.required',",
            "      context: { label: 'API_KEY', key: 'API_KEY' }",
            "    }",
            "  ]",
        ];
        let f = fields(&lines);
        assert_eq!(f.len(), 1, "{f:?}");
        assert_eq!(f[0].0, "API_KEY");
        assert_eq!(f[0].2.as_deref(), Some("missing"));
        // valibot 1: a path of objects, each with its own `key` (the input's keys are not it).
        let lines = [
            "  issues: [",
            "    {",
            "      kind: 'schema',",
            "      type: 'string',",
            "      input: undefined,",
            "      expected: 'string',",
            "      received: 'undefined',",
            "      message: 'Invalid type: Expected string but received undefined',",
            "      path: [",
            "        {",
            "          type: 'object',",
            "          origin: 'value',",
            "          input: { HOME: '/root', nested: { key: 'not-it' } },",
            "          key: 'API_KEY',",
            "          value: undefined",
            "        }",
            "      ],",
            "    }",
            "  ]",
        ];
        let f = fields(&lines);
        assert_eq!(f.len(), 1, "{f:?}");
        assert_eq!(f[0].0, "API_KEY");
        assert_eq!(f[0].2.as_deref(), Some("missing"));
        // A log record's `type` is no joi type: an HTTP log with a path list and a message.
        let f = fields(&["{ path: [ 'users' ], message: 'served', type: 'request' }"]);
        assert!(f.is_empty(), "{f:?}");
    }

    #[test]
    fn zod_issues_as_json_and_as_node_prints_them_are_one_block() {
        // zod 3.25 `z.object({...}).parse(process.env)` uncaught on Node 20: the message's
        // JSON, then the `issues` and `errors` properties (the same issue three times).
        let lines = [
            "ZodError: [",
            "  {",
            "    \"code\": \"invalid_type\",",
            "    \"expected\": \"string\",",
            "    \"received\": \"undefined\",",
            "    \"path\": [",
            "      \"API_KEY\"",
            "    ],",
            "    \"message\": \"Required\"",
            "  }",
            "]",
            "    at ZodObject.parse (file:///srv/node_modules/zod/v3/types.js:114:22) {",
            "  issues: [",
            "    {",
            "      code: 'invalid_type',",
            "      expected: 'string',",
            "      received: 'undefined',",
            "      path: [ 'API_KEY' ],",
            "      message: 'Required'",
            "    }",
            "  ],",
            "}",
        ];
        assert_eq!(
            fields(&lines),
            [(
                "API_KEY".to_string(),
                "Required".to_string(),
                Some("missing".to_string())
            )]
        );
        // @t3-oss/env-core 0.13: an enum's value outside its options.
        let lines = [
            "❌ Invalid environment variables: [",
            "  {",
            "    received: 'trace',",
            "    code: 'invalid_enum_value',",
            "    options: [ 'debug', 'info' ],",
            "    path: [ 'LOG_LEVEL' ],",
            "    message: \"Invalid enum value. Expected 'debug' | 'info', received 'trace'\"",
            "  }",
            "]",
        ];
        let f = fields(&lines);
        assert_eq!(f.len(), 1, "{f:?}");
        assert_eq!(f[0].0, "LOG_LEVEL");
        assert_eq!(f[0].2.as_deref(), Some("invalid_enum_value"));
        // zod 4: one line, `Invalid input: expected string, received undefined`.
        let f = fields(&[
            "[ { \"expected\": \"string\", \"code\": \"invalid_type\", \"path\": [ \"GITHUB_TOKEN\" ], \"message\": \"Invalid input: expected string, received undefined\" } ]",
        ]);
        assert_eq!(f[0].0, "GITHUB_TOKEN");
        assert_eq!(f[0].2.as_deref(), Some("missing"));
        // ajv 8: `instancePath` with its keyword.
        let f = fields(&[
            "[ { instancePath: '/server/port', schemaPath: '#/properties/port/type', keyword: 'type', params: { type: 'integer' }, message: 'must be integer' } ]",
        ]);
        assert_eq!(f[0].0, "server.port");
        assert_eq!(f[0].1, "must be integer");
    }

    #[test]
    fn an_env_validators_list_is_read_and_a_settings_dump_is_not() {
        // envalid 8.1 (its colours taken off by the probe's reader).
        let lines = [
            "================================",
            " Invalid environment variables:",
            "    API_URL: Invalid url: \"nope\"",
            " Missing environment variables:",
            "    API_KEY: undefined",
            "================================",
            "",
            " Exiting with error code 1",
        ];
        let f = fields(&lines);
        assert_eq!(f.len(), 2, "{f:?}");
        assert_eq!(
            (f[0].0.as_str(), f[0].2.as_deref()),
            ("API_KEY", Some("missing"))
        );
        assert_eq!(f[1].0, "API_URL");
        // A server's own dump of its settings at start.
        assert!(fields(&[
            "Configuration:",
            "  PORT: 3000",
            "  API_URL: \"http://localhost:8080\"",
            "  LOG_LEVEL: info",
        ])
        .is_empty());
    }

    #[test]
    fn a_log_records_path_and_message_are_no_issue() {
        // pino-http's request log and a router's: a path that is a URL's, no validator's key.
        assert!(fields(&[
            "{\"level\":30,\"req\":{\"method\":\"GET\",\"path\":\"/users\"},\"message\":\"request completed\"}",
            "{ path: [ 'a', 'b' ], message: 'loaded the route table' }",
        ])
        .is_empty());
    }

    #[test]
    fn a_zod_url_check_is_a_url_that_did_not_parse() {
        // zod 3's `z.string().url()` and zod 4's `z.url()` refusing `api.example.com/v1`.
        let got = fields(&[
            "ZodError: [",
            "  {",
            "    \"validation\": \"url\",",
            "    \"code\": \"invalid_string\",",
            "    \"message\": \"Invalid url\",",
            "    \"path\": [",
            "      \"ZOO_API_URL\"",
            "    ]",
            "  },",
            "  {",
            "    \"code\": \"invalid_format\",",
            "    \"format\": \"url\",",
            "    \"path\": [",
            "      \"ZOO_BASE_URL\"",
            "    ],",
            "    \"message\": \"Invalid URL\"",
            "  }",
            "]",
        ]);
        let kinds: Vec<_> = got.iter().map(|f| f.2.as_deref()).collect();
        assert_eq!(kinds, [Some("url_parsing"), Some("url_parsing")], "{got:?}");
    }

    #[test]
    fn a_field_error_map_is_read_by_its_keys() {
        // @t3-oss/env-core 0.11's `console.error("❌ Invalid environment variables:", fieldErrors)`.
        let lines = [
            "❌ Invalid environment variables: {",
            "  ZOO_LOG_LEVEL: [",
            "    \"Invalid enum value. Expected 'debug' | 'info', received 'verbose'\"",
            "  ],",
            "  ZOO_API_KEY: [ 'Required' ]",
            "}",
        ];
        let issues = field_map(&lines);
        assert_eq!(issues.len(), 2);
        assert_eq!(issues[0].field, "ZOO_LOG_LEVEL");
        assert!(issues[0].message.starts_with("Invalid enum value."));
        assert_eq!(issues[1].kind.as_deref(), Some("missing"));
    }

    #[test]
    fn an_object_of_other_values_is_no_field_map() {
        let lines = ["config: {", "  port: 3000,", "  host: 'x'", "}"];
        assert!(field_map(&lines).is_empty());
    }
}
