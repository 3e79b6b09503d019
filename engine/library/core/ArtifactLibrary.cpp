#include "library/core/ArtifactLibrary.h"

#include <utility>

#include "library/core/ArtifactTransfer.h"
#include "library/core/LibraryLocator.h"
#include "library/core/LibraryStore.h"
#include "library/core/RunDocumentCheck.h"
#include "library/postgres/PostgresStore.h"
#include "library/sqlite/SqliteStore.h"

namespace ps::library {

ArtifactLibrary::ArtifactLibrary(const std::string& location) : ArtifactLibrary(location, OpenOptions{})
{ }

ArtifactLibrary::ArtifactLibrary(const std::string& location, OpenOptions options)
{
    switch (LibraryLocator::kindOf(location)) {
    case LibraryLocator::Kind::File:
        store_ = std::make_unique<SqliteStore>(location, options);
        break;
    case LibraryLocator::Kind::Postgres:
        store_ = std::make_unique<PostgresStore>(location, options);
        break;
    }
}

ArtifactLibrary::~ArtifactLibrary() = default;
ArtifactLibrary::ArtifactLibrary(ArtifactLibrary&&) noexcept = default;
ArtifactLibrary& ArtifactLibrary::operator=(ArtifactLibrary&&) noexcept = default;

const std::string& ArtifactLibrary::path() const noexcept
{
    return store_->location();
}

int ArtifactLibrary::schemaVersion() const
{
    return store_->schemaVersion();
}

Identity ArtifactLibrary::identity() const
{
    return store_->identity();
}

std::string ArtifactLibrary::readOnlyReason() const
{
    return store_->readOnlyReason();
}

std::int64_t ArtifactLibrary::insert(const NewRun& run)
{
    return store_->insert(run);
}

std::vector<RunSummary> ArtifactLibrary::list(const ListQuery& query) const
{
    return store_->list(query);
}

std::vector<RunSummary> ArtifactLibrary::search(const std::string& text) const
{
    ListQuery query;
    query.search = text;
    return store_->list(query);
}

RunRecord ArtifactLibrary::show(std::int64_t runId, bool checkBlobs) const
{
    return store_->show(runId, checkBlobs);
}

CaptureArtifact ArtifactLibrary::artifact(std::int64_t runId, int captureIndex) const
{
    return store_->artifact(runId, captureIndex);
}

std::vector<std::string> ArtifactLibrary::exportRun(std::int64_t runId, const std::string& dir) const
{
    return ArtifactTransfer(*store_).exportRun(runId, dir);
}

std::int64_t ArtifactLibrary::importArtifact(const std::string& pythonCodePath)
{
    return ArtifactTransfer(*store_).importArtifact(pythonCodePath);
}

void ArtifactLibrary::trust(std::int64_t runId)
{
    const RunSummary run = store_->show(runId, false).summary;
    if (trustOf(run).someoneElses())
        trusted_.trust(run);
    else
        store_->trust(runId);
}

RunTrust ArtifactLibrary::trustOf(const RunSummary& run) const
{
    return RunTrust::of(run, store_->identity(), trusted_);
}

void ArtifactLibrary::remove(std::int64_t runId)
{
    store_->remove(runId);
}

VerifyReport ArtifactLibrary::verify() const
{
    VerifyReport report = store_->verify();
    report.runProblems = RunDocumentCheck::problems(*store_);
    return report;
}

GcResult ArtifactLibrary::gc()
{
    return store_->gc();
}

std::int64_t ArtifactLibrary::addCheck(std::int64_t runId, const CheckRecord& check)
{
    return store_->addCheck(runId, check);
}

std::vector<CheckRecord> ArtifactLibrary::checks(std::int64_t runId) const
{
    return store_->checks(runId);
}

void ArtifactLibrary::keepForPush(std::int64_t runId, const std::string& target, const std::string& reason)
{
    store_->keepForPush(runId, target, reason);
}

std::vector<OutboxEntry> ArtifactLibrary::outbox() const
{
    return store_->outbox();
}

void ArtifactLibrary::markPushed(std::int64_t runId, std::int64_t pushedId)
{
    store_->markPushed(runId, pushedId);
}

std::optional<std::string> ArtifactLibrary::layout(const std::string& key)
{
    return store_->layout(key);
}

void ArtifactLibrary::storeLayout(const std::string& key, const std::string& bytes)
{
    store_->storeLayout(key, bytes);
}

std::pair<std::int64_t, std::int64_t> ArtifactLibrary::layoutUsage() const
{
    return store_->layoutUsage();
}

}  // namespace ps::library
