#include "model/Stage.h"

#include <ostream>

namespace ps::model {

std::string_view toString(Stage stage)
{
    switch (stage) {
    case Stage::Start:
        return "start";
    case Stage::Script:
        return "script";
    case Stage::Capture:
        return "capture";
    case Stage::Lower:
        return "lower";
    case Stage::Load:
        return "load";
    case Stage::Call:
        return "call";
    case Stage::Runtime:
        return "runtime";
    case Stage::Verify:
        return "verify";
    case Stage::ColdStart:
        return "cold_start";
    case Stage::Check:
        return "check";
    case Stage::Repro:
        return "repro";
    case Stage::Artifact:
        return "artifact";
    case Stage::Store:
        return "store";
    }
    return "start";
}

std::optional<Stage> stageFromString(std::string_view text)
{
    for (auto s : {Stage::Start, Stage::Script, Stage::Capture, Stage::Lower, Stage::Load, Stage::Call, Stage::Runtime,
             Stage::Verify, Stage::ColdStart, Stage::Check, Stage::Repro, Stage::Artifact, Stage::Store})
        if (toString(s) == text)
            return s;
    return std::nullopt;
}

std::ostream& operator<<(std::ostream& out, Stage stage)
{
    return out << toString(stage);
}

}  // namespace ps::model
