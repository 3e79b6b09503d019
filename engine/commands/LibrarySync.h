#pragma once

#include <string>

namespace ps::commands {

struct LibraryOptions;

/// `library push` and `library copy`: runs moved between libraries with RunCopier, idempotently
/// (a run the target holds already, by uid, is not stored again). Results on stdout, one line
/// per problem on stderr; throws LibraryError for LibraryCommand to report.
class LibrarySync {
public:
    /// Sends the runs kept in the local library `localPath` (its outbox) to `options.to`, or to
    /// the team library each was meant for. 0 all sent (or none waiting); 1 a run could not be
    /// read; 2 a team library still cannot be reached (the runs stay kept).
    static int push(const std::string& localPath, const LibraryOptions& options);
    /// Copies every run (or options.runIds) from options.from to options.to. 0 all copied or
    /// there already; 1 some could not be read.
    static int copy(const LibraryOptions& options);
};

}  // namespace ps::commands
