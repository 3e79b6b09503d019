#include "library/BlobStore.h"

#include "library/Connection.h"
#include "library/LibraryError.h"
#include "library/Sha256.h"
#include "library/Statement.h"
#include "library/ZstdCodec.h"

namespace ps::library {

BlobStore::Prepared BlobStore::prepare(std::string_view bytes)
{
    Prepared blob;
    blob.sha256 = Sha256::hex(bytes);
    blob.size = static_cast<std::int64_t>(bytes.size());
    blob.raw = bytes;
    const std::optional<bool> whole = storedCopyMatches(blob.sha256, bytes);
    blob.alreadyStored = whole.value_or(false);
    blob.replace = whole.has_value() && !*whole;
    if (!blob.alreadyStored)
        compress(blob);
    return blob;
}

std::optional<bool> BlobStore::storedCopyMatches(const std::string& sha256, std::string_view bytes)
{
    Statement st = db_.prepare("SELECT size, codec, data FROM blobs WHERE sha256 = ?");
    st.bind(1, std::string_view(sha256));
    if (!st.step())
        return std::nullopt;
    if (st.integer(0) != static_cast<std::int64_t>(bytes.size()))
        return false;
    const std::string_view codec = st.textView(1);
    if (codec == "raw")
        return st.blob(2) == bytes;
    if (codec == "zstd")
        return ZstdCodec::decompressesTo(st.blob(2), bytes);
    return false;
}

void BlobStore::compress(Prepared& blob)
{
    std::string packed = blob.raw.empty() ? std::string() : ZstdCodec::compress(blob.raw, kLevel);
    if (!blob.raw.empty() && packed.size() < blob.raw.size()) {
        blob.codec = "zstd";
        blob.data = std::move(packed);
    } else {
        blob.codec = "raw";
        blob.data.assign(blob.raw);
    }
}

bool BlobStore::contains(const std::string& sha256)
{
    Statement st = db_.prepare("SELECT 1 FROM blobs WHERE sha256 = ?");
    st.bind(1, std::string_view(sha256));
    return st.step();
}

void BlobStore::put(Prepared& blob)
{
    if (blob.alreadyStored) {
        if (contains(blob.sha256))
            return;
        compress(blob);  // collected by gc between prepare() and now: store it after all
        blob.alreadyStored = false;
    }
    // A damaged copy is overwritten; otherwise a copy stored meanwhile by another process wins.
    Statement st = db_.prepare(blob.replace
            ? "INSERT INTO blobs (sha256, size, codec, data) VALUES (?, ?, ?, ?) ON CONFLICT (sha256) DO UPDATE "
              "SET size = excluded.size, codec = excluded.codec, data = excluded.data"
            : "INSERT INTO blobs (sha256, size, codec, data) VALUES (?, ?, ?, ?) ON CONFLICT (sha256) DO NOTHING");
    st.bind(1, std::string_view(blob.sha256))
        .bind(2, blob.size)
        .bind(3, std::string_view(blob.codec))
        .bindBlob(4, blob.data);
    st.run();
}

std::optional<std::string> BlobStore::decode(
    std::string_view key, std::int64_t size, std::string_view codec, std::string_view data, std::string* bytes)
{
    if (size < 0)
        return "it records a negative size";
    std::string unpacked;
    std::string_view content;
    if (codec == "raw") {
        content = data;
    } else if (codec == "zstd") {
        try {
            unpacked = ZstdCodec::decompress(data, static_cast<std::size_t>(size));
        } catch (const std::exception& e) {
            return std::string("it cannot be decompressed (") + e.what() + ")";
        }
        content = unpacked;
    } else {
        return "it has an unknown codec '" + std::string(codec) + "'";
    }
    if (static_cast<std::int64_t>(content.size()) != size)
        return "it holds " + std::to_string(content.size()) + " bytes, not the " + std::to_string(size) + " recorded";
    const std::string actual = Sha256::hex(content);
    if (actual != key)
        return "its content hashes to " + actual;
    if (bytes) {
        if (codec == "raw")
            bytes->assign(content);
        else
            *bytes = std::move(unpacked);
    }
    return std::nullopt;
}

std::string BlobStore::read(const std::string& sha256, const std::string& owner)
{
    Statement st = db_.prepare("SELECT size, codec, data FROM blobs WHERE sha256 = ?");
    st.bind(1, std::string_view(sha256));
    const auto damaged = [&](const std::string& detail) {
        return LibraryError(
            LibraryError::Kind::Damaged, db_.path(), "blob " + sha256 + " (" + owner + ") is damaged: " + detail);
    };
    if (!st.step())
        throw damaged("it is missing from the blobs table");
    std::string bytes;
    if (auto problem = decode(sha256, st.integer(0), st.text(1), st.blob(2), &bytes))
        throw damaged(*problem);
    return bytes;
}

std::optional<std::string> BlobStore::check(const std::string& sha256)
{
    Statement st = db_.prepare("SELECT size, codec, data FROM blobs WHERE sha256 = ?");
    st.bind(1, std::string_view(sha256));
    if (!st.step())
        return std::string("it is missing from the blobs table");
    return decode(sha256, st.integer(0), st.text(1), st.blob(2), nullptr);
}

}  // namespace ps::library
