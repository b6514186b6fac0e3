//! What CI systems read: SARIF for code scanning ([`sarif`]) and GitHub Actions workflow
//! commands ([`github`]), both from `check-config`'s findings.

pub(crate) mod github;
pub(crate) mod sarif;
