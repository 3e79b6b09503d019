#include "library/ZstdCodec.h"

#include <zstd.h>

#include <stdexcept>

namespace ps::library {

std::string ZstdCodec::compress(std::string_view data, int level)
{
    std::string out(ZSTD_compressBound(data.size()), '\0');
    const std::size_t n = ZSTD_compress(out.data(), out.size(), data.data(), data.size(), level);
    if (ZSTD_isError(n))
        throw std::runtime_error(std::string("zstd: ") + ZSTD_getErrorName(n));
    out.resize(n);
    return out;
}

std::string ZstdCodec::decompress(std::string_view frame, std::size_t size)
{
    const unsigned long long declared = ZSTD_getFrameContentSize(frame.data(), frame.size());
    if (declared == ZSTD_CONTENTSIZE_ERROR)
        throw std::runtime_error("zstd: not a zstd frame");
    if (declared != ZSTD_CONTENTSIZE_UNKNOWN && declared != size)
        throw std::runtime_error(
            "zstd: frame holds " + std::to_string(declared) + " bytes, expected " + std::to_string(size));
    std::string out(size, '\0');
    const std::size_t n = ZSTD_decompress(out.data(), out.size(), frame.data(), frame.size());
    if (ZSTD_isError(n))
        throw std::runtime_error(std::string("zstd: ") + ZSTD_getErrorName(n));
    if (n != size)
        throw std::runtime_error("zstd: frame held " + std::to_string(n) + " bytes, expected " + std::to_string(size));
    return out;
}

}  // namespace ps::library
