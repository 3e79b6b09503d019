#include "share/Base64.h"

#include <openssl/evp.h>

#include <algorithm>
#include <stdexcept>

namespace ps::share {

namespace {

// OpenSSL's block functions take an int length: whole blocks of at most this many bytes (a
// multiple of 3, so that only the last block is padded).
constexpr std::size_t kEncodeChunk = 3 << 20;

}  // namespace

std::string Base64::encode(std::string_view bytes)
{
    std::string out((bytes.size() + 2) / 3 * 4, '\0');
    auto* to = reinterpret_cast<unsigned char*>(out.data());
    for (std::size_t at = 0; at < bytes.size(); at += kEncodeChunk) {
        const std::size_t take = std::min(kEncodeChunk, bytes.size() - at);
        to += EVP_EncodeBlock(to, reinterpret_cast<const unsigned char*>(bytes.data() + at), static_cast<int>(take));
    }
    return out;
}

std::string Base64::decode(std::string_view text)
{
    if (text.size() % 4 != 0)
        throw std::invalid_argument("base64: length " + std::to_string(text.size()) + " is not a multiple of 4");
    // EVP_DecodeBlock would skip spaces and treat '=' as a digit; the page never writes either
    // inside, so both are refused here, padding only at the very end.
    const std::size_t padding = text.size() - std::min(text.size(), text.find_last_not_of('=') + 1);
    const auto bad = std::find_if(text.begin(), text.end() - static_cast<std::ptrdiff_t>(padding), [](char c) {
        return !((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '+' || c == '/');
    });
    if (padding > 2 || bad != text.end() - static_cast<std::ptrdiff_t>(padding))
        throw std::invalid_argument("base64: bad character at " + std::to_string(bad - text.begin()));
    std::string out(text.size() / 4 * 3, '\0');
    auto* to = reinterpret_cast<unsigned char*>(out.data());
    constexpr std::size_t kDecodeChunk = kEncodeChunk / 3 * 4;
    for (std::size_t at = 0; at < text.size(); at += kDecodeChunk) {
        const std::size_t take = std::min(kDecodeChunk, text.size() - at);
        const int n
            = EVP_DecodeBlock(to, reinterpret_cast<const unsigned char*>(text.data() + at), static_cast<int>(take));
        if (n < 0)
            throw std::invalid_argument("base64: cannot decode the block at " + std::to_string(at));
        to += n;
    }
    // EVP_DecodeBlock counts the padding's zero bytes as data.
    out.resize(out.size() - padding);
    return out;
}

}  // namespace ps::share
