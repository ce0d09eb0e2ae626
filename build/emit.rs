//! Writing generated tables as Rust items.

use std::fmt::Write as _;

/// `pub static NAME: TY = [...]` with `width` values a line.
pub fn emit<T: std::fmt::LowerHex>(
    out: &mut String,
    name: &str,
    ty: &str,
    values: &[T],
    width: usize,
) {
    writeln!(out, "pub static {name}: {ty} = [").unwrap();
    for chunk in values.chunks(width) {
        out.push_str("   ");
        for v in chunk {
            write!(out, " {v:#x},").unwrap();
        }
        out.push('\n');
    }
    out.push_str("];\n");
}

pub fn emit_nested<T: std::fmt::LowerHex, const N: usize>(
    out: &mut String,
    name: &str,
    ty: &str,
    rows: &[[T; N]],
) {
    writeln!(out, "pub static {name}: {ty} = [").unwrap();
    for row in rows {
        out.push_str("    [");
        for v in row {
            write!(out, "{v:#x},").unwrap();
        }
        out.push_str("],\n");
    }
    out.push_str("];\n");
}
