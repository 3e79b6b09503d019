#include "library/core/DefaultLibraryPath.h"

#include <pwd.h>
#include <unistd.h>

#include <cstdlib>
#include <string_view>

namespace ps::library {

std::string defaultLibraryPath()
{
    static constexpr std::string_view kTail = "/precompile-studio/library.sqlite3";
    if (const char* xdg = std::getenv("XDG_DATA_HOME"); xdg && xdg[0] == '/')
        return std::string(xdg) + std::string(kTail);
    std::string home;
    if (const char* h = std::getenv("HOME"); h && h[0] != '\0') {
        home = h;
    } else if (const passwd* pw = ::getpwuid(::getuid()); pw && pw->pw_dir) {
        home = pw->pw_dir;
    }
    return home + "/.local/share" + std::string(kTail);
}

}  // namespace ps::library
