#pragma once

#include "model/Stage.h"
#include "protocol/RunOptions.h"
#include "remote/RemoteTarget.h"

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
    /// What the worker process is doing, as its own messages say: a worker is Ready once its
    /// `hello` came (torch imported), not after some time; Starting and Restarting last until
    /// then (the worker sends nothing before it).
    enum class State {
        Idle,         ///< none started yet: the first run (or prewarm) starts one
        Starting,     ///< the first worker is starting (importing torch)
        Ready,        ///< a worker said hello and waits for a run
        Running,      ///< a run is in progress
        Restarting,   ///< after a run (each worker serves one) or a change of environment
        Failed,       ///< the last worker could not start; see stateProblem()
        Unavailable,  ///< no worker can start at all; see launchError()
    };
    Q_ENUM(State)

    /// `userEnv`: the user's own Python environment whose packages scripts need
    /// (protocol::UserEnvironment); empty: the studio's packages only.
    explicit WorkerClient(const QString& userEnv, QObject* parent = nullptr);
    ~WorkerClient() override;

    /// Why no worker can start (no environment, no worker binary), naming the command that
    /// makes what is missing; "" when one can.
    QString launchError() const { return m_launchError; }
    bool busy() const { return m_busy; }
    State state() const { return m_state; }
    /// Why the last worker could not start (State::Failed), else "".
    QString stateProblem() const { return m_stateProblem; }
    /// The state in the words the status bar shows ("worker: ready · torch 2.14.1 · Python 3.12").
    QString stateText() const;

    /// A run's stage in the words the window shows ("running the script", "capturing", ...).
    static QString stageWords(model::Stage stage);
    /// The worker's hello (python, torch, libtorch versions) once a worker has started.
    std::optional<nlohmann::json> hello() const;
    /// The library runs are stored in. "" stores nothing: then `unavailable`, when given, is
    /// why (a library that cannot be opened), and each run's report says it was not stored.
    /// Takes effect at the next run.
    void setLibraryPath(const QString& path, const QString& unavailable = QString());
    /// Runs are stored (a library path is set): a run has a "store" stage.
    bool storesRuns() const;
    /// The user's environment the next runs use; a warm worker of the old one is retired.
    /// Refused (false) while a run is in progress.
    bool setUserEnvironment(const QString& userEnv);
    QString userEnvironment() const { return m_userEnv; }
    /// Where the next runs go: another host over ssh (remote::RemoteTarget), or this computer
    /// (nullopt). A warm worker of the old place is retired. Refused (false) during a run.
    bool setRemote(const std::optional<remote::RemoteTarget>& target);
    const std::optional<remote::RemoteTarget>& remoteTarget() const { return m_remote; }
    /// "this computer" or the host's name.
    QString place() const;
    /// Locates the worker again, as at construction: after the studio's environment was made
    /// (EnvironmentSetupDialog) launchError() clears and a worker warms up. Refused (false)
    /// during a run.
    bool relocate();

public slots:
    /// Starts a run unless one is in progress or the worker is being replaced (then returns
    /// false). `outDir` is ignored: each run gets a temporary folder of its own.
    bool run(const ps::protocol::RunOptions& options);
    void cancel();
    /// Starts a worker now, so that the first run finds torch imported.
    void prewarm();

signals:
    void stageChanged(model::Stage stage, const QString& capture);
    /// Within the stage under way, what the worker is doing now (RunObserver::onStageDetail).
    void stageDetail(const QString& detail);
    /// The script's output, in batches (at most every 100 ms, at most 256 KiB each; what is
    /// beyond that is dropped and counted in a line of its own). stream: 1 stdout, 2 stderr.
    void output(int stream, const QString& text);
    /// The worker died and a fresh one was started; says what happened.
    void workerEvent(const QString& text);
    void finished(const std::shared_ptr<const ps::ui::RunDocument>& run);
    void helloChanged();
    /// Artifact bytes arriving from another host: the file, bytes so far, of all.
    void transfer(const QString& file, quint64 done, quint64 total);
    void stateChanged(ps::ui::WorkerClient::State state);

private:
    struct Pending {
        int stream;
        QString text;
    };
    void flushOutput();
    void onWorkerThread(std::function<void()> work);
    void addOutput(int stream, QString text);
    void setState(State state, const QString& problem = QString());
    /// On the worker thread: waits for the worker (started now if none runs) to say hello,
    /// then says so on the GUI thread. Cancel (or the destructor) interrupts the wait.
    void warmUpOnThread();
    /// Swaps in a pipeline for the current environment and place (see setUserEnvironment).
    void replacePipeline();

    QString m_launchError;
    QString m_userEnv;
    std::optional<remote::RemoteTarget> m_remote;
    std::unique_ptr<run::RunPipeline> m_pipeline;  ///< used on m_thread only (but cancel, clearCancel)
    QThread m_thread;
    QObject* m_threadContext = nullptr;
    std::atomic<bool> m_busy{false};
    std::atomic<bool> m_cancelRequested{false};
    bool m_replacing = false;  ///< busy replacing the pipeline (setUserEnvironment), not running
    QTimer m_flushTimer;
    State m_state = State::Idle;
    QString m_stateProblem;

    mutable QMutex m_mutex;  ///< guards the members below
    std::vector<Pending> m_pending;
    qint64 m_pendingBytes = 0;
    qint64 m_droppedBytes = 0;
    std::optional<nlohmann::json> m_hello;
    QString m_libraryPath;
    QString m_libraryUnavailable;
};

}  // namespace ps::ui
