fn main() -> std::process::ExitCode {
    mcpl_doctor::main()
}
