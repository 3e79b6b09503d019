#pragma once

#include "run/StoredRunCheck.h"
#include "ui/library/RunStore.h"

#include <QDialog>
#include <QString>

#include <functional>
#include <memory>
#include <vector>

class QCheckBox;
class QLabel;
class QListWidget;
class QProgressBar;
class QPushButton;
class QTreeWidget;

namespace ps::ui {

class ColdStartBars;

/// The library dock's Check On…: will a stored run's pair load there? The targets are this
/// computer's studio environment, the default Python environment, the hosts added (Run > Run On)
/// and any environment folder added here; each checked target loads the pair as a server would
/// (run::StoredRunCheck, as `library check` does), one after another on a pool thread, each row
/// filled as it ends: torch there, the outcome, the first call, whether it matched eager there,
/// and why in its tooltip and under the table. The first line says on how many targets it runs,
/// never "runs" when one refused it. Closing the dialog cancels the check under way.
class CheckOnDialog : public QDialog {
    Q_OBJECT
public:
    /// The folder of an environment to add; "" : cancelled (tests answer it).
    using FolderPrompt = std::function<QString(QWidget* parent)>;

    /// `untrusted`: why the run may not execute here ("" : it may): then nothing can be checked.
    CheckOnDialog(const QString& libraryLocation, qint64 runId, const QString& runName, const QString& untrusted,
        QWidget* parent = nullptr);
    ~CheckOnDialog() override;

    void setFolderPrompt(FolderPrompt prompt) { m_folderPrompt = std::move(prompt); }
    /// Shows the run's earlier checks (the latest at each target, from the library) until a
    /// check starts.
    void showEarlier(const std::vector<StoredCheck>& checks);
    /// Adds an environment folder as a target, checked.
    void addEnvironment(const QString& folder);
    /// The targets offered (their labels) and which are checked.
    QStringList targetLabels() const;
    void setTargetChecked(int row, bool checked);
    /// Also measure the pair's start-up at each target (its cold-start ledger, shown as bars
    /// under the table for the row selected).
    void setMeasureColdStart(bool on);
    /// The ledger bars under the table (hidden when the selected row has none).
    const ColdStartBars* coldStartBars() const { return m_bars; }
    /// Starts the check of the checked targets (the Check button).
    void startCheck();
    bool checking() const { return m_busy; }
    /// The first line of the results ("runs on 1 of 1 target …"), "" before a check.
    QString headline() const;
    /// One row per checked target: target, torch, outcome, first call, matches eager.
    const QTreeWidget* results() const { return m_results; }
    /// The reason of each row, in the rows' order.
    QStringList reasons() const;
    /// Whether the last check was kept with the run, and why not: "" kept (or nothing to keep).
    QString notKept() const { return m_notKept; }

signals:
    /// The check ended (every target done, or it failed before any), its outcomes kept with the
    /// run where they could be.
    void checkFinished();
    /// Outcomes of a check were kept with run `runId` (the library's list may reload).
    void checksKept(qint64 runId);

protected:
    void done(int result) override;

private:
    void next();
    void addRow(const run::StoredRunCheck::Outcome& outcome);
    void keepAndFinish();
    void finish(const QString& failure);
    void cancelCheck();

    QString m_location;
    qint64 m_runId;
    QString m_untrusted;
    QLabel* m_intro;
    QListWidget* m_targets;
    QPushButton* m_addEnv;
    QPushButton* m_checkButton;
    QProgressBar* m_progress;
    QLabel* m_headline;
    QTreeWidget* m_results;
    QLabel* m_reason;
    FolderPrompt m_folderPrompt;
    std::vector<run::StoredRunCheck::Target> m_offered;
    std::vector<run::StoredRunCheck::Target> m_queue;
    std::vector<run::StoredRunCheck::Outcome> m_outcomes;
    std::shared_ptr<run::StoredRunCheck> m_check;
    QCheckBox* m_coldStart;
    ColdStartBars* m_bars;
    QLabel* m_kept;
    QString m_notKept;
    bool m_busy = false;
    int m_generation = 0;  ///< a cancelled check's late answers are dropped
};

}  // namespace ps::ui
