#include "remote/SshCommand.h"

#include <cstdlib>
#include <filesystem>
#include <unistd.h>

namespace ps::remote {

namespace {

std::vector<std::string> splitWords(const std::string& text)
{
    std::vector<std::string> words;
    std::string word;
    bool inWord = false;
    char quote = 0;
    for (char c : text) {
        if (quote) {
            if (c == quote)
                quote = 0;
            else
                word += c;
        } else if (c == '\'' || c == '"') {
            quote = c;
            inWord = true;
        } else if (c == ' ' || c == '\t' || c == '\n') {
            if (inWord)
                words.push_back(std::move(word));
            word.clear();
            inWord = false;
        } else {
            word += c;
            inWord = true;
        }
    }
    if (inWord)
        words.push_back(std::move(word));
    return words;
}

// execve does not search PATH: the program is found here, as a shell would find it.
std::string onPath(const std::string& program)
{
    if (program.find('/') != std::string::npos)
        return program;
    const char* path = std::getenv("PATH");
    std::string dirs = path && *path ? path : "/usr/local/bin:/usr/bin:/bin";
    std::size_t start = 0;
    while (start <= dirs.size()) {
        const std::size_t end = std::min(dirs.find(':', start), dirs.size());
        const std::string dir = dirs.substr(start, end - start);
        const std::string candidate = (dir.empty() ? std::string(".") : dir) + "/" + program;
        if (::access(candidate.c_str(), X_OK) == 0 && !std::filesystem::is_directory(candidate))
            return candidate;
        start = end + 1;
    }
    return program;  // execve fails and the spawn says which program
}

}  // namespace

std::string SshCommand::quote(const std::string& text)
{
    std::string out = "'";
    for (char c : text) {
        if (c == '\'')
            out += "'\\''";
        else
            out += c;
    }
    return out + "'";
}

std::vector<std::string> SshCommand::base()
{
    if (const char* command = std::getenv("PS_SSH_COMMAND"); command && *command) {
        auto words = splitWords(command);
        if (!words.empty()) {
            words.front() = onPath(words.front());
            return words;
        }
    }
    return {onPath("ssh")};
}

std::string SshCommand::remoteLine(const std::string& remoteStudio, const std::vector<std::string>& serveArgs)
{
    // Run by the login shell of the user there; the script itself is POSIX sh whatever that is.
    const std::string script = std::string("d=$1; shift; ")
        + "if [ -n \"$d\" ]; then "
          "for b in \"$d/build/bin\" \"$d/bin\" \"$d\"; do "
          "if [ -x \"$b/precompile-studio\" ]; then exec \"$b/precompile-studio\" remote serve \"$@\"; fi; done; "
          "echo \""
        + kNoStudio
        + " no precompile-studio in $d (looked in $d/build/bin, $d/bin and $d)\" >&2; exit 127; fi; "
          "if command -v precompile-studio >/dev/null 2>&1; then exec precompile-studio remote serve \"$@\"; fi; "
          "echo \""
        + kNoStudio + " precompile-studio is not on the PATH there ($PATH)\" >&2; exit 127";
    std::string line = "exec /bin/sh -c " + quote(script) + " precompile-studio-remote " + quote(remoteStudio);
    for (const auto& arg : serveArgs)
        line += " " + quote(arg);
    return line;
}

std::vector<std::string> SshCommand::argv(const RemoteTarget& target, const std::vector<std::string>& serveArgs)
{
    auto args = base();
    for (const char* option :
        {"BatchMode=yes", "ConnectTimeout=15", "ServerAliveInterval=3", "ServerAliveCountMax=3", "LogLevel=ERROR"}) {
        args.push_back("-o");
        args.push_back(option);
    }
    args.push_back("-T");
    args.push_back(target.host);
    args.push_back(remoteLine(target.remoteStudio, serveArgs));
    return args;
}

}  // namespace ps::remote
