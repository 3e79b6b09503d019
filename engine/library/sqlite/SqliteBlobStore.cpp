#include "library/sqlite/SqliteBlobStore.h"

#include "library/core/BlobCodec.h"

#include "library/core/LibraryError.h"
#include "library/sqlite/SqliteConnection.h"
#include "library/sqlite/SqliteStatement.h"

namespace ps::library {

SqliteBlobStore::Prepared SqliteBlobStore::prepare(const Prepared& hashed)
{
    Prepared blob = hashed;
    const std::optional<bool> whole = storedCopyMatches(blob.sha256, blob.raw);
    blob.alreadyStored = whole.value_or(false);
    blob.replace = whole.has_value() && !*whole;
    if (!blob.alreadyStored)
        BlobCodec::compress(blob);
    return blob;
}

std::optional<bool> SqliteBlobStore::storedCopyMatches(const std::string& sha256, std::string_view bytes)
{
    SqliteStatement st = db_.prepare("SELECT size, codec, data FROM blobs WHERE sha256 = ?");
    st.bind(1, std::string_view(sha256));
    if (!st.step())
        return std::nullopt;
    return BlobCodec::holds(st.integer(0), st.textView(1), st.blob(2), bytes);
}

bool SqliteBlobStore::contains(const std::string& sha256)
{
    SqliteStatement st = db_.prepare("SELECT 1 FROM blobs WHERE sha256 = ?");
    st.bind(1, std::string_view(sha256));
    return st.step();
}

void SqliteBlobStore::put(Prepared& blob)
{
    if (blob.alreadyStored) {
        if (contains(blob.sha256))
            return;
        BlobCodec::compress(blob);  // collected by gc between prepare() and now: store it after all
        blob.alreadyStored = false;
    }
    // A damaged copy is overwritten; otherwise a copy stored meanwhile by another process wins.
    SqliteStatement st = db_.prepare(blob.replace
            ? "INSERT INTO blobs (sha256, size, codec, data) VALUES (?, ?, ?, ?) ON CONFLICT (sha256) DO UPDATE "
              "SET size = excluded.size, codec = excluded.codec, data = excluded.data"
            : "INSERT INTO blobs (sha256, size, codec, data) VALUES (?, ?, ?, ?) ON CONFLICT (sha256) DO NOTHING");
    st.bind(1, std::string_view(blob.sha256))
        .bind(2, blob.size)
        .bind(3, std::string_view(blob.codec))
        .bindBlob(4, blob.data);
    st.run();
}

std::string SqliteBlobStore::read(const std::string& sha256, const std::string& owner)
{
    SqliteStatement st = db_.prepare("SELECT size, codec, data FROM blobs WHERE sha256 = ?");
    st.bind(1, std::string_view(sha256));
    const auto damaged = [&](const std::string& detail) {
        return LibraryError(
            LibraryError::Kind::Damaged, db_.path(), "blob " + sha256 + " (" + owner + ") is damaged: " + detail);
    };
    if (!st.step())
        throw damaged("it is missing from the blobs table");
    std::string bytes;
    if (auto problem = BlobCodec::decode(sha256, st.integer(0), st.text(1), st.blob(2), &bytes))
        throw damaged(*problem);
    return bytes;
}

std::optional<std::string> SqliteBlobStore::check(const std::string& sha256)
{
    SqliteStatement st = db_.prepare("SELECT size, codec, data FROM blobs WHERE sha256 = ?");
    st.bind(1, std::string_view(sha256));
    if (!st.step())
        return std::string("it is missing from the blobs table");
    return BlobCodec::decode(sha256, st.integer(0), st.text(1), st.blob(2), nullptr);
}

}  // namespace ps::library
