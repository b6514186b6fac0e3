//! mcp-remote's auth cache (`tests/reference/remote.md` section 5.3), read without opening a
//! file: which of its files hold state for one server. mcp-remote 0.15.1 keeps it in
//! `$MCP_REMOTE_CONFIG_DIR` or `~/.mcp-auth`, in a versioned folder (`mcp-remote-v1`; older
//! releases `mcp-remote-<version>`), as `<hash>_<what>` files, where `<hash>` is the MD5 of
//! `url|resource|headers-as-JSON` (its `getServerUrlHash`, in `dist/chunk-*.js`; the header
//! values as written, before `${VAR}` is expanded). Only the names are read: never a token.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use md5::{Digest, Md5};

use super::rungs::AuthCache;

/// The most entries of one folder looked at (a cache is a few files per server).
const MAX_ENTRIES: usize = 10_000;

/// Where one mcp-remote invocation keeps its auth state, from its arguments and environment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct CacheKey {
    /// `$MCP_REMOTE_CONFIG_DIR`, else `$HOME/.mcp-auth`.
    pub base: PathBuf,
    /// `$HOME`, to write the folder as `~/...`.
    pub home: Option<PathBuf>,
    /// The server's hash; `None` when the arguments carry a flag that changes it in a way not
    /// modelled here (`--header-file`, `--authorize-param`, `--client-metadata-url`,
    /// `--token-endpoint`).
    pub hash: Option<String>,
}

/// mcp-remote's `getServerUrlHash` for the parts modelled: the URL as given, `--resource`, and
/// the headers (names sorted, values as written) as `JSON.stringify` writes them.
pub(crate) fn server_hash(
    url: &str,
    resource: Option<&str>,
    headers: &BTreeMap<String, String>,
) -> String {
    let mut parts = vec![url.to_string()];
    if let Some(r) = resource {
        parts.push(r.to_string());
    }
    if !headers.is_empty() {
        // serde_json writes a map's keys in order, with no spaces, escaping as JSON.stringify.
        parts.push(serde_json::to_string(headers).unwrap_or_default());
    }
    let digest = Md5::digest(parts.join("|").as_bytes());
    digest.iter().map(|b| format!("{b:02x}")).collect()
}

/// What the cache holds for `key`'s server (names only, never a file's content).
pub(crate) fn read(key: &CacheKey) -> AuthCache {
    let mut cache = AuthCache {
        folder: shown(&key.base.join("mcp-remote-v1"), key.home.as_deref()),
        key: key.hash.as_ref().map(|h| h.chars().take(8).collect()),
        ..AuthCache::default()
    };
    let Ok(base) = std::fs::read_dir(&key.base) else {
        return cache;
    };
    let mut folders: Vec<PathBuf> = base
        .take(MAX_ENTRIES)
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().starts_with("mcp-remote-"))
        .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
        .map(|e| e.path())
        .collect();
    // The folder 0.15.1 writes first, then the others by name.
    folders.sort_by_key(|p| (!p.ends_with("mcp-remote-v1"), p.clone()));
    let mut others = std::collections::BTreeSet::new();
    let mut found_in: Option<PathBuf> = None;
    for folder in &folders {
        let Ok(entries) = std::fs::read_dir(folder) else {
            continue;
        };
        for e in entries.take(MAX_ENTRIES).flatten() {
            let name = e.file_name().to_string_lossy().into_owned();
            let Some((hash, what)) = name.split_once('_') else {
                continue;
            };
            if hash.len() != 32 || !hash.bytes().all(|b| b.is_ascii_hexdigit()) {
                continue;
            }
            if key.hash.as_deref() != Some(hash) {
                others.insert(hash.to_string());
                continue;
            }
            found_in.get_or_insert_with(|| folder.clone());
            match what {
                "tokens.json" => cache.tokens = true,
                "client_info.json" => cache.client_info = true,
                w if w.starts_with("code_verifier_") => cache.pending += 1,
                _ => {}
            }
        }
    }
    if let Some(f) = found_in {
        cache.folder = shown(&f, key.home.as_deref());
    }
    cache.other_servers = others.len();
    cache
}

/// `path` with `home` written as `~`.
fn shown(path: &Path, home: Option<&Path>) -> String {
    match home.and_then(|h| path.strip_prefix(h).ok()) {
        Some(rest) => format!("~/{}", rest.display()),
        None => path.display().to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_hash_is_mcp_remotes_own() {
        // From mcp-remote 0.15.1 itself: `HOME=$tmp mcp-remote http://127.0.0.1:44941/mcp
        // --header 'X-API-Key:${K}' --debug` wrote `7088fb5f98c00dfa52ffdded6cb288e7_debug.log`.
        let headers = BTreeMap::from([("X-API-Key".to_string(), "${K}".to_string())]);
        assert_eq!(
            server_hash("http://127.0.0.1:44941/mcp", None, &headers),
            "7088fb5f98c00dfa52ffdded6cb288e7"
        );
        // Any other part changes it.
        assert_ne!(
            server_hash("http://127.0.0.1:44941/mcp", None, &BTreeMap::new()),
            "7088fb5f98c00dfa52ffdded6cb288e7"
        );
    }

    #[test]
    fn only_this_servers_files_count_and_none_is_opened() {
        let dir = tempfile::tempdir().expect("a dir");
        let home = dir.path().to_path_buf();
        let base = home.join(".mcp-auth");
        let v1 = base.join("mcp-remote-v1");
        std::fs::create_dir_all(&v1).expect("mkdir");
        let mine = server_hash("https://a.example/mcp", None, &BTreeMap::new());
        let other = server_hash("https://b.example/mcp", None, &BTreeMap::new());
        std::fs::write(v1.join(format!("{mine}_tokens.json")), "{}").expect("write");
        std::fs::write(v1.join(format!("{mine}_code_verifier_123.txt")), "x").expect("write");
        std::fs::write(v1.join(format!("{other}_client_info.json")), "{}").expect("write");
        let key = CacheKey {
            base: base.clone(),
            home: Some(home.clone()),
            hash: Some(mine.clone()),
        };
        let c = read(&key);
        assert!(c.tokens && !c.client_info, "{c:?}");
        assert_eq!((c.pending, c.other_servers), (1, 1));
        assert_eq!(c.folder, "~/.mcp-auth/mcp-remote-v1");
        assert_eq!(c.key.as_deref(), Some(&mine[..8]));
        // The other server's look-alike holds its client info, not this one's tokens.
        let c = read(&CacheKey {
            hash: Some(other),
            ..key.clone()
        });
        assert!(!c.tokens && c.client_info, "{c:?}");
        // No cache at all.
        let c = read(&CacheKey {
            base: home.join("nowhere"),
            ..key
        });
        assert!(!c.tokens && !c.client_info && c.other_servers == 0, "{c:?}");
    }
}
