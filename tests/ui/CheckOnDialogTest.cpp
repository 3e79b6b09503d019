// Check On… from the library dock: a real stored run (the studio's own `run`, on eager) loaded in
// the studio's environment by a real worker as a server would, each row saying why; a run that is
// not trusted here is not checked, and nothing of it runs.
#include "ui/library/CheckOnDialog.h"
#include "UiTestSupport.h"
#include "ui/library/LibraryActions.h"
#include "ui/library/LibraryRow.h"
#include "ui/library/LibraryView.h"
#include "ui/library/RunStore.h"
#include "ui/report/ColdStartBars.h"
#include "ui/run/RunDocument.h"

#include <QAction>
#include <QLabel>

#include <QProcess>
#include <QSettings>
#include <QSignalSpy>
#include <QTreeWidget>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

using namespace ps::uitest;
using ps::ui::CheckOnDialog;

namespace {

const char* kEagerMlp = R"(import torch
from torch import nn

torch.manual_seed(0)
backend = "eager"


def fn(model, x):
    return model(x).softmax(-1)


example_inputs = lambda: (nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 4)), torch.randn(4, 8))  # noqa: E731
)";

}  // namespace

TEST(UiCheckOn, AStoredRunIsCheckedInTheStudiosEnvironmentAndEachRowSaysWhy)
{
    QSettings().clear();
    TempDir dir;
    const QString library = dir.file("library.sqlite3");
    const QString script = dir.write("mlp.py", kEagerMlp);
    QProcess run;  // stored as `precompile-studio run` stores it
    run.start(QStringLiteral(PS_TEST_STUDIO), {"--library", library, "run", script, "--json", "--no-verify"});
    ASSERT_TRUE(run.waitForFinished(600000));
    ASSERT_EQ(run.exitCode(), 0) << run.readAllStandardError().toStdString();
    const qint64 id = nlohmann::json::parse(run.readAllStandardOutput().toStdString()).at("run_id").get<qint64>();

    CheckOnDialog dialog(library, id, QStringLiteral("mlp"), QString());
    dialog.show();
    ASSERT_FALSE(dialog.targetLabels().isEmpty());
    EXPECT_EQ(dialog.targetLabels().front(), "this computer: the studio's environment");
    QSignalSpy finished(&dialog, &CheckOnDialog::checkFinished);
    dialog.setMeasureColdStart(true);  // and what the pair saves at start-up there
    dialog.startCheck();
    EXPECT_TRUE(dialog.checking());
    ASSERT_TRUE(finished.wait(600000)) << dialog.headline().toStdString();
    EXPECT_EQ(dialog.headline().toStdString(),
        "Run " + std::to_string(id) + " runs on 1 of 1 target (1 with its cache, 0 compiling its kernels)");
    const QTreeWidget* rows = dialog.results();
    ASSERT_EQ(rows->topLevelItemCount(), 1);
    const QTreeWidgetItem* row = rows->topLevelItem(0);
    EXPECT_EQ(row->text(0), "the studio's environment");
    EXPECT_TRUE(row->text(1).startsWith(QStringLiteral(PS_TEST_TORCH_SERIES))) << row->text(1).toStdString();
    EXPECT_EQ(row->text(2), "loads with its cache");
    EXPECT_EQ(row->text(4), "yes");
    ASSERT_EQ(dialog.reasons().size(), 1);
    EXPECT_TRUE(
        dialog.reasons()[0].startsWith("loads (an eager artifact has no kernels)\nCold start there: first call "))
        << dialog.reasons()[0].toStdString();
    // The selected row's ledger is drawn under the table: a bar per step.
    ASSERT_TRUE(dialog.coldStartBars()->hasLedger());
    EXPECT_EQ(dialog.coldStartBars()->rows().size(), 5u);
    EXPECT_TRUE(dialog.coldStartBars()->titleText().contains(": first call "))
        << dialog.coldStartBars()->titleText().toStdString();
    // Kept with the run: the library's row says where it was checked.
    EXPECT_EQ(dialog.notKept(), "");
    EXPECT_NE(dialog.findChild<QLabel*>("checkKept")->text().indexOf("Kept with run"), -1);
    if (const QString shots = qEnvironmentVariable("PS_SHOT_DIR"); !shots.isEmpty())
        savePicture(dialog, shots + QStringLiteral("/check_on.png"));
    ps::ui::RunStore store(library);
    ASSERT_TRUE(store.isOpen()) << store.error().toStdString();
    ps::ui::LibraryView lib;
    lib.setStore(&store);
    lib.show();
    const ps::ui::StoredRun* stored = lib.run(id);
    ASSERT_NE(stored, nullptr);
    ASSERT_EQ(stored->checks.size(), 1u);
    EXPECT_EQ(ps::ui::LibraryRow::checkedLine(*stored), "checked: loads with its cache on the studio's environment");

    // The run the window shows is checked from the Run menu: Check On… opens with the earlier
    // check shown (greyed) until it is checked again.
    QAction* current = lib.actions()->checkCurrentAction();
    std::shared_ptr<const ps::ui::RunDocument> shown;
    lib.actions()->setCurrentRun([&]() { return shown; });
    EXPECT_FALSE(current->isEnabled());
    ps::ui::RunDocument doc;
    doc.report.runId = id;
    doc.report.stored = true;
    doc.library = dir.file("another.sqlite3");  // a run of the same number in another library
    shown = std::make_shared<const ps::ui::RunDocument>(doc);
    lib.actions()->update();
    EXPECT_FALSE(current->isEnabled());
    doc.library = store.path();
    shown = std::make_shared<const ps::ui::RunDocument>(doc);
    lib.actions()->update();
    EXPECT_TRUE(current->isEnabled()) << current->toolTip().toStdString();
    QSignalSpy opened(lib.actions(), &ps::ui::LibraryActions::checkOnOpened);
    current->trigger();
    ASSERT_EQ(opened.count(), 1);
    auto* again = opened.at(0).at(0).value<CheckOnDialog*>();
    ASSERT_NE(again, nullptr);
    ASSERT_EQ(again->results()->topLevelItemCount(), 1);
    EXPECT_EQ(again->results()->topLevelItem(0)->text(2), "loads with its cache");
    EXPECT_TRUE(again->headline().startsWith("Checked before")) << again->headline().toStdString();
    again->close();
    // A run of another library is not offered.
    doc.report.runId = id + 100;
    shown = std::make_shared<const ps::ui::RunDocument>(doc);
    lib.actions()->update();
    EXPECT_FALSE(current->isEnabled());
    EXPECT_TRUE(current->toolTip().contains("not stored in this library")) << current->toolTip().toStdString();
}

TEST(UiCheckOn, ARunNotTrustedHereIsNotCheckedAndTheDockOffersCheckOnForOneRun)
{
    QSettings().clear();
    TempDir dir;
    CheckOnDialog dialog(dir.file("library.sqlite3"), 7, QStringLiteral("imported"),
        QStringLiteral("imported from files and not trusted yet"));
    dialog.show();
    EXPECT_EQ(dialog.headline(), "Not checked: imported from files and not trusted yet");
    QSignalSpy finished(&dialog, &CheckOnDialog::checkFinished);
    dialog.startCheck();
    EXPECT_FALSE(dialog.checking());
    EXPECT_EQ(finished.count(), 0);
    EXPECT_EQ(dialog.results()->topLevelItemCount(), 0);

    // An environment added (the prompt answered) is offered, checked.
    dialog.addEnvironment(dir.path());
    EXPECT_EQ(dialog.targetLabels().back(), dir.path() + " (an environment here)");
}
