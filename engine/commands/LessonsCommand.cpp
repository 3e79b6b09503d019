#include "commands/LessonsCommand.h"

#include "commands/LessonTable.h"
#include "lessons/LessonExpectation.h"
#include "library/core/TerminalText.h"
#include "model/Report.h"
#include "run/RunPipeline.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <optional>
#include <ostream>

namespace ps::commands {

namespace fs = std::filesystem;
using lessons::LessonCatalogue;
using lessons::LessonExpectation;
using nlohmann::json;

namespace {

/// Texts from the reports (messages, fixes, mismatch lines) and from the lessons folder are
/// printed terminal-safe; JSON output stays exact.
using library::TerminalText;

constexpr std::size_t kLessonEchoLimit = 256 * 1024;

/// The side run k-th (broken first).
lessons::LessonSide side(int k)
{
    return lessons::kLessonSides[static_cast<std::size_t>(k)];
}

std::optional<json> readJson(const fs::path& path, std::string& error)
{
    std::ifstream f(path);
    if (!f) {
        error = "cannot read " + path.string();
        return std::nullopt;
    }
    try {
        return json::parse(f);
    } catch (const json::parse_error& e) {
        error = path.string() + " is not valid JSON: " + e.what();
        return std::nullopt;
    }
}

}  // namespace

int LessonsCommand::ls(const LessonsOptions& options, std::ostream& out, std::ostream& err)
{
    const std::string dir = options.lessonsDir.value_or(LessonCatalogue::defaultLessonsDir());
    std::error_code ec;
    if (!fs::is_directory(dir, ec)) {
        err << "precompile-studio: no lessons folder at " << dir
            << " (set PS_RESOURCES_DIR to the folder that holds lessons/)\n";
        return 2;
    }
    const auto lessons = LessonCatalogue::list(dir);
    if (options.json) {
        json j = {{"schema", 1}, {"dir", dir}, {"lessons", json::array()}};
        for (const auto& l : lessons)
            j["lessons"].push_back({{"name", l.name}, {"title", l.title}, {"dir", l.dir}, {"complete", l.complete},
                {"files", {{"lesson", l.lessonMd}, {"broken", l.broken}, {"fixed", l.fixed}, {"expect", l.expect}}}});
        out << j.dump(2) << "\n";
        return 0;
    }
    std::size_t width = 4;
    for (const auto& l : lessons)
        width = std::max(width, l.name.size());
    for (const auto& l : lessons) {
        out << TerminalText::safe(l.name) << std::string(width - l.name.size() + 2, ' ')
            << (l.title.empty() ? "(no lesson.md)" : TerminalText::safe(l.title));
        if (!l.complete)
            out << "  [incomplete]";
        out << "\n";
    }
    if (lessons.empty())
        out << "no lessons in " << TerminalText::safe(dir) << "\n";
    return 0;
}

int LessonsCommand::run(const std::string& name, const LessonsOptions& options, std::ostream& out, std::ostream& err)
{
    const std::string dir = options.lessonsDir.value_or(LessonCatalogue::defaultLessonsDir());
    const auto lesson = LessonCatalogue::find(dir, name);
    if (!lesson) {
        err << "precompile-studio: no lesson named '" << name << "' in " << dir
            << " (see `precompile-studio lessons ls`)\n";
        return 2;
    }
    std::string error;
    const auto expected = readJson(lesson->expect, error);
    if (!expected) {
        err << "precompile-studio: lesson " << name << ": " << error << "\n";
        return 2;
    }
    if (const auto which = LessonExpectation::missingSide(*expected)) {
        err << "precompile-studio: lesson " << name << ": " << lesson->expect << " has no \""
            << lessons::toString(*which) << "\" object\n";
        return 2;
    }

    for (const std::string& script : {lesson->broken, lesson->fixed}) {
        std::error_code ec;
        if (!fs::is_regular_file(script, ec)) {
            err << "precompile-studio: lesson " << name << ": " << script << " is missing\n";
            return 2;
        }
    }

    // Two pipelines: the second imports torch while the first runs broken.py. Nothing is stored.
    run::RunPipeline first = options.remote ? run::RunPipeline::forHost(*options.remote)
                                            : run::RunPipeline::forEnvironment(options.pythonEnv);
    if (!first.launchProblem().empty()) {
        err << "precompile-studio: " << first.launchProblem() << "\n";
        return 2;
    }
    run::RunPipeline second = options.remote ? run::RunPipeline::forHost(*options.remote)
                                             : run::RunPipeline::forEnvironment(options.pythonEnv);
    run::RunPipeline* runners[2] = {&first, &second};
    second.prewarm();

    json reports[2], actual[2], mismatches[2];
    double seconds[2] = {0, 0};
    std::string scripts[2];
    for (lessons::LessonSide side : lessons::kLessonSides)
        scripts[lessons::indexOf(side)] = lesson->script(side);
    for (int k = 0; k < 2; ++k) {
        run::PipelineOptions run;
        run.run.script = fs::absolute(scripts[k]).lexically_normal().string();
        run.run.verify = true;
        run.run.timeoutSeconds = options.timeoutSeconds;
        std::size_t echoed = 0;
        protocol::RunObserver observer;
        if (!options.json)
            observer.onOutput = [&](int, std::string_view data) {
                if (echoed >= kLessonEchoLimit)
                    return;
                const auto take = std::min(data.size(), kLessonEchoLimit - echoed);
                err.write(data.data(), static_cast<std::streamsize>(take));
                echoed += take;
            };
        run::RunResult result = runners[k]->run(run, observer);
        runners[k]->shutdown();
        seconds[k] = result.elapsedSeconds;
        const model::Report& report = result.report;
        reports[k] = report.toJson();
        actual[k] = LessonExpectation::stableFields(reports[k], run.run.script);
        mismatches[k] = LessonExpectation::compare(LessonExpectation::expected(*expected, side(k)), actual[k]);
    }
    const bool ok = mismatches[0].empty() && mismatches[1].empty();

    if (options.json) {
        json j = {{"schema", 1}, {"lesson", lesson->name}, {"title", lesson->title}, {"dir", lesson->dir}, {"ok", ok},
            {"runs", json::object()}};
        for (int k = 0; k < 2; ++k)
            j["runs"][std::string(lessons::toString(side(k)))] = {{"script", scripts[k]}, {"ok", mismatches[k].empty()},
                {"mismatches", mismatches[k]}, {"expected", LessonExpectation::expected(*expected, side(k))},
                {"actual", actual[k]}, {"seconds", seconds[k]}, {"report", reports[k]}};
        out << j.dump(2) << "\n";
        out.flush();
        return ok ? 0 : 1;
    }

    out << "lesson " << TerminalText::safe(lesson->name);
    if (!lesson->title.empty())
        out << ": " << TerminalText::safe(lesson->title);
    out << "\n\n";
    auto rows = LessonTable::rows(actual);
    rows.push_back(LessonTable::verdict(mismatches));
    LessonTable::print(out, rows, seconds);
    const auto found = LessonExpectation::findings(reports[0], scripts[0]);
    if (!found.empty())
        out << "\nWhat the studio says about broken.py:\n";
    for (const auto& f : found) {
        out << "  " << TerminalText::safe(f.what) << ": " << TerminalText::safe(f.message) << "\n";
        if (!f.fix.empty())
            out << "    fix: " << TerminalText::safe(f.fix) << "\n";
    }
    for (int k = 0; k < 2; ++k) {
        if (mismatches[k].empty())
            continue;
        out << "\n"
            << lessons::toString(side(k)) << ".py does not report what " << TerminalText::safe(lesson->expect)
            << " says:\n";
        for (const auto& m : mismatches[k])
            out << "  " << TerminalText::safe(m.get<std::string>()) << "\n";
        const std::string message = LessonExpectation::text(LessonExpectation::field(reports[k], "message"), "");
        if (!message.empty())
            out << "  (the run: "
                << TerminalText::safe(LessonExpectation::text(LessonExpectation::field(reports[k], "status"), "?"))
                << ": " << TerminalText::safe(message.substr(0, 300)) << ")\n";
    }
    out << "\n"
        << (ok ? "PASS" : "FAIL") << ": lesson " << TerminalText::safe(lesson->name)
        << (ok ? ": broken.py and fixed.py report what expect.json says\n" : "\n");
    out.flush();
    return ok ? 0 : 1;
}

}  // namespace ps::commands
