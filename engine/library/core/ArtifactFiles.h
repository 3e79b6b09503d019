#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "library/core/LibraryRecords.h"

namespace ps::library {

/// The files of an exported artifact, beside each other: NAME.py (python_code, byte-exact),
/// NAME.cache (the cache, byte-exact) and NAME.json (the run's report). Plain files, so that
/// torch.compiler.precompile.load(open("NAME.py").read(), open("NAME.cache", "rb").read())
/// works in any Python with the same torch.
class ArtifactFiles {
public:
    /// A pair read back for import, checked to belong together.
    struct Pair {
        std::string name;  ///< NAME
        std::string pythonCode;
        std::string cache;
        nlohmann::json report;         ///< NAME.json as found
        std::size_t captureIndex = 0;  ///< the capture of report["captures"] this pair is
    };

    /// The largest report (NAME.json on import, a stored report on reading) that is parsed. A
    /// report grows with the captured graph at about 1.1 KB per node, so a 50,000-node graph
    /// makes about 55 MB; 128 MiB leaves twice that while keeping a hostile file from costing
    /// gigabytes (nlohmann's DOM takes several times the text's size). Checked before reading.
    static constexpr std::size_t kMaxReportBytes = std::size_t{128} << 20;

    /// Writes NAME.py, NAME.cache and NAME.json per artifact into `dir` (created if needed),
    /// each file complete or absent. NAME is `runName` when there is one artifact (so that the
    /// files, and the run they import as, are called what the library's row is called, even for
    /// a script whose own precompile call names its capture otherwise), else each capture's
    /// name; two captures of one name get NAME and NAME-INDEX. Returns the paths written.
    /// Throws LibraryError(Io) naming the file.
    static std::vector<std::string> write(const std::string& dir, const nlohmann::json& report,
        const std::vector<CaptureArtifact>& artifacts, const std::string& runName = std::string());

    /// Reads NAME.py and the NAME.cache and NAME.json beside it. Refuses (Mismatch) a cache
    /// whose code_hash is not sha256(NAME.py), and a report that describes other bytes; refuses
    /// (Invalid) a NAME.json over kMaxReportBytes (before reading it) or nesting deeper than
    /// model::JsonLimits::kMaxDepth.
    static Pair read(const std::string& pythonCodePath);

    /// The code_hash a torch.save'd precompile cache records. torch.save stores its pickle
    /// uncompressed in the zip, so the 64-hex string follows the "code_hash" key verbatim.
    static std::optional<std::string> codeHashOf(std::string_view cache);

    /// A file-name-safe stem for a capture name.
    static std::string fileStem(std::string_view captureName);
};

}  // namespace ps::library
