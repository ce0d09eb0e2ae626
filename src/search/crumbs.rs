//! Breadcrumbs for Lazy SMP: a thread entering a node near the root leaves a crumb (the node's
//! key and its own number); a thread that finds another's crumb on the node it enters knows
//! that thread is searching the same subtree, and reduces its late quiets more, so the two
//! spread over different moves rather than search the same ones twice.

use std::sync::atomic::{AtomicU16, AtomicU64, Ordering};

/// Crumbs are left this close to the root only: deeper nodes are many and short-lived, and
/// threads rarely meet in them at the same time.
pub const CRUMB_PLIES: usize = 8;

/// The extra reduction of late quiets in a node another thread is searching. Time to depth 14
/// on the bench positions, 2 threads against 1 (nodes, 12-20 runs): 1.69x with 1, 1.74x with 2.
pub const SHARED_NODE_REDUCTION: i32 = 2;

const SLOTS: usize = 1024;

/// One crumb: the key of the node and the thread searching it (0: none).
#[derive(Default)]
struct Slot {
    key: AtomicU64,
    owner: AtomicU16,
}

/// The crumbs of one search, shared by its threads.
pub struct Breadcrumbs {
    slots: Box<[Slot]>,
}

impl Default for Breadcrumbs {
    fn default() -> Self {
        Breadcrumbs {
            slots: (0..SLOTS).map(|_| Slot::default()).collect(),
        }
    }
}

/// What a thread learns on entering a node: whether another thread is in it, and, if it left
/// the crumb itself, the slot to clear when it leaves (on drop).
pub struct Visit<'a> {
    pub another_thread_here: bool,
    left: Option<&'a Slot>,
}

impl Drop for Visit<'_> {
    fn drop(&mut self) {
        if let Some(slot) = self.left {
            slot.owner.store(0, Ordering::Relaxed);
        }
    }
}

impl Breadcrumbs {
    /// Thread `thread` (numbered from 0) enters the node with hash `key`. A slot held by
    /// another node is left to it: crumbs are a hint, and a missed one costs only a little
    /// duplicated work.
    pub fn enter(&self, key: u64, thread: usize) -> Visit<'_> {
        let slot = &self.slots[key as usize % SLOTS];
        let me = thread as u16 + 1;
        let owner = slot.owner.load(Ordering::Relaxed);
        if owner == 0 {
            let claimed = slot
                .owner
                .compare_exchange(0, me, Ordering::Relaxed, Ordering::Relaxed)
                .is_ok();
            if claimed {
                slot.key.store(key, Ordering::Relaxed);
            }
            return Visit {
                another_thread_here: false,
                left: claimed.then_some(slot),
            };
        }
        Visit {
            another_thread_here: owner != me && slot.key.load(Ordering::Relaxed) == key,
            left: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A thread sees another's crumb on the same node, not its own, nor one on another node;
    /// the crumb goes when its thread leaves the node.
    #[test]
    fn a_thread_sees_another_in_the_same_node_until_it_leaves() {
        let crumbs = Breadcrumbs::default();
        let first = crumbs.enter(42, 0);
        assert!(!first.another_thread_here);
        assert!(crumbs.enter(42, 1).another_thread_here);
        assert!(!crumbs.enter(42, 0).another_thread_here, "its own crumb");
        let other_node = 42 + SLOTS as u64; // the same slot, another key
        assert!(!crumbs.enter(other_node, 1).another_thread_here);
        drop(first);
        let again = crumbs.enter(42, 1);
        assert!(!again.another_thread_here, "the first thread has left");
        assert!(
            crumbs.enter(42, 0).another_thread_here,
            "now the second is there"
        );
    }
}
