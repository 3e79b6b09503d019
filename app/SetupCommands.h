#pragma once

#include <string>

namespace CLI {
class App;
}

/// `setup`: makes the studio's Python environment (commands/SetupCommand); the global
/// --python-env names where, else the per-user one an installed studio looks in.
void addSetupCommands(CLI::App& app, int* exitCode, const std::string* pythonEnv);
