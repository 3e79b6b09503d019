#include "ui/common/SideBySideDiffView.h"

#include "ui/common/QtText.h"
#include "ui/editor/ScriptEditor.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QScrollBar>
#include <QSplitter>
#include <QVBoxLayout>

#include <algorithm>
#include <cstdlib>

namespace ps::ui {

namespace {

// Numbers no other use of the editor takes (EditorTheme lists the shared ones).
constexpr int kChangedMarker = 20;     ///< the tinted background of a changed line
constexpr int kBarMarker = 21;         ///< the bar in the symbol margin beside it
constexpr int kChangedIndicator = 12;  ///< the box around the part of a paired line that differs

long send(const ScriptEditor* editor, unsigned int message, unsigned long w = 0, long l = 0)
{
    return const_cast<ScriptEditor*>(editor)->SendScintilla(message, w, l);
}

}  // namespace

SideBySideDiffView::SideBySideDiffView(QWidget* parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("lessonDiff"));
    m_split = new QSplitter(Qt::Horizontal);
    m_split->setChildrenCollapsible(false);
    const QColor tints[2] = {QColor(0xe5, 0x39, 0x35), QColor(0x43, 0xa0, 0x47)};  // removed red, added green
    for (int k = 0; k < 2; ++k) {
        m_titles[k] = new QLabel;
        m_titles[k]->setTextFormat(Qt::PlainText);
        QFont bold = m_titles[k]->font();
        bold.setBold(true);
        m_titles[k]->setFont(bold);
        m_counts[k] = new QLabel;
        m_counts[k]->setTextFormat(Qt::PlainText);
        m_counts[k]->setForegroundRole(QPalette::PlaceholderText);
        m_headers[k] = new QHBoxLayout;
        m_headers[k]->addWidget(m_titles[k]);
        m_headers[k]->addWidget(m_counts[k], 1);

        auto* editor = new ScriptEditor;
        m_editors[k] = editor;
        editor->setReadOnly(true);
        editor->setAcceptDrops(false);
        // Room for the code: three-digit line numbers, a thin bar, no fold margin.
        editor->setFolding(QsciScintilla::NoFoldStyle);
        editor->setMarginWidth(0, QStringLiteral("0000"));
        editor->setMarginType(1, QsciScintilla::SymbolMargin);
        editor->setMarginWidth(1, 5);
        editor->setMarginMarkerMask(1, 1 << kBarMarker);
        const QColor paper = editor->palette().color(QPalette::Base);
        const bool dark = paper.lightness() < 128;
        editor->markerDefine(QsciScintilla::Background, kChangedMarker);
        editor->setMarkerBackgroundColor(mixed(paper, tints[k], dark ? 0.30 : 0.16), kChangedMarker);
        editor->markerDefine(QsciScintilla::FullRectangle, kBarMarker);
        editor->setMarkerBackgroundColor(tints[k], kBarMarker);
        editor->setMarkerForegroundColor(tints[k], kBarMarker);
        editor->indicatorDefine(QsciScintilla::FullBoxIndicator, kChangedIndicator);
        QColor box = tints[k];
        box.setAlpha(dark ? 110 : 80);
        editor->setIndicatorForegroundColor(box, kChangedIndicator);
        editor->setIndicatorOutlineColor(tints[k], kChangedIndicator);
        editor->setIndicatorDrawUnder(true, kChangedIndicator);

        auto* pane = new QWidget;
        auto* pl = new QVBoxLayout(pane);
        pl->setContentsMargins(0, 0, 0, 0);
        pl->setSpacing(2);
        pl->addLayout(m_headers[k]);
        pl->addWidget(editor, 1);
        m_split->addWidget(pane);
        m_split->setStretchFactor(k, 1);

        // The scroll bar moves with the mouse wheel and drags; SCN_UPDATEUI also comes when the
        // editor scrolls itself (keys, setFirstVisibleLine before the bar's range is known).
        connect(editor->verticalScrollBar(), &QScrollBar::valueChanged, this, [this, k]() { followScroll(k); });
        connect(editor, &QsciScintillaBase::SCN_UPDATEUI, this, [this, k](int updated) {
            if (updated & QsciScintillaBase::SC_UPDATE_V_SCROLL)
                followScroll(k);
        });
        connect(editor->horizontalScrollBar(), &QScrollBar::valueChanged, this, [this, k](int value) {
            if (m_following)
                return;
            m_following = true;
            m_editors[1 - k]->horizontalScrollBar()->setValue(value);
            m_following = false;
        });
    }
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_split);
}

void SideBySideDiffView::addHeaderWidget(int side, QWidget* widget)
{
    m_headers[side]->addWidget(widget);
}

void SideBySideDiffView::setTexts(const QString& left, const QString& right)
{
    const QString texts[2] = {left, right};
    for (int k = 0; k < 2; ++k) {
        // QScintilla refuses to change a read-only document.
        m_editors[k]->setReadOnly(false);
        m_editors[k]->setText(texts[k]);
        m_editors[k]->setModified(false);
        m_editors[k]->setReadOnly(true);
        numberLines(k);
    }
    m_texts[0] = left.toStdString();
    m_texts[1] = right.toStdString();
    m_diff = compare::TextDiff::compare(m_texts[0], m_texts[1]);
    m_pairs = compare::LinePairs::of(m_diff);
    markDiff();
}

void SideBySideDiffView::setFirstLines(int left, int right)
{
    m_first[0] = std::max(1, left);
    m_first[1] = std::max(1, right);
}

void SideBySideDiffView::numberLines(int side)
{
    ScriptEditor* editor = m_editors[side];
    if (m_first[side] == 1) {
        editor->setMarginType(0, QsciScintilla::NumberMargin);
        editor->setMarginWidth(0, QStringLiteral("0000"));
        return;
    }
    // Scintilla numbers from 1: a text margin says the text's own numbers instead.
    editor->clearMarginText();
    editor->setMarginType(0, QsciScintilla::TextMarginRightJustified);
    const int lines = editor->lines();
    for (int i = 0; i < lines; ++i)
        editor->setMarginText(i, QString::number(m_first[side] + i), QsciScintillaBase::STYLE_LINENUMBER);
    editor->setMarginWidth(0, QString(QString::number(m_first[side] + lines).size() + 1, QLatin1Char('0')));
}

int SideBySideDiffView::shownLineNumber(int side, int line) const
{
    const ScriptEditor* editor = m_editors[side];
    if (editor->marginType(0) == QsciScintilla::NumberMargin)
        return line;
    const auto at = static_cast<unsigned long>(line - 1);
    QByteArray text(
        static_cast<int>(editor->SendScintilla(QsciScintillaBase::SCI_MARGINGETTEXT, at, static_cast<void*>(nullptr))),
        '\0');
    editor->SendScintilla(QsciScintillaBase::SCI_MARGINGETTEXT, at, static_cast<void*>(text.data()));
    return text.toInt();
}

void SideBySideDiffView::setSideNames(const QString& left, const QString& right)
{
    m_names[0] = left;
    m_names[1] = right;
}

void SideBySideDiffView::clear()
{
    setTexts(QString(), QString());
}

void SideBySideDiffView::markDiff()
{
    const std::vector<int> changed[2] = {m_diff.removedLines(), m_diff.addedLines()};
    for (int k = 0; k < 2; ++k) {
        ScriptEditor* editor = m_editors[k];
        editor->markerDeleteAll(kChangedMarker);
        editor->markerDeleteAll(kBarMarker);
        send(editor, QsciScintillaBase::SCI_SETINDICATORCURRENT, kChangedIndicator);
        send(editor, QsciScintillaBase::SCI_INDICATORCLEARRANGE, 0, send(editor, QsciScintillaBase::SCI_GETLENGTH));
        for (int line : changed[k]) {
            editor->markerAdd(line, kChangedMarker);
            editor->markerAdd(line, kBarMarker);
        }
    }
    m_counts[0]->setText(m_diff.identical() ? tr("same as %1").arg(m_names[1])
                                            : tr("%n line(s) removed or changed", "", int(changed[0].size())));
    m_counts[1]->setText(m_diff.identical() ? tr("same as %1").arg(m_names[0])
                                            : tr("%n line(s) added or changed", "", int(changed[1].size())));
    for (const compare::LinePairs::Pair& p : m_pairs) {
        const int lines[2] = {p.a, p.b};
        const int begins[2] = {p.aBegin, p.bBegin};
        const int ends[2] = {p.aEnd, p.bEnd};
        for (int k = 0; k < 2; ++k) {
            if (ends[k] <= begins[k])
                continue;  // nothing on this side: the other one only adds
            ScriptEditor* editor = m_editors[k];
            const long start = send(editor, QsciScintillaBase::SCI_POSITIONFROMLINE, lines[k]);
            send(editor, QsciScintillaBase::SCI_SETINDICATORCURRENT, kChangedIndicator);
            send(editor, QsciScintillaBase::SCI_INDICATORFILLRANGE, start + begins[k], ends[k] - begins[k]);
        }
    }
    padHunks();
    // The first change in view on both sides.
    const auto& rows = m_diff.rows();
    const auto first = std::find_if(rows.begin(), rows.end(),
        [](const compare::TextDiff::Row& r) { return r.kind != compare::TextDiff::Kind::Same; });
    m_placed[0] = m_placed[1] = -1;
    for (auto* editor : m_editors)
        editor->setFirstVisibleLine(0);
    if (first != rows.end()) {
        const int left = first->a >= 0 ? first->a : m_diff.aLineFor(first->b);
        m_editors[0]->ensureLineVisible(left);
        followScroll(0);
    }
}

void SideBySideDiffView::padHunks()
{
    // Where a hunk has more lines on one side, the other gets blank lines (an annotation under
    // the line before the hunk's end) so that the lines after it face each other again.
    m_unpadded = false;
    for (ScriptEditor* editor : m_editors) {
        editor->clearAnnotations();
        editor->setAnnotationDisplay(QsciScintilla::AnnotationStandard);
    }
    const auto& rows = m_diff.rows();
    int last[2] = {-1, -1};  // the last line of each side before or in the hunk
    for (std::size_t i = 0; i < rows.size();) {
        if (rows[i].kind == compare::TextDiff::Kind::Same) {
            last[0] = rows[i].a;
            last[1] = rows[i].b;
            ++i;
            continue;
        }
        int count[2] = {0, 0};
        for (; i < rows.size() && rows[i].kind != compare::TextDiff::Kind::Same; ++i) {
            if (rows[i].kind == compare::TextDiff::Kind::Removed) {
                ++count[0];
                last[0] = rows[i].a;
            } else {
                ++count[1];
                last[1] = rows[i].b;
            }
        }
        const int shorter = count[0] < count[1] ? 0 : 1;
        const int missing = std::abs(count[0] - count[1]);
        if (missing > 0 && last[shorter] >= 0) {
            QStringList blank;
            for (int k = 0; k < missing; ++k)
                blank << QStringLiteral(" ");
            m_editors[shorter]->annotate(last[shorter], blank.join('\n'), QsciScintillaBase::STYLE_DEFAULT);
        } else if (missing > 0) {
            m_unpadded = true;  // a hunk at the very top: nothing above it to hang blank lines on
        }
    }
}

int SideBySideDiffView::spacerLines(int side) const
{
    int lines = 0;
    for (int line = 0; line < m_editors[side]->lines(); ++line)
        lines += static_cast<int>(send(m_editors[side], QsciScintillaBase::SCI_ANNOTATIONGETLINES, line));
    return lines;
}

void SideBySideDiffView::followScroll(int from)
{
    if (m_following)
        return;
    const int top = m_editors[from]->firstVisibleLine();
    if (top == m_placed[from])
        return;  // where this view put it: following back would undo the user's scroll
    m_placed[from] = -1;
    // Padded, the two sides are line for line on screen: the same display line faces.
    const int other = !m_unpadded ? top : from == 0 ? m_diff.bLineFor(top) : m_diff.aLineFor(top);
    m_following = true;
    m_placed[1 - from] = other;
    m_editors[1 - from]->setFirstVisibleLine(other);
    m_following = false;
}

QList<int> SideBySideDiffView::markedLines(int side) const
{
    QList<int> lines;
    const ScriptEditor* editor = m_editors[side];
    for (int line = 0; line < editor->lines(); ++line)
        if (editor->markersAtLine(line) & (1u << kChangedMarker))
            lines << line + 1;
    return lines;
}

QStringList SideBySideDiffView::markedFragments(int side) const
{
    QStringList fragments;
    const ScriptEditor* editor = m_editors[side];
    const long length = send(editor, QsciScintillaBase::SCI_GETLENGTH);
    const QByteArray bytes = editor->text().toUtf8();
    long pos = 0;
    while (pos < length) {
        const long end = send(editor, QsciScintillaBase::SCI_INDICATOREND, kChangedIndicator, pos);
        if (send(editor, QsciScintillaBase::SCI_INDICATORVALUEAT, kChangedIndicator, pos))
            fragments << QString::fromUtf8(bytes.mid(pos, end - pos));
        if (end <= pos)
            break;
        pos = end;
    }
    return fragments;
}

int SideBySideDiffView::visibleColumns(int side) const
{
    const ScriptEditor* editor = m_editors[side];
    long margins = 0;
    for (unsigned long m = 0; m < 5; ++m)
        margins += send(editor, QsciScintillaBase::SCI_GETMARGINWIDTHN, m);
    const long zero = const_cast<ScriptEditor*>(editor)->SendScintilla(
        QsciScintillaBase::SCI_TEXTWIDTH, static_cast<unsigned long>(QsciScintillaBase::STYLE_DEFAULT), "0");
    return zero > 0 ? static_cast<int>((editor->viewport()->width() - margins) / zero) : 0;
}

}  // namespace ps::ui
