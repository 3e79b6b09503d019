// precompile-studio-worker: the host process. Started by the front end with the channel on
// fd 3 (protocol/Protocol.h); never meant to be run by hand.
#include "host/WorkerServer.h"
#include "protocol/Protocol.h"

#include <cstdio>
#include <cstring>
#include <exception>
#include <string>
#include <unistd.h>

int main(int argc, char** argv)
{
    ps::host::InterpreterConfig config;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (std::strcmp(argv[i], "--python-env") == 0)
            config.pythonEnv = argv[i + 1];
        else if (std::strcmp(argv[i], "--python-path") == 0)
            config.extraPaths.push_back(argv[i + 1]);
        else if (std::strcmp(argv[i], "--user-env") == 0)
            config.userEnv = argv[i + 1];
        else if (std::strcmp(argv[i], "--user-site") == 0)
            config.userSiteDirs.push_back(argv[i + 1]);
    }
    if (config.pythonEnv.empty()) {
        std::fprintf(stderr,
            "usage: precompile-studio-worker --python-env DIR [--python-path DIR] [--user-env DIR [--user-site "
            "DIR]...]\n"
            "(started by precompile-studio; not meant to be run by hand)\n");
        return 2;
    }
    int code = 3;
    try {
        ps::host::WorkerServer server(ps::protocol::kWorkerChannelFd, config);
        code = server.run();
    } catch (const std::exception& e) {
        // A bug of ours: said on stderr (the front end shows it), never an abort.
        std::fprintf(stderr, "precompile-studio-worker: %s\n", e.what());
    }
    std::fflush(nullptr);
    ::_exit(code);  // see Interpreter.h: no finalisation after running a user script
}
