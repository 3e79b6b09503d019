// libFuzzer target: a run's rows as a hostile team member could write them straight into the
// team library's PostgreSQL database, read the way PostgresRunReader reads them: the summary and
// capture columns through RunColumns (the same templates, over a row of text values as libpq
// gives them), the script and report documents (the report under the import caps), and a blob
// row (key, size, codec, data) through BlobCodec::decode. Input: the values separated by the
// line "\n--8<--\n", in the order
//   runs: id created_at name script_path status message origin trusted uid ran_on stored_by stored_role
//   captures: idx name backend tracer status invariant message python_code_sha256 cache_sha256
//   run_documents: script_text report_json
//   blobs: sha256 size codec data
// (a value past the end is NULL). Nothing may throw; a blob decode that says "whole" holds
// exactly the recorded size and hashes to its key; names print safely and export to a file
// name inside the chosen folder.
#include "FuzzCheck.h"
#include "library/core/ArtifactFiles.h"
#include "library/core/BlobCodec.h"
#include "library/core/RunColumns.h"
#include "library/core/Sha256.h"
#include "library/core/TerminalText.h"
#include "model/JsonLimits.h"
#include "model/Report.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

namespace {

constexpr std::string_view kSeparator = "\n--8<--\n";

/// A row of text values, as PostgresResult gives a text-format result.
struct FuzzRow {
    const std::vector<std::string_view>& values;
    int first;
    std::string_view text(int column) const
    {
        const auto at = static_cast<std::size_t>(first + column);
        return at < values.size() ? values[at] : std::string_view();
    }
    std::int64_t integer(int column) const { return std::strtoll(std::string(text(column)).c_str(), nullptr, 10); }
    bool boolean(int column) const { return !text(column).empty() && text(column)[0] == 't'; }
    bool isNull(int column) const { return static_cast<std::size_t>(first + column) >= values.size(); }
};

void checkName(std::string_view name)
{
    if (ps::fuzz::hasControl(ps::library::TerminalText::safe(name)))
        ps::fuzz::broken("a stored name prints without control characters", name);
    const std::string stem = ps::library::ArtifactFiles::fileStem(name);
    if (stem.empty() || stem == "." || stem == ".." || stem.find('/') != std::string::npos
        || stem.find('\0') != std::string::npos)
        ps::fuzz::broken("an exported file stays in the chosen folder", std::string(name) + " -> " + stem);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    std::vector<std::string_view> values;
    std::string_view rest(reinterpret_cast<const char*>(data), size);
    for (;;) {
        const auto at = rest.find(kSeparator);
        values.push_back(rest.substr(0, at));
        if (at == std::string_view::npos)
            break;
        rest = rest.substr(at + kSeparator.size());
    }
    constexpr int kSummary = 12, kCapture = 9;
    ps::library::RunSummary summary;
    ps::library::RunColumns::readSummary(FuzzRow{values, 0}, summary);
    ps::library::CaptureRecord capture;
    ps::library::RunColumns::readCapture(FuzzRow{values, kSummary}, 0, capture);
    checkName(summary.name);
    checkName(capture.name);
    (void)ps::library::TerminalText::safe(summary.message, true);
    (void)ps::library::TerminalText::safe(summary.storedBy.user);

    const FuzzRow documents{values, kSummary + kCapture};
    std::string why;
    if (auto report
        = ps::model::JsonLimits::parse(documents.text(1), ps::library::ArtifactFiles::kMaxReportBytes, &why)) {
        const auto parsed = ps::model::Report::fromJson(*report);
        (void)parsed.toJson().dump(2, ' ', false, nlohmann::json::error_handler_t::replace);
    }

    const FuzzRow blob{values, kSummary + kCapture + 2};
    if (blob.isNull(3))
        return 0;
    const std::string key(blob.text(0));
    std::string bytes;
    const auto problem = ps::library::BlobCodec::decode(key, blob.integer(1), blob.text(2), blob.text(3), &bytes);
    if (!problem) {
        if (static_cast<std::int64_t>(bytes.size()) != blob.integer(1) || ps::library::Sha256::hex(bytes) != key)
            ps::fuzz::broken("a blob read as whole is what its row recorded", key);
    } else if (ps::fuzz::hasControl(ps::library::TerminalText::safe(*problem))) {
        ps::fuzz::broken("a blob's damage prints safely", *problem);
    }
    return 0;
}
