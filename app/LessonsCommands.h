#pragma once

#include <string>

struct HostOptions;

namespace CLI {
class App;
}

/// Registers `lessons` on `app`: `lessons ls [--json]` lists resources/lessons/, and
/// `lessons run NAME [--json] [--timeout S]` runs the lesson's broken.py and fixed.py through
/// the worker (never storing them in the library) and compares both reports with its
/// expect.json (see engine/commands/LessonsCommand.h).
///
/// `exitCode` receives the subcommand's exit code: 0 both match (ls: listed), 1 either
/// differs, 2 no such lesson or a bad expect.json. `pythonEnv` is where the global
/// --python-env option is parsed to (empty: the default environment); it is read when the
/// subcommand runs, after parsing. The lessons folder is $PS_RESOURCES_DIR/lessons, else the
/// source tree's resources/lessons.
/// `hosts`: the global --host options (lessons run there when one is given).
void addLessonsCommands(CLI::App& app, int* exitCode, const std::string* pythonEnv, const HostOptions* hosts);
