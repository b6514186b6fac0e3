use std::time::{Duration, Instant};

use super::*;

fn names(found: Vec<(String, usize)>) -> Vec<String> {
    found.into_iter().map(|(n, _)| n).collect()
}

#[test]
fn node_code_reads_members_indexes_destructurings_and_aliases() {
    let js = r#"
const token = process.env.SHORTCUT_API_TOKEN || process.env["SHORTCUT_API_TKN"];
const url = process.env?.BASE_URL ?? process.env['API_SERVER'];
const { DATADOG_API_KEY, DATADOG_APP_KEY: app, DD_SITE = "datadoghq.com", ...rest } = process.env;
const env = process.env;
if (!env.NOTION_TOKEN) console.error(env.lowercase);
const x = myprocess.env.NOT_THIS;
"#;
    assert_eq!(
        names(node_reads(js)),
        [
            "SHORTCUT_API_TOKEN",
            "SHORTCUT_API_TKN",
            "BASE_URL",
            "API_SERVER",
            "DATADOG_API_KEY",
            "DATADOG_APP_KEY",
            "DD_SITE",
            "NOTION_TOKEN",
        ]
    );
    // `env` imported from the process module is the same object; from elsewhere it is not.
    let imported = "import { env } from \"node:process\";\nconst k = env.EXA_API_KEY;";
    assert_eq!(names(node_reads(imported)), ["EXA_API_KEY"]);
    let other = "import { env } from \"./config.js\";\nconst k = env.EXA_API_KEY;";
    assert!(node_reads(other).is_empty());
}

#[test]
fn python_code_reads_environ_getenv_and_settings_fields() {
    let py = r#"
import os
from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict

host = os.environ["MYSQL_HOST"]
port = os.environ.get('MYSQL_PORT', "3306")
user = os.getenv("MYSQL_USER")
_ = my_getenv("NOT_THIS")

class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="QDRANT_")

    url: str | None = None
    api_key: str = Field(default="", validation_alias="QDRANT_KEY")
    _private: int = 0

    def helper(self):
        inner: int = 1
"#;
    let got = names(python_reads(py));
    assert_eq!(
        got,
        [
            "MYSQL_HOST",
            "MYSQL_PORT",
            "MYSQL_USER",
            "QDRANT_URL",
            "QDRANT_API_KEY",
            "QDRANT_KEY"
        ],
        "{got:?}"
    );
    // A `class Config` with `env_prefix = "..."` (pydantic 1's form).
    let v1 =
        "class S(BaseSettings):\n    token: str\n\n    class Config:\n        env_prefix = 'GH_'\n";
    assert_eq!(names(python_reads(v1)), ["GH_TOKEN"]);
}

#[test]
fn python_code_reads_through_environs_decouple_and_click() {
    // environs 14, python-decouple 3.8, click 8 / typer 0.15: each library's own reader.
    let py = r#"
from environs import Env
from decouple import config
import click

env = Env()
key = env.str("SRV_API_KEY")
port = env.int('SRV_PORT', 8000)
debug = config("SRV_DEBUG", default=False, cast=bool)
other = myenv.int("NOT_THIS")

@click.option("--token", envvar="SRV_TOKEN")
@click.option("--url", envvar=["SRV_URL", "SRV_BASE_URL"])
def main(token, url): ...
"#;
    let got = names(python_reads(py));
    assert_eq!(
        got,
        [
            "SRV_API_KEY",
            "SRV_PORT",
            "SRV_DEBUG",
            "SRV_TOKEN",
            "SRV_URL",
            "SRV_BASE_URL"
        ],
        "{got:?}"
    );
    // Without its library imported, `config("X")` and `env.int("X")` are anyone's.
    let plain = "x = config(\"SRV_DEBUG\")\ny = env.int(\"SRV_PORT\")\n";
    assert!(python_reads(plain).is_empty(), "{:?}", python_reads(plain));
}

fn write(p: &std::path::Path, text: &str) {
    std::fs::create_dir_all(p.parent().expect("parent")).expect("mkdir");
    std::fs::write(p, text).expect("write");
}

#[test]
fn a_package_is_read_with_where_each_name_is_first_read() {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path();
    write(&root.join("package.json"), r#"{"name":"srv"}"#);
    write(
        &root.join("dist/index.js"),
        "// start\nconst t = process.env.SRV_TOKEN;\n",
    );
    write(
        &root.join("dist/more.js"),
        "const t = process.env.SRV_TOKEN; process.env.SRV_URL;\n",
    );
    // Another package's code, a test, a map, types: not read.
    write(
        &root.join("node_modules/dep/index.js"),
        "process.env.DEP_VAR",
    );
    write(&root.join("test/a.js"), "process.env.TEST_VAR");
    write(&root.join("dist/index.d.ts"), "process.env.TYPES_VAR");
    let got = scan(
        &Code::Folder {
            root: root.to_path_buf(),
            depth: 8,
        },
        BOUNDS,
    );
    let reads: Vec<(&str, &str)> = got
        .reads
        .iter()
        .map(|r| (r.name.as_str(), r.at.as_str()))
        .collect();
    assert_eq!(
        reads,
        [
            ("SRV_TOKEN", "dist/index.js:2"),
            ("SRV_URL", "dist/more.js:1")
        ]
    );
    assert_eq!(got.files, 2);
    assert_eq!(got.cut, None);
}

#[test]
fn a_huge_file_a_link_loop_and_a_fifo_do_not_hold_the_scan() {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path();
    write(&root.join("a.js"), "process.env.SEEN_FIRST;\n");
    // Over the per-file bound: skipped, not read.
    let huge = root.join("huge.js");
    let f = std::fs::File::create(&huge).expect("create");
    f.set_len(BOUNDS.file + 1).expect("set_len");
    // A link loop, a link out of the package and a FIFO nobody writes to.
    std::os::unix::fs::symlink(root.join("loop2"), root.join("loop1")).expect("link");
    std::os::unix::fs::symlink(root.join("loop1"), root.join("loop2")).expect("link");
    std::os::unix::fs::symlink(root, root.join("self")).expect("link");
    std::os::unix::fs::symlink("/etc", root.join("out")).expect("link");
    nix::unistd::mkfifo(&root.join("pipe.js"), nix::sys::stat::Mode::S_IRWXU).expect("mkfifo");
    write(&root.join("z.py"), "import os\nos.getenv('SEEN_LAST')\n");
    let started = Instant::now();
    let got = scan(
        &Code::Folder {
            root: root.to_path_buf(),
            depth: 8,
        },
        BOUNDS,
    );
    assert!(started.elapsed() < Duration::from_secs(10));
    let names: Vec<&str> = got.reads.iter().map(|r| r.name.as_str()).collect();
    assert_eq!(names, ["SEEN_FIRST", "SEEN_LAST"]);
    assert_eq!(got.files, 2);
    // The FIFO named as the script itself: refused, not opened.
    let started = Instant::now();
    let got = scan(&Code::File(root.join("pipe.js")), BOUNDS);
    assert!(started.elapsed() < Duration::from_secs(10));
    assert_eq!(got.files, 0);
}

#[test]
fn the_file_and_byte_bounds_cut_the_scan_and_say_so() {
    let dir = tempfile::tempdir().expect("tempdir");
    for i in 0..30 {
        write(
            &dir.path().join(format!("f{i:02}.js")),
            &format!("process.env.VAR_{i:02};\n"),
        );
    }
    let code = Code::Folder {
        root: dir.path().to_path_buf(),
        depth: 1,
    };
    let few = Bounds {
        files: 10,
        ..BOUNDS
    };
    let got = scan(&code, few);
    assert_eq!(got.files, 10);
    assert_eq!(got.cut.as_deref(), Some("10 files"));
    assert_eq!(got.reads.len(), 10);
    let small = Bounds {
        bytes: 50,
        ..BOUNDS
    };
    let got = scan(&code, small);
    assert_eq!(got.files, 2, "{got:?}");
    assert_eq!(got.cut.as_deref(), Some("50 bytes"));
    let none = Bounds {
        time: Duration::ZERO,
        ..BOUNDS
    };
    assert_eq!(scan(&code, none).files, 0);
}

#[test]
fn a_file_name_written_near_a_read_is_tied_to_it() {
    let dir = tempfile::tempdir().expect("tempdir");
    let js = dir.path().join("index.js");
    std::fs::write(
        &js,
        "const CONFIG_DIR = path.join(os.homedir(), '.gmail-mcp');\n\
         const OAUTH_PATH = process.env.GMAIL_OAUTH_PATH || path.join(CONFIG_DIR, 'gcp-oauth.keys.json');\n\
         const CREDENTIALS_PATH = process.env.GMAIL_CREDENTIALS_PATH || path.join(CONFIG_DIR, 'credentials.json');\n\
         console.error('Please place gcp-oauth.keys.json in current directory or', CONFIG_DIR);\n",
    )
    .expect("write");
    let s = scan(&Code::File(js), BOUNDS);
    let nearest = |file: &str| {
        s.ties
            .iter()
            .filter(|t| t.file == file)
            .min_by_key(|t| t.lines)
            .map(|t| (t.name.as_str(), t.at.as_str(), t.lines))
    };
    assert_eq!(
        nearest("gcp-oauth.keys.json"),
        Some(("GMAIL_OAUTH_PATH", "index.js:2", 0))
    );
    assert_eq!(
        nearest("credentials.json"),
        Some(("GMAIL_CREDENTIALS_PATH", "index.js:3", 0))
    );
    // A message's text (with spaces) and a folder with no extension are no file names.
    assert_eq!(nearest("current"), None);
    let py = dir.path().join("server.py");
    std::fs::write(
        &py,
        "import os\nKUBE = os.path.expanduser(os.environ.get(\"KUBECONFIG\", \"~/.kube/config\"))\n\
         DB = os.getenv('APP_DB', 'data/app.sqlite3')\n",
    )
    .expect("write");
    let s = scan(&Code::File(py), BOUNDS);
    let files: Vec<(&str, &str)> = s
        .ties
        .iter()
        .filter(|t| t.lines == 0)
        .map(|t| (t.name.as_str(), t.file.as_str()))
        .collect();
    assert_eq!(files, [("KUBECONFIG", "config"), ("APP_DB", "app.sqlite3")]);
}

#[test]
fn quoted_file_names_are_paths_or_named_with_a_files_extension() {
    assert_eq!(
        quoted_files(r#"path.join(root, "gcp-oauth.keys.json"); x = 'https://a.example/b.json'"#),
        ["gcp-oauth.keys.json"]
    );
    assert_eq!(quoted_files("`${dir}/config.yaml`"), ["config.yaml"]);
    assert!(
        quoted_files(r#"import x from "@scope/pkg"; y = "console.cloud.google.com""#).is_empty()
    );
}

#[test]
fn dynaconf_validators_are_read_under_the_envvar_prefix() {
    // dynaconf 3.2: `Validator("NAME")` reads `PREFIX_NAME`, `DYNACONF_NAME` by default.
    let py = "from dynaconf import Dynaconf, Validator\nsettings = Dynaconf(\n    envvar_prefix=\"ZOO\",\n    validators=[Validator(\"API_KEY\", must_exist=True), Validator('MODE', is_in=['a'])],\n)\n";
    assert_eq!(names(python_reads(py)), ["ZOO_API_KEY", "ZOO_MODE"]);
    let default = "from dynaconf import Dynaconf, Validator\ns = Dynaconf(validators=[Validator(\"TOKEN\", must_exist=True)])\n";
    assert_eq!(names(python_reads(default)), ["DYNACONF_TOKEN"]);
    // Look-alike: a `Validator(` without a Dynaconf, or a `field_validator(`.
    let other =
        "from x import Validator\nv = Validator(\"API_KEY\")\n@field_validator(\"TOKEN\")\n";
    assert!(names(python_reads(other)).is_empty());
}
