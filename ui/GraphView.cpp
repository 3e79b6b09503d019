#include "ui/GraphView.h"

#include "ui/EdgesItem.h"
#include "ui/GraphCanvas.h"
#include "ui/GraphLayout.h"
#include "ui/GraphModel.h"
#include "ui/NodeItem.h"

#include <QFutureWatcher>
#include <QGraphicsScene>
#include <QHBoxLayout>
#include <QLabel>
#include <QSplitter>
#include <QStackedWidget>
#include <QTextBrowser>
#include <QToolButton>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

namespace ps::ui {

namespace {

constexpr qreal kMargin = 40;
constexpr qreal kReadableZoom = 0.75;  // node labels stay legible at this zoom

bool isDark(const QPalette& p)
{
    return p.color(QPalette::Base).lightness() < 128;
}

QColor mix(const QColor& a, const QColor& b, qreal t)
{
    return QColor::fromRgbF(a.redF() * (1 - t) + b.redF() * t, a.greenF() * (1 - t) + b.greenF() * t,
                            a.blueF() * (1 - t) + b.blueF() * t);
}

NodeItem::Colors colorsFor(const GraphNode& n, const QPalette& pal)
{
    const bool dark = isDark(pal);
    const QColor base = pal.color(QPalette::Base);
    const QColor text = pal.color(QPalette::Text);
    int hue = -1;
    if (n.kind == "parameter")
        hue = 120;
    else if (n.kind == "buffer")
        hue = 175;
    else if (n.kind == "input")
        hue = 210;
    else if (n.kind == "output")
        hue = 30;
    else if (n.phase == "backward")
        hue = 280;
    NodeItem::Colors c;
    if (hue < 0)
        c.fill = mix(base, text, dark ? 0.14 : 0.06);
    else
        c.fill = dark ? QColor::fromHsl(hue, 70, 62) : QColor::fromHsl(hue, 110, 222);
    if (n.kind == "constant")
        c.fill = mix(base, text, 0.2);
    c.border = mix(c.fill, text, 0.45);
    c.text = text;
    c.highlight = pal.color(QPalette::Highlight);
    return c;
}

QString esc(const std::string& s)
{
    return QString::fromStdString(s).toHtmlEscaped();
}

} // namespace

GraphView::GraphView(QWidget* parent) : QWidget(parent)
{
    m_scene = new QGraphicsScene(this);
    m_canvas = new GraphCanvas;
    m_canvas->setScene(m_scene);
    connect(m_scene, &QGraphicsScene::selectionChanged, this, &GraphView::onSelectionChanged);

    m_summary = new QLabel;
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto button = [this](const QString& text, const QString& tip, void (GraphView::*slot)()) {
        auto* b = new QToolButton;
        b->setText(text);
        b->setToolTip(tip);
        b->setAutoRaise(true);
        connect(b, &QToolButton::clicked, this, slot);
        return b;
    };
    auto* bar = new QHBoxLayout;
    bar->setContentsMargins(6, 2, 6, 2);
    bar->addWidget(m_summary, 1);
    bar->addWidget(button(tr("Fit"), tr("Show the whole graph"), &GraphView::zoomToFit));
    bar->addWidget(button(tr("1:1"), tr("Actual size"), &GraphView::zoomReset));
    bar->addWidget(button(tr("−"), tr("Zoom out (wheel down)"), &GraphView::zoomOut));
    bar->addWidget(button(tr("+"), tr("Zoom in (wheel up)"), &GraphView::zoomIn));

    m_details = new QTextBrowser;
    m_details->setOpenLinks(false);
    m_details->setPlaceholderText(tr("Select a node to see its shape, dtype, stride, device, module and source line."));

    auto* split = new QSplitter(Qt::Horizontal);
    split->addWidget(m_canvas);
    split->addWidget(m_details);
    split->setStretchFactor(0, 4);
    split->setStretchFactor(1, 1);
    split->setSizes({700, 260});

    auto* graphPage = new QWidget;
    auto* gl = new QVBoxLayout(graphPage);
    gl->setContentsMargins(0, 0, 0, 0);
    gl->setSpacing(0);
    gl->addLayout(bar);
    gl->addWidget(split, 1);

    m_message = new QLabel;
    m_message->setAlignment(Qt::AlignCenter);
    m_message->setWordWrap(true);
    m_message->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_message->setForegroundRole(QPalette::PlaceholderText);

    m_stack = new QStackedWidget;
    m_stack->addWidget(m_message);
    m_stack->addWidget(graphPage);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_stack);
    clear(tr("Run a script (Ctrl+R) or open a run from the library to see its graph."));
}

GraphView::~GraphView()
{
    // The scene deletes its items when it goes, emitting selectionChanged as it does.
    m_scene->disconnect(this);
    m_items.clear();
}

void GraphView::clear(const QString& message)
{
    ++m_generation;
    m_pending = false;
    m_selecting = true;
    m_scene->clear();
    m_selecting = false;
    m_items.clear();
    m_edges = nullptr;
    m_graph.reset();
    m_details->clear();
    m_message->setText(message);
    m_stack->setCurrentIndex(0);
}

void GraphView::setGraph(std::shared_ptr<const GraphModel> graph)
{
    if (!graph || graph->empty()) {
        QString why = graph && !graph->error().empty() ? QString::fromStdString(graph->error())
                                                       : tr("This capture has no graph.");
        clear(why);
        return;
    }
    clear(tr("Laying out %n node(s)…", nullptr, static_cast<int>(graph->nodes().size())));
    m_graph = graph;
    m_pending = true;
    const quint64 generation = m_generation;
    auto* watcher = new QFutureWatcher<GraphLayoutResult>(this);
    connect(watcher, &QFutureWatcher<GraphLayoutResult>::finished, this, [this, watcher, generation]() {
        watcher->deleteLater();
        if (generation != m_generation)
            return;  // a newer graph (or none) replaced this one meanwhile
        m_pending = false;
        buildScene(watcher->result());
    });
    watcher->setFuture(QtConcurrent::run([graph]() { return GraphLayout::compute(*graph); }));
}

void GraphView::buildScene(const GraphLayoutResult& layout)
{
    const auto& nodes = m_graph->nodes();
    const QPalette pal = palette();
    m_selecting = true;
    m_scene->clear();
    m_items.assign(nodes.size(), nullptr);
    std::vector<EdgesItem::Edge> edges;
    edges.reserve(m_graph->edgeCount());
    const qreal w = layout.nodeWidth, h = layout.nodeHeight;
    for (std::size_t i = 0; i < nodes.size(); ++i) {
        const auto& b = layout.boxes[i];
        auto* item = new NodeItem(static_cast<int>(i), &nodes[i], QRectF(b.x, b.y, w, h), colorsFor(nodes[i], pal));
        m_scene->addItem(item);
        m_items[i] = item;
        for (int from : nodes[i].inputs) {
            const auto& fb = layout.boxes[from];
            edges.push_back({from, static_cast<int>(i), QPointF(fb.x + w / 2, fb.y + h), QPointF(b.x + w / 2, b.y)});
        }
    }
    m_edges = new EdgesItem(std::move(edges), pal.color(QPalette::PlaceholderText), pal.color(QPalette::Highlight));
    m_scene->addItem(m_edges);
    m_scene->setSceneRect(QRectF(-kMargin, -kMargin, layout.width + 2 * kMargin, layout.height + 2 * kMargin));
    m_selecting = false;

    std::size_t placeholders = 0;
    for (const auto& n : nodes)
        placeholders += n.op == "placeholder";
    QString summary = tr("%1 nodes · %2 edges · %3 inputs · %4 layers")
                          .arg(nodes.size()).arg(m_graph->edgeCount()).arg(placeholders).arg(layout.layerCount);
    if (!m_graph->complete())
        summary += tr(" · partial: precompile stopped before the capture finished");
    m_summary->setText(summary);
    m_stack->setCurrentIndex(1);
    m_canvas->fitScene(kReadableZoom);
    showDetails({});
    emit graphShown();
}

QList<int> GraphView::selectedNodes() const
{
    QList<int> out;
    for (auto* item : m_scene->selectedItems())
        if (item->type() == NodeItem::Type)
            out.append(static_cast<NodeItem*>(item)->index());
    std::sort(out.begin(), out.end());
    return out;
}

void GraphView::selectNodes(const QList<int>& nodes, bool reveal)
{
    m_selecting = true;
    m_scene->clearSelection();
    NodeItem* first = nullptr;
    for (int i : nodes) {
        if (i < 0 || i >= static_cast<int>(m_items.size()) || !m_items[i])
            continue;
        m_items[i]->setSelected(true);
        if (!first)
            first = m_items[i];
    }
    m_selecting = false;
    if (reveal && first)
        m_canvas->ensureVisible(first, 60, 60);
    onSelectionChanged();
}

QPointF GraphView::nodeCenter(int node) const
{
    if (node < 0 || node >= static_cast<int>(m_items.size()) || !m_items[node])
        return {};
    return m_items[node]->boundingRect().center();
}

void GraphView::onSelectionChanged()
{
    if (m_selecting)
        return;
    const QList<int> selected = selectedNodes();
    QList<int> related;
    for (auto* item : m_items)
        if (item)
            item->setRelated(false);
    if (m_graph) {
        for (int i : selected) {
            const auto& n = m_graph->nodes()[i];
            for (int j : n.inputs)
                related.append(j);
            for (int j : n.users)
                related.append(j);
        }
        for (int j : related)
            m_items[j]->setRelated(true);
    }
    if (m_edges)
        m_edges->setHighlighted(selected);
    showDetails(selected);
    emit nodesSelected(selected);
}

void GraphView::showDetails(const QList<int>& selected)
{
    if (!m_graph || selected.isEmpty()) {
        m_details->clear();
        return;
    }
    const auto& nodes = m_graph->nodes();
    if (selected.size() > 1) {
        QString html = tr("<b>%1 nodes selected</b><ul>").arg(selected.size());
        for (int k = 0; k < selected.size() && k < 50; ++k)
            html += "<li>" + esc(nodes[selected[k]].name) + " — " + esc(nodes[selected[k]].shortTarget()) + "</li>";
        m_details->setHtml(html + "</ul>");
        return;
    }
    const auto& n = nodes[selected.front()];
    auto row = [](const QString& key, const QString& value) {
        return "<tr><td style='padding-right:8px'><i>" + key + "</i></td><td>" + value + "</td></tr>";
    };
    auto names = [&](const std::vector<int>& list) {
        QStringList out;
        for (int i : list)
            out << esc(nodes[i].name);
        return out.isEmpty() ? QStringLiteral("—") : out.join(", ");
    };
    QString html = "<h3>" + esc(n.name) + "</h3><table>";
    html += row(tr("target"), esc(n.target));
    html += row(tr("op"), esc(n.op));
    html += row(tr("kind"), esc(n.kind) + (n.phase.empty() ? QString() : " · " + esc(n.phase)));
    if (!n.qualname.empty())
        html += row(tr("name"), esc(n.qualname));
    html += row(tr("shape"), n.shape.empty() ? QStringLiteral("—") : esc(n.shape));
    html += row(tr("dtype"), n.dtype.empty() ? QStringLiteral("—") : esc(n.dtype));
    html += row(tr("stride"), n.stride.empty() ? QStringLiteral("—") : esc(n.stride));
    html += row(tr("device"), n.device.empty() ? QStringLiteral("—") : esc(n.device));
    html += row(tr("module"), n.modulePath.empty() ? QStringLiteral("—")
                                                   : esc(n.modulePath) + " (" + esc(n.moduleType) + ")");
    html += row(tr("source"), n.sourceLine > 0 ? tr("line %1").arg(n.sourceLine) : QStringLiteral("—"));
    if (!n.outputRole.empty())
        html += row(tr("output"), esc(n.outputRole));
    html += row(tr("inputs"), names(n.inputs));
    html += row(tr("users"), names(n.users));
    m_details->setHtml(html + "</table>");
}

QString GraphView::detailsText() const
{
    return m_details->toPlainText();
}

QString GraphView::message() const
{
    return m_stack->currentIndex() == 0 ? m_message->text() : QString();
}

void GraphView::zoomIn()
{
    m_canvas->zoomBy(1.25);
}

void GraphView::zoomOut()
{
    m_canvas->zoomBy(0.8);
}

void GraphView::zoomToFit()
{
    m_canvas->fitScene(0.0);
}

void GraphView::zoomReset()
{
    m_canvas->setZoom(1.0);
}

} // namespace ps::ui
