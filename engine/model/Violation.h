#pragma once

#include "model/Location.h"
#include "model/Severity.h"

#include <nlohmann/json_fwd.hpp>

#include <optional>
#include <string>
#include <vector>

namespace ps::model {

/// A contract outcome or an error of one capture, as the worker classified it.
struct Violation {
    /// One link of the chain from the user's line to the torch op that raised (violation.chain).
    struct ChainStep {
        std::string role;  ///< "user", "package" or "torch"
        std::string op;    ///< the torch op (role torch)
        std::string package;
        std::string version;
        std::string file;
        int line = 0;
        std::string function;
        std::string code;

        /// The link in words: a torch op's name; else "package version file:line in function:
        /// code", the function left out for the user's own line. brief: the file's base name
        /// and " · " after the package, as the window shows it.
        std::string describe(bool brief = false) const;
    };

    std::optional<int> invariant;  ///< 1-7, or empty for a limit / unclassified / an error
    std::string rule;
    std::string kind;     ///< the exception type: PrecompileError, TypeError, ...
    std::string message;  ///< torch's own words, whole
    std::string summary;  ///< ours, one line in the user's names (empty: message's first line)
    std::string explanation;
    std::string fix;
    std::optional<Location> location;
    std::string phase;      ///< where torch raised it, in the worker's words ("" when not said)
    std::string traceback;  ///< the Python traceback of an error
    std::vector<ChainStep> chain;
    std::vector<std::string> nodes;  ///< graph nodes it names (details.node, a constant and its users)
    /// A runtime shape rejection pointed at the guard behind it: the guard in the user's names
    /// (details.guard, "x.shape[0] <= 2") and the runtime_inputs line (details.runtime_location).
    std::string guard;
    std::optional<Location> calledAt;
    /// The worker marked it an error rather than a contract outcome (its "status" field).
    bool markedError = false;

    /// Violation for a contract outcome (a rule, not marked an error), else Error.
    Severity severity() const { return markedError || rule.empty() ? Severity::Error : Severity::Violation; }

    static Violation fromJson(const nlohmann::json& j);
    /// Each object of a JSON array (a capture's or the run's "warnings"); none for anything else.
    static std::vector<Violation> listFromJson(const nlohmann::json& j);
    /// "file:line: invariant N: Kind: first line of message", or our summary instead of the
    /// message's first line when there is one.
    std::string oneLine() const;
};

}  // namespace ps::model
