#include "model/VisibleStream.h"

namespace ps::model {

namespace {

/// How many bytes a UTF-8 sequence starting with `lead` has (1 when `lead` cannot start one).
std::size_t sequenceLength(unsigned char lead)
{
    if (lead >= 0xc2 && lead <= 0xdf)
        return 2;
    if (lead >= 0xe0 && lead <= 0xef)
        return 3;
    if (lead >= 0xf0 && lead <= 0xf4)
        return 4;
    return 1;
}

}  // namespace

std::string VisibleStream::feed(std::string_view piece)
{
    std::string text = std::move(m_tail);
    m_tail.clear();
    text.append(piece);
    // A lead byte among the last three whose sequence runs past the end waits: only its start is here.
    const std::size_t from = text.size() > 3 ? text.size() - 3 : 0;
    for (std::size_t i = text.size(); i-- > from;) {
        const auto byte = static_cast<unsigned char>(text[i]);
        if ((byte & 0xc0) == 0x80)
            continue;  // a continuation byte: look further back for its lead
        if (i + sequenceLength(byte) > text.size()) {
            m_tail = text.substr(i);
            text.resize(i);
        }
        break;
    }
    return VisibleText::of(text, m_keep);
}

std::string VisibleStream::flush()
{
    std::string tail = std::move(m_tail);
    m_tail.clear();
    return VisibleText::of(tail, m_keep);
}

}  // namespace ps::model
