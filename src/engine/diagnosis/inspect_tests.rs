use super::*;

fn read(text: &str) -> Vec<(String, String)> {
    let lines: Vec<&str> = text.lines().collect();
    leaves(&lines)
}

/// @cyanheads/git-mcp-server 2.x given MCP_LOG_LEVEL=verbose: the lines under its
/// `McpError: Invalid application configuration.` (exact, its stack cut to its last frame).
const ZOD: &str = "    at async asyncRunEntryPointWithESMLoader (node:internal/modules/run_main:117:5) {
  code: -32008,
  data: {
    validationErrors: {
      logLevel: [
        'Invalid option: expected one of \"fatal\"|\"error\"|\"warn\"|\"info\"|\"debug\"|\"trace\"|\"silent\"'
      ]
    }
  }
}

Node.js v20.20.2";

#[test]
fn a_validation_errors_leaf_is_read_with_its_key() {
    assert_eq!(
        read(ZOD),
        [(
            "logLevel".to_string(),
            "Invalid option: expected one of \"fatal\"|\"error\"|\"warn\"|\"info\"|\"debug\"|\"trace\"|\"silent\"".to_string()
        )]
    );
    let git = ZOD.replace("logLevel", "git").replace(
        "'Invalid option: expected one of \"fatal\"|\"error\"|\"warn\"|\"info\"|\"debug\"|\"trace\"|\"silent\"'",
        "'GIT_BASE_DIR must be an absolute path (tilde expansion is supported)'",
    );
    assert_eq!(read(&git)[0].0, "git");
    assert!(read(&git)[0].1.starts_with("GIT_BASE_DIR must be"));
}

#[test]
fn a_cause_and_an_aggregates_errors_are_leaves() {
    // Node 20: `new Error("could not start", { cause })`, and pg's AggregateError.
    let cause = "    at main (/srv/index.js:9:11) {\n  [cause]: Error: SRV_TOKEN is not set\n      at load (/srv/config.js:3:9)\n}";
    assert_eq!(
        read(cause),
        [(
            "cause".to_string(),
            "Error: SRV_TOKEN is not set".to_string()
        )]
    );
    let agg = "    at internalConnectMultiple (node:net:1117:18) {\n  code: 'ECONNREFUSED',\n  [errors]: [\n    Error: connect ECONNREFUSED ::1:5432\n        at createConnectionError (node:net:1647:14) {\n      errno: -111,\n      code: 'ECONNREFUSED',\n      syscall: 'connect',\n      address: '::1',\n      port: 5432\n    }\n  ]\n}";
    let l = read(agg);
    assert_eq!(
        l[0],
        (
            "errors".to_string(),
            "Error: connect ECONNREFUSED ::1:5432".to_string()
        )
    );
}

#[test]
fn scalar_properties_and_lines_after_the_block_are_no_leaves() {
    // A plain ECONNREFUSED (its fields are no messages), a warning object's lines after it.
    let plain = "    at TCPConnectWrap.afterConnect (node:net:1555:16) {\n  errno: -111,\n  code: 'ECONNREFUSED',\n  syscall: 'connect',\n  address: '127.0.0.1',\n  port: 5432\n}\nServer says 'ready and waiting'";
    assert!(read(plain).is_empty());
    // No block at all: the next unindented line ends it.
    assert!(read("    at main (/srv/index.js:1:1)\nlisten: 'on stdio now'").is_empty());
}
