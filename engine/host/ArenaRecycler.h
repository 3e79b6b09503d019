#pragma once

#include <cstddef>

namespace ps::host {

/// CPython's arena allocator (PyObject_SetArenaAllocator) with a small cache of freed blocks.
///
/// CPython maps every block it gets from this allocator anew and unmaps it when freed: pymalloc's
/// arenas and, since 3.11, each 16 KiB chunk of a thread's frame stack. A chunk is freed as soon
/// as the frame at its start returns, so a call that recurses back and forth across a chunk's
/// edge maps and unmaps a fresh chunk each time. make_fx's dispatch does exactly that: tracing
/// mobilenet_v3_small cost 66,000 mmap/munmap pairs (and their page faults) in the worker, where
/// the same trace under the environment's python, whose stack happens to sit elsewhere, cost
/// 16,000 (strace -c -f). Keeping a few freed blocks and handing them out again makes the cost
/// independent of where the stack happens to sit.
///
/// The cache holds at most kMaxBlocks blocks and kMaxBytes bytes; a block that does not fit is
/// unmapped as CPython would. Blocks allocated before install() (by CPython's own mmap) are
/// freed here alike: both sides map anonymous private pages, so either may unmap the other's.
class ArenaRecycler {
public:
    static constexpr std::size_t kMaxBlocks = 32;
    static constexpr std::size_t kMaxBytes = std::size_t{8} << 20;

    /// Put the allocator in place: after each start of the interpreter (a restart may reset it),
    /// with the GIL held. The cache is the process's and outlives a restart.
    static void install();

    /// Blocks handed out from the cache, and blocks mapped anew, since install() (for tests).
    static std::size_t reused();
    static std::size_t mapped();

private:
    static void* allocate(void* ctx, std::size_t size);
    static void release(void* ctx, void* ptr, std::size_t size);
};

}  // namespace ps::host
