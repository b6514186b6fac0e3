//! What breaks on the machine a file will run on (`check-config --platform`), from hosts.md
//! F1, F2, F4 and F9 (copied into `tests/reference/hosts-dialects.md`): a launcher by bare
//! name under a desktop host's PATH, `npx` without `cmd /c` on Windows, `cmd /c` off Windows,
//! an `env` block that replaces the environment, `env.PATH` set to one folder, a Python server
//! without UTF-8 on Windows, and paths written for another system. Each finding names the host
//! and the platforms it breaks on, and the fix in the file's own terms.

use super::super::draft::{short, Draft};
use super::super::entry::Binding;
use super::super::finding::Code;
use super::super::host::Host;
use super::super::json::{Doc, Kind};
use super::super::platform::{Platform, Platforms};
use super::super::walk::RawEntry;
use super::ctx::Ctx;

const UNIX: &[Platform] = &[Platform::Macos, Platform::Linux];

/// Every platform finding of one stdio entry.
pub(super) fn platform_checks(
    ctx: &Ctx<'_, '_>,
    e: &RawEntry<'_>,
    b: &Binding,
    out: &mut Vec<Draft>,
) {
    let Some(command) = b.command.as_deref() else {
        return;
    };
    let Some(id) = e.get_set(ctx.doc, "command") else {
        return;
    };
    let program = program_name(command);
    let first_arg = b.args.first().map(|a| a.to_ascii_lowercase());
    let cmd_c = program == "cmd" && first_arg.as_deref() == Some("/c");
    windows_only(ctx, e, id, command, cmd_c, out);
    windows_shim(ctx, e, id, command, &program, cmd_c, out);
    launcher(ctx, e, id, command, out);
    let env = env_members(ctx.doc, e);
    env_replaced(ctx, e, id, &env, out);
    env_path(ctx, e, &env, out);
    python_encoding(ctx, e, id, &program, b, &env, out);
    foreign_paths(ctx, e, out);
}

fn at(doc: &Doc<'_>, e: &RawEntry<'_>, id: u32, code: Code, field: &str, message: String) -> Draft {
    Draft::at_value(doc, id, code, e.field_path(field), message)
        .server(&e.id)
        .field(field)
}

/// The program a command names, lower case, without its folder or `.exe`.
fn program_name(command: &str) -> String {
    let base = command
        .rsplit(['/', '\\'])
        .next()
        .unwrap_or(command)
        .to_ascii_lowercase();
    base.strip_suffix(".exe")
        .map(str::to_string)
        .unwrap_or(base)
}

/// The platforms of `set` this check applies to, among those checked.
fn checked(ctx: &Ctx<'_, '_>, set: &[Platform]) -> Platforms {
    ctx.platforms.and(Platforms::of(set))
}

/// `cmd /c` or a `.cmd`/`.bat` shim, checked for macOS or Linux.
fn windows_only(
    ctx: &Ctx<'_, '_>,
    e: &RawEntry<'_>,
    id: u32,
    command: &str,
    cmd_c: bool,
    out: &mut Vec<Draft>,
) {
    let lower = command.to_ascii_lowercase();
    let shim = lower.ends_with(".cmd") || lower.ends_with(".bat");
    let on = checked(ctx, UNIX);
    if on.is_empty() || !(cmd_c || shim) {
        return;
    }
    let form = if cmd_c {
        "`cmd /c`".to_string()
    } else {
        format!("`{}`", short(command))
    };
    out.push(at(
        ctx.doc,
        e,
        id,
        Code::WindowsOnlyCommand,
        "command",
        format!(
            "{form} is a Windows-only form: on {} the launch fails (spawn ENOENT); launch \
             the program itself there (e.g. `\"command\": \"npx\"`), and keep this entry in a \
             file for Windows machines",
            on.words()
        ),
    ));
}

/// Hosts that start a stdio server with Node's `spawn` and no shell on Windows, so a `.cmd`
/// shim is not found by its bare name (hosts.md F2). VS Code resolves the shim itself.
fn spawns_without_shell(host: Host) -> bool {
    !matches!(host, Host::Vscode | Host::AgentFramework)
}

/// `npx`, `npm` and the other `.cmd` shims by name, checked for Windows.
fn windows_shim(
    ctx: &Ctx<'_, '_>,
    e: &RawEntry<'_>,
    id: u32,
    command: &str,
    program: &str,
    cmd_c: bool,
    out: &mut Vec<Draft>,
) {
    const SHIMS: &[&str] = &["npx", "npm", "pnpm", "pnpx", "yarn", "tsx"];
    let host = ctx.scope.host;
    let lower = command.to_ascii_lowercase();
    let shim = SHIMS.contains(&program) || lower.ends_with(".cmd") || lower.ends_with(".bat");
    if cmd_c || !shim || !ctx.platforms.has(Platform::Windows) || !spawns_without_shell(host) {
        return;
    }
    let name = short(command);
    let bare = program.trim_end_matches(".cmd").trim_end_matches(".bat");
    out.push(at(
        ctx.doc,
        e,
        id,
        Code::WindowsShimWithoutShell,
        "command",
        format!(
            "`{name}` needs `cmd /c` on Windows: {} launches servers there without a \
             shell, where `{bare}` is `{bare}.cmd`, which only a shell finds (spawn {bare} \
             ENOENT), and Node 18.20.2 and 20.12.2 on refuse to run a `.cmd` directly (spawn \
             EINVAL). Write `\"command\": \"cmd\"` and put `\"/c\", \"{bare}\"` first in \
             `args`",
            host.title()
        ),
    ));
}

/// Hosts whose servers start with a desktop session's PATH rather than the login shell's
/// (hosts.md F1): Claude Desktop from the Dock (launchd's PATH on macOS) and Cline.
fn lacks_shell_path(host: Host) -> bool {
    host.lacks_shell_path()
}

/// `npx`, `uvx` and the like by bare name on a host without the shell's PATH (macOS, Linux).
fn launcher(ctx: &Ctx<'_, '_>, e: &RawEntry<'_>, id: u32, command: &str, out: &mut Vec<Draft>) {
    const LAUNCHERS: &[&str] = &["npx", "uvx", "uv", "node", "npm", "bunx", "pnpx"];
    let host = ctx.scope.host;
    let on = checked(ctx, UNIX);
    if on.is_empty() || !lacks_shell_path(host) || !LAUNCHERS.contains(&command) {
        return;
    }
    let found = which(command, (ctx.scope.env)("PATH").as_deref())
        .map(|p| format!(" (here it is {})", short(&p)))
        .unwrap_or_default();
    let launchd = if on.has(Platform::Macos) {
        " (on macOS an app opened from the Dock gets launchd's /usr/bin:/bin:/usr/sbin:/sbin)"
    } else {
        ""
    };
    out.push(at(
        ctx.doc,
        e,
        id,
        Code::LauncherWithoutShellPath,
        "command",
        format!(
            "`{command}` by bare name may not be found: {} on {} launches servers \
             without your login shell's PATH{launchd}, so a `{command}` from nvm, asdf, mise, \
             Homebrew or ~/.local/bin is not found (spawn {command} ENOENT). Write its full \
             path in `command`{found}, and for npx or npm add its folder to `env.PATH` too \
             (it runs `node` through that PATH)",
            host.title(),
            on.words()
        ),
    ));
}

/// Where `PATH` finds `command`.
fn which(command: &str, path: Option<&str>) -> Option<String> {
    path?
        .split(':')
        .filter(|d| !d.is_empty())
        .map(|d| std::path::Path::new(d).join(command))
        .find(|p| p.is_file())
        .map(|p| p.display().to_string())
}

/// The `env` object's members: (name, node).
fn env_members(doc: &Doc<'_>, e: &RawEntry<'_>) -> Vec<(String, u32)> {
    let Some(env) = e.get_set(doc, "env") else {
        return Vec::new();
    };
    if doc.kind(env) != Kind::Object {
        return Vec::new();
    }
    doc.children(env)
        .filter_map(|m| doc.key(m).map(|k| (k.into_owned(), m)))
        .collect()
}

fn env_has(env: &[(String, u32)], name: &str) -> bool {
    env.iter().any(|(k, _)| k.eq_ignore_ascii_case(name))
}

/// Where a host gives a server only its `env` (and PATH), per platform (hosts.md F4): Claude
/// Desktop on Windows once an `env` block exists; Cline everywhere.
fn replaces_env(host: Host) -> Option<(&'static [Platform], bool)> {
    match host {
        Host::ClaudeDesktop => Some((&[Platform::Windows], true)),
        Host::Cline => Some((&Platform::ALL, false)),
        _ => None,
    }
}

/// An `env` block that replaces the environment: the standard variables it leaves out.
fn env_replaced(
    ctx: &Ctx<'_, '_>,
    e: &RawEntry<'_>,
    command_id: u32,
    env: &[(String, u32)],
    out: &mut Vec<Draft>,
) {
    let host = ctx.scope.host;
    let Some((set, needs_block)) = replaces_env(host) else {
        return;
    };
    let block = e.get_set(ctx.doc, "env");
    if needs_block && env.is_empty() {
        return;
    }
    for p in checked(ctx, set).list() {
        let standard: &[&str] = if p == Platform::Windows {
            &[
                "APPDATA",
                "USERPROFILE",
                "PATHEXT",
                "SystemRoot",
                "TEMP",
                "HOME",
            ]
        } else {
            &["HOME", "USER", "TMPDIR", "LANG"]
        };
        let missing: Vec<&str> = standard
            .iter()
            .copied()
            .filter(|v| !env_has(env, v))
            .collect();
        if missing.is_empty() {
            continue;
        }
        let (id, field) = match block {
            Some(id) => (id, "env"),
            None => (command_id, "command"),
        };
        let what = if needs_block {
            "an `env` block replaces the environment"
        } else {
            "a server gets only its `env` and PATH"
        };
        let example = if p == Platform::Windows {
            "`\"APPDATA\": \"C:\\\\Users\\\\you\\\\AppData\\\\Roaming\"`"
        } else {
            "`\"HOME\": \"/Users/you\"`"
        };
        out.push(at(
            ctx.doc,
            e,
            id,
            Code::EnvReplacesEnvironment,
            field,
            format!(
                "{what}: under {} on {} this server starts without {}, so npx, git and ssh \
                 fail in odd ways (npm ERR! enoent under the app's own folder). Add them to \
                 `env` (e.g. {example}){}",
                host.title(),
                p.title(),
                missing.join(", "),
                if needs_block {
                    ", or move the values out of `env` (a wrapper script that sets them)"
                } else {
                    ""
                }
            ),
        ));
    }
}

/// Whether a value refers to a variable (`${PATH}`, `$PATH`, `%PATH%`): its length is unknown.
fn has_reference(v: &str) -> bool {
    v.contains('$') || v.matches('%').count() >= 2
}

/// `env.PATH` set to one folder, or written with the other system's separator.
fn env_path(ctx: &Ctx<'_, '_>, e: &RawEntry<'_>, env: &[(String, u32)], out: &mut Vec<Draft>) {
    let doc = ctx.doc;
    let Some(&(_, id)) = env.iter().find(|(k, _)| k.eq_ignore_ascii_case("PATH")) else {
        return;
    };
    let Some(value) = doc.string(id) else {
        return;
    };
    if has_reference(&value) {
        return;
    }
    let windows_form = value.contains(';') || starts_with_drive(&value) || value.contains('\\');
    let mut one_folder = Vec::new();
    for p in ctx.platforms.list() {
        let sep = if p == Platform::Windows { ';' } else { ':' };
        let parts = value.split(sep).filter(|s| !s.is_empty()).count();
        let foreign = if p == Platform::Windows {
            !windows_form && value.contains(':')
        } else {
            windows_form
        };
        if foreign {
            let (mine, theirs) = if p == Platform::Windows {
                ("`;` between folders and `C:\\\\` paths", "macOS and Linux")
            } else {
                ("`:` between folders and `/` paths", "Windows")
            };
            out.push(at(
                doc,
                e,
                id,
                Code::PlatformPath,
                "env",
                format!(
                    "`env.PATH` is written for {theirs}, not {}; there {} reads it as one \
                     folder that does not exist, and the server's programs are not found. \
                     Write it with {mine}, in a file for {} machines",
                    p.title(),
                    ctx.scope.host.title(),
                    p.title()
                ),
            ));
        } else if parts <= 1 {
            one_folder.push(p);
        }
    }
    if one_folder.is_empty() {
        return;
    }
    let on = Platforms::of(&one_folder);
    let system = if on.has(Platform::Windows) && on.list().len() == 1 {
        "`;C:\\\\Windows\\\\System32;C:\\\\Windows`"
    } else {
        "`:/usr/local/bin:/usr/bin:/bin` (`;C:\\\\Windows\\\\System32;C:\\\\Windows` on Windows)"
    };
    out.push(at(
        doc,
        e,
        id,
        Code::EnvPathOneFolder,
        "env",
        format!(
            "`env.PATH` is one folder, the server's whole PATH under {} on {}; programs the \
             server runs (node for npx, git, sh, python) are then not found. Add the system's \
             folders after it, e.g. {system}",
            ctx.scope.host.title(),
            on.words()
        ),
    ));
}

fn starts_with_drive(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() >= 3 && b[0].is_ascii_alphabetic() && b[1] == b':' && matches!(b[2], b'\\' | b'/')
}

/// A Python server checked for Windows without `PYTHONUTF8` or `PYTHONIOENCODING` (hosts.md F9).
fn python_encoding(
    ctx: &Ctx<'_, '_>,
    e: &RawEntry<'_>,
    id: u32,
    program: &str,
    b: &Binding,
    env: &[(String, u32)],
    out: &mut Vec<Draft>,
) {
    const PYTHON: &[&str] = &[
        "python", "python3", "py", "pythonw", "uv", "uvx", "pipx", "poetry", "pdm", "hatch",
    ];
    let python = PYTHON.contains(&program)
        || program.starts_with("python3.")
        || b.args
            .iter()
            .any(|a| a.to_ascii_lowercase().ends_with(".py"));
    if !python
        || !ctx.platforms.has(Platform::Windows)
        || env_has(env, "PYTHONUTF8")
        || env_has(env, "PYTHONIOENCODING")
    {
        return;
    }
    let host = ctx.scope.host;
    let also = if replaces_env(host).is_some() {
        format!(
            " (on Windows {} then gives the server only its `env`: see env-replaces-environment)",
            host.title()
        )
    } else {
        String::new()
    };
    out.push(at(
        ctx.doc,
        e,
        id,
        Code::PythonEncoding,
        "command",
        format!(
            "Python may crash on Windows without `PYTHONUTF8`: under {} a Python server \
             writes to the host's pipe in the ANSI code page (cp1252, cp950...), so a ✓ or an \
             emoji it prints ends it with UnicodeEncodeError, and the host shows only \"Server \
             disconnected\". Add `\"PYTHONUTF8\": \"1\"` to `env`{also}",
            host.title()
        ),
    ));
}

/// `command`, `args` and `cwd` paths written for another system than one checked.
fn foreign_paths(ctx: &Ctx<'_, '_>, e: &RawEntry<'_>, out: &mut Vec<Draft>) {
    let doc = ctx.doc;
    let mut values: Vec<(&str, u32)> = Vec::new();
    for field in ["command", "cwd"] {
        if let Some(id) = e.get_set(doc, field) {
            values.push((field, id));
        }
    }
    if let Some(args) = e
        .get_set(doc, "args")
        .filter(|&a| doc.kind(a) == Kind::Array)
    {
        values.extend(doc.children(args).map(|id| ("args", id)));
    }
    let host = ctx.scope.host;
    for (field, id) in values {
        let Some(text) = doc.string(id) else {
            continue;
        };
        let path = text.rsplit_once('=').map_or(text.as_ref(), |(_, v)| v);
        let (on, what) = if windows_path(path) {
            (checked(ctx, UNIX), "a Windows path")
        } else if unix_home_path(path) {
            (checked(ctx, &[Platform::Windows]), "a macOS or Linux path")
        } else {
            continue;
        };
        if on.is_empty() {
            continue;
        }
        let folder = if host == Host::Vscode {
            " (`${workspaceFolder}/...` or `${userHome}/...` work on every system)"
        } else {
            ""
        };
        out.push(at(
            doc,
            e,
            id,
            Code::PlatformPath,
            field,
            format!(
                "`{}` is {what}, not found on {}; {} passes it as written, so the launch \
                 fails or the server does not find its file. Write the path as it is on that \
                 machine{folder}, or keep a file per system",
                short(path),
                on.words(),
                host.title()
            ),
        ));
    }
}

/// `C:\...`, `C:/...`, `\\server\share`, or a relative path with `\` separators.
fn windows_path(s: &str) -> bool {
    if starts_with_drive(s) || s.starts_with("\\\\") || s.starts_with(".\\") {
        return true;
    }
    s.contains('\\')
        && !s.contains('/')
        && !s.contains(' ')
        && s.rsplit_once('.').is_some_and(|(_, ext)| {
            matches!(
                ext.to_ascii_lowercase().as_str(),
                "js" | "mjs" | "cjs" | "ts" | "py" | "exe" | "jar" | "dll"
            )
        })
}

/// An absolute path under a folder only macOS and Linux have.
fn unix_home_path(s: &str) -> bool {
    const ROOTS: &[&str] = &[
        "Users",
        "home",
        "opt",
        "usr",
        "var",
        "tmp",
        "etc",
        "Applications",
        "Library",
        "private",
        "mnt",
        "srv",
        "root",
        "snap",
        "nix",
    ];
    let Some(rest) = s.strip_prefix('/') else {
        return false;
    };
    let Some((first, tail)) = rest.split_once('/') else {
        return false;
    };
    ROOTS.contains(&first) && !tail.is_empty()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_are_told_apart_by_system() {
        for w in [
            "C:\\Users\\me\\server.js",
            "D:/tools/x.py",
            "\\\\share\\mcp\\s.js",
            ".\\build\\index.js",
            "build\\index.js",
        ] {
            assert!(windows_path(w), "{w}");
            assert!(!unix_home_path(w), "{w}");
        }
        for u in ["/Users/me/server.js", "/home/me/.local/bin/uvx", "/opt/x/y"] {
            assert!(unix_home_path(u), "{u}");
            assert!(!windows_path(u), "{u}");
        }
        // Look-alikes: `cmd`'s `/c`, a URL, a regular expression, a package name.
        for neither in ["/c", "https://host/mcp", "\\d+", "@scope/pkg", "/mcp"] {
            assert!(
                !windows_path(neither) && !unix_home_path(neither),
                "{neither}"
            );
        }
    }

    #[test]
    fn programs_are_named_without_folder_or_exe() {
        assert_eq!(program_name("C:\\Python312\\python.exe"), "python");
        assert_eq!(program_name("/usr/bin/python3"), "python3");
        assert_eq!(program_name("NPX.CMD"), "npx.cmd");
    }
}
