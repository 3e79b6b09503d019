#pragma once

#include "compare/Change.h"
#include "model/CaptureStatus.h"
#include "model/Judgement.h"
#include "model/Report.h"
#include "model/RunStatus.h"
#include "model/Severity.h"
#include "model/Stage.h"
#include "model/Tone.h"
#include "model/Verification.h"

#include <QColor>
#include <QString>

namespace ps::ui {

/// The outcome vocabulary as the window shows it, the same words and colours everywhere
/// (header, status bar, library list and filters): ok green; mismatch amber; violation
/// amber-red; error, timeout, a dead worker or a broken channel red; cancelled grey; and an ok
/// run that was not stored amber.
class StatusStyle {
public:
    static QString word(model::RunStatus status);
    static QString word(model::CaptureStatus status);
    static QString word(model::Severity severity);
    static QString word(model::Stage stage);
    static QString word(model::Judgement judgement);
    static QString word(model::Verification::Status status);
    static QString word(model::Verification::Trial::Status status);
    /// A change in the reader's words ("fused differently" for a refused kernel).
    static QString word(compare::Change change);
    /// The report's verdict: its status, or "not stored" for an ok run that was not stored, or
    /// "numerics drift" for an ok run whose artifact drifted from eager's numerics (both amber).
    static QString verdict(const model::Report& report);

    /// The window's colour of a tone (model::Tone decides which outcome has which).
    static QColor color(model::Tone tone);
    static QColor color(model::RunStatus status);
    static QColor color(model::CaptureStatus status);
    static QColor verdictColor(const model::Report& report);
};

}  // namespace ps::ui
