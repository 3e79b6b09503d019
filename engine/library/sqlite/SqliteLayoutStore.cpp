#include "library/sqlite/SqliteLayoutStore.h"

#include <exception>
#include <vector>

#include "library/core/ZstdCodec.h"
#include "library/sqlite/SqliteConnection.h"
#include "library/sqlite/SqliteStatement.h"
#include "library/sqlite/SqliteTransaction.h"

namespace ps::library {

std::optional<std::string> SqliteLayoutStore::load(const std::string& key)
{
    std::optional<std::string> bytes;
    bool found = false;
    try {
        // A lookup only reads: it never waits for a writer's lock.
        SqliteTransaction snapshot(db_, SqliteTransaction::Mode::Read);
        SqliteStatement st = db_.prepare("SELECT size, codec, data FROM graph_layouts WHERE key = ?");
        st.bind(1, std::string_view(key));
        if (!st.step())
            return std::nullopt;
        found = true;
        const std::int64_t size = st.integer(0);
        const std::string codec = st.text(1);
        try {
            // A size past what storeLayout could have kept is damage, not an allocation to try.
            if (size >= 0 && size <= budget_ * 64) {
                bytes = codec == "zstd" ? ZstdCodec::decompress(st.blob(2), static_cast<std::size_t>(size))
                                        : std::string(st.blob(2));
                if (bytes->size() != static_cast<std::size_t>(size))
                    bytes.reset();
            }
        } catch (const std::exception&) {
            bytes.reset();
        }
    } catch (const std::exception&) {
        return std::nullopt;  // a cache never fails its caller: a locked library just means no layout
    }
    if (!found)
        return std::nullopt;
    // Then, best effort: a hit becomes the most recently used; a damaged row goes.
    try {
        SqliteTransaction tx(db_);
        SqliteStatement st = db_.prepare(bytes
                ? "UPDATE graph_layouts SET used_at = (SELECT max(used_at) + 1 FROM graph_layouts) WHERE key = ?"
                : "DELETE FROM graph_layouts WHERE key = ?");
        st.bind(1, std::string_view(key)).run();
        tx.commit();
    } catch (const std::exception&) {
    }
    return bytes;
}

void SqliteLayoutStore::store(const std::string& key, const std::string& bytes)
{
    std::string stored = ZstdCodec::compress(bytes);
    const bool zstd = stored.size() < bytes.size();
    if (!zstd)
        stored = bytes;
    if (static_cast<std::int64_t>(stored.size()) > budget_)
        return;
    SqliteTransaction tx(db_);
    SqliteStatement put = db_.prepare("INSERT OR REPLACE INTO graph_layouts (key, size, codec, data, used_at) "
                                      "VALUES (?, ?, ?, ?, (SELECT coalesce(max(used_at), 0) + 1 FROM graph_layouts))");
    put.bind(1, std::string_view(key))
        .bind(2, static_cast<std::int64_t>(bytes.size()))
        .bind(3, std::string_view(zstd ? "zstd" : "raw"))
        .bindBlob(4, stored)
        .run();
    // Past the budget, the least recently used go first.
    std::int64_t total = db_.queryInt("SELECT coalesce(sum(length(data)), 0) FROM graph_layouts");
    if (total > budget_) {
        SqliteStatement oldest = db_.prepare("SELECT key, length(data) FROM graph_layouts ORDER BY used_at");
        std::vector<std::string> drop;
        while (total > budget_ && oldest.step()) {
            drop.push_back(oldest.text(0));
            total -= oldest.integer(1);
        }
        oldest.reset();
        SqliteStatement del = db_.prepare("DELETE FROM graph_layouts WHERE key = ?");
        for (const auto& k : drop) {
            del.bind(1, std::string_view(k)).run();
            del.reset();
        }
    }
    tx.commit();
}

std::pair<std::int64_t, std::int64_t> SqliteLayoutStore::usage() const
{
    SqliteStatement st = db_.prepare("SELECT count(*), coalesce(sum(length(data)), 0) FROM graph_layouts");
    st.step();
    return {st.integer(0), st.integer(1)};
}

}  // namespace ps::library
