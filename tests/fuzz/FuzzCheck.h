// What a fuzz target asserts beyond "no crash": a property the product promises, broken, is a
// finding like a crash (libFuzzer keeps the input; the replay test fails).
#pragma once

#include <cstdio>
#include <cstdlib>
#include <string_view>

namespace ps::fuzz {

[[noreturn]] inline void broken(std::string_view promise, std::string_view detail)
{
    std::fprintf(stderr, "FUZZ PROPERTY BROKEN: %.*s\n  %.*s\n", static_cast<int>(promise.size()), promise.data(),
        static_cast<int>(detail.size() > 400 ? 400 : detail.size()), detail.data());
    std::abort();
}

/// Whether `text` holds a byte a terminal acts on (C0 controls but tab and newline, DEL).
inline bool hasControl(std::string_view text, bool allowNewlines = false)
{
    for (unsigned char c : text) {
        if (allowNewlines && (c == '\n' || c == '\t'))
            continue;
        if (c < 0x20 || c == 0x7f)
            return true;
    }
    return false;
}

}  // namespace ps::fuzz
