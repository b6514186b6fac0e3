//! Writes the man pages (one per subcommand) into the folder given, from the clap definition:
//! `cargo run --example man -- man` (scripts/completions.sh does it).

fn main() -> std::io::Result<()> {
    let dir = std::env::args_os().nth(1).unwrap_or_else(|| "man".into());
    std::fs::create_dir_all(&dir)?;
    clap_mangen::generate_to(mcpl_doctor::cli::command(), &dir)
}
