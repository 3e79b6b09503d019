#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace ps::library {

/// One-shot zstd frames. Errors throw std::runtime_error carrying zstd's own words; the
/// caller turns them into a LibraryError that names the blob.
class ZstdCodec {
public:
    static constexpr int kDefaultLevel = 3;

    static std::string compress(std::string_view data, int level = kDefaultLevel);
    /// Decompresses a frame that must hold exactly `size` bytes.
    static std::string decompress(std::string_view frame, std::size_t size);
    /// Whether `frame` decompresses to exactly `expected`, streamed through a small buffer:
    /// nothing the size of the content is allocated. False for a damaged frame, never throws.
    static bool decompressesTo(std::string_view frame, std::string_view expected);
};

}  // namespace ps::library
