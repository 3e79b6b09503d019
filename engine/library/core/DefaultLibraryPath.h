#pragma once

#include <string>

namespace ps::library {

/// $XDG_DATA_HOME/precompile-studio/library.sqlite3, or ~/.local/share/... when XDG_DATA_HOME
/// is unset, empty or relative (as the XDG spec says). The folder need not exist yet.
std::string defaultLibraryPath();

}  // namespace ps::library
