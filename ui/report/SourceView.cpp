#include "ui/report/SourceView.h"
#include "ui/common/QtText.h"

#include "ui/common/StatusStyle.h"
#include "ui/editor/EditorTheme.h"
#include "ui/editor/FindBar.h"
#include "ui/editor/LineColours.h"
#include "ui/run/RunDocument.h"

#include <Qsci/qsciscintilla.h>

#include <QEvent>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QMouseEvent>
#include <QScrollBar>
#include <QSplitter>
#include <QStackedWidget>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <set>

namespace ps::ui {

namespace {

QString textField(const nlohmann::json& j, const char* key)
{
    auto it = j.find(key);
    return it != j.end() && it->is_string() ? QString::fromStdString(it->get<std::string>()) : QString();
}

int integer(const nlohmann::json& j, const char* key)
{
    auto it = j.find(key);
    return it != j.end() && it->is_number_integer() ? it->get<int>() : 0;
}

QStringList strings(const nlohmann::json& j, const char* key)
{
    QStringList out;
    auto it = j.find(key);
    if (it != j.end() && it->is_array())
        for (const auto& s : *it)
            if (s.is_string())
                out << QString::fromStdString(s.get<std::string>());
    return out;
}

constexpr int kLineRole = Qt::UserRole + 1;

}  // namespace

SourceView::SourceView(QWidget* parent) : QWidget(parent)
{
    m_editor = new QsciScintilla;
    EditorTheme::applyPython(m_editor);
    m_editor->setReadOnly(true);
    m_editor->viewport()->installEventFilter(this);
    m_find = new FindBar(m_editor);
    m_note = new QLabel;
    m_note->setTextFormat(Qt::PlainText);  // run-derived text
    m_note->setWordWrap(true);
    m_note->hide();

    m_outline = new QTreeWidget;
    m_outline->setHeaderLabels({tr("Section"), tr("Line")});
    m_outline->header()->setSectionResizeMode(0, QHeaderView::Stretch);
    m_outline->header()->setStretchLastSection(false);
    m_outline->setUniformRowHeights(true);
    m_outline->setMinimumWidth(180);
    connect(m_outline, &QTreeWidget::itemClicked, this,
        [this](QTreeWidgetItem* item) { goToLine(item->data(0, kLineRole).toInt()); });
    connect(m_outline, &QTreeWidget::itemActivated, m_outline, &QTreeWidget::itemClicked);

    auto* right = new QWidget;
    auto* rl = new QVBoxLayout(right);
    rl->setContentsMargins(0, 0, 0, 0);
    rl->setSpacing(0);
    rl->addWidget(m_note);
    rl->addWidget(m_editor, 1);
    rl->addWidget(m_find);
    auto* split = new QSplitter(Qt::Horizontal);
    split->addWidget(m_outline);
    split->addWidget(right);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 4);
    split->setSizes({240, 760});
    m_split = split;
    connect(split, &QSplitter::splitterMoved, this, [this]() { m_outlineSized = true; });

    m_message = new QLabel;
    m_message->setTextFormat(Qt::PlainText);  // run-derived text
    m_message->setAlignment(Qt::AlignCenter);
    m_message->setWordWrap(true);
    m_message->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_stack = new QStackedWidget;
    m_stack->addWidget(m_message);
    m_stack->addWidget(split);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_stack);
    clear(tr("No run yet."));
}

void SourceView::clear(const QString& message)
{
    m_sections.clear();
    m_kernels.clear();
    m_nodeLines.clear();
    m_lineNodes.clear();
    m_highlighted.clear();
    m_outline->clear();
    m_editor->setText(QString());
    m_note->hide();
    m_message->setText(message);
    m_stack->setCurrentIndex(0);
}

QString SourceView::message() const
{
    return m_stack->currentIndex() == 0 ? m_message->text() : QString();
}

void SourceView::setCapture(const std::shared_ptr<const RunDocument>& run, int capture)
{
    if (!run || capture < 0 || capture >= static_cast<int>(run->report.captures.size())) {
        clear(run ? tr("This run has no capture, so no python_code.") : tr("No run yet."));
        return;
    }
    const auto& c = run->report.captures[capture];
    const run::CaptureBytes* bytes = run->artifact(static_cast<std::size_t>(capture));
    if (!bytes || !bytes->pythonCode) {
        if (bytes && !bytes->error.empty())
            clear(tr("The python_code of this capture cannot be shown: %1").arg(QString::fromStdString(bytes->error)));
        else if (c.status != model::CaptureStatus::Ok)
            clear(tr("No python_code: the capture ended in a %1 (see Violations).").arg(StatusStyle::word(c.status)));
        else
            clear(tr("The python_code of this capture is not available (the run was not stored)."));
        return;
    }
    clear(QString());
    const std::string& code = *bytes->pythonCode;
    QByteArray shown = QByteArray::fromRawData(code.data(), static_cast<qsizetype>(code.size()));
    if (shown.size() > kMaxShownBytes) {
        shown = shown.left(kMaxShownBytes);
        if (const auto nl = shown.lastIndexOf('\n'); nl > 0)
            shown.truncate(nl + 1);
        m_note->setText(tr("python_code is %1: the first %2 are shown. Export the run for the whole file.")
                            .arg(QLocale().formattedDataSize(static_cast<qint64>(code.size())),
                                QLocale().formattedDataSize(shown.size())));
        m_note->show();
    }
    m_editor->setText(QString::fromUtf8(shown));
    m_stack->setCurrentIndex(1);

    const auto lowering = c.json.value("lowering", nlohmann::json());
    if (!lowering.is_object()) {
        m_note->setText(tr("The report does not map python_code's sections (no \"lowering\")."));
        m_note->show();
        return;
    }
    if (auto err = textField(lowering, "error"); !err.isEmpty()) {
        m_note->setText(tr("The worker could not map python_code: %1").arg(err));
        m_note->show();
    }
    std::map<QString, QTreeWidgetItem*> byKind;
    if (auto s = lowering.find("sections"); s != lowering.end() && s->is_array())
        for (const auto& j : *s) {
            if (!j.is_object())
                continue;
            Section sec{textField(j, "kind"), textField(j, "title"), textField(j, "parent"), integer(j, "start"),
                integer(j, "end")};
            m_sections.push_back(sec);
            auto parent = byKind.find(sec.parent);
            auto* item = parent != byKind.end() ? new QTreeWidgetItem(parent->second) : new QTreeWidgetItem(m_outline);
            item->setText(0, sec.title);
            item->setText(1, QString::number(sec.start));
            item->setToolTip(0, plainTip(tr("%1, lines %2–%3").arg(sec.title).arg(sec.start).arg(sec.end)));
            item->setData(0, kLineRole, sec.start);
            byKind[sec.kind] = item;
        }
    auto addKernels = [&](const char* key, const char* under) {
        auto k = lowering.find(key);
        if (k == lowering.end() || !k->is_array())
            return;
        for (const auto& j : *k) {
            if (!j.is_object())
                continue;
            Kernel kernel{textField(j, "name"), textField(j, "kind"), integer(j, "start"), integer(j, "end"), {},
                strings(j, "nodes")};
            if (auto calls = j.find("calls"); calls != j.end() && calls->is_array())
                for (const auto& line : *calls)
                    if (line.is_number_integer())
                        kernel.calls << line.get<int>();
            m_kernels.push_back(kernel);
            auto parent = byKind.find(under);
            auto* item = parent != byKind.end() ? new QTreeWidgetItem(parent->second) : new QTreeWidgetItem(m_outline);
            item->setText(0, kernel.name + (kernel.kind.isEmpty() ? QString() : " (" + kernel.kind + ")"));
            item->setText(1, QString::number(kernel.start));
            item->setToolTip(0,
                plainTip(
                    tr("computes %1").arg(kernel.nodes.isEmpty() ? tr("(unknown nodes)") : kernel.nodes.join(", "))));
            item->setData(0, kLineRole, kernel.start);
        }
    };
    addKernels("kernels", "inductor_kernels");
    addKernels("extern_calls", "inner_call");
    if (auto nl = lowering.find("node_lines"); nl != lowering.end() && nl->is_array())
        for (const auto& pair : *nl)
            if (pair.is_array() && pair.size() == 2 && pair[0].is_number_integer() && pair[1].is_string()) {
                const int line = pair[0].get<int>();
                const QString node = QString::fromStdString(pair[1].get<std::string>());
                m_nodeLines.emplace(node, line);
                m_lineNodes[line] << node;
            }
    m_outline->expandToDepth(1);
    m_outline->resizeColumnToContents(1);
    fitOutline();
}

void SourceView::fitOutline()
{
    // The section names whole where the tab has room ("Calling-convention wrapper" must not
    // read "Calling-convention ..."), up to two fifths of it, until the user moves the divider.
    const int total = m_split->width();
    if (m_outlineSized || total < 300 || m_outline->topLevelItemCount() == 0)
        return;
    const int want = static_cast<const QAbstractItemView*>(m_outline)->sizeHintForColumn(0) + m_outline->columnWidth(1)
        + m_outline->verticalScrollBar()->sizeHint().width() + 2 * m_outline->frameWidth() + 8;
    const int outline = std::clamp(want, m_outline->minimumWidth(), total * 2 / 5);
    m_split->setSizes({outline, total - outline - m_split->handleWidth()});
}

void SourceView::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    fitOutline();
}

QStringList SourceView::highlightNodes(const QStringList& nodes)
{
    m_editor->markerDeleteAll(EditorTheme::kHighlightMarker);
    m_highlighted.clear();
    QStringList kernels;
    const std::set<QString> wanted(nodes.begin(), nodes.end());
    std::set<int> lines;
    for (const auto& k : m_kernels) {
        if (std::none_of(k.nodes.begin(), k.nodes.end(), [&](const QString& n) { return wanted.count(n); }))
            continue;
        kernels << k.name;
        for (int l = k.start; l <= k.end && l > 0; ++l)
            lines.insert(l);
        for (int l : k.calls)
            lines.insert(l);
    }
    for (const QString& n : nodes) {
        auto [a, b] = m_nodeLines.equal_range(n);
        for (auto it = a; it != b; ++it)
            lines.insert(it->second);
    }
    for (int l : lines) {
        if (l > m_editor->lines())
            continue;
        m_editor->markerAdd(l - 1, EditorTheme::kHighlightMarker);
        m_highlighted << l;
    }
    if (!m_highlighted.isEmpty()) {
        // Show the first marked line near the top, with a little context above it.
        m_editor->setFirstVisibleLine(std::max(0, m_highlighted.front() - 4));
    }
    return kernels;
}

void SourceView::setNodeColours(const std::map<QString, int>& colourOfNode)
{
    std::map<int, int> lines;
    if (!colourOfNode.empty()) {
        // The colour most of `nodes` have (the smallest index on a tie), or -1.
        auto colourOf = [&](const QStringList& nodes) {
            std::map<int, int> votes;
            for (const QString& n : nodes)
                if (auto it = colourOfNode.find(n); it != colourOfNode.end())
                    ++votes[it->second];
            int best = -1, most = 0;
            for (const auto& [index, count] : votes)
                if (count > most) {
                    best = index;
                    most = count;
                }
            return best;
        };
        for (const auto& k : m_kernels)
            if (const int c = colourOf(k.nodes); c >= 0) {
                for (int l = k.start; l <= k.end && l > 0; ++l)
                    lines.emplace(l, c);
                for (int l : k.calls)
                    lines.emplace(l, c);
            }
        for (const auto& [line, nodes] : m_lineNodes)
            if (const int c = colourOf(nodes); c >= 0)
                lines.emplace(line, c);
    }
    LineColours::paint(m_editor, lines);
}

QStringList SourceView::outlineEntries() const
{
    QStringList out;
    for (const auto& s : m_sections)
        out << s.title;
    for (const auto& k : m_kernels)
        out << k.name;
    return out;
}

bool SourceView::goToOutlineEntry(const QString& title)
{
    const auto items = m_outline->findItems(title, Qt::MatchStartsWith | Qt::MatchRecursive);
    if (items.isEmpty())
        return false;
    m_outline->setCurrentItem(items.front());
    goToLine(items.front()->data(0, kLineRole).toInt());
    return true;
}

int SourceView::firstVisibleLine() const
{
    return m_editor->firstVisibleLine() + 1;
}

void SourceView::goToLine(int line)
{
    if (line < 1)
        return;
    m_editor->setFirstVisibleLine(line - 1);
    m_editor->setCursorPosition(line - 1, 0);
}

QStringList SourceView::nodesAtLine(int line) const
{
    for (const auto& k : m_kernels)
        if ((line >= k.start && line <= k.end) || k.calls.contains(line))
            return k.nodes;
    auto it = m_lineNodes.find(line);
    return it == m_lineNodes.end() ? QStringList() : it->second;
}

bool SourceView::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == m_editor->viewport() && event->type() == QEvent::MouseButtonRelease
        && static_cast<QMouseEvent*>(event)->button() == Qt::LeftButton) {
        // After Scintilla has moved the caret for this click.
        QMetaObject::invokeMethod(
            this,
            [this]() {
                if (m_editor->hasSelectedText())
                    return;
                int line, index;
                m_editor->getCursorPosition(&line, &index);
                const QStringList nodes = nodesAtLine(line + 1);
                if (!nodes.isEmpty())
                    emit nodesActivated(nodes);
            },
            Qt::QueuedConnection);
    }
    return QWidget::eventFilter(watched, event);
}

}  // namespace ps::ui
