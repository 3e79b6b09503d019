#include "ui/run/WorkerClient.h"

#include "ui/library/RunStore.h"
#include "ui/run/RunDocument.h"

#include "model/WorkerInfo.h"
#include "run/RunPipeline.h"

#include <QDateTime>
#include <QStringDecoder>

#include <chrono>

namespace ps::ui {

namespace {

constexpr qint64 kMaxPendingBytes = 256 * 1024;
constexpr int kFlushIntervalMs = 100;

}  // namespace

namespace {
std::unique_ptr<run::RunPipeline> pipelineFor(const QString& userEnv, const std::optional<remote::RemoteTarget>& remote)
{
    if (remote)
        return std::make_unique<run::RunPipeline>(run::RunPipeline::forHost(*remote, /*keepWarm=*/true));
    const auto env = userEnv.isEmpty() ? std::nullopt : std::optional<std::string>(userEnv.toStdString());
    return std::make_unique<run::RunPipeline>(run::RunPipeline::forEnvironment(env, /*keepWarm=*/true));
}
}  // namespace

WorkerClient::WorkerClient(const QString& userEnv, QObject* parent) : QObject(parent), m_userEnv(userEnv)
{
    qRegisterMetaType<std::shared_ptr<const RunDocument>>();
    m_pipeline = pipelineFor(userEnv, m_remote);
    m_launchError = QString::fromStdString(m_pipeline->launchProblem());
    m_state = m_launchError.isEmpty() ? State::Idle : State::Unavailable;
    m_threadContext = new QObject;
    m_threadContext->moveToThread(&m_thread);
    m_thread.setObjectName(QStringLiteral("worker-client"));
    m_thread.start();
    m_flushTimer.setInterval(kFlushIntervalMs);
    connect(&m_flushTimer, &QTimer::timeout, this, &WorkerClient::flushOutput);
}

WorkerClient::~WorkerClient()
{
    m_flushTimer.stop();
    if (!m_replacing)
        m_pipeline->cancel();  // ends a run, or the wait for a warm worker's hello
    // Queued behind a run in progress (which the cancel ends): the client and the store are
    // destroyed on the thread that used them, then the thread ends.
    onWorkerThread([this]() {
        m_pipeline.reset();  // asks a warm worker to quit, kills it after 2 s
        QThread::currentThread()->quit();
    });
    m_thread.wait();
    delete m_threadContext;
}

void WorkerClient::onWorkerThread(std::function<void()> work)
{
    QMetaObject::invokeMethod(m_threadContext, std::move(work), Qt::QueuedConnection);
}

std::optional<nlohmann::json> WorkerClient::hello() const
{
    QMutexLocker lock(&m_mutex);
    return m_hello;
}

void WorkerClient::setLibraryPath(const QString& path, const QString& unavailable)
{
    QMutexLocker lock(&m_mutex);
    m_libraryPath = path;
    m_libraryUnavailable = path.isEmpty() ? unavailable : QString();
}

bool WorkerClient::storesRuns() const
{
    QMutexLocker lock(&m_mutex);
    return !m_libraryPath.isEmpty();
}

bool WorkerClient::setUserEnvironment(const QString& userEnv)
{
    if (m_busy)
        return false;
    if (userEnv == m_userEnv)
        return true;
    m_userEnv = userEnv;
    replacePipeline();
    return true;
}

namespace {
bool sameTarget(const std::optional<remote::RemoteTarget>& a, const std::optional<remote::RemoteTarget>& b)
{
    if (!a || !b)
        return !a && !b;
    return a->host == b->host && a->remoteStudio == b->remoteStudio && a->remoteDir == b->remoteDir
        && a->pythonEnv == b->pythonEnv;
}
}  // namespace

bool WorkerClient::setRemote(const std::optional<remote::RemoteTarget>& target)
{
    if (m_busy)
        return false;
    if (sameTarget(target, m_remote))
        return true;
    m_remote = target;
    replacePipeline();
    return true;
}

bool WorkerClient::relocate()
{
    if (m_state == State::Running)
        return false;
    replacePipeline();
    return true;
}

QString WorkerClient::place() const
{
    return m_remote ? QString::fromStdString(m_remote->host) : tr("this computer");
}

void WorkerClient::replacePipeline()
{
    m_pipeline->cancel();  // the old worker retires: no need to wait for its hello
    // Located here (cheap: no process starts), swapped in on the thread that uses pipelines,
    // after whatever it is doing (a prewarm); runs wait for the swap (busy meanwhile).
    std::shared_ptr<run::RunPipeline> fresh = pipelineFor(m_userEnv, m_remote);
    m_launchError = QString::fromStdString(fresh->launchProblem());
    {
        QMutexLocker lock(&m_mutex);
        m_hello.reset();
    }
    m_busy = true;
    m_replacing = true;
    setState(m_launchError.isEmpty() ? State::Restarting : State::Unavailable);
    onWorkerThread([this, fresh]() {
        m_pipeline = std::make_unique<run::RunPipeline>(std::move(*fresh));  // the old one retires its worker
        QMetaObject::invokeMethod(
            this,
            [this]() {
                m_busy = false;
                m_replacing = false;
                emit helloChanged();
                if (m_launchError.isEmpty())
                    setState(State::Restarting);
                prewarm();
            },
            Qt::QueuedConnection);
    });
    emit helloChanged();
}

void WorkerClient::prewarm()
{
    if (!m_launchError.isEmpty() || m_busy)
        return;
    if (m_state == State::Idle || m_state == State::Failed)
        setState(State::Starting);
    onWorkerThread([this]() { warmUpOnThread(); });
}

void WorkerClient::warmUpOnThread()
{
    protocol::RunObserver observer;
    QStringDecoder decoders[2] = {QStringDecoder(QStringDecoder::Utf8), QStringDecoder(QStringDecoder::Utf8)};
    observer.onOutput = [this, &decoders](int stream, std::string_view data) {
        QStringDecoder& d = decoders[stream == 2 ? 1 : 0];
        addOutput(stream == 2 ? 2 : 1, d.decode(QByteArrayView(data.data(), static_cast<qsizetype>(data.size()))));
    };
    std::string problem;
    const bool ready = m_pipeline->warmUp(std::chrono::minutes(10), observer, problem);
    {
        QMutexLocker lock(&m_mutex);
        if (ready)
            m_hello = m_pipeline->hello();
    }
    const QString why = QString::fromStdString(problem);
    QMetaObject::invokeMethod(
        this,
        [this, ready, why]() {
            if (m_busy)  // a run came meanwhile: it says what happens next
                return;
            flushOutput();
            if (ready) {
                emit helloChanged();
                setState(State::Ready);
            } else if (!why.isEmpty()) {
                setState(State::Failed, why);
            }
        },
        Qt::QueuedConnection);
}

void WorkerClient::setState(State state, const QString& problem)
{
    if (state == m_state && problem == m_stateProblem)
        return;
    m_state = state;
    m_stateProblem = problem;
    emit stateChanged(state);
}

QString WorkerClient::stateText() const
{
    if (m_remote) {
        // Another host: its name first, and what it has once its worker said hello.
        const QString host = place();
        switch (m_state) {
        case State::Idle:
            return tr("worker: %1 · connects with the first run").arg(host);
        case State::Starting:
        case State::Restarting:
            return tr("worker: %1 · connecting (a fresh one imports torch there)").arg(host);
        case State::Ready: {
            const auto h = hello();
            if (!h)
                return tr("worker: %1 · ready").arg(host);
            nlohmann::json info = *h;
            info["host"] = m_remote->host;
            const auto w = model::WorkerInfo::fromJson(info);
            return tr("worker: %1").arg(QString::fromStdString(w ? w->summary() : m_remote->host));
        }
        case State::Running:
            return tr("worker: %1 · running").arg(host);
        case State::Failed:
        case State::Unavailable:
            return tr("worker: %1 · cannot start").arg(host);
        }
    }
    switch (m_state) {
    case State::Idle:
        return tr("worker: starts with the first run");
    case State::Starting:
        return tr("worker: starting (importing torch)");
    case State::Ready: {
        const auto h = hello();
        if (!h)
            return tr("worker: ready");
        return tr("worker: ready · torch %1 · Python %2")
            .arg(QString::fromStdString(h->value("torch", "?")), QString::fromStdString(h->value("python", "?")));
    }
    case State::Running:
        return tr("worker: running");
    case State::Restarting:
        return tr("worker: restarting (a fresh one imports torch)");
    case State::Failed:
    case State::Unavailable:
        return tr("worker: cannot start");
    }
    return QString();
}

QString WorkerClient::stageWords(model::Stage stage)
{
    switch (stage) {
    case model::Stage::Start:
        return tr("starting the worker (importing torch)");
    case model::Stage::Script:
        return tr("running the script");
    case model::Stage::Capture:
        return tr("capturing");
    case model::Stage::Lower:
        return tr("lowering");
    case model::Stage::Load:
        return tr("loading the artifact");
    case model::Stage::Call:
        return tr("calling the artifact");
    case model::Stage::Runtime:
        return tr("calling on runtime_inputs");
    case model::Stage::Verify:
        return tr("verifying");
    case model::Stage::ColdStart:
        return tr("measuring the cold start");
    case model::Stage::Check:
        return tr("checking the artifact there");
    case model::Stage::Repro:
        return tr("making the repro");
    case model::Stage::Artifact:
        return tr("reading the artifact");
    case model::Stage::Store:
        return tr("storing");
    }
    return QString();
}

void WorkerClient::cancel()
{
    if (!m_busy || m_replacing)
        return;
    m_cancelRequested = true;
    m_pipeline->cancel();
}

bool WorkerClient::run(const protocol::RunOptions& options)
{
    if (m_busy)
        return false;
    m_busy = true;
    m_cancelRequested = false;
    m_pipeline->clearCancel();  // no run is in progress: a cancel still pending is stale
    {
        QMutexLocker lock(&m_mutex);
        m_pending.clear();
        m_pendingBytes = 0;
        m_droppedBytes = 0;
    }
    m_flushTimer.start();
    setState(State::Running);
    onWorkerThread([this, options]() {
        QStringDecoder decoders[2] = {QStringDecoder(QStringDecoder::Utf8), QStringDecoder(QStringDecoder::Utf8)};
        protocol::RunObserver observer;
        observer.onStage = [this](model::Stage stage, const std::string& capture) {
            const QString c = QString::fromStdString(capture);
            QMetaObject::invokeMethod(
                this, [this, stage, c]() { emit stageChanged(stage, c); }, Qt::QueuedConnection);
        };
        observer.onStageDetail = [this](const std::string& detail) {
            const QString d = QString::fromStdString(detail);
            QMetaObject::invokeMethod(
                this, [this, d]() { emit stageDetail(d); }, Qt::QueuedConnection);
        };
        observer.onOutput = [this, &decoders](int stream, std::string_view data) {
            QStringDecoder& d = decoders[stream == 2 ? 1 : 0];
            addOutput(stream == 2 ? 2 : 1, d.decode(QByteArrayView(data.data(), static_cast<qsizetype>(data.size()))));
        };
        observer.onTransfer = [this](const std::string& file, std::uint64_t done, std::uint64_t total) {
            const QString f = QString::fromStdString(file);
            QMetaObject::invokeMethod(
                this, [this, f, done, total]() { emit transfer(f, done, total); }, Qt::QueuedConnection);
        };
        observer.onWorkerEvent = [this](const std::string& what) {
            const QString text = QString::fromStdString(what);
            QMetaObject::invokeMethod(
                this, [this, text]() { emit workerEvent(text); }, Qt::QueuedConnection);
        };

        run::PipelineOptions pipeline;
        pipeline.run = options;
        QString unavailable;
        {
            QMutexLocker lock(&m_mutex);
            if (!m_libraryPath.isEmpty())
                pipeline.libraryPath = m_libraryPath.toStdString();
            // A team library that cannot be reached: the run waits in the local one.
            if (pipeline.libraryPath && RunStore::isTeamLibrary(m_libraryPath))
                pipeline.fallbackLibraryPath = RunStore::defaultPath().toStdString();
            unavailable = m_libraryUnavailable;
        }
        run::RunResult result;
        try {
            result = m_pipeline->run(pipeline, observer);
        } catch (const std::exception& e) {
            // Never across the event loop, and never leaving the client busy for ever.
            result.report = model::Report::failed(options.script, model::RunStatus::Error,
                std::string("the studio failed while running the script: ") + e.what());
        }
        if (m_cancelRequested && result.report.status != model::RunStatus::Cancelled) {
            // The cancel came as the run ended and may have killed the worker kept warm for the
            // next run: start that one again.
            m_pipeline->shutdown();
            m_pipeline->prewarm();
        }
        if (!pipeline.libraryPath && !unavailable.isEmpty() && result.report.status != model::RunStatus::Cancelled)
            result.report.storeError = unavailable.toStdString();

        auto doc = std::make_shared<RunDocument>();
        doc->report = std::move(result.report);
        doc->origin = RunDocument::Origin::Run;
        doc->createdAt = QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs);
        doc->scriptText = std::move(result.scriptText);
        doc->elapsedSeconds = result.elapsedSeconds;
        doc->artifacts = std::move(result.artifacts);
        // Where it is stored: the library asked for, not a local one it was kept in instead.
        if (doc->report.stored && doc->report.runId && pipeline.libraryPath && !doc->report.storeError
            && !doc->report.extra().contains("kept"))
            doc->library = QString::fromStdString(*pipeline.libraryPath);
        {
            QMutexLocker lock(&m_mutex);
            m_hello = m_pipeline->hello();
        }
        QMetaObject::invokeMethod(
            this,
            [this, doc]() {
                m_flushTimer.stop();
                flushOutput();
                m_busy = false;
                emit helloChanged();
                // Each worker serves one run: the pipeline has started the next one.
                setState(m_launchError.isEmpty() ? State::Restarting : State::Unavailable);
                emit finished(doc);
            },
            Qt::QueuedConnection);
        if (m_launchError.isEmpty())
            warmUpOnThread();
    });
    return true;
}

void WorkerClient::addOutput(int stream, QString text)
{
    if (text.isEmpty())
        return;
    QMutexLocker lock(&m_mutex);
    const qint64 bytes = text.size();
    if (m_pendingBytes + bytes > kMaxPendingBytes) {
        m_droppedBytes += bytes;
        return;
    }
    m_pendingBytes += bytes;
    if (!m_pending.empty() && m_pending.back().stream == stream)
        m_pending.back().text += text;
    else
        m_pending.push_back({stream, std::move(text)});
}

void WorkerClient::flushOutput()
{
    std::vector<Pending> pending;
    qint64 dropped = 0;
    {
        QMutexLocker lock(&m_mutex);
        pending.swap(m_pending);
        m_pendingBytes = 0;
        dropped = m_droppedBytes;
        m_droppedBytes = 0;
    }
    for (const auto& p : pending)
        emit output(p.stream, p.text);
    if (dropped > 0)
        emit output(
            2, tr("\n[precompile-studio: %1 characters of output were not shown: too much at once]\n").arg(dropped));
}

}  // namespace ps::ui
