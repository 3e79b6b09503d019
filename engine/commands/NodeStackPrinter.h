#pragma once

#include <nlohmann/json_fwd.hpp>

#include <iosfwd>
#include <string>

namespace ps::commands {

/// `library show RUN --node NAME`: one graph node of a stored report, as a person reads it
/// (its op, shape and the stack that made it, one frame a line, innermost first: file:line,
/// function and code) or as JSON ({capture, node, stack: [frames]}). Every capture holding a
/// node of that name is printed. The calling thread; never throws.
class NodeStackPrinter {
public:
    /// 0 when the node was found; 1 (and a line on `err`) when no capture has it.
    static int print(
        const nlohmann::json& report, const std::string& node, bool json, std::ostream& out, std::ostream& err);
};

}  // namespace ps::commands
