#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace ps::protocol {

/// The worker's output (fd 1 and fd 2 interleaved as they arrived), kept bounded: the first
/// headLimit bytes and the last tailLimit bytes, with a count of what was dropped between.
/// Memory stays under headLimit + 2 * tailLimit whatever a script prints.
class LogBuffer {
public:
    explicit LogBuffer(std::size_t headLimit = 512 * 1024, std::size_t tailLimit = 512 * 1024);

    void append(std::string_view data);
    void clear();

    /// Head, a "[... N bytes dropped ...]" line when something was, and tail.
    std::string text() const;
    std::uint64_t totalBytes() const { return m_total; }
    std::uint64_t droppedBytes() const;
    bool truncated() const { return droppedBytes() > 0; }

private:
    std::size_t m_headLimit;
    std::size_t m_tailLimit;
    std::string m_head;
    std::string m_tail;  ///< grows to 2 * tailLimit, then keeps its last tailLimit bytes
    std::uint64_t m_total = 0;
};

}  // namespace ps::protocol
