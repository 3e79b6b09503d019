#pragma once

#include "library/core/LibraryRecords.h"
#include "model/CaptureStatus.h"
#include "model/RunStatus.h"

#include <array>
#include <string>
#include <string_view>

namespace ps::library {

/// The columns a run's summary and a capture are read from, by name, for every back end: each
/// back end selects `summaryList()` / `captureList()` and reads its rows through a small
/// adapter (text, integer, boolean, isNull by column number), so a column is added in one
/// place and can never be read from its neighbour's position.
class RunColumns {
public:
    enum class Summary {
        Id,
        CreatedAt,
        Name,
        ScriptPath,
        Status,
        Message,
        Origin,
        Trusted,
        Uid,
        RanOn,
        StoredBy,
        StoredRole
    };
    enum class Capture { Index, Name, Backend, Tracer, Status, Invariant, Message, PythonCodeSha256, CacheSha256 };

    /// "r.id, r.created_at, ...": Summary's columns in order, from `runs r`.
    static const std::string& summaryList();
    /// "c.idx, c.name, ...": Capture's columns in order, from `captures c`.
    static const std::string& captureList();

    /// Fills `s` from a row whose first columns are summaryList(). Row: text(int), integer(int),
    /// boolean(int), isNull(int). Listing fills thousands of these: assigned in place.
    template <class Row> static void readSummary(const Row& row, RunSummary& s)
    {
        const auto at = [](Summary c) { return static_cast<int>(c); };
        s.id = row.integer(at(Summary::Id));
        s.createdAt = row.text(at(Summary::CreatedAt));
        s.name = row.text(at(Summary::Name));
        s.scriptPath = row.text(at(Summary::ScriptPath));
        s.status = model::runStatusFromString(row.text(at(Summary::Status)));
        s.message = row.text(at(Summary::Message));
        s.origin = row.text(at(Summary::Origin)) == toString(RunOrigin::Import) ? RunOrigin::Import : RunOrigin::Run;
        s.trusted = row.boolean(at(Summary::Trusted));
        s.uid = row.text(at(Summary::Uid));
        s.ranOn = row.text(at(Summary::RanOn));
        s.storedBy.user = row.text(at(Summary::StoredBy));
        s.storedBy.role = row.text(at(Summary::StoredRole));
    }

    /// Fills `c` from a row whose columns from `first` on are captureList().
    template <class Row> static void readCapture(const Row& row, int first, CaptureRecord& c)
    {
        const auto at = [first](Capture column) { return first + static_cast<int>(column); };
        c.index = static_cast<int>(row.integer(at(Capture::Index)));
        c.name = row.text(at(Capture::Name));
        c.backend = row.text(at(Capture::Backend));
        c.tracer = row.text(at(Capture::Tracer));
        c.status = model::captureStatusFromString(row.text(at(Capture::Status)));
        if (!row.isNull(at(Capture::Invariant)))
            c.invariant = static_cast<int>(row.integer(at(Capture::Invariant)));
        c.message = row.text(at(Capture::Message));
        if (!row.isNull(at(Capture::PythonCodeSha256)))
            c.pythonCodeSha256.emplace(row.text(at(Capture::PythonCodeSha256)));
        if (!row.isNull(at(Capture::CacheSha256)))
            c.cacheSha256.emplace(row.text(at(Capture::CacheSha256)));
    }
};

}  // namespace ps::library
