#include "remote/SshDestination.h"

namespace ps::remote {

namespace {

/// The text as a refusal quotes it: a byte a terminal would act on as \xNN, at most 80 bytes.
std::string quoted(const std::string& text)
{
    static constexpr char kHex[] = "0123456789abcdef";
    std::string out = "'";
    for (std::size_t i = 0; i < text.size() && i < 80; ++i) {
        const auto c = static_cast<unsigned char>(text[i]);
        if (c < 0x20 || c == 0x7f) {
            out += "\\x";
            out += kHex[c >> 4];
            out += kHex[c & 15];
        } else {
            out += static_cast<char>(c);
        }
    }
    return out + (text.size() > 80 ? "...'" : "'");
}

}  // namespace

std::string SshDestination::problem(const std::string& text)
{
    if (text.empty())
        return "no host was given";
    if (text.front() == '-')
        return quoted(text) + " is not a host: it starts with '-'";
    if (text.size() > 1024)
        return "the host name is over 1024 characters";
    for (unsigned char c : text)
        if (c <= ' ' || c == 0x7f || c == '\'' || c == '"' || c == '\\' || c == '`' || c == '$' || c == ';')
            return quoted(text) + " is not a host: it holds a space, a quote or a shell character";
    // ssh reads the host out of user@host and ssh://user@host:port itself: that part too must
    // be a name, not an option.
    const std::string host = displayName(text);
    if (host.empty())
        return quoted(text) + " names no host";
    if (host.front() == '-')
        return quoted(text) + " is not a host: its host part starts with '-'";
    return {};
}

std::string SshDestination::displayName(const std::string& text)
{
    std::string host = text;
    if (host.rfind("ssh://", 0) == 0) {
        host.erase(0, 6);
        if (auto slash = host.find('/'); slash != std::string::npos)
            host.erase(slash);
        // ssh://[user@]host[:port], host maybe [v6]
        if (auto at = host.rfind('@'); at != std::string::npos)
            host.erase(0, at + 1);
        if (!host.empty() && host.front() == '[') {
            if (auto close = host.find(']'); close != std::string::npos)
                return host.substr(1, close - 1);
        }
        if (auto colon = host.rfind(':'); colon != std::string::npos)
            host.erase(colon);
        return host;
    }
    if (auto at = host.rfind('@'); at != std::string::npos)
        host.erase(0, at + 1);
    return host;
}

}  // namespace ps::remote
