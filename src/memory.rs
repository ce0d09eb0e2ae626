//! How the search's big tables meet memory: zeroed tables on transparent huge pages, and the
//! prefetch that loads an entry before it is read.
//!
//! The transposition table is read at random over megabytes: on 4 KB pages nearly every probe
//! also misses the TLB and walks the page tables, on 2 MB pages a 16 MB table needs eight TLB
//! entries. Linux hands a region huge pages when it is asked to (`madvise`), unless the system
//! is set to give them to everything or nothing.

use std::alloc::{self, Layout};
use std::ops::{Deref, DerefMut};
use std::ptr::NonNull;

/// Types whose value with every byte zero is valid: the tables start out that way.
///
/// # Safety
/// An implementor must be valid, and mean "empty", when all its bytes are zero.
pub unsafe trait Zeroable {}

// SAFETY: zero is a valid u64.
unsafe impl Zeroable for u64 {}

/// The huge page size of x86-64 and most 64-bit Linux systems.
const HUGE_PAGE: usize = 2 << 20;

/// A heap slice of `T` that starts zeroed; from half a huge page up it is aligned to huge
/// pages, rounded up to whole ones, and asks for them.
pub struct HugeSlice<T: Zeroable> {
    ptr: NonNull<T>,
    len: usize,
    layout: Layout,
}

// SAFETY: the slice owns its elements like a `Box<[T]>` does, so it may move to or be shared
// with another thread when `T` may.
unsafe impl<T: Zeroable + Send> Send for HugeSlice<T> {}
// SAFETY: as above; shared access hands out only `&[T]`.
unsafe impl<T: Zeroable + Sync> Sync for HugeSlice<T> {}

impl<T: Zeroable> HugeSlice<T> {
    /// `len` zeroed elements. Panics only if the size overflows `usize`; aborts, as `Vec`
    /// does, when the memory cannot be had.
    pub fn zeroed(len: usize) -> HugeSlice<T> {
        let size = len
            .checked_mul(std::mem::size_of::<T>())
            .expect("table size overflows usize");
        // From half a huge page up, whole huge pages: the last one, partly used, is huge too
        // (a 1 MB table takes one 2 MB page). That adds less than a huge page, and never more
        // than the table itself.
        let huge = size >= HUGE_PAGE / 2;
        let (align, reserved) = if huge {
            let reserved = size
                .checked_next_multiple_of(HUGE_PAGE)
                .expect("table size overflows usize");
            (HUGE_PAGE.max(std::mem::align_of::<T>()), reserved)
        } else {
            (std::mem::align_of::<T>(), size)
        };
        // A zero-sized request is not allowed: allocate at least one byte.
        let layout = Layout::from_size_align(reserved.max(1), align)
            .expect("table layout: size overflows when aligned");
        // SAFETY: the layout's size is at least one byte.
        let raw = unsafe { alloc::alloc(layout) };
        let Some(ptr) = NonNull::new(raw.cast::<T>()) else {
            alloc::handle_alloc_error(layout)
        };
        if huge {
            // Asked before the first write, so the pages are huge from the start.
            advise_huge_pages(raw, reserved);
        }
        // SAFETY: `raw` was just allocated with room for `size` bytes, and all-zero bytes are
        // a valid `T` (the `Zeroable` contract), so the slice below is initialised.
        unsafe { raw.write_bytes(0, size) };
        HugeSlice { ptr, len, layout }
    }

    /// Sets every element back to all-zero bytes, its empty value (the `Zeroable` contract).
    pub fn zero(&mut self) {
        // SAFETY: `ptr` holds `len` initialised elements owned by self (`&mut self`: no other
        // reference); each is dropped once, then overwritten with all-zero bytes, a valid `T`
        // (the `Zeroable` contract), so the slice is initialised again.
        unsafe {
            std::ptr::drop_in_place(std::ptr::slice_from_raw_parts_mut(
                self.ptr.as_ptr(),
                self.len,
            ));
            self.ptr.as_ptr().write_bytes(0, self.len);
        }
    }
}

/// Asks the CPU to start loading the cache line holding `item`, which is read soon: only a
/// hint, and a no-op off x86-64. Any address will do (a reference coerces to one): nothing
/// is read through it.
#[inline(always)]
pub fn prefetch<T>(item: *const T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch is a hint: it never faults, whatever the address, and changes no
    // memory, so any pointer, even a dangling one, is sound here.
    unsafe {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        _mm_prefetch::<_MM_HINT_T0>(item.cast());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = item;
}

#[cfg(target_os = "linux")]
fn advise_huge_pages(start: *mut u8, size: usize) {
    // SAFETY: the range is a live allocation of ours starting on a page boundary (huge-page
    // aligned). MADV_HUGEPAGE is only a hint: it moves no data and its failure (a kernel
    // without transparent huge pages) leaves the memory as it was, so the result is ignored.
    unsafe {
        libc::madvise(start.cast(), size, libc::MADV_HUGEPAGE);
    }
}

#[cfg(not(target_os = "linux"))]
fn advise_huge_pages(_start: *mut u8, _size: usize) {}

impl<T: Zeroable> Deref for HugeSlice<T> {
    type Target = [T];

    #[inline(always)]
    fn deref(&self) -> &[T] {
        // SAFETY: `ptr` holds `len` initialised elements (zeroed at creation), owned by self.
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }
}

impl<T: Zeroable> DerefMut for HugeSlice<T> {
    #[inline(always)]
    fn deref_mut(&mut self) -> &mut [T] {
        // SAFETY: as in `deref`, and `&mut self` makes this the only reference.
        unsafe { std::slice::from_raw_parts_mut(self.ptr.as_ptr(), self.len) }
    }
}

impl<T: Zeroable> Drop for HugeSlice<T> {
    fn drop(&mut self) {
        // SAFETY: the elements are initialised and dropped once, here; then the memory goes
        // back with the layout it was allocated with.
        unsafe {
            std::ptr::drop_in_place(std::ptr::slice_from_raw_parts_mut(
                self.ptr.as_ptr(),
                self.len,
            ));
            alloc::dealloc(self.ptr.as_ptr().cast(), self.layout);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_large_table_starts_zeroed_on_a_huge_page_boundary() {
        let mut table = HugeSlice::<u64>::zeroed(HUGE_PAGE / 8 + 3);
        assert_eq!(table.len(), HUGE_PAGE / 8 + 3);
        assert_eq!(table.as_ptr() as usize % HUGE_PAGE, 0);
        assert!(table.iter().all(|&x| x == 0));
        let last = table.len() - 1;
        table[last] = 7;
        table[0] = 5;
        assert_eq!(table.iter().sum::<u64>(), 12);
    }

    #[test]
    fn a_table_of_half_a_huge_page_gets_a_whole_one() {
        // Exactly half a huge page (1 MB).
        let table = HugeSlice::<u64>::zeroed(HUGE_PAGE / 16);
        assert_eq!(table.len(), HUGE_PAGE / 16);
        assert_eq!(table.as_ptr() as usize % HUGE_PAGE, 0);
        assert_eq!(table.layout.size(), HUGE_PAGE);
        assert!(table.iter().all(|&x| x == 0));
        let larger = HugeSlice::<u64>::zeroed(HUGE_PAGE / 8 + 3);
        assert_eq!(larger.layout.size(), 2 * HUGE_PAGE);
        let smaller = HugeSlice::<u64>::zeroed(HUGE_PAGE / 16 - 1);
        assert_eq!(smaller.layout.size(), HUGE_PAGE / 2 - 8);
    }

    #[test]
    fn zeroing_empties_every_element() {
        for len in [100, HUGE_PAGE / 8 + 3] {
            let mut table = HugeSlice::<u64>::zeroed(len);
            table
                .iter_mut()
                .enumerate()
                .for_each(|(i, x)| *x = i as u64 + 1);
            table.zero();
            assert_eq!(table.len(), len);
            assert!(table.iter().all(|&x| x == 0));
        }
    }

    #[test]
    fn small_and_empty_tables_are_plain_allocations() {
        let small = HugeSlice::<u64>::zeroed(100);
        assert_eq!(small.len(), 100);
        assert_eq!(small.as_ptr() as usize % std::mem::align_of::<u64>(), 0);
        assert!(small.iter().all(|&x| x == 0));
        let empty = HugeSlice::<u64>::zeroed(0);
        assert!(empty.is_empty());
    }
}
