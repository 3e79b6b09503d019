#include "ui/compare/CompareGraphPane.h"
#include "ui/common/QtText.h"

#include "model/JsonFields.h"

#include "compare/DiffText.h"
#include "compare/GraphDiff.h"
#include "graph/GraphModel.h"
#include "graph/ModuleTree.h"
#include "ui/common/FocusFrame.h"
#include "ui/compare/CompareOpening.h"
#include "ui/compare/CompareViewportSync.h"
#include "ui/compare/DiffColours.h"
#include "ui/graph/GraphBoxItem.h"
#include "ui/graph/GraphCanvas.h"
#include "ui/graph/GraphView.h"

#include <QApplication>
#include <QCheckBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSplitter>
#include <QVBoxLayout>

#include <map>
#include <set>
#include <unordered_map>
#include <utility>

namespace ps::ui {

namespace {

using nlohmann::json;
using ps::model::JsonFields;

/// Index of each node_list entry in the GraphModel built from it (by name: the model leaves
/// out entries it cannot read), -1 where it has none.
std::vector<int> modelIndices(const json& graph, const graph::GraphModel& model)
{
    std::unordered_map<std::string, int> byName;
    for (std::size_t i = 0; i < model.nodes().size(); ++i)
        byName.emplace(model.nodes()[i].name, static_cast<int>(i));
    std::vector<int> out;
    const json& list = JsonFields::member(graph, "node_list");
    if (!list.is_array())
        return out;
    for (const json& node : list) {
        const json& name = JsonFields::member(node, "name");
        auto it = name.is_string() ? byName.find(name.get<std::string>()) : byName.end();
        out.push_back(it == byName.end() ? -1 : it->second);
    }
    return out;
}

int indexAt(const std::vector<int>& v, int i)
{
    return i >= 0 && i < static_cast<int>(v.size()) ? v[static_cast<std::size_t>(i)] : -1;
}

}  // namespace

CompareGraphPane::CompareGraphPane(QWidget* parent) : QWidget(parent)
{
    m_summary = new QLabel;
    m_summary->setObjectName(QStringLiteral("compareGraphSummary"));
    m_summary->setWordWrap(true);
    m_summary->setTextFormat(Qt::PlainText);
    m_summary->setSizePolicy(
        QSizePolicy::Ignored, QSizePolicy::Preferred);  // a long line is wrapped or cut, never widening the window
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_detail = new QLabel;
    m_detail->setObjectName(QStringLiteral("compareGraphDetail"));
    m_detail->setWordWrap(true);
    m_detail->setTextFormat(Qt::PlainText);
    m_detail->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_detail->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_split = new QSplitter(Qt::Horizontal);
    m_split->setChildrenCollapsible(false);
    for (int k = 0; k < 2; ++k) {
        m_titles[k] = new QLabel;
        m_titles[k]->setTextFormat(Qt::PlainText);
        QFont bold = m_titles[k]->font();
        bold.setBold(true);
        m_titles[k]->setFont(bold);
        m_views[k] = new GraphView;
        m_views[k]->setObjectName(k == 0 ? QStringLiteral("compareGraphA") : QStringLiteral("compareGraphB"));
        // The panes are for the difference: no module/details panel, and its toggle's room goes
        // to the toolbar, so two toolbars fit side by side in a 1400-pixel window.
        m_views[k]->setSidePanelAvailable(false);
        auto* pane = new QWidget;
        pane->setMinimumWidth(420);
        auto* pl = new QVBoxLayout(pane);
        pl->setContentsMargins(0, 0, 0, 0);
        pl->setSpacing(2);
        pl->addWidget(m_titles[k]);
        pl->addWidget(m_views[k], 1);
        m_split->addWidget(pane);
        m_split->setStretchFactor(k, 1);
        connect(
            m_views[k], &GraphView::nodesSelected, this, [this, k](const QList<int>& nodes) { onSelected(k, nodes); });
        connect(m_views[k], &GraphView::graphShown, this, &CompareGraphPane::refreshFills);
    }
    // The side that has the keyboard (the arrows walk its nodes) is framed, as a pane of the
    // main window is.
    m_focusFrame = new FocusFrame;
    m_focusFrame->setObjectName(QStringLiteral("compareFocusFrame"));
    m_focusFrame->setTarget(m_views[0]);  // a child of a side from now on, hidden until the focus comes
    m_focusFrame->setTarget(nullptr);
    connect(qApp, &QApplication::focusChanged, this, [this](QWidget*, QWidget* now) {
        for (GraphView* view : m_views)
            if (now && view->isAncestorOf(now)) {
                m_focusFrame->setTarget(view);
                return;
            }
        m_focusFrame->setTarget(nullptr);
    });
    m_sync = new CompareViewportSync(m_views[0], m_views[1], this);
    m_opening = new CompareOpening(m_views[0], m_views[1], m_sync, this);
    m_together = new QCheckBox(tr("Move together"));
    m_together->setObjectName(QStringLiteral("compareMoveTogether"));
    m_together->setChecked(true);
    m_together->setToolTip(tr("Scroll, zoom, expand and collapse both graphs at once, matching nodes side by side"));
    connect(m_together, &QCheckBox::toggled, m_sync, &CompareViewportSync::setEnabled);
    auto* top = new QHBoxLayout;
    top->setContentsMargins(0, 0, 0, 0);
    top->addWidget(m_summary, 1);
    top->addWidget(m_together, 0, Qt::AlignTop);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(top);
    layout->addWidget(m_detail);
    layout->addWidget(m_split, 1);
}

void CompareGraphPane::setCapture(const json& captureA, const json& captureB, const compare::GraphDiff& diff,
    const QString& labelA, const QString& labelB)
{
    const json* captures[2] = {&captureA, &captureB};
    m_labels[0] = labelA;
    m_labels[1] = labelB;
    m_changes = diff.changed();
    Indices index;
    Models models;
    showSides(captures, models, index);
    colourAndMatch(diff, index, models);
    m_sync->setMatches(m_match[0], diff.renames());
    m_opening->start(chooseModulesToOpen(diff, models));
    setTitles(diff, models);
    m_summary->setText(summaryLines(diff).join('\n'));
    m_detail->setText(legend());
}

void CompareGraphPane::showSides(const json* captures[2], Models& models, Indices& index)
{
    for (int k = 0; k < 2; ++k) {
        m_match[k].clear();
        m_change[k].clear();
        m_expect[k] = -1;
        const json& graphJson = JsonFields::member(*captures[k], "graph");
        if (captures[k]->is_null()) {
            m_views[k]->clear(tr("%1 has no capture of this name.").arg(m_labels[k]));
            continue;
        }
        models[k] = std::make_shared<const graph::GraphModel>(
            graph::GraphModel::fromJson(graphJson, JsonFields::member(*captures[k], "lowering")));
        index[k] = modelIndices(graphJson, *models[k]);
        m_match[k].assign(models[k]->nodes().size(), -1);
        m_change[k].assign(models[k]->nodes().size(), -1);
        if (models[k]->empty())
            m_views[k]->clear(tr("%1: no graph (%2)").arg(m_labels[k], QString::fromStdString(models[k]->error())));
        else
            m_views[k]->setGraph(models[k]);
    }
}

void CompareGraphPane::colourAndMatch(const compare::GraphDiff& diff, const Indices& index, const Models& models)
{
    using Status = CompareColouring::Status;
    std::vector<Status> status[2];
    for (int k = 0; k < 2; ++k)
        status[k].assign(models[k] ? models[k]->nodes().size() : 0, Status::Same);
    for (int i : diff.removed())
        if (int n = indexAt(index[0], i); n >= 0)
            status[0][static_cast<std::size_t>(n)] = Status::Only;
    for (int j : diff.added())
        if (int n = indexAt(index[1], j); n >= 0)
            status[1][static_cast<std::size_t>(n)] = Status::Only;
    for (std::size_t i = 0; i < diff.changed().size(); ++i) {
        const compare::NodeChange& c = diff.changed()[i];
        const int sides[2] = {indexAt(index[0], c.a), indexAt(index[1], c.b)};
        for (int k = 0; k < 2; ++k)
            if (const int n = sides[k]; n >= 0) {
                status[k][static_cast<std::size_t>(n)] = Status::Changed;
                m_change[k][static_cast<std::size_t>(n)] = static_cast<int>(i);
            }
    }
    m_colouring.set(status, diff.renames());
    for (const auto& [i, j] : diff.matched()) {
        const int a = indexAt(index[0], i);
        const int b = indexAt(index[1], j);
        if (a >= 0 && b >= 0) {
            m_match[0][static_cast<std::size_t>(a)] = b;
            m_match[1][static_cast<std::size_t>(b)] = a;
        }
    }
}

QStringList CompareGraphPane::chooseModulesToOpen(const compare::GraphDiff& diff, const Models& models)
{
    // Every parent of a block's module (model.layer1 for an added model.layer1.2), else of a
    // changed node's, on both sides alike (where a side has it).
    std::set<std::string> parents;
    auto addParents = [&parents](const std::string& path) {
        for (auto dot = path.rfind('.'); dot != std::string::npos; dot = path.rfind('.', dot - 1)) {
            parents.insert(path.substr(0, dot));
            if (dot == 0)
                break;
        }
    };
    for (int k = 0; k < 2; ++k) {
        for (const compare::NodeBlock& b : diff.blocks())
            if (b.added == (k == 1))
                for (const std::string& module : b.modules)
                    addParents(module);  // the module itself stays a box
        // Changed nodes only where nothing was added or removed (a layer added also changes the
        // next one's input: opening that too would open most of a deep model).
        const auto& model = diff.blocks().empty() ? models[k] : nullptr;
        for (std::size_t i = 0; model && i < m_change[k].size() && parents.size() < 64; ++i)
            if (m_change[k][i] >= 0)
                addParents(model->nodes()[i].modulePath);
    }
    QStringList reveal;
    for (const std::string& p : parents)  // sorted: a parent before its children
        reveal << QString::fromStdString(p);
    return reveal;
}

void CompareGraphPane::setTitles(const compare::GraphDiff& diff, const Models& models)
{
    for (int k = 0; k < 2; ++k) {
        const int nodes = models[k] ? static_cast<int>(models[k]->nodes().size()) : 0;
        QString title = m_labels[k];
        if (models[k])
            title += tr(" — %n node(s)", "", nodes);
        if (k == 0 && !diff.removed().empty())
            title += tr(", %1 removed").arg(diff.removed().size());
        if (k == 1 && !diff.added().empty())
            title += tr(", %1 added").arg(diff.added().size());
        if (!diff.changed().empty() && models[k])
            title += tr(", %1 changed").arg(diff.changed().size());
        m_titles[k]->setText(title);
    }
}

QStringList CompareGraphPane::summaryLines(const compare::GraphDiff& diff)
{
    QStringList lines;
    if (diff.missing())
        lines << tr("The graphs cannot be compared: a side has no node list.");
    else if (diff.identical())
        lines << tr("The graphs are the same: %n node(s), each matched and unchanged.", "", diff.nodesA());
    // Up to kShownBlocks blocks above the graphs (each is coloured in them); all in the tooltip.
    constexpr int kShownBlocks = 6;
    QStringList blocks;
    for (const compare::NodeBlock& b : diff.blocks()) {
        const QString type
            = b.moduleType.empty() ? QString() : QStringLiteral(" (%1)").arg(QString::fromStdString(b.moduleType));
        blocks << tr("%1 %n node(s)%2%3", "", b.count)
                      .arg(b.added ? tr("Added") : tr("Removed"))
                      .arg(b.module.empty() ? QString() : tr(" in %1%2").arg(QString::fromStdString(b.module), type))
                      .arg(b.ops.empty() ? QString() : QStringLiteral(": ") + QString::fromStdString(b.ops));
    }
    const int hidden = std::max(0, static_cast<int>(blocks.size()) - kShownBlocks);
    lines << blocks.mid(0, kShownBlocks);
    if (hidden > 0)
        lines << tr("… and %n more block(s) (hover for all)", "", hidden);
    m_summary->setToolTip(hidden > 0 ? plainTip(blocks.join('\n')) : QString());
    // The outermost renames, up to three.
    QStringList renames;
    for (const auto& [from, to] : diff.outermostRenames())
        renames << tr("Module %1 is now %2").arg(QString::fromStdString(from), QString::fromStdString(to));
    lines << renames.mid(0, 3);
    if (renames.size() > 3)
        lines << tr("… and %n more module(s) renamed", "", static_cast<int>(renames.size()) - 3);
    if (!diff.changed().empty())
        lines << tr("%n matched node(s) changed (amber); select one to see its match.", "",
            static_cast<int>(diff.changed().size()));
    if (diff.approximate())
        lines << tr("The graphs differ too much for an exact alignment: the matching shown is approximate.");
    return lines;
}

QString CompareGraphPane::detail() const
{
    return m_detail->text();
}

QString CompareGraphPane::legend() const
{
    return tr("Green: only in %1 · red: only in %2 · amber: in both, changed. Select a node to see what changed.")
        .arg(m_labels[1], m_labels[0]);
}

QString CompareGraphPane::nodeName(int side, int node) const
{
    const auto& model = m_views[side]->graph();
    if (!model || node < 0 || node >= static_cast<int>(model->nodes().size()))
        return QString();
    const graph::GraphNode& n = model->nodes()[static_cast<std::size_t>(node)];
    return QString::fromStdString(n.qualname.empty() ? n.name : n.qualname);
}

QString CompareGraphPane::describe(int side, const QList<int>& nodes) const
{
    if (nodes.isEmpty())
        return legend();
    if (nodes.size() == 1) {
        const int n = nodes.front();
        const int m = matchOf(side, n);
        if (m < 0)
            return tr("%1 is only in %2 (%3).")
                .arg(nodeName(side, n), m_labels[side], side == 1 ? tr("added") : tr("removed"));
        const QString pair = side == 0
            ? tr("%1 (%2) ↔ %3 (%4)").arg(nodeName(0, n), m_labels[0], nodeName(1, m), m_labels[1])
            : tr("%1 (%2) ↔ %3 (%4)").arg(nodeName(0, m), m_labels[0], nodeName(1, n), m_labels[1]);
        const int c = n < static_cast<int>(m_change[side].size()) ? m_change[side][static_cast<std::size_t>(n)] : -1;
        if (c < 0)
            return tr("%1: the same on both sides.").arg(pair);
        QStringList fields;
        for (const compare::FieldChange& f : m_changes[static_cast<std::size_t>(c)].fields) {
            const auto [before, after] = compare::DiffText::values(f.before, f.after);
            fields << tr("%1 %2 → %3")
                          .arg(QString::fromStdString(f.field), QString::fromStdString(before),
                              QString::fromStdString(after));
        }
        return tr("%1 changed: %2").arg(pair, fields.join(QStringLiteral("; ")));
    }
    int only = 0;
    int changed = 0;
    for (int n : nodes) {
        if (matchOf(side, n) < 0)
            ++only;
        else if (n < static_cast<int>(m_change[side].size()) && m_change[side][static_cast<std::size_t>(n)] >= 0)
            ++changed;
    }
    return tr("%n node(s) selected in %1: %2 only there, %3 changed, %4 the same.", "", static_cast<int>(nodes.size()))
        .arg(m_labels[side])
        .arg(only)
        .arg(changed)
        .arg(static_cast<int>(nodes.size()) - only - changed);
}

void CompareGraphPane::refreshFills()
{
    const GraphView* views[2] = {m_views[0], m_views[1]};
    m_colouring.update(views);
    for (int k = 0; k < 2; ++k)
        if (m_views[k]->moduleTree())
            m_views[k]->setNodeFills(m_colouring.fillsFor(k, *m_views[k], m_views[k]->palette()));
}

bool CompareGraphPane::opening() const
{
    return m_opening->busy();
}

int CompareGraphPane::matchOf(int side, int node) const
{
    return indexAt(m_match[side], node);
}

QString CompareGraphPane::summary() const
{
    return m_summary->text();
}

void CompareGraphPane::onSelected(int side, const QList<int>& nodes)
{
    if (m_expect[side] >= 0 && nodes.contains(m_expect[side])) {
        // The selection this pane made, now shown (at once, or after the layout that revealed
        // it): centre it, and do not echo it back.
        if (GraphBoxItem* box = m_views[side]->boxOfNode(m_expect[side]))
            m_views[side]->canvas()->centerOn(box);
        m_expect[side] = -1;
        return;
    }
    if (m_syncing)
        return;
    m_detail->setText(describe(side, nodes));
    const int other = 1 - side;
    QList<int> matches;
    for (int n : nodes)
        if (int m = matchOf(side, n); m >= 0)
            matches << m;
    m_expect[other] = matches.isEmpty() ? -1 : matches.front();
    m_syncing = true;
    // One node: open what hides its match; a module box: the boxes showing its matches.
    m_views[other]->selectNodes(matches, nodes.size() == 1);
    m_syncing = false;
}

}  // namespace ps::ui
