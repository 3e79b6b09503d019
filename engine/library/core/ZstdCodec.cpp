#include "library/core/ZstdCodec.h"

#include <zstd.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <stdexcept>

namespace ps::library {

namespace {

// What decompress reserves per byte of frame before the frame has yielded anything (then the
// output grows as needed): about what a real cache compresses by.
constexpr std::size_t kReservePerFrameByte = 8;

}  // namespace

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
    // Streamed, the output growing only as the frame really yields bytes: a stored row that
    // claims more than its frame holds costs no memory up front.
    const std::unique_ptr<ZSTD_DStream, decltype(&ZSTD_freeDStream)> stream(ZSTD_createDStream(), ZSTD_freeDStream);
    if (!stream || ZSTD_isError(ZSTD_initDStream(stream.get())))
        throw std::runtime_error("zstd: cannot start a decompressor");
    std::string out;
    out.reserve(std::min(size, frame.size() * kReservePerFrameByte));
    std::string buffer(ZSTD_DStreamOutSize(), '\0');
    ZSTD_inBuffer in{frame.data(), frame.size(), 0};
    for (;;) {
        ZSTD_outBuffer piece{buffer.data(), buffer.size(), 0};
        const std::size_t hint = ZSTD_decompressStream(stream.get(), &piece, &in);
        if (ZSTD_isError(hint))
            throw std::runtime_error(std::string("zstd: ") + ZSTD_getErrorName(hint));
        if (piece.pos > size - out.size())
            throw std::runtime_error("zstd: frame holds more than the " + std::to_string(size) + " bytes expected");
        out.append(buffer.data(), piece.pos);
        if (hint == 0 && in.pos == in.size)
            break;  // the last frame is complete
        if (in.pos == in.size && piece.pos < piece.size)
            throw std::runtime_error("zstd: the frame is truncated");
    }
    if (out.size() != size)
        throw std::runtime_error(
            "zstd: frame held " + std::to_string(out.size()) + " bytes, expected " + std::to_string(size));
    return out;
}

bool ZstdCodec::decompressesTo(std::string_view frame, std::string_view expected)
{
    const std::unique_ptr<ZSTD_DStream, decltype(&ZSTD_freeDStream)> stream(ZSTD_createDStream(), ZSTD_freeDStream);
    if (!stream || ZSTD_isError(ZSTD_initDStream(stream.get())))
        return false;
    std::string buffer(ZSTD_DStreamOutSize(), '\0');
    ZSTD_inBuffer in{frame.data(), frame.size(), 0};
    std::size_t matched = 0;
    for (;;) {
        ZSTD_outBuffer out{buffer.data(), buffer.size(), 0};
        const std::size_t hint = ZSTD_decompressStream(stream.get(), &out, &in);
        if (ZSTD_isError(hint) || out.pos > expected.size() - matched
            || std::memcmp(buffer.data(), expected.data() + matched, out.pos) != 0)
            return false;
        matched += out.pos;
        if (hint == 0)
            break;  // the frame is complete
        if (in.pos == in.size && out.pos < out.size)
            return false;  // truncated: no input left and nothing more to flush
    }
    return matched == expected.size() && in.pos == in.size;
}

}  // namespace ps::library
