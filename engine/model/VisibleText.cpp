#include "model/VisibleText.h"

#include <cstdint>

namespace ps::model {

namespace {

void appendHex(std::string& out, const char* prefix, std::uint32_t value, int digits)
{
    static constexpr char kHex[] = "0123456789abcdef";
    out += prefix;
    for (int shift = 4 * (digits - 1); shift >= 0; shift -= 4)
        out += kHex[(value >> shift) & 0xf];
}

/// The invisible controls that reorder the text around them (Unicode's bidirectional marks,
/// embeddings, overrides and isolates): text that reads other than it is (Trojan Source).
bool isBidiControl(std::uint32_t cp)
{
    return cp == 0x061c || cp == 0x200e || cp == 0x200f || (cp >= 0x202a && cp <= 0x202e)
        || (cp >= 0x2066 && cp <= 0x2069);
}

/// The length of the valid UTF-8 sequence at the start of `s` (1..4) and its code point in
/// `cp`, or 0 when the bytes there are not valid UTF-8 (overlong forms, surrogates and values
/// past U+10FFFF included, and a sequence cut short by the end of `s`).
int decode(std::string_view s, std::uint32_t& cp)
{
    const auto b = [&](std::size_t i) { return static_cast<unsigned char>(s[i]); };
    const unsigned char lead = b(0);
    int n = 0;
    if (lead < 0x80) {
        cp = lead;
        return 1;
    } else if (lead >= 0xc2 && lead <= 0xdf) {
        n = 2;
        cp = lead & 0x1f;
    } else if (lead >= 0xe0 && lead <= 0xef) {
        n = 3;
        cp = lead & 0x0f;
    } else if (lead >= 0xf0 && lead <= 0xf4) {
        n = 4;
        cp = lead & 0x07;
    } else {
        return 0;
    }
    if (s.size() < static_cast<std::size_t>(n))
        return 0;
    for (int i = 1; i < n; ++i) {
        if ((b(i) & 0xc0) != 0x80)
            return 0;
        cp = (cp << 6) | (b(i) & 0x3f);
    }
    const bool overlong = (n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000);
    if (overlong || (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
        return 0;
    return n;
}

}  // namespace

std::string VisibleText::of(std::string_view text, Keep keep)
{
    std::string out;
    out.reserve(text.size());
    while (!text.empty()) {
        std::uint32_t cp = 0;
        const int n = decode(text, cp);
        if (n == 0) {
            appendHex(out, "\\x", static_cast<unsigned char>(text[0]), 2);
            text.remove_prefix(1);
            continue;
        }
        if ((cp == '\n' && keep != Keep::Nothing) || ((cp == '\r' || cp == '\t') && keep == Keep::Layout))
            out += static_cast<char>(cp);
        else if (cp < 0x20 || cp == 0x7f)
            appendHex(out, "\\x", cp, 2);
        else if ((cp >= 0x80 && cp <= 0x9f) || isBidiControl(cp))
            appendHex(out, "\\u", cp, 4);
        else
            out.append(text.substr(0, static_cast<std::size_t>(n)));
        text.remove_prefix(static_cast<std::size_t>(n));
    }
    return out;
}

}  // namespace ps::model
