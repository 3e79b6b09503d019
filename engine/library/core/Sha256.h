#pragma once

#include <string>
#include <string_view>

struct evp_md_ctx_st;

namespace ps::library {

/// SHA-256 through OpenSSL's EVP interface, as lowercase hex (the form reports and
/// torch's code_hash use). Incremental: update() any number of times, then hexDigest() once.
class Sha256 {
public:
    Sha256();
    ~Sha256();
    Sha256(const Sha256&) = delete;
    Sha256& operator=(const Sha256&) = delete;

    void update(std::string_view data);
    std::string hexDigest();

    static std::string hex(std::string_view data);
    static bool isHexDigest(std::string_view text);

private:
    evp_md_ctx_st* ctx_ = nullptr;
};

}  // namespace ps::library
