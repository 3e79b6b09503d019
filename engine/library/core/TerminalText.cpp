#include "library/core/TerminalText.h"

#include "library/core/LibraryLocator.h"
#include "model/VisibleText.h"

namespace ps::library {

std::string TerminalText::safe(std::string_view text, bool keepNewlines)
{
    return model::VisibleText::of(
        text, keepNewlines ? model::VisibleText::Keep::Newlines : model::VisibleText::Keep::Nothing);
}

std::string TerminalText::location(const std::string& location)
{
    return safe(LibraryLocator::redacted(location));
}

}  // namespace ps::library
