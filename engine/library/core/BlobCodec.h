#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace ps::library {

/// How every store keeps a blob: content-addressed by the sha256 of its bytes, zstd-compressed
/// when that makes it smaller, raw otherwise; and the one check of a stored blob against its
/// key. No database here: SqliteStore's SqliteBlobStore and PostgresStore both build on it.
class BlobCodec {
public:
    /// A blob hashed (and, unless a whole copy is stored already, compressed) ahead of the
    /// transaction that stores it, so that locks are held only for the INSERT.
    struct Encoded {
        std::string sha256;
        std::int64_t size = 0;
        std::string codec;           ///< "zstd" or "raw"; empty until compress()
        std::string data;            ///< what the store's data column holds (empty when already stored)
        std::string_view raw;        ///< the caller's bytes, in case the stored copy vanished meanwhile
        bool alreadyStored = false;  ///< a whole copy is stored: nothing to write
        bool replace = false;        ///< the stored copy is damaged: overwrite it with these bytes
    };

    /// The blob's key and size; `bytes` must outlive the result.
    static Encoded hash(std::string_view bytes);
    /// Fills codec and data from raw.
    static void compress(Encoded& blob);
    /// Whether a stored row (size, codec, data) holds exactly `bytes`; zstd data is streamed
    /// through the decompressor and compared, no copy of the content is made.
    static bool holds(std::int64_t size, std::string_view codec, std::string_view data, std::string_view bytes);
    /// Decodes and checks one stored row against its key: nullopt and the bytes (when `bytes`
    /// is given) when whole, else what is wrong ("its content hashes to ...").
    static std::optional<std::string> decode(
        std::string_view key, std::int64_t size, std::string_view codec, std::string_view data, std::string* bytes);
    /// Whose blob a capture's is, as a damage message names it ("cache of capture 'fn' of run 3").
    static std::string captureOwner(const std::string& role, const std::string& name, std::int64_t runId);

    static constexpr int kLevel = 3;
};

}  // namespace ps::library
