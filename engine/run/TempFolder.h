#pragma once

#include <string>

namespace ps::run {

/// A private folder under $TMPDIR (precompile-studio-run-XXXXXX) that is removed, with all it
/// holds, when the object goes. path() is empty when none could be made.
class TempFolder {
public:
    TempFolder();
    ~TempFolder();
    TempFolder(const TempFolder&) = delete;
    TempFolder& operator=(const TempFolder&) = delete;

    const std::string& path() const { return m_path; }

private:
    std::string m_path;
};

}  // namespace ps::run
