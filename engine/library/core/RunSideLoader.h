#pragma once

#include "compare/RunDiff.h"

#include <cstdint>

namespace ps::library {

class ArtifactLibrary;

/// A stored run as engine/compare sees it (compare::RunSide): its report, script text and
/// every capture's python_code, read back against its hash. Used by `library diff` and the
/// window's Compare view, so that both compare the same bytes. Reads only; the thread of the
/// ArtifactLibrary it is given.
class RunSideLoader {
public:
    /// Throws LibraryError (NotFound, Damaged) like ArtifactLibrary does: a damaged blob is an
    /// error, never compared.
    static compare::RunSide load(const ArtifactLibrary& library, std::int64_t runId);
};

}  // namespace ps::library
