#include "remote/SshDestination.h"

namespace ps::remote {

std::string SshDestination::problem(const std::string& text)
{
    if (text.empty())
        return "no host was given";
    if (text.front() == '-')
        return "'" + text + "' is not a host: it starts with '-'";
    if (text.size() > 1024)
        return "the host name is over 1024 characters";
    for (unsigned char c : text)
        if (c <= ' ' || c == 0x7f || c == '\'' || c == '"' || c == '\\' || c == '`' || c == '$' || c == ';')
            return "'" + text + "' is not a host: it holds a space, a quote or a shell character";
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
