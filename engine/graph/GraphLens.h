#pragma once

// Lenses colour the graph by one property. Each maps a node (or a collapsed module, by the
// most common category of its nodes) to a category: a fixed one's word (LensCategory) or a name
// (a module path, a kernel, a source line); the view picks a colour per category and lists them
// in a legend. "" means no category (drawn neutral).

#include "graph/LensCategory.h"

#include <optional>
#include <string>
#include <vector>

namespace ps::graph {

class GraphModel;
class ModuleTree;

enum class Lens {
    Kind,         ///< parameter, buffer, input, constant, output, forward, backward
    OpKind,       ///< matmul, convolution, reduction, normalization, view, memory, random, elementwise
    Module,       ///< the module's model path: a module's forward and backward copies share it
    Kernel,       ///< inductor: the generated kernel computing the node
    DtypeLayout,  ///< dtype change, layout change, unchanged
    Source,       ///< the line that made the node ("resnet.py:268"): the innermost frame of its stack
                  ///< in the user's code, or in one package (the scope)
    Time,         ///< numeric ([overlays], MeasuredLens): the profiled kernels' self time
    Error,        ///< numeric: the artifact's error against float64 over eager's own
    Memory,       ///< numeric: the bytes the node's output allocates (GraphMemory)
};

class GraphLens {
public:
    /// `scope`: Lens::Source only: "" the user's code (the node's source line where the report
    /// has no stacks), else a package ("torchvision"): the innermost frame of that package.
    static std::string category(
        const GraphModel& graph, const ModuleTree& tree, int node, Lens lens, const std::string& scope = {});
    /// A collapsed module's category: its model path for Lens::Module (its path for a phase
    /// group or the gradient bundle), else the most common non-empty category of its nodes.
    static std::string moduleCategory(
        const GraphModel& graph, const ModuleTree& tree, int module, Lens lens, const std::string& scope = {});
    /// "file.py:LINE" of the innermost frame of the node's stack in `scope` (as category()), or "".
    static std::string sourceLine(const GraphModel& graph, int node, const std::string& scope);
    /// The packages the nodes' stacks pass through ("torchvision", "torch"), the most frames
    /// first: the scopes Lens::Source can take besides the user's code.
    static std::vector<std::string> sourceScopes(const GraphModel& graph);
    /// The op kind of a target such as "aten.addmm.default" (Other for a call that is not an
    /// ATen or prims op); nullopt for no target.
    static std::optional<LensCategory> opKind(const std::string& target);

    /// Time, Error and Memory: a value per node on a colour ramp (MeasuredLens), no categories.
    static bool numeric(Lens lens);
    static Lens fromName(const std::string& name);
    static std::string name(Lens lens);
    static std::vector<Lens> all();
};

}  // namespace ps::graph
