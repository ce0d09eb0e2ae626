//! Requests in, responses out: the routes, bodies read within a size limit, JSON answers, and
//! every refusal as a 4xx (or 503) with a message in `{"error": ...}`.

use super::{api, assets, searches, tabs, App};
use serde::de::DeserializeOwned;
use serde_json::json;
use std::io::Read;
use std::sync::Arc;
use tiny_http::{Header, Method, Request, Response};

/// The largest request body read (a long PGN fits many times over).
pub(crate) const MAX_BODY: usize = 1 << 20;

/// A request refused: the status and what to tell the page.
#[derive(Debug)]
pub(crate) struct ApiError {
    pub status: u16,
    pub message: String,
}

impl ApiError {
    fn new(status: u16, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            message: message.into(),
        }
    }

    /// Malformed: not JSON, a field of the wrong type or out of range.
    pub(crate) fn bad_request(message: impl Into<String>) -> ApiError {
        ApiError::new(400, message)
    }

    pub(crate) fn not_found(message: impl Into<String>) -> ApiError {
        ApiError::new(404, message)
    }

    /// Well formed, but the rules or the readers refuse it: an illegal move, a bad FEN.
    pub(crate) fn unprocessable(message: impl Into<String>) -> ApiError {
        ApiError::new(422, message)
    }

    /// Too busy: too many tabs open, no thread to be had.
    pub(crate) fn unavailable(message: impl Into<String>) -> ApiError {
        ApiError::new(503, message)
    }
}

/// Answers one request. The event stream keeps its connection (and this thread) until the tab
/// closes; every other request is answered at once.
pub(crate) fn handle(app: &Arc<App>, mut request: Request) {
    let url = request.url().to_string();
    let path = url.split('?').next().unwrap_or_default();
    let method = request.method().clone();
    if matches!(method, Method::Get | Method::Head) {
        if let Some((body, kind)) = assets::find(path) {
            respond(request, 200, body.to_vec(), kind);
            return;
        }
    }
    let answer = match (&method, path) {
        (Method::Get, "/api/events") => match app.tabs.open() {
            Ok(tab) => {
                let (shared, out) = (Arc::clone(app), request.into_writer());
                let opened = Arc::clone(&tab);
                let streaming = std::thread::Builder::new()
                    .name("serve-events".into())
                    .spawn(move || tabs::stream(&shared.tabs, opened, out));
                if streaming.is_err() {
                    // The connection went with the closure; the tab must not stay counted.
                    app.tabs.close(&tab);
                }
                return;
            }
            Err(e) => Err(e),
        },
        (Method::Post, "/api/position") => body(&mut request).and_then(api::position),
        (Method::Post, "/api/move") => body(&mut request).and_then(api::play_move),
        (Method::Post, "/api/load") => body(&mut request).and_then(api::load),
        (Method::Post, "/api/search") => {
            body(&mut request).and_then(|r| searches::start(&app.tabs, &app.pool, r))
        }
        (Method::Post, "/api/stop") => {
            body(&mut request).and_then(|r: TabRequest| searches::stop(&app.tabs, &r.tab))
        }
        (Method::Post, "/api/pgn") => match body(&mut request).and_then(api::pgn) {
            Ok(text) => {
                respond(request, 200, text.into_bytes(), PGN_TYPE);
                return;
            }
            Err(e) => Err(e),
        },
        (_, path) if ROUTES.contains(&path) => Err(ApiError::new(
            405,
            format!("{method} is not allowed on {path}"),
        )),
        _ => Err(ApiError::not_found(format!("nothing at {path}"))),
    };
    let (status, value) = match answer {
        Ok(value) => (200, value),
        Err(e) => (e.status, json!({ "error": e.message })),
    };
    respond(request, status, value.to_string().into_bytes(), JSON_TYPE);
}

const ROUTES: [&str; 7] = [
    "/api/events",
    "/api/position",
    "/api/move",
    "/api/load",
    "/api/search",
    "/api/stop",
    "/api/pgn",
];
const JSON_TYPE: &str = "application/json";
const PGN_TYPE: &str = "application/x-chess-pgn; charset=utf-8";

/// Sends a response; a browser that has gone meanwhile needs no answer.
fn respond(request: Request, status: u16, body: Vec<u8>, kind: &str) {
    let kind = Header::from_bytes(&b"Content-Type"[..], kind.as_bytes());
    let no_cache = Header::from_bytes(&b"Cache-Control"[..], &b"no-cache"[..]);
    let mut response = Response::from_data(body).with_status_code(status);
    for header in [kind, no_cache].into_iter().flatten() {
        response.add_header(header);
    }
    let _ = request.respond(response);
}

#[derive(serde::Deserialize)]
struct TabRequest {
    tab: String,
}

/// The body as JSON of type `T`, read within [`MAX_BODY`].
fn body<T: DeserializeOwned>(request: &mut Request) -> Result<T, ApiError> {
    if request.body_length().is_some_and(|n| n > MAX_BODY) {
        return Err(too_large());
    }
    let mut bytes = Vec::new();
    request
        .as_reader()
        .take(MAX_BODY as u64 + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| ApiError::bad_request(format!("cannot read the body: {e}")))?;
    if bytes.len() > MAX_BODY {
        return Err(too_large());
    }
    serde_json::from_slice(&bytes).map_err(|e| ApiError::bad_request(format!("bad JSON: {e}")))
}

fn too_large() -> ApiError {
    ApiError::new(413, format!("the body is larger than {MAX_BODY} bytes"))
}
