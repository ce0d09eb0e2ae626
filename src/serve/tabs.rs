//! Browser tabs: each has an event stream (server-sent events) the server writes to, and at
//! most one search. A tab's outbox is bounded, so a tab that reads slowly loses old progress
//! reports instead of growing memory; a closed tab is noticed at the next write (a heartbeat
//! goes out every second) and its search is stopped.

use super::http::ApiError;
use crate::search::Signals;
use serde_json::Value;
use std::collections::{HashMap, VecDeque};
use std::io::Write;
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

/// Tabs with an open stream at once; one more is refused (each holds a thread and a socket).
pub(crate) const MAX_TABS: usize = 64;
/// Events waiting for a tab that reads too slowly; past this the oldest progress report goes.
const OUTBOX_EVENTS: usize = 64;
/// Silence after which a comment line is written, to learn whether the tab is still there.
const HEARTBEAT: Duration = Duration::from_secs(1);

/// A lock that a panicking holder cannot poison for the others (the data stays usable).
pub(crate) fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

struct Event {
    name: &'static str,
    data: String,
    /// A progress report a later one makes stale: dropped first when the outbox is full.
    droppable: bool,
}

#[derive(Default)]
struct Outbox {
    events: VecDeque<Event>,
    closed: bool,
}

pub(crate) struct Tab {
    pub id: String,
    outbox: Mutex<Outbox>,
    wake: Condvar,
    search: Mutex<SearchSlot>,
}

/// How many searches a tab has started, and its current one: its number and stop flag.
#[derive(Default)]
struct SearchSlot {
    started: u64,
    current: Option<(u64, Arc<Signals>)>,
}

impl Tab {
    fn new(id: String) -> Tab {
        Tab {
            id,
            outbox: Mutex::default(),
            wake: Condvar::new(),
            search: Mutex::default(),
        }
    }

    /// Queues an event for the tab; a progress report (`droppable`) may be dropped later if
    /// the tab falls behind, a result never is while the outbox has room for it.
    pub(crate) fn send(&self, name: &'static str, data: &Value, droppable: bool) {
        let mut outbox = lock(&self.outbox);
        if outbox.closed {
            return;
        }
        if outbox.events.len() >= OUTBOX_EVENTS {
            let oldest = outbox.events.iter().position(|e| e.droppable).unwrap_or(0);
            outbox.events.remove(oldest);
        }
        outbox.events.push_back(Event {
            name,
            data: data.to_string(),
            droppable,
        });
        self.wake.notify_one();
    }

    /// A new search replaces the tab's current one, which is told to stop. Returns the new
    /// search's number (events carry it, so the page can tell a late report of an old search)
    /// and its stop flag.
    pub(crate) fn replace_search(&self) -> (u64, Arc<Signals>) {
        let mut search = lock(&self.search);
        search.started += 1;
        let signals = Arc::new(Signals::default());
        let id = search.started;
        if let Some((_, old)) = search.current.replace((id, Arc::clone(&signals))) {
            old.stop();
        }
        (id, signals)
    }

    pub(crate) fn stop_search(&self) {
        if let Some((_, signals)) = lock(&self.search).current.take() {
            signals.stop();
        }
    }

    /// Forgets search `id` once it has ended (unless a newer one took its place).
    pub(crate) fn search_ended(&self, id: u64) {
        let mut search = lock(&self.search);
        if search
            .current
            .as_ref()
            .is_some_and(|(current, _)| *current == id)
        {
            search.current = None;
        }
    }

    /// Ends the tab: its stream stops and so does its search.
    fn close(&self) {
        lock(&self.outbox).closed = true;
        self.wake.notify_one();
        self.stop_search();
    }

    /// The events queued now, or after waiting up to `timeout` for one (none: time for a
    /// heartbeat); `None` once the tab is closed.
    fn next_events(&self, timeout: Duration) -> Option<Vec<Event>> {
        let outbox = lock(&self.outbox);
        let (mut outbox, _) = self
            .wake
            .wait_timeout_while(outbox, timeout, |o| o.events.is_empty() && !o.closed)
            .unwrap_or_else(PoisonError::into_inner);
        (!outbox.closed).then(|| outbox.events.drain(..).collect())
    }
}

/// The open tabs by id.
#[derive(Default)]
pub(crate) struct Tabs {
    open: Mutex<HashMap<String, Arc<Tab>>>,
}

impl Tabs {
    /// Registers a new tab, unless [`MAX_TABS`] are open.
    pub(crate) fn open(&self) -> Result<Arc<Tab>, ApiError> {
        let mut open = lock(&self.open);
        if open.len() >= MAX_TABS {
            return Err(ApiError::unavailable(format!(
                "{MAX_TABS} tabs are open already; close one and reload"
            )));
        }
        let id = loop {
            let id = format!("{:016x}", fastrand::u64(..));
            if !open.contains_key(&id) {
                break id;
            }
        };
        let tab = Arc::new(Tab::new(id.clone()));
        open.insert(id, Arc::clone(&tab));
        Ok(tab)
    }

    pub(crate) fn get(&self, id: &str) -> Result<Arc<Tab>, ApiError> {
        lock(&self.open).get(id).cloned().ok_or_else(|| {
            ApiError::not_found(format!(
                "no open tab '{id}': open /api/events first (a reload does)"
            ))
        })
    }

    pub(crate) fn close(&self, tab: &Tab) {
        lock(&self.open).remove(&tab.id);
        tab.close();
    }
}

/// Writes a tab's events to its browser until the browser goes away, then closes the tab and
/// stops its search. `out` is the raw connection: the status line and headers go first.
pub(crate) fn stream(tabs: &Tabs, tab: Arc<Tab>, mut out: Box<dyn Write + Send>) {
    let head = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream; charset=utf-8\r\n\
                Cache-Control: no-store\r\nConnection: close\r\n\r\n";
    let hello = serde_json::json!({ "tab": tab.id });
    let mut result = write!(out, "{head}event: tab\ndata: {hello}\n\n").and_then(|()| out.flush());
    while result.is_ok() {
        let Some(events) = tab.next_events(HEARTBEAT) else {
            break;
        };
        result = if events.is_empty() {
            out.write_all(b":\n\n")
        } else {
            events.iter().try_for_each(|event| {
                write!(out, "event: {}\ndata: {}\n\n", event.name, event.data)
            })
        }
        .and_then(|()| out.flush());
    }
    tabs.close(&tab);
}
