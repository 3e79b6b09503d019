#pragma once

#include <string>

namespace ps::remote {

/// Where a run goes when it goes to another host (`run --host`, Run > Run On): an ssh
/// destination and the paths that name things there.
struct RemoteTarget {
    std::string host;          ///< any destination ssh accepts: user@server, ssh://user@server:2222, an alias
    std::string remoteStudio;  ///< the studio's folder there (a checkout or an install); "": its PATH
    std::string remoteDir;     ///< the user's project there, where imports resolve; "": a private folder
    std::string pythonEnv;     ///< the user's Python environment there; "": none
};

}  // namespace ps::remote
