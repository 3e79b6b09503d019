#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace ps::library {

/// How search splits text into words, the same in every store: a word is a run of ASCII letters
/// and digits and of any non-ASCII bytes; everything else separates (as SQLite's unicode61
/// tokenizer does). A search matches runs that hold every word of it, each as a prefix.
class SearchText {
public:
    static std::vector<std::string> words(std::string_view text);
    /// The text with every separator made a space, for PostgreSQL's to_tsvector('simple', ...),
    /// whose parser would otherwise keep paths and dotted names whole.
    static std::string spaced(std::string_view text);
    /// An FTS5 query: every word quoted, as a prefix ("a"* "b"*); "" when there are none.
    static std::string ftsQuery(std::string_view text);
    /// A tsquery: 'a':* & 'b':*; "" when there are none.
    static std::string tsQuery(std::string_view text);
    /// Whether text holds something but no word at all (only punctuation): it matches nothing.
    static bool hasNoWords(std::string_view text);
};

}  // namespace ps::library
