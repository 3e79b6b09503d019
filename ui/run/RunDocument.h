#pragma once

#include "model/Report.h"
#include "run/RunResult.h"

#include <QString>

#include <optional>
#include <string>
#include <vector>

namespace ps::ui {

/// One run as the views show it: the run that just finished, a run from the library, or an
/// exported artifact opened from disk. Immutable once made; shared between the views.
struct RunDocument {
    /// Where the document came from.
    enum class Origin {
        Run,      ///< the run that just finished in this window
        Library,  ///< a run read from the artifact library
        Export,   ///< an exported artifact opened from disk
    };

    model::Report report;
    std::string scriptText;                    ///< the script as it was run (may be empty)
    std::vector<run::CaptureBytes> artifacts;  ///< index-aligned with report.captures (may be shorter)
    Origin origin = Origin::Run;
    QString createdAt;          ///< ISO 8601 for library runs
    QString library;            ///< the library the run is in (RunStore::path()); "" not stored or unknown
    bool trusted = true;        ///< may execute here, for this user (library::RunTrust)
    QString untrustedBecause;   ///< why not, one line; empty when trusted
    double elapsedSeconds = 0;  ///< wall time of the run, as the window saw it

    /// Why a finished run that was to be stored is not in the library ("" otherwise).
    QString storeError() const { return report.storeError ? QString::fromStdString(*report.storeError) : QString(); }

    const run::CaptureBytes* artifact(std::size_t capture) const
    {
        return capture < artifacts.size() ? &artifacts[capture] : nullptr;
    }
};

}  // namespace ps::ui
