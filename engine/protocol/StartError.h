#pragma once

#include "model/StartFailure.h"
#include "protocol/ProtocolError.h"

namespace ps::protocol {

/// No worker can be started, with the typed cause (a missing environment or executable, a
/// refused fork, ...). The message names what is missing and the command that makes it.
class StartError : public ProtocolError {
public:
    StartError(model::StartFailure cause, const std::string& what);
    model::StartFailure cause() const { return m_cause; }

private:
    model::StartFailure m_cause;
};

}  // namespace ps::protocol
