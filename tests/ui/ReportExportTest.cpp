// File > Export Report…: the shown run, made by the real worker, written as the one-file HTML
// report (share::HtmlReport) through the window's own action and its file dialog; the page's
// data says what the window says.
#include "UiTestSupport.h"

#include "share/Base64.h"
#include "share/Gzip.h"
#include "ui/report/ReportExport.h"
#include "ui/run/RunDocument.h"

#include <QAction>
#include <QApplication>
#include <QFile>
#include <QFileDialog>
#include <QMenu>
#include <QMenuBar>
#include <QSettings>
#include <QTest>
#include <QTimer>

#include <gtest/gtest.h>

using namespace ps::uitest;

namespace {

// The page's data: #ps-data's base64, gunzipped, parsed.
nlohmann::json pageData(const QByteArray& html)
{
    const QByteArray open = "<script type=\"application/octet-stream\" id=\"ps-data\">";
    const auto from = html.indexOf(open);
    if (from < 0)
        return nullptr;
    const auto start = from + open.size();
    QByteArray base64 = html.mid(start, html.indexOf("</script>", start) - start);
    base64.replace("\n", "");
    return nlohmann::json::parse(
        ps::share::Gzip::decompress(ps::share::Base64::decode(base64.toStdString())), nullptr, false);
}

TEST(UiReportExport, FileExportReportWritesThePageOfTheShownRun)
{
    QSettings().clear();
    TempDir dir;
    ps::ui::MainWindow window(windowOptions(dir));
    window.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
    ASSERT_TRUE(window.openPath(dir.write("tiny.py", tinyScript())));
    const auto run = runAndWait(window);
    ASSERT_TRUE(run);
    ASSERT_FALSE(run->report.captures.empty());

    auto* action = window.findChild<QAction*>("exportReportAction");
    ASSERT_NE(action, nullptr);
    EXPECT_EQ(action->text(), QString::fromUtf8("E&xport Report…"));
    // In the File menu, its mnemonic (Alt+F, X) its own there.
    QMenu* fileMenu = nullptr;
    for (QAction* top : window.menuBar()->actions())
        if (top->menu() && top->text() == "&File")
            fileMenu = top->menu();
    ASSERT_NE(fileMenu, nullptr);
    EXPECT_TRUE(fileMenu->actions().contains(action));
    for (QAction* other : fileMenu->actions()) {
        if (other != action) {
            EXPECT_FALSE(other->text().contains("&x", Qt::CaseInsensitive)) << other->text().toStdString();
        }
    }
    const QString path = dir.file("tiny-report.html");
    bool answered = false;
    QTimer::singleShot(0, [&]() {
        waitFor([]() { return qobject_cast<QFileDialog*>(QApplication::activeModalWidget()) != nullptr; }, 5000);
        if (auto* dialog = qobject_cast<QFileDialog*>(QApplication::activeModalWidget())) {
            EXPECT_TRUE(dialog->selectedFiles().value(0).endsWith("tiny-report.html"));  // the suggested name
            dialog->selectFile(path);
            static_cast<QDialog*>(dialog)->accept();  // QFileDialog::accept is protected
            answered = true;
        }
    });
    action->trigger();
    ASSERT_TRUE(answered);

    QFile file(path);
    ASSERT_TRUE(file.open(QIODevice::ReadOnly)) << path.toStdString();
    const QByteArray html = file.readAll();
    EXPECT_TRUE(html.startsWith("<!DOCTYPE html>"));
    EXPECT_TRUE(html.contains("Content-Security-Policy"));
    const nlohmann::json data = pageData(html);
    ASSERT_TRUE(data.is_object());
    EXPECT_EQ(data["kind"], "run");
    EXPECT_EQ(data["verdict"]["word"], std::string(ps::model::toString(run->report.verdict())));
    EXPECT_EQ(data["script_text"], tinyScript().toStdString());
    ASSERT_EQ(data["captures"].size(), run->report.captures.size());
    EXPECT_TRUE(data["captures"][0]["python_code"].is_string());  // the artifact's own python_code
}

TEST(UiReportExport, AFileThatCannotBeWrittenSaysWhy)
{
    TempDir dir;
    ps::ui::RunDocument run;
    run.report = ps::model::Report::fromJson({{"schema", 1}, {"script", "/s/a.py"}, {"status", "ok"}});
    const QString path = dir.file("no/such/folder/a.html");
    const QString error = ps::ui::ReportExport::write(run, path);
    EXPECT_TRUE(error.startsWith("cannot write " + path)) << error.toStdString();
    EXPECT_EQ(ps::ui::ReportExport::write(run, dir.file("a.html")), QString());
}

}  // namespace
