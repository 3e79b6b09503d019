#pragma once

#include "model/RunStatus.h"

#include "lessons/LessonCatalogue.h"

#include <QString>
#include <QStringList>

#include <nlohmann/json.hpp>

#include <optional>
#include <vector>

namespace ps::ui {

/// What one script of a lesson (its broken or its fixed side) reported, set against what
/// the lesson's expect.json says for that side, the way `precompile-studio lessons run` does:
/// the report's stable fields (LessonExpectation::stableFields), the differences from
/// expect[side] (LessonExpectation::compare), and a short summary for a reader. Also stands for a
/// run that was cancelled or could not start at all (then error() says why).
class LessonOutcome {
public:
    /// One thing the studio found: a violation, a runtime violation or a warning.
    struct Finding {
        QString what;     ///< "violation (inv 1 constant-tensor, line 17)"
        QString message;  ///< first line of the message
        QString fix;      ///< "" when the report has none
    };

    /// A finished run. `report` is the run's schema-1 report (model::Report::toJson());
    /// `expect` is the whole expect.json ({"broken": ..., "fixed": ...}). A report whose status
    /// is "cancelled" makes a cancelled outcome.
    LessonOutcome(const lessons::Lesson& lesson, lessons::LessonSide side, const nlohmann::json& report,
        const nlohmann::json& expect);

    /// A run that did not end in a report of the script: cancelled (status "cancelled") or could
    /// not start (status "error"; `error` says why, e.g. WorkerClient::launchError()).
    static LessonOutcome failed(const lessons::Lesson& lesson, lessons::LessonSide side, model::RunStatus status,
        const QString& error, const nlohmann::json& expect = nlohmann::json());

    /// The path a side's script is run as (absolute, normalised).
    static QString scriptPath(const lessons::Lesson& lesson, lessons::LessonSide side);
    /// Reads and checks expect.json (an object with a "broken" and a "fixed" object); nullopt
    /// and the reason, naming the path, in `error`.
    static std::optional<nlohmann::json> readExpect(const QString& path, QString* error);

    lessons::LessonSide side() const { return m_side; }
    const QString& script() const { return m_script; }
    /// The report's status (see model::RunStatus: ok, mismatch, violation, error, timeout, ...).
    const QString& status() const { return m_status; }
    /// The run ended in a report of the script (not cancelled, not refused before it started).
    bool ran() const { return m_ran; }
    bool cancelled() const { return m_typedStatus == model::RunStatus::Cancelled; }
    /// The stable fields reported equal what expect.json says for this side.
    bool matches() const { return m_ran && m_differences.isEmpty(); }
    /// "as expected", "differs from expect.json", "cancelled" or "could not run".
    QString verdict() const;

    const nlohmann::json& stable() const { return m_stable; }
    const nlohmann::json& expected() const { return m_expected; }
    /// `captures[0].verify.status: expected "mismatch", got "ok"`, ... (empty when it matches)
    const QStringList& differences() const { return m_differences; }
    /// Why it did not run (or what the worker said when it could not run the script).
    const QString& error() const { return m_error; }
    const std::vector<Finding>& findings() const { return m_findings; }
    /// Status, each capture's violation, verify and warnings, then the findings with their
    /// fix: a few lines of plain text.
    QString summary() const;

private:
    LessonOutcome() = default;

    lessons::LessonSide m_side = lessons::LessonSide::Broken;
    QString m_script;
    QString m_status;
    std::optional<model::RunStatus> m_typedStatus;  ///< m_status read at the JSON edge
    QString m_message;                              ///< the report's message
    bool m_ran = false;
    nlohmann::json m_stable;
    nlohmann::json m_expected;
    QStringList m_differences;
    QString m_error;
    std::vector<Finding> m_findings;
};

}  // namespace ps::ui
