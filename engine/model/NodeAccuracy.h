#pragma once

#include <nlohmann/json_fwd.hpp>

#include <optional>
#include <string>
#include <vector>

namespace ps::model {

/// One graph node's value judged against a float64 run of the captured graph, where drift was
/// localised (captures[i].verify.accuracy.nodes[j]): the artifact's error beside eager's own.
struct NodeAccuracy {
    std::string node;
    std::optional<double> error;       ///< the artifact's error against float64 (finite, >= 0)
    std::optional<double> eagerError;  ///< eager's error against float64 (finite, >= 0)
    bool leavesBand = false;           ///< the artifact's error is outside eager's band here

    /// error / eagerError, "x band": nullopt without both, +inf for an error over an exact eager.
    std::optional<double> bandRatio() const;

    /// The entries of accuracy.nodes that are objects naming a node; a number that is not
    /// finite or is negative reads as absent. Never throws.
    static std::vector<NodeAccuracy> listFromJson(const nlohmann::json& j);
};

}  // namespace ps::model
