"""Minimal model of c10/cuda/CUDACachingAllocator.cpp (one device, one stream, defaults:
max_split_size unlimited, no roundup_power2_divisions, expandable_segments off unless asked)."""
from sortedcontainers import SortedList

MiB = 1 << 20
kMinBlockSize = 512
kSmallSize = 1 * MiB
kSmallBuffer = 2 * MiB
kMinLargeAlloc = 10 * MiB
kLargeBuffer = 20 * MiB
kRoundLarge = 2 * MiB


def round_size(n):
    return kMinBlockSize if n < kMinBlockSize else kMinBlockSize * ((n + kMinBlockSize - 1) // kMinBlockSize)


def allocation_size(n):
    if n <= kSmallSize:
        return kSmallBuffer
    if n < kMinLargeAlloc:
        return kLargeBuffer
    return kRoundLarge * ((n + kRoundLarge - 1) // kRoundLarge)


class Block:
    __slots__ = ("size", "addr", "small", "alloc", "prev", "next", "req", "when", "__weakref__")

    def __init__(self, size, addr, small):
        self.size, self.addr, self.small = size, addr, small
        self.alloc = False
        self.prev = self.next = None


class Allocator:
    def __init__(self, expandable=False):
        self.free = {True: SortedList(key=lambda b: (b.size, b.addr)),
                     False: SortedList(key=lambda b: (b.size, b.addr))}
        self.next_addr = 0
        self.allocated = 0      # sum of block sizes handed out (stats.allocated_bytes)
        self.reserved = 0       # sum of segment sizes (stats.reserved_bytes)
        self.peak_alloc = 0
        self.peak_reserved = 0
        self.expandable = expandable
        self.segments = 0

    def reset_peaks(self):
        self.peak_alloc, self.peak_reserved = self.allocated, self.reserved

    def release_cached(self):
        """release_cached_blocks -> release_blocks: cudaFree every free block that is a whole segment."""
        freed = 0
        for small in (False, True):
            pool = self.free[small]
            for b in [b for b in pool if b.prev is None and b.next is None]:
                pool.remove(b); self.reserved -= b.size; freed += b.size
        self.retries = getattr(self, "retries", 0) + 1
        return freed

    def _new_segment(self, size, small):
        cap = getattr(self, "capacity", None)
        if cap is not None and self.reserved + size > cap:
            self.release_cached()
            if self.reserved + size > cap:
                raise MemoryError("OOM")
        b = Block(size, self.next_addr, small)
        self.next_addr += size + (1 << 30)  # separate segments never touch
        self.reserved += size
        self.segments += 1
        if self.reserved > self.peak_reserved:
            self.peak_reserved = self.reserved
            self.peak_reserved_at = getattr(self, "phase", "")
        return b

    def malloc(self, nbytes):
        size = round_size(nbytes)
        small = size <= kSmallSize
        pool = self.free[small]
        # get_free_block: smallest (size, addr) >= request
        i = pool.bisect_key_left((size, -1))
        if i < len(pool):
            blk = pool[i]
            pool.remove(blk)
        elif self.expandable and not small:
            blk = self._expand(size)
        else:
            blk = self._new_segment(allocation_size(size), small)
        # should_split
        rem = blk.size - size
        split = rem >= kMinBlockSize if (small or self.expandable) else rem > kSmallSize
        if split:
            r = Block(rem, blk.addr + size, small)
            r.prev, r.next = blk, blk.next
            if blk.next:
                blk.next.prev = r
            blk.next = r
            blk.size = size
            pool.add(r)
            if getattr(self, "_tail", None) is blk:
                self._tail = r
        blk.alloc = True
        self.allocated += blk.size
        if self.allocated > self.peak_alloc:
            self.peak_alloc = self.allocated
            self.peak_alloc_at = getattr(self, "phase", "")
        return blk

    def _expand(self, size):
        """expandable_segments: one segment per stream whose end grows by 20 MiB pages (large pool);
        a free block at its end is extended instead of mapping a separate range."""
        pool = self.free[False]
        tail = getattr(self, "_tail", None)
        if tail is not None and not tail.alloc:
            pool.remove(tail)
            need = size - tail.size
            grow = kLargeBuffer * ((need + kLargeBuffer - 1) // kLargeBuffer)
            tail.size += grow
        else:
            grow = kLargeBuffer * ((size + kLargeBuffer - 1) // kLargeBuffer)
            b = Block(grow, self.next_addr, False)
            if tail is not None:
                tail.next, b.prev = b, tail
            self._tail = tail = b
        self.next_addr += grow
        self.reserved += grow
        if self.reserved > self.peak_reserved:
            self.peak_reserved = self.reserved
            self.peak_reserved_at = getattr(self, "phase", "")
        return tail

    def free_block(self, blk):
        assert blk.alloc
        blk.alloc = False
        self.allocated -= blk.size
        pool = self.free[blk.small]
        for nb in (blk.prev, blk.next):   # try_merge_blocks: neighbours in the same segment only
            if nb is not None and not nb.alloc:
                pool.remove(nb)
                if nb is blk.prev:
                    blk.addr = nb.addr
                    blk.prev = nb.prev
                    if nb.prev:
                        nb.prev.next = blk
                else:
                    blk.next = nb.next
                    if nb.next:
                        nb.next.prev = blk
                blk.size += nb.size
                if getattr(self, "_tail", None) is nb:
                    self._tail = blk
        pool.add(blk)

    def largest_free(self):
        return max((b.size for b in self.free[False]), default=0)
