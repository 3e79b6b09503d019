#pragma once

#include "library/core/LibraryRecords.h"

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace ps::library {

/// The `checks` table, the same for every back end (as RunColumns is for runs): the columns a
/// kept check is read from, by name; what is stored for one, checked before any SQL; and the
/// latest check at each target hung on the runs listed.
class CheckColumns {
public:
    enum class Column {
        Id,
        RunId,
        CheckedAt,
        Target,
        Outcome,
        Runs,
        FirstCallMs,
        Torch,
        Reason,
        CheckedBy,
        CheckedRole
    };

    /// A check's report object is kept up to this size; a target's label and a reason are cut.
    static constexpr std::size_t kMaxCheckBytes = std::size_t{1} << 20;
    static constexpr std::size_t kMaxLabelBytes = 1024;
    static constexpr std::size_t kMaxReasonBytes = 8192;

    /// "k.id, k.run_id, ...": Column's columns in order, from `checks k`.
    static const std::string& list();
    /// A WHERE clause keeping each run's latest check at each target (both SQL dialects).
    static constexpr std::string_view kLatestPerTarget = "k.id IN (SELECT max(id) FROM checks GROUP BY run_id, target)";

    /// The values a check is stored as: its outcome known, its label not empty, texts cut to
    /// their limits, the check object serialised (dropped past kMaxCheckBytes). Throws
    /// LibraryError(Invalid, location) for a check no store keeps.
    struct Values {
        std::string target, outcome, torch, reason, checkJson;
        int runs = 0;
        std::optional<std::int64_t> firstCallMs;
    };
    static Values prepare(const CheckRecord& check, const std::string& location);

    /// The check object of a stored row: null where a crafted row holds no JSON object (the row's
    /// columns still say what it found).
    static nlohmann::json parseCheck(std::string_view text);

    /// Fills `c` from a row whose columns from `first` on are list(). Row: text(int),
    /// integer(int), isNull(int).
    template <class Row> static void read(const Row& row, int first, CheckRecord& c)
    {
        const auto at = [first](Column column) { return first + static_cast<int>(column); };
        c.id = row.integer(at(Column::Id));
        c.runId = row.integer(at(Column::RunId));
        c.checkedAt = row.text(at(Column::CheckedAt));
        c.target = row.text(at(Column::Target));
        c.outcome = row.text(at(Column::Outcome));
        c.runs = row.integer(at(Column::Runs)) != 0;
        if (!row.isNull(at(Column::FirstCallMs)))
            c.firstCallMs = row.integer(at(Column::FirstCallMs));
        c.torch = row.text(at(Column::Torch));
        c.reason = row.text(at(Column::Reason));
        c.checkedBy.user = row.text(at(Column::CheckedBy));
        c.checkedBy.role = row.text(at(Column::CheckedRole));
    }

    /// Hangs each check on its run among `runs` (by id; others are dropped), keeping the order
    /// the checks come in.
    static void attach(std::vector<RunSummary>& runs, std::vector<CheckRecord> checks);
};

}  // namespace ps::library
