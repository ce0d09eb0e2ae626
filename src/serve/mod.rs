//! `chariot serve`: a local web server for playing and analysing against Chariot in a browser.
//! One page, built into the binary, talks to a JSON API; the rules, the notations and the
//! searches stay on the server, and each tab's search streams to it as server-sent events.

mod api;
mod assets;
mod http;
mod searches;
mod tabs;

use std::net::{IpAddr, ToSocketAddrs};
use std::sync::Arc;

/// Threads taking requests; an event stream holds one of its own, so these stay free.
const REQUEST_THREADS: usize = 4;

#[derive(clap::Args, Debug)]
pub struct ServeArgs {
    /// Port to listen on (0: any free port; the address printed says which).
    #[arg(long, default_value_t = 8080)]
    port: u16,
    /// Address to listen on. Anything but a loopback address lets other machines in, with no
    /// password: a warning says so.
    #[arg(long, default_value = "127.0.0.1")]
    host: String,
    /// Open the page in the default browser once the server listens.
    #[arg(long)]
    open: bool,
    /// Searches that run at once (default: one per core); the others wait for a turn.
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=256))]
    searches: Option<u16>,
}

/// What the request threads share.
pub(crate) struct App {
    tabs: tabs::Tabs,
    pool: Arc<searches::Pool>,
}

/// Serves until the process is stopped (Ctrl-C).
pub fn run_serve(args: &ServeArgs) -> Result<(), String> {
    let address = (args.host.as_str(), args.port)
        .to_socket_addrs()
        .map_err(|e| format!("--host {}: {e}", args.host))?
        .next()
        .ok_or_else(|| format!("--host {}: no address", args.host))?;
    let server =
        tiny_http::Server::http(address).map_err(|e| format!("cannot listen on {address}: {e}"))?;
    let bound = server
        .server_addr()
        .to_ip()
        .ok_or("the server has no IP address")?;
    if !is_loopback(bound.ip()) {
        eprintln!(
            "warning: listening on {bound}: any machine that reaches this address can use the \
             server (no password, no encryption)"
        );
    }
    let searches = args.searches.map_or_else(
        || std::thread::available_parallelism().map_or(1, |n| n.get()),
        usize::from,
    );
    let app = Arc::new(App {
        tabs: tabs::Tabs::default(),
        pool: Arc::new(searches::Pool::new(searches)),
    });
    let host = match bound.ip() {
        IpAddr::V6(ip) => format!("[{ip}]"),
        IpAddr::V4(ip) if ip.is_unspecified() => "127.0.0.1".to_string(),
        IpAddr::V4(ip) => ip.to_string(),
    };
    let url = format!("http://{host}:{}/", bound.port());
    crate::console::outln!(
        "Chariot serves on {url} ({searches} search{} at once; Ctrl-C stops it)",
        if searches == 1 { "" } else { "es" }
    );
    if args.open {
        open_browser(&url);
    }
    let server = Arc::new(server);
    let threads: Vec<_> = (0..REQUEST_THREADS)
        .map(|_| {
            let (server, app) = (Arc::clone(&server), Arc::clone(&app));
            std::thread::spawn(move || {
                while let Ok(request) = server.recv() {
                    http::handle(&app, request);
                }
            })
        })
        .collect();
    for thread in threads {
        let _ = thread.join();
    }
    Err("the server stopped taking requests".to_string())
}

fn is_loopback(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => v4.is_loopback(),
        IpAddr::V6(v6) => {
            v6.is_loopback() || v6.to_ipv4_mapped().is_some_and(|v4| v4.is_loopback())
        }
    }
}

/// Asks the desktop to open `url`; failing that, says so (the address is printed anyway).
fn open_browser(url: &str) {
    let command = if cfg!(target_os = "macos") {
        std::process::Command::new("open").arg(url).spawn()
    } else if cfg!(target_os = "windows") {
        std::process::Command::new("cmd")
            .args(["/C", "start", "", url])
            .spawn()
    } else {
        std::process::Command::new("xdg-open").arg(url).spawn()
    };
    if let Err(e) = command {
        eprintln!("warning: cannot open a browser ({e}); open {url} by hand");
    }
}
