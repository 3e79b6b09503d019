#include "ui/library/RunStore.h"

#include "ui/common/QtText.h"
#include "ui/run/RunDocument.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QStandardPaths>

#include "library/core/ArtifactFiles.h"
#include "library/core/ArtifactLibrary.h"
#include "library/core/DefaultLibraryPath.h"
#include "library/core/LibraryError.h"
#include "library/core/LibraryLayoutCache.h"
#include "library/core/LibraryLocator.h"
#include "library/core/RunPusher.h"
#include "library/core/RunSideLoader.h"

namespace ps::ui {

namespace {
QString trRunStore(const char* text)
{
    return QCoreApplication::translate("RunStore", text);
}

}  // namespace

struct RunStore::Impl {
    std::unique_ptr<library::ArtifactLibrary> lib;
};

QString RunStore::defaultPath()
{
    return q(library::defaultLibraryPath());
}

bool RunStore::isTeamLibrary(const QString& location)
{
    using Kind = library::LibraryLocator::Kind;
    return library::LibraryLocator::kindOf(location.toStdString()) != Kind::File;
}

QString RunStore::displayPath() const
{
    return q(library::LibraryLocator::redacted(m_path.toStdString()));
}

QString RunStore::rememberedPath() const
{
    return q(library::LibraryLocator::withoutPassword(m_path.toStdString()));
}

QString RunStore::shortName() const
{
    return q(library::LibraryLocator::shortName(m_path.toStdString()));
}

PushOutcome RunStore::pushKeptRuns(const QString& localPath)
{
    PushOutcome outcome;
    try {
        library::ArtifactLibrary local(localPath.toStdString(), library::ArtifactLibrary::OpenOptions{false, false});
        const library::RunPusher::Result result = library::RunPusher::push(local);
        outcome.waiting = static_cast<int>(result.waiting);
        outcome.pushed = static_cast<int>(result.pushed.size());
        outcome.complete = result.complete();
        if (result.waiting == 0) {
            outcome.summary = trRunStore("No run is waiting to be pushed.");
        } else if (!result.unreached.empty()) {
            const auto& first = result.unreached.front();
            outcome.summary = trRunStore("%1 of %2 kept runs pushed; %3 still cannot be reached (%4 runs stay kept).")
                                  .arg(outcome.pushed)
                                  .arg(outcome.waiting)
                                  .arg(q(first.target))
                                  .arg(first.waiting);
        } else if (!result.failures.empty()) {
            outcome.summary = trRunStore("%1 of %2 kept runs pushed; %3")
                                  .arg(outcome.pushed)
                                  .arg(outcome.waiting)
                                  .arg(q(result.failures.front()));
        } else {
            outcome.summary
                = trRunStore("Pushed %1 kept run(s) to %2.").arg(outcome.pushed).arg(q(result.pushed.front().target));
        }
    } catch (const std::exception& e) {
        outcome.summary = trRunStore("The kept runs cannot be pushed: %1").arg(q(e.what()));
    }
    return outcome;
}

int RunStore::keptRunCount(const QString& localPath)
{
    try {
        library::ArtifactLibrary local(localPath.toStdString(), library::ArtifactLibrary::OpenOptions{false, true});
        int waiting = 0;
        for (const auto& entry : local.outbox())
            waiting += entry.pushedId ? 0 : 1;
        return waiting;
    } catch (const std::exception&) {
        return 0;
    }
}

RunStore::RunStore(const QString& path) : m_impl(std::make_unique<Impl>()), m_path(path)
{
    try {
        m_impl->lib = std::make_unique<library::ArtifactLibrary>(path.toStdString());
        // A team library's role that may only read: browsed, its writing actions off.
        m_readOnlyReason = q(m_impl->lib->readOnlyReason());
    } catch (const library::LibraryError& e) {
        m_error = q(e.what());
        if (e.kind() == library::LibraryError::Kind::ReadOnly || e.kind() == library::LibraryError::Kind::DiskFull) {
            // Browse what cannot be written: runs then say why they were not stored.
            try {
                m_impl->lib = std::make_unique<library::ArtifactLibrary>(
                    path.toStdString(), library::ArtifactLibrary::OpenOptions{false, true});
                m_readOnlyReason = m_error;
                m_error.clear();
            } catch (const std::exception&) {
            }
        }
    } catch (const std::exception& e) {
        m_error = trRunStore("%1: %2").arg(path, q(e.what()));
    }
}

RunStore::~RunStore() = default;

bool RunStore::isOpen() const
{
    return m_impl->lib != nullptr;
}

std::vector<StoredRun> RunStore::list(
    const QString& search, std::optional<model::RunStatus> status, QString* error) const
{
    std::vector<StoredRun> out;
    if (!isOpen()) {
        *error = m_error;
        return out;
    }
    try {
        library::ListQuery query;
        query.search = search.trimmed().toStdString();
        query.status = status;
        for (const auto& s : m_impl->lib->list(query)) {
            StoredRun r;
            r.id = s.id;
            r.createdAt = q(s.createdAt);
            r.name = q(s.name);
            r.scriptPath = q(s.scriptPath);
            r.status = s.status;
            r.message = q(s.message);
            r.imported = s.origin == library::RunOrigin::Import;
            const library::RunTrust trust = m_impl->lib->trustOf(s);
            r.trusted = trust.trusted();
            r.untrustedBecause = q(trust.why());
            r.ranOn = q(s.ranOn);
            r.storedBy = q(s.storedBy.user);
            r.storedRole = q(s.storedBy.role);
            r.byOthers = trust.someoneElses();
            for (const auto& c : s.captures)
                if (!c.backend.empty() && !r.backends.contains(q(c.backend)))
                    r.backends << q(c.backend);
            for (const auto& k : s.checks)
                r.checks.push_back(
                    {q(k.target), q(k.outcome), k.runs, k.firstCallMs, q(k.torch), q(k.reason), q(k.checkedAt),
                        k.checkedBy.role.empty() ? q(k.checkedBy.user)
                                                 : q(k.checkedBy.user + " (role " + k.checkedBy.role + ")")});
            out.push_back(std::move(r));
        }
    } catch (const std::exception& e) {
        *error = q(e.what());
        out.clear();
    }
    return out;
}

std::shared_ptr<RunDocument> RunStore::load(qint64 id, QString* error) const
{
    if (!isOpen()) {
        *error = m_error;
        return nullptr;
    }
    try {
        // Blobs are checked one by one below, as each capture's bytes are read.
        const library::RunRecord record = m_impl->lib->show(id, /*checkBlobs=*/false);
        auto doc = std::make_shared<RunDocument>();
        doc->report = model::Report::fromJson(record.report);
        doc->report.runId = id;
        doc->scriptText = record.scriptText;
        doc->origin = RunDocument::Origin::Library;
        doc->library = m_path;
        doc->createdAt = q(record.summary.createdAt);
        const library::RunTrust trust = m_impl->lib->trustOf(record.summary);
        doc->trusted = trust.trusted();
        doc->untrustedBecause = q(trust.why());
        doc->artifacts.resize(doc->report.captures.size());
        for (const auto& c : record.summary.captures) {
            if (c.index < 0 || c.index >= static_cast<int>(doc->artifacts.size()) || !c.pythonCodeSha256)
                continue;
            auto& bytes = doc->artifacts[c.index];
            try {
                library::CaptureArtifact a = m_impl->lib->artifact(id, c.index);
                bytes.pythonCode = std::move(a.pythonCode);
                bytes.cache = std::move(a.cache);
            } catch (const library::LibraryError& e) {
                bytes.error = e.what();
            }
        }
        return doc;
    } catch (const std::exception& e) {
        *error = q(e.what());
        return nullptr;
    }
}

qint64 RunStore::insert(const RunDocument& run, QString* error)
{
    if (!isOpen()) {
        *error = m_error;
        return -1;
    }
    try {
        library::NewRun nr;
        nr.report = run.report.toJson();
        // The worker's files lived in a temporary folder; the library holds the bytes.
        for (auto& c : nr.report["captures"])
            if (c.is_object() && c.contains("artifact") && c["artifact"].is_object())
                c["artifact"].erase("files");
        for (const auto& a : run.artifacts)
            nr.captures.push_back({a.pythonCode, a.cache});
        nr.scriptText = run.scriptText;
        return m_impl->lib->insert(nr);
    } catch (const std::exception& e) {
        *error = q(e.what());
        return -1;
    }
}

bool RunStore::details(qint64 id, StoredRunDetails* out, QString* error) const
{
    if (!isOpen()) {
        *error = m_error;
        return false;
    }
    try {
        const library::RunRecord record = m_impl->lib->show(id, /*checkBlobs=*/false);
        *out = StoredRunDetails();
        out->captures = static_cast<int>(record.summary.captures.size());
        for (const auto& c : record.summary.captures)
            out->bytes += c.pythonCodeBytes.value_or(0) + c.cacheBytes.value_or(0);
        out->scriptText = q(record.scriptText);
        return true;
    } catch (const std::exception& e) {
        *error = q(e.what());
        return false;
    }
}

bool RunStore::compareSide(qint64 id, compare::RunSide* out, QString* error) const
{
    if (!isOpen()) {
        *error = m_error;
        return false;
    }
    try {
        *out = library::RunSideLoader::load(*m_impl->lib, id);
        return true;
    } catch (const std::exception& e) {
        *error = q(e.what());
        return false;
    }
}

QStringList RunStore::exportRun(qint64 id, const QString& dir, QString* error) const
{
    QStringList written;
    if (!isOpen()) {
        *error = m_error;
        return written;
    }
    try {
        for (const auto& file : m_impl->lib->exportRun(id, dir.toStdString()))
            written << q(file);
    } catch (const std::exception& e) {
        *error = q(e.what());
        written.clear();
    }
    return written;
}

qint64 RunStore::importArtifact(const QString& pythonCodePath, QString* error)
{
    if (!isOpen()) {
        *error = m_error;
        return -1;
    }
    try {
        return m_impl->lib->importArtifact(pythonCodePath.toStdString());
    } catch (const std::exception& e) {
        *error = q(e.what());
        return -1;
    }
}

bool RunStore::trust(qint64 id, QString* error)
{
    if (!isOpen()) {
        *error = m_error;
        return false;
    }
    try {
        m_impl->lib->trust(id);
        return true;
    } catch (const std::exception& e) {
        *error = q(e.what());
        return false;
    }
}

bool RunStore::remove(qint64 id, QString* error)
{
    if (!isOpen()) {
        *error = m_error;
        return false;
    }
    try {
        m_impl->lib->remove(id);
        return true;
    } catch (const std::exception& e) {
        *error = q(e.what());
        return false;
    }
}

std::shared_ptr<RunDocument> RunStore::readExport(const QString& path, QString* error)
{
    try {
        library::ArtifactFiles::Pair pair = library::ArtifactFiles::read(path.toStdString());
        auto doc = std::make_shared<RunDocument>();
        doc->report = model::Report::fromJson(pair.report);
        doc->origin = RunDocument::Origin::Export;
        doc->trusted = false;
        doc->artifacts.resize(doc->report.captures.size());
        if (pair.captureIndex < doc->artifacts.size()) {
            doc->artifacts[pair.captureIndex].pythonCode = std::move(pair.pythonCode);
            doc->artifacts[pair.captureIndex].cache = std::move(pair.cache);
        }
        return doc;
    } catch (const std::exception& e) {
        *error = q(e.what());
        return nullptr;
    }
}

std::shared_ptr<graph::LayoutCache> RunStore::layoutCache() const
{
    if (!isOpen() || !m_readOnlyReason.isEmpty())
        return nullptr;
    return std::make_shared<library::LibraryLayoutCache>(m_path.toStdString());
}

qint64 RunStore::lastRunOf(const QString& scriptPath) const
{
    if (scriptPath.isEmpty() || !isOpen())
        return 0;
    QString error;
    const QString canonical = QFileInfo(scriptPath).canonicalFilePath();
    for (const StoredRun& r : list(QString(), std::nullopt, &error)) {  // newest first
        if (r.scriptPath == scriptPath)
            return r.id;
        if (!canonical.isEmpty() && QFileInfo(r.scriptPath).canonicalFilePath() == canonical)
            return r.id;
    }
    return 0;
}

bool RunStore::looksLikeExport(const QString& path)
{
    const QFileInfo info(path);
    if (info.suffix() != QLatin1String("py"))
        return false;
    const QString stem = info.dir().filePath(info.completeBaseName());
    return QFileInfo::exists(stem + ".cache") && QFileInfo::exists(stem + ".json");
}

}  // namespace ps::ui
