#pragma once

#include "commands/LessonCatalogue.h"
#include "ui/LessonOutcome.h"

#include <QElapsedTimer>
#include <QString>
#include <QStringList>
#include <QTimer>
#include <QWidget>

#include <nlohmann/json.hpp>

#include <memory>
#include <optional>

class QLabel;
class QListWidget;
class QPlainTextEdit;
class QPushButton;
class QSplitter;
class QTextBrowser;

namespace ps::ui {

class ScriptEditor;
class WorkerClient;
struct RunDocument;

/// The Lessons panel: one lesson per rule of the programming model (resources/lessons/). It
/// shows the lesson's explanation (lesson.md) and its broken.py and fixed.py side by side,
/// read-only; Run Both runs broken.py then fixed.py in a worker of the panel's own (nothing is
/// stored in the library) and shows under each script what it reported and whether that is
/// what the lesson's expect.json says, as `precompile-studio lessons run NAME` does.
///
/// Cheap to make: no worker is started before the first Run Both.
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
    std::optional<commands::Lesson> currentLesson() const;

    bool busy() const { return m_running >= 0; }
    /// What the panel is doing: "broken.py: running the script · 4.2 s", or the last result.
    QString stageText() const;
    /// What went wrong, naming the path or cause ("" when nothing did): no lessons folder, a
    /// missing or invalid expect.json, a worker that cannot start, a script that cannot be shown.
    QString problem() const;

    /// The outcome of "broken" or "fixed" for the lesson shown (nullopt: not run yet).
    std::optional<LessonOutcome> outcome(const QString& side) const;
    /// The verdict shown under a script ("as expected", "differs from expect.json", ...), and
    /// the text under it (differences, then the summary).
    QString verdictText(const QString& side) const;
    QString outcomeText(const QString& side) const;

    QListWidget* lessonList() const { return m_list; }
    QTextBrowser* explanation() const { return m_explanation; }
    ScriptEditor* scriptView(const QString& side) const;
    QPushButton* runButton() const { return m_runButton; }
    QPushButton* cancelButton() const { return m_cancelButton; }
    QPushButton* openButton(const QString& side) const;

public slots:
    /// Runs broken.py, then fixed.py. False (and problem() says why) when it cannot start: a run
    /// is in progress, no lesson is shown, expect.json is missing or invalid, no worker can start.
    bool runBoth();
    /// Kills the run in progress; the other script is not run. finished() follows.
    void cancel();

signals:
    /// "Open in Editor": the window opens this script in its editor.
    void openScript(const QString& path);
    void lessonChanged(const QString& name);
    /// Both scripts have run (or the run was cancelled, or a script could not run).
    void finished();

private:
    static int sideIndex(const QString& side);
    void showLesson(int row);
    void clearOutcomes();
    void showOutcome(int side);
    void updateProblem();
    void startSide(int side);
    void onStage(const QString& stage, const QString& capture);
    void onRunFinished(const std::shared_ptr<const RunDocument>& run);
    void finishRun();
    void updateButtons();

    QString m_pythonEnv;
    QString m_lessonsDir;
    std::vector<commands::Lesson> m_lessons;
    std::optional<commands::Lesson> m_current;
    QString m_dirProblem;     ///< about the lessons folder (missing, empty)
    QString m_lessonProblem;  ///< about the lesson shown (missing files, invalid expect.json)
    QString m_runProblem;     ///< about running (no worker)

    WorkerClient* m_worker = nullptr;  ///< made at the first Run Both
    int m_running = -1;                ///< the side running: 0 broken, 1 fixed; -1 none
    bool m_cancelRequested = false;
    commands::Lesson m_runLesson;
    nlohmann::json m_runExpect;
    std::optional<LessonOutcome> m_outcomes[2];
    double m_seconds[2] = {0, 0};
    QString m_stage;
    QString m_stageCapture;
    QString m_lastResult;
    QElapsedTimer m_clock;
    QTimer m_tick;

    QLabel* m_problem;
    QLabel* m_dirLabel;
    QListWidget* m_list;
    QTextBrowser* m_explanation;
    QPushButton* m_runButton;
    QPushButton* m_cancelButton;
    QLabel* m_stageLabel;
    QLabel* m_titles[2];
    ScriptEditor* m_scripts[2];
    QPushButton* m_openButtons[2];
    QLabel* m_verdicts[2];
    QPlainTextEdit* m_details[2];
};

}  // namespace ps::ui
