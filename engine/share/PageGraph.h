#pragma once

#include <nlohmann/json.hpp>

namespace ps::model {
struct Capture;
}

namespace ps::share {

/// What the HTML report's graph panel (engine/share/page/graph.js) needs for one capture, as
/// one JSON object; the layout itself is computed in the page by engine.wasm from "graph":
///   "graph":    the capture's graph section as GraphModel::fromJson reads it (node_list,
///               modules, frames, ...), unchanged
///   "nodes":    its node count as GraphModel reads it (the engine's node indices)
///   "error":    why the graph is partial or missing ("" when whole)
///   "kernels":  {node name: kernel} from the capture's lowering (inductor), as the window shows
///   "lenses":   per measured lens (time, error, memory; MeasuredLens built as the window builds
///               it, share::LensValues), {name, unit, nodes: [[node index, value, text], ...],
///               modules: [[module path, value, text], ...], leaves: [node index, ...] (error:
///               the nodes leaving eager's band), kernels: [[node index, kernel], ...] (time)}
///   "opening":  {budget, expanded: [module path, ...], layout: [...]}: the opening state,
///               CollapseState::initial with the window's budget (CollapseState::kOpeningBudget;
///               the window then may open fewer to fit its canvas, GraphOpening, which a page
///               cannot know before it is drawn), and its layout (PageLayout: the numbers the
///               page's engine would compute, so the page draws at once; a training step's
///               opening takes the layout a second)
/// Null when the capture has no graph with nodes.
class PageGraph {
public:
    static nlohmann::json toJson(const model::Capture& capture);
};

}  // namespace ps::share
