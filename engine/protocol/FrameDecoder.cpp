#include "protocol/FrameDecoder.h"

#include "protocol/Protocol.h"
#include "protocol/ProtocolError.h"

#include <cstdint>

namespace ps::protocol {

void FrameDecoder::feed(const char* data, std::size_t size)
{
    if (m_offset > 0 && m_offset == m_buffer.size()) {
        m_buffer.clear();
        m_offset = 0;
    }
    m_buffer.append(data, size);
}

std::optional<std::string> FrameDecoder::next()
{
    if (buffered() < 4)
        return std::nullopt;
    std::uint32_t n = 0;
    for (int i = 0; i < 4; ++i)
        n |= static_cast<std::uint32_t>(static_cast<unsigned char>(m_buffer[m_offset + i])) << (8 * i);
    if (n > kMaxFrameBytes)
        throw ProtocolError("frame length " + std::to_string(n) + " is over the limit: the channel is corrupt");
    if (buffered() < 4 + static_cast<std::size_t>(n))
        return std::nullopt;
    std::string payload = m_buffer.substr(m_offset + 4, n);
    m_offset += 4 + n;
    if (m_offset > (1u << 20) && m_offset * 2 > m_buffer.size()) {
        m_buffer.erase(0, m_offset);
        m_offset = 0;
    }
    return payload;
}

}  // namespace ps::protocol
