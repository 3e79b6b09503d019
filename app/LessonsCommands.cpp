#include "LessonsCommands.h"

#include "RemoteCommands.h"
#include "commands/LessonsCommand.h"

#include <CLI/CLI.hpp>

#include <iostream>
#include <memory>

namespace {

struct Options {
    bool json = false;
    std::string name;
    double timeout = 600;
};

ps::commands::LessonsOptions resolve(const Options& o, const std::string* pythonEnv, const HostOptions* hosts)
{
    ps::commands::LessonsOptions out;
    out.json = o.json;
    out.timeoutSeconds = o.timeout;
    if (pythonEnv && !pythonEnv->empty())
        out.pythonEnv = *pythonEnv;
    if (hosts)
        out.remote = hosts->target(pythonEnv ? *pythonEnv : std::string());
    return out;
}

}  // namespace

void addLessonsCommands(CLI::App& app, int* exitCode, const std::string* pythonEnv, const HostOptions* hosts)
{
    auto options = std::make_shared<Options>();
    CLI::App* lessons
        = app.add_subcommand("lessons", "Lessons on precompile's contract: a broken and a fixed script each");
    lessons->require_subcommand(1);

    CLI::App* ls = lessons->add_subcommand("ls", "List the lessons");
    ls->add_flag("--json", options->json, "Print JSON");
    ls->callback([=] {
        *exitCode = ps::commands::LessonsCommand::ls(resolve(*options, pythonEnv, hosts), std::cout, std::cerr);
    });

    CLI::App* run
        = lessons->add_subcommand("run", "Run a lesson's broken.py and fixed.py and compare each with its expect.json");
    run->add_option("NAME", options->name, "The lesson (see `lessons ls`)")->required();
    run->add_flag("--json", options->json, "Print JSON");
    run->add_option("--timeout", options->timeout, "Seconds per script before its worker is killed")
        ->capture_default_str();
    run->callback([=] {
        *exitCode = ps::commands::LessonsCommand::run(
            options->name, resolve(*options, pythonEnv, hosts), std::cout, std::cerr);
    });
}
