#pragma once

#include <string_view>

namespace ps::share {

/// What every HTML report carries besides its data: the page's own script and style
/// (engine/share/page/report-base.js, report-capture.js, report-diff.js, report.js joined in that
/// order; report.css) and the graph panel's (graph-engine.js, graph-draw.js, graph.js joined in
/// that order; graph.css; the layout engine compiled to WebAssembly, engine/share/wasm/). Empty
/// where this build has none.
struct PageAssets {
    std::string_view reportJs;
    std::string_view reportCss;
    std::string_view graphJs;
    std::string_view graphCss;
    std::string_view engineWasm;  ///< the .wasm bytes (not base64)

    /// The files compiled into this binary (ps_embed_file).
    static PageAssets builtIn();
};

}  // namespace ps::share
