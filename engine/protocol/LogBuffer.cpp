#include "protocol/LogBuffer.h"

#include <algorithm>

namespace ps::protocol {

LogBuffer::LogBuffer(std::size_t headLimit, std::size_t tailLimit) : m_headLimit(headLimit), m_tailLimit(tailLimit)
{ }

void LogBuffer::append(std::string_view data)
{
    m_total += data.size();
    if (m_head.size() < m_headLimit) {
        const std::size_t take = std::min(data.size(), m_headLimit - m_head.size());
        m_head.append(data.substr(0, take));
        data.remove_prefix(take);
    }
    if (data.empty() || m_tailLimit == 0)
        return;
    if (data.size() >= m_tailLimit) {
        m_tail.assign(data.substr(data.size() - m_tailLimit));
        return;
    }
    m_tail.append(data);
    if (m_tail.size() > 2 * m_tailLimit)
        m_tail.erase(0, m_tail.size() - m_tailLimit);
}

void LogBuffer::clear()
{
    m_head.clear();
    m_tail.clear();
    m_total = 0;
}

std::uint64_t LogBuffer::droppedBytes() const
{
    const std::uint64_t kept = m_head.size() + std::min(m_tail.size(), m_tailLimit);
    return m_total - kept;
}

std::string LogBuffer::text() const
{
    const std::size_t tailKept = std::min(m_tail.size(), m_tailLimit);
    std::string out = m_head;
    if (const auto dropped = droppedBytes(); dropped > 0) {
        if (!out.empty() && out.back() != '\n')
            out += '\n';
        out += "[... " + std::to_string(dropped) + " bytes of output dropped ...]\n";
    }
    out.append(m_tail, m_tail.size() - tailKept, tailKept);
    return out;
}

}  // namespace ps::protocol
