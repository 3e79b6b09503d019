#pragma once

#include <QString>
#include <QWidget>

#include <vector>

class QTreeWidget;
class QTreeWidgetItem;

namespace ps::compare {
struct CaptureComparison;
struct Difference;
}  // namespace ps::compare

namespace ps::ui {

/// What else two runs' captures differ in, side by side (field | run A | run B), grouped:
/// inputs, options, cache envelope and entries, verify, timings, and what the runs were made
/// from (torch, Python, machine, environment). Rows that differ are highlighted (amber);
/// inputs, options, cache and provenance list only what differs, verify and timings every field.
class CompareTablePane : public QWidget {
    Q_OBJECT
public:
    explicit CompareTablePane(QWidget* parent = nullptr);

    void setCapture(const compare::CaptureComparison& capture, const std::vector<compare::Difference>& provenance,
        const QString& labelA, const QString& labelB);

    QTreeWidget* table() const { return m_table; }
    /// The rows of a group ("Cache", "Verify", ...) as "field: a | b", with a "*" before those
    /// highlighted as differing.
    QStringList rows(const QString& group) const;

private:
    QTreeWidgetItem* group(const QString& title);
    void row(QTreeWidgetItem* parent, const QString& field, const QString& a, const QString& b, bool differs);
    void differences(const QString& title, const std::vector<compare::Difference>& list);

    QTreeWidget* m_table;
};

}  // namespace ps::ui
