#include "share/PageAssets.h"

namespace ps::embedded {
extern const std::string_view kReportJs;
extern const std::string_view kReportCss;
}  // namespace ps::embedded

namespace ps::share {

PageAssets PageAssets::builtIn()
{
    PageAssets assets;
    assets.reportJs = embedded::kReportJs;
    assets.reportCss = embedded::kReportCss;
    return assets;
}

}  // namespace ps::share
