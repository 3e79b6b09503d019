#pragma once

#include "protocol/RunOptions.h"

#include <QElapsedTimer>
#include <QMutex>
#include <QObject>
#include <QString>
#include <QThread>
#include <QTimer>

#include <nlohmann/json.hpp>

#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace ps::run {
class RunPipeline;
}

namespace ps::ui {

struct RunDocument;

/// The window's adapter over the one run path (engine/run/RunPipeline). The pipeline (its worker
/// kept warm: the next one is started, torch imported, as soon as a run ends) lives on a thread
/// of its own, so a run that blocks for minutes never blocks the window; it stores the run in
/// the library ("store" stage) when a library path is set.
///
/// Thread contract: create, call and destroy on the GUI thread. Every signal is emitted on the
/// GUI thread. cancel() kills the worker at once (RunClient::cancel is thread-safe).
class WorkerClient : public QObject {
    Q_OBJECT
public:
    /// `userEnv`: the user's own Python environment whose packages scripts need
    /// (protocol::UserEnvironment); empty: the studio's packages only.
    explicit WorkerClient(const QString& userEnv, QObject* parent = nullptr);
    ~WorkerClient() override;

    /// Why no worker can start (no environment, no worker binary), naming the command that
    /// makes what is missing; "" when one can.
    QString launchError() const { return m_launchError; }
    bool busy() const { return m_busy; }

    /// A run's stage ("start", "script", "capture", ...) in the words the window shows.
    static QString stageWords(const QString& stage);
    /// The worker's hello (python, torch, libtorch versions) once a worker has started.
    std::optional<nlohmann::json> hello() const;
    /// The library runs are stored in. "" stores nothing: then `unavailable`, when given, is
    /// why (a library that cannot be opened), and each run's report says it was not stored.
    /// Takes effect at the next run.
    void setLibraryPath(const QString& path, const QString& unavailable = QString());
    /// The user's environment the next runs use; a warm worker of the old one is retired.
    /// Refused (false) while a run is in progress.
    bool setUserEnvironment(const QString& userEnv);
    QString userEnvironment() const { return m_userEnv; }

public slots:
    /// Starts a run unless one is in progress (then returns false). `outDir` is ignored: each
    /// run gets a temporary folder of its own.
    bool run(const ps::protocol::RunOptions& options);
    void cancel();
    /// Starts a worker now, so that the first run finds torch imported.
    void prewarm();

signals:
    void stageChanged(const QString& stage, const QString& capture);
    /// The script's output, in batches (at most every 100 ms, at most 256 KiB each; what is
    /// beyond that is dropped and counted in a line of its own). stream: 1 stdout, 2 stderr.
    void output(int stream, const QString& text);
    /// The worker died and a fresh one was started; says what happened.
    void workerEvent(const QString& text);
    void finished(const std::shared_ptr<const ps::ui::RunDocument>& run);
    void helloChanged();

private:
    struct Pending {
        int stream;
        QString text;
    };
    void flushOutput();
    void onWorkerThread(std::function<void()> work);
    void addOutput(int stream, QString text);

    QString m_launchError;
    QString m_userEnv;
    std::unique_ptr<run::RunPipeline> m_pipeline;  ///< used on m_thread only (but cancel, clearCancel)
    QThread m_thread;
    QObject* m_threadContext = nullptr;
    std::atomic<bool> m_busy{false};
    std::atomic<bool> m_cancelRequested{false};
    bool m_replacing = false;  ///< busy replacing the pipeline (setUserEnvironment), not running
    QTimer m_flushTimer;

    mutable QMutex m_mutex;  ///< guards the members below
    std::vector<Pending> m_pending;
    qint64 m_pendingBytes = 0;
    qint64 m_droppedBytes = 0;
    std::optional<nlohmann::json> m_hello;
    QString m_libraryPath;
    QString m_libraryUnavailable;
};

}  // namespace ps::ui
