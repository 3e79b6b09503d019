// Make Repro… in the window: a real stored run whose float16 matmul drifts (the studio's own `run`
// stores it), run again by a real worker, its cut written as repro.py + inputs.pt that a fresh
// Python exits 1 on; a run that matches writes nothing and says why; a run not trusted here is not
// run; "make a repro…" beside where the drift starts and the dock's Make Repro… open it.
#include "ui/library/MakeReproDialog.h"
#include "UiTestSupport.h"
#include "ui/library/LibraryActions.h"
#include "ui/library/LibraryView.h"
#include "ui/library/RunStore.h"

#include <QAction>
#include <QFileInfo>
#include <QProcess>
#include <QSettings>
#include <QSignalSpy>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

using namespace ps::uitest;
using ps::ui::MakeReproDialog;

namespace {

qint64 storeRun(const QString& library, const QString& script)
{
    QProcess run;  // stored as `precompile-studio run` stores it
    run.start(QStringLiteral(PS_TEST_STUDIO), {"--library", library, "run", script, "--json"});
    if (!run.waitForFinished(600000))
        return 0;
    const auto report = nlohmann::json::parse(run.readAllStandardOutput().toStdString(), nullptr, false);
    return report.is_object() && report.contains("run_id") ? report["run_id"].get<qint64>() : 0;
}

QString scriptOf(const char* name)
{
    return QStringLiteral(PS_TEST_SOURCE_DIR "/tests/python/scripts/") + name;
}

}  // namespace

TEST(UiMakeRepro, ADriftingRunIsWrittenAsASmallScriptThatReproducesAndTheStepsAreListed)
{
    QSettings().clear();
    TempDir dir;
    const QString library = dir.file("library.sqlite3");
    const qint64 id = storeRun(library, scriptOf("acc_drift.py"));
    ASSERT_GT(id, 0);

    MakeReproDialog dialog(library, id, QStringLiteral("acc_drift"), QString(), QString(), QString());
    dialog.setFolder(dir.file("repro"));
    dialog.setBudget(60);
    dialog.show();
    QSignalSpy finished(&dialog, &MakeReproDialog::finished);
    dialog.start();
    EXPECT_TRUE(dialog.busy());
    ASSERT_TRUE(finished.wait(600000)) << dialog.headline().toStdString();
    EXPECT_TRUE(dialog.headline().startsWith("Reproduces in plain torch: ")) << dialog.headline().toStdString();
    ASSERT_TRUE(dialog.repro().has_value());
    EXPECT_TRUE(dialog.repro()->written);
    EXPECT_EQ(dialog.repro()->freshExit, std::optional<int>(1));
    EXPECT_TRUE(QFileInfo::exists(dir.file("repro/repro.py")));
    EXPECT_TRUE(QFileInfo::exists(dir.file("repro/inputs.pt")));
    // Each step of the growth and shrink, as it came.
    const QStringList steps = dialog.steps();
    EXPECT_TRUE(steps.contains("[repro acc_drift]")) << steps.join('\n').toStdString();
    EXPECT_TRUE(steps.filter("reproduces").size() >= 1) << steps.join('\n').toStdString();
    if (const QString shots = qEnvironmentVariable("PS_SHOT_DIR"); !shots.isEmpty())
        ps::uitest::savePicture(dialog, shots + QStringLiteral("/make_repro.png"));
}

TEST(UiMakeRepro, ARunThatMatchesWritesNothingAndANotTrustedRunIsNotRun)
{
    QSettings().clear();
    TempDir dir;
    const QString library = dir.file("library.sqlite3");
    const qint64 id = storeRun(library, scriptOf("acc_rounding.py"));
    ASSERT_GT(id, 0);
    MakeReproDialog dialog(library, id, QStringLiteral("acc_rounding"), QString(), QString(), QString());
    dialog.setFolder(dir.file("repro"));
    QSignalSpy finished(&dialog, &MakeReproDialog::finished);
    dialog.start();
    ASSERT_TRUE(finished.wait(600000));
    EXPECT_TRUE(dialog.headline().startsWith("No repro: the run's verdict is matches"))
        << dialog.headline().toStdString();
    EXPECT_FALSE(QFileInfo::exists(dir.file("repro/repro.py")));

    MakeReproDialog untrusted(library, id, QStringLiteral("acc_rounding"),
        QStringLiteral("imported from files and not trusted yet"), QString(), QString());
    untrusted.start();
    EXPECT_FALSE(untrusted.busy());
    EXPECT_EQ(untrusted.headline(), "Not made: imported from files and not trusted yet");
}
