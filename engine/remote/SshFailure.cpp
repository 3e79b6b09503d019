#include "remote/SshFailure.h"

#include "remote/SshCommand.h"

#include <array>
#include <string_view>

namespace ps::remote {

namespace {

bool containsAny(const std::string& text, std::initializer_list<std::string_view> needles)
{
    for (auto n : needles)
        if (text.find(n) != std::string::npos)
            return true;
    return false;
}

}  // namespace

std::string SshFailure::lastLine(const std::string& text)
{
    std::size_t end = text.size();
    while (end > 0) {
        while (end > 0 && (text[end - 1] == '\n' || text[end - 1] == '\r' || text[end - 1] == ' '))
            --end;
        const std::size_t nl = text.rfind('\n', end == 0 ? 0 : end - 1);
        const std::size_t begin = nl == std::string::npos ? 0 : nl + 1;
        std::string line = text.substr(begin, end - begin);
        if (!line.empty()) {
            for (char& c : line)
                if (static_cast<unsigned char>(c) < 0x20)
                    c = ' ';
            return line.size() > 300 ? line.substr(0, 297) + "..." : line;
        }
        end = begin;
    }
    return {};
}

SshFailure SshFailure::classify(const std::string& host, int exitCode, const std::string& words)
{
    SshFailure f;
    const std::string last = lastLine(words);
    const std::string said = last.empty()
        ? std::string("ssh said nothing (exit status ") + std::to_string(exitCode) + ")"
        : "ssh: " + last;
    if (auto at = words.rfind(SshCommand::kNoStudio); at != std::string::npos) {
        std::string why = lastLine(words.substr(at + std::string_view(SshCommand::kNoStudio).size()));
        why.erase(0, why.find_first_not_of(' '));
        f.cause = model::StartFailure::NoStudio;
        f.message = host + " has no Precompile Studio: " + why
            + "; build one there (a checkout and `make`) and name its folder with --remote-studio, or put "
              "precompile-studio on that host's PATH";
        return f;
    }
    if (containsAny(words,
            {"Permission denied", "Too many authentication failures", "Host key verification failed",
                "no matching host key type", "REMOTE HOST IDENTIFICATION HAS CHANGED", "Authentication failed"})) {
        f.cause = model::StartFailure::Authentication;
        f.message = host + " refused the login (" + said + "); the studio logs in as `ssh " + host
            + "` does, without a password: check that command works with your key or agent";
        return f;
    }
    if (exitCode == 255
        && containsAny(words,
            {"Could not resolve hostname", "Connection refused", "Connection timed out", "No route to host",
                "Network is unreachable", "connect to host", "Name or service not known",
                "Temporary failure in name resolution"})) {
        f.cause = model::StartFailure::Unreachable;
        f.message = host + " cannot be reached (" + said + ")";
        return f;
    }
    if (exitCode != 255 && containsAny(words, {"remote", "subcommand", "argument"})
        && words.find("serve") != std::string::npos) {
        f.cause = model::StartFailure::Version;
        f.message = "the Precompile Studio on " + host + " cannot serve runs from this one (" + said
            + "); update it there (git pull && make)";
        return f;
    }
    f.cause = exitCode == 255 ? model::StartFailure::Unreachable : model::StartFailure::Died;
    f.message = "the connection to " + host + " ended before its studio answered (" + said + ")";
    return f;
}

}  // namespace ps::remote
