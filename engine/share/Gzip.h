#pragma once

#include <string>
#include <string_view>

namespace ps::share {

/// gzip (RFC 1952) through zlib, the one compression a browser's DecompressionStream("gzip")
/// reads in every engine (zstd and brotli are not offered there; docs/research/share.md §B).
class Gzip {
public:
    /// `data` as one gzip member (deflateInit2 with windowBits 31), level 6 by default.
    /// Throws std::runtime_error when zlib fails (out of memory).
    static std::string compress(std::string_view data, int level = 6);
    /// The bytes of a gzip member; throws std::runtime_error naming zlib's complaint on bad input.
    static std::string decompress(std::string_view data);
};

}  // namespace ps::share
