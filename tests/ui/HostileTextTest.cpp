// A run's text is anyone's text: a team member's run, an import, a remote host's words. Opened
// in the window (the library dock, the report's header, tabs and their items, the dialogs'
// words), markup in its names, paths and messages is shown as the characters it is, never read
// as rich text by a label, a tooltip, an item's tooltip or a text browser.
#include "UiTestSupport.h"

#include "ui/library/LibraryView.h"
#include "ui/window/MainWindow.h"

#include "library/core/ArtifactLibrary.h"

#include <QAbstractItemView>
#include <QApplication>
#include <QLabel>
#include <QTextBrowser>
#include <QTextDocument>

#include <gtest/gtest.h>

using namespace ps::uitest;

namespace {

const QString kMarkup = QStringLiteral("<b>pwn</b>");

/// Fails when `text` holds the markup and `format` would read it as rich text.
void expectReadAsPlain(const QString& text, Qt::TextFormat format, const QString& where)
{
    if (!text.contains(kMarkup))
        return;
    const bool rich = format == Qt::RichText || (format == Qt::AutoText && Qt::mightBeRichText(text));
    EXPECT_FALSE(rich) << where.toStdString() << " reads a run's text as markup: " << text.left(200).toStdString();
}

/// Every label, tooltip, item tooltip and text browser under `root`.
int sweep(QWidget& root)
{
    int seen = 0;
    QList<QWidget*> widgets = root.findChildren<QWidget*>();
    widgets.prepend(&root);
    for (QWidget* w : widgets) {
        const QString name = w->metaObject()->className() + QStringLiteral(" ") + w->objectName();
        expectReadAsPlain(w->toolTip(), Qt::AutoText, name + " tooltip");
        seen += w->toolTip().contains(kMarkup);
        if (auto* label = qobject_cast<QLabel*>(w)) {
            expectReadAsPlain(label->text(), label->textFormat(), name);
            seen += label->text().contains(kMarkup);
        }
        if (auto* browser = qobject_cast<QTextBrowser*>(w)) {
            const QString shown = browser->toPlainText();
            EXPECT_FALSE(shown.contains(QStringLiteral("pwn")) && !shown.contains(kMarkup))
                << name.toStdString() << " rendered a run's markup";
        }
        if (auto* view = qobject_cast<QAbstractItemView*>(w); view && view->model()) {
            QList<QModelIndex> pending{QModelIndex()};
            while (!pending.isEmpty()) {
                const QModelIndex parent = pending.takeLast();
                const auto* model = view->model();
                for (int r = 0; r < model->rowCount(parent) && r < 500; ++r)
                    for (int c = 0; c < model->columnCount(parent); ++c) {
                        const QModelIndex index = model->index(r, c, parent);
                        const QString tip = model->data(index, Qt::ToolTipRole).toString();
                        expectReadAsPlain(tip, Qt::AutoText, name + " item tooltip");
                        seen += model->data(index, Qt::DisplayRole).toString().contains(kMarkup);
                        if (c == 0 && model->hasChildren(index))
                            pending << index;
                    }
            }
        }
    }
    return seen;
}

TEST(UiHostileText, ARunsMarkupIsShownAsTextEverywhere)
{
    TempDir dir;
    const auto options = windowOptions(dir, false);
    qint64 id = 0;
    {
        ps::library::ArtifactLibrary library(options.libraryPath.toStdString());
        ps::library::NewRun run;
        const std::string m = kMarkup.toStdString();
        run.report = {{"schema", 1}, {"status", "error"}, {"script", "/home/eve/" + m + ".py"},
            {"message", m + " the run failed"},
            {"captures",
                nlohmann::json::array({{{"name", m}, {"status", "error"}, {"message", m + " in the capture"},
                    {"backend", m}, {"tracer", "dynamo"}}})}};
        run.scriptText = "# " + m + "\n";
        run.name = m;
        run.storedBy = ps::library::Identity{"", m};
        id = library.insert(run);
    }
    ps::ui::MainWindow window(options);
    window.resize(1280, 800);
    window.show();
    ASSERT_TRUE(window.store()->isOpen());
    ASSERT_EQ(window.libraryView()->rowCount(), 1);
    window.libraryView()->selectRun(id);
    ASSERT_TRUE(window.openStoredRun(id));
    QApplication::processEvents();
    // The markup is there to be seen, as text, and nowhere read as markup.
    EXPECT_GT(sweep(window), 0);
}

}  // namespace
