#pragma once

#include "share/PageAssets.h"

#include <nlohmann/json_fwd.hpp>

#include <string>
#include <string_view>

namespace ps::share {

/// Assembles one self-contained HTML file: the shell with its Content-Security-Policy (nothing
/// may be fetched; inline scripts and styles, the engine's WebAssembly and data: images only),
/// the styles, the data as gzip + base64 in `<script type="application/octet-stream"
/// id="ps-data">`, the engine as base64 in `id="ps-engine"`, then graph.js and report.js, which
/// decode the data in the page (DecompressionStream) and draw it.
///
/// Nothing from a report is written into the markup as markup: the title is escaped
/// (MarkupText) and the data is base64, whose alphabet cannot close a script element.
class PageWriter {
public:
    /// The page's Content-Security-Policy, exactly as written into its meta element.
    static constexpr std::string_view kContentSecurityPolicy
        = "default-src 'none'; script-src 'unsafe-inline' 'wasm-unsafe-eval'; style-src 'unsafe-inline'; "
          "img-src data:";

    /// The HTML text. Throws std::logic_error if an asset would end its own element early
    /// (a `</script` in a script, a `</style` in a style: a build mistake, never a report's text).
    static std::string write(std::string_view title, const nlohmann::json& data, const PageAssets& assets);

    /// The page data as it is written into the page: JSON (bytes that are not UTF-8 become
    /// U+FFFD), gzip, base64.
    static std::string encodeData(const nlohmann::json& data);
};

}  // namespace ps::share
