#include "run/TempFolder.h"

#include <filesystem>
#include <stdlib.h>

namespace ps::run {

namespace fs = std::filesystem;

TempFolder::TempFolder()
{
    std::error_code ec;
    const fs::path base = fs::temp_directory_path(ec);
    std::string tmpl = ((ec ? fs::path("/tmp") : base) / "precompile-studio-run-XXXXXX").string();
    if (::mkdtemp(tmpl.data()))
        m_path = tmpl;
}

TempFolder::~TempFolder()
{
    std::error_code ec;
    if (!m_path.empty())
        fs::remove_all(m_path, ec);
}

}  // namespace ps::run
