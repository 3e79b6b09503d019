#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "library/core/BlobCodec.h"

namespace ps::library {

class SqliteConnection;

/// The content-addressed blobs table: sha256 key, uncompressed size, codec ("zstd", or "raw"
/// when compression does not help) and data. Every read is checked against the key: a blob
/// that fails is a LibraryError of kind Damaged, never returned as good data.
/// Thread contract: that of its SqliteConnection.
class SqliteBlobStore {
public:
    using Prepared = BlobCodec::Encoded;

    explicit SqliteBlobStore(SqliteConnection& db) : db_(db) { }

    /// Readies a hashed blob (BlobCodec::hash) for put(): a blob of that sha256 already stored
    /// is checked against its bytes (never trusted by its key alone): a whole one is reused, a
    /// damaged one replaced; otherwise it is compressed.
    Prepared prepare(const Prepared& hashed);
    /// Stores a prepared blob; call inside a transaction. A whole blob already there is kept.
    void put(Prepared& blob);
    bool contains(const std::string& sha256);

    /// The verified bytes of a blob. `owner` names who refers to it, for the error message
    /// (e.g. "python_code of capture 'fn' of run 12").
    std::string read(const std::string& sha256, const std::string& owner);
    /// What is wrong with a blob, or nullopt when it is whole.
    std::optional<std::string> check(const std::string& sha256);

private:
    /// Whether the stored row for `sha256` holds exactly `bytes`: its recorded size, then its
    /// data (raw: compared; zstd: streamed through the decompressor and compared, no copy of
    /// the content is made). nullopt when there is no such row.
    std::optional<bool> storedCopyMatches(const std::string& sha256, std::string_view bytes);

    SqliteConnection& db_;
};

}  // namespace ps::library
