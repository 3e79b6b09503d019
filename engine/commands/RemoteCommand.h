#pragma once

#include "remote/RemoteTarget.h"

#include <iosfwd>

namespace ps::commands {

/// `precompile-studio remote check HOST`: reaches the host as a run would (ssh, the studio
/// there, its worker with torch imported) and prints the `worker` object a run there would
/// record: exit 0; or the one line that says what is missing: exit 2.
class RemoteCommand {
public:
    static int check(
        const remote::RemoteTarget& target, bool json, double timeoutSeconds, std::ostream& out, std::ostream& err);
};

}  // namespace ps::commands
