#include "ui/lessons/LessonsView.h"

#include "ui/common/QtText.h"
#include "ui/common/SideBySideDiffView.h"
#include "ui/editor/ScriptEditor.h"
#include "ui/editor/ScriptFile.h"
#include "ui/lessons/LessonOutcomeView.h"
#include "ui/lessons/LessonRunner.h"
#include "ui/run/WorkerClient.h"

#include "install/InstallLayout.h"

#include <QFile>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSplitter>
#include <QStyle>
#include <QTextBlock>
#include <QTextBrowser>
#include <QTextCursor>
#include <QVBoxLayout>

namespace ps::ui {

namespace {

constexpr int kNameRole = Qt::UserRole + 1;

using lessons::kLessonSides;
using lessons::LessonSide;

/// The k-th pane's side (broken on the left).
LessonSide sideAt(int k)
{
    return kLessonSides[static_cast<std::size_t>(k)];
}

/// "broken" or "fixed": the script's name without ".py".
QString sideName(int k)
{
    return q(std::string(lessons::toString(sideAt(k))));
}

/// lesson.md without its first heading (the view shows it as the title above).
QString withoutTitle(const QString& md)
{
    QStringList lines = md.split(QLatin1Char('\n'));
    for (int i = 0; i < lines.size(); ++i) {
        if (lines[i].trimmed().isEmpty())
            continue;
        if (lines[i].startsWith(QLatin1Char('#')))
            lines.remove(i);
        break;
    }
    return lines.join(QLatin1Char('\n'));
}

}  // namespace

LessonsView::LessonsView(const QString& pythonEnv, const QString& lessonsDir, QWidget* parent)
    : QWidget(parent), m_pythonEnv(pythonEnv), m_runner(new LessonRunner(pythonEnv, this))
{
    setObjectName(QStringLiteral("lessonsView"));

    m_problem = new QLabel;
    m_problem->setObjectName(QStringLiteral("lessonsProblem"));
    m_problem->setWordWrap(true);
    m_problem->setTextFormat(Qt::PlainText);
    m_problem->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_problem->setStyleSheet(QStringLiteral("QLabel { color: #c62828; font-weight: bold; }"));
    m_problem->hide();

    // The title: a heading one step above the text, not lesson.md's H1.
    m_title = new QLabel;
    m_title->setObjectName(QStringLiteral("lessonTitle"));
    m_title->setTextFormat(Qt::PlainText);
    m_title->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_title->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    QFont heading = m_title->font();
    heading.setBold(true);
    heading.setPointSizeF(heading.pointSizeF() * 1.3);
    m_title->setFont(heading);

    m_runButton = new QPushButton(style()->standardIcon(QStyle::SP_MediaPlay), tr("Run Both"));
    m_runButton->setToolTip(tr("Run broken.py, then fixed.py, in a worker of the Lessons' own (nothing is stored in "
                               "the library), and check each against what the lesson expects"));
    m_cancelButton = new QPushButton(style()->standardIcon(QStyle::SP_MediaStop), tr("Cancel"));
    m_cancelButton->setToolTip(tr("Kill the worker running the lesson's script"));
    m_stageLabel = new QLabel;
    m_stageLabel->setTextFormat(Qt::PlainText);
    m_stageLabel->setWordWrap(true);  // a long status must not widen the window
    m_stageLabel->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    auto* top = new QHBoxLayout;
    top->addWidget(m_title, 1);
    top->addWidget(m_runButton);
    top->addWidget(m_cancelButton);

    m_list = new QListWidget;
    m_list->setObjectName(QStringLiteral("lessonList"));
    m_list->setSelectionMode(QAbstractItemView::SingleSelection);
    m_list->setWordWrap(true);
    m_dirLabel = new QLabel;
    m_dirLabel->setTextFormat(Qt::PlainText);
    m_dirLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_dirLabel->setForegroundRole(QPalette::PlaceholderText);
    m_dirLabel->setWordWrap(true);
    m_dirLabel->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    auto* listBox = new QWidget;
    auto* ll = new QVBoxLayout(listBox);
    ll->setContentsMargins(0, 0, 0, 0);
    ll->addWidget(m_list, 1);
    ll->addWidget(m_dirLabel);

    m_explanation = new QTextBrowser;
    m_explanation->setObjectName(QStringLiteral("lessonExplanation"));
    m_explanation->setOpenExternalLinks(true);

    m_upper = new QSplitter(Qt::Horizontal);
    m_upper->addWidget(listBox);
    m_upper->addWidget(m_explanation);
    m_upper->setStretchFactor(0, 0);
    m_upper->setStretchFactor(1, 1);
    m_upper->setChildrenCollapsible(false);

    m_diff = new SideBySideDiffView;
    m_outcomeSplit = new QSplitter(Qt::Horizontal);
    m_outcomeSplit->setChildrenCollapsible(false);
    for (int k = 0; k < 2; ++k) {
        m_diff->title(k)->setText(sideName(k) + QStringLiteral(".py"));
        m_sideRunButtons[k] = new QPushButton(style()->standardIcon(QStyle::SP_MediaPlay), tr("Run"));
        m_sideRunButtons[k]->setObjectName(QStringLiteral("lessonRun_%1").arg(sideName(k)));
        m_sideRunButtons[k]->setToolTip(
            tr("Run %1.py alone and check it against what the lesson expects").arg(sideName(k)));
        m_openButtons[k] = new QPushButton(tr("Open in Editor"));
        m_openButtons[k]->setToolTip(tr("Open %1.py in the window's editor").arg(sideName(k)));
        m_diff->addHeaderWidget(k, m_sideRunButtons[k]);
        m_diff->addHeaderWidget(k, m_openButtons[k]);
        m_diff->editor(k)->setObjectName(QStringLiteral("lesson_%1").arg(sideName(k)));
        m_outcomeViews[k] = new LessonOutcomeView(sideName(k) + QStringLiteral(".py"));
        m_outcomeSplit->addWidget(m_outcomeViews[k]);

        connect(m_openButtons[k], &QPushButton::clicked, this, [this, k]() {
            if (m_current)
                emit openScript(LessonOutcome::scriptPath(*m_current, sideAt(k)));
        });
        connect(m_sideRunButtons[k], &QPushButton::clicked, this, [this, k]() { runSides({sideAt(k)}); });
    }
    // The outcomes stay under their scripts when the panes' divider moves.
    connect(m_diff->splitter(), &QSplitter::splitterMoved, this,
        [this]() { m_outcomeSplit->setSizes(m_diff->splitter()->sizes()); });
    connect(m_outcomeSplit, &QSplitter::splitterMoved, this,
        [this]() { m_diff->splitter()->setSizes(m_outcomeSplit->sizes()); });

    m_outer = new QSplitter(Qt::Vertical);
    m_outer->setChildrenCollapsible(false);
    m_outer->addWidget(m_upper);
    m_outer->addWidget(m_diff);
    m_outer->addWidget(m_outcomeSplit);
    m_outer->setStretchFactor(0, 3);
    m_outer->setStretchFactor(1, 5);
    m_outer->setStretchFactor(2, 2);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_problem);
    layout->addLayout(top);
    layout->addWidget(m_stageLabel);
    layout->addWidget(m_outer, 1);

    connect(m_list, &QListWidget::currentRowChanged, this, &LessonsView::showLesson);
    connect(m_runButton, &QPushButton::clicked, this, [this]() { runBoth(); });
    connect(m_cancelButton, &QPushButton::clicked, this, &LessonsView::cancel);
    m_tick.setInterval(100);
    connect(&m_tick, &QTimer::timeout, this, [this]() { m_stageLabel->setText(stageText()); });

    connect(m_runner, &LessonRunner::sideStarted, this, [this](LessonSide side) {
        const int k = lessons::indexOf(side);
        m_outcomes[k].reset();
        m_outcomeViews[k]->showRunning();
        m_tick.start();
        updateButtons();
        m_stageLabel->setText(stageText());
    });
    connect(m_runner, &LessonRunner::stageChanged, this, [this]() {
        updateButtons();
        m_stageLabel->setText(stageText());
    });
    connect(m_runner, &LessonRunner::sideFinished, this, &LessonsView::onSideFinished);
    connect(m_runner, &LessonRunner::workerProblem, this, [this](const QString& message) {
        m_runProblem = tr("The worker could not start: %1. The studio's Python environment is made by %2.")
                           .arg(message, QString::fromStdString(install::InstallLayout::environmentCommand()));
        updateProblem();
    });
    connect(m_runner, &LessonRunner::finished, this, &LessonsView::onRunEnded);

    setLessonsDir(
        lessonsDir.isEmpty() ? QString::fromStdString(lessons::LessonCatalogue::defaultLessonsDir()) : lessonsDir);
}

LessonsView::~LessonsView()
{
    m_tick.stop();
    m_runner->disconnect(this);  // the runner (a child) ends after this view's members
}

bool LessonsView::busy() const
{
    return m_runner->busy();
}

bool LessonsView::hasWorker() const
{
    return m_runner->hasWorker();
}

void LessonsView::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    if (m_sized)
        return;
    // First sizes: a readable list beside the explanation; most of the height for the scripts.
    m_sized = true;
    const int w = std::max(width(), 600);
    // The list wide enough for a title on one line and tall enough for a dozen of them.
    m_upper->setSizes({std::clamp(w / 4, 260, 400), w});
    const int h = std::max(m_outer->height(), 400);
    m_outer->setSizes({h * 36 / 100, h * 44 / 100, h * 20 / 100});
    m_outcomeSplit->setSizes(m_diff->splitter()->sizes());
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
        m_lessons = lessons::LessonCatalogue::list(m_lessonsDir.toStdString());
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

std::optional<lessons::Lesson> LessonsView::currentLesson() const
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
        m_title->clear();
        m_explanation->clear();
        m_diff->clear();
        updateProblem();
        updateButtons();
        m_stageLabel->setText(stageText());
        return;
    }
    m_current = m_lessons[static_cast<std::size_t>(row)];
    QStringList problems;
    m_title->setText(
        m_current->title.empty() ? QString::fromStdString(m_current->name) : QString::fromStdString(m_current->title));
    m_title->setToolTip(QString::fromStdString(m_current->dir));

    const QString md = QString::fromStdString(m_current->lessonMd);
    QFile mdFile(md);
    if (mdFile.open(QIODevice::ReadOnly)) {
        showExplanation(withoutTitle(QString::fromUtf8(mdFile.readAll())));
    } else {
        const QString why = QFileInfo::exists(md) ? tr("%1 cannot be read: %2").arg(md, mdFile.errorString())
                                                  : tr("%1 is missing").arg(md);
        m_explanation->setPlainText(why);
        problems << why;
    }

    QString texts[2];
    for (int k = 0; k < 2; ++k) {
        const QString path = LessonOutcome::scriptPath(*m_current, sideAt(k));
        const ScriptFile file = ScriptFile::read(path);
        if (file.status == ScriptFile::Status::Refused)
            problems << tr("%1.py cannot be shown: %2").arg(sideName(k), file.message);
        else if (file.status == ScriptFile::Status::ReadOnly)
            problems << tr("%1.py is shown in part: %2").arg(sideName(k), file.message);
        if (file.status != ScriptFile::Status::Refused)
            texts[k] = file.text;
        m_diff->title(k)->setToolTip(path);
    }
    m_diff->setTexts(texts[0], texts[1]);

    QString error;
    if (!LessonOutcome::readExpect(QString::fromStdString(m_current->expect), &error))
        problems << error;
    m_lessonProblem = problems.join(QLatin1Char('\n'));
    updateProblem();
    updateButtons();
    m_stageLabel->setText(stageText());
    emit lessonChanged(QString::fromStdString(m_current->name));
}

void LessonsView::showExplanation(const QString& markdown)
{
    m_explanation->setMarkdown(markdown);
    // Markdown headings come in up to twice the text's size; here they are section heads of a
    // short text: bold, a little larger.
    QTextDocument* doc = m_explanation->document();
    const qreal base = doc->defaultFont().pointSizeF() > 0 ? doc->defaultFont().pointSizeF() : font().pointSizeF();
    for (QTextBlock block = doc->begin(); block.isValid(); block = block.next()) {
        const int level = block.blockFormat().headingLevel();
        if (level <= 0)
            continue;
        QTextCursor cursor(block);
        cursor.select(QTextCursor::BlockUnderCursor);
        QTextCharFormat format;
        format.setFontWeight(QFont::Bold);
        format.setFontPointSize(base * (level <= 2 ? 1.15 : 1.0));
        format.setProperty(QTextFormat::FontSizeAdjustment, 0);
        cursor.mergeCharFormat(format);
    }
}

// ---- running ------------------------------------------------------------------------------------

bool LessonsView::runBoth()
{
    return runSides({kLessonSides.begin(), kLessonSides.end()});
}

bool LessonsView::runSide(LessonSide side)
{
    return runSides({side});
}

bool LessonsView::runSides(const QList<LessonSide>& sides)
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
    const auto lesson = lessons::LessonCatalogue::find(m_lessonsDir.toStdString(), m_current->name);
    if (!lesson) {
        m_runProblem
            = tr("The lesson %1 is no longer in %2.").arg(QString::fromStdString(m_current->name), m_lessonsDir);
        updateProblem();
        return false;
    }
    QStringList missing;
    for (LessonSide side : sides) {
        const QString path = LessonOutcome::scriptPath(*lesson, side);
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
    for (LessonSide side : sides) {
        const int k = lessons::indexOf(side);
        m_outcomes[k].reset();
        m_seconds[k] = 0;
        showOutcome(k);
    }
    m_lastResult.clear();
    if (!m_runner->start(*lesson, *expect, sides, &error)) {
        m_runProblem = tr("Scripts cannot run: %1").arg(error);
        updateProblem();
        return false;
    }
    updateProblem();
    return true;
}

void LessonsView::cancel()
{
    m_runner->cancel();
}

void LessonsView::prewarm()
{
    m_runner->prewarm();
}

void LessonsView::releaseWorker()
{
    m_runner->release(tr("not run: the Lessons window was closed"));
}

void LessonsView::onSideFinished(LessonSide side, const LessonOutcome& outcome, double seconds)
{
    const int k = lessons::indexOf(side);
    m_outcomes[k] = outcome;
    m_seconds[k] = seconds;
    showOutcome(k);
}

void LessonsView::onRunEnded(bool cancelled)
{
    m_tick.stop();
    const QList<LessonSide>& sides = m_runner->sides();
    const bool both = sides.size() == 2;
    if (cancelled) {
        m_lastResult = tr("Cancelled: the worker was killed.");
    } else if (both && m_outcomes[0] && m_outcomes[1] && m_outcomes[0]->matches() && m_outcomes[1]->matches()) {
        m_lastResult = tr("Both scripts report what the lesson expects (broken.py %1 s, fixed.py %2 s).")
                           .arg(m_seconds[0], 0, 'f', 1)
                           .arg(m_seconds[1], 0, 'f', 1);
    } else {
        QStringList parts;
        for (LessonSide side : sides) {
            const int k = lessons::indexOf(side);
            parts << QStringLiteral("%1.py: %2")
                         .arg(sideName(k), m_outcomes[k] ? m_outcomes[k]->verdict() : tr("not run"));
        }
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
    m_outcomeViews[k]->showOutcome(m_outcomes[k], m_seconds[k]);
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
        const bool exists = m_current && QFileInfo(LessonOutcome::scriptPath(*m_current, sideAt(k))).isFile();
        m_openButtons[k]->setEnabled(exists);
        m_sideRunButtons[k]->setEnabled(!running && exists);
        scripts = scripts && exists;
    }
    m_runButton->setEnabled(!running && scripts);
    m_cancelButton->setEnabled(running && !m_runner->cancelRequested());
    m_list->setEnabled(!running);
}

QString LessonsView::stageText() const
{
    if (!busy()) {
        if (!m_lastResult.isEmpty())
            return m_lastResult;
        return m_current ? tr("Run Both runs broken.py, then fixed.py (nothing is stored in the library).") : QString();
    }
    const QString script = m_runner->running() ? sideName(lessons::indexOf(*m_runner->running())) : QString();
    if (m_runner->cancelRequested())
        return tr("%1.py: cancelling…").arg(script);
    QString s = WorkerClient::stageWords(m_runner->stage());
    if (!m_runner->stageCapture().isEmpty())
        s += QStringLiteral(" · ") + m_runner->stageCapture();
    return tr("%1.py: %2 · %3 s").arg(script, s).arg(m_runner->elapsedSeconds(), 0, 'f', 1);
}

QString LessonsView::problem() const
{
    return m_problem->text();
}

std::optional<LessonOutcome> LessonsView::outcome(LessonSide side) const
{
    return m_outcomes[lessons::indexOf(side)];
}

QString LessonsView::verdictText(LessonSide side) const
{
    return m_outcomeViews[lessons::indexOf(side)]->verdictText();
}

QString LessonsView::outcomeText(LessonSide side) const
{
    return m_outcomeViews[lessons::indexOf(side)]->detailsText();
}

ScriptEditor* LessonsView::scriptView(LessonSide side) const
{
    return m_diff->editor(lessons::indexOf(side));
}

QPushButton* LessonsView::runSideButton(LessonSide side) const
{
    return m_sideRunButtons[lessons::indexOf(side)];
}

QPushButton* LessonsView::openButton(LessonSide side) const
{
    return m_openButtons[lessons::indexOf(side)];
}

}  // namespace ps::ui
