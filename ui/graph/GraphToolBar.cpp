#include "ui/graph/GraphToolBar.h"

#include "graph/GraphModel.h"
#include "ui/common/Plural.h"
#include "ui/common/QtText.h"
#include "ui/graph/LensPalette.h"

#include <QComboBox>
#include <QEvent>
#include <QFontMetrics>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QResizeEvent>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

namespace ps::ui {

namespace { }  // namespace

GraphToolBar::GraphToolBar(QWidget* parent) : QWidget(parent)
{
    auto button = [this](const QString& text, const QString& tip, void (GraphToolBar::*signal)()) {
        auto* b = new QToolButton;
        b->setText(text);
        b->setToolTip(tip);
        b->setAutoRaise(true);
        connect(b, &QToolButton::clicked, this, signal);
        return b;
    };

    // Row 1: summary, search.
    m_summary = new QLabel;
    m_summary->setTextFormat(Qt::PlainText);  // run-derived text
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    // A long summary is cut rather than widening the window.
    m_summary->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_summary->installEventFilter(this);
    m_search = new QLineEdit;
    m_search->setObjectName(QStringLiteral("graphSearch"));
    m_search->setPlaceholderText(tr("Find node: name, op, module, shape or source"));
    m_search->setClearButtonEnabled(true);
    m_search->setMinimumWidth(180);
    m_searchField = new QComboBox;
    m_searchField->addItem(tr("any"), int(graph::SearchField::Any));
    m_searchField->addItem(tr("name"), int(graph::SearchField::Name));
    m_searchField->addItem(tr("op"), int(graph::SearchField::Op));
    m_searchField->addItem(tr("module"), int(graph::SearchField::Module));
    m_searchField->addItem(tr("shape"), int(graph::SearchField::Shape));
    m_searchField->addItem(tr("source"), int(graph::SearchField::Source));
    m_matchLabel = new QLabel;
    m_matchLabel->setObjectName(QStringLiteral("graphMatchCount"));
    // wide enough for "999 matches" and "999 / 999": never cut
    m_matchLabel->setMinimumWidth(m_matchLabel->fontMetrics().horizontalAdvance(QStringLiteral("999 matches")));
    m_debounce = new QTimer(this);
    m_debounce->setSingleShot(true);
    m_debounce->setInterval(150);
    connect(m_search, &QLineEdit::textChanged, m_debounce, qOverload<>(&QTimer::start));
    connect(m_searchField, &QComboBox::currentIndexChanged, m_debounce, qOverload<>(&QTimer::start));
    connect(m_debounce, &QTimer::timeout, this, &GraphToolBar::emitSearch);
    connect(m_search, &QLineEdit::returnPressed, this, [this]() {
        if (m_debounce->isActive()) {  // Enter typed before the pause: search what is typed now
            m_debounce->stop();
            emitSearch();
        }
        emit findNext();
    });
    auto* row1 = new QHBoxLayout;
    row1->setContentsMargins(6, 2, 6, 0);
    row1->addWidget(m_summary, 1);
    row1->addWidget(m_search);
    row1->addWidget(m_searchField);
    row1->addWidget(button(tr("▲"), tr("Previous match (Shift+Enter)"), &GraphToolBar::findPrevious));
    row1->addWidget(button(tr("▼"), tr("Next match (Enter)"), &GraphToolBar::findNext));
    row1->addWidget(m_matchLabel);

    // Row 2: lens, depth, legend, collapse, export, side panel, zoom.
    m_lensBox = new QComboBox;
    for (auto l : graph::GraphLens::all())
        m_lensBox->addItem(QString::fromStdString(graph::GraphLens::name(l)), int(l));
    m_lensBox->setToolTip(tr("Colour the graph by node kind, op kind, module, fused kernel (inductor), where "
                             "the dtype or the memory layout changes, the source line that made each node, or "
                             "what was measured: time (Run > Profile), error against float64, memory"));
    connect(m_lensBox, &QComboBox::currentIndexChanged, this, [this]() {
        const auto lens = static_cast<graph::Lens>(m_lensBox->currentData().toInt());
        m_scopeBox->setVisible(lens == graph::Lens::Source);
        emit lensChanged(lens);
    });
    // The source lens's scope: the innermost line of the user's code, or of one package.
    m_scopeBox = new QComboBox;
    m_scopeBox->setObjectName(QStringLiteral("graphSourceScope"));
    m_scopeBox->setToolTip(tr("Group nodes by the innermost line of your code that made them, or of a package's "
                              "(torchvision's resnet.py)"));
    m_scopeBox->addItem(tr("your code"), QString());
    m_scopeBox->setVisible(false);
    connect(m_scopeBox, &QComboBox::currentIndexChanged, this,
        [this]() { emit sourceScopeChanged(m_scopeBox->currentData().toString()); });
    m_depthBox = new QSpinBox;
    m_depthBox->setRange(0, 20);
    m_depthBox->setValue(1);
    m_depthBox->setToolTip(tr("How many levels of inputs (blue) and users (orange) of the selection to highlight"));
    connect(m_depthBox, &QSpinBox::valueChanged, this, &GraphToolBar::depthChanged);
    m_legend = new QLabel;
    m_legend->setTextFormat(Qt::RichText);
    // A long legend (a kernel per colour) is cut at the edge, never widening the window; its
    // tooltip lists it whole.
    m_legend->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_legend->setMinimumWidth(m_legend->fontMetrics().horizontalAdvance(QStringLiteral("+99")) + 4);
    m_legend->installEventFilter(this);  // the entries that fit are chosen at each width
    m_panelButton = new QToolButton;
    m_panelButton->setObjectName(QStringLiteral("graphSidePanelToggle"));
    m_panelButton->setText(tr("Modules && details"));
    m_panelButton->setToolTip(tr("Show or hide the module tree and the selection's details beside the graph"));
    m_panelButton->setCheckable(true);
    m_panelButton->setAutoRaise(true);
    connect(m_panelButton, &QToolButton::toggled, this, &GraphToolBar::sidePanelToggled);
    auto* row2 = m_lensRow = new QHBoxLayout;
    row2->setContentsMargins(6, 0, 6, 2);
    row2->addWidget(new QLabel(tr("Lens ")));
    row2->addWidget(m_lensBox);
    row2->addWidget(m_scopeBox);
    row2->addWidget(new QLabel(tr("Depth")));
    row2->addWidget(m_depthBox);
    row2->addWidget(m_legend, 1);
    row2->addStretch(0);  // keeps the buttons at the right while the legend is on its own row
    row2->addWidget(
        button(tr("Expand all"), tr("Show every node (slow on very large graphs)"), &GraphToolBar::expandAll));
    row2->addWidget(button(tr("Collapse all"), tr("One box per top-level module"), &GraphToolBar::collapseAll));
    row2->addWidget(button(tr("Export…"), tr("Save the visible graph as SVG or PNG"), &GraphToolBar::exportRequested));
    row2->addWidget(m_panelButton);
    row2->addWidget(button(tr("Fit"), tr("Show the whole graph (Ctrl+0)"), &GraphToolBar::zoomToFit));
    row2->addWidget(button(tr("1:1"), tr("Actual size"), &GraphToolBar::zoomReset));
    row2->addWidget(button(tr("−"), tr("Zoom out (wheel down)"), &GraphToolBar::zoomOut));
    row2->addWidget(button(tr("+"), tr("Zoom in (wheel up)"), &GraphToolBar::zoomIn));

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addLayout(row1);
    layout->addLayout(row2);
    m_legendRow = new QHBoxLayout;  // row 3: a measured legend too wide for row 2
    m_legendRow->setContentsMargins(6, 0, 6, 2);
    layout->addLayout(m_legendRow);
}

void GraphToolBar::emitSearch()
{
    emit searchChanged(searchText(), searchField());
}

QString GraphToolBar::searchText() const
{
    return m_search->text();
}

graph::SearchField GraphToolBar::searchField() const
{
    return static_cast<graph::SearchField>(m_searchField->currentData().toInt());
}

void GraphToolBar::setSearch(const QString& text, graph::SearchField field)
{
    if (m_search->text() != text) {
        const QSignalBlocker block(m_search);
        m_search->setText(text);
    }
    const int fi = m_searchField->findData(int(field));
    if (fi >= 0 && fi != m_searchField->currentIndex()) {
        const QSignalBlocker block(m_searchField);
        m_searchField->setCurrentIndex(fi);
    }
    m_debounce->stop();  // what was typed is searched now
}

void GraphToolBar::clearSearch()
{
    setSearch(QString(), searchField());
    setMatches({}, false);
}

void GraphToolBar::setMatches(std::vector<int> matches, bool searched)
{
    m_matches = std::move(matches);
    m_matchIndex = -1;
    if (!searched)
        m_matchLabel->clear();
    else
        showMatchCount();
}

void GraphToolBar::showMatchCount()
{
    m_matchLabel->setText(
        m_matches.empty() ? tr("no match") : (matchCount() == 1 ? tr("1 match") : tr("%1 matches").arg(matchCount())));
}

int GraphToolBar::currentMatchNode() const
{
    return m_matchIndex >= 0 && m_matchIndex < matchCount() ? m_matches[static_cast<std::size_t>(m_matchIndex)] : -1;
}

int GraphToolBar::stepMatch(int step)
{
    if (m_matches.empty())
        return -1;
    m_matchIndex = step > 0 ? (m_matchIndex + 1) % matchCount() : (m_matchIndex <= 0 ? matchCount() : m_matchIndex) - 1;
    m_matchLabel->setText(tr("%1 / %2").arg(m_matchIndex + 1).arg(matchCount()));
    return currentMatchNode();
}

void GraphToolBar::focusSearch()
{
    m_search->setFocus(Qt::ShortcutFocusReason);
    m_search->selectAll();
}

void GraphToolBar::setSummary(const QString& text, const QString& tip)
{
    m_summaryText = text;
    m_summary->setToolTip(tip.isEmpty() ? text : tip);
    elideSummary();
}

void GraphToolBar::setSummary(const graph::GraphModel& graph, int layers, int collapsed)
{
    std::size_t placeholders = 0;
    for (const auto& n : graph.nodes())
        placeholders += n.op == "placeholder";
    const QStringList counts{counted(qint64(graph.nodes().size()), tr("node"), tr("nodes")),
        counted(qint64(graph.edgeCount()), tr("edge"), tr("edges")),
        counted(qint64(placeholders), tr("input"), tr("inputs")), counted(layers, tr("layer"), tr("layers"))};
    QStringList shown = counts, told = counts;
    if (collapsed > 0) {
        shown << tr("%1 collapsed").arg(collapsed);
        told << counted(collapsed, tr("collapsed module"), tr("collapsed modules"));
    }
    // What matters most first: a narrow toolbar cuts the end, never the word "partial".
    QString tip = told.join(QStringLiteral(" · "));
    if (!graph.complete()) {
        shown.prepend(tr("Partial graph"));
        tip = tr("Partial graph: precompile stopped before the capture finished.") + '\n' + tip;
    }
    setSummary(shown.join(QStringLiteral(" · ")), tip);
}

void GraphToolBar::setLens(graph::Lens lens)
{
    m_scopeBox->setVisible(lens == graph::Lens::Source);
    if (m_lensBox->currentData().toInt() == int(lens))
        return;
    const QSignalBlocker block(m_lensBox);
    m_lensBox->setCurrentIndex(m_lensBox->findData(int(lens)));
}

void GraphToolBar::setSourceScopes(const std::vector<std::string>& packages)
{
    const QString current = sourceScope();
    const QSignalBlocker block(m_scopeBox);
    m_scopeBox->clear();
    m_scopeBox->addItem(tr("your code"), QString());
    for (const auto& p : packages)
        m_scopeBox->addItem(tr("in %1").arg(QString::fromStdString(p)), QString::fromStdString(p));
    m_scopeBox->setCurrentIndex(std::max(0, m_scopeBox->findData(current)));
}

QString GraphToolBar::sourceScope() const
{
    return m_scopeBox->currentData().toString();
}

bool GraphToolBar::setSourceScope(const QString& scope)
{
    const int index = m_scopeBox->findData(scope);
    if (index < 0)
        return false;
    const QSignalBlocker block(m_scopeBox);
    m_scopeBox->setCurrentIndex(index);
    return true;
}

void GraphToolBar::setDepth(int depth)
{
    if (m_depthBox->value() == depth)
        return;
    const QSignalBlocker block(m_depthBox);
    m_depthBox->setValue(depth);
}

void GraphToolBar::setLegend(const std::vector<std::pair<std::string, int>>& counts, graph::Lens lens)
{
    m_measureLegend.clear();
    placeLegend(false);  // the categories' legend is cut to fit beside the lens
    m_legendCounts = counts;
    m_legendLens = lens;
    m_legendSet = true;
    m_legendEntries.clear();
    for (const auto& [name, n] : counts)
        m_legendEntries << QStringLiteral("%1 (%2)").arg(QString::fromStdString(name)).arg(n);
    m_legend->setToolTip(plainTip(m_legendEntries.join('\n')));
    renderLegend();
}

void GraphToolBar::setMeasureLegend(const QStringList& forms, const QString& tip)
{
    clearLegend();
    m_measureLegend = forms;
    m_legendEntries << tip;
    m_legend->setToolTip(plainTip(tip));
    renderMeasureLegend();
}

bool GraphToolBar::legendOnItsOwnRow() const
{
    return m_legendRow->indexOf(m_legend) >= 0;
}

int GraphToolBar::roomBesideLens() const
{
    int others = 0, count = 0;
    for (int i = 0; i < m_lensRow->count(); ++i) {
        QWidget* w = m_lensRow->itemAt(i)->widget();
        if (!w || w == m_legend || w->isHidden())
            continue;
        others += w->sizeHint().width();
        ++count;
    }
    const QMargins margins = m_lensRow->contentsMargins();
    return width() - margins.left() - margins.right() - others - count * std::max(0, m_lensRow->spacing());
}

void GraphToolBar::renderMeasureLegend()
{
    if (m_placing || m_measureLegend.isEmpty())
        return;
    m_placing = true;
    // The fullest form no wider than `room`, else "".
    const auto fullest = [this](int room) {
        for (const QString& form : m_measureLegend) {
            m_legend->setText(form);
            if (m_legend->sizeHint().width() <= room)
                return form;
        }
        return QString();
    };
    QString chosen = fullest(roomBesideLens());
    const bool ownRow = chosen.isEmpty();
    placeLegend(ownRow);
    if (ownRow) {  // the fullest form that fits the row, else the briefest
        const QMargins margins = m_legendRow->contentsMargins();
        chosen = fullest(width() - margins.left() - margins.right());
        if (chosen.isEmpty())
            chosen = m_measureLegend.back();
    }
    m_legend->setText(chosen);
    m_placing = false;
}

void GraphToolBar::setLensAvailable(graph::Lens lens, const QString& why)
{
    auto* model = qobject_cast<QStandardItemModel*>(m_lensBox->model());
    const int index = m_lensBox->findData(int(lens));
    if (!model || index < 0)
        return;
    QStandardItem* item = model->item(index);
    item->setEnabled(why.isEmpty());
    item->setToolTip(plainTip(why));
}

bool GraphToolBar::lensAvailable(graph::Lens lens, QString* why) const
{
    const auto* model = qobject_cast<const QStandardItemModel*>(m_lensBox->model());
    const int index = m_lensBox->findData(int(lens));
    if (!model || index < 0)
        return false;
    if (why)
        *why = model->item(index)->toolTip();
    return model->item(index)->isEnabled();
}

void GraphToolBar::renderLegend()
{
    if (!m_measureLegend.isEmpty()) {
        renderMeasureLegend();
        return;
    }
    const QPalette pal = palette();
    const std::size_t total = m_legendCounts.size();
    auto label = [](const std::string& name) { return name.size() > 28 ? "…" + name.substr(name.size() - 27) : name; };
    auto html = [&](std::size_t shown) {
        QString text;
        for (std::size_t k = 0; k < shown; ++k)
            text += QStringLiteral("<span style='background:%1'>&nbsp;&nbsp;&nbsp;</span>&nbsp;%2&nbsp;&nbsp;")
                        .arg(LensPalette::fill(m_legendCounts[k].first, pal).name(),
                            escaped(label(m_legendCounts[k].first)));
        if (total > shown)
            text += tr("+%1 more").arg(total - shown);
        return text;
    };
    // As many whole entries as the label shows at its width, measured as the label lays them out.
    std::size_t shown = std::min<std::size_t>(total, 8);
    for (; shown > 0; --shown) {
        m_legend->setText(html(shown));
        if (m_legend->sizeHint().width() <= m_legend->width())
            break;
    }
    QString text = html(shown);
    if (shown == 0 && total > 0) {
        m_legend->setText(text);
        if (m_legend->sizeHint().width() > m_legend->width())
            text = QStringLiteral("+%1").arg(total);  // the narrowest form; the tooltip lists them
    }
    if (total == 0 && m_legendSet && m_legendLens == graph::Lens::Kernel)
        text = tr("<i>no kernels: the eager backend generates none, or the lowering named none</i>");
    m_legendShown = static_cast<int>(shown);
    m_legend->setText(text);
}

void GraphToolBar::elideSummary()
{
    // cut with an ellipsis at the label's edge (the whole text is the tooltip), never mid-letter
    m_summary->setText(m_summary->fontMetrics().elidedText(m_summaryText, Qt::ElideRight, m_summary->width()));
}

bool GraphToolBar::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == m_legend && event->type() == QEvent::Resize)
        renderLegend();
    if (watched == m_summary && event->type() == QEvent::Resize)
        elideSummary();
    return QWidget::eventFilter(watched, event);
}

void GraphToolBar::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    if (!m_measureLegend.isEmpty())  // where the legend goes depends on the toolbar's width
        renderMeasureLegend();
}

void GraphToolBar::clearLegend()
{
    m_measureLegend.clear();
    m_legendEntries.clear();
    m_legendCounts.clear();
    m_legendSet = false;
    m_legendShown = 0;
    m_legend->clear();
    m_legend->setToolTip(QString());
    placeLegend(false);
}

void GraphToolBar::placeLegend(bool ownRow)
{
    if (ownRow == legendOnItsOwnRow())
        return;
    (ownRow ? m_lensRow : m_legendRow)->removeWidget(m_legend);
    if (ownRow)
        m_legendRow->addWidget(m_legend, 1);
    else
        m_lensRow->insertWidget(m_lensRow->indexOf(m_depthBox) + 1, m_legend, 1);
}

void GraphToolBar::setSidePanelShown(bool shown)
{
    const QSignalBlocker block(m_panelButton);
    m_panelButton->setChecked(shown);
}

void GraphToolBar::setSidePanelToggleVisible(bool visible)
{
    m_panelButton->setVisible(visible);
}

}  // namespace ps::ui
