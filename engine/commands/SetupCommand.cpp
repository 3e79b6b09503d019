#include "commands/SetupCommand.h"

#include "install/InstallLayout.h"
#include "install/TorchSeries.h"
#include "protocol/UserEnvironment.h"
#include "remote/SshCommand.h"

#include <sys/wait.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <filesystem>
#include <fstream>
#include <ostream>
#include <sstream>
#include <unistd.h>

namespace ps::commands {

namespace fs = std::filesystem;

namespace {

// A POSIX shell's single quotes, the same quoting as an ssh command line's.
using remote::SshCommand;

std::string readFile(const fs::path& path)
{
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

struct Outcome {
    int code = -1;                 ///< the exit status, -1 killed by a signal or not started
    std::deque<std::string> tail;  ///< the last lines it printed
};

/// Runs a shell command line with stderr joined to stdout; every line goes to `out` behind
/// `prefix` as it comes (pip's progress), the last few are kept for the error message.
Outcome runLines(const std::string& command, const std::string& prefix, std::ostream& out)
{
    Outcome outcome;
    FILE* pipe = ::popen((command + " 2>&1").c_str(), "r");
    if (!pipe)
        return outcome;
    std::string line;
    char buffer[4096];
    while (std::fgets(buffer, sizeof buffer, pipe)) {
        line += buffer;
        if (line.empty() || line.back() != '\n')
            continue;
        line.pop_back();
        if (!prefix.empty())
            out << prefix << line << '\n' << std::flush;
        outcome.tail.push_back(line);
        if (outcome.tail.size() > 5)
            outcome.tail.pop_front();
        line.clear();
    }
    const int status = ::pclose(pipe);
    if (status != -1 && WIFEXITED(status))
        outcome.code = WEXITSTATUS(status);
    return outcome;
}

/// The first file named `name` in PATH's folders, else "".
std::string onPath(const std::string& name)
{
    if (name.find('/') != std::string::npos)
        return fs::exists(name) ? name : std::string();
    const char* path = std::getenv("PATH");
    std::istringstream dirs(path ? path : "/usr/bin:/bin");
    std::string dir;
    while (std::getline(dirs, dir, ':')) {
        if (dir.empty())
            continue;
        const fs::path candidate = fs::path(dir) / name;
        if (::access(candidate.c_str(), X_OK) == 0)
            return candidate.string();
    }
    return {};
}

std::string lastLine(const Outcome& o)
{
    return o.tail.empty() ? std::string("no output") : o.tail.back();
}

}  // namespace

std::string SetupCommand::markerText(const std::string& requirementsText)
{
    return "# precompile-studio setup: this environment holds these requirements\n" + requirementsText;
}

int SetupCommand::execute(const SetupOptions& options, std::ostream& out, std::ostream& err)
{
    const auto started = std::chrono::steady_clock::now();
    std::string series = install::TorchSeries::defaultSeries();
    if (!options.torch.empty()) {
        const auto chosen = install::TorchSeries::of(options.torch);
        if (!chosen) {
            err << "precompile-studio setup: torch " << options.torch << " is not supported: the studio runs "
                << install::TorchSeries::supportedWords() << "\n";
            return 2;
        }
        series = *chosen;
    }
    const char* forced = std::getenv("PS_PYTHON_ENV");
    const std::string named = !options.envDir.empty()  ? options.envDir
        : (forced && *forced && options.torch.empty()) ? std::string(forced)
                                                       : install::InstallLayout::pythonEnv(series);
    const fs::path env = fs::absolute(named).lexically_normal();
    const std::string requirements
        = options.requirements.empty() ? install::InstallLayout::requirementsFile(series) : options.requirements;
    std::error_code ec;
    if (!fs::is_regular_file(requirements, ec)) {
        err << "precompile-studio setup: no requirements file at " << requirements << "\n";
        return 2;
    }
    const std::string wanted = markerText(readFile(requirements));
    const fs::path marker = env / ".complete";
    if (fs::exists(env / "bin" / "python", ec) && fs::is_regular_file(marker, ec)) {
        const std::string have = readFile(marker);
        if (have.empty() || have == wanted) {
            out << "[setup] the environment is already complete: " << env.string() << "\n";
            return 0;
        }
        out << "[setup] " << env.string() << " was made from other requirements: installing " << requirements
            << " into it\n";
    }
    if (fs::exists(env, ec) && !fs::is_empty(env, ec) && !fs::exists(env / "pyvenv.cfg", ec)) {
        err << "precompile-studio setup: " << env.string()
            << " exists and is not a Python environment (no pyvenv.cfg); name an empty or new folder\n";
        return 2;
    }

    const std::string version = protocol::UserEnvironment::workerPythonVersion();
    // An installed studio depends on Debian's python3.X: that one, else the first on PATH.
    std::string pythonName = options.python;
    if (pythonName.empty())
        pythonName = !install::InstallLayout::installedPrefix().empty() && fs::exists("/usr/bin/python" + version, ec)
            ? "/usr/bin/python" + version
            : "python" + version;
    const std::string python = onPath(pythonName);
    if (python.empty()) {
        err << "precompile-studio setup: no " << pythonName << " on PATH (Debian: apt-get install python" << version
            << "-venv)\n";
        return 2;
    }
    const Outcome probe = runLines(
        SshCommand::quote(python) + " -c 'import sys, venv; print(\"%d.%d\" % sys.version_info[:2])'", "", out);
    if (probe.code != 0 || probe.tail.empty() || probe.tail.back() != version) {
        err << "precompile-studio setup: " << python << " is not a Python " << version
            << " with venv (the worker embeds Python " << version << "): " << lastLine(probe) << "\n";
        return 2;
    }

    out << "[setup] 1/3 making the environment " << env.string() << " with " << python << "\n" << std::flush;
    fs::create_directories(env.parent_path(), ec);
    fs::remove(marker, ec);
    const Outcome venv
        = runLines(SshCommand::quote(python) + " -m venv " + SshCommand::quote(env.string()), "[setup] venv: ", out);
    if (venv.code != 0) {
        err << "precompile-studio setup: " << python << " -m venv " << env.string() << " failed (exit " << venv.code
            << "): " << lastLine(venv) << "\n";
        return 1;
    }
    out << "[setup] 2/3 installing " << requirements << " (torch is large: this takes a few minutes)\n" << std::flush;
    // PIP_CONSTRAINT=/dev/null: a machine's own constraint file (one capping torch, say) must not
    // decide the release the studio pins; the machine's pip configuration is left as it is.
    const Outcome pip = runLines("PIP_CONSTRAINT=/dev/null " + SshCommand::quote((env / "bin" / "python").string())
            + " -m pip install --disable-pip-version-check --progress-bar off -r " + SshCommand::quote(requirements),
        "[setup] pip: ", out);
    if (pip.code != 0) {
        err << "precompile-studio setup: pip could not install " << requirements << " into " << env.string()
            << " (exit " << pip.code << "): " << lastLine(pip)
            << "; nothing is marked complete, run setup again once the cause is fixed\n";
        return 1;
    }
    // The studio needs torch from it; a requirements file without torch (a test's) is checked
    // only for a working interpreter.
    const bool wantsTorch = wanted.find("torch") != std::string::npos;
    out << "[setup] 3/3 checking the environment" << (wantsTorch ? " imports torch" : "") << "\n" << std::flush;
    const Outcome check = runLines(SshCommand::quote((env / "bin" / "python").string()) + " -c "
            + (wantsTorch ? "'import torch; print(\"torch\", torch.__version__)'"
                          : "'import sys; print(\"python\", sys.version.split()[0])'"),
        "[setup] ", out);
    if (check.code != 0) {
        err << "precompile-studio setup: the environment " << env.string() << " does not "
            << (wantsTorch ? "import torch" : "run") << ": " << lastLine(check) << "\n";
        return 1;
    }
    std::ofstream(marker, std::ios::binary) << wanted;
    const auto seconds
        = std::chrono::duration_cast<std::chrono::seconds>(std::chrono::steady_clock::now() - started).count();
    out << "[setup] done in " << seconds << " s: " << env.string() << "\n";
    if (env != fs::path(install::InstallLayout::pythonEnv(series)).lexically_normal())
        out << "[setup] the studio uses it with PS_PYTHON_ENV=" << env.string() << " or --python-env " << env.string()
            << "\n";
    return 0;
}

}  // namespace ps::commands
