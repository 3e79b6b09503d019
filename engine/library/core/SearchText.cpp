#include "library/core/SearchText.h"

#include <cctype>

namespace ps::library {

namespace {

bool inWord(unsigned char c)
{
    return c >= 0x80 || std::isalnum(c);
}

}  // namespace

std::vector<std::string> SearchText::words(std::string_view text)
{
    std::vector<std::string> out;
    std::string word;
    for (unsigned char c : text) {
        if (inWord(c)) {
            word += static_cast<char>(c);
        } else if (!word.empty()) {
            out.push_back(std::move(word));
            word.clear();
        }
    }
    if (!word.empty())
        out.push_back(std::move(word));
    return out;
}

std::string SearchText::spaced(std::string_view text)
{
    std::string out(text);
    for (char& c : out)
        if (!inWord(static_cast<unsigned char>(c)))
            c = ' ';
    return out;
}

std::string SearchText::ftsQuery(std::string_view text)
{
    std::string query;
    for (const auto& word : words(text))
        query += (query.empty() ? "\"" : " \"") + word + "\"*";
    return query;
}

std::string SearchText::tsQuery(std::string_view text)
{
    std::string query;
    for (const auto& word : words(text))
        query += (query.empty() ? "'" : " & '") + word + "':*";
    return query;
}

bool SearchText::hasNoWords(std::string_view text)
{
    return words(text).empty() && text.find_first_not_of(" \t\r\n") != std::string_view::npos;
}

}  // namespace ps::library
