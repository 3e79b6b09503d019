#include "remote/HostCheck.h"

#include "remote/RemoteWorker.h"
#include "remote/SshDestination.h"

#include <memory>
#include <utility>

namespace ps::remote {

HostCheck::HostCheck(RemoteTarget target)
    : m_target(std::move(target)), m_client([target = m_target]() -> std::unique_ptr<protocol::WorkerChannel> {
          return std::make_unique<RemoteWorker>(target);
      })
{ }

HostCheck::Result HostCheck::run(std::chrono::milliseconds timeout)
{
    Result result;
    if (auto problem = SshDestination::problem(m_target.host); !problem.empty()) {
        result.problem = std::move(problem);
        return result;
    }
    model::StartFailure cause = model::StartFailure::Died;
    result.ok = m_client.warmUp(protocol::RunClient::Clock::now() + timeout, {}, result.problem, &cause);
    if (result.ok)
        result.worker = m_client.workerInfo();
    m_client.shutdown();
    if (result.ok)
        return result;
    if (m_cancelled) {
        result.cancelled = true;
        result.problem = "the check of " + SshDestination::displayName(m_target.host) + " was cancelled";
    } else if (result.problem.empty()) {
        result.failure = model::StartFailure::Timeout;
        result.problem = "the studio on " + SshDestination::displayName(m_target.host)
            + " did not start its worker within " + std::to_string(static_cast<long long>(timeout.count() / 1000))
            + " s";
    } else {
        result.failure = cause;
    }
    return result;
}

void HostCheck::cancel()
{
    m_cancelled = true;
    m_client.cancel();
}

}  // namespace ps::remote
