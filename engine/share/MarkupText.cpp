#include "share/MarkupText.h"

namespace ps::share {

namespace {

// The length of the well-formed UTF-8 sequence at `text[i]` (2-4), or 0 when it is not one;
// `code` is its code point.
std::size_t utf8Sequence(std::string_view text, std::size_t i, unsigned int& code)
{
    const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
    const unsigned char lead = byte(i);
    std::size_t length = 0;
    unsigned int min = 0;
    code = 0;
    if (lead >= 0xC2 && lead <= 0xDF) {
        length = 2;
        min = 0x80;
        code = lead & 0x1F;
    } else if ((lead & 0xF0) == 0xE0) {
        length = 3;
        min = 0x800;
        code = lead & 0x0F;
    } else if (lead >= 0xF0 && lead <= 0xF4) {
        length = 4;
        min = 0x10000;
        code = lead & 0x07;
    } else {
        return 0;
    }
    if (i + length > text.size())
        return 0;
    for (std::size_t k = 1; k < length; ++k) {
        if ((byte(i + k) & 0xC0) != 0x80)
            return 0;
        code = (code << 6) | (byte(i + k) & 0x3F);
    }
    // Overlong forms, UTF-16 surrogates and past U+10FFFF are not UTF-8.
    if (code < min || (code >= 0xD800 && code <= 0xDFFF) || code > 0x10FFFF)
        return 0;
    return length;
}

}  // namespace

std::string MarkupText::escape(std::string_view text)
{
    std::string out;
    out.reserve(text.size() + text.size() / 8);
    for (std::size_t i = 0; i < text.size();) {
        const auto c = static_cast<unsigned char>(text[i]);
        if (c < 0x80) {
            switch (c) {
            case '&':
                out += "&amp;";
                break;
            case '<':
                out += "&lt;";
                break;
            case '>':
                out += "&gt;";
                break;
            case '"':
                out += "&quot;";
                break;
            case '\'':
                out += "&#39;";
                break;
            case '\t':
            case '\n':
            case '\r':
                out += static_cast<char>(c);
                break;
            default:
                if (c < 0x20 || c == 0x7F)
                    out += MarkupText::kReplacement;
                else
                    out += static_cast<char>(c);
            }
            ++i;
            continue;
        }
        unsigned int code = 0;
        const std::size_t length = utf8Sequence(text, i, code);
        // U+FFFE and U+FFFF are not XML characters; C1 controls (U+0080-U+009F) are, but are
        // terminal escapes in a log.
        if (length == 0 || code == 0xFFFE || code == 0xFFFF || (code >= 0x80 && code <= 0x9F)) {
            out += MarkupText::kReplacement;
            i += length == 0 ? 1 : length;
            continue;
        }
        out.append(text.substr(i, length));
        i += length;
    }
    return out;
}

std::string MarkupText::fileName(const std::string& path)
{
    const auto slash = path.find_last_of('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

}  // namespace ps::share
