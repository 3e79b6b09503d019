#pragma once

#include "compare/CodeDiff.h"
#include "compare/GraphDiff.h"
#include "compare/ProfileDiff.h"

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace ps::compare {

/// One run as the diff sees it: the schema-1 report, the script's text and each capture's
/// python_code (index-aligned with report["captures"]; absent where the capture has none).
struct RunSide {
    std::string label;  ///< e.g. "run #12"
    nlohmann::json report;
    std::string scriptText;
    std::vector<std::optional<std::string>> pythonCode;
};

/// A field that differs between the two sides, by name: cache envelope fields, inputs,
/// options, provenance.
struct Difference {
    std::string what;
    std::string before;
    std::string after;
};

/// Two captures of the same name (or position) compared.
struct CaptureComparison {
    std::string name;
    int indexA = -1;  ///< -1: the capture exists only on the other side
    int indexB = -1;
    std::string statusA;
    std::string statusB;
    GraphDiff graph;
    CodeDiff code;
    std::vector<Difference> cache;
    std::vector<Difference> inputs;
    std::vector<Difference> options;
    nlohmann::json verify = nlohmann::json::object();   ///< {"a": {...}, "b": {...}} side by side
    nlohmann::json timings = nlohmann::json::object();  ///< name -> {"a": s, "b": s}
    std::vector<ModuleTime> profile;  ///< run --profile: time per top-level module, both sides profiled
    bool equivalent = false;
};

/// The semantic difference of two runs and why they differ (`library diff`, the Compare view).
///
/// "Equivalent" means the artifacts are: the same captures, each with the same graph, the same
/// python_code and the same cache envelope; timings and a changed comment never break it.
/// `why` lists the first causes in plain words, in this order: the script changed (which
/// lines), the inputs changed (which), options changed, torch or the machine changed.
class RunDiff {
public:
    static RunDiff compare(const RunSide& a, const RunSide& b);

    bool equivalent() const { return m_equivalent; }
    const std::vector<std::string>& why() const { return m_why; }
    const std::vector<CaptureComparison>& captures() const { return m_captures; }
    const std::vector<Difference>& provenance() const { return m_provenance; }
    /// The script's hunks in plain words ("lines 12-14 edited"), empty when it is the same.
    const std::vector<std::string>& scriptChanges() const { return m_scriptChanges; }

    /// The `library diff --json` object.
    nlohmann::json toJson(const RunSide& a, const RunSide& b) const;

private:
    friend class DiffCauses;
    bool m_equivalent = false;
    std::vector<std::string> m_why;
    std::vector<CaptureComparison> m_captures;
    std::vector<Difference> m_provenance;
    std::vector<std::string> m_scriptChanges;
    std::string m_scriptUnknown;  ///< why the scripts cannot be compared, when they cannot
};

}  // namespace ps::compare
