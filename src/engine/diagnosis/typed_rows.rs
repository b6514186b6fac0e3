//! The structured row keyed on an exception's TYPE (see [`super::structured`]): well-known
//! libraries raise their own types when a variable they read is unset or wrong, whatever the
//! server wraps them in (`Exception: Failed to create boto3 client` raised "during handling"
//! of botocore's `NoRegionError`). Anywhere in the launch's chain, such a type names its
//! variables: a small table, each row with its library, its types and its variables.
//!
//! A Python type is printed with its module (`botocore.exceptions.NoRegionError`): its row
//! needs that package. A Node class (`CredentialsProviderError`) and Go's AWS error codes
//! (`MissingRegion: ...`) are printed bare: their rows match the word followed by `:`.

use super::given::entry_env;
use super::model::{cut, Found, Setting, Source};
use super::table::Id;
use super::words::terms;

/// One library's type and the variables it means.
struct Typed {
    /// The package a Python type is printed under (`botocore.`), or `None`: printed bare.
    package: Option<&'static str>,
    types: &'static [&'static str],
    /// Error codes one of which its message must hold, in parentheses (botocore's
    /// `ClientError`: `An error occurred (InvalidClientTokenId) when calling ...`); none: any.
    codes: &'static [&'static str],
    /// The variables it means: all of them (`all`), or any one.
    vars: &'static [&'static str],
    all: bool,
    /// A variable that stands for all of `vars` when the entry sets it (`AWS_PROFILE`).
    instead: Option<&'static str>,
    /// The one of `vars` the library itself reads, when the others work only where the
    /// server reads them and passes them on (botocore reads `AWS_DEFAULT_REGION`, never
    /// `AWS_REGION`).
    own: Option<&'static str>,
    /// What the server wants there.
    what: &'static str,
}

const AWS_KEYS: &[&str] = &["AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY"];
const AWS_REGION: &[&str] = &["AWS_REGION", "AWS_DEFAULT_REGION"];
const AWS_CREDENTIALS: &str =
    "AWS credentials (both keys, or `AWS_PROFILE` naming a profile that holds them)";
const AZURE: &[&str] = &["AZURE_TENANT_ID", "AZURE_CLIENT_ID", "AZURE_CLIENT_SECRET"];

const TABLE: &[Typed] = &[
    Typed {
        package: Some("botocore."),
        types: &["NoRegionError"],
        vars: AWS_REGION,
        codes: &[],
        all: false,
        instead: None,
        own: Some("AWS_DEFAULT_REGION"),
        what: "an AWS region (`us-east-1`, ...)",
    },
    Typed {
        package: Some("botocore."),
        types: &["NoCredentialsError", "PartialCredentialsError"],
        vars: AWS_KEYS,
        codes: &[],
        all: true,
        instead: Some("AWS_PROFILE"),
        own: None,
        what: AWS_CREDENTIALS,
    },
    Typed {
        package: Some("botocore."),
        types: &["ProfileNotFound"],
        vars: &["AWS_PROFILE"],
        codes: &[],
        all: false,
        instead: None,
        own: None,
        what: "a profile that exists in ~/.aws/config or ~/.aws/credentials",
    },
    Typed {
        package: Some("botocore."),
        types: &["ClientError"],
        codes: &[
            "UnrecognizedClientException",
            "InvalidClientTokenId",
            "SignatureDoesNotMatch",
            "InvalidAccessKeyId",
            "ExpiredToken",
            "ExpiredTokenException",
            "AuthFailure",
        ],
        all: true,
        vars: AWS_KEYS,
        instead: Some("AWS_PROFILE"),
        own: None,
        what: "AWS credentials that AWS accepts (these were refused)",
    },
    Typed {
        package: Some("google.auth."),
        types: &["DefaultCredentialsError"],
        vars: &["GOOGLE_APPLICATION_CREDENTIALS"],
        codes: &[],
        all: false,
        instead: None,
        own: None,
        what: "the path of a service account's key file (or run `gcloud auth application-default login`)",
    },
    Typed {
        package: Some("openai."),
        types: &["AuthenticationError", "OpenAIError"],
        vars: &["OPENAI_API_KEY"],
        codes: &[],
        all: false,
        instead: None,
        own: None,
        what: "a valid OpenAI API key",
    },
    Typed {
        package: Some("anthropic."),
        types: &["AuthenticationError"],
        vars: &["ANTHROPIC_API_KEY"],
        codes: &[],
        all: false,
        instead: None,
        own: None,
        what: "a valid Anthropic API key",
    },
    Typed {
        package: Some("azure."),
        types: &["CredentialUnavailableError", "ClientAuthenticationError"],
        vars: AZURE,
        codes: &[],
        all: true,
        instead: None,
        own: None,
        what: "a service principal's tenant, client id and secret",
    },
    Typed {
        package: Some("kubernetes."),
        types: &["ConfigException"],
        vars: &["KUBECONFIG"],
        codes: &[],
        all: false,
        instead: None,
        own: None,
        what: "the path of a kubeconfig file",
    },
    // The AWS SDK for JavaScript v3's class; aws-sdk-go's error codes.
    Typed {
        package: None,
        types: &["CredentialsProviderError", "NoCredentialProviders"],
        vars: AWS_KEYS,
        codes: &[],
        all: true,
        instead: Some("AWS_PROFILE"),
        own: None,
        what: AWS_CREDENTIALS,
    },
    Typed {
        package: None,
        types: &["MissingRegion"],
        vars: AWS_REGION,
        codes: &[],
        all: false,
        instead: None,
        own: None,
        what: "an AWS region (`us-east-1`, ...)",
    },
];

/// The AWS SDK for JavaScript v3's region check (a plain `Error: Region is missing`): it reads
/// `AWS_REGION` (and a profile's `region`), never `AWS_DEFAULT_REGION`.
const AWS_JS_REGION: Typed = Typed {
    package: None,
    types: &["Error"],
    vars: &["AWS_REGION"],
    codes: &[],
    all: false,
    instead: None,
    own: None,
    what: "an AWS region (`us-east-1`, ...)",
};

/// Libraries whose plain `Error` means a variable by where it is raised: the package of the
/// first `at` frame under the error's head (`at default (/…/node_modules/@smithy/config-resolver/
/// dist-cjs/index.js:117:11)`), and its row.
const RAISED_IN: &[(&str, &Typed)] = &[
    ("/node_modules/@smithy/config-resolver/", &AWS_JS_REGION),
    ("/node_modules/@aws-sdk/config-resolver/", &AWS_JS_REGION),
];

/// A Node error's head (`Error: msg`, `TypeError [CODE]: msg`) whose first frame is in one of
/// [`RAISED_IN`]'s packages: the head, its row and the package.
fn raised_in<'a>(lines: &[&'a str]) -> Option<(&'a str, &'static Typed, &'static str)> {
    lines.windows(2).rev().find_map(|w| {
        let (head, frame) = (w[0].trim(), w[1].trim_start());
        let kind = head.split(": ").next()?.split(" [").next()?;
        let is_head = head.contains(": ")
            && kind.ends_with("Error")
            && kind.chars().all(|c| c.is_ascii_alphanumeric());
        if !is_head || !frame.starts_with("at ") {
            return None;
        }
        RAISED_IN
            .iter()
            .find(|(pkg, _)| frame.contains(pkg))
            .map(|(pkg, t)| {
                (
                    head,
                    *t,
                    pkg.trim_start_matches("/node_modules/")
                        .trim_end_matches('/'),
                )
            })
    })
}

/// The row of `line` and the type it names, if one: a Python exception line
/// (`pkg.mod.Type: message`, its head from the line's start) or a bare name followed by `:`.
fn typed_in(line: &str) -> Option<(&'static Typed, &'static str)> {
    let t = line.trim();
    let head = t.split(": ").next().unwrap_or(t).trim_end_matches(':');
    TABLE.iter().find_map(|row| {
        row.types.iter().find_map(|ty| {
            let hit = match row.package {
                Some(p) => {
                    head.starts_with(p)
                        && head.ends_with(&format!(".{ty}"))
                        && head
                            .chars()
                            .all(|c| c.is_ascii_alphanumeric() || c == '.' || c == '_')
                }
                None => t
                    .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == ':'))
                    .any(|w| w == format!("{ty}:")),
            };
            let coded =
                row.codes.is_empty() || row.codes.iter().any(|c| t.contains(&format!("({c})")));
            (hit && coded).then_some((row, *ty))
        })
    })
}

fn is_set(s: &Setting, var: &str) -> bool {
    entry_env(s).any(|(k, _)| k == var)
}

/// `A`, `A or B`, `A and B`, quoted.
fn listed(vars: &[&str], join: &str) -> String {
    vars.iter()
        .map(|v| format!("`{v}`"))
        .collect::<Vec<_>>()
        .join(join)
}

/// The row: the last line of the launch that holds a type of the table.
pub(super) fn row(lines: &[&str], s: &Setting) -> Option<Found> {
    let (line, t, lib) = match lines
        .iter()
        .rev()
        .find_map(|l| typed_in(l).map(|x| (*l, x)))
    {
        Some((line, (t, ty))) => (
            line,
            t,
            t.package
                .map(|p| format!("{} raised {ty}", p.trim_end_matches('.')))
                .unwrap_or_else(|| format!("it failed with {ty}")),
        ),
        None => {
            let (line, t, pkg) = raised_in(lines)?;
            (line, t, format!("{pkg} raised it"))
        }
    };
    let env = terms("the entry's `env`", s);
    let quoted = cut(line.trim());
    let set: Vec<&str> = t.vars.iter().copied().filter(|v| is_set(s, v)).collect();
    let unset: Vec<&str> = t.vars.iter().copied().filter(|v| !is_set(s, v)).collect();
    let instead = t.instead.filter(|i| is_set(s, i));
    let enough = if t.all {
        unset.is_empty()
    } else {
        !set.is_empty()
    };
    // The entry sets a name the server passes on only if it reads it (`AWS_REGION`), not the
    // one the library reads itself: that one is what the library lacked.
    let own = t.own.filter(|o| !is_set(s, o) && !set.is_empty());
    let (id, summary, next) = match (instead, own) {
        (None, Some(o)) => {
            (
                Id::MissingEnvVar,
                format!(
                    "{lib} although {env} sets {}: {} reads `{o}`, which {env} does not set",
                    listed(&set, " and "),
                    t.package.unwrap_or_default().trim_end_matches('.')
                ),
                format!(
                    "set `{o}` in {env} to {} (as {} is): {} reads `{o}`, not {}",
                    t.what,
                    listed(&set, " and "),
                    t.package.unwrap_or_default().trim_end_matches('.'),
                    listed(&set, " or ")
                ),
            )
        }
        (Some(i), _) => (
            Id::BadArgument,
            format!("{lib} with `{i}` set: the profile it names does not give {}", t.what),
            format!("check the profile `{i}` names (its keys in ~/.aws/credentials), or set {} in {env}", listed(t.vars, " and ")),
        ),
        (None, None) if !enough => {
            let (names, join) = if t.all {
                (unset.clone(), " and ")
            } else {
                (unset.clone(), " or ")
            };
            (
                Id::MissingEnvVar,
                format!(
                    "{lib}, which means {} is unset, and {env} sets no {}",
                    listed(&names, join),
                    listed(&names, " or ")
                ),
                format!(
                    "set {} in {env} to {}: {lib}",
                    listed(&names, join),
                    t.what
                ),
            )
        }
        (None, None) => (
            Id::BadArgument,
            format!(
                "{lib} although {env} sets {}: the server does not get {} from it",
                listed(&set, " and "),
                t.what
            ),
            format!(
                "check {} in {env}: the server wants {} ({lib})",
                listed(&set, " and "),
                t.what
            ),
        ),
    };
    Some(Found {
        id,
        summary,
        next,
        evidence: vec![(Source::Stderr, quoted)],
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_librarys_type_is_known_with_its_package_or_bare_where_printed_bare() {
        // botocore 1.x under awslabs.eks-mcp-server; google-auth 2.x; the AWS SDK for
        // JavaScript v3; aws-sdk-go v1.
        for (line, ty) in [
            (
                "botocore.exceptions.NoRegionError: You must specify a region.",
                "NoRegionError",
            ),
            (
                "google.auth.exceptions.DefaultCredentialsError: Your default credentials were not found.",
                "DefaultCredentialsError",
            ),
            (
                "CredentialsProviderError: Could not load credentials from any providers",
                "CredentialsProviderError",
            ),
            (
                "2024/01/02 fatal: MissingRegion: could not find region configuration",
                "MissingRegion",
            ),
            (
                "botocore.exceptions.ClientError: An error occurred (UnrecognizedClientException) when calling the ListClusters operation: The security token included in the request is invalid.",
                "ClientError",
            ),
        ] {
            assert_eq!(typed_in(line).map(|(_, t)| t), Some(ty), "{line}");
        }
        // A plain Error raised in the AWS SDK's region resolver; the same error raised in
        // the server's own code is not the SDK's.
        let sdk = [
            "Error: Region is missing",
            "    at default (/app/node_modules/@smithy/config-resolver/dist-cjs/index.js:117:11)",
        ];
        assert_eq!(
            raised_in(&sdk).map(|(h, _, p)| (h, p)),
            Some(("Error: Region is missing", "@smithy/config-resolver"))
        );
        let own = [
            "Error: Region is missing",
            "    at start (/app/dist/index.js:12:11)",
            "    at /app/node_modules/@smithy/config-resolver/dist-cjs/index.js:90:1",
        ];
        assert!(raised_in(&own).is_none());
        // The same name in prose or under another package is not the library's type.
        for line in [
            "NoRegionError: You must specify a region.",
            "myapp.errors.NoRegionError: custom",
            "  the NoRegionError is raised when no region is set",
            "openai_compat.AuthenticationError: bad key",
            "INFO MissingRegion handling is enabled",
            // A ClientError of another code is no credentials' fault.
            "botocore.exceptions.ClientError: An error occurred (ResourceNotFoundException) when calling the DescribeCluster operation: No cluster found",
        ] {
            assert!(typed_in(line).is_none(), "{line}");
        }
    }
}
