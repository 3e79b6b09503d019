#include "share/PageAssets.h"

#include <initializer_list>
#include <string>

namespace ps::embedded {
extern const std::string_view kReportBaseJs;
extern const std::string_view kReportCaptureJs;
extern const std::string_view kReportDiffJs;
extern const std::string_view kReportJs;
extern const std::string_view kReportCss;
extern const std::string_view kGraphEngineJs;
extern const std::string_view kGraphDrawJs;
extern const std::string_view kGraphJs;
extern const std::string_view kGraphCss;
extern const std::string_view kEngineWasm;
}  // namespace ps::embedded

namespace ps::share {

namespace {

// One script element's text from its files, in the order they run: each registers onto a shared
// object (window.PsReportParts, window.PsGraphParts) that the later ones read.
std::string joined(std::initializer_list<std::string_view> files)
{
    std::string out;
    for (const std::string_view file : files) {
        out += file;
        if (!out.empty() && out.back() != '\n')
            out += '\n';
    }
    return out;
}

}  // namespace

PageAssets PageAssets::builtIn()
{
    static const std::string reportJs
        = joined({embedded::kReportBaseJs, embedded::kReportCaptureJs, embedded::kReportDiffJs, embedded::kReportJs});
    static const std::string graphJs = embedded::kGraphJs.empty()
        ? std::string()
        : joined({embedded::kGraphEngineJs, embedded::kGraphDrawJs, embedded::kGraphJs});
    PageAssets assets;
    assets.reportJs = reportJs;
    assets.reportCss = embedded::kReportCss;
    assets.graphJs = graphJs;
    assets.graphCss = embedded::kGraphCss;
    assets.engineWasm = embedded::kEngineWasm;
    return assets;
}

}  // namespace ps::share
