#include "share/PageAssets.h"

namespace ps::embedded {
extern const std::string_view kReportJs;
extern const std::string_view kReportCss;
extern const std::string_view kGraphJs;
extern const std::string_view kGraphCss;
extern const std::string_view kEngineWasm;
}  // namespace ps::embedded

namespace ps::share {

PageAssets PageAssets::builtIn()
{
    PageAssets assets;
    assets.reportJs = embedded::kReportJs;
    assets.reportCss = embedded::kReportCss;
    assets.graphJs = embedded::kGraphJs;
    assets.graphCss = embedded::kGraphCss;
    assets.engineWasm = embedded::kEngineWasm;
    return assets;
}

}  // namespace ps::share
