#include "library/core/LibraryLocator.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <filesystem>

#include <libpq-fe.h>

namespace ps::library {

namespace {

bool startsWith(std::string_view text, std::string_view prefix)
{
    return text.substr(0, prefix.size()) == prefix;
}

bool isKeyChar(char c)
{
    return (c >= 'a' && c <= 'z') || c == '_';
}

/// Where the value of `keyword` starting at `at` begins: after the keyword, spaces, '=' and
/// spaces (libpq allows "key = value"); npos when `at` holds no whole keyword followed by '='.
std::size_t valueAfter(const std::string& text, std::size_t at, std::string_view keyword)
{
    if (at > 0 && std::string_view(" \t\n?&").find(text[at - 1]) == std::string_view::npos)
        return std::string::npos;
    std::size_t i = at + keyword.size();
    while (i < text.size() && (text[i] == ' ' || text[i] == '\t' || text[i] == '\n'))
        ++i;
    if (i >= text.size() || text[i] != '=')
        return std::string::npos;
    ++i;
    while (i < text.size() && (text[i] == ' ' || text[i] == '\t' || text[i] == '\n'))
        ++i;
    return i;
}

/// Replaces the value of each `keyword` (up to the next `stop` character, or a whole quoted
/// value with its backslash escapes) with "***".
std::string maskAfter(std::string text, std::string_view keyword, std::string_view stops)
{
    for (std::size_t at = text.find(keyword); at != std::string::npos; at = text.find(keyword, at + 1)) {
        const std::size_t from = valueAfter(text, at, keyword);
        if (from == std::string::npos)
            continue;
        std::size_t to = from;
        if (to < text.size() && text[to] == '\'') {  // key='quoted value', \' and \\ escaped
            for (++to; to < text.size() && text[to] != '\''; ++to)
                if (text[to] == '\\')
                    ++to;
            to = std::min(to + 1, text.size());
        } else {
            while (to < text.size() && stops.find(text[to]) == std::string_view::npos)
                ++to;
        }
        text.replace(from, to - from, "***");
    }
    return text;
}

}  // namespace

LibraryLocator::Kind LibraryLocator::kindOf(std::string_view location)
{
    if (startsWith(location, "postgresql://") || startsWith(location, "postgres://"))
        return Kind::Postgres;
    // key=value pairs ("key = value" too): the first word is one of libpq's keywords.
    static constexpr std::array<std::string_view, 8> kKeys
        = {"host", "hostaddr", "dbname", "user", "service", "port", "passfile", "password"};
    std::size_t end = 0;
    while (end < location.size() && isKeyChar(location[end]))
        ++end;
    const std::string_view first = location.substr(0, end);
    if (std::find(kKeys.begin(), kKeys.end(), first) == kKeys.end())
        return Kind::File;
    return valueAfter(std::string(location), 0, first) == std::string::npos ? Kind::File : Kind::Postgres;
}

std::string LibraryLocator::redacted(const std::string& location)
{
    if (kindOf(location) == Kind::File)
        return location;
    std::string out = location;
    if (startsWith(out, "postgres")) {
        // postgresql://user:secret@host/db -> postgresql://user:***@host/db
        const std::size_t scheme = out.find("://") + 3;
        const std::size_t at = out.find('@', scheme);
        const std::size_t slash = out.find('/', scheme);
        if (at != std::string::npos && (slash == std::string::npos || at < slash)) {
            const std::size_t colon = out.find(':', scheme);
            if (colon != std::string::npos && colon < at)
                out.replace(colon + 1, at - colon - 1, "***");
        }
        return maskAfter(out, "password", "&#");
    }
    return maskAfter(out, "password", " \t\n");
}

std::string LibraryLocator::shortName(const std::string& location)
{
    if (kindOf(location) == Kind::File)
        return std::filesystem::path(location).filename().string();
    std::string database, host, service;
    char* error = nullptr;
    if (PQconninfoOption* options = PQconninfoParse(location.c_str(), &error)) {
        for (PQconninfoOption* o = options; o->keyword; ++o) {
            const std::string_view key = o->keyword;
            const std::string value = o->val ? o->val : "";
            if (key == "dbname")
                database = value;
            else if (key == "host")
                host = value;
            else if (key == "service")
                service = value;
        }
        PQconninfoFree(options);
    }
    PQfreemem(error);
    if (database.empty() && !service.empty())
        return "service " + service;
    if (database.empty())
        return redacted(location);
    // A socket folder says nothing to the reader; a host name does.
    return host.empty() || host.front() == '/' ? database : database + " on " + host;
}

}  // namespace ps::library
