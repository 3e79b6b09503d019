#include "ui/common/StatusStyle.h"

namespace ps::ui {

namespace {
QString latin1(std::string_view word)
{
    return QString::fromLatin1(word.data(), static_cast<qsizetype>(word.size()));
}

const QColor kGreen(0x2e, 0x9a, 0x48);
const QColor kAmber(0xc0, 0x80, 0x00);
const QColor kAmberRed(0xd0, 0x5a, 0x1a);
const QColor kRed(0xd0, 0x3a, 0x2a);
const QColor kGrey(0x80, 0x80, 0x80);
}  // namespace

QString StatusStyle::word(model::RunStatus status)
{
    return latin1(model::toString(status));
}

QString StatusStyle::word(model::CaptureStatus status)
{
    return latin1(model::toString(status));
}

QString StatusStyle::word(model::Severity severity)
{
    return latin1(model::toString(severity));
}

QString StatusStyle::word(model::Stage stage)
{
    return latin1(model::toString(stage));
}

QString StatusStyle::word(model::Judgement judgement)
{
    return latin1(model::toString(judgement));
}

QString StatusStyle::word(model::Verification::Status status)
{
    return latin1(model::toString(status));
}

QString StatusStyle::word(model::Verification::Trial::Status status)
{
    return latin1(model::toString(status));
}

QString StatusStyle::word(compare::Change change)
{
    return latin1(compare::describe(change));
}

QString StatusStyle::verdict(const model::Report& report)
{
    return latin1(model::toString(report.verdict()));
}

QColor StatusStyle::color(model::RunStatus status)
{
    switch (status) {
    case model::RunStatus::Ok:
        return kGreen;
    case model::RunStatus::Mismatch:
        return kAmber;
    case model::RunStatus::Violation:
        return kAmberRed;
    case model::RunStatus::Cancelled:
        return kGrey;
    case model::RunStatus::Error:
    case model::RunStatus::Timeout:
    case model::RunStatus::WorkerDied:
    case model::RunStatus::ProtocolError:
    case model::RunStatus::ConnectionLost:
        return kRed;
    }
    return kRed;
}

QColor StatusStyle::color(model::CaptureStatus status)
{
    switch (status) {
    case model::CaptureStatus::Ok:
        return kGreen;
    case model::CaptureStatus::Mismatch:
        return kAmber;
    case model::CaptureStatus::Violation:
        return kAmberRed;
    case model::CaptureStatus::Error:
        return kRed;
    }
    return kRed;
}

QColor StatusStyle::verdictColor(const model::Report& report)
{
    const auto verdict = report.verdict();
    if (verdict == model::RunVerdict::NotStored || verdict == model::RunVerdict::NumericsDrift)
        return kAmber;
    return color(report.status);
}

}  // namespace ps::ui
