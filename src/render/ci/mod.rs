//! What CI systems read: SARIF for code scanning ([`sarif`]) and GitHub Actions workflow
//! commands ([`github`]), both from `check-config`'s findings.

pub mod github;
pub mod sarif;
