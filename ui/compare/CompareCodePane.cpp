#include "ui/compare/CompareCodePane.h"

#include "compare/CodeDiff.h"
#include "compare/DiffText.h"
#include "compare/TextDiff.h"
#include "ui/common/QtText.h"
#include "ui/common/SideBySideDiffView.h"
#include "ui/common/StatusStyle.h"
#include "ui/compare/DiffColours.h"

#include <QHeaderView>
#include <QLabel>
#include <QPlainTextEdit>
#include <QResizeEvent>
#include <QShowEvent>
#include <QSplitter>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <map>

namespace ps::ui {

namespace {

/// Lines start..end (1-based, inclusive) of a text; "" where the section is not on that side.
QString slice(const std::vector<std::string_view>& lines, int start, int end)
{
    std::string out;
    for (int i = std::max(1, start); start > 0 && i <= end && i <= static_cast<int>(lines.size()); ++i) {
        out.append(lines[static_cast<std::size_t>(i - 1)]);
        out.push_back('\n');
    }
    return q(out);
}

}  // namespace

CompareCodePane::CompareCodePane(QWidget* parent) : QWidget(parent)
{
    m_list = new QTreeWidget;
    m_list->setObjectName(QStringLiteral("compareSections"));
    m_list->setRootIsDecorated(false);
    m_list->setUniformRowHeights(true);
    m_list->setHeaderLabels({tr("Section"), tr("Status"), tr("Lines")});
    m_list->header()->setSectionResizeMode(0, QHeaderView::Stretch);
    m_list->header()->setStretchLastSection(false);
    // The metadata and kernel lines: as many as there are (a resnet's run has dozens), scrolled
    // in their own pane rather than pushing the code down.
    m_notes = new QPlainTextEdit;
    m_notes->setObjectName(QStringLiteral("compareCodeNotes"));
    m_notes->setReadOnly(true);
    m_notes->setFrameShape(QFrame::NoFrame);
    m_notes->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_notes->setBackgroundRole(QPalette::Window);
    m_notes->viewport()->setAutoFillBackground(false);
    m_diff = new SideBySideDiffView;
    m_diff->setObjectName(QStringLiteral("compareCodeDiff"));
    for (int k = 0; k < 2; ++k)  // "run #12 (name): a long section title" is cut, not widening the window
        m_diff->title(k)->setMinimumWidth(1);

    // The code gets most of the height; the list and the notes what they need, up to a modest
    // share each (setInitialSizes), the splitter's handles moving them.
    m_split = new QSplitter(Qt::Vertical);
    m_split->setObjectName(QStringLiteral("compareCodeSplit"));
    m_split->setChildrenCollapsible(false);
    m_split->addWidget(m_list);
    m_split->addWidget(m_notes);
    m_split->addWidget(m_diff);
    m_split->setStretchFactor(0, 0);
    m_split->setStretchFactor(1, 0);
    m_split->setStretchFactor(2, 1);
    m_list->setMinimumHeight(m_list->fontMetrics().height() * 3);
    m_notes->setMinimumHeight(m_notes->fontMetrics().height() * 2);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_split);

    connect(m_list, &QTreeWidget::currentItemChanged, this,
        [this](QTreeWidgetItem* item) { showSection(item ? m_list->indexOfTopLevelItem(item) : -1); });
}

void CompareCodePane::setCapture(const std::optional<std::string>& codeA, const std::optional<std::string>& codeB,
    const compare::CodeDiff& diff, const QString& labelA, const QString& labelB)
{
    m_labels[0] = labelA;
    m_labels[1] = labelB;
    m_diff->setSideNames(labelA, labelB);
    listSections(codeA, codeB, diff);
    const QStringList notes = notesOf(diff);
    m_notes->setPlainText(notes.join('\n'));
    m_notes->setVisible(!notes.isEmpty());
    m_sized = false;
    setInitialSizes();
    if (m_list->topLevelItemCount() > 0)
        m_list->setCurrentItem(m_list->topLevelItem(firstToShow()));
    else
        showSection(-1);
}

void CompareCodePane::listSections(
    const std::optional<std::string>& codeA, const std::optional<std::string>& codeB, const compare::CodeDiff& diff)
{
    m_slices.clear();
    m_kinds.clear();
    m_changes.clear();
    m_list->clear();
    const auto linesA = compare::TextDiff::splitLines(codeA ? *codeA : std::string_view());
    const auto linesB = compare::TextDiff::splitLines(codeB ? *codeB : std::string_view());

    // status: nullopt where neither side has code.
    auto add = [this](const QString& title, std::optional<compare::Change> status, const QString& lines, Slice slice) {
        auto* item = new QTreeWidgetItem({title, status ? StatusStyle::word(*status) : tr("none"), lines});
        const QColor colour = status ? DiffColours::of(*status) : QColor();
        if (colour.isValid())
            for (int c = 0; c < 3; ++c) {
                item->setBackground(c, colour);
                item->setForeground(c, QColor(Qt::black));
            }
        m_list->addTopLevelItem(item);
        m_slices.push_back(std::move(slice));
        m_changes.push_back(status);
    };
    if (!diff.present() || diff.sections().empty()) {
        // Nothing to split by: the whole text of each side (or the side that has none said).
        using compare::Change;
        const std::optional<Change> status = !codeA && !codeB ? std::nullopt
            : !codeA                                          ? std::optional(Change::Added)
            : !codeB                                          ? std::optional(Change::Removed)
            : diff.identical()                                ? std::optional(Change::Same)
                                                              : std::optional(Change::Changed);
        add(tr("python_code (whole)"), status, QString(),
            {tr("python_code"), codeA ? q(*codeA) : QString(), codeB ? q(*codeB) : QString()});
    } else {
        for (const compare::SectionChange& s : diff.sections()) {
            const QString title = q(s.title.empty() ? s.kind : s.title);
            m_kinds.push_back(s.kind);
            add(title, s.status, QStringLiteral("+%1 −%2").arg(s.added).arg(s.removed),
                {title, slice(linesA, s.startA, s.endA), slice(linesB, s.startB, s.endB), s.startA, s.startB});
        }
    }
    m_list->resizeColumnToContents(1);
    m_list->resizeColumnToContents(2);
}

QStringList CompareCodePane::notesOf(const compare::CodeDiff& diff)
{
    QStringList notes;
    if (diff.present() && diff.identical())
        notes << tr("python_code is the same on both sides.");
    for (const compare::MetadataChange& m : diff.metadata()) {
        // A list of 100 parameter names is summed up ("[62 entries] → [110 entries]"); the
        // section below has it whole.
        const auto [before, after] = compare::DiffText::values(m.before, m.after);
        notes << tr("metadata %1: %2 → %3")
                     .arg(q(m.name), m.before.empty() ? tr("absent") : q(before),
                         m.after.empty() ? tr("absent") : q(after));
    }
    std::map<compare::Change, int> byStatus;
    for (const compare::KernelChange& k : diff.kernels()) {
        ++byStatus[k.status];
        if (k.status == compare::Change::Same)
            continue;
        QStringList names;
        for (const std::string& n : k.a)
            names << QStringLiteral("−") + q(n);
        for (const std::string& n : k.b)
            names << QStringLiteral("+") + q(n);
        notes << tr("kernel %1: %2 (%n ATen node(s))", "", k.nodes).arg(StatusStyle::word(k.status), names.join(' '));
    }
    if (!diff.kernels().empty()) {
        QStringList counts;
        for (const auto& [status, count] : byStatus)
            counts << QStringLiteral("%1 %2").arg(count).arg(StatusStyle::word(status));
        notes << tr("kernels: %1").arg(counts.join(QStringLiteral(", ")));
    }
    return notes;
}

int CompareCodePane::firstToShow() const
{
    // The first section that differs, its code before its header's comments; else the first.
    int first = -1;
    int header = -1;
    for (int i = 0; i < m_list->topLevelItemCount() && first < 0; ++i) {
        if (m_changes[static_cast<std::size_t>(i)] == compare::Change::Same)
            continue;
        const bool isHeader = i < static_cast<int>(m_kinds.size()) && m_kinds[static_cast<std::size_t>(i)] == "header";
        if (isHeader && header < 0)
            header = i;
        else if (!isHeader)
            first = i;
    }
    return first < 0 ? std::max(header, 0) : first;
}

void CompareCodePane::showSection(int row)
{
    if (row < 0 || row >= static_cast<int>(m_slices.size())) {
        m_diff->title(0)->setText(m_labels[0]);
        m_diff->title(1)->setText(m_labels[1]);
        m_diff->setFirstLines(1, 1);
        m_diff->clear();
        return;
    }
    const Slice& s = m_slices[static_cast<std::size_t>(row)];
    m_diff->title(0)->setText(tr("%1: %2").arg(m_labels[0], s.title));
    m_diff->title(1)->setText(tr("%1: %2").arg(m_labels[1], s.title));
    for (int k = 0; k < 2; ++k)
        m_diff->title(k)->setToolTip(plainTip(m_diff->title(k)->text()));
    m_diff->setFirstLines(s.firstA, s.firstB);  // each side numbered as in its whole python_code
    m_diff->setTexts(s.a, s.b);
}

QString CompareCodePane::notes() const
{
    return m_notes->toPlainText();
}

void CompareCodePane::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    setInitialSizes();
}

void CompareCodePane::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    setInitialSizes();
}

void CompareCodePane::setInitialSizes()
{
    // Once per capture, at the pane's real height: the list as tall as its rows and the notes as
    // their lines, each at most a fifth of the height, the code the rest (at least 60 %).
    const int height = contentsRect().height();
    if (m_sized || !isVisible() || height < 200)
        return;
    m_sized = true;
    const int rows = std::max(1, m_list->topLevelItemCount());
    const int rowHeight = std::max(m_list->sizeHintForRow(0), m_list->fontMetrics().height());
    const int list
        = std::min(m_list->header()->sizeHint().height() + rows * rowHeight + 2 * m_list->frameWidth() + 4, height / 5);
    const int lines = m_notes->isHidden() ? 0 : m_notes->document()->blockCount();
    const int notes = m_notes->isHidden()
        ? 0
        : std::min(lines * m_notes->fontMetrics().lineSpacing() + 2 * m_notes->frameWidth() + 8
                + static_cast<int>(2 * m_notes->document()->documentMargin()),
            height / 5);
    m_split->setSizes({list, notes, std::max(0, height - list - notes)});
}

}  // namespace ps::ui
