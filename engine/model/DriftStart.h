#pragma once

#include "model/Verification.h"

#include <nlohmann/json_fwd.hpp>

#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace ps::model {

/// Where a drift or a mismatch starts, named the one way every view names it (the run's
/// message, `run`'s accuracy line, JUnit, the window's Verify tab, the HTML page): the node that
/// computes the value, with its module; when the value observed is an element of a node of
/// several outputs (native_batch_norm_backward_14's getitem_148), that node, and the elements
/// it was read through beside it. "native_batch_norm_backward_14 (model.layer4.0.bn1)".
struct DriftStart {
    std::string node;
    std::string module;            ///< the node's module path, "" when it has none
    std::vector<std::string> via;  ///< the elements (getitem nodes) that left the band

    /// The starts of `accuracy` over its capture's graph (the capture JSON's graph: node_list),
    /// in order, each node once. A report older than drift_starts_via may name the getitem: it
    /// is named by its node here too.
    static std::vector<DriftStart> of(const Verification::Accuracy& accuracy, const nlohmann::json& graph);
    /// "node (module)", or "node".
    std::string label() const;
    /// Up to three labels joined by ", ", then " and N more"; each text through `shown`
    /// (a terminal's or a page's escaping).
    static std::string phrase(
        const std::vector<DriftStart>& starts,
        const std::function<std::string(std::string_view)>& shown = [](std::string_view s) { return std::string(s); });
};

}  // namespace ps::model
