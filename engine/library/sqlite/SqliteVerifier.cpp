#include "library/sqlite/SqliteVerifier.h"

#include <map>
#include <set>
#include <string>
#include <utility>

#include "library/core/BlobCodec.h"
#include "library/core/LibraryError.h"
#include "library/sqlite/SqliteConnection.h"
#include "library/sqlite/SqliteStatement.h"
#include "library/sqlite/SqliteTransaction.h"

namespace ps::library {

using Kind = LibraryError::Kind;

VerifyReport SqliteVerifier::verify() const
{
    VerifyReport report;
    const auto guarded = [&](const auto& check) {
        try {
            check();
        } catch (const LibraryError& e) {
            if (e.kind() != Kind::Corrupt && e.kind() != Kind::Sqlite)
                throw;
            report.integrityErrors.push_back(e.what());
        }
    };
    // One snapshot for every check: a run a writer commits meanwhile is either wholly seen or
    // not at all (never a capture whose blob seems missing), and no check needs the write lock.
    SqliteTransaction snapshot(db_, SqliteTransaction::Mode::Read);
    guarded([&] {
        SqliteStatement st = db_.prepare("PRAGMA integrity_check");
        while (st.step())
            if (const std::string line = st.text(0); line != "ok")
                report.integrityErrors.push_back(line);
    });
    guarded([&] {
        SqliteStatement st = db_.prepare("PRAGMA foreign_key_check");
        while (st.step())
            report.integrityErrors.push_back(
                "table " + st.text(0) + " row " + st.text(1) + " refers to a missing row of " + st.text(2));
    });
    guarded([&] {
        // FTS5's own 'integrity-check' is an INSERT, which needs the write lock; read instead: one
        // index row per run, and a walk of every term of the index (fts5vocab, a temp table that
        // a read-only connection may create), which fails as corrupt on a damaged segment.
        const std::int64_t unindexed
            = db_.queryInt("SELECT count(*) FROM runs WHERE id NOT IN (SELECT rowid FROM run_search)");
        const std::int64_t stray
            = db_.queryInt("SELECT count(*) FROM run_search WHERE rowid NOT IN (SELECT id FROM runs)");
        if (unindexed > 0 || stray > 0)
            report.integrityErrors.push_back("the search index: " + std::to_string(unindexed)
                + " run(s) missing from it, " + std::to_string(stray) + " row(s) of removed runs in it");
        db_.exec("CREATE VIRTUAL TABLE IF NOT EXISTS temp.run_search_terms USING fts5vocab(main, run_search, "
                 "'instance')");
        try {
            db_.queryInt("SELECT count(*) FROM temp.run_search_terms");
        } catch (const LibraryError& e) {
            if (e.kind() != Kind::Corrupt)
                throw;
            report.integrityErrors.push_back(std::string("the search index is damaged: ") + e.what());
        }
    });

    std::map<std::string, std::string> damaged;  // sha256 -> detail
    guarded([&] {
        SqliteStatement st = db_.prepare("SELECT sha256, size, codec, data FROM blobs");
        while (st.step()) {
            const std::string sha = st.text(0);
            const std::int64_t size = st.integer(1);
            if (auto problem = BlobCodec::decode(sha, size, st.text(2), st.blob(3), nullptr))
                damaged.emplace(sha, *problem);
            ++report.blobsChecked;
            report.bytesChecked += size;
        }
    });
    guarded([&] {
        SqliteStatement st = db_.prepare(
            "SELECT c.python_code_sha256 FROM captures c LEFT JOIN blobs b ON b.sha256 = c.python_code_sha256 "
            "WHERE c.python_code_sha256 IS NOT NULL AND b.sha256 IS NULL "
            "UNION SELECT c.cache_sha256 FROM captures c LEFT JOIN blobs b ON b.sha256 = c.cache_sha256 "
            "WHERE c.cache_sha256 IS NOT NULL AND b.sha256 IS NULL");
        while (st.step())
            damaged.emplace(st.text(0), "it is missing from the blobs table");
    });

    for (const auto& [sha, detail] : damaged) {
        BlobDamage d{sha, "", detail, {}};
        std::set<std::string> roles;
        guarded([&] {
            SqliteStatement st = db_.prepare("SELECT run_id, python_code_sha256 = ?1, cache_sha256 = ?1 FROM captures "
                                             "WHERE python_code_sha256 = ?1 OR cache_sha256 = ?1 ORDER BY run_id");
            st.bind(1, std::string_view(d.sha256));
            while (st.step()) {
                if (d.runIds.empty() || d.runIds.back() != st.integer(0))
                    d.runIds.push_back(st.integer(0));
                if (st.integer(1))
                    roles.insert("python_code");
                if (st.integer(2))
                    roles.insert("cache");
            }
        });
        if (roles.size() == 1)
            d.role = *roles.begin();
        report.damaged.push_back(std::move(d));
    }
    try {
        snapshot.commit();  // it only read; an error ending it early was reported above
    } catch (const LibraryError&) {
    }
    return report;
}

}  // namespace ps::library
