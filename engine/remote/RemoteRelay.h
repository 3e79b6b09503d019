#pragma once

#include <string>

namespace ps::remote {

/// The host's side of a remote run: `precompile-studio remote serve`, started by ssh with the
/// connection on its stdin and stdout. It says hello (protocol version, studio version, host
/// name), starts the studio's own worker on this host (WorkerProcess: the channel on fd 3, as
/// for a local run) and relays: requests in, with the script's text written into a private
/// folder and the run's paths pointed there; the worker's messages out, its output as
/// `output` frames, the artifact files as `file`/`chunk` frames before the result, its end as
/// `exited`.
///
/// When its input closes (the front end cancelled, or the connection was lost) it kills the
/// worker and what it started and removes the folder: nothing is left running on the host.
class RemoteRelay {
public:
    struct Options {
        int clientProtocol = 0;  ///< the protocol the front end speaks (--protocol)
        std::string pythonEnv;   ///< the user's environment on this host
        std::string remoteDir;   ///< the user's project on this host: the worker's folder and PYTHONPATH
    };

    explicit RemoteRelay(Options options) : m_options(std::move(options)) { }
    /// Serves one run on `in` / `out`; returns the process's exit code.
    int serve(int in, int out);

private:
    Options m_options;
};

}  // namespace ps::remote
