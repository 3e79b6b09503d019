#pragma once

#include "model/Severity.h"

#include <QWidget>

#include <memory>
#include <optional>

class QLabel;
class QTextBrowser;
class QTreeWidget;

namespace ps::ui {

struct RunDocument;

/// The Violations tab: every contract outcome and error of a run, and the warnings. Sources:
/// each capture's violation and warnings, the verification's load, call and runtime_inputs
/// outcomes, and the run's own error (a script that did not run, a dead worker). Each shows
/// invariant number, rule, message, explanation and fix; a click jumps to the script line.
class ViolationsView : public QWidget {
    Q_OBJECT
public:
    struct Entry {
        QString capture;
        model::Severity severity = model::Severity::Error;
        std::optional<int> invariant;
        QString rule;
        QString kind;
        QString phase;
        QString message;    ///< torch's words, whole
        QString summary;    ///< ours, in the user's names ("" : the message's first line)
        QStringList chain;  ///< user line -> package frame -> torch op, one link each
        QString explanation;
        QString fix;
        QString traceback;
        QString file;
        int line = 0;
        QStringList nodes;   ///< graph nodes the report names (details.node, a constant and its users)
        QString guard;       ///< a shape rejection's guard, in the user's names ("x.shape[0] <= 2")
        int calledLine = 0;  ///< and the line that called it: runtime_inputs, or the script's call (0: none)
    };

    explicit ViolationsView(QWidget* parent = nullptr);

    void setRun(const std::shared_ptr<const RunDocument>& run);
    void clear();
    int count() const { return static_cast<int>(m_entries.size()); }
    /// What the list holds, by severity, in the order violation, error, mismatch, warning,
    /// only the kinds present ("1 error", "2 violations, 1 warning"); "" when it is empty.
    /// The tab's title and the summary line both say this, so they never disagree.
    QString countsText() const;
    const std::vector<Entry>& entries() const { return m_entries; }
    QTreeWidget* list() const { return m_list; }
    QString detailsText() const;
    /// The list's text at a row and column (columns: severity, capture, invariant, rule, message, line).
    QString listText(int row, int column) const;

signals:
    /// A violation with a location was clicked.
    void locationActivated(const QString& file, int line);
    /// Any entry was clicked (after locationActivated): where it is and the nodes it names, so
    /// that the graph can show them (line 0: no location).
    void violationActivated(const QString& capture, const QString& file, int line, const QStringList& nodes);
    /// "Show in the graph" (the details' link, a double click or Enter on the row, its context
    /// menu): the Graph tab with the entry's nodes (or its line's) selected and centred.
    void showInGraphRequested(const QString& capture, const QString& file, int line, const QStringList& nodes);

private:
    void showDetails(int row);
    /// A row clicked: its line (when it has one), and where it is for the graph.
    void activate(int row);
    void requestGraph(int row);

    std::vector<Entry> m_entries;
    QLabel* m_summary;
    QTreeWidget* m_list;
    QTextBrowser* m_details;
};

}  // namespace ps::ui
