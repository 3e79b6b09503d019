#pragma once

#include "model/Tone.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace ps::model {

/// What the worker read from a capture's cache: the envelope precompile wrote (format, version,
/// backend, the hash of the python_code it belongs to) and its artifact bundle's entries
/// (cache_inspect.py, the report's capture.cache). The window's Cache tab, the page's "Cache
/// contents" and `compare` all show it through facts() and fields(), so its words are decided once.
struct CacheInfo {
    struct Entry {
        std::string kind;
        std::string key;
        std::int64_t bytes = 0;
    };
    /// One line of the cache section: what every front shows, in this order.
    struct Fact {
        std::string label;
        std::string text;
        /// Good for a check that passed, Bad for one that failed, Warn for a doubt; nullopt: plain.
        std::optional<Tone> tone;
    };

    std::optional<std::string> format;
    /// false: the envelope is not the format this torch writes (the worker's check).
    bool formatOk = true;
    std::optional<std::int64_t> version;
    std::optional<std::string> backend;
    std::optional<std::string> codeHash;
    /// The worker's check of code_hash against sha256(python_code); nullopt: not checked.
    std::optional<bool> codeHashOk;
    std::optional<std::int64_t> bytes;
    std::optional<std::int64_t> artifactBytes;
    std::optional<std::string> artifactSha256;
    std::vector<std::string> keys;
    std::vector<Entry> entries;
    /// Why the worker could not read all of it.
    std::optional<std::string> error;

    /// nullopt when `j` is not an object (no inspection in the report). Never throws.
    static std::optional<CacheInfo> fromJson(const nlohmann::json& j);
    /// Why a capture has no cache section: an older worker, or a capture that ended early.
    static std::string absentText(CaptureStatus status);

    /// The sum of the entries' sizes.
    std::int64_t entryBytes() const;
    /// "sha256(python_code) matches" and its kind, from the worker's check; nullopt: not checked.
    std::optional<Fact> codeHashCheck() const;
    /// The envelope's facts as every front shows them: format, backend, code hash and its check,
    /// sizes, envelope keys, entries (count and total), the worker's error.
    std::vector<Fact> facts() const;
    /// The fields a comparison of two caches looks at, as (report key, value in words); the
    /// entries are compared by kind and key (entryKey) on their own.
    std::vector<std::pair<std::string, std::string>> fields() const;
    /// "KIND KEY": how an entry is named in a comparison.
    static std::string entryKey(const Entry& entry);
    /// "12.3 KiB (12,634 bytes)"-style size in words.
    static std::string sizeText(std::int64_t bytes);
};

}  // namespace ps::model
