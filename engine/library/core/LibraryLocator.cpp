#include "library/core/LibraryLocator.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <filesystem>
#include <string>
#include <vector>

#include <libpq-fe.h>

namespace ps::library {

namespace {

bool startsWith(std::string_view text, std::string_view prefix)
{
    return text.substr(0, prefix.size()) == prefix;
}

/// What libpq takes for a space between pairs and around '=' (C's isspace).
constexpr std::string_view kSpaces = " \t\n\v\f\r";

bool isSpace(char c)
{
    return kSpaces.find(c) != std::string_view::npos;
}

bool isKeyChar(char c)
{
    return (c >= 'a' && c <= 'z') || c == '_';
}

/// Where the value of `keyword` starting at `at` begins: after the keyword, spaces, '=' and
/// spaces (libpq allows "key = value"); npos when `at` holds no whole keyword followed by '='.
std::size_t valueAfter(const std::string& text, std::size_t at, std::string_view keyword)
{
    if (at > 0 && !isSpace(text[at - 1]))
        return std::string::npos;
    std::size_t i = at + keyword.size();
    while (i < text.size() && isSpace(text[i]))
        ++i;
    if (i >= text.size() || text[i] != '=')
        return std::string::npos;
    ++i;
    while (i < text.size() && isSpace(text[i]))
        ++i;
    return i;
}

/// key=value pairs with the password's value masked ("***"), or with the whole pair left out
/// (`strip`), read as libpq's conninfo_parse reads them: a keyword up to '=' or a space, spaces,
/// '=', spaces, then a value up to the next space (a backslash escapes the next character) or a
/// quoted one ('...', \' and \\ escaped). From where the text stops being pairs on (libpq would
/// refuse it, but it is still shown) the rest is masked too.
std::string maskPairs(const std::string& text, bool strip)
{
    std::string out;
    const std::size_t n = text.size();
    std::size_t i = 0;
    while (i < n) {
        if (isSpace(text[i])) {
            out += text[i++];
            continue;
        }
        const std::size_t keyFrom = i;
        while (i < n && text[i] != '=' && !isSpace(text[i]))
            ++i;
        const std::string_view key(text.data() + keyFrom, i - keyFrom);
        std::size_t j = i;
        while (j < n && isSpace(text[j]))
            ++j;
        if (j >= n || text[j] != '=')
            return strip ? out : out + "***";
        ++j;
        while (j < n && isSpace(text[j]))
            ++j;
        const std::size_t valueFrom = j;
        if (j < n && text[j] == '\'') {
            for (++j; j < n && text[j] != '\''; j += text[j] == '\\' ? 2 : 1) {
            }
            if (j >= n)  // unterminated
                return strip ? out : out.append(text, keyFrom, valueFrom - keyFrom) + "***";
            ++j;
        } else {
            while (j < n && !isSpace(text[j]))
                j += text[j] == '\\' ? 2 : 1;
            j = std::min(j, n);
        }
        if (key != "password") {
            out.append(text, keyFrom, j - keyFrom);
        } else if (!strip) {
            out.append(text, keyFrom, valueFrom - keyFrom) += "***";
        } else {
            while (j < n && isSpace(text[j]))
                ++j;
        }
        i = j;
    }
    return out;
}

int hexValue(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/// A URI's query key as libpq reads it: percent-decoded ("pass%77ord" is the password too).
std::string decoded(std::string_view text)
{
    std::string out;
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] == '%' && i + 2 < text.size() && hexValue(text[i + 1]) >= 0 && hexValue(text[i + 2]) >= 0) {
            out += static_cast<char>(hexValue(text[i + 1]) * 16 + hexValue(text[i + 2]));
            i += 2;
        } else {
            out += text[i];
        }
    }
    return out;
}

/// A postgresql:// URI with its password masked (or left out, `strip`): the user info's
/// (user:secret@) and every query parameter whose percent-decoded key is "password".
std::string maskUri(std::string out, bool strip)
{
    const std::size_t scheme = out.find("://") + 3;
    std::size_t at = out.find('@', scheme);
    const std::size_t slash = out.find('/', scheme);
    std::size_t host = scheme;  // where the host begins: after the user info, when there is one
    if (at != std::string::npos && (slash == std::string::npos || at < slash)) {
        const std::size_t colon = out.find(':', scheme);
        if (colon != std::string::npos && colon < at) {
            if (strip) {
                out.erase(colon, at - colon);
                at = colon;
            } else {
                out.replace(colon + 1, at - colon - 1, "***");
                at = colon + 4;
            }
        }
        host = at + 1;
    }
    const std::size_t query = out.find('?', host);
    if (query == std::string::npos)
        return out;
    std::vector<std::string> kept;
    for (std::size_t from = query + 1;;) {
        const std::size_t amp = std::min(out.find('&', from), out.size());
        const std::string_view param(out.data() + from, amp - from);
        const std::size_t eq = param.find('=');
        const bool secret = eq != std::string_view::npos && decoded(param.substr(0, eq)) == "password";
        if (!secret)
            kept.emplace_back(param);
        else if (!strip)
            kept.push_back(std::string(param.substr(0, eq + 1)) + "***");
        if (amp >= out.size())
            break;
        from = amp + 1;
    }
    out.erase(kept.empty() ? query : query + 1);  // the '?' goes when no parameter is left
    for (std::size_t k = 0; k < kept.size(); ++k)
        out += (k ? "&" : "") + kept[k];
    return out;
}

/// One pass of LibraryLocator::redacted (or withoutPassword, `strip`) over a team library's
/// location.
std::string secretPass(const std::string& location, bool strip)
{
    return startsWith(location, "postgres") ? maskUri(location, strip) : maskPairs(location, strip);
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
    return withSecret(location, false);
}

std::string LibraryLocator::withoutPassword(const std::string& location)
{
    return withSecret(location, true);
}

std::string LibraryLocator::withSecret(const std::string& location, bool strip)
{
    if (kindOf(location) == Kind::File)
        return location;
    // Until nothing changes: one pass can uncover a form the one before hid (a masked value
    // that held the '@' the user info was found by), and what is shown is masked the same way
    // however often it is masked again. A pass only ever masks or removes: a few suffice.
    std::string out = location;
    for (int pass = 0; pass < 8; ++pass) {
        std::string next = secretPass(out, strip);
        if (next == out)
            break;
        out = std::move(next);
    }
    return out;
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
