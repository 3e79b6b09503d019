#include "library/core/BlobCodec.h"

#include <exception>
#include <utility>

#include "library/core/Sha256.h"
#include "library/core/ZstdCodec.h"

namespace ps::library {

BlobCodec::Encoded BlobCodec::hash(std::string_view bytes)
{
    Encoded blob;
    blob.sha256 = Sha256::hex(bytes);
    blob.size = static_cast<std::int64_t>(bytes.size());
    blob.raw = bytes;
    return blob;
}

void BlobCodec::compress(Encoded& blob)
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

bool BlobCodec::holds(std::int64_t size, std::string_view codec, std::string_view data, std::string_view bytes)
{
    if (size != static_cast<std::int64_t>(bytes.size()))
        return false;
    if (codec == "raw")
        return data == bytes;
    if (codec == "zstd")
        return ZstdCodec::decompressesTo(data, bytes);
    return false;
}

std::optional<std::string> BlobCodec::decode(
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

std::string BlobCodec::captureOwner(const std::string& role, const std::string& name, std::int64_t runId)
{
    return role + " of capture '" + name + "' of run " + std::to_string(runId);
}

}  // namespace ps::library
