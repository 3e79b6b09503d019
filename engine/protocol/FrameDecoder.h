#pragma once

#include <cstddef>
#include <optional>
#include <string>

namespace ps::protocol {

/// Reassembles frames from bytes as they arrive, in any split.
/// Not thread-safe: one reader owns it.
class FrameDecoder {
public:
    void feed(const char* data, std::size_t size);
    /// The next complete payload, or nothing until more bytes arrive.
    /// Throws ProtocolError on a length over kMaxFrameBytes.
    std::optional<std::string> next();
    std::size_t buffered() const { return m_buffer.size() - m_offset; }

private:
    std::string m_buffer;
    std::size_t m_offset = 0;
};

}  // namespace ps::protocol
