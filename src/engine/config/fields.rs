//! The fields a host reads, in one place: the checker's unknown-field warnings, its "did you
//! mean", the launch and MCPL policy field lists, and the configuration JSON Schema
//! (`mcpl-doctor schema config`) all come from these tables. They follow
//! the host's configuration reference ("Where server entries live", "Entry fields"); a test
//! fails when they disagree with its "Entry fields" table, copied into the repository as
//! `tests/reference/host-config-fields.md`.

use super::entry::TableKind;

/// What a field holds, for the JSON Schema (the checker reads values itself).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Ty {
    String,
    /// An array of strings.
    Strings,
    /// An object whose values are strings.
    StringMap,
    Bool,
    /// A number of milliseconds, above 0 (a reconnect timing).
    Millis,
    /// A number of milliseconds where 0 or below means "none" on some engines
    /// (`requestTimeoutMs`: the legacy engine disables the timeout).
    TimeoutMillis,
    /// One of these strings.
    OneOf(&'static [&'static str]),
    /// An object (its inside is the host's business).
    Object,
    /// Anything: an MCPL policy value (list, object, string or boolean).
    Any,
}

/// Which tables read a field.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Tables {
    /// Every table format.
    All,
    /// Claude Desktop / Claude Code `.mcp.json` and VS Code `mcp.json` (`mcpServers`, `servers`).
    McpStyle,
    /// VS Code's `.vscode/mcp.json` only (`servers`).
    VsCode,
}

impl Tables {
    pub(crate) fn includes(self, kind: TableKind) -> bool {
        match self {
            Tables::All => true,
            Tables::McpStyle => matches!(kind, TableKind::McpServers | TableKind::Servers),
            Tables::VsCode => kind == TableKind::Servers,
        }
    }
}

/// One field of a server entry.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Field {
    pub name: &'static str,
    pub ty: Ty,
    /// What the host uses when the field is absent, in words (`None`: nothing; the field is
    /// simply not set).
    pub default: Option<&'static str>,
    pub tables: Tables,
    /// Makes an entry launchable (stdio or network); an entry in a recipe or an agent overlay
    /// with none of these only overrides policy fields of the entry of the same id.
    pub launch: bool,
    /// An MCPL policy field: an error on a modern server when it takes effect.
    pub mcpl_policy: bool,
    /// One line for the JSON Schema's `description` (editors show it on hover).
    pub doc: &'static str,
}

const fn field(name: &'static str, ty: Ty, doc: &'static str) -> Field {
    Field {
        name,
        ty,
        default: None,
        tables: Tables::All,
        launch: false,
        mcpl_policy: false,
        doc,
    }
}

const fn launch(name: &'static str, ty: Ty, doc: &'static str) -> Field {
    Field {
        launch: true,
        ..field(name, ty, doc)
    }
}

const fn policy(name: &'static str, doc: &'static str) -> Field {
    Field {
        mcpl_policy: true,
        ..field(name, Ty::Any, doc)
    }
}

const fn with_default(f: Field, default: &'static str) -> Field {
    Field {
        default: Some(default),
        ..f
    }
}

const fn only(f: Field, tables: Tables) -> Field {
    Field { tables, ..f }
}

/// Every field a host reads in a server entry (host-config.md, "Entry fields"), then the
/// fields that Claude's and VS Code's own formats add (read there only).
pub(crate) const ENTRY_FIELDS: &[Field] = &[
    with_default(
        field(
            "id",
            Ty::String,
            "Server id, used in tool prefixes, traces and alerts (default: the entry's key).",
        ),
        "the entry's key",
    ),
    launch(
        "command",
        Ty::String,
        "Program to launch for the stdio transport (no shell).",
    ),
    launch("args", Ty::Strings, "Arguments of `command`; `./` and `../` ones are resolved against the config file's folder."),
    launch("env", Ty::StringMap, "Environment variables added on top of the host's allowlist (PATH, HOME, LANG, ...)."),
    with_default(
        launch(
            "inheritEnv",
            Ty::Bool,
            "Pass the host's whole environment to the server (default false).",
        ),
        "false (the host's allowlist only)",
    ),
    launch("url", Ty::String, "ws:// or wss:// (legacy MCPL over WebSocket), http:// or https:// (modern MCP over HTTP)."),
    with_default(
        launch(
            "transport",
            Ty::OneOf(&["stdio", "websocket", "http"]),
            "stdio, websocket or http (default: inferred from `command` or the url's scheme).",
        ),
        "inferred from `command` or the url's scheme",
    ),
    with_default(
        launch(
            "protocol",
            Ty::OneOf(&["legacy", "modern"]),
            "Stdio servers only: legacy (MCPL, default) or modern (MCP).",
        ),
        "legacy",
    ),
    launch("token", Ty::String, "WebSocket: sent as the ?token= query; HTTP: an Authorization: Bearer header. A secret."),
    with_default(
        field(
            "reconnect",
            Ty::Bool,
            "Relaunch or redial the server when it goes away (default false).",
        ),
        "false (no reconnecting)",
    ),
    with_default(
        field(
            "reconnectIntervalMs",
            Ty::Millis,
            "Base wait between reconnect attempts, in ms; doubles per failure up to the cap (default 5000).",
        ),
        "5000 ms",
    ),
    with_default(
        field(
            "reconnectMaxIntervalMs",
            Ty::Millis,
            "Cap on the reconnect wait, in ms (default 300000, 5 min).",
        ),
        "300000 ms (5 min)",
    ),
    with_default(
        field(
            "requestTimeoutMs",
            Ty::TimeoutMillis,
            "Per-request timeout in ms (default 60000); modern servers need an integer from 1 to 2147483647.",
        ),
        "60000 ms",
    ),
    policy(
        "enabledFeatureSets",
        "MCPL: feature sets to enable on connect (an error on a modern server).",
    ),
    policy(
        "disabledFeatureSets",
        "MCPL: feature sets to disable on connect (an error on a modern server).",
    ),
    policy(
        "enabledCapabilities",
        "MCPL: capability allow-list (an error on a modern server).",
    ),
    policy(
        "disabledCapabilities",
        "MCPL: capability deny-list (an error on a modern server).",
    ),
    policy(
        "scopes",
        "MCPL: scope configuration per feature set (an error on a modern server).",
    ),
    policy(
        "channelSubscription",
        "MCPL: auto, manual or an allow-list of channels (an error on a modern server).",
    ),
    policy(
        "allowHostCommands",
        "MCPL: allow the host/command admin surface (an error on a modern server).",
    ),
    policy(
        "toolLifecycle",
        "MCPL: tool lifecycle observation policy (an error on a modern server).",
    ),
    policy(
        "autofetch",
        "MCPL: autofetch byte limits (an error on a modern server).",
    ),
    field(
        "enabledTools",
        Ty::Strings,
        "Tool allow-list (bare names, `*` wildcards).",
    ),
    field(
        "disabledTools",
        Ty::Strings,
        "Tool deny-list (wins over enabledTools).",
    ),
    with_default(
        field(
            "toolPrefix",
            Ty::String,
            "Prefix of this server's tools (default mcpl:<id>).",
        ),
        "mcpl:<id>",
    ),
    field(
        "access",
        Ty::String,
        "Name of a network access grant the host resolves to a credential at each dial.",
    ),
    with_default(
        field(
            "disabled",
            Ty::Bool,
            "true: the host does not start this server (an agent overlay's way to remove one).",
        ),
        "false",
    ),
    only(
        field(
            "type",
            Ty::OneOf(&["stdio", "http", "sse"]),
            "Claude / VS Code: the transport (stdio, http or sse).",
        ),
        Tables::McpStyle,
    ),
    only(
        field(
            "headers",
            Ty::StringMap,
            "Claude / VS Code: HTTP headers sent to a url server.",
        ),
        Tables::McpStyle,
    ),
    only(
        field(
            "envFile",
            Ty::String,
            "VS Code: a file of environment variables for the server.",
        ),
        Tables::VsCode,
    ),
    only(
        field(
            "cwd",
            Ty::String,
            "VS Code: the folder the server is launched in.",
        ),
        Tables::VsCode,
    ),
    only(
        field(
            "dev",
            Ty::Object,
            "VS Code: development mode (watch and debug).",
        ),
        Tables::VsCode,
    ),
];

/// The keys that hold server tables, with the formats they belong to.
pub(crate) const TABLE_KEYS: &[(&str, &str)] = &[
    (
        "mcplServers",
        "connectome-host registry and agent overlay, agent-framework FrameworkConfig",
    ),
    (
        "mcpServers",
        "connectome-host recipe, Claude Desktop, Claude Code .mcp.json",
    ),
    ("servers", "VS Code .vscode/mcp.json"),
];

/// Other names people write for a field (not typos: words of another tool or habit).
const OTHER_NAMES: &[(&str, &str)] = &[
    ("cmd", "command"),
    ("exec", "command"),
    ("executable", "command"),
    ("program", "command"),
    ("arguments", "args"),
    ("argv", "args"),
    ("environment", "env"),
    ("envs", "env"),
    ("uri", "url"),
    ("endpoint", "url"),
    ("autoReconnect", "reconnect"),
    ("retry", "reconnect"),
    ("bearerToken", "token"),
    ("apiKey", "token"),
    ("prefix", "toolPrefix"),
    ("enabled", "disabled"),
];

/// The field named `name` that a `kind` entry's host reads.
pub(crate) fn entry_field(kind: TableKind, name: &str) -> Option<&'static Field> {
    ENTRY_FIELDS
        .iter()
        .find(|f| f.name == name && f.tables.includes(kind))
}

/// Fields an entry of this table reads, in table order.
pub(crate) fn entry_fields(kind: TableKind) -> impl Iterator<Item = &'static Field> {
    ENTRY_FIELDS.iter().filter(move |f| f.tables.includes(kind))
}

/// Whether a field makes an entry launchable.
pub(crate) fn is_launch_field(name: &str) -> bool {
    ENTRY_FIELDS.iter().any(|f| f.launch && f.name == name)
}

/// The MCPL policy fields, in table order.
pub(crate) fn mcpl_policy_fields() -> impl Iterator<Item = &'static str> {
    ENTRY_FIELDS
        .iter()
        .filter(|f| f.mcpl_policy)
        .map(|f| f.name)
}

/// The known field a `kind` entry's unknown `name` most likely meant, if one is close: the same
/// name in another case (`reconnectIntervalMS`), the same words in another order or separator
/// (`max_reconnect_interval_ms`), another tool's word for it (`cmd`), or a few letters off
/// (`reconectMaxIntervalMs`).
pub(crate) fn suggest_entry_field(kind: TableKind, name: &str) -> Option<&'static Field> {
    // A file repeats its typos (a field copied into every entry): each (table, name) is worked
    // out once per thread, which keeps a 10,000-entry file with a typo in each as fast as one
    // without. The memo is bounded: past MEMO_MAX names it is cleared.
    const MEMO_MAX: usize = 4096;
    thread_local! {
        static MEMO: std::cell::RefCell<std::collections::HashMap<(TableKind, String), Option<&'static Field>>> =
            std::cell::RefCell::new(std::collections::HashMap::new());
    }
    if let Some(hit) = MEMO.with(|m| m.borrow().get(&(kind, name.to_string())).copied()) {
        return hit;
    }
    let found = suggest_entry_field_uncached(kind, name);
    MEMO.with(|m| {
        let mut m = m.borrow_mut();
        if m.len() >= MEMO_MAX {
            m.clear();
        }
        m.insert((kind, name.to_string()), found);
    });
    found
}

fn suggest_entry_field_uncached(kind: TableKind, name: &str) -> Option<&'static Field> {
    let names: Vec<&'static str> = entry_fields(kind).map(|f| f.name).collect();
    let pick = suggest(name, &names).or_else(|| {
        OTHER_NAMES
            .iter()
            .find(|(other, _)| other.eq_ignore_ascii_case(name))
            .map(|(_, known)| *known)
    })?;
    entry_field(kind, pick)
}

/// The table key an unknown key most likely meant (`mcplServer`, `mcp_servers`), if one is close.
pub(crate) fn suggest_table_key(key: &str) -> Option<&'static str> {
    let names: Vec<&'static str> = TABLE_KEYS.iter().map(|(k, _)| *k).collect();
    // `server` and other short words are ordinary data; only near-misses of the longer keys,
    // or `servers` in another case.
    let pick = suggest(key, &names)?;
    if pick == "servers" && !key.eq_ignore_ascii_case("servers") {
        return None;
    }
    Some(pick)
}

/// The closest of `known` to `name`, when close enough to be a slip.
pub(crate) fn suggest(name: &str, known: &[&'static str]) -> Option<&'static str> {
    if name.is_empty() || known.contains(&name) {
        return None;
    }
    // Same letters, other case or separators: `reconnectIntervalMS`, `reconnect_interval_ms`.
    let folded = fold(name);
    if let Some(k) = known.iter().find(|k| fold(k) == folded) {
        return Some(k);
    }
    // Same words in another order: `maxReconnectIntervalMs`.
    let mut words = words_of(name);
    words.sort();
    if words.len() > 1 {
        if let Some(k) = known.iter().find(|k| {
            let mut w = words_of(k);
            w.sort();
            w == words
        }) {
            return Some(k);
        }
    }
    // A few letters off, on the folded forms.
    let mut best: Option<(usize, &'static str)> = None;
    for k in known {
        let fk = fold(k);
        let limit = match fk.chars().count() {
            0..=3 => 0,
            4..=5 => 1,
            6..=11 => 2,
            _ => 3,
        };
        let d = distance(&folded, &fk);
        // Short names: only a swap of letters (`evn`, `ulr`).
        let swapped = limit == 0 && d == 1 && sorted(&folded) == sorted(&fk);
        if (d <= limit || swapped) && best.is_none_or(|(bd, _)| d < bd) {
            best = Some((d, k));
        }
    }
    best.map(|(_, k)| k)
}

fn sorted(s: &str) -> Vec<char> {
    let mut v: Vec<char> = s.chars().collect();
    v.sort_unstable();
    v
}

/// Lower case without `_`, `-`, spaces and dots.
fn fold(s: &str) -> String {
    s.chars()
        .filter(|c| !matches!(c, '_' | '-' | ' ' | '.'))
        .flat_map(char::to_lowercase)
        .collect()
}

/// camelCase, snake_case and kebab-case words, lower-cased.
fn words_of(s: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut cur = String::new();
    let mut prev_lower = false;
    for c in s.chars() {
        if matches!(c, '_' | '-' | ' ' | '.') {
            if !cur.is_empty() {
                words.push(std::mem::take(&mut cur));
            }
            prev_lower = false;
            continue;
        }
        if c.is_uppercase() && prev_lower && !cur.is_empty() {
            words.push(std::mem::take(&mut cur));
        }
        prev_lower = c.is_lowercase() || c.is_ascii_digit();
        cur.extend(c.to_lowercase());
    }
    if !cur.is_empty() {
        words.push(cur);
    }
    words
}

/// Edit distance between two names: optimal string alignment (insertions, deletions,
/// substitutions and swaps of two neighbours, each 1), as clap's own suggestions use.
pub(crate) fn distance(a: &str, b: &str) -> usize {
    strsim::osa_distance(a, b)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distance() {
        assert_eq!(super::distance("comand", "command"), 1);
        assert_eq!(super::distance("cmomand", "command"), 1);
        assert_eq!(super::distance("abc", "abc"), 0);
        assert_eq!(super::distance("", "abc"), 3);
    }

    #[test]
    fn words() {
        assert_eq!(
            words_of("maxReconnectIntervalMs"),
            ["max", "reconnect", "interval", "ms"]
        );
        assert_eq!(
            words_of("reconnect_max_interval_ms"),
            ["reconnect", "max", "interval", "ms"]
        );
    }

    #[test]
    fn suggestions() {
        let s = |n: &str| suggest_entry_field(TableKind::McplServers, n).map(|f| f.name);
        assert_eq!(s("reconectMaxIntervalMs"), Some("reconnectMaxIntervalMs"));
        assert_eq!(s("reconnectIntervalMS"), Some("reconnectIntervalMs"));
        assert_eq!(s("comand"), Some("command"));
        assert_eq!(s("maxReconnectIntervalMs"), Some("reconnectMaxIntervalMs"));
        assert_eq!(s("cmd"), Some("command"));
        assert_eq!(s("description"), None);
        // Claude's `type` is read in `mcpServers` only.
        assert_eq!(
            entry_field(TableKind::McplServers, "type").map(|f| f.name),
            None
        );
        assert!(entry_field(TableKind::McpServers, "type").is_some());
        assert_eq!(suggest_table_key("mcplServer"), Some("mcplServers"));
        assert_eq!(suggest_table_key("mcp_servers"), Some("mcpServers"));
        assert_eq!(suggest_table_key("server"), None);
        assert_eq!(suggest_table_key("Servers"), Some("servers"));
    }

    /// The table agrees with the host reference's "Entry fields" (copied into
    /// `tests/reference/host-config-fields.md`, source named there): every field it names is
    /// here, read by every table format, with the default it states.
    #[test]
    fn agrees_with_the_host_reference() {
        let text = include_str!("../../../tests/reference/host-config-fields.md");
        let section = text
            .split("## Entry fields")
            .nth(1)
            .and_then(|s| s.split("\n## ").next())
            .expect("an Entry fields section");
        let mut named = 0;
        for row in section.lines().filter(|l| l.starts_with("| `")) {
            let cells: Vec<&str> = row.split('|').map(str::trim).collect();
            let names = cells[1];
            let default = cells[3];
            for name in names.split(',').map(|n| n.trim().trim_matches('`')) {
                named += 1;
                let f = entry_field(TableKind::McplServers, name)
                    .unwrap_or_else(|| panic!("`{name}` of host-config.md is not in ENTRY_FIELDS"));
                assert_eq!(f.tables, Tables::All, "{name}");
                if default.chars().next().is_some_and(|c| c.is_ascii_digit()) {
                    let ours = f.default.unwrap_or_default();
                    let theirs: Vec<&str> = default.split(',').map(str::trim).collect();
                    assert!(
                        theirs.iter().any(|d| ours.starts_with(d)),
                        "{name}: host-config.md says {default}, ENTRY_FIELDS {ours}"
                    );
                }
                if default == "false" {
                    assert!(f.default.is_some_and(|d| d.starts_with("false")), "{name}");
                }
            }
        }
        assert!(named >= 25, "only {named} fields read from host-config.md");
    }

    /// Realistic misspellings of field names (slips, case, separators, word order, other
    /// tools' words), each with the field meant. `TYPO_SHARE` in docs/check-config.md comes
    /// from this list.
    pub(crate) const TYPOS: &[(&str, &str)] = &[
        ("comand", "command"),
        ("commmand", "command"),
        ("commnad", "command"),
        ("Command", "command"),
        ("cmd", "command"),
        ("arg", "args"),
        ("agrs", "args"),
        ("argss", "args"),
        ("arguments", "args"),
        ("Args", "args"),
        ("evn", "env"),
        ("environment", "env"),
        ("ENV", "env"),
        ("inherit_env", "inheritEnv"),
        ("inheritENV", "inheritEnv"),
        ("inheritenv", "inheritEnv"),
        ("inhertEnv", "inheritEnv"),
        ("ulr", "url"),
        ("URL", "url"),
        ("uri", "url"),
        ("endpoint", "url"),
        ("transprot", "transport"),
        ("tranport", "transport"),
        ("Transport", "transport"),
        ("protocl", "protocol"),
        ("protcol", "protocol"),
        ("tokne", "token"),
        ("tokem", "token"),
        ("Token", "token"),
        ("reconect", "reconnect"),
        ("reconnnect", "reconnect"),
        ("autoReconnect", "reconnect"),
        ("Reconnect", "reconnect"),
        ("reconnectIntervalMS", "reconnectIntervalMs"),
        ("reconectIntervalMs", "reconnectIntervalMs"),
        ("reconnectIntevalMs", "reconnectIntervalMs"),
        ("reconnectInterval", "reconnectIntervalMs"),
        ("reconnect_interval_ms", "reconnectIntervalMs"),
        ("reconnectIntervalms", "reconnectIntervalMs"),
        ("reconnectIntervallMs", "reconnectIntervalMs"),
        ("reconectMaxIntervalMs", "reconnectMaxIntervalMs"),
        ("reconnectMaxIntervalMS", "reconnectMaxIntervalMs"),
        ("reconnectMaxInterval", "reconnectMaxIntervalMs"),
        ("maxReconnectIntervalMs", "reconnectMaxIntervalMs"),
        ("reconnect_max_interval_ms", "reconnectMaxIntervalMs"),
        ("reconnectMaxIntevalMs", "reconnectMaxIntervalMs"),
        ("reconnectMaxIntervalMsec", "reconnectMaxIntervalMs"),
        ("requestTimeout", "requestTimeoutMs"),
        ("requestTimeoutMS", "requestTimeoutMs"),
        ("request_timeout_ms", "requestTimeoutMs"),
        ("reqestTimeoutMs", "requestTimeoutMs"),
        ("enabledFeatureSet", "enabledFeatureSets"),
        ("enableFeatureSets", "enabledFeatureSets"),
        ("disabledFeaturesets", "disabledFeatureSets"),
        ("enabledTool", "enabledTools"),
        ("disableTools", "disabledTools"),
        ("disabled_tools", "disabledTools"),
        ("toolprefix", "toolPrefix"),
        ("toolsPrefix", "toolPrefix"),
        ("allowHostCommand", "allowHostCommands"),
        ("channelSubscriptions", "channelSubscription"),
        ("enabledCapabilites", "enabledCapabilities"),
        ("scope", "scopes"),
        ("disable", "disabled"),
        ("acess", "access"),
        ("toolLifeCycle", "toolLifecycle"),
    ];

    /// The share of [`TYPOS`] that get the right "did you mean" (printed for the docs).
    #[test]
    fn typo_share() {
        let mut right = 0;
        let mut wrong = Vec::new();
        for (typo, meant) in TYPOS {
            let got = suggest_entry_field(TableKind::McplServers, typo).map(|f| f.name);
            if got == Some(*meant) {
                right += 1;
            } else {
                wrong.push((*typo, got));
            }
        }
        assert!(TYPOS.len() >= 50);
        println!(
            "did-you-mean: {right} of {} typos right ({:.0}%); missed: {wrong:?}",
            TYPOS.len(),
            100.0 * right as f64 / TYPOS.len() as f64
        );
        assert!(right * 100 >= TYPOS.len() * 95, "missed: {wrong:?}");
    }
}
