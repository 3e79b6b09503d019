#pragma once

#include "ui/lessons/LessonOutcome.h"

#include <QWidget>

#include <optional>

class QLabel;
class QPlainTextEdit;

namespace ps::ui {

/// What one side of a lesson reported, under its script: the verdict in a line of its own
/// (green when the run reports what expect.json says, red when it differs or could not run,
/// plain when cancelled) and, below it, the differences from expect.json and the summary.
class LessonOutcomeView : public QWidget {
    Q_OBJECT
public:
    /// `scriptName`: "broken.py" (named in the placeholder before anything ran).
    explicit LessonOutcomeView(const QString& scriptName, QWidget* parent = nullptr);

    /// Shows an outcome (nullopt: nothing, the placeholder); `seconds`: how long the run took.
    void showOutcome(const std::optional<LessonOutcome>& outcome, double seconds);
    /// Says that the script is running (what it reported before is gone).
    void showRunning();

    QString verdictText() const;
    QString detailsText() const;

private:
    QLabel* m_verdict;
    QPlainTextEdit* m_details;
};

}  // namespace ps::ui
