#include "protocol/ExitStatus.h"

#include "protocol/SignalNames.h"

namespace ps::protocol {

std::string ExitStatus::describe() const
{
    if (!connectionLost.empty())
        return "lost its connection (" + connectionLost + ")";
    if (signaled)
        return "was killed by signal " + signalDescription(signal);
    if (exited)
        return "exited with status " + std::to_string(code);
    return "ended";
}

}  // namespace ps::protocol
