#include "share/Gzip.h"

#include <zlib.h>

#include <stdexcept>

namespace ps::share {

namespace {

// windowBits 15 (the largest window) + 16: a gzip header and trailer instead of zlib's.
constexpr int kGzipWindowBits = 15 + 16;

}  // namespace

std::string Gzip::compress(std::string_view data, int level)
{
    z_stream z{};
    if (deflateInit2(&z, level, Z_DEFLATED, kGzipWindowBits, 8, Z_DEFAULT_STRATEGY) != Z_OK)
        throw std::runtime_error("gzip: deflateInit2 failed");
    std::string out;
    out.resize(deflateBound(&z, static_cast<uLong>(data.size())) + 32);
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
    z.avail_in = static_cast<uInt>(data.size());
    z.next_out = reinterpret_cast<Bytef*>(out.data());
    z.avail_out = static_cast<uInt>(out.size());
    const int rc = deflate(&z, Z_FINISH);
    const auto written = z.total_out;
    deflateEnd(&z);
    if (rc != Z_STREAM_END)
        throw std::runtime_error("gzip: deflate did not finish (" + std::to_string(rc) + ")");
    out.resize(written);
    return out;
}

std::string Gzip::decompress(std::string_view data)
{
    z_stream z{};
    if (inflateInit2(&z, kGzipWindowBits) != Z_OK)
        throw std::runtime_error("gzip: inflateInit2 failed");
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
    z.avail_in = static_cast<uInt>(data.size());
    std::string out;
    char buffer[64 * 1024];
    int rc = Z_OK;
    while (rc == Z_OK) {
        z.next_out = reinterpret_cast<Bytef*>(buffer);
        z.avail_out = sizeof buffer;
        rc = inflate(&z, Z_NO_FLUSH);
        out.append(buffer, sizeof buffer - z.avail_out);
        if (rc == Z_BUF_ERROR && z.avail_in == 0)
            break;
    }
    const std::string why = z.msg ? z.msg : "truncated input";
    inflateEnd(&z);
    if (rc != Z_STREAM_END)
        throw std::runtime_error("gzip: not a whole gzip stream: " + why);
    return out;
}

}  // namespace ps::share
