#include "ui/graph/GraphDetailsFormatter.h"

#include "graph/GraphModel.h"
#include "graph/ModuleTree.h"
#include "ui/common/QtText.h"

#include <QFileInfo>
#include <QStringList>

#include <algorithm>
#include <map>
#include <vector>

namespace ps::ui {

namespace {

const QString kNodeScheme = QStringLiteral("ps-node");
const QString kKernelScheme = QStringLiteral("ps-kernel");
const QString kSourceScheme = QStringLiteral("ps-source");
const QString kFrameScheme = QStringLiteral("ps-frame");

QString row(const QString& key, const QString& value)
{
    return "<tr><td style='padding-right:8px'><i>" + key + "</i></td><td>" + value + "</td></tr>";
}

QString anchor(GraphDetailsFormatter::Link::Kind kind, int node, const QString& html)
{
    return "<a href=\"" + GraphDetailsFormatter::link(kind, node).toString(QUrl::FullyEncoded) + "\">" + html + "</a>";
}

/// The node's stack, one frame a line, innermost first: "resnet.py:268 torchvision ·
/// _forward_impl" with the code under it; each location a link to the frame.
QString stackHtml(const graph::GraphModel& graph, int index)
{
    const auto stack = graph.stackOf(index);
    QStringList lines;
    for (int k = 0; k < static_cast<int>(stack.size()); ++k) {
        const auto& f = *stack[static_cast<std::size_t>(k)];
        QString where = QFileInfo(QString::fromStdString(f.file)).fileName().toHtmlEscaped();
        if (f.line > 0)
            where += ":" + QString::number(f.line);
        QString line = "<a href=\""
            + GraphDetailsFormatter::link(GraphDetailsFormatter::Link::Frame, index, k).toString(QUrl::FullyEncoded)
            + "\">" + where + "</a>";
        if (!f.package.empty())
            line += " <small>" + escaped(f.package) + "</small>";
        if (!f.function.empty())
            line += " · " + escaped(f.function);
        if (!f.code.empty())
            line += "<br>&nbsp;&nbsp;<code>" + escaped(f.code) + "</code>";
        lines << line;
    }
    return lines.join("<br>");
}

QString nodeAnchor(const graph::GraphModel& graph, int node)
{
    return anchor(GraphDetailsFormatter::Link::Node, node,
        GraphDetailsFormatter::title(graph.nodes()[static_cast<std::size_t>(node)]).toHtmlEscaped());
}

QString moduleHtml(const graph::GraphModel& graph, const graph::Module& m, const QList<int>& nodes)
{
    std::map<std::string, int> ops;
    int params = 0, backward = 0;
    for (int i : nodes) {
        const auto& n = graph.nodes()[static_cast<std::size_t>(i)];
        params += graph::isWeight(n.kind);
        backward += n.phase == graph::Phase::Backward;
        if (n.kind == graph::NodeKind::Compute)
            ++ops[n.shortTarget()];
    }
    std::vector<std::pair<std::string, int>> top(ops.begin(), ops.end());
    std::stable_sort(top.begin(), top.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
    QStringList opText;
    for (std::size_t k = 0; k < top.size() && k < 8; ++k)
        opText << escaped(top[k].first) + " × " + QString::number(top[k].second);
    const QString none = QStringLiteral("—");
    QString html = "<h3>" + escaped(m.path) + "</h3><table>";
    html += row(GraphDetailsFormatter::tr("type"), m.type.empty() ? none : escaped(m.type));
    html += row(GraphDetailsFormatter::tr("nodes"), QString::number(m.total));
    html += row(GraphDetailsFormatter::tr("parameters and buffers"), QString::number(params));
    html += row(GraphDetailsFormatter::tr("backward nodes"), QString::number(backward));
    html += row(GraphDetailsFormatter::tr("submodules"), QString::number(m.children.size()));
    html += row(GraphDetailsFormatter::tr("ops"), opText.isEmpty() ? none : opText.join("<br>"));
    return html + "</table><p><i>"
        + GraphDetailsFormatter::tr(
            "Double-click the box, or select it and press Enter or +, to expand it; - closes it again.")
        + "</i></p>";
}

QString nodeHtml(const graph::GraphModel& graph, int index)
{
    const auto& nodes = graph.nodes();
    const auto& n = nodes[static_cast<std::size_t>(index)];
    const QString none = QStringLiteral("—");
    auto links = [&](const std::vector<int>& list) {
        QStringList out;
        for (int i : list)
            out << nodeAnchor(graph, i);
        return out.isEmpty() ? none : out.join(", ");
    };
    const QString title = GraphDetailsFormatter::title(n);
    QString html = "<h3>" + title.toHtmlEscaped() + "</h3><table>";
    if (title != QString::fromStdString(n.name))
        html += row(GraphDetailsFormatter::tr("node"), escaped(n.name));
    html += row(GraphDetailsFormatter::tr("target"), escaped(n.target));
    html += row(GraphDetailsFormatter::tr("op"), escaped(n.op));
    html += row(GraphDetailsFormatter::tr("kind"),
        QString::fromUtf8(toString(n.kind))
            + (n.phase == graph::Phase::None ? QString() : " · " + QString::fromUtf8(toString(n.phase))));
    html += row(GraphDetailsFormatter::tr("shape"), n.shape.empty() ? none : escaped(n.shape));
    if (!n.dynamic.empty())
        html
            += row(GraphDetailsFormatter::tr("dynamic"), escaped(n.dynamic) + GraphDetailsFormatter::tr(" — any size"));
    html += row(GraphDetailsFormatter::tr("dtype"), n.dtype.empty() ? none : escaped(n.dtype));
    html += row(GraphDetailsFormatter::tr("stride"), n.stride.empty() ? none : escaped(n.stride));
    html += row(GraphDetailsFormatter::tr("device"), n.device.empty() ? none : escaped(n.device));
    html += row(GraphDetailsFormatter::tr("module"),
        n.modulePath.empty() ? none : escaped(n.modulePath) + " (" + escaped(n.moduleType) + ")");
    QString source = none;
    if (n.sourceLine > 0) {
        const QString line = GraphDetailsFormatter::tr("line %1").arg(n.sourceLine);
        source = n.sourceFile.empty() ? line : anchor(GraphDetailsFormatter::Link::Source, index, line);
        if (!n.sourceFile.empty())
            source += " · " + QFileInfo(QString::fromStdString(n.sourceFile)).fileName().toHtmlEscaped();
    }
    html += row(GraphDetailsFormatter::tr("source"), source);
    if (!n.stack.empty())
        html += row(GraphDetailsFormatter::tr("stack"), stackHtml(graph, index));
    if (!n.kernel.empty()) {
        const auto count
            = std::count_if(nodes.begin(), nodes.end(), [&](const auto& o) { return o.kernel == n.kernel; });
        html += row(GraphDetailsFormatter::tr("kernel"),
            anchor(GraphDetailsFormatter::Link::Kernel, index, escaped(n.kernel))
                + (count > 1 ? " " + GraphDetailsFormatter::tr("(%1 nodes)").arg(count) : QString()));
    }
    if (!n.outputRole.empty())
        html += row(GraphDetailsFormatter::tr("output"), escaped(n.outputRole));
    html += row(GraphDetailsFormatter::tr("inputs"), links(n.inputs));
    html += row(GraphDetailsFormatter::tr("users"), links(n.users));
    return html + "</table>";
}

}  // namespace

QString GraphDetailsFormatter::title(const graph::GraphNode& node)
{
    return QString::fromStdString(
        node.kind == graph::NodeKind::Compute || node.qualname.empty() ? node.name : node.qualname);
}

QString GraphDetailsFormatter::html(
    const graph::GraphModel& graph, const graph::ModuleTree* tree, const QList<int>& nodes, const QList<int>& modules)
{
    if (nodes.isEmpty())
        return {};
    if (modules.size() == 1 && tree)
        return moduleHtml(graph, tree->module(modules.front()), nodes);
    if (nodes.size() > 1) {
        QString html = "<b>" + tr("%1 nodes selected").arg(nodes.size()) + "</b><ul>";
        for (int k = 0; k < nodes.size() && k < 50; ++k)
            html += "<li>" + nodeAnchor(graph, nodes[k]) + " — "
                + escaped(graph.nodes()[static_cast<std::size_t>(nodes[k])].shortTarget()) + "</li>";
        if (nodes.size() > 50)
            html += "<li>" + tr("… and %1 more").arg(nodes.size() - 50) + "</li>";
        return html + "</ul>";
    }
    return nodeHtml(graph, nodes.front());
}

QUrl GraphDetailsFormatter::link(Link::Kind kind, int node, int frame)
{
    QUrl url;
    switch (kind) {
    case Link::Node:
        url.setScheme(kNodeScheme);
        break;
    case Link::Kernel:
        url.setScheme(kKernelScheme);
        break;
    case Link::Source:
        url.setScheme(kSourceScheme);
        break;
    case Link::Frame:
        url.setScheme(kFrameScheme);
        url.setPath(QString::number(node) + "/" + QString::number(frame));
        return url;
    case Link::None:
        return {};
    }
    url.setPath(QString::number(node));
    return url;
}

GraphDetailsFormatter::Link GraphDetailsFormatter::parse(const QUrl& url)
{
    Link link;
    bool ok = false;
    if (url.scheme() == kFrameScheme) {
        const QStringList parts = url.path().split('/');
        bool frameOk = false;
        const int node = parts.value(0).toInt(&ok);
        const int frame = parts.value(1).toInt(&frameOk);
        if (parts.size() != 2 || !ok || !frameOk || node < 0 || frame < 0)
            return link;
        link.kind = Link::Frame;
        link.node = node;
        link.frame = frame;
        return link;
    }
    const int node = url.path().toInt(&ok);
    if (!ok || node < 0)
        return link;
    if (url.scheme() == kNodeScheme)
        link.kind = Link::Node;
    else if (url.scheme() == kKernelScheme)
        link.kind = Link::Kernel;
    else if (url.scheme() == kSourceScheme)
        link.kind = Link::Source;
    else
        return link;
    link.node = node;
    return link;
}

}  // namespace ps::ui
