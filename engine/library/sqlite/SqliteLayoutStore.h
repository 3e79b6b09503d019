#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>

namespace ps::library {

class SqliteConnection;

/// The graph view's layout cache in the library (table graph_layouts; ArtifactLibrary::layout,
/// storeLayout, layoutUsage): bytes by key, zstd-compressed, trimmed to `budget` stored bytes,
/// least recently used first. A cache: a row that cannot be read is deleted and reported as
/// absent, never thrown. Thread contract: that of its SqliteConnection.
class SqliteLayoutStore {
public:
    SqliteLayoutStore(SqliteConnection& db, std::int64_t budget) : db_(db), budget_(budget) { }

    std::optional<std::string> load(const std::string& key);
    void store(const std::string& key, const std::string& bytes);
    /// How many layouts are kept, and their stored (compressed) bytes.
    std::pair<std::int64_t, std::int64_t> usage() const;

private:
    SqliteConnection& db_;
    std::int64_t budget_;
};

}  // namespace ps::library
