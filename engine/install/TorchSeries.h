#pragma once

#include <optional>
#include <string>
#include <vector>

namespace ps::install {

/// The torch releases the studio supports: one worker each, built against that release's
/// LibTorch, chosen by the torch of the run's environment (protocol::WorkerLocator). A series is
/// "major.minor" ("2.15"); the release the studio's environment pins is its `pinned` version.
class TorchSeries {
public:
    /// Every supported series, the default (the one `setup` and `make run` make) first.
    static const std::vector<std::string>& supported();
    static const std::string& defaultSeries();
    /// "2.15" for "2.15.0+cu132"; nullopt when that series is not supported.
    static std::optional<std::string> of(const std::string& version);
    /// The pinned release of a supported series ("2.15" -> "2.15.0").
    static std::string pinned(const std::string& series);
    /// "torch 2.14 and 2.15 (torch==2.14.1 or torch==2.15.0)", for messages.
    static std::string supportedWords();
    /// The torch `__version__` in a site-packages folder, read from torch/version.py as text
    /// (nothing is imported): nullopt when the folder has no torch, "" when its version cannot
    /// be read.
    static std::optional<std::string> installedVersion(const std::string& siteDir);
};

}  // namespace ps::install
