// libFuzzer target: a report from outside (NAME.json, a stored report, a worker's result).
// bytes -> JsonLimits::parse -> Report::fromJson -> toJson -> dump -> fromJson -> toJson.
// Report::fromJson is documented never to throw, so any exception is a finding.
#include "model/JsonLimits.h"
#include "model/Report.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    // The cap NAME.json has on import (ArtifactFiles::kMaxReportBytes).
    constexpr std::size_t kMaxBytes = std::size_t{128} << 20;
    std::string why;
    const auto json
        = ps::model::JsonLimits::parse(std::string_view(reinterpret_cast<const char*>(data), size), kMaxBytes, &why);
    if (!json)
        return 0;
    const auto report = ps::model::Report::fromJson(*json);
    const nlohmann::json out = report.toJson();
    // As `run --json` and the library write it.
    const std::string text = out.dump(2, ' ', false, nlohmann::json::error_handler_t::replace);
    (void)report.verdict();
    (void)report.exitCode();
    const auto again = ps::model::Report::fromJson(nlohmann::json::parse(text));
    (void)again.toJson().dump(2, ' ', false, nlohmann::json::error_handler_t::replace);
    return 0;
}
