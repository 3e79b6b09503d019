#pragma once

#include <string>

namespace ps::run {

/// A private folder under $TMPDIR (precompile-studio-run-PID-XXXXXX) that is removed, with all
/// it holds, when the object goes. path() is empty when none could be made. A front end killed
/// with kill -9 cannot remove its folders: sweepStale() removes those whose PID no longer runs.
class TempFolder {
public:
    TempFolder();
    /// Removes the run folders of front ends that no longer run (and folders of the older
    /// unnamed form, precompile-studio-run-XXXXXX, a day old). Returns how many it removed.
    static int sweepStale();
    ~TempFolder();
    TempFolder(const TempFolder&) = delete;
    TempFolder& operator=(const TempFolder&) = delete;

    const std::string& path() const { return m_path; }

private:
    std::string m_path;
};

}  // namespace ps::run
