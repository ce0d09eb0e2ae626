fn main() {
    std::process::exit(chariot::cli::run());
}
