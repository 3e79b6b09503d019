#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace ps::library {

class Connection;

/// The content-addressed blobs table: sha256 key, uncompressed size, codec ("zstd", or "raw"
/// when compression does not help) and data. Every read is checked against the key: a blob
/// that fails is a LibraryError of kind Damaged, never returned as good data.
/// Thread contract: that of its Connection.
class BlobStore {
public:
    /// A blob hashed and compressed ahead of the transaction that stores it, so the write lock
    /// is held only for the INSERT.
    struct Prepared {
        std::string sha256;
        std::int64_t size = 0;
        std::string codec;
        std::string data;            ///< what goes into blobs.data (empty when already stored)
        std::string_view raw;        ///< the caller's bytes, in case the stored copy vanished meanwhile
        bool alreadyStored = false;  ///< a whole copy is stored: nothing to write
        bool replace = false;        ///< the stored copy is damaged: overwrite it with these bytes
    };

    explicit BlobStore(Connection& db) : db_(db) { }

    /// Hashes and compresses `bytes`. A blob of that sha256 already stored is checked against
    /// `bytes` (never trusted by its key alone): a whole one is reused, a damaged one replaced.
    Prepared prepare(std::string_view bytes);
    /// Stores a prepared blob; call inside a transaction. A whole blob already there is kept.
    void put(Prepared& blob);
    bool contains(const std::string& sha256);

    /// The verified bytes of a blob. `owner` names who refers to it, for the error message
    /// (e.g. "python_code of capture 'fn' of run 12").
    std::string read(const std::string& sha256, const std::string& owner);
    /// What is wrong with a blob, or nullopt when it is whole.
    std::optional<std::string> check(const std::string& sha256);

    /// Decodes and checks one blobs row: the bytes, or a description of the damage.
    static std::optional<std::string> decode(
        std::string_view key, std::int64_t size, std::string_view codec, std::string_view data, std::string* bytes);

    static constexpr int kLevel = 3;

private:
    void compress(Prepared& blob);
    /// Whether the stored row for `sha256` holds exactly `bytes`: its recorded size, then its
    /// data (raw: compared; zstd: streamed through the decompressor and compared, no copy of
    /// the content is made). nullopt when there is no such row.
    std::optional<bool> storedCopyMatches(const std::string& sha256, std::string_view bytes);

    Connection& db_;
};

}  // namespace ps::library
