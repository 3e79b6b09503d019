// libFuzzer target: an ssh destination as a user (or a shared settings file) gives it: --host,
// Run > Run On, `remote check`. SshDestination::problem is the gate before ssh's command line;
// what it accepts must never be read by ssh as an option or by a shell as code, and what it
// says (its message, the display name) must be safe to print.
#include "FuzzCheck.h"
#include "remote/RemoteTarget.h"
#include "remote/SshCommand.h"
#include "remote/SshDestination.h"

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using ps::remote::SshDestination;
    const std::string text(reinterpret_cast<const char*>(data), size);
    const std::string problem = SshDestination::problem(text);
    if (ps::fuzz::hasControl(problem))
        ps::fuzz::broken("the refusal is safe to print", problem);
    if (!problem.empty())
        return 0;
    if (text.empty() || text.front() == '-')
        ps::fuzz::broken("no option is accepted as a destination", text);
    for (unsigned char c : text)
        if (c <= ' ' || c == 0x7f || std::string_view("'\"\\`$;").find(static_cast<char>(c)) != std::string_view::npos)
            ps::fuzz::broken("no space, quote or shell character is accepted", text);
    const std::string name = SshDestination::displayName(text);
    if (name.empty() || name.front() == '-' || ps::fuzz::hasControl(name))
        ps::fuzz::broken("an accepted destination names a host", text + " -> " + name);
    // The destination is ssh's last argument before the remote command, never split or quoted.
    const auto argv = ps::remote::SshCommand::argv(ps::remote::RemoteTarget{text, "", "", ""}, {"--protocol", "1"});
    std::size_t seen = 0;
    for (const auto& arg : argv)
        seen += arg == text ? 1 : 0;
    if (seen == 0)
        ps::fuzz::broken("ssh is given the destination as one argument", text);
    return 0;
}
