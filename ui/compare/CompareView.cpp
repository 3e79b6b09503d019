#include "ui/compare/CompareView.h"
#include "ui/common/WindowPlacement.h"

#include "ui/common/QtText.h"
#include "ui/compare/CompareCodePane.h"
#include "ui/compare/CompareGraphPane.h"
#include "ui/compare/CompareTablePane.h"
#include "ui/compare/DiffColours.h"
#include "ui/run/RunDocument.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QKeySequence>
#include <QLabel>
#include <QShortcut>
#include <QSignalBlocker>
#include <QTabWidget>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

namespace ps::ui {

namespace {

using nlohmann::json;

const json& captureAt(const compare::RunSide& side, int index)
{
    static const json kNull;
    const json& captures
        = side.report.is_object() && side.report.contains("captures") ? side.report["captures"] : kNull;
    if (index < 0 || !captures.is_array() || index >= static_cast<int>(captures.size()))
        return kNull;
    return captures[static_cast<std::size_t>(index)];
}

std::optional<std::string> codeAt(const compare::RunSide& side, int index)
{
    if (index < 0 || index >= static_cast<int>(side.pythonCode.size()))
        return std::nullopt;
    return side.pythonCode[static_cast<std::size_t>(index)];
}

}  // namespace

CompareView::CompareView(compare::RunSide a, compare::RunSide b, QWidget* parent)
    : QWidget(parent, Qt::Window), m_sides{std::move(a), std::move(b)}
{
    setObjectName(QStringLiteral("compareWindow"));
    setAttribute(Qt::WA_DeleteOnClose);
    setAttribute(Qt::WA_QuitOnClose, false);  // the main window decides when the studio ends

    // The verdict first, in the colours the graphs use.
    m_verdict = new QLabel;
    m_verdict->setObjectName(QStringLiteral("compareVerdict"));
    m_verdict->setTextFormat(Qt::PlainText);
    m_verdict->setSizePolicy(
        QSizePolicy::Ignored, QSizePolicy::Preferred);  // a long line is wrapped or cut, never widening the window
    m_verdict->setTextInteractionFlags(Qt::TextSelectableByMouse);
    QFont big = m_verdict->font();
    big.setBold(true);
    big.setPointSizeF(big.pointSizeF() * 1.2);
    m_verdict->setFont(big);
    m_verdict->setAutoFillBackground(true);
    m_verdict->setContentsMargins(8, 4, 8, 4);
    m_why = new QLabel;
    m_why->setObjectName(QStringLiteral("compareWhy"));
    m_why->setTextFormat(Qt::PlainText);
    m_why->setSizePolicy(
        QSizePolicy::Ignored, QSizePolicy::Preferred);  // a long line is wrapped or cut, never widening the window
    m_why->setWordWrap(true);
    m_why->setTextInteractionFlags(Qt::TextSelectableByMouse);

    // Swap: the other run becomes the base (left), so that an added layer reads as added.
    m_swap = new QToolButton;
    m_swap->setObjectName(QStringLiteral("compareSwap"));
    m_swap->setText(tr("⇄ Swap Sides"));
    m_swap->setToolButtonStyle(Qt::ToolButtonTextOnly);
    m_swap->setToolTip(tr("Make the run on the right the base (left) and compare again (%1)")
                           .arg(swapKey().toString(QKeySequence::NativeText)));
    connect(m_swap, &QToolButton::clicked, this, &CompareView::swapSides);
    auto* swapKeyShortcut = new QShortcut(swapKey(), this);
    connect(swapKeyShortcut, &QShortcut::activated, this, &CompareView::swapSides);
    auto* verdictRow = new QHBoxLayout;
    verdictRow->setContentsMargins(0, 0, 0, 0);
    verdictRow->addWidget(m_verdict, 1);
    verdictRow->addWidget(m_swap, 0, Qt::AlignVCenter);

    m_captures = new QComboBox;
    m_captures->setObjectName(QStringLiteral("compareCaptures"));
    auto* captureRow = new QHBoxLayout;
    captureRow->addWidget(new QLabel(tr("Capture:")));
    captureRow->addWidget(m_captures);
    captureRow->addStretch(1);
    m_captureBar = new QWidget;
    m_captureBar->setLayout(captureRow);
    captureRow->setContentsMargins(0, 0, 0, 0);

    m_graph = new CompareGraphPane;
    m_code = new CompareCodePane;
    m_table = new CompareTablePane;
    m_tabs = new QTabWidget;
    m_tabs->setDocumentMode(true);
    m_tabs->addTab(m_graph, tr("Graph"));
    m_tabs->addTab(m_code, tr("Code"));
    m_tabs->addTab(m_table, tr("Cache · Verify · Timings"));

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->addLayout(verdictRow);
    layout->addWidget(m_why);
    layout->addWidget(m_captureBar);
    layout->addWidget(m_tabs, 1);
    auto* close = new QShortcut(QKeySequence::Close, this);
    connect(close, &QShortcut::activated, this, &QWidget::close);
    // Escape closes it too, as it closes a dialog (a field that uses Escape takes it first).
    auto* escape = new QShortcut(QKeySequence(Qt::Key_Escape), this);
    connect(escape, &QShortcut::activated, this, &QWidget::close);
    connect(m_captures, &QComboBox::currentIndexChanged, this, &CompareView::setCapture);

    showDiff();
    // Where the difference is: the same graph lowered differently opens on the code.
    if (!m_diff.captures().empty()) {
        const compare::CaptureComparison& c
            = m_diff.captures()[static_cast<std::size_t>(std::max(0, m_captures->currentIndex()))];
        if (c.graph.identical() && c.code.present() && !c.code.identical())
            m_tabs->setCurrentIndex(CodeTab);
    }
}

QKeySequence CompareView::swapKey()
{
    return QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_X);
}

QList<QPair<QString, QString>> CompareView::keyHelp()
{
    return {
        {tr("Swap the sides: compare with the other run as the base"), swapKey().toString(QKeySequence::NativeText)},
        {tr("Compare two runs (select both in the library)"),
            tr("Ctrl+click (or Shift+arrows) two runs, then Enter, the Compare button or the menu key")},
        {tr("Close the Compare window"), tr("Esc")}, {tr("Select a node's match on the other side"), tr("click it")},
        {tr("Walk the graph's nodes, expand and collapse (as in the Graph tab)"), tr("arrows, Enter, +, -")}};
}

void CompareView::showDiff()
{
    m_diff = compare::RunDiff::compare(m_sides[0], m_sides[1]);
    const QString labels[2] = {q(m_sides[0].label), q(m_sides[1].label)};
    setWindowTitle(tr("Compare %1 and %2 — Precompile Studio").arg(labels[0], labels[1]));
    QPalette pal = m_verdict->palette();
    pal.setColor(QPalette::Window, m_diff.equivalent() ? DiffColours::added() : DiffColours::changed());
    pal.setColor(QPalette::WindowText, Qt::black);
    m_verdict->setPalette(pal);
    m_verdict->setText(verdictText());
    m_why->setText(whyLines().join('\n'));
    m_why->setVisible(!whyLines().isEmpty());

    // The captures, the one shown kept by name (else the first that differs).
    const QString shown = m_captures->currentIndex() >= 0 ? m_captures->currentData().toString() : QString();
    const QSignalBlocker block(m_captures);
    m_captures->clear();
    int current = -1;
    for (std::size_t i = 0; i < m_diff.captures().size(); ++i) {
        const compare::CaptureComparison& c = m_diff.captures()[i];
        m_captures->addItem(
            tr("capture %1: %2 (%3 | %4)")
                .arg(q(c.name), c.equivalent ? tr("equivalent") : tr("differs"),
                    c.statusA.empty() ? tr("absent") : q(c.statusA), c.statusB.empty() ? tr("absent") : q(c.statusB)),
            q(c.name));
        if (current < 0 && !shown.isEmpty() && q(c.name) == shown)
            current = static_cast<int>(i);
    }
    for (std::size_t i = 0; i < m_diff.captures().size() && current < 0; ++i)
        if (!m_diff.captures()[i].equivalent)
            current = static_cast<int>(i);
    m_captureBar->setVisible(m_diff.captures().size() > 1);
    m_tabs->setEnabled(!m_diff.captures().empty());
    if (m_diff.captures().empty())
        return;
    m_captures->setCurrentIndex(std::max(current, 0));
    if (m_graphShown >= 0)
        m_graphShown = -1;  // shown again, compared the other way
    setCapture(m_captures->currentIndex());
}

void CompareView::swapSides()
{
    std::swap(m_sides[0], m_sides[1]);
    showDiff();
}

compare::RunSide CompareView::sideOf(const RunDocument& run, const QString& label)
{
    compare::RunSide side;
    side.label = label.toStdString();
    side.report = run.report.toJson();
    side.scriptText = run.scriptText;
    for (std::size_t i = 0; i < run.report.captures.size(); ++i) {
        const run::CaptureBytes* bytes = run.artifact(i);
        side.pythonCode.push_back(bytes ? bytes->pythonCode : std::nullopt);
    }
    return side;
}

QString CompareView::verdictText() const
{
    const QString a = q(m_sides[0].label), b = q(m_sides[1].label);
    if (m_diff.equivalent())
        return tr("Equivalent: %1 and %2 made the same artifacts (captures, graphs, python_code, cache).").arg(a, b);
    if (m_diff.captures().empty())
        return tr("Differ: %1 and %2 have no captures to compare.").arg(a, b);
    return tr("Differ: %1 and %2 made different artifacts.").arg(a, b);
}

QStringList CompareView::whyLines() const
{
    QStringList lines;
    int n = 0;
    for (const std::string& w : m_diff.why())
        lines << QStringLiteral("%1. %2").arg(++n).arg(q(w));
    if (lines.isEmpty() && !m_diff.equivalent())
        lines << tr("No cause found in what the runs record (script, inputs, options, torch, machine); "
                    "see the tabs for what differs.");
    return lines;
}

void CompareView::setCapture(int index)
{
    if (index < 0 || index >= static_cast<int>(m_diff.captures().size()))
        return;
    const compare::CaptureComparison& c = m_diff.captures()[static_cast<std::size_t>(index)];
    const QString labels[2] = {q(m_sides[0].label), q(m_sides[1].label)};
    if (m_graphShown != -2)
        showGraphs();
    m_code->setCapture(codeAt(m_sides[0], c.indexA), codeAt(m_sides[1], c.indexB), c.code, labels[0], labels[1]);
    m_table->setCapture(c, m_diff.provenance(), labels[0], labels[1]);
}

void CompareView::showGraphs()
{
    const int index = m_captures->currentIndex();
    if (index < 0 || index >= static_cast<int>(m_diff.captures().size()) || index == m_graphShown)
        return;
    m_graphShown = index;
    // The Graph tab laid out for a moment if another one is in front (a hidden tab has no size),
    // within this call: nothing is painted in between.
    const int tab = m_tabs->currentIndex();
    m_tabs->setCurrentIndex(GraphTab);
    const compare::CaptureComparison& c = m_diff.captures()[static_cast<std::size_t>(index)];
    m_graph->setCapture(captureAt(m_sides[0], c.indexA), captureAt(m_sides[1], c.indexB), c.graph, q(m_sides[0].label),
        q(m_sides[1].label));
    m_tabs->setCurrentIndex(tab);
}

void CompareView::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    if (m_graphShown == -2) {
        m_graphShown = -1;
        // After this show's layout: the graph panes have their real size then.
        QTimer::singleShot(0, this, &CompareView::showGraphs);
    }
}

void CompareView::showAndRaise()
{
    WindowPlacement::fitAndCentre(this, QSize(1400, 900));
    show();
    raise();
    activateWindow();
}

}  // namespace ps::ui
