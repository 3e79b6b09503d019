#pragma once

#include "compare/Change.h"

#include <QString>
#include <QWidget>

#include <optional>
#include <string>
#include <vector>

class QLabel;
class QPlainTextEdit;
class QSplitter;
class QTreeWidget;

namespace ps::compare {
class CodeDiff;
}

namespace ps::ui {

class SideBySideDiffView;

/// python_code of two captures compared by section (engine/compare's CodeDiff): a list of the
/// sections with their status (same, changed, added, removed: coloured as in the graphs) and
/// lines added and removed; selecting one shows its text of run A and of run B side by side
/// with the lines that differ marked (SideBySideDiffView). Under the list, the calling-convention
/// metadata fields and the kernels that differ, in a pane of their own; the code gets most of
/// the height (a splitter: the list and the notes as tall as they need, up to a fifth each).
class CompareCodePane : public QWidget {
    Q_OBJECT
public:
    explicit CompareCodePane(QWidget* parent = nullptr);

    void setCapture(const std::optional<std::string>& codeA, const std::optional<std::string>& codeB,
        const compare::CodeDiff& diff, const QString& labelA, const QString& labelB);

    QTreeWidget* sectionList() const { return m_list; }
    SideBySideDiffView* diffView() const { return m_diff; }
    /// Shows section `row` of the list side by side.
    void showSection(int row);
    /// The metadata and kernel lines under the list.
    QString notes() const;
    QSplitter* splitter() const { return m_split; }

protected:
    void resizeEvent(QResizeEvent* event) override;
    void showEvent(QShowEvent* event) override;

private:
    struct Slice {
        QString title;
        QString a;
        QString b;
        int firstA = 1;  ///< the python_code line each side's slice starts at
        int firstB = 1;
    };

    /// The splitter's sizes for a new capture, once the pane has its height.
    void setInitialSizes();
    /// Fills the list: python_code's sections as the diff pairs them (or the whole text).
    void listSections(const std::optional<std::string>& codeA, const std::optional<std::string>& codeB,
        const compare::CodeDiff& diff);
    /// The metadata and kernel lines under the list.
    static QStringList notesOf(const compare::CodeDiff& diff);
    /// The row to open on: the first changed section, its code before its header's comments.
    int firstToShow() const;

    QTreeWidget* m_list;
    QPlainTextEdit* m_notes;
    QSplitter* m_split;
    bool m_sized = false;  ///< the splitter's sizes are set for the capture shown
    SideBySideDiffView* m_diff;
    std::vector<Slice> m_slices;
    std::vector<std::string> m_kinds;                       ///< per row, its section's kind ("header", "metadata", ...)
    std::vector<std::optional<compare::Change>> m_changes;  ///< per row; nullopt: no code on either side
    QString m_labels[2];
};

}  // namespace ps::ui
