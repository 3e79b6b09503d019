#include "library/core/LibraryLocator.h"

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

/// Replaces the value after each `key` (up to the next `stop` character) with "***".
std::string maskAfter(std::string text, std::string_view key, std::string_view stops)
{
    for (std::size_t at = text.find(key); at != std::string::npos; at = text.find(key, at + 1)) {
        // Only a whole key: at the start or after a separator.
        if (at > 0 && std::string_view(" ?&").find(text[at - 1]) == std::string_view::npos)
            continue;
        const std::size_t from = at + key.size();
        std::size_t to = from;
        if (to < text.size() && text[to] == '\'') {  // key='quoted value'
            to = text.find('\'', to + 1);
            to = to == std::string::npos ? text.size() : to + 1;
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
    // key=value pairs: the first word is one of libpq's keywords.
    static constexpr std::array<std::string_view, 7> kKeys
        = {"host=", "hostaddr=", "dbname=", "user=", "service=", "port=", "passfile="};
    for (const auto key : kKeys)
        if (startsWith(location, key))
            return Kind::Postgres;
    return Kind::File;
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
        return maskAfter(out, "password=", "&#");
    }
    return maskAfter(out, "password=", " ");
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
