// The Lessons: every lesson listed with its title, a lesson shown with its explanation and both
// scripts side by side with their difference marked, a window of their own that leaves the main
// window's editor as it was and stops its worker when closed, Run Both and Run one side through
// the real worker compared with expect.json, a wrong expect.json, the errors named in the view,
// and a cancel that leaves the view usable.
#include "UiTestSupport.h"
#include "WithoutWorkerPool.h"

#include "ui/common/SideBySideDiffView.h"
#include "ui/editor/ScriptEditor.h"
#include "ui/lessons/LessonOutcome.h"
#include "ui/lessons/LessonsView.h"
#include "ui/lessons/LessonsWindow.h"
#include "ui/library/LibraryView.h"

#include <QAction>
#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QFileInfo>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QRegularExpression>
#include <QSettings>
#include <QTest>
#include <QTextBlock>
#include <QTextBrowser>
#include <QToolBar>

#include <gtest/gtest.h>

#include <algorithm>
#include <iterator>
#include <set>
#include <tuple>

#include <signal.h>
#include <unistd.h>

using namespace ps::uitest;
using ps::lessons::LessonSide;
using ps::ui::LessonsView;

namespace {

constexpr int kRunTimeoutMs = 600000;

QString lessonsDir()
{
    return sourcePath(QStringLiteral("resources/lessons"));
}

QString readText(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}

QString firstHeading(const QString& md)
{
    for (const QString& line : readText(md).split(QLatin1Char('\n')))
        if (line.startsWith(QLatin1Char('#'))) {
            QString title = line;
            while (title.startsWith(QLatin1Char('#')))
                title.remove(0, 1);
            return title.trimmed();
        }
    return {};
}

QString canonical(const QString& path)
{
    return QFileInfo(path).canonicalFilePath();
}

/// Runs both scripts and waits for finished(); false on timeout.
bool runBothAndWait(LessonsView& view, int timeoutMs = kRunTimeoutMs)
{
    bool done = false;
    auto connection = QObject::connect(&view, &LessonsView::finished, [&]() { done = true; });
    const bool started = view.runBoth();
    const bool ok = started && waitFor([&]() { return done; }, timeoutMs);
    QObject::disconnect(connection);
    return ok;
}

/// A lesson folder under `root`: lesson.md, broken.py, fixed.py and expect.json (any of them
/// left out when its content is null).
void writeLesson(const QString& root, const QString& name, const QByteArray& md, const QByteArray& broken,
    const QByteArray& fixed, const QByteArray& expect)
{
    QDir().mkpath(root + "/" + name);
    const std::pair<const char*, const QByteArray*> files[]
        = {{"lesson.md", &md}, {"broken.py", &broken}, {"fixed.py", &fixed}, {"expect.json", &expect}};
    for (const auto& [file, content] : files) {
        if (content->isNull())
            continue;
        QFile f(root + "/" + name + "/" + file);
        ASSERT_TRUE(f.open(QIODevice::WriteOnly));
        f.write(*content);
    }
}

/// The worker processes this test process has started and that still run: children whose
/// executable is a precompile-studio-worker-SERIES (a reaped worker is gone from /proc).
std::set<int> workerProcesses()
{
    std::set<int> pids;
    const QString me = QString::number(::getpid());
    for (const QString& entry : QDir(QStringLiteral("/proc")).entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
        bool number = false;
        const int pid = entry.toInt(&number);
        if (!number)
            continue;
        QFile stat(QStringLiteral("/proc/%1/stat").arg(entry));
        if (!stat.open(QIODevice::ReadOnly))
            continue;
        // pid (comm) state ppid ...: comm may hold spaces, so read after its closing parenthesis.
        const QString text = QString::fromUtf8(stat.readAll());
        const QStringList fields = text.mid(text.lastIndexOf(QLatin1Char(')')) + 2).split(QLatin1Char(' '));
        if (fields.size() < 2 || fields[1] != me || fields[0] == QLatin1String("Z"))
            continue;
        if (QFileInfo(QFile::symLinkTarget(QStringLiteral("/proc/%1/exe").arg(entry)))
                .fileName()
                .startsWith(QLatin1String("precompile-studio-worker-")))
            pids.insert(pid);
    }
    return pids;
}

const QByteArray kOkExpect = R"({"broken": {"status": "ok", "violation": null,
                                             "captures": [{"status": "ok", "violation": null}]},
                                  "fixed":  {"status": "ok", "violation": null,
                                             "captures": [{"status": "ok", "violation": null}]}})";

class UiLessons : public ::testing::Test {
protected:
    void SetUp() override { QSettings().clear(); }
    TempDir dir;
};

TEST_F(UiLessons, ThePanelListsEveryLessonFolderWithItsTitle)
{
    LessonsView view(QString(), lessonsDir());
    QStringList folders = QDir(lessonsDir()).entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name);
    ASSERT_GE(folders.size(), 7);
    // The contract's invariants in order (inv1 ... inv7), then the other lessons by name.
    std::stable_sort(folders.begin(), folders.end(), [](const QString& a, const QString& b) {
        const auto key = [](const QString& f) {
            const bool inv = f.startsWith("inv") && f.size() > 3 && f[3].isDigit();
            return std::pair{inv ? 0 : 1, inv ? f.mid(3).section('-', 0, 0).toInt() : 0};
        };
        return key(a) < key(b);
    });
    ASSERT_TRUE(folders.front().startsWith("inv1-")) << folders.front().toStdString();
    EXPECT_EQ(view.lessonNames(), folders);
    ASSERT_EQ(view.lessonList()->count(), folders.size());
    for (int i = 0; i < folders.size(); ++i) {
        const QString title = firstHeading(lessonsDir() + "/" + folders[i] + "/lesson.md");
        ASSERT_FALSE(title.isEmpty()) << folders[i].toStdString();
        EXPECT_EQ(view.lessonList()->item(i)->text(), title) << folders[i].toStdString();
    }
    EXPECT_EQ(view.problem(), QString()) << view.problem().toStdString();
    // The first lesson is shown; nothing has run, and no worker was started for the panel.
    ASSERT_TRUE(view.currentLesson().has_value());
    EXPECT_EQ(QString::fromStdString(view.currentLesson()->name), folders.front());
    EXPECT_FALSE(view.busy());
    EXPECT_FALSE(view.outcome(LessonSide::Broken).has_value());
    EXPECT_TRUE(view.runButton()->isEnabled());
    EXPECT_FALSE(view.cancelButton()->isEnabled());
}

TEST_F(UiLessons, SelectingALessonShowsItsExplanationAndBothScriptsReadOnly)
{
    LessonsView view(QString(), lessonsDir());
    const QString name = "inv1-closed-over-tensor";
    QString changed;
    QObject::connect(&view, &LessonsView::lessonChanged, [&](const QString& n) { changed = n; });
    ASSERT_TRUE(view.selectLesson(name));
    EXPECT_EQ(changed, name);
    ASSERT_TRUE(view.currentLesson().has_value());
    EXPECT_EQ(QString::fromStdString(view.currentLesson()->name), name);
    const QString title = firstHeading(lessonsDir() + "/" + name + "/lesson.md");
    EXPECT_EQ(view.lessonList()->currentItem()->data(Qt::DisplayRole).toString(), title);

    // The title is a heading above the text, a step larger than it, not lesson.md's huge H1.
    EXPECT_EQ(view.titleLabel()->text(), title);
    const qreal base = view.font().pointSizeF();
    EXPECT_GT(view.titleLabel()->font().pointSizeF(), base);
    EXPECT_LE(view.titleLabel()->font().pointSizeF(), base * 1.5);
    // lesson.md is rendered (markdown) below it, without the title again.
    const QString shown = view.explanation()->toPlainText();
    EXPECT_FALSE(shown.contains(title)) << shown.toStdString();
    EXPECT_TRUE(shown.contains("register_buffer")) << shown.toStdString();
    EXPECT_FALSE(shown.contains("**The rule.**")) << shown.toStdString();

    for (LessonSide s : ps::lessons::kLessonSides) {
        ps::ui::ScriptEditor* editor = view.scriptView(s);
        const QString side = QString::fromStdString(std::string(ps::lessons::toString(s)));
        ASSERT_NE(editor, nullptr);
        EXPECT_EQ(editor->text(), readText(lessonsDir() + "/" + name + "/" + side + ".py")) << side.toStdString();
        EXPECT_TRUE(editor->isReadOnly()) << side.toStdString();
    }
    EXPECT_TRUE(view.scriptView(LessonSide::Broken)->text().contains("+ offset"));
    EXPECT_TRUE(view.scriptView(LessonSide::Fixed)->text().contains("register_buffer"));

    // Open in Editor asks for the script's file.
    QString opened;
    QObject::connect(&view, &LessonsView::openScript, [&](const QString& path) { opened = path; });
    view.openButton(LessonSide::Fixed)->click();
    EXPECT_EQ(canonical(opened), canonical(lessonsDir() + "/" + name + "/fixed.py"));

    EXPECT_FALSE(view.selectLesson("no-such-lesson"));
    EXPECT_EQ(QString::fromStdString(view.currentLesson()->name), name);
    ASSERT_TRUE(view.selectLesson("tracer-dynamo"));
    EXPECT_TRUE(view.explanation()->toPlainText().contains("make_fx"));
}

TEST_F(UiLessons, HeadingsInLessonMdAreSectionHeadsNotPosters)
{
    const QString root = dir.file("lessons");
    writeLesson(
        root, "sections", "# The title\n\nIntro.\n\n## A section\n\nText.\n", tinyScript(), tinyScript(), kOkExpect);
    LessonsView view(QString(), root);
    ASSERT_TRUE(view.selectLesson("sections"));
    EXPECT_EQ(view.titleLabel()->text(), "The title");
    EXPECT_FALSE(view.explanation()->toPlainText().contains("The title"));
    const qreal base = view.font().pointSizeF();
    int headings = 0;
    for (QTextBlock b = view.explanation()->document()->begin(); b.isValid(); b = b.next()) {
        if (b.blockFormat().headingLevel() == 0)
            continue;
        ++headings;
        EXPECT_EQ(b.text(), "A section");
        for (auto it = b.begin(); !it.atEnd(); ++it) {
            const QTextCharFormat f = it.fragment().charFormat();
            EXPECT_LE(f.intProperty(QTextFormat::FontSizeAdjustment), 0);
            EXPECT_LE(f.fontPointSize(), base * 1.3);
            EXPECT_GE(f.fontWeight(), QFont::Bold);
        }
    }
    EXPECT_EQ(headings, 1);
}

TEST_F(UiLessons, TheDiffMarksExactlyTheLinesThatDifferAndThePanesScrollTogether)
{
    LessonsView view(QString(), lessonsDir());
    ASSERT_TRUE(view.selectLesson("inv1-closed-over-tensor"));
    ps::ui::SideBySideDiffView* diff = view.diffView();
    // As `diff broken.py fixed.py` says: 1c1, 7,9d6, 14a12,13, 17c16.
    EXPECT_EQ(diff->markedLines(0), (QList<int>{1, 7, 8, 9, 17}));
    EXPECT_EQ(diff->markedLines(1), (QList<int>{1, 12, 13, 16}));
    // Within a changed line paired with one on the other side, only the part that differs.
    EXPECT_EQ(
        diff->markedFragments(0), (QStringList{"broken", "offset  # reads a tensor from outside fn and the model"}));
    EXPECT_EQ(diff->markedFragments(1), (QStringList{"fixed", "self.offset"}));

    // Scrolled on one side, the other shows the matching line at the top.
    view.resize(1000, 380);
    view.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&view));
    ps::ui::ScriptEditor* broken = view.scriptView(LessonSide::Broken);
    ps::ui::ScriptEditor* fixed = view.scriptView(LessonSide::Fixed);
    ASSERT_LE(broken->SendScintilla(QsciScintillaBase::SCI_LINESONSCREEN), 9) << "the panes must scroll";
    // Each hunk's shorter side has blank lines for the difference, so the panes go line for
    // line on screen (display lines, counting those blank ones).
    EXPECT_EQ(diff->spacerLines(0), 2);  // fixed.py's lines 12-13
    EXPECT_EQ(diff->spacerLines(1), 3);  // broken.py's lines 7-9
    const auto visible = [](ps::ui::ScriptEditor* e, int doc) {
        return static_cast<int>(
            e->SendScintilla(QsciScintillaBase::SCI_VISIBLEFROMDOCLINE, static_cast<unsigned long>(doc)));
    };
    const auto docAtTop = [](ps::ui::ScriptEditor* e) {
        return static_cast<int>(e->SendScintilla(
            QsciScintillaBase::SCI_DOCLINEFROMVISIBLE, static_cast<unsigned long>(e->firstVisibleLine())));
    };
    broken->setFirstVisibleLine(visible(broken, 15));  // line 16: "    def forward(self, x):", line 15 of fixed.py
    // The other pane follows; the assertions below read where it went.
    waitFor([&]() { return docAtTop(fixed) == 14 && fixed->firstVisibleLine() == broken->firstVisibleLine(); }, 5000);
    EXPECT_EQ(docAtTop(fixed), 14);
    EXPECT_EQ(fixed->firstVisibleLine(), broken->firstVisibleLine());
    fixed->setFirstVisibleLine(visible(fixed, 11));  // line 12, added: faces the blank lines under broken.py's 14
    waitFor([&]() { return broken->firstVisibleLine() == fixed->firstVisibleLine() && docAtTop(broken) == 13; }, 5000);
    EXPECT_EQ(broken->firstVisibleLine(), fixed->firstVisibleLine());
    EXPECT_EQ(docAtTop(broken), 13);

    // Another lesson: its own marks, none left from the first.
    ASSERT_TRUE(view.selectLesson("tracer-dynamo"));
    EXPECT_FALSE(diff->markedLines(0).isEmpty());
    EXPECT_FALSE(diff->markedLines(0).contains(17));
    EXPECT_FALSE(diff->markedFragments(1).contains("self.offset"));
}

TEST_F(UiLessons, LessonsOpenInARoomyWindowOfTheirOwnAndTheEditorKeepsItsSize)
{
    ps::ui::MainWindow window(windowOptions(dir, /*prewarm=*/false));
    window.resize(1400, 900);
    window.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
    ASSERT_TRUE(waitForSettled([&]() { return window.editor()->size(); }, 5000)) << "the window is not laid out";
    const QSize editorBefore = window.editor()->size();
    ASSERT_NE(window.lessonsWindow(), nullptr);
    EXPECT_FALSE(window.lessonsWindow()->isVisible());

    // One click away: on the toolbar, and Help > Lessons (Ctrl+Shift+E).
    QAction* lessons = nullptr;
    for (QAction* a : window.findChildren<QAction*>())
        if (a->shortcut() == QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E))
            lessons = a;
    ASSERT_NE(lessons, nullptr) << "no Ctrl+Shift+E action";
    bool onToolBar = false;
    for (QToolBar* bar : window.findChildren<QToolBar*>())
        onToolBar = onToolBar || bar->actions().contains(lessons);
    EXPECT_TRUE(onToolBar);
    lessons->trigger();
    ps::ui::LessonsWindow* lessonsWindow = window.lessonsWindow();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(lessonsWindow));
    // Whatever the new window's show asked of the main window's layout, done.
    EXPECT_TRUE(waitForSettled([&]() { return window.editor()->size(); }, 5000));
    EXPECT_TRUE(lessonsWindow->isWindow());
    EXPECT_EQ(lessonsWindow->parentWidget(), nullptr);  // beside the main window, not above it
    EXPECT_EQ(window.editor()->size(), editorBefore);

    // At 1400x900 each script shows at least 80 columns, and the list is readable.
    lessonsWindow->resize(1400, 900);
    LessonsView* view = window.lessonsView();
    ASSERT_TRUE(waitFor([&]() { return lessonsWindow->size() == QSize(1400, 900); }, 5000));
    EXPECT_TRUE(waitForSettled(
        [&]() {
            return std::make_tuple(
                view->diffView()->visibleColumns(0), view->diffView()->visibleColumns(1), view->lessonList()->width());
        },
        5000));
    EXPECT_GE(view->diffView()->visibleColumns(0), 80);
    EXPECT_GE(view->diffView()->visibleColumns(1), 80);
    EXPECT_GE(view->lessonList()->width(), 220);
    // A dozen lessons in view, the first one's title on one line.
    QListWidget* list = view->lessonList();
    const int row = list->visualItemRect(list->item(0)).height();
    EXPECT_LE(row, list->fontMetrics().lineSpacing() * 3 / 2) << list->item(0)->text().toStdString();
    EXPECT_GE(list->viewport()->height() / std::max(row, 1), std::min(12, list->count()));
    EXPECT_EQ(window.editor()->size(), editorBefore);

    EXPECT_GE(view->lessonNames().size(), 7);
    ASSERT_TRUE(view->selectLesson("inv1-closed-over-tensor"));
    view->openButton(LessonSide::Broken)->click();
    EXPECT_EQ(canonical(window.editor()->filePath()), canonical(lessonsDir() + "/inv1-closed-over-tensor/broken.py"));
    EXPECT_TRUE(window.editor()->text().contains("+ offset"));

    // Closing the main window closes the lessons' too.
    window.close();
    EXPECT_FALSE(lessonsWindow->isVisible());
}

TEST_F(UiLessons, ClosingTheLessonsWindowStopsItsWorkerAndReopeningStartsAnother)
{
    // The worker must be this process's child to be found; a pooled worker's end when its front
    // end goes is WorkerPoolTest's.
    const WithoutWorkerPool started;
    const std::set<int> before = workerProcesses();
    auto added = [&]() {
        std::set<int> now = workerProcesses(), fresh;
        std::set_difference(now.begin(), now.end(), before.begin(), before.end(), std::inserter(fresh, fresh.end()));
        return fresh;
    };
    ps::ui::LessonsWindow lessonsWindow(QString(), /*prewarm=*/true);
    LessonsView* view = lessonsWindow.view();
    EXPECT_FALSE(view->hasWorker());
    EXPECT_TRUE(added().empty());

    lessonsWindow.showAndRaise();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&lessonsWindow));
    EXPECT_TRUE(view->hasWorker());
    ASSERT_TRUE(waitFor([&]() { return !added().empty(); }, 30000)) << "no worker process started";
    const std::set<int> first = added();

    lessonsWindow.close();
    EXPECT_FALSE(view->hasWorker());
    EXPECT_TRUE(waitFor([&]() { return added().empty(); }, 5000)) << "the worker outlived the window";
    for (int pid : first)
        EXPECT_NE(::kill(pid, 0), 0) << pid;

    lessonsWindow.showAndRaise();
    ASSERT_TRUE(waitFor([&]() { return !added().empty(); }, 30000)) << "no worker after reopening";
    for (int pid : added())
        EXPECT_EQ(first.count(pid), 0u) << "the same process";
    lessonsWindow.close();
    EXPECT_TRUE(waitFor([&]() { return added().empty(); }, 5000));
}

TEST_F(UiLessons, RunBothRunsBrokenThenFixedAndBothReportWhatExpectJsonSays)
{
    // inv1 is the fastest lesson: eager backend, a 4x4 Linear, and broken.py stops at capture.
    ps::ui::MainWindow window(windowOptions(dir, /*prewarm=*/false));
    LessonsView* view = window.lessonsView();
    ASSERT_TRUE(view->selectLesson("inv1-closed-over-tensor"));

    QStringList stages;
    QTimer probe;
    QObject::connect(&probe, &QTimer::timeout, [&]() {
        if (view->busy() && (stages.isEmpty() || stages.back() != view->stageText().section(" · ", 0, 0)))
            stages << view->stageText().section(" · ", 0, 0);
    });
    probe.start(50);
    bool done = false;
    QObject::connect(view, &LessonsView::finished, [&]() { done = true; });
    ASSERT_TRUE(view->runBoth()) << view->problem().toStdString();
    EXPECT_TRUE(view->busy());
    EXPECT_FALSE(view->runButton()->isEnabled());
    EXPECT_TRUE(view->cancelButton()->isEnabled());
    EXPECT_FALSE(view->lessonList()->isEnabled());
    EXPECT_FALSE(view->runBoth());  // one at a time
    ASSERT_TRUE(waitFor([&]() { return done; }, kRunTimeoutMs)) << view->stageText().toStdString();
    probe.stop();
    EXPECT_FALSE(view->busy());
    EXPECT_TRUE(view->runButton()->isEnabled());
    EXPECT_FALSE(view->cancelButton()->isEnabled());
    EXPECT_TRUE(view->lessonList()->isEnabled());

    // broken.py first, then fixed.py.
    const int brokenAt = static_cast<int>(stages.indexOf(QRegularExpression("broken\\.py: .*")));
    const int fixedAt = static_cast<int>(stages.indexOf(QRegularExpression("fixed\\.py: .*")));
    ASSERT_GE(brokenAt, 0) << stages.join(" | ").toStdString();
    ASSERT_GE(fixedAt, 0) << stages.join(" | ").toStdString();
    EXPECT_LT(brokenAt, fixedAt);

    const auto broken = view->outcome(LessonSide::Broken);
    const auto fixed = view->outcome(LessonSide::Fixed);
    ASSERT_TRUE(broken.has_value());
    ASSERT_TRUE(fixed.has_value());
    EXPECT_TRUE(broken->matches()) << broken->differences().join("\n").toStdString() << "\n"
                                   << broken->summary().toStdString();
    EXPECT_TRUE(fixed->matches()) << fixed->differences().join("\n").toStdString() << "\n"
                                  << fixed->summary().toStdString();
    EXPECT_EQ(broken->status(), "violation");
    EXPECT_EQ(fixed->status(), "ok");
    EXPECT_EQ(broken->stable().at("captures").at(0).at("violation").at("invariant"), 1);

    // What the panel shows under each script.
    EXPECT_TRUE(view->verdictText(LessonSide::Broken).startsWith("as expected"))
        << view->verdictText(LessonSide::Broken).toStdString();
    EXPECT_TRUE(view->verdictText(LessonSide::Fixed).startsWith("as expected"))
        << view->verdictText(LessonSide::Fixed).toStdString();
    const QString brokenText = view->outcomeText(LessonSide::Broken);
    EXPECT_TRUE(brokenText.contains("inv 1 constant-tensor, line 17")) << brokenText.toStdString();
    EXPECT_FALSE(brokenText.contains("Differences")) << brokenText.toStdString();
    ASSERT_FALSE(broken->findings().empty());
    EXPECT_FALSE(broken->findings().front().message.isEmpty());
    EXPECT_TRUE(brokenText.contains(broken->findings().front().message)) << brokenText.toStdString();
    const QString fixedText = view->outcomeText(LessonSide::Fixed);
    EXPECT_TRUE(fixedText.contains("status: ok")) << fixedText.toStdString();
    EXPECT_TRUE(fixedText.contains("matches eager")) << fixedText.toStdString();
    EXPECT_TRUE(view->stageText().contains("Both scripts report what the lesson expects"))
        << view->stageText().toStdString();
    EXPECT_EQ(view->problem(), QString()) << view->problem().toStdString();

    // One side alone: the other keeps what it showed.
    const QString fixedShown = view->outcomeText(LessonSide::Fixed);
    done = false;
    ASSERT_TRUE(view->runSideButton(LessonSide::Broken)->isEnabled());
    view->runSideButton(LessonSide::Broken)->click();
    EXPECT_TRUE(view->busy());
    EXPECT_FALSE(view->runSideButton(LessonSide::Fixed)->isEnabled());
    EXPECT_EQ(view->outcomeText(LessonSide::Fixed), fixedShown);
    ASSERT_TRUE(waitFor([&]() { return done; }, kRunTimeoutMs)) << view->stageText().toStdString();
    ASSERT_TRUE(view->outcome(LessonSide::Broken).has_value());
    EXPECT_TRUE(view->outcome(LessonSide::Broken)->matches()) << view->outcomeText(LessonSide::Broken).toStdString();
    EXPECT_EQ(view->outcomeText(LessonSide::Fixed), fixedShown);
    EXPECT_TRUE(view->stageText().startsWith("broken.py: as expected")) << view->stageText().toStdString();

    // Lessons are never stored in the library.
    window.libraryView()->reload();
    EXPECT_EQ(window.libraryView()->rowCount(), 0);

    // Another lesson clears what was shown.
    ASSERT_TRUE(view->selectLesson("tracer-dynamo"));
    EXPECT_FALSE(view->outcome(LessonSide::Broken).has_value());
    EXPECT_EQ(view->verdictText(LessonSide::Broken), QString());
}

TEST_F(UiLessons, AWrongExpectJsonShowsDiffersWithTheDifferences)
{
    const QString root = dir.file("lessons");
    writeLesson(root, "wrong-expect", "# A lesson that expects the wrong thing\n\nbroken.py is in fact fine.\n",
        tinyScript(), tinyScript(),
        R"({"broken": {"status": "violation", "captures": [{"status": "violation"}]},
                    "fixed":  {"status": "ok", "violation": null, "captures": [{"status": "ok", "violation": null}]}})");
    LessonsView view(QString(), root);
    ASSERT_EQ(view.lessonNames(), QStringList{"wrong-expect"});
    EXPECT_EQ(view.lessonList()->item(0)->text(), "A lesson that expects the wrong thing");
    ASSERT_TRUE(runBothAndWait(view)) << view.problem().toStdString();

    const auto broken = view.outcome(LessonSide::Broken);
    const auto fixed = view.outcome(LessonSide::Fixed);
    ASSERT_TRUE(broken.has_value());
    ASSERT_TRUE(fixed.has_value());
    EXPECT_FALSE(broken->matches());
    EXPECT_TRUE(broken->ran());
    EXPECT_EQ(broken->status(), "ok");
    EXPECT_TRUE(broken->differences().contains(R"(status: expected "violation", got "ok")"))
        << broken->differences().join("\n").toStdString();
    EXPECT_TRUE(broken->differences().contains(R"(captures[0].status: expected "violation", got "ok")"))
        << broken->differences().join("\n").toStdString();
    EXPECT_TRUE(view.verdictText(LessonSide::Broken).startsWith("differs from expect.json"))
        << view.verdictText(LessonSide::Broken).toStdString();
    const QString text = view.outcomeText(LessonSide::Broken);
    EXPECT_TRUE(text.contains("Differences from expect.json")) << text.toStdString();
    EXPECT_TRUE(text.contains(R"(status: expected "violation", got "ok")")) << text.toStdString();

    EXPECT_TRUE(fixed->matches()) << fixed->differences().join("\n").toStdString();
    EXPECT_TRUE(view.verdictText(LessonSide::Fixed).startsWith("as expected"));
    EXPECT_TRUE(view.stageText().contains("differs from expect.json")) << view.stageText().toStdString();
}

TEST_F(UiLessons, AMissingFolderABadExpectJsonAndAWorkerThatCannotStartAreNamed)
{
    {
        const QString nowhere = dir.file("no-lessons-here");
        LessonsView view(QString(), nowhere);
        EXPECT_TRUE(view.lessonNames().isEmpty());
        EXPECT_TRUE(view.problem().contains(nowhere)) << view.problem().toStdString();
        EXPECT_TRUE(view.problem().contains("No lessons folder")) << view.problem().toStdString();
        EXPECT_FALSE(view.currentLesson().has_value());
        EXPECT_FALSE(view.runButton()->isEnabled());
        EXPECT_FALSE(view.runBoth());
        EXPECT_FALSE(view.busy());
    }

    const QString root = dir.file("lessons");
    const QByteArray md = "# A lesson\n";
    writeLesson(root, "bad-json", md, tinyScript(), tinyScript(), "{\"broken\": {\"status\": ");
    writeLesson(root, "no-expect", md, tinyScript(), tinyScript(), QByteArray());
    writeLesson(root, "no-fixed-side", md, tinyScript(), tinyScript(), R"({"broken": {"status": "ok"}})");
    writeLesson(root, "no-scripts", md, QByteArray(), QByteArray(), kOkExpect);
    writeLesson(root, "tiny", md, tinyScript(), tinyScript(), kOkExpect);
    LessonsView view(dir.file("no-such-env"), root);
    EXPECT_EQ(view.lessonNames(), (QStringList{"bad-json", "no-expect", "no-fixed-side", "no-scripts", "tiny"}));

    ASSERT_TRUE(view.selectLesson("no-expect"));
    const QString expectPath = root + "/no-expect/expect.json";
    EXPECT_TRUE(view.problem().contains(expectPath)) << view.problem().toStdString();
    EXPECT_TRUE(view.problem().contains("missing")) << view.problem().toStdString();
    EXPECT_FALSE(view.runBoth());
    EXPECT_FALSE(view.busy());
    EXPECT_TRUE(view.problem().contains(expectPath)) << view.problem().toStdString();

    ASSERT_TRUE(view.selectLesson("bad-json"));
    EXPECT_TRUE(view.problem().contains(root + "/bad-json/expect.json")) << view.problem().toStdString();
    EXPECT_TRUE(view.problem().contains("not valid JSON")) << view.problem().toStdString();
    EXPECT_FALSE(view.runBoth());

    ASSERT_TRUE(view.selectLesson("no-fixed-side"));
    EXPECT_TRUE(view.problem().contains("has no \"fixed\" object")) << view.problem().toStdString();
    EXPECT_FALSE(view.runBoth());

    ASSERT_TRUE(view.selectLesson("no-scripts"));
    EXPECT_TRUE(view.problem().contains("broken.py")) << view.problem().toStdString();
    EXPECT_FALSE(view.runButton()->isEnabled());
    EXPECT_FALSE(view.openButton(LessonSide::Broken)->isEnabled());
    EXPECT_FALSE(view.runBoth());

    // A lesson that is fine, but no worker can start: the panel says why, naming the environment.
    ASSERT_TRUE(view.selectLesson("tiny"));
    EXPECT_EQ(view.problem(), QString()) << view.problem().toStdString();
    EXPECT_TRUE(view.runButton()->isEnabled());
    EXPECT_FALSE(view.runBoth());
    EXPECT_FALSE(view.busy());
    EXPECT_TRUE(view.problem().contains("Scripts cannot run")) << view.problem().toStdString();
    EXPECT_TRUE(view.problem().contains("no-such-env")) << view.problem().toStdString();
    EXPECT_TRUE(view.runButton()->isEnabled());
}

TEST_F(UiLessons, CancelDuringARunLeavesThePanelUsable)
{
    const QString root = dir.file("lessons");
    writeLesson(root, "endless", "# An endless loop\n", readText(fixtureScript("endless_loop.py")).toUtf8(),
        tinyScript(), kOkExpect);
    writeLesson(root, "tiny", "# A tiny lesson\n", tinyScript(), tinyScript(), kOkExpect);
    LessonsView view(QString(), root);
    ASSERT_TRUE(view.selectLesson("endless"));

    bool done = false;
    QObject::connect(&view, &LessonsView::finished, [&]() { done = true; });
    ASSERT_TRUE(view.runBoth()) << view.problem().toStdString();
    ASSERT_TRUE(waitFor([&]() { return view.stageText().startsWith("broken.py: running the script"); }, 300000))
        << "the script never started: " << view.stageText().toStdString();
    ASSERT_FALSE(waitFor([&]() { return done; }, 500)) << "an endless loop ended by itself";
    QElapsedTimer clock;
    clock.start();
    view.cancelButton()->click();
    EXPECT_FALSE(view.cancelButton()->isEnabled());
    ASSERT_TRUE(waitFor([&]() { return done; }, 30000)) << view.stageText().toStdString();
    EXPECT_LT(clock.elapsed(), 15000);

    ASSERT_TRUE(view.outcome(LessonSide::Broken).has_value());
    EXPECT_TRUE(view.outcome(LessonSide::Broken)->cancelled())
        << view.outcome(LessonSide::Broken)->status().toStdString();
    EXPECT_FALSE(view.outcome(LessonSide::Broken)->matches());
    EXPECT_EQ(view.verdictText(LessonSide::Broken), "cancelled");
    ASSERT_TRUE(view.outcome(LessonSide::Fixed).has_value());
    EXPECT_TRUE(view.outcome(LessonSide::Fixed)->cancelled());  // never run
    EXPECT_TRUE(view.stageText().contains("Cancelled")) << view.stageText().toStdString();
    EXPECT_FALSE(view.busy());
    EXPECT_TRUE(view.runButton()->isEnabled());
    EXPECT_FALSE(view.cancelButton()->isEnabled());
    EXPECT_TRUE(view.lessonList()->isEnabled());

    // A cancel at once, before the worker has even begun the script, is not lost.
    done = false;
    ASSERT_TRUE(view.runBoth());
    view.cancel();
    ASSERT_TRUE(waitFor([&]() { return done; }, 60000)) << view.stageText().toStdString();
    ASSERT_TRUE(view.outcome(LessonSide::Broken).has_value());
    EXPECT_TRUE(view.outcome(LessonSide::Broken)->cancelled())
        << view.outcome(LessonSide::Broken)->status().toStdString();

    // Released (its window closed) during a run: the run ends as cancelled, the worker is gone.
    done = false;
    ASSERT_TRUE(view.runBoth());
    ASSERT_TRUE(waitFor([&]() { return view.stageText().startsWith("broken.py: running the script"); }, 300000))
        << view.stageText().toStdString();
    view.releaseWorker();
    EXPECT_TRUE(done);
    EXPECT_FALSE(view.busy());
    EXPECT_FALSE(view.hasWorker());
    ASSERT_TRUE(view.outcome(LessonSide::Broken).has_value());
    EXPECT_TRUE(view.outcome(LessonSide::Broken)->cancelled());
    EXPECT_TRUE(view.outcomeText(LessonSide::Broken).contains("closed"))
        << view.outcomeText(LessonSide::Broken).toStdString();
    EXPECT_TRUE(view.runButton()->isEnabled());

    // The panel runs the next lesson as usual (with a fresh worker).
    ASSERT_TRUE(view.selectLesson("tiny"));
    ASSERT_TRUE(runBothAndWait(view)) << view.problem().toStdString();
    ASSERT_TRUE(view.outcome(LessonSide::Broken).has_value());
    ASSERT_TRUE(view.outcome(LessonSide::Fixed).has_value());
    EXPECT_TRUE(view.outcome(LessonSide::Broken)->matches()) << view.outcomeText(LessonSide::Broken).toStdString();
    EXPECT_TRUE(view.outcome(LessonSide::Fixed)->matches()) << view.outcomeText(LessonSide::Fixed).toStdString();
}

}  // namespace
