#include "library/core/Sha256.h"

#include <openssl/evp.h>

#include <stdexcept>

namespace ps::library {

Sha256::Sha256() : ctx_(EVP_MD_CTX_new())
{
    if (ctx_ == nullptr || EVP_DigestInit_ex(ctx_, EVP_sha256(), nullptr) != 1) {
        EVP_MD_CTX_free(ctx_);
        throw std::runtime_error("OpenSSL cannot initialise SHA-256");
    }
}

Sha256::~Sha256()
{
    EVP_MD_CTX_free(ctx_);
}

void Sha256::update(std::string_view data)
{
    if (!data.empty() && EVP_DigestUpdate(ctx_, data.data(), data.size()) != 1)
        throw std::runtime_error("OpenSSL SHA-256 update failed");
}

std::string Sha256::hexDigest()
{
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int length = 0;
    if (EVP_DigestFinal_ex(ctx_, digest, &length) != 1)
        throw std::runtime_error("OpenSSL SHA-256 final failed");
    static constexpr char kHex[] = "0123456789abcdef";
    std::string out(2 * length, '\0');
    for (unsigned int i = 0; i < length; ++i) {
        out[2 * i] = kHex[digest[i] >> 4];
        out[2 * i + 1] = kHex[digest[i] & 0xf];
    }
    return out;
}

std::string Sha256::hex(std::string_view data)
{
    Sha256 sha;
    sha.update(data);
    return sha.hexDigest();
}

bool Sha256::isHexDigest(std::string_view text)
{
    if (text.size() != 64)
        return false;
    for (char c : text)
        if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f')))
            return false;
    return true;
}

}  // namespace ps::library
