#pragma once

#include "model/Repro.h"

#include <QDialog>
#include <QString>

#include <functional>
#include <memory>
#include <optional>

class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QProgressBar;
class QPushButton;

namespace ps::run {
class StoredRunRepro;
}

namespace ps::ui {

/// Make Repro…: from where a stored run's drift starts to the smallest script that shows it in
/// plain torch (run::StoredRunRepro, as `library repro` does). The run's script runs again in a
/// worker on a pool thread, each step of the cut's growth and shrink listed as it comes; the
/// first line then says what was written (and that a fresh `python repro.py` exits 1), or why
/// nothing was, never "written" when it was not. Closing the dialog cancels it.
class MakeReproDialog : public QDialog {
    Q_OBJECT
public:
    /// The folder to write into; "" : cancelled (tests answer it).
    using FolderPrompt = std::function<QString(QWidget* parent, const QString& start)>;

    /// `untrusted`: why the run may not execute here ("" : it may). `capture`, `node`: where to
    /// start ("" : the first capture that drifted, its first drift start).
    MakeReproDialog(const QString& libraryLocation, qint64 runId, const QString& runName, const QString& untrusted,
        const QString& capture, const QString& node, QWidget* parent = nullptr);
    ~MakeReproDialog() override;

    void setFolderPrompt(FolderPrompt prompt) { m_folderPrompt = std::move(prompt); }
    void setFolder(const QString& folder);
    QString folder() const;
    void setBudget(double seconds);
    /// Starts making it (the Make button).
    void start();
    bool busy() const { return m_busy; }
    /// The first line ("Reproduces in plain torch: …", "No repro: …"), "" before one is made.
    QString headline() const;
    /// The steps heard so far, in order.
    QStringList steps() const;
    /// What the worker said of the repro; nullopt before, or when the run failed before it.
    const std::optional<model::Repro>& repro() const { return m_repro; }

signals:
    /// It ended: written, not written, or failed before it.
    void finished();

protected:
    void done(int result) override;

private:
    void step(const QString& words);
    void finish(const std::optional<model::Repro>& repro, const QString& failure);
    void cancel();

    QString m_location;
    qint64 m_runId;
    QString m_untrusted;
    QString m_capture;
    QString m_node;
    QLabel* m_headline;
    QLineEdit* m_folder;
    QPushButton* m_browse;
    QDoubleSpinBox* m_budget;
    QListWidget* m_steps;
    QProgressBar* m_progress;
    QPushButton* m_make;
    QLabel* m_files;
    FolderPrompt m_folderPrompt;
    std::shared_ptr<run::StoredRunRepro> m_job;
    std::optional<model::Repro> m_repro;
    bool m_busy = false;
    int m_generation = 0;  ///< a cancelled job's late answers are dropped
};

}  // namespace ps::ui
