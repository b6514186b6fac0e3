//! The operating systems a configuration file is checked for (`check-config --platform`): a
//! shared `.mcp.json` or `claude_desktop_config.json` is written on one machine and run on
//! another, and what breaks differs (hosts.md F1, F2, F4, F9, copied into
//! `tests/reference/hosts-dialects.md`).

use serde::Serialize;

/// One operating system a host runs on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub(crate) enum Platform {
    Linux,
    Macos,
    Windows,
}

impl Platform {
    pub(crate) const ALL: [Platform; 3] = [Platform::Linux, Platform::Macos, Platform::Windows];

    /// The platform this binary runs on (the BSDs count as Linux: a Unix desktop).
    pub(crate) fn current() -> Platform {
        if cfg!(windows) {
            Platform::Windows
        } else if cfg!(target_os = "macos") {
            Platform::Macos
        } else {
            Platform::Linux
        }
    }

    pub(crate) fn title(self) -> &'static str {
        match self {
            Platform::Linux => "Linux",
            Platform::Macos => "macOS",
            Platform::Windows => "Windows",
        }
    }

    fn bit(self) -> u8 {
        match self {
            Platform::Linux => 1,
            Platform::Macos => 2,
            Platform::Windows => 4,
        }
    }
}

/// A set of platforms, in the order macOS, Windows, Linux when named (most reports first).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Platforms(u8);

impl Platforms {
    pub(crate) fn of(list: &[Platform]) -> Platforms {
        Platforms(list.iter().fold(0, |b, p| b | p.bit()))
    }

    pub fn current() -> Platforms {
        Platforms::of(&[Platform::current()])
    }

    #[cfg(test)]
    pub(crate) fn all() -> Platforms {
        Platforms::of(&Platform::ALL)
    }

    pub(crate) fn has(self, p: Platform) -> bool {
        self.0 & p.bit() != 0
    }

    pub(crate) fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The platforms in both sets.
    pub(crate) fn and(self, other: Platforms) -> Platforms {
        Platforms(self.0 & other.0)
    }

    /// The platforms of this set, macOS first.
    pub(crate) fn list(self) -> Vec<Platform> {
        [Platform::Macos, Platform::Windows, Platform::Linux]
            .into_iter()
            .filter(|p| self.has(*p))
            .collect()
    }

    /// `macOS`, `macOS and Linux`, `macOS, Windows and Linux`.
    pub(crate) fn words(self) -> String {
        let names: Vec<&str> = self.list().into_iter().map(Platform::title).collect();
        match names.as_slice() {
            [] => String::new(),
            [one] => (*one).to_string(),
            [init @ .., last] => format!("{} and {last}", init.join(", ")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sets_are_named_in_words() {
        assert_eq!(Platforms::all().words(), "macOS, Windows and Linux");
        assert_eq!(
            Platforms::of(&[Platform::Linux, Platform::Macos]).words(),
            "macOS and Linux"
        );
        assert_eq!(Platforms::of(&[Platform::Windows]).words(), "Windows");
        assert!(Platforms::of(&[]).is_empty());
        assert!(Platforms::all()
            .and(Platforms::of(&[Platform::Windows]))
            .has(Platform::Windows));
    }
}
