#include "ui/graph/GraphMeasures.h"
#include "ui/common/Plural.h"
#include "ui/common/QtText.h"

#include "graph/GraphModel.h"
#include "graph/ModuleTree.h"
#include "model/Capture.h"
#include "share/LensValues.h"
#include "ui/graph/LensPalette.h"

namespace ps::ui {

namespace {

QString text(graph::MeasuredLens::Measure m, double v)
{
    return QString::fromStdString(graph::MeasuredLens::format(m, v));
}

/// A node's time in words: the kernel whose group it is part of ("1.20 ms: all of
/// cpp_fused_relu_3, which computes it and 4 other nodes"), or the kernels it is in.
QString kernelLine(const graph::MeasuredLens& values, int node, const QString& value)
{
    const auto groups = values.kernelsOf(node);
    if (groups.empty())
        return value;
    if (groups.size() == 1) {
        const auto& k = values.kernels()[static_cast<std::size_t>(groups.front())];
        if (k.nodes.size() == 1)
            return QObject::tr("%1 (%2)").arg(value, escaped(k.kernel));
        return QObject::tr("%1: all of %2, which computes it and %3")
            .arg(value, escaped(k.kernel),
                counted(
                    static_cast<qint64>(k.nodes.size()) - 1, QObject::tr("other node"), QObject::tr("other nodes")));
    }
    QStringList parts;
    for (int g : groups) {
        const auto& k = values.kernels()[static_cast<std::size_t>(g)];
        parts << QStringLiteral("%1 %2").arg(escaped(k.kernel), text(graph::MeasuredLens::Measure::Time, k.us));
    }
    return QObject::tr("%1: the kernels computing it, %2").arg(value, parts.join(QStringLiteral(", ")));
}

graph::MeasuredLens::Measure measureOf(graph::Lens lens)
{
    return lens == graph::Lens::Time ? graph::MeasuredLens::Measure::Time
        : lens == graph::Lens::Error ? graph::MeasuredLens::Measure::Error
                                     : graph::MeasuredLens::Measure::Memory;
}

}  // namespace

GraphMeasures::GraphMeasures(const graph::GraphModel& graph, const model::Capture* capture)
{
    m_memory.emplace(graph);
    m_nodeCount = static_cast<int>(graph.nodes().size());
    m_bytes = graph::MeasuredLens::memory(graph, *m_memory);
    if (!m_bytes.any())
        m_memoryWhy = QObject::tr("no tensor sizes in this graph: nothing to add up");
    if (m_memory->peakNode() >= 0) {
        m_peakName = QString::fromStdString(graph.nodes()[static_cast<std::size_t>(m_memory->peakNode())].name);
        m_peakShort = QObject::tr("%1 live").arg(
            text(graph::MeasuredLens::Measure::Memory, static_cast<double>(m_memory->peak())));
    }

    const model::KernelProfile* profile = capture && capture->profile ? &*capture->profile : nullptr;
    if (!profile) {
        m_timeWhy = QObject::tr("not profiled: Run > Profile (or run --profile)");
    } else {
        m_time = share::LensValues::time(graph, *profile);
        if (!profile->error.empty())
            m_timeWhy = QObject::tr("profiling failed: %1").arg(QString::fromStdString(profile->error));
        else if (!m_time.any())
            m_timeWhy = QObject::tr("the profile names no kernel of this graph");
        if (profile->wallUs)
            m_timeNote
                = QObject::tr("wall %1 per call").arg(text(graph::MeasuredLens::Measure::Time, *profile->wallUs));
    }

    const auto* accuracy
        = capture && capture->verify && capture->verify->accuracy ? &*capture->verify->accuracy : nullptr;
    if (accuracy && !accuracy->nodes.empty()) {
        m_error = share::LensValues::error(graph, accuracy->nodes);
        if (!m_error.any())
            m_errorWhy = QObject::tr("the localised errors name no node of this graph");
    } else if (accuracy && accuracy->localise && !accuracy->localise->reason.empty()) {
        m_errorWhy = QObject::tr("not localised: %1").arg(QString::fromStdString(accuracy->localise->reason));
    } else {
        m_errorWhy = QObject::tr("no drift to localise");
    }
}

const graph::MeasuredLens* GraphMeasures::lens(graph::Lens lens) const
{
    if (!graph::GraphLens::numeric(lens) || !unavailable(lens).isEmpty())
        return nullptr;
    return lens == graph::Lens::Time ? &m_time : lens == graph::Lens::Error ? &m_error : &m_bytes;
}

QString GraphMeasures::unavailable(graph::Lens lens) const
{
    if (!m_memory)
        return QObject::tr("no graph");
    switch (lens) {
    case graph::Lens::Time:
        return m_timeWhy;
    case graph::Lens::Error:
        return m_errorWhy;
    case graph::Lens::Memory:
        return m_memoryWhy;
    default:
        return {};
    }
}

std::vector<int> GraphMeasures::marked(graph::Lens lens) const
{
    std::vector<int> out;
    const auto* values = this->lens(lens);
    if (!values)
        return out;
    if (lens == graph::Lens::Memory && m_memory->peakNode() >= 0)
        out.push_back(m_memory->peakNode());
    if (lens == graph::Lens::Error)
        for (int i = 0; i < m_nodeCount; ++i)
            if (values->leavesBand(i))
                out.push_back(i);
    return out;
}

QString GraphMeasures::legendHtml(graph::Lens lens, double low, double high, bool brief) const
{
    const auto* values = this->lens(lens);
    if (!values)
        return {};
    const auto m = measureOf(lens);
    QString ramp;
    const int steps = brief ? 4 : 8;
    for (int k = 0; k <= steps; ++k)
        ramp += QStringLiteral("<span style='background:%1'>&nbsp;&nbsp;</span>")
                    .arg(LensPalette::ramp(k / double(steps)).name());
    if (brief)
        return QStringLiteral("%1&nbsp;%2&nbsp;%3")
            .arg(text(m, low).toHtmlEscaped(), ramp, text(m, high).toHtmlEscaped());
    QString what;
    switch (m) {
    case graph::MeasuredLens::Measure::Time:
        what = QObject::tr("per call: a node shows its kernel's time, a module its kernels'");
        break;
    case graph::MeasuredLens::Measure::Error:
        what = QObject::tr("error over eager's; framed: leaves its band");
        break;
    case graph::MeasuredLens::Measure::Memory:
        what = QObject::tr("allocated; framed: the peak, %1").arg(m_peakShort.toHtmlEscaped());
        break;
    }
    return QStringLiteral("%1&nbsp;%2&nbsp;%3&nbsp;&nbsp;<i>%4</i>")
        .arg(text(m, low).toHtmlEscaped(), ramp, text(m, high).toHtmlEscaped(), what);
}

QString GraphMeasures::legendTip(graph::Lens lens, double low, double high) const
{
    const auto* values = this->lens(lens);
    if (!values)
        return {};
    const auto m = measureOf(lens);
    QString tip = QObject::tr("%1: %2 to %3 over the boxes shown (logarithmic ramp); grey: no value; nodes "
                              "from %4 to %5")
                      .arg(QString::fromStdString(graph::MeasuredLens::name(m)), text(m, low), text(m, high),
                          text(m, values->min()), text(m, values->max()));
    if (m == graph::MeasuredLens::Measure::Time) {
        tip += '\n'
            + QObject::tr("A fused kernel's self time is shown once on the group of nodes it computes: each "
                          "has the kernel's colour, and Top kernels ranks the kernels. A module's total counts "
                          "each kernel once.");
        if (!m_timeNote.isEmpty())
            tip += '\n' + m_timeNote;
        if (values->unattributedUs() > 0)
            tip += '\n'
                + QObject::tr("%1 in kernels naming no node of this graph").arg(text(m, values->unattributedUs()));
    }
    if (m == graph::MeasuredLens::Measure::Memory)
        tip += '\n' + peakText();
    return tip;
}

QString GraphMeasures::peakText() const
{
    if (!m_memory || m_memory->peakNode() < 0)
        return {};
    const auto bytes = graph::MeasuredLens::Measure::Memory;
    return QObject::tr("peak %1 live at %2, %3 tensors; %4 held by inputs and parameters")
        .arg(text(bytes, static_cast<double>(m_memory->peak())), m_peakName)
        .arg(m_memory->aliveAtPeak().size())
        .arg(text(bytes, static_cast<double>(m_memory->held())));
}

QString GraphMeasures::detailsHtml(
    graph::Lens lens, const graph::ModuleTree& tree, const QList<int>& nodes, const QList<int>& modules) const
{
    const auto* values = this->lens(lens);
    if (!values || (nodes.isEmpty() && modules.isEmpty()))
        return {};
    const auto m = measureOf(lens);
    const auto bytes = graph::MeasuredLens::Measure::Memory;
    QStringList lines;
    if (modules.size() == 1) {
        const int id = modules.front();
        const auto v = values->module(tree, id);
        QString line = QObject::tr("%1: %2").arg(
            m == graph::MeasuredLens::Measure::Error ? QObject::tr("worst") : QObject::tr("total"),
            v ? text(m, *v) : QObject::tr("none"));
        if (m == bytes) {
            std::uint64_t peak = 0;
            for (int n : tree.nodesIn(id))
                peak = std::max(peak, m_memory->liveAfter(n));
            line += QObject::tr("; peak live in it: %1").arg(text(bytes, static_cast<double>(peak)));
        }
        lines << line;
    } else if (nodes.size() == 1) {
        const int n = nodes.front();
        const auto v = values->node(n);
        QString line = v ? text(m, *v) : QObject::tr("no value");
        if (m == graph::MeasuredLens::Measure::Time)
            line = kernelLine(*values, n, line);
        if (m == graph::MeasuredLens::Measure::Error && values->leavesBand(n))
            line += QObject::tr(", leaves eager's band");
        if (m == bytes) {
            line = QObject::tr("allocates %1; live after it: %2")
                       .arg(m_memory->alias(n) ? QObject::tr("nothing (an alias)") : line)
                       .arg(text(bytes, static_cast<double>(m_memory->liveAfter(n))));
            if (n == m_memory->peakNode())
                line += QObject::tr("; <b>peak: %1 live, %2 tensors</b>")
                            .arg(text(bytes, static_cast<double>(m_memory->peak())))
                            .arg(m_memory->aliveAtPeak().size());
        }
        lines << line;
    }
    if (lines.isEmpty())
        return {};
    return QStringLiteral("<p><b>%1</b>: %2</p>")
        .arg(QString::fromStdString(graph::MeasuredLens::name(m)).toHtmlEscaped(), lines.join(QStringLiteral("<br>")));
}

}  // namespace ps::ui
