#include <Python.h>

#include "host/ArenaRecycler.h"

#include <sys/mman.h>

#include <array>
#include <atomic>
#include <mutex>

namespace ps::host {

namespace {

struct Block {
    void* ptr = nullptr;
    std::size_t size = 0;
};

struct Cache {
    std::mutex mutex;
    std::array<Block, ArenaRecycler::kMaxBlocks> blocks{};
    std::size_t count = 0;
    std::size_t bytes = 0;
    std::atomic<std::size_t> reused{0};
    std::atomic<std::size_t> mapped{0};
};

Cache& cache()
{
    static Cache c;  // never destroyed before CPython's last free: it outlives main's statics
    return c;
}

}  // namespace

void ArenaRecycler::install()
{
    PyObjectArenaAllocator allocator{nullptr, &ArenaRecycler::allocate, &ArenaRecycler::release};
    PyObject_SetArenaAllocator(&allocator);
}

std::size_t ArenaRecycler::reused()
{
    return cache().reused.load();
}

std::size_t ArenaRecycler::mapped()
{
    return cache().mapped.load();
}

void* ArenaRecycler::allocate(void*, std::size_t size)
{
    Cache& c = cache();
    {
        std::lock_guard lock(c.mutex);
        for (std::size_t i = c.count; i-- > 0;) {  // the most recently freed first: its pages are warm
            if (c.blocks[i].size != size)
                continue;
            void* ptr = c.blocks[i].ptr;
            c.blocks[i] = c.blocks[--c.count];
            c.bytes -= size;
            c.reused.fetch_add(1, std::memory_order_relaxed);
            return ptr;
        }
    }
    void* ptr = mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (ptr == MAP_FAILED)
        return nullptr;
    c.mapped.fetch_add(1, std::memory_order_relaxed);
    return ptr;
}

void ArenaRecycler::release(void*, void* ptr, std::size_t size)
{
    if (!ptr)
        return;
    Cache& c = cache();
    {
        std::lock_guard lock(c.mutex);
        if (c.count < kMaxBlocks && c.bytes + size <= kMaxBytes) {
            c.blocks[c.count++] = Block{ptr, size};
            c.bytes += size;
            return;
        }
    }
    munmap(ptr, size);
}

}  // namespace ps::host
