#pragma once

#include "compare/Change.h"

#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace ps::compare {

/// How one section of python_code (lowering.sections) compares.
struct SectionChange {
    std::string kind;
    std::string title;
    Change status = Change::Same;  ///< Same, Changed, Added or Removed
    int added = 0;                 ///< lines
    int removed = 0;
    std::vector<std::string> preview;  ///< the first changed lines, "-old" / "+new"
    /// Where the section is in each side's python_code: 1-based lines, inclusive; 0 where the
    /// section is not on that side (the Compare view shows these slices side by side).
    int startA = 0;
    int endA = 0;
    int startB = 0;
    int endB = 0;
};

/// A calling-convention metadata field (NAME = value) that differs.
struct MetadataChange {
    std::string name;
    std::string before;  ///< "" when absent on that side
    std::string after;
};

/// Kernels of side a and side b that compute overlapping ATen nodes, and what became of them.
struct KernelChange {
    Change status = Change::Same;
    std::vector<std::string> a;
    std::vector<std::string> b;
    int nodes = 0;  ///< ATen nodes they compute (side b's, else side a's)
};

/// python_code of two captures compared by section, the calling-convention metadata field by
/// field, and inductor's kernels matched by the ATen nodes they compute (through the graph
/// diff's node map), so that a changed fusion reads as one.
class CodeDiff {
public:
    /// nameMap: side a's node names -> side b's (GraphDiff::nameMap). A side without code
    /// (a capture that ended in a violation) compares as absent.
    static CodeDiff compare(const nlohmann::json& captureA, const std::optional<std::string>& codeA,
        const nlohmann::json& captureB, const std::optional<std::string>& codeB,
        const std::map<std::string, std::string>& nameMap);

    bool identical() const { return m_identical; }
    bool present() const { return m_present; }
    const std::vector<SectionChange>& sections() const { return m_sections; }
    const std::vector<MetadataChange>& metadata() const { return m_metadata; }
    const std::vector<KernelChange>& kernels() const { return m_kernels; }
    int kernelsChanged() const;

    nlohmann::json toJson() const;

private:
    bool m_identical = false;
    bool m_present = false;
    std::vector<SectionChange> m_sections;
    std::vector<MetadataChange> m_metadata;
    std::vector<KernelChange> m_kernels;
};

}  // namespace ps::compare
