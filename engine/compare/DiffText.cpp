#include "compare/DiffText.h"

#include <algorithm>

namespace ps::compare {

namespace {

/// "…" counts as one character here (it is one on screen).
const std::string kEllipsis = "\u2026";

}  // namespace

std::size_t DiffText::firstDifference(const std::string& a, const std::string& b)
{
    const auto [ia, ib] = std::mismatch(a.begin(), a.end(), b.begin(), b.end());
    return static_cast<std::size_t>(ia - a.begin());
}

std::string DiffText::clip(const std::string& line, std::size_t focus, std::size_t width)
{
    if (line.size() <= width || width < 8)
        return line;
    // Keep a quarter of the width before the focus; never start past what fills the width.
    std::size_t start = focus > width / 4 ? focus - width / 4 : 0;
    start = std::min(start, line.size() - (width - 1));
    // Whole UTF-8 characters only: step back to the start of one.
    while (start > 0 && (static_cast<unsigned char>(line[start]) & 0xC0) == 0x80)
        --start;
    const bool head = start > 0;
    std::size_t length = width - (head ? 1 : 0);
    const bool tail = start + length < line.size();
    if (tail)
        --length;
    while (start + length < line.size() && (static_cast<unsigned char>(line[start + length]) & 0xC0) == 0x80)
        --length;
    return (head ? kEllipsis : std::string()) + line.substr(start, length) + (tail ? kEllipsis : std::string());
}

bool DiffText::entries(const std::string& text, std::vector<std::string>* out)
{
    out->clear();
    const auto first = text.find_first_not_of(' ');
    const auto last = text.find_last_not_of(' ');
    if (first == std::string::npos || last <= first)
        return false;
    const char open = text[first];
    const char close = text[last];
    if (!((open == '[' && close == ']') || (open == '(' && close == ')')))
        return false;
    int depth = 0;
    char quote = 0;
    std::string current;
    for (std::size_t i = first + 1; i < last; ++i) {
        const char c = text[i];
        if (quote) {
            if (c == '\\' && i + 1 < last) {
                current += c;
                current += text[++i];
                continue;
            }
            if (c == quote)
                quote = 0;
        } else if (c == '\'' || c == '"') {
            quote = c;
        } else if (c == '[' || c == '(' || c == '{') {
            ++depth;
        } else if (c == ']' || c == ')' || c == '}') {
            if (--depth < 0)
                return false;
        } else if (c == ',' && depth == 0) {
            out->push_back(current);
            current.clear();
            continue;
        }
        current += c;
    }
    if (quote || depth != 0)
        return false;
    const auto trim = [](std::string& s) {
        s.erase(0, std::min(s.find_first_not_of(' '), s.size()));
        s.erase(s.find_last_not_of(' ') + 1);
    };
    trim(current);
    if (!current.empty())
        out->push_back(current);
    for (std::string& e : *out)
        trim(e);
    return true;
}

std::pair<std::string, std::string> DiffText::values(
    const std::string& before, const std::string& after, std::size_t width)
{
    if (before.size() <= width && after.size() <= width)
        return {before, after};
    std::vector<std::string> a;
    std::vector<std::string> b;
    if (entries(before, &a) && entries(after, &b)) {
        const auto count = [](std::size_t n) { return std::to_string(n) + (n == 1 ? " entry" : " entries"); };
        if (a.size() != b.size())
            return {"[" + count(a.size()) + "]", "[" + count(b.size()) + "]"};
        std::size_t k = 0;
        while (k < a.size() && a[k] == b[k])
            ++k;
        if (k < a.size()) {
            const std::string at = "[" + count(a.size()) + "; #" + std::to_string(k + 1) + " ";
            return {at + clip(a[k], firstDifference(a[k], b[k]), width / 2) + "]",
                at + clip(b[k], firstDifference(a[k], b[k]), width / 2) + "]"};
        }
    }
    const std::size_t focus = firstDifference(before, after);
    return {clip(before, focus, width), clip(after, focus, width)};
}

}  // namespace ps::compare
