#include "ui/WorkerClient.h"

#include "ui/RunDocument.h"
#include "ui/RunStore.h"

#include "protocol/ProtocolError.h"
#include "protocol/RunClient.h"
#include "protocol/WorkerLocator.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QStringDecoder>
#include <QTemporaryDir>

namespace ps::ui {

namespace {

constexpr qint64 kMaxPendingBytes = 256 * 1024;
constexpr int kFlushIntervalMs = 100;

std::optional<std::string> readFile(const std::string& path)
{
    QFile f(QString::fromStdString(path));
    if (!f.open(QIODevice::ReadOnly))
        return std::nullopt;
    const QByteArray bytes = f.readAll();
    return std::string(bytes.constData(), static_cast<std::size_t>(bytes.size()));
}

} // namespace

WorkerClient::WorkerClient(const QString& pythonEnv, QObject* parent) : QObject(parent)
{
    qRegisterMetaType<std::shared_ptr<const RunDocument>>();
    try {
        const auto env = pythonEnv.isEmpty() ? std::nullopt : std::optional<std::string>(pythonEnv.toStdString());
        m_client = std::make_unique<protocol::RunClient>(protocol::WorkerLocator::locate(env), /*keepWarm=*/true);
    } catch (const protocol::ProtocolError& e) {
        m_launchError = QString::fromStdString(e.what());
    }
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
    if (m_busy && m_client)
        m_client->cancel();
    // Queued behind a run in progress (which the cancel ends): the client and the store are
    // destroyed on the thread that used them, then the thread ends.
    onWorkerThread([this]() {
        m_client.reset();  // asks a warm worker to quit, kills it after 2 s
        m_store.reset();
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

void WorkerClient::setLibraryPath(const QString& path)
{
    QMutexLocker lock(&m_mutex);
    m_libraryPath = path;
}

void WorkerClient::prewarm()
{
    if (!m_client || m_busy)
        return;
    onWorkerThread([this]() {
        try {
            m_client->prewarm();
        } catch (const protocol::ProtocolError&) {
            // The next run reports it, in the run's words.
        }
    });
}

QString WorkerClient::stageWords(const QString& stage)
{
    if (stage == QLatin1String("start"))
        return tr("starting the worker (importing torch)");
    if (stage == QLatin1String("script"))
        return tr("running the script");
    if (stage == QLatin1String("capture"))
        return tr("capturing");
    if (stage == QLatin1String("lower"))
        return tr("lowering");
    if (stage == QLatin1String("verify"))
        return tr("verifying");
    if (stage == QLatin1String("store"))
        return tr("storing");
    return stage;
}

bool WorkerClient::couldNotStart(const std::string& message)
{
    for (const char* sign : {"could not be started", "while starting", "could not start Python", "bootstrap.sh"})
        if (message.find(sign) != std::string::npos)
            return true;
    return false;
}

void WorkerClient::cancel()
{
    if (!m_busy || !m_client)
        return;
    m_cancelRequested = true;
    m_client->cancel();
}

bool WorkerClient::run(const protocol::RunOptions& options)
{
    if (m_busy)
        return false;
    m_busy = true;
    m_cancelRequested = false;
    if (!m_client) {
        auto doc = std::make_shared<RunDocument>();
        doc->report = model::Report::failed(options.script, "error", m_launchError.toStdString());
        doc->origin = QStringLiteral("run");
        QMetaObject::invokeMethod(this, [this, doc]() {
            m_busy = false;
            emit finished(doc);
        }, Qt::QueuedConnection);
        return true;
    }
    m_client->clearCancel();  // no run is in progress: a cancel still pending is stale
    {
        QMutexLocker lock(&m_mutex);
        m_pending.clear();
        m_pendingBytes = 0;
        m_droppedBytes = 0;
    }
    m_flushTimer.start();
    onWorkerThread([this, options]() {
        QElapsedTimer clock;
        clock.start();
        QTemporaryDir outDir(QDir::tempPath() + QStringLiteral("/precompile-studio-run-XXXXXX"));
        protocol::RunOptions o = options;
        o.outDir = outDir.path().toStdString();

        QStringDecoder decoders[2] = {QStringDecoder(QStringDecoder::Utf8), QStringDecoder(QStringDecoder::Utf8)};
        protocol::RunObserver observer;
        observer.onStage = [this](const std::string& stage, const std::string& capture) {
            const QString s = QString::fromStdString(stage), c = QString::fromStdString(capture);
            QMetaObject::invokeMethod(this, [this, s, c]() { emit stageChanged(s, c); }, Qt::QueuedConnection);
        };
        observer.onOutput = [this, &decoders](int stream, std::string_view data) {
            QStringDecoder& d = decoders[stream == 2 ? 1 : 0];
            addOutput(stream == 2 ? 2 : 1, d.decode(QByteArrayView(data.data(), static_cast<qsizetype>(data.size()))));
        };
        observer.onWorkerEvent = [this](const std::string& what) {
            const QString text = QString::fromStdString(what);
            QMetaObject::invokeMethod(this, [this, text]() { emit workerEvent(text); }, Qt::QueuedConnection);
        };

        model::Report report = m_client->run(o, observer);
        if (m_cancelRequested && report.status != "cancelled") {
            // The cancel came as the run ended and may have killed the worker kept warm for the
            // next run: start that one again.
            m_client->shutdown();
            try {
                m_client->prewarm();
            } catch (const protocol::ProtocolError&) {
            }
        }
        auto doc = std::make_shared<RunDocument>();
        doc->report = std::move(report);
        doc->origin = QStringLiteral("run");
        if (auto script = readFile(o.script))
            doc->scriptText = std::move(*script);
        for (std::size_t i = 0; i < doc->report.captures.size(); ++i) {
            CaptureBytes bytes;
            const auto& j = doc->report.captures[i].json;
            const auto files = j.contains("artifact") && j["artifact"].is_object() ? j["artifact"].value("files", nlohmann::json())
                                                                                 : nlohmann::json();
            if (files.is_object()) {
                bytes.pythonCode = readFile(files.value("python_code", ""));
                bytes.cache = readFile(files.value("cache", ""));
                if (!bytes.pythonCode || !bytes.cache)
                    bytes.error = tr("the worker's artifact files could not be read");
            }
            doc->artifacts.push_back(std::move(bytes));
        }

        QString libraryPath;
        {
            QMutexLocker lock(&m_mutex);
            m_hello = m_client->hello();
            libraryPath = m_libraryPath;
        }
        if (doc->report.status == "cancelled") {
            doc->storeError = tr("a cancelled run is not kept");
        } else if (libraryPath.isEmpty()) {
            doc->storeError = tr("no library is open");
        } else {
            QMetaObject::invokeMethod(this, [this]() { emit stageChanged(QStringLiteral("store"), QString()); },
                                      Qt::QueuedConnection);
            if (!m_store || m_store->path() != libraryPath)
                m_store = std::make_unique<RunStore>(libraryPath);
            QString error;
            const qint64 id = m_store->insert(*doc, &error);
            if (id >= 0)
                doc->report.runId = id;
            else
                doc->storeError = error;
        }
        doc->elapsedSeconds = static_cast<double>(clock.elapsed()) / 1000.0;
        QMetaObject::invokeMethod(this, [this, doc]() {
            m_flushTimer.stop();
            flushOutput();
            m_busy = false;
            emit helloChanged();
            emit finished(doc);
        }, Qt::QueuedConnection);
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
        emit output(2, tr("\n[precompile-studio: %1 characters of output were not shown: too much at once]\n").arg(dropped));
}

} // namespace ps::ui
