//! Pictures through the real binary: the probe's timeline strip (one server, and one per server
//! with `--all`), in block characters and in plain ASCII.

use std::path::Path;
use std::process::{Command, Stdio};

use serde_json::json;

use crate::support::{bin, server_mjs, stderr, stdout};

/// `probe` of the fixture dying 150 ms after each handshake, 4 launches, 100 ms interval.
fn probe_flapping(extra_env: &[(&str, &str)], extra_args: &[&str]) -> String {
    let mut cmd = bin();
    cmd.env("COLUMNS", "80")
        .env_remove("LC_ALL")
        .env_remove("LC_CTYPE");
    for (k, v) in extra_env {
        cmd.env(k, v);
    }
    let s = server_mjs();
    cmd.args([
        "probe",
        "--preset",
        "handshake",
        "--interval",
        "100ms",
        "--launches",
        "4",
    ])
    .args(extra_args)
    .args(["--", "node", &s, "--exit-after-handshake", "150"])
    .stdin(Stdio::null());
    let out = cmd.output().expect("the binary runs");
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    stdout(&out)
}

/// The strip's line (between `|`), the launch line under it.
fn strip_of(text: &str) -> (String, String) {
    let lines: Vec<&str> = text.lines().collect();
    let i = lines
        .iter()
        .position(|l| l.starts_with('|') && l.contains("% connected"))
        .unwrap_or_else(|| panic!("no strip in:\n{text}"));
    let strip = lines[i][1..]
        .split('|')
        .next()
        .unwrap_or_default()
        .to_string();
    (strip, lines[i + 1].to_string())
}

#[test]
fn probe_ends_with_a_strip_before_the_verdict_within_80_columns() {
    let text = probe_flapping(&[("TERM", "xterm"), ("LANG", "en_GB.UTF-8")], &[]);
    let (strip, launches) = strip_of(&text);
    assert!(strip.contains('█') || strip.contains('▄'), "{text}");
    assert!(strip.contains('·'), "{text}");
    // One launch mark per launch: 4 launches at least 250 ms apart in a ~1.2 s run fit in
    // separate cells.
    assert_eq!(launches.matches('^').count(), 4, "{text}");
    let timeline = text.find("Timeline over").expect("a timeline");
    let verdict = text.find("Verdict:").expect("a verdict");
    assert!(timeline < verdict, "{text}");
    // The strip block fits 80 columns.
    let block = &text[timeline..verdict];
    for l in block.lines() {
        assert!(
            l.chars().count() <= 80,
            "{} columns: {l}",
            l.chars().count()
        );
    }
}

#[test]
fn plain_ascii_with_term_dumb_ascii_flag_or_a_c_locale() {
    for (env, args) in [
        (vec![("TERM", "dumb"), ("LANG", "en_GB.UTF-8")], vec![]),
        (
            vec![("TERM", "xterm"), ("LANG", "en_GB.UTF-8")],
            vec!["--ascii"],
        ),
        (vec![("TERM", "xterm"), ("LANG", "C")], vec![]),
    ] {
        let text = probe_flapping(&env, &args);
        let (strip, _) = strip_of(&text);
        assert!(strip.is_ascii(), "{env:?} {args:?}: {strip}");
        assert!(strip.contains('#') || strip.contains('+'), "{strip}");
        let from = text.find("Timeline over").expect("a timeline");
        let to = text.find("Verdict:").expect("a verdict");
        assert!(text[from..to].is_ascii(), "{}", &text[from..to]);
    }
}

#[test]
fn probe_all_draws_one_strip_per_server_on_one_time_axis() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let s = server_mjs();
    let entry = |args: &[&str]| {
        let mut all = vec![s.as_str()];
        all.extend_from_slice(args);
        json!({"command": "node", "args": all, "reconnect": true, "reconnectIntervalMs": 100})
    };
    let config = json!({"mcplServers": {
        "steady": entry(&[]),
        "flappy": entry(&["--exit-after-handshake", "100"]),
    }});
    let file = dir.path().join("servers.json");
    std::fs::write(&file, config.to_string()).expect("write the config");
    let out = bin()
        .env("COLUMNS", "80")
        .args([
            "probe", "--ascii", "--all", "--for", "4s", "--watch", "10s", "--config",
        ])
        .arg(&file)
        .stdin(Stdio::null())
        .output()
        .expect("the binary runs");
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(1), "{text}{}", stderr(&out));
    let strips: Vec<&str> = text
        .lines()
        .filter(|l| l.contains("% connected") && l.contains(" |"))
        .collect();
    // Both servers in the summary's strips (the flapping one's details repeat its own strip).
    let steady = strips
        .iter()
        .find(|l| l.trim_start().starts_with("steady |"));
    let flappy = strips
        .iter()
        .find(|l| l.trim_start().starts_with("flappy |"));
    let (steady, flappy) = (steady.expect(&text), flappy.expect(&text));
    // One shared axis: both strips are as wide.
    assert_eq!(steady.find('|'), flappy.find('|'), "{text}");
    assert_eq!(steady.rfind('|'), flappy.rfind('|'), "{text}");
    // The steady server is connected most of the time, the flapping one much less.
    let share = |l: &str| -> f64 {
        let p = l.split("| ").last().unwrap_or_default();
        p.trim_end_matches("% connected")
            .trim()
            .parse()
            .unwrap_or(-1.0)
    };
    assert!(share(steady) > 50.0, "{text}");
    assert!(share(flappy) < share(steady), "{text}");
}

// ---------------------------------------------------------------------------------------------
// The HTML report in a real browser.

/// Headless Chromium (Debian's `chromium`), or a loud failure naming the package.
fn chromium() -> String {
    for name in ["chromium", "chromium-browser"] {
        if Command::new(name)
            .arg("--version")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
        {
            return name.to_string();
        }
    }
    panic!(
        "the HTML report's browser test needs Chromium on PATH: apt-get install -y chromium \
         (.ci/run installs it)"
    );
}

/// Run headless Chromium on `page` with a fresh profile, no network; `what` is the action
/// (`--dump-dom`, `--screenshot=FILE`). Returns stdout and stderr.
fn in_chromium(page: &Path, what: &[&str]) -> (String, String) {
    in_chromium_at(page, 1100, what)
}

/// [`in_chromium`] with the window `width` CSS pixels wide.
fn in_chromium_at(page: &Path, width: u32, what: &[&str]) -> (String, String) {
    let profile = tempfile::tempdir().expect("a profile folder");
    let out = Command::new(chromium())
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--hide-scrollbars",
            "--force-color-profile=srgb",
            "--force-device-scale-factor=1",
            &format!("--window-size={width},1400"),
            "--enable-logging=stderr",
            "--v=0",
        ])
        .arg(format!("--user-data-dir={}", profile.path().display()))
        .args(what)
        .arg(format!("file://{}", page.display()))
        .stdin(Stdio::null())
        .output()
        .expect("chromium runs");
    assert!(out.status.success(), "chromium failed: {}", stderr(&out));
    (stdout(&out), stderr(&out))
}

#[test]
fn the_html_report_opens_in_chromium_without_errors_and_shows_what_was_measured() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let (html, svg) = (
        dir.path().join("report.html"),
        dir.path().join("timeline.svg"),
    );
    let s = server_mjs();
    let out = bin()
        .args([
            "probe",
            "--preset",
            "lasting",
            "--interval",
            "150ms",
            "--launches",
            "4",
        ])
        .args(["--json", "--report"])
        .arg(&html)
        .arg("--svg")
        .arg(&svg)
        .args(["--", "node", &s, "--exit-after-handshake", "400"])
        .args(["--name", "<script>alert(1)</script>"])
        .stdin(Stdio::null())
        .output()
        .expect("the binary runs");
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let launches = doc["launches"].as_array().expect("launches");
    assert_eq!(launches.len(), 4);
    let f = |v: &serde_json::Value| v.as_f64().unwrap_or(0.0);
    let connected: f64 = launches.iter().map(|l| f(&l["connected_ms"])).sum();
    let share = connected / f(&doc["elapsed_ms"]);

    // The file stands alone: nothing fetched, no script.
    let text = std::fs::read_to_string(&html).expect("the report");
    assert!(text.contains("default-src 'none'"));
    assert!(!text.contains("<script"), "a server's text became markup");
    assert!(text.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
    let svg_text = std::fs::read_to_string(&svg).expect("the SVG");
    assert!(svg_text.starts_with("<svg"), "{svg_text}");
    assert_eq!(svg_text.matches("data-mark=").count(), 4, "{svg_text}");

    // Loaded by a browser: no console message (a blocked fetch, a script, a parse error would
    // log one), the DOM holds the timeline's marks and no script element.
    let (dom, log) = in_chromium(&html, &["--dump-dom"]);
    let console: Vec<&str> = log.lines().filter(|l| l.contains(":CONSOLE")).collect();
    assert!(console.is_empty(), "console messages: {console:#?}");
    assert_eq!(dom.matches("data-mark=").count(), 4, "{dom}");
    assert!(!dom.contains("<script"), "{dom}");
    assert!(dom.contains("<h3>Launches</h3>"), "{dom}");

    // What a person sees: the strip's green share is the measured connected share, and there
    // are 4 launch marks above it.
    let shot = dir.path().join("shot.png");
    in_chromium(&html, &[&format!("--screenshot={}", shot.display())]);
    let png = resvg::tiny_skia::Pixmap::load_png(&shot).expect("a PNG screenshot");
    let m = mcpl_doctor::testing::pictures::measure(
        png.data(),
        png.width() as usize,
        png.height() as usize,
    )
    .expect("a strip in the screenshot");
    assert!(m.width > 900, "{m:?}");
    assert!(
        (m.connected_share - share).abs() < 0.03,
        "screenshot {m:?} vs measured {share:.3}"
    );
    assert_eq!(m.launch_marks, 4, "{m:?}");

    // The captions fit at a desktop's 1,200 px and at a phone's 390 px (review 4, row 9: the
    // per-rule figures were cut at the picture's right edge), as the browser lays them out.
    captions_fit(&text, dir.path());
}

/// The widths the report is laid out at: a desktop's and a phone's (review 4, row 9).
const LAYOUT_WIDTHS: [u32; 2] = [1200, 390];

/// Lays `report` (its text, as written: its policy still forbids scripts) out in Chromium at
/// each of [`LAYOUT_WIDTHS`], each in an iframe of that width on a page whose own script asks
/// the report's layout (headless Chromium's window is at least 500 px wide; an iframe is a
/// real viewport of any width, media queries included): the page does not scroll sideways
/// outside a `.scroll` wrapper, and no wrapper is wider than the page; no caption or text box
/// (headings, figure captions, the facts, the Why, the notes) is cut or runs past the window;
/// every text of every picture lies inside the picture's box, no two overlap, and none is
/// drawn smaller than 7.5 px. Returns what broke, one line each, with the width.
fn layout_faults(report: &str, dir: &Path) -> Vec<String> {
    const CHECK: &str = r#"<script>
addEventListener('load', () => {
  const found = [];
  for (const frame of document.querySelectorAll('iframe')) {
    const w = frame.contentWindow, d = frame.contentDocument, de = d.documentElement;
    const bad = m => found.push(`at ${frame.width} px: ${m}`);
    const name = e => `${e.tagName.toLowerCase()}.${e.className.baseVal ?? e.className}`;
    if (!d.body || !d.querySelector('section')) { bad('the report did not load'); continue; }
    if (de.scrollWidth > de.clientWidth + 1) {
      const wide = [...d.body.querySelectorAll('*')]
        .filter(e => e.getBoundingClientRect().right > de.clientWidth + 1 && !e.closest('.scroll'))
        .map(name).filter((n, i, all) => all.indexOf(n) === i).slice(0, 5);
      bad(`the page scrolls sideways, ${de.scrollWidth} > ${de.clientWidth}: ${wide.join(', ')}`);
    }
    for (const el of d.querySelectorAll('.scroll'))
      if (el.getBoundingClientRect().right > de.clientWidth + 1)
        bad(`a .scroll wrapper is wider than the page: ${name(el.firstElementChild ?? el)}`);
    for (const el of d.querySelectorAll('h1, h2, h3, figcaption, dt, dd, li, p, pre, .verdict')) {
      if (el.closest('.scroll')) continue;
      const r = el.getBoundingClientRect();
      if (el.scrollWidth > el.clientWidth + 1 || r.right > w.innerWidth + 1)
        bad(`caption cut: ${name(el)} ${el.textContent.slice(0, 60)}`);
    }
    for (const svg of d.querySelectorAll('svg')) {
      const box = svg.getBoundingClientRect();
      const px = box.width / svg.viewBox.baseVal.width * Number(svg.getAttribute('font-size') ?? 11);
      if (px < 7.5) bad(`${name(svg)}: its text is drawn at ${px.toFixed(1)} px`);
      const texts = [...svg.querySelectorAll('text')].map(t => [t, t.getBoundingClientRect()])
        .filter(([, r]) => r.width > 0);
      for (const [t, r] of texts)
        if (r.left < box.left - 1 || r.right > box.right + 1 || r.top < box.top - 1
            || r.bottom > box.bottom + 1)
          bad(`clipped: ${t.textContent.slice(0, 60)} [${r.left|0}-${r.right|0} in ${box.left|0}-${box.right|0}]`);
      for (let i = 0; i < texts.length; i++)
        for (let j = i + 1; j < texts.length; j++) {
          const [a, ra] = texts[i], [b, rb] = texts[j];
          const x = Math.min(ra.right, rb.right) - Math.max(ra.left, rb.left);
          const y = Math.min(ra.bottom, rb.bottom) - Math.max(ra.top, rb.top);
          if (x > 1 && y > 1)
            bad(`overlap: ${a.textContent.slice(0, 40)} / ${b.textContent.slice(0, 40)}`);
        }
    }
  }
  const out = document.createElement('pre');
  out.id = 'layout';
  out.textContent = JSON.stringify(found);
  document.body.appendChild(out);
});
</script>"#;
    assert!(
        report.contains("mt-multiples"),
        "the report has no per-rule pictures to check"
    );
    // The report goes into `srcdoc` whole, as an attribute value.
    let srcdoc = report.replace('&', "&amp;").replace('"', "&quot;");
    let frames: String = LAYOUT_WIDTHS
        .iter()
        .map(|w| {
            format!(
                r#"<iframe width="{w}" height="1400" style="border:0;display:block" srcdoc="{srcdoc}"></iframe>"#
            )
        })
        .collect();
    let page = format!(
        "<!doctype html><html><head><meta charset=\"utf-8\"></head><body style=\"margin:0\">\
         {frames}{CHECK}</body></html>"
    );
    let path = dir.join("layout.html");
    std::fs::write(&path, page).expect("write the page");
    let widest = LAYOUT_WIDTHS.iter().copied().max().unwrap_or(1200);
    let (dom, log) = in_chromium_at(&path, widest + 100, &["--dump-dom"]);
    let found = dom
        .split("<pre id=\"layout\">")
        .nth(1)
        .and_then(|rest| rest.split("</pre>").next())
        .unwrap_or_else(|| panic!("the layout check did not run: {log}"));
    let found = found
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&amp;", "&");
    serde_json::from_str(&found).unwrap_or_else(|e| panic!("{e}: {found}"))
}

/// [`layout_faults`] finds nothing.
fn captions_fit(report: &str, dir: &Path) {
    let faults = layout_faults(report, dir);
    assert!(faults.is_empty(), "{faults:#?}");
}

/// A report with long text where a report has it (review 4, row 9, and issue 31's phone):
/// the server's command is a path of more than 160 characters with no space or hyphen to
/// break it at, and the server's name one such word of 91; 5 launches give the launches and predictions tables their rows. Its
/// captions fit at a desktop's and a phone's width.
#[test]
fn a_report_with_long_names_reads_at_a_desktops_and_a_phones_width() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let deep = dir.path().join(format!(
        "Servers{}",
        "InstalledByAPackageManagerUnderALongFolderName".repeat(3)
    ));
    std::fs::create_dir_all(&deep).expect("a folder");
    let server = deep.join("server.mjs");
    std::fs::copy(server_mjs(), &server).expect("copy the fixture server");
    let html = dir.path().join("long.html");
    let name = format!("Weather{}", "AndForecasts".repeat(7));
    let out = bin()
        .args(["probe", "--preset", "lasting", "--interval", "100ms"])
        .args(["--launches", "5", "--report"])
        .arg(&html)
        .arg("--")
        .arg("node")
        .arg(&server)
        .args(["--exit-after-handshake", "150", "--name", &name])
        .stdin(Stdio::null())
        .output()
        .expect("the binary runs");
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let text = std::fs::read_to_string(&html).expect("the report");
    assert!(
        text.contains(&name),
        "the server's name is not in the report"
    );
    assert!(
        text.contains(&*server.to_string_lossy()),
        "the server's path is not in the report"
    );
    captions_fit(&text, dir.path());
}
