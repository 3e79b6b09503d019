#include "compare/CodeDiff.h"

#include "compare/TextDiff.h"

#include <algorithm>
#include <numeric>
#include <set>
#include <string_view>

namespace ps::compare {

namespace {

using nlohmann::json;

struct Section {
    std::string kind;
    std::string title;
    int start = 0;
    int end = 0;
};

std::vector<Section> sectionsOf(const json& capture)
{
    std::vector<Section> out;
    const json* lowering = capture.is_object() && capture.contains("lowering") ? &capture["lowering"] : nullptr;
    if (!lowering || !lowering->is_object() || !lowering->contains("sections") || !(*lowering)["sections"].is_array())
        return out;
    for (const json& s : (*lowering)["sections"]) {
        if (!s.is_object())
            continue;
        Section sec{s.value("kind", std::string()), s.value("title", std::string()), 0, 0};
        if (s.contains("start") && s["start"].is_number_integer() && s.contains("end")
            && s["end"].is_number_integer()) {
            sec.start = s["start"].get<int>();
            sec.end = s["end"].get<int>();
        }
        out.push_back(std::move(sec));
    }
    return out;
}

std::string sliceLines(const std::vector<std::string_view>& lines, int start, int end)
{
    std::string out;
    for (int i = std::max(1, start); i <= end && i <= static_cast<int>(lines.size()); ++i) {
        out.append(lines[static_cast<std::size_t>(i - 1)]);
        out.push_back('\n');
    }
    return out;
}

/// NAME = value lines of the metadata section.
std::map<std::string, std::string> metadataFields(const std::string& text)
{
    std::map<std::string, std::string> out;
    for (std::string_view line : TextDiff::splitLines(text)) {
        const auto eq = line.find(" = ");
        if (eq == std::string_view::npos || eq == 0)
            continue;
        const std::string_view name = line.substr(0, eq);
        const bool upper = std::all_of(name.begin(), name.end(),
            [](char c) { return (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_'; });
        if (upper && name.front() >= 'A' && name.front() <= 'Z')
            out[std::string(name)] = std::string(line.substr(eq + 3));
    }
    return out;
}

struct Kernel {
    std::string name;
    std::string sha;
    std::vector<std::string> nodes;
};

std::vector<Kernel> kernelsOf(const json& capture)
{
    std::vector<Kernel> out;
    if (!capture.is_object() || !capture.contains("lowering") || !capture["lowering"].is_object())
        return out;
    const json& lowering = capture["lowering"];
    if (!lowering.contains("kernels") || !lowering["kernels"].is_array())
        return out;
    for (const json& k : lowering["kernels"]) {
        if (!k.is_object())
            continue;
        Kernel kernel{k.value("name", std::string()), k.value("source_sha256", std::string()), {}};
        if (k.contains("nodes") && k["nodes"].is_array())
            for (const json& n : k["nodes"])
                if (n.is_string())
                    kernel.nodes.push_back(n.get<std::string>());
        out.push_back(std::move(kernel));
    }
    return out;
}

struct UnionFind {
    std::vector<int> parent;
    explicit UnionFind(int n) : parent(static_cast<std::size_t>(n)) { std::iota(parent.begin(), parent.end(), 0); }
    int find(int x)
    {
        while (parent[static_cast<std::size_t>(x)] != x)
            x = parent[static_cast<std::size_t>(x)]
                = parent[static_cast<std::size_t>(parent[static_cast<std::size_t>(x)])];
        return x;
    }
    void join(int x, int y) { parent[static_cast<std::size_t>(find(x))] = find(y); }
};

std::vector<KernelChange> matchKernels(
    const std::vector<Kernel>& ka, const std::vector<Kernel>& kb, const std::map<std::string, std::string>& nameMap)
{
    const int na = static_cast<int>(ka.size());
    const int nb = static_cast<int>(kb.size());
    UnionFind groups(na + nb);
    std::map<std::string, int> kernelOfB;
    std::map<std::string, int> kernelByNameB;
    for (int j = 0; j < nb; ++j) {
        for (const std::string& n : kb[static_cast<std::size_t>(j)].nodes)
            kernelOfB.emplace(n, j);
        kernelByNameB.emplace(kb[static_cast<std::size_t>(j)].name, j);
    }
    std::vector<bool> touched(static_cast<std::size_t>(na + nb), false);
    for (int i = 0; i < na; ++i) {
        const Kernel& k = ka[static_cast<std::size_t>(i)];
        for (const std::string& n : k.nodes) {
            auto mapped = nameMap.find(n);
            if (mapped == nameMap.end())
                continue;
            auto j = kernelOfB.find(mapped->second);
            if (j != kernelOfB.end()) {
                groups.join(i, na + j->second);
                touched[static_cast<std::size_t>(i)] = touched[static_cast<std::size_t>(na + j->second)] = true;
            }
        }
        // a kernel that names no node is matched by its name
        if (k.nodes.empty())
            if (auto j = kernelByNameB.find(k.name);
                j != kernelByNameB.end() && kb[static_cast<std::size_t>(j->second)].nodes.empty()) {
                groups.join(i, na + j->second);
                touched[static_cast<std::size_t>(i)] = touched[static_cast<std::size_t>(na + j->second)] = true;
            }
    }
    std::map<int, KernelChange> byRoot;
    std::map<int, std::pair<std::vector<int>, std::vector<int>>> members;
    for (int x = 0; x < na + nb; ++x) {
        auto& m = members[groups.find(x)];
        (x < na ? m.first : m.second).push_back(x < na ? x : x - na);
    }
    std::vector<KernelChange> out;
    for (const auto& [root, m] : members) {
        KernelChange c;
        for (int i : m.first)
            c.a.push_back(ka[static_cast<std::size_t>(i)].name);
        for (int j : m.second) {
            c.b.push_back(kb[static_cast<std::size_t>(j)].name);
            c.nodes += static_cast<int>(kb[static_cast<std::size_t>(j)].nodes.size());
        }
        if (m.second.empty())
            for (int i : m.first)
                c.nodes += static_cast<int>(ka[static_cast<std::size_t>(i)].nodes.size());
        if (m.first.empty())
            c.status = Change::Added;
        else if (m.second.empty())
            c.status = Change::Removed;
        else if (m.first.size() == 1 && m.second.size() == 1) {
            const Kernel& x = ka[static_cast<std::size_t>(m.first[0])];
            const Kernel& y = kb[static_cast<std::size_t>(m.second[0])];
            bool sameNodes = x.nodes.size() == y.nodes.size();
            for (std::size_t k = 0; sameNodes && k < x.nodes.size(); ++k) {
                auto mapped = nameMap.find(x.nodes[k]);
                sameNodes = mapped != nameMap.end()
                    && std::find(y.nodes.begin(), y.nodes.end(), mapped->second) != y.nodes.end();
            }
            c.status = !sameNodes ? Change::Refused : (x.sha == y.sha ? Change::Same : Change::Changed);
        } else {
            c.status = Change::Refused;
        }
        out.push_back(std::move(c));
    }
    return out;
}

}  // namespace

CodeDiff CodeDiff::compare(const json& captureA, const std::optional<std::string>& codeA, const json& captureB,
    const std::optional<std::string>& codeB, const std::map<std::string, std::string>& nameMap)
{
    CodeDiff d;
    d.m_present = codeA.has_value() && codeB.has_value();
    d.m_identical = codeA == codeB;
    if (!d.m_present)
        return d;
    const std::vector<std::string_view> linesA = TextDiff::splitLines(*codeA);
    const std::vector<std::string_view> linesB = TextDiff::splitLines(*codeB);
    const std::vector<Section> sa = sectionsOf(captureA);
    const std::vector<Section> sb = sectionsOf(captureB);

    // Sections matched by kind and its occurrence (a kernel section may repeat).
    auto keyed = [](const std::vector<Section>& secs) {
        std::vector<std::pair<std::string, const Section*>> out;
        std::map<std::string, int> seen;
        for (const Section& s : secs)
            out.emplace_back(s.kind + "#" + std::to_string(seen[s.kind]++), &s);
        return out;
    };
    const auto ka = keyed(sa);
    const auto kb = keyed(sb);
    std::set<std::string> done;
    for (const auto& [key, secA] : ka) {
        const std::string& wanted = key;  // a structured binding is not captured before clang 16
        auto found = std::find_if(kb.begin(), kb.end(), [&](const auto& p) { return p.first == wanted; });
        SectionChange change{secA->kind, secA->title, Change::Removed, 0, 0, {}};
        change.startA = secA->start;
        change.endA = secA->end;
        const std::string textA = sliceLines(linesA, secA->start, secA->end);
        if (found == kb.end()) {
            change.removed = secA->end - secA->start + 1;
            d.m_sections.push_back(std::move(change));
            continue;
        }
        const Section* secB = found->second;
        const std::string textB = sliceLines(linesB, secB->start, secB->end);
        const TextDiff lines = TextDiff::compare(textA, textB);
        change.title = secB->title;
        change.startB = secB->start;
        change.endB = secB->end;
        change.status = lines.identical() ? Change::Same : Change::Changed;
        change.added = lines.added();
        change.removed = lines.removed();
        for (const TextDiff::Hunk& h : lines.hunks()) {
            for (int i = 0; i < h.aCount && change.preview.size() < 12; ++i)
                change.preview.push_back("-" + std::string(lines.linesA()[static_cast<std::size_t>(h.aStart - 1 + i)]));
            for (int i = 0; i < h.bCount && change.preview.size() < 12; ++i)
                change.preview.push_back("+" + std::string(lines.linesB()[static_cast<std::size_t>(h.bStart - 1 + i)]));
        }
        if (secA->kind == "metadata") {
            const auto fa = metadataFields(textA);
            const auto fb = metadataFields(textB);
            std::set<std::string> names;
            for (const auto& [n, v] : fa)
                names.insert(n);
            for (const auto& [n, v] : fb)
                names.insert(n);
            for (const std::string& n : names) {
                const std::string before = fa.count(n) ? fa.at(n) : std::string();
                const std::string after = fb.count(n) ? fb.at(n) : std::string();
                if (before != after)
                    d.m_metadata.push_back({n, before, after});
            }
        }
        done.insert(key);
        d.m_sections.push_back(std::move(change));
    }
    for (const auto& [key, secB] : kb)
        if (!done.count(key))
            d.m_sections.push_back({secB->kind, secB->title, Change::Added, secB->end - secB->start + 1, 0, {}, 0, 0,
                secB->start, secB->end});
    d.m_kernels = matchKernels(kernelsOf(captureA), kernelsOf(captureB), nameMap);
    return d;
}

int CodeDiff::kernelsChanged() const
{
    return static_cast<int>(std::count_if(
        m_kernels.begin(), m_kernels.end(), [](const KernelChange& k) { return k.status != Change::Same; }));
}

json CodeDiff::toJson() const
{
    json sections = json::array();
    for (const SectionChange& s : m_sections)
        sections.push_back({{"kind", s.kind}, {"title", s.title}, {"status", toString(s.status)},
            {"added_lines", s.added}, {"removed_lines", s.removed}, {"preview", s.preview}});
    json metadata = json::array();
    for (const MetadataChange& m : m_metadata)
        metadata.push_back({{"name", m.name}, {"before", m.before}, {"after", m.after}});
    json kernels = json::array();
    for (const KernelChange& k : m_kernels)
        if (k.status != Change::Same)
            kernels.push_back({{"status", toString(k.status)}, {"a", k.a}, {"b", k.b}, {"nodes", k.nodes}});
    return {{"present", m_present}, {"identical", m_identical}, {"sections", std::move(sections)},
        {"metadata", std::move(metadata)}, {"kernels", std::move(kernels)},
        {"kernels_same", static_cast<int>(m_kernels.size()) - kernelsChanged()}};
}

}  // namespace ps::compare
