#pragma once

// One frame of a node's stack, as the report's graph.frames lists it (precompile_studio/
// capture/stacks.py): a line of the user's code, of an installed package's or of torch.nn's.

#include "graph/FrameOwner.h"

#include <string>

namespace ps::graph {

struct StackFrame {
    std::string file;      ///< as the worker wrote it (an absolute path where it ran)
    int line = 0;          ///< 0: unknown
    std::string function;  ///< "_forward_impl"
    std::string code;      ///< the line's text when the report was made ("x = self.conv1(x)"), or ""
    FrameOwner owner = FrameOwner::Unknown;
    std::string package;  ///< package and torch frames: the top-level module ("torchvision"), else ""

    bool isUser() const { return owner == FrameOwner::User; }
};

}  // namespace ps::graph
