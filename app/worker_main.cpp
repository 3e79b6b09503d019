// precompile-studio-worker: the host process. Started by the front end with the channel on
// fd 3 (protocol/Protocol.h); never meant to be run by hand.
#include "host/WorkerServer.h"
#include "protocol/Protocol.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <fcntl.h>
#include <string>
#include <sys/file.h>
#include <unistd.h>

int main(int argc, char** argv)
{
    ps::host::InterpreterConfig config;
    std::string poolSocket;
    double poolIdleSeconds = 60;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (std::strcmp(argv[i], "--python-env") == 0)
            config.pythonEnv = argv[i + 1];
        else if (std::strcmp(argv[i], "--python-path") == 0)
            config.extraPaths.push_back(argv[i + 1]);
        else if (std::strcmp(argv[i], "--user-env") == 0)
            config.userEnv = argv[i + 1];
        else if (std::strcmp(argv[i], "--user-site") == 0)
            config.userSiteDirs.push_back(argv[i + 1]);
        else if (std::strcmp(argv[i], "--pool") == 0)
            poolSocket = argv[i + 1];
        else if (std::strcmp(argv[i], "--pool-idle") == 0)
            poolIdleSeconds = std::atof(argv[i + 1]);
    }
    if (config.pythonEnv.empty()) {
        std::fprintf(stderr,
            "usage: precompile-studio-worker --python-env DIR [--python-path DIR] [--user-env DIR [--user-site "
            "DIR]...] [--pool SOCKET [--pool-idle SECONDS]]\n"
            "(started by precompile-studio; not meant to be run by hand)\n");
        return 2;
    }
    int code = 3;
    try {
        // A pool (--pool SOCKET, protocol::WorkerPool) has no channel of its own: each fork gets one.
        // Its key's lock is taken before the interpreter starts: a second pool of the key ends
        // here, before it imports torch for nothing.
        int poolLock = -1;
        if (!poolSocket.empty()) {
            poolLock = ::open((poolSocket + ".lock").c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
            if (poolLock < 0 || ::flock(poolLock, LOCK_EX | LOCK_NB) != 0)
                ::_exit(0);
        }
        ps::host::WorkerServer server(poolSocket.empty() ? ps::protocol::kWorkerChannelFd : -1, config);
        if (!poolSocket.empty())
            server.servePool(poolSocket, poolIdleSeconds > 0 ? poolIdleSeconds : 60, poolLock);
        code = server.run();
    } catch (const std::exception& e) {
        // A bug of ours: said on stderr (the front end shows it), never an abort.
        std::fprintf(stderr, "precompile-studio-worker: %s\n", e.what());
    }
    std::fflush(nullptr);
    ::_exit(code);  // see Interpreter.h: no finalisation after running a user script
}
