#pragma once

#include "model/VisibleText.h"

#include <string>
#include <string_view>

namespace ps::model {

/// VisibleText over a stream that arrives in pieces (a host's output, frame by frame): a UTF-8
/// character cut by a piece's end waits for the next piece instead of turning into escapes.
class VisibleStream {
public:
    explicit VisibleStream(VisibleText::Keep keep = VisibleText::Keep::Layout) : m_keep(keep) { }
    /// The piece made visible, less a character it ends in the middle of (kept for the next).
    std::string feed(std::string_view piece);
    /// What is held back, made visible (at the stream's end).
    std::string flush();

private:
    VisibleText::Keep m_keep;
    std::string m_tail;
};

}  // namespace ps::model
