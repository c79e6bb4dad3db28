//! `axforth`: the command line is `cli/`, one file per verb.

mod cli;

fn main() -> std::process::ExitCode {
    cli::main()
}
