#include "commands/RemoteCommand.h"

#include "library/core/TerminalText.h"
#include "model/WorkerInfo.h"
#include "remote/HostCheck.h"

#include <ostream>

namespace ps::commands {

namespace {

std::string gib(std::int64_t bytes)
{
    const double g = static_cast<double>(bytes) / (1024.0 * 1024.0 * 1024.0);
    char text[32];
    std::snprintf(text, sizeof text, "%.0f GiB", g);
    return text;
}

}  // namespace

int RemoteCommand::check(
    const remote::RemoteTarget& target, bool json, double timeoutSeconds, std::ostream& out, std::ostream& err)
{
    using library::TerminalText;
    remote::HostCheck check(target);
    const auto result = check.run(std::chrono::milliseconds(static_cast<long long>(timeoutSeconds * 1000)));
    if (!result.ok) {
        err << "precompile-studio: " << TerminalText::safe(result.problem) << "\n";
        return 2;
    }
    const nlohmann::json& info = result.worker;
    if (json) {
        out << info.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
        return 0;
    }
    const auto w = model::WorkerInfo::fromJson(info).value_or(model::WorkerInfo{});
    out << TerminalText::safe(w.place()) << ": Precompile Studio " << TerminalText::safe(w.studio) << " (protocol "
        << w.protocol << ") on " << TerminalText::safe(w.hostname) << "\n";
    out << "  python " << TerminalText::safe(w.python) << ", torch " << TerminalText::safe(w.torch)
        << (w.cuda.empty() ? std::string(", a CPU build of torch") : ", CUDA " + TerminalText::safe(w.cuda)) << "\n";
    if (w.devices.empty())
        out << "  devices: none (CPU only)\n";
    for (const auto& d : w.devices)
        out << "  cuda:" << d.index << " " << TerminalText::safe(d.name)
            << (d.memoryBytes ? ", " + gib(*d.memoryBytes) : std::string())
            << (d.capability.empty() ? std::string() : ", compute capability " + TerminalText::safe(d.capability))
            << "\n";
    return 0;
}

}  // namespace ps::commands
