#include "RemoteCommands.h"

#include "commands/RemoteCommand.h"
#include "remote/RemoteRelay.h"

#include <CLI/CLI.hpp>

#include <iostream>
#include <memory>

std::optional<ps::remote::RemoteTarget> HostOptions::target(const std::string& pythonEnv) const
{
    if (host.empty())
        return std::nullopt;
    return ps::remote::RemoteTarget{host, remoteStudio, remoteDir, pythonEnv};
}

void addHostOptions(CLI::App& app, HostOptions* options)
{
    app.add_option("--host", options->host,
        "run on another host over ssh: any destination ssh accepts (user@server, ssh://user@server:2222, an "
        "alias from ~/.ssh/config); --python-env then names a path there. The window: Run > Run On for this "
        "launch");
    app.add_option("--remote-studio", options->remoteStudio,
        "the studio's folder on that host (a checkout built with make, or an install); default: its PATH");
    app.add_option("--remote-dir", options->remoteDir,
        "your project on that host, where the script's imports resolve; default: a private temporary folder");
}

void addRemoteCommands(CLI::App& app, int* exitCode, const HostOptions* hosts, const std::string* pythonEnv)
{
    CLI::App* remote = app.add_subcommand("remote", "Hosts that runs go to over ssh");
    remote->require_subcommand(1);

    struct CheckOptions {
        std::string host;
        bool json = false;
        double timeout = 120;
    };
    auto check = std::make_shared<CheckOptions>();
    CLI::App* checkCmd = remote->add_subcommand(
        "check", "Reach HOST as a run would and print where runs there happen (studio, Python, torch, GPUs)");
    checkCmd->add_option("HOST", check->host, "an ssh destination")->required();
    checkCmd->add_flag("--json", check->json, "Print the report's worker object");
    checkCmd->add_option("--timeout", check->timeout, "seconds to wait for the host's worker")->capture_default_str();
    checkCmd->callback([=] {
        const ps::remote::RemoteTarget target{check->host, hosts->remoteStudio, hosts->remoteDir, *pythonEnv};
        *exitCode = ps::commands::RemoteCommand::check(target, check->json, check->timeout, std::cout, std::cerr);
    });

    struct ServeOptions {
        int protocol = 0;
    };
    auto serve = std::make_shared<ServeOptions>();
    CLI::App* serveCmd = remote->add_subcommand(
        "serve", "What ssh runs on a host for a run sent there (speaks frames on stdin/stdout)");
    serveCmd->group("");  // not for people
    serveCmd->add_option("--protocol", serve->protocol, "the protocol version the front end speaks")->required();
    serveCmd->callback([=] {
        ps::remote::RemoteRelay relay({serve->protocol, *pythonEnv, hosts->remoteDir});
        *exitCode = relay.serve(0, 1);
    });
}
