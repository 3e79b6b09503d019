#pragma once

#include "lessons/LessonCatalogue.h"
#include "ui/lessons/LessonOutcome.h"

#include <QList>
#include <QString>
#include <QStringList>
#include <QTimer>
#include <QWidget>

#include <optional>

class QLabel;
class QListWidget;
class QPushButton;
class QSplitter;
class QTextBrowser;

namespace ps::ui {

class SideBySideDiffView;
class LessonOutcomeView;
class LessonRunner;
class ScriptEditor;

/// The Lessons view: one lesson per rule of the programming model (resources/lessons/). The
/// list and the lesson's explanation (lesson.md, under its title) across the top; below them,
/// the whole width for broken.py and fixed.py side by side, read-only, their difference marked
/// (SideBySideDiffView); under each script what it reported when run and whether that is what the
/// lesson's expect.json says, as `precompile-studio lessons run NAME` does. Run broken.py, Run
/// fixed.py or Run Both use a worker of the view's own (nothing is stored in the library).
///
/// The worker (a process importing torch, about 700 MB) starts at the first run or prewarm()
/// and is stopped by releaseWorker(), which the Lessons window calls when it is closed.
class LessonsView : public QWidget {
    Q_OBJECT
public:
    /// `pythonEnv` "" : the environment the build was configured with. `lessonsDir` "" :
    /// LessonCatalogue::defaultLessonsDir().
    explicit LessonsView(
        const QString& pythonEnv = QString(), const QString& lessonsDir = QString(), QWidget* parent = nullptr);
    ~LessonsView() override;

    /// Lists the lessons of another folder (each subfolder with lesson.md, broken.py, fixed.py,
    /// expect.json). Refused (false) while a run is in progress.
    bool setLessonsDir(const QString& dir);
    QString lessonsDir() const { return m_lessonsDir; }
    /// Reads the folder again, keeping the selected lesson when it is still there.
    void reload();

    /// The lessons listed, by folder name, in the list's order.
    QStringList lessonNames() const;
    /// Shows this lesson (false: no such lesson, or a run is in progress).
    bool selectLesson(const QString& name);
    std::optional<lessons::Lesson> currentLesson() const;

    bool busy() const;
    /// What the view is doing: "broken.py: running the script · 4.2 s", or the last result.
    QString stageText() const;
    /// What went wrong, naming the path or cause ("" when nothing did): no lessons folder, a
    /// missing or invalid expect.json, a worker that cannot start, a script that cannot be shown.
    QString problem() const;

    /// The outcome of a side of the lesson shown (nullopt: not run yet).
    std::optional<LessonOutcome> outcome(lessons::LessonSide side) const;
    /// The verdict shown under a script ("as expected", "differs from expect.json", ...), and
    /// the text under it (differences, then the summary).
    QString verdictText(lessons::LessonSide side) const;
    QString outcomeText(lessons::LessonSide side) const;

    /// A worker process is held (started by a run or prewarm(), not yet released).
    bool hasWorker() const;

    QListWidget* lessonList() const { return m_list; }
    QLabel* titleLabel() const { return m_title; }
    QTextBrowser* explanation() const { return m_explanation; }
    SideBySideDiffView* diffView() const { return m_diff; }
    ScriptEditor* scriptView(lessons::LessonSide side) const;
    QPushButton* runButton() const { return m_runButton; }
    QPushButton* runSideButton(lessons::LessonSide side) const;
    QPushButton* cancelButton() const { return m_cancelButton; }
    QPushButton* openButton(lessons::LessonSide side) const;

public slots:
    /// Runs broken.py, then fixed.py. False (and problem() says why) when it cannot start: a run
    /// is in progress, no lesson is shown, expect.json is missing or invalid, no worker can start.
    bool runBoth();
    /// Runs one side's script; the other side keeps what it showed.
    bool runSide(lessons::LessonSide side);
    /// Kills the run in progress; the scripts not yet run are not run. finished() follows.
    void cancel();
    /// Starts the worker now (torch imported by the first run); nothing when none can start.
    void prewarm();
    /// Stops the worker and frees its memory: a run in progress is cancelled (finished()
    /// follows). The next run or prewarm() starts a fresh one.
    void releaseWorker();

signals:
    /// "Open in Editor": the window opens this script in its editor.
    void openScript(const QString& path);
    void lessonChanged(const QString& name);
    /// The scripts asked for have run (or the run was cancelled, or a script could not run).
    void finished();

protected:
    void showEvent(QShowEvent* event) override;

private:
    bool runSides(const QList<lessons::LessonSide>& sides);
    void showLesson(int row);
    void showExplanation(const QString& markdown);
    void clearOutcomes();
    void showOutcome(int side);
    void updateProblem();
    void onSideFinished(lessons::LessonSide side, const LessonOutcome& outcome, double seconds);
    void onRunEnded(bool cancelled);
    void updateButtons();

    QString m_pythonEnv;
    QString m_lessonsDir;
    std::vector<lessons::Lesson> m_lessons;
    std::optional<lessons::Lesson> m_current;
    QString m_dirProblem;     ///< about the lessons folder (missing, empty)
    QString m_lessonProblem;  ///< about the lesson shown (missing files, invalid expect.json)
    QString m_runProblem;     ///< about running (no worker)

    LessonRunner* m_runner;
    std::optional<LessonOutcome> m_outcomes[2];
    double m_seconds[2] = {0, 0};
    QString m_lastResult;
    QTimer m_tick;
    bool m_sized = false;  ///< the splitters got their first sizes

    QLabel* m_problem;
    QLabel* m_title;
    QLabel* m_dirLabel;
    QListWidget* m_list;
    QTextBrowser* m_explanation;
    QPushButton* m_runButton;
    QPushButton* m_cancelButton;
    QLabel* m_stageLabel;
    QSplitter* m_outer;
    QSplitter* m_upper;
    SideBySideDiffView* m_diff;
    QSplitter* m_outcomeSplit;
    QPushButton* m_sideRunButtons[2];
    QPushButton* m_openButtons[2];
    LessonOutcomeView* m_outcomeViews[2];
};

}  // namespace ps::ui
