#pragma once

#include "compare/LinePairs.h"
#include "compare/TextDiff.h"

#include <QList>
#include <QString>
#include <QStringList>
#include <QWidget>

#include <string>
#include <vector>

class QHBoxLayout;
class QLabel;
class QSplitter;

namespace ps::ui {

class ScriptEditor;

/// Two texts side by side, read-only: a lesson's scripts (side 0: broken.py, left; side 1:
/// fixed.py, right), or a section of two runs' python_code in the Compare view; with their difference marked as a diff
/// tool marks it: a changed line has a tinted background and a bar in the margin (red on the left, green on the right),
/// and where a changed line pairs with one on the other side, the part that differs is boxed. Where a hunk is longer on
/// one side, the other shows blank lines for the difference, so the lines after it face each other; the two panes
/// scroll together line for line (by TextDiff's line map where a hunk at the very top could not be padded). Lines in
/// this API are 1-based, as in the editors' margins.
class SideBySideDiffView : public QWidget {
    Q_OBJECT
public:
    explicit SideBySideDiffView(QWidget* parent = nullptr);

    /// Shows both texts and marks what differs; `names` titles the panes ("broken.py").
    void setTexts(const QString& left, const QString& right);
    void clear();
    /// The names the counts beside the titles use for each side ("same as fixed.py"); a
    /// lesson's broken.py and fixed.py unless set.
    void setSideNames(const QString& left, const QString& right);
    /// The number the margins give the first line of each text from the next setTexts on (a
    /// section of a longer text keeps that text's line numbers); 1 unless set.
    void setFirstLines(int left, int right);
    /// The number the margin shows beside `line` (1-based) of a side, read back from it.
    int shownLineNumber(int side, int line) const;

    ScriptEditor* editor(int side) const { return m_editors[side]; }
    QLabel* title(int side) const { return m_titles[side]; }
    /// Puts a widget (a button) at the right end of a pane's header.
    void addHeaderWidget(int side, QWidget* widget);
    /// The splitter between the panes (a view under them can follow its handle).
    QSplitter* splitter() const { return m_split; }

    const compare::TextDiff& diff() const { return m_diff; }
    const std::vector<compare::LinePairs::Pair>& pairs() const { return m_pairs; }
    /// The lines a side marks as changed, read back from its editor's markers.
    QList<int> markedLines(int side) const;
    /// The text of each boxed part of a side, top to bottom, read back from its indicator.
    QStringList markedFragments(int side) const;
    /// How many characters of code a side shows across (its viewport less its margins).
    int visibleColumns(int side) const;
    /// Blank lines shown on a side to face the other side's extra lines in a hunk (read back
    /// from its editor).
    int spacerLines(int side) const;

private:
    void markDiff();
    /// Blank lines under the shorter side of each hunk, so that what follows faces its match.
    void padHunks();
    /// Numbers a side's lines in its margin from m_first.
    void numberLines(int side);
    void followScroll(int from);

    ScriptEditor* m_editors[2];
    QLabel* m_titles[2];
    QLabel* m_counts[2];
    QString m_names[2] = {QStringLiteral("broken.py"), QStringLiteral("fixed.py")};
    QHBoxLayout* m_headers[2];
    QSplitter* m_split;
    std::string m_texts[2];  ///< what m_diff's lines view
    compare::TextDiff m_diff;
    std::vector<compare::LinePairs::Pair> m_pairs;
    int m_indicators[2] = {-1, -1};
    bool m_following = false;
    int m_placed[2] = {-1, -1};  ///< the first line this view last scrolled each side to
    int m_first[2] = {1, 1};
    bool m_unpadded = false;  ///< a hunk could not be padded: scroll by the line map instead
};

}  // namespace ps::ui
