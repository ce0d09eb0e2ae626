//! The page, built into the binary: HTML, CSS, JavaScript, the outlines of the board's Chinese
//! characters (with their font's licence) and the icon, served as they are (no build step,
//! nothing fetched from elsewhere), so it works offline.

const ASSETS: [(&str, &[u8], &str); 7] = [
    (
        "/",
        include_bytes!("assets/index.html"),
        "text/html; charset=utf-8",
    ),
    (
        "/index.html",
        include_bytes!("assets/index.html"),
        "text/html; charset=utf-8",
    ),
    (
        "/style.css",
        include_bytes!("assets/style.css"),
        "text/css; charset=utf-8",
    ),
    (
        "/app.js",
        include_bytes!("assets/app.js"),
        "text/javascript; charset=utf-8",
    ),
    (
        "/glyphs.js",
        include_bytes!("assets/glyphs.js"),
        "text/javascript; charset=utf-8",
    ),
    (
        "/OFL.txt",
        include_bytes!("assets/OFL.txt"),
        "text/plain; charset=utf-8",
    ),
    (
        "/favicon.svg",
        include_bytes!("assets/favicon.svg"),
        "image/svg+xml",
    ),
];

/// The file served at `path` and its content type.
pub(crate) fn find(path: &str) -> Option<(&'static [u8], &'static str)> {
    ASSETS
        .iter()
        .find(|(at, _, _)| *at == path)
        .map(|&(_, body, kind)| (body, kind))
}
