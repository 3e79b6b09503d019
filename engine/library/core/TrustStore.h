#pragma once

#include "library/core/LibraryRecords.h"

#include <string>

namespace ps::library {

/// The runs this user trusts although someone else stored them: a file of this user's own,
/// beside the default library ($XDG_DATA_HOME/precompile-studio/trusted-runs.json, mode 0600),
/// never a row that another writer of a shared library could set. A trust names the run's uid
/// and its content (the sha256 of every capture's python_code and cache): a run whose artifacts
/// change after it was trusted is untrusted again. A file another user owns, or that others may
/// write, is not believed.
class TrustStore {
public:
    /// The user's own file (defaultPath()), or another, for tests.
    explicit TrustStore(std::string path = defaultPath());

    static std::string defaultPath();
    const std::string& path() const { return m_path; }

    /// Whether this user trusts `run` as it is now.
    bool trusts(const RunSummary& run) const;
    /// Records the trust (written whole, then renamed over the old file). Throws LibraryError
    /// (Io) when the file cannot be written, or is not this user's to believe.
    void trust(const RunSummary& run) const;

    /// The run's uid and the keys of its captures' artifacts, one string.
    static std::string contentKey(const RunSummary& run);

private:
    std::string m_path;
};

}  // namespace ps::library
