#include "DotLayout.h"

#include <QElapsedTimer>
#include <QProcess>
#include <QStandardPaths>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>
#include <unordered_set>

namespace ps::bench {

namespace {

constexpr double kPointsPerInch = 72;

std::string inches(double px)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.4f", px / kPointsPerInch);
    return buf;
}

/// The words of one line of -Tplain output; a quoted word loses its quotes.
std::vector<std::string> words(const std::string& line)
{
    std::vector<std::string> out;
    std::size_t i = 0;
    while (i < line.size()) {
        while (i < line.size() && line[i] == ' ')
            ++i;
        if (i >= line.size())
            break;
        std::string w;
        if (line[i] == '"') {
            for (++i; i < line.size() && line[i] != '"'; ++i)
                w += line[i] == '\\' && i + 1 < line.size() ? line[++i] : line[i];
            ++i;
        } else {
            while (i < line.size() && line[i] != ' ')
                w += line[i++];
        }
        out.push_back(std::move(w));
    }
    return out;
}

/// "n12" -> 12; -1 for any other name or one out of range.
int itemOf(const std::string& name, std::size_t items)
{
    if (name.size() < 2 || name[0] != 'n')
        return -1;
    try {
        std::size_t used = 0;
        const int i = std::stoi(name.substr(1), &used);
        return used + 1 == name.size() && i >= 0 && static_cast<std::size_t>(i) < items ? i : -1;
    } catch (const std::exception&) {
        return -1;
    }
}

}  // namespace

std::string DotLayout::program()
{
    return QStandardPaths::findExecutable(QStringLiteral("dot")).toStdString();
}

std::string DotLayout::toDot(const graph::LayoutInput& input, const graph::LayoutOptions& options, double nslimit)
{
    std::ostringstream out;
    out << "digraph G {\n  graph [rankdir=TB, nodesep=" << inches(options.nodeGap)
        << ", ranksep=" << inches(options.layerGap) << ", splines=true";
    if (nslimit > 0)
        out << ", nslimit=" << nslimit;
    out << "];\n"
        << "  node [shape=box, fixedsize=true, label=\"\", height=" << inches(options.nodeHeight) << "];\n"
        << "  edge [arrowhead=none];\n";
    for (std::size_t i = 0; i < input.inputs.size(); ++i) {
        const double w = i < input.widths.size() ? input.widths[i] : options.nodeWidth;
        out << "  n" << i << " [width=" << inches(w) << "];\n";
    }
    for (std::size_t to = 0; to < input.inputs.size(); ++to) {
        std::unordered_set<int> seen;
        for (int from : input.inputs[to])
            if (from != static_cast<int>(to) && seen.insert(from).second)
                out << "  n" << from << " -> n" << to << ";\n";
    }
    out << "}\n";
    return out.str();
}

std::optional<DotDrawing> DotLayout::readPlain(const std::string& plain, std::size_t items, std::string* why)
{
    DotDrawing d;
    d.boxes.resize(items);
    std::vector<bool> placed(items, false);
    double height = -1;
    std::istringstream in(plain);
    std::string line;
    // -Tplain: inches, y up from the bottom; ours: pixels, y down from the top.
    auto toPx = [&](double x, double y) {
        return graph::LayoutPoint{x * kPointsPerInch, (height - y) * kPointsPerInch};
    };
    while (std::getline(in, line)) {
        const auto w = words(line);
        if (w.empty())
            continue;
        try {
            if (w[0] == "graph" && w.size() >= 4) {
                height = std::stod(w[3]);
            } else if (w[0] == "node" && w.size() >= 6 && height >= 0) {
                const int i = itemOf(w[1], items);
                if (i < 0)
                    continue;
                const double bw = std::stod(w[4]) * kPointsPerInch, bh = std::stod(w[5]) * kPointsPerInch;
                const auto c = toPx(std::stod(w[2]), std::stod(w[3]));
                d.boxes[static_cast<std::size_t>(i)] = {c.x - bw / 2, c.y - bh / 2, bw, bh, 0};
                placed[static_cast<std::size_t>(i)] = true;
            } else if (w[0] == "edge" && w.size() >= 4 && height >= 0) {
                const int from = itemOf(w[1], items), to = itemOf(w[2], items);
                const int n = std::stoi(w[3]);
                if (from < 0 || to < 0 || n < 4 || (n - 1) % 3 != 0 || w.size() < 4 + 2 * static_cast<std::size_t>(n))
                    continue;
                std::vector<graph::LayoutPoint> c;
                for (int k = 0; k < n; ++k)
                    c.push_back(toPx(std::stod(w[4 + 2 * k]), std::stod(w[5 + 2 * k])));
                graph::EdgeRoute r{from, to, {c.front()}};
                for (std::size_t k = 0; k + 3 < c.size(); k += 3) {
                    // The control polygon bounds the curve's length: no chord longer than
                    // kSampleStep, so that two close, near-parallel curves are not made to cross.
                    double hull = 0;
                    for (std::size_t q = k; q < k + 3; ++q)
                        hull += std::hypot(c[q + 1].x - c[q].x, c[q + 1].y - c[q].y);
                    const int samples = std::max(kSamples, static_cast<int>(std::ceil(hull / kSampleStep)));
                    for (int s = 1; s <= samples; ++s) {
                        const double t = static_cast<double>(s) / samples, u = 1 - t;
                        const double a = u * u * u, b = 3 * u * u * t, e = 3 * u * t * t, f = t * t * t;
                        r.points.push_back({a * c[k].x + b * c[k + 1].x + e * c[k + 2].x + f * c[k + 3].x,
                            a * c[k].y + b * c[k + 1].y + e * c[k + 2].y + f * c[k + 3].y});
                    }
                }
                d.routes.push_back(std::move(r));
            }
        } catch (const std::exception&) {
            *why = "dot printed a line that is not -Tplain: " + line.substr(0, 120);
            return std::nullopt;
        }
    }
    for (std::size_t i = 0; i < items; ++i)
        if (!placed[i]) {
            *why = "dot placed no node n" + std::to_string(i);
            return std::nullopt;
        }
    return d;
}

std::optional<DotDrawing> DotLayout::run(const graph::LayoutInput& input, const graph::LayoutOptions& options,
    double nslimit, int timeoutS, std::string* why)
{
    const std::string dot = program();
    if (dot.empty()) {
        *why = "dot is missing (Graphviz is not installed)";
        return std::nullopt;
    }
    QElapsedTimer timer;
    timer.start();
    QProcess p;
    p.start(QString::fromStdString(dot), {"-Tplain"});
    if (!p.waitForStarted()) {
        *why = "dot did not start";
        return std::nullopt;
    }
    p.write(QByteArray::fromStdString(toDot(input, options, nslimit)));
    p.closeWriteChannel();
    if (!p.waitForFinished(timeoutS * 1000)) {
        p.kill();
        p.waitForFinished();
        *why = "dot did not finish in " + std::to_string(timeoutS) + " s";
        return std::nullopt;
    }
    if (p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0) {
        *why = "dot failed: " + QString::fromUtf8(p.readAllStandardError()).left(300).toStdString();
        return std::nullopt;
    }
    auto d = readPlain(p.readAllStandardOutput().toStdString(), input.inputs.size(), why);
    if (d)
        d->seconds = static_cast<double>(timer.nsecsElapsed()) / 1e9;
    return d;
}

}  // namespace ps::bench
