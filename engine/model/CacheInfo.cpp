#include "model/CacheInfo.h"

#include "model/JsonFields.h"

#include <cstdio>

namespace ps::model {

namespace {

using F = JsonFields;

std::optional<std::string> textOf(const nlohmann::json& j, const char* key)
{
    const auto& v = F::member(j, key);
    if (v.is_string())
        return v.get<std::string>();
    return std::nullopt;
}

std::string orDash(const std::optional<std::string>& s)
{
    return s ? *s : std::string("—");
}

std::string orDash(const std::optional<std::int64_t>& n)
{
    return n ? std::to_string(*n) : std::string("—");
}

}  // namespace

std::optional<CacheInfo> CacheInfo::fromJson(const nlohmann::json& j)
{
    if (!j.is_object())
        return std::nullopt;
    CacheInfo c;
    c.format = textOf(j, "format");
    c.formatOk = F::flag(j, "format_ok").value_or(true);
    c.version = F::integer(j, "version");
    c.backend = textOf(j, "backend");
    c.codeHash = textOf(j, "code_hash");
    c.codeHashOk = F::flag(j, "code_hash_ok");
    c.bytes = F::integer(j, "bytes");
    c.artifactBytes = F::integer(j, "artifact_bytes");
    c.artifactSha256 = textOf(j, "artifact_sha256");
    c.error = textOf(j, "error");
    if (const auto& keys = F::member(j, "keys"); keys.is_array())
        for (const auto& k : keys)
            if (k.is_string())
                c.keys.push_back(k.get<std::string>());
    if (const auto& entries = F::member(j, "entries"); entries.is_array())
        for (const auto& e : entries)
            if (e.is_object())
                c.entries.push_back(
                    {F::show(F::member(e, "kind")), F::show(F::member(e, "key")), F::integer(e, "bytes").value_or(0)});
    return c;
}

std::string CacheInfo::absentText(CaptureStatus status)
{
    if (status == CaptureStatus::Ok)
        return "The report holds no cache inspection (made by an older worker?).";
    return "No cache: the capture ended in a " + std::string(toString(status)) + ".";
}

std::int64_t CacheInfo::entryBytes() const
{
    std::int64_t total = 0;
    for (const auto& e : entries)
        total += e.bytes;
    return total;
}

std::string CacheInfo::sizeText(std::int64_t n)
{
    char unit[32];
    if (n < 1024)
        std::snprintf(unit, sizeof unit, "%lld B", static_cast<long long>(n));
    else if (n < 1024 * 1024)
        std::snprintf(unit, sizeof unit, "%.1f KiB", static_cast<double>(n) / 1024);
    else
        std::snprintf(unit, sizeof unit, "%.1f MiB", static_cast<double>(n) / (1024.0 * 1024));
    return n < 1024 ? std::string(unit) : std::string(unit) + " (" + std::to_string(n) + " bytes)";
}

std::optional<CacheInfo::Fact> CacheInfo::codeHashCheck() const
{
    if (!codeHashOk)
        return std::nullopt;
    return *codeHashOk ? Fact{"code_hash check", "matches sha256(python_code)", Tone::Good}
                       : Fact{"code_hash check", "DIFFERS from sha256(python_code)", Tone::Bad};
}

std::vector<CacheInfo::Fact> CacheInfo::facts() const
{
    std::vector<Fact> out;
    std::string formatText = orDash(format);
    if (version)
        formatText += " v" + std::to_string(*version);
    if (!formatOk)
        formatText += " (not the format this torch writes)";
    out.push_back({"format", formatText, formatOk ? std::optional<Tone>() : Tone::Warn});
    out.push_back({"backend", orDash(backend)});
    out.push_back({"code_hash", orDash(codeHash)});
    if (auto check = codeHashCheck())
        out.push_back(*check);
    if (bytes)
        out.push_back({"cache size", sizeText(*bytes)});
    out.push_back(artifactBytes ? Fact{"bundle size", sizeText(*artifactBytes)}
                                : Fact{"bundle", "none (the eager backend stores no kernels)"});
    if (!keys.empty()) {
        std::string k;
        for (const auto& key : keys)
            k += (k.empty() ? "" : ", ") + key;
        out.push_back({"envelope keys", k});
    }
    out.push_back({"entries",
        (entries.size() == 1 ? std::string("1 entry") : std::to_string(entries.size()) + " entries")
            + (entries.empty() ? std::string() : ", " + sizeText(entryBytes()))});
    if (error)
        out.push_back({"error", "the worker could not read all of the cache: " + *error, Tone::Warn});
    return out;
}

std::vector<std::pair<std::string, std::string>> CacheInfo::fields() const
{
    const auto flag = [](const std::optional<bool>& b) { return b ? (*b ? "true" : "false") : "—"; };
    return {{"format", orDash(format)}, {"version", orDash(version)}, {"backend", orDash(backend)},
        {"code_hash", orDash(codeHash)}, {"code_hash_ok", flag(codeHashOk)}, {"format_ok", formatOk ? "true" : "false"},
        {"bytes", orDash(bytes)}, {"artifact_bytes", orDash(artifactBytes)},
        {"artifact_sha256", orDash(artifactSha256)}, {"error", orDash(error)}};
}

std::string CacheInfo::entryKey(const Entry& entry)
{
    return entry.kind + " " + entry.key;
}

}  // namespace ps::model
