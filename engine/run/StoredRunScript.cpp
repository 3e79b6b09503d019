#include "run/StoredRunScript.h"

#include "library/core/ArtifactLibrary.h"
#include "model/JsonFields.h"

#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace ps::run {

namespace fs = std::filesystem;

std::string StoredRunScript::refusal(const library::ArtifactLibrary& library, const library::RunRecord& record,
    std::int64_t runId, const std::string& what)
{
    const std::string run = "run " + std::to_string(runId);
    if (!record.damaged.empty())
        return run + " has damaged blobs; `library verify` names them";
    if (const library::RunTrust trust = library.trustOf(record.summary); !trust.trusted())
        return run + " " + what + ", and " + trust.why() + " (trust it once you have read them: `library trust "
            + std::to_string(runId) + "`)";
    return {};
}

std::string StoredRunScript::place(const library::RunRecord& record, const std::string& folder)
{
    const std::string original = model::JsonFields::text(record.report, "script");
    std::error_code ec;
    if (!original.empty() && fs::is_regular_file(original, ec)) {
        std::ifstream f(original, std::ios::binary);
        std::ostringstream s;
        s << f.rdbuf();
        if (f && s.str() == record.scriptText)
            return original;
    }
    const fs::path copy
        = fs::path(folder) / (original.empty() ? std::string("script.py") : fs::path(original).filename().string());
    std::ofstream out(copy, std::ios::binary | std::ios::trunc);
    out << record.scriptText;
    out.close();
    if (!out.good())
        throw std::runtime_error("cannot write the run's script into " + folder);
    return copy.string();
}

}  // namespace ps::run
