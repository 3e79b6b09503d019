#pragma once

#include <string>
#include <string_view>

namespace ps::share {

/// Text made safe for XML and HTML, the one escaping of everything engine/share writes in
/// markup (JUnit XML, the HTML report's shell). A script's output and error messages are
/// arbitrary bytes: XML 1.0 forbids most control characters even escaped, and a reader such as
/// xmllint or Jenkins refuses the whole file for one ESC of a coloured log line.
class MarkupText {
public:
    /// `text` escaped for element content and for a quoted attribute value: & < > " ' as
    /// entities; control characters other than tab, newline and carriage return, and bytes
    /// that are not valid UTF-8, each become U+FFFD.
    static std::string escape(std::string_view text);

    /// The last component of a path ("a/b/run.py" -> "run.py"), a title's or a test's name.
    static std::string fileName(const std::string& path);

    /// U+FFFD, what a byte that cannot be shown becomes.
    static constexpr std::string_view kReplacement = "\xEF\xBF\xBD";
};

}  // namespace ps::share
