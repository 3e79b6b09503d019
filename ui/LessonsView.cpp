#include "ui/LessonsView.h"

#include "ui/RunDocument.h"
#include "ui/ScriptEditor.h"
#include "ui/ScriptFile.h"
#include "ui/WorkerClient.h"

#include "commands/LessonExpectation.h"
#include "protocol/RunOptions.h"

#include <QFile>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSettings>
#include <QSignalBlocker>
#include <QSplitter>
#include <QStyle>
#include <QTextBrowser>
#include <QVBoxLayout>

namespace ps::ui {

namespace {

constexpr int kNameRole = Qt::UserRole + 1;

QString sideName(int k)
{
    return QString::fromLatin1(commands::LessonExpectation::kSides[k]);
}

/// Replaces a read-only editor's text (QScintilla refuses to change a read-only document).
void showText(ScriptEditor* editor, const QString& text)
{
    editor->setReadOnly(false);
    editor->setText(text);
    editor->setModified(false);
    editor->setReadOnly(true);
}

}  // namespace

LessonsView::LessonsView(const QString& pythonEnv, const QString& lessonsDir, QWidget* parent)
    : QWidget(parent), m_pythonEnv(pythonEnv)
{
    setObjectName(QStringLiteral("lessonsView"));

    m_problem = new QLabel;
    m_problem->setObjectName(QStringLiteral("lessonsProblem"));
    m_problem->setWordWrap(true);
    m_problem->setTextFormat(Qt::PlainText);
    m_problem->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_problem->setStyleSheet(QStringLiteral("QLabel { color: #c62828; font-weight: bold; }"));
    m_problem->hide();

    m_runButton = new QPushButton(style()->standardIcon(QStyle::SP_MediaPlay), tr("Run Both"));
    m_runButton->setToolTip(tr("Run broken.py, then fixed.py, in a worker of the panel's own (nothing is stored in "
                               "the library), and compare each with expect.json"));
    m_cancelButton = new QPushButton(style()->standardIcon(QStyle::SP_MediaStop), tr("Cancel"));
    m_cancelButton->setToolTip(tr("Kill the worker running the lesson's script"));
    m_stageLabel = new QLabel;
    m_stageLabel->setTextFormat(Qt::PlainText);
    m_stageLabel->setWordWrap(true);  // a long status must not widen the dock, nor the window
    m_stageLabel->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    auto* top = new QHBoxLayout;
    top->addWidget(m_runButton);
    top->addWidget(m_cancelButton);
    top->addWidget(m_stageLabel, 1);

    m_list = new QListWidget;
    m_list->setObjectName(QStringLiteral("lessonList"));
    m_list->setSelectionMode(QAbstractItemView::SingleSelection);
    m_list->setWordWrap(true);
    m_dirLabel = new QLabel;
    m_dirLabel->setTextFormat(Qt::PlainText);
    m_dirLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_dirLabel->setForegroundRole(QPalette::PlaceholderText);
    m_dirLabel->setWordWrap(true);
    auto* listBox = new QWidget;
    auto* ll = new QVBoxLayout(listBox);
    ll->setContentsMargins(0, 0, 0, 0);
    ll->addWidget(m_list, 1);
    ll->addWidget(m_dirLabel);

    m_explanation = new QTextBrowser;
    m_explanation->setObjectName(QStringLiteral("lessonExplanation"));
    m_explanation->setOpenExternalLinks(true);

    auto* upper = new QSplitter(Qt::Horizontal);
    upper->addWidget(listBox);
    upper->addWidget(m_explanation);
    upper->setStretchFactor(0, 1);
    upper->setStretchFactor(1, 3);

    auto* lower = new QSplitter(Qt::Horizontal);
    for (int k = 0; k < 2; ++k) {
        m_titles[k] = new QLabel(QStringLiteral("<b>%1.py</b>").arg(sideName(k)));
        m_openButtons[k] = new QPushButton(tr("Open in Editor"));
        m_openButtons[k]->setToolTip(tr("Open %1.py in the window's editor").arg(sideName(k)));
        m_scripts[k] = new ScriptEditor;
        m_scripts[k]->setObjectName(QStringLiteral("lesson_%1").arg(sideName(k)));
        m_scripts[k]->setReadOnly(true);
        m_scripts[k]->setAcceptDrops(false);
        m_verdicts[k] = new QLabel;
        m_verdicts[k]->setTextFormat(Qt::PlainText);
        m_verdicts[k]->setWordWrap(true);
        m_verdicts[k]->setTextInteractionFlags(Qt::TextSelectableByMouse);
        m_details[k] = new QPlainTextEdit;
        m_details[k]->setReadOnly(true);
        m_details[k]->setPlaceholderText(tr("Run Both to see what the studio reports for %1.py").arg(sideName(k)));

        auto* header = new QHBoxLayout;
        header->addWidget(m_titles[k], 1);
        header->addWidget(m_openButtons[k]);
        auto* outcomeBox = new QWidget;
        auto* ol = new QVBoxLayout(outcomeBox);
        ol->setContentsMargins(0, 0, 0, 0);
        ol->addWidget(m_verdicts[k]);
        ol->addWidget(m_details[k], 1);
        auto* split = new QSplitter(Qt::Vertical);
        split->addWidget(m_scripts[k]);
        split->addWidget(outcomeBox);
        split->setStretchFactor(0, 3);
        split->setStretchFactor(1, 2);
        auto* pane = new QWidget;
        auto* pl = new QVBoxLayout(pane);
        pl->setContentsMargins(0, 0, 0, 0);
        pl->addLayout(header);
        pl->addWidget(split, 1);
        lower->addWidget(pane);

        connect(m_openButtons[k], &QPushButton::clicked, this, [this, k]() {
            if (m_current)
                emit openScript(LessonOutcome::scriptPath(*m_current, sideName(k)));
        });
    }

    auto* outer = new QSplitter(Qt::Vertical);
    outer->addWidget(upper);
    outer->addWidget(lower);
    outer->setStretchFactor(0, 2);
    outer->setStretchFactor(1, 3);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_problem);
    layout->addLayout(top);
    layout->addWidget(outer, 1);

    connect(m_list, &QListWidget::currentRowChanged, this, &LessonsView::showLesson);
    connect(m_runButton, &QPushButton::clicked, this, [this]() { runBoth(); });
    connect(m_cancelButton, &QPushButton::clicked, this, &LessonsView::cancel);
    m_tick.setInterval(100);
    connect(&m_tick, &QTimer::timeout, this, [this]() { m_stageLabel->setText(stageText()); });

    setLessonsDir(
        lessonsDir.isEmpty() ? QString::fromStdString(commands::LessonCatalogue::defaultLessonsDir()) : lessonsDir);
}

LessonsView::~LessonsView()
{
    m_tick.stop();
    if (m_worker) {
        // Nothing of the worker may reach this half-destroyed view; its destructor kills a run.
        m_worker->disconnect(this);
        delete m_worker;
        m_worker = nullptr;
    }
}

int LessonsView::sideIndex(const QString& side)
{
    if (side == QLatin1String("broken"))
        return 0;
    if (side == QLatin1String("fixed"))
        return 1;
    return -1;
}

// ---- the list -----------------------------------------------------------------------------------

bool LessonsView::setLessonsDir(const QString& dir)
{
    if (busy())
        return false;
    m_lessonsDir = dir;
    reload();
    return true;
}

void LessonsView::reload()
{
    if (busy())
        return;
    const QString keep = m_current ? QString::fromStdString(m_current->name) : QString();
    m_lessons.clear();
    m_dirProblem.clear();
    if (!QFileInfo(m_lessonsDir).isDir())
        m_dirProblem
            = tr("No lessons folder at %1 (set PS_RESOURCES_DIR to the folder that holds lessons/).").arg(m_lessonsDir);
    else {
        m_lessons = commands::LessonCatalogue::list(m_lessonsDir.toStdString());
        if (m_lessons.empty())
            m_dirProblem = tr("No lessons in %1 (a lesson is a folder with lesson.md, broken.py, fixed.py and "
                              "expect.json).")
                               .arg(m_lessonsDir);
    }
    m_dirLabel->setText(m_lessonsDir);
    m_dirLabel->setToolTip(m_lessonsDir);

    int row = m_lessons.empty() ? -1 : 0;
    {
        const QSignalBlocker block(m_list);
        m_list->clear();
        for (std::size_t i = 0; i < m_lessons.size(); ++i) {
            const auto& l = m_lessons[i];
            const QString name = QString::fromStdString(l.name);
            const QString title = l.title.empty() ? name : QString::fromStdString(l.title);
            auto* item = new QListWidgetItem(title, m_list);
            item->setData(kNameRole, name);
            item->setToolTip(l.complete ? QString::fromStdString(l.dir)
                                        : tr("%1 (incomplete: it needs lesson.md, broken.py, fixed.py and expect.json)")
                                              .arg(QString::fromStdString(l.dir)));
            if (!l.complete)
                item->setIcon(style()->standardIcon(QStyle::SP_MessageBoxWarning));
            if (name == keep)
                row = static_cast<int>(i);
        }
        m_list->setCurrentRow(row);
    }
    showLesson(row);
}

QStringList LessonsView::lessonNames() const
{
    QStringList names;
    for (int i = 0; i < m_list->count(); ++i)
        names << m_list->item(i)->data(kNameRole).toString();
    return names;
}

bool LessonsView::selectLesson(const QString& name)
{
    if (busy())
        return false;
    const int row = static_cast<int>(lessonNames().indexOf(name));
    if (row < 0)
        return false;
    if (row == m_list->currentRow())
        showLesson(row);  // read again: the files may have changed
    else
        m_list->setCurrentRow(row);
    return m_current && QString::fromStdString(m_current->name) == name;
}

std::optional<commands::Lesson> LessonsView::currentLesson() const
{
    return m_current;
}

void LessonsView::showLesson(int row)
{
    if (busy())
        return;
    clearOutcomes();
    m_runProblem.clear();
    m_lastResult.clear();
    if (row < 0 || row >= static_cast<int>(m_lessons.size())) {
        m_current.reset();
        m_lessonProblem.clear();
        m_explanation->clear();
        for (auto* editor : m_scripts)
            showText(editor, QString());
        updateProblem();
        updateButtons();
        return;
    }
    m_current = m_lessons[static_cast<std::size_t>(row)];
    QStringList problems;

    const QString md = QString::fromStdString(m_current->lessonMd);
    QFile mdFile(md);
    if (mdFile.open(QIODevice::ReadOnly)) {
        m_explanation->setMarkdown(QString::fromUtf8(mdFile.readAll()));
    } else {
        const QString why = QFileInfo::exists(md) ? tr("%1 cannot be read: %2").arg(md, mdFile.errorString())
                                                  : tr("%1 is missing").arg(md);
        m_explanation->setPlainText(why);
        problems << why;
    }

    for (int k = 0; k < 2; ++k) {
        const QString path = LessonOutcome::scriptPath(*m_current, sideName(k));
        const ScriptFile file = m_scripts[k]->open(path);
        if (file.status == ScriptFile::Status::Refused) {
            showText(m_scripts[k], QString());
            problems << tr("%1.py cannot be shown: %2").arg(sideName(k), file.message);
        } else if (file.status == ScriptFile::Status::ReadOnly) {
            problems << tr("%1.py is shown in part: %2").arg(sideName(k), file.message);
        }
        m_scripts[k]->setReadOnly(true);
        m_titles[k]->setToolTip(path);
    }

    QString error;
    if (!LessonOutcome::readExpect(QString::fromStdString(m_current->expect), &error))
        problems << error;
    m_lessonProblem = problems.join(QLatin1Char('\n'));
    updateProblem();
    updateButtons();
    m_stageLabel->setText(stageText());
    emit lessonChanged(QString::fromStdString(m_current->name));
}

// ---- running ------------------------------------------------------------------------------------

bool LessonsView::runBoth()
{
    if (busy())
        return false;
    m_runProblem.clear();
    if (!m_current) {
        m_runProblem = m_lessons.empty() ? tr("There is no lesson to run.") : tr("Select a lesson to run.");
        updateProblem();
        return false;
    }
    // Read the lesson again: its files may have changed since it was shown.
    const auto lesson = commands::LessonCatalogue::find(m_lessonsDir.toStdString(), m_current->name);
    if (!lesson) {
        m_runProblem
            = tr("The lesson %1 is no longer in %2.").arg(QString::fromStdString(m_current->name), m_lessonsDir);
        updateProblem();
        return false;
    }
    QStringList missing;
    for (int k = 0; k < 2; ++k) {
        const QString path = LessonOutcome::scriptPath(*lesson, sideName(k));
        if (!QFileInfo(path).isFile())
            missing << tr("%1 is missing").arg(path);
    }
    if (!missing.isEmpty()) {
        m_runProblem = tr("The lesson cannot run: %1.").arg(missing.join(QStringLiteral("; ")));
        updateProblem();
        return false;
    }
    QString error;
    const auto expect = LessonOutcome::readExpect(QString::fromStdString(lesson->expect), &error);
    if (!expect) {
        m_runProblem = tr("The lesson cannot be checked: %1").arg(error);
        updateProblem();
        return false;
    }

    if (m_worker && !m_worker->launchError().isEmpty()) {
        delete m_worker;  // try again: the environment may have been made since
        m_worker = nullptr;
    }
    if (!m_worker) {
        m_worker = new WorkerClient(m_pythonEnv, this);
        m_worker->setLibraryPath(QString());  // lessons are never stored in the library
        connect(m_worker, &WorkerClient::stageChanged, this, &LessonsView::onStage);
        connect(m_worker, &WorkerClient::finished, this, &LessonsView::onRunFinished);
    }
    if (!m_worker->launchError().isEmpty()) {
        m_runProblem = tr("Scripts cannot run: %1").arg(m_worker->launchError());
        updateProblem();
        return false;
    }

    clearOutcomes();
    updateProblem();
    m_runLesson = *lesson;
    m_runExpect = *expect;
    m_cancelRequested = false;
    m_seconds[0] = m_seconds[1] = 0;
    m_lastResult.clear();
    startSide(0);
    return true;
}

void LessonsView::startSide(int side)
{
    m_running = side;
    m_stage = QStringLiteral("start");
    m_stageCapture.clear();
    m_clock.start();
    m_tick.start();
    m_verdicts[side]->setStyleSheet(QString());
    m_verdicts[side]->setText(tr("running…"));
    updateButtons();
    m_stageLabel->setText(stageText());

    protocol::RunOptions options;
    options.script = LessonOutcome::scriptPath(m_runLesson, sideName(side)).toStdString();
    options.verify = true;
    options.timeoutSeconds = QSettings().value(QStringLiteral("run/timeoutSeconds"), 600).toDouble();
    if (!m_worker->run(options)) {
        m_outcomes[side] = LessonOutcome::failed(m_runLesson, sideName(side), model::RunStatus::Error,
            tr("the panel's worker is busy with another run"), m_runExpect);
        showOutcome(side);
        finishRun();
    }
}

void LessonsView::cancel()
{
    if (!busy() || !m_worker)
        return;
    m_cancelRequested = true;
    m_worker->cancel();
    updateButtons();
    m_stageLabel->setText(stageText());
}

void LessonsView::onStage(const QString& stage, const QString& capture)
{
    if (!busy())
        return;
    m_stage = stage;
    m_stageCapture = capture;
    m_stageLabel->setText(stageText());
}

void LessonsView::onRunFinished(const std::shared_ptr<const RunDocument>& run)
{
    if (!busy() || !run)
        return;
    const int k = m_running;
    const auto& r = run->report;
    m_seconds[k] = run->elapsedSeconds;
    // A cancelled run says so itself (status "cancelled"); one that ended as the cancel came
    // keeps what it found.
    m_outcomes[k] = LessonOutcome(m_runLesson, sideName(k), r.toJson(), m_runExpect);
    showOutcome(k);
    if (!m_cancelRequested && r.startFailure) {
        m_runProblem = tr("The worker could not start: %1. The studio's Python environment is made by "
                          "`packaging/bootstrap.sh`.")
                           .arg(QString::fromStdString(r.message));
        updateProblem();
    }
    if (k == 0 && !m_cancelRequested) {
        startSide(1);
        return;
    }
    if (k == 0) {
        m_outcomes[1] = LessonOutcome::failed(m_runLesson, sideName(1), model::RunStatus::Cancelled,
            tr("not run: the lesson was cancelled"), m_runExpect);
        showOutcome(1);
    }
    finishRun();
}

void LessonsView::finishRun()
{
    m_running = -1;
    m_tick.stop();
    const bool cancelled = m_cancelRequested;
    m_cancelRequested = false;
    if (cancelled) {
        m_lastResult = tr("Cancelled: the worker was killed.");
    } else if (m_outcomes[0] && m_outcomes[1] && m_outcomes[0]->matches() && m_outcomes[1]->matches()) {
        m_lastResult = tr("Both scripts report what expect.json says (broken.py %1 s, fixed.py %2 s).")
                           .arg(m_seconds[0], 0, 'f', 1)
                           .arg(m_seconds[1], 0, 'f', 1);
    } else {
        QStringList parts;
        for (int k = 0; k < 2; ++k)
            parts << QStringLiteral("%1.py: %2")
                         .arg(sideName(k), m_outcomes[k] ? m_outcomes[k]->verdict() : tr("not run"));
        m_lastResult = parts.join(QStringLiteral("; "));
    }
    updateButtons();
    m_stageLabel->setText(stageText());
    emit finished();
}

// ---- what is shown ----------------------------------------------------------------------------

void LessonsView::clearOutcomes()
{
    for (int k = 0; k < 2; ++k) {
        m_outcomes[k].reset();
        showOutcome(k);
    }
}

void LessonsView::showOutcome(int k)
{
    const auto& o = m_outcomes[k];
    if (!o) {
        m_verdicts[k]->clear();
        m_verdicts[k]->setStyleSheet(QString());
        m_details[k]->clear();
        return;
    }
    QString colour;
    if (o->matches())
        colour = QStringLiteral("#2e7d32");
    else if (!o->cancelled())
        colour = QStringLiteral("#c62828");
    m_verdicts[k]->setStyleSheet(colour.isEmpty()
            ? QStringLiteral("QLabel { font-weight: bold; }")
            : QStringLiteral("QLabel { color: %1; font-weight: bold; }").arg(colour));
    QString verdict = o->verdict();
    if (o->ran())
        verdict += tr(" (%1, %2 s)").arg(o->status()).arg(m_seconds[k], 0, 'f', 1);
    m_verdicts[k]->setText(verdict);

    QStringList lines;
    if (!o->differences().isEmpty()) {
        lines << tr("Differences from expect.json:");
        for (const QString& d : o->differences())
            lines << QStringLiteral("  ") + d;
        lines << QString();
    }
    lines << o->summary();
    m_details[k]->setPlainText(lines.join(QLatin1Char('\n')));
}

void LessonsView::updateProblem()
{
    QStringList parts;
    for (const QString* p : {&m_dirProblem, &m_lessonProblem, &m_runProblem})
        if (!p->isEmpty())
            parts << *p;
    m_problem->setText(parts.join(QLatin1Char('\n')));
    m_problem->setVisible(!parts.isEmpty());
}

void LessonsView::updateButtons()
{
    const bool running = busy();
    bool scripts = m_current.has_value();
    for (int k = 0; k < 2; ++k) {
        const bool exists = m_current && QFileInfo(LessonOutcome::scriptPath(*m_current, sideName(k))).isFile();
        m_openButtons[k]->setEnabled(exists);
        scripts = scripts && exists;
    }
    m_runButton->setEnabled(!running && scripts);
    m_cancelButton->setEnabled(running && !m_cancelRequested);
    m_list->setEnabled(!running);
}

QString LessonsView::stageText() const
{
    if (!busy()) {
        if (!m_lastResult.isEmpty())
            return m_lastResult;
        return m_current ? tr("Run Both runs broken.py, then fixed.py (nothing is stored in the library).") : QString();
    }
    if (m_cancelRequested)
        return tr("%1.py: cancelling…").arg(sideName(m_running));
    QString s = WorkerClient::stageWords(m_stage);
    if (!m_stageCapture.isEmpty())
        s += QStringLiteral(" · ") + m_stageCapture;
    return tr("%1.py: %2 · %3 s")
        .arg(sideName(m_running), s)
        .arg(static_cast<double>(m_clock.elapsed()) / 1000.0, 0, 'f', 1);
}

QString LessonsView::problem() const
{
    return m_problem->text();
}

std::optional<LessonOutcome> LessonsView::outcome(const QString& side) const
{
    const int k = sideIndex(side);
    return k < 0 ? std::nullopt : m_outcomes[k];
}

QString LessonsView::verdictText(const QString& side) const
{
    const int k = sideIndex(side);
    return k < 0 ? QString() : m_verdicts[k]->text();
}

QString LessonsView::outcomeText(const QString& side) const
{
    const int k = sideIndex(side);
    return k < 0 ? QString() : m_details[k]->toPlainText();
}

ScriptEditor* LessonsView::scriptView(const QString& side) const
{
    const int k = sideIndex(side);
    return k < 0 ? nullptr : m_scripts[k];
}

QPushButton* LessonsView::openButton(const QString& side) const
{
    const int k = sideIndex(side);
    return k < 0 ? nullptr : m_openButtons[k];
}

}  // namespace ps::ui
