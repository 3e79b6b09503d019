// libFuzzer target: a library location as `--library`, File > Open Library, the settings or a
// shared command line give it. The oracle is libpq itself: whatever password libpq would read
// out of a location the studio treats as a team library must not survive LibraryLocator's
// redaction (what every message and title shows), its short name (the title) nor the form the
// settings keep (withoutPassword).
#include "FuzzCheck.h"
#include "library/core/LibraryLocator.h"

#include <libpq-fe.h>

#include <cstddef>
#include <cstdint>
#include <string>

namespace {

/// The password libpq reads from `location`, "" when none or when it is not a connection string.
std::string passwordOf(const std::string& location)
{
    std::string password;
    char* error = nullptr;
    if (PQconninfoOption* options = PQconninfoParse(location.c_str(), &error)) {
        for (PQconninfoOption* o = options; o->keyword; ++o)
            if (std::string_view(o->keyword) == "password" && o->val)
                password = o->val;
        PQconninfoFree(options);
    }
    PQfreemem(error);
    return password;
}

std::size_t count(const std::string& text, const std::string& part)
{
    std::size_t n = 0;
    for (auto at = text.find(part); at != std::string::npos; at = text.find(part, at + 1))
        ++n;
    return n;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using ps::library::LibraryLocator;
    if (size > 4096)
        return 0;
    std::string location(reinterpret_cast<const char*>(data), size);
    location = location.substr(0, location.find('\0'));  // what a C string (argv, libpq) holds
    const auto kind = LibraryLocator::kindOf(location);
    const std::string redacted = LibraryLocator::redacted(location);
    const std::string shortName = LibraryLocator::shortName(location);
    if (LibraryLocator::redacted(redacted) != redacted)
        ps::fuzz::broken("redaction is idempotent", location);
    if (kind == LibraryLocator::Kind::File)
        return 0;
    // A password that appears in the location exactly once, as itself (not percent-encoded or
    // escaped), and is long enough not to be part of the syntax around it

    const std::string password = passwordOf(location);
    // (a '*' would let the mask itself spell it: "d=**" in "password=***")
    if (password.size() < 4 || count(location, password) != 1 || password.find('*') != std::string::npos)
        return 0;
    if (redacted.find(password) != std::string::npos)
        ps::fuzz::broken("a team library's password is never shown", location + " -> " + redacted);
    const std::string kept = LibraryLocator::withoutPassword(location);
    if (kept.find(password) != std::string::npos || !passwordOf(kept).empty())
        ps::fuzz::broken("the settings keep a team library without its password", location + " -> " + kept);
    if (shortName.find(password) != std::string::npos)
        ps::fuzz::broken("a team library's short name never holds its password", location + " -> " + shortName);
    return 0;
}
