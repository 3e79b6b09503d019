#pragma once

#include <string>

namespace CLI {
class App;
}
struct HostOptions;

/// Registers `library` on `app`, with the subcommands ls [--json] [--search TEXT] [--status S]
/// [--backend B], show ID [--json], export ID DIR, import PATH, trust ID, verify, rm ID and gc.
///
/// `libraryPath` is where the global --library option is parsed to (empty: the default path);
/// it is read when the subcommand runs, after parsing. `exitCode` receives 0 when all is well,
/// 1 when damage was found, a run does not exist or an import was refused, and 2 when the
/// library file cannot be used or the input is bad. Results go to stdout, errors to stderr,
/// every message naming the library file. `check` also reads the global --python-env (`pythonEnv`,
/// when it names no environment of its own) and --remote-studio / --remote-dir (`hosts`, for --on);
/// either may be null.
void addLibraryCommands(CLI::App& app, std::string* libraryPath, int* exitCode, const std::string* pythonEnv = nullptr,
    const HostOptions* hosts = nullptr);
