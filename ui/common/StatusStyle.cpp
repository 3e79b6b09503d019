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

QColor StatusStyle::color(model::Tone tone)
{
    switch (tone) {
    case model::Tone::Good:
        return kGreen;
    case model::Tone::Warn:
        return kAmber;
    case model::Tone::Serious:
        return kAmberRed;
    case model::Tone::Muted:
        return kGrey;
    case model::Tone::Bad:
        return kRed;
    }
    return kRed;
}

QColor StatusStyle::color(model::RunStatus status)
{
    return color(model::toneOf(status));
}

QColor StatusStyle::color(model::CaptureStatus status)
{
    return color(model::toneOf(status));
}

QColor StatusStyle::verdictColor(const model::Report& report)
{
    return color(model::toneOf(report.verdict()));
}

}  // namespace ps::ui
