#include "SetupCommands.h"

#include "commands/SetupCommand.h"

#include <CLI/CLI.hpp>

#include <iostream>
#include <memory>

void addSetupCommands(CLI::App& app, int* exitCode, const std::string* pythonEnv)
{
    auto options = std::make_shared<ps::commands::SetupOptions>();
    CLI::App* setup = app.add_subcommand("setup",
        "Make the studio's Python environment with torch (once per user, before an installed studio's first run)");
    setup->footer(
        "The environment goes to ${XDG_CACHE_HOME:-$HOME/.cache}/precompile-studio/env-KEY (KEY: the "
        "hash of that torch's requirements file), or to the folder --python-env names. Exit codes: 0 made or already "
        "complete, 1 it could not be made (nothing marked complete: run setup again), 2 bad input.");
    setup->add_option("--torch", options->torch,
        "the torch release to make the environment for: 2.15.0 (the default) or 2.14.1; the studio keeps one "
        "environment per torch and picks the worker of the environment a run uses");
    setup->add_option("--requirements", options->requirements,
        "the requirements file to install (default: the studio's own requirements.txt)");
    setup->add_option("--python", options->python,
        "the interpreter the environment is made from (default: /usr/bin/python3.X for an installed studio, else "
        "python3.X on PATH; X: the worker's Python)");
    setup->callback([=] {
        ps::commands::SetupOptions run = *options;
        run.envDir = *pythonEnv;
        *exitCode = ps::commands::SetupCommand::execute(run, std::cout, std::cerr);
    });
}
