#include "ui/lessons/LessonOutcome.h"
#include "ui/common/QtText.h"
#include "ui/common/StatusStyle.h"

#include "lessons/LessonExpectation.h"
#include "model/RunStatus.h"

#include <QCoreApplication>
#include <QFile>

#include <filesystem>

namespace ps::ui {

namespace fs = std::filesystem;
using nlohmann::json;
using Expect = lessons::LessonExpectation;

namespace {

QString trOutcome(const char* text)
{
    return QCoreApplication::translate("ps::ui::LessonOutcome", text);
}

QString expectText(const json& j, const char* fallback = "?")
{
    return QString::fromStdString(Expect::text(j, fallback));
}

QString violationText(const json& v)
{
    return QString::fromStdString(Expect::violationText(v));
}

QString verifyText(const json& v)
{
    if (!v.is_object())
        return QStringLiteral("-");
    QString s = QString::fromStdString(Expect::verifyText(v));
    const json& rt = Expect::field(v, "runtime");
    if (rt.is_object())
        s += trOutcome("; runtime call: ") + QString::fromStdString(Expect::runtimeText(rt));
    return s;
}

QString firstLine(const json& j, int limit = 300)
{
    QString s = j.is_string() ? QString::fromStdString(j.get<std::string>()) : QString();
    s = s.section(QLatin1Char('\n'), 0, 0).trimmed();
    if (s.size() > limit)
        s = s.left(limit - 3) + QStringLiteral("...");
    return s;
}

}  // namespace

LessonOutcome::LessonOutcome(
    const lessons::Lesson& lesson, lessons::LessonSide side, const json& report, const json& expect)
    : m_side(side), m_script(scriptPath(lesson, side))
{
    m_status = expectText(Expect::field(report, "status"), "");
    m_typedStatus = model::runStatusFromString(m_status.toStdString());
    m_message = firstLine(Expect::field(report, "message"), 600);
    m_expected = Expect::expected(expect, side);
    if (cancelled()) {
        m_ran = false;
        m_error = m_message.isEmpty() ? trOutcome("the run was cancelled") : m_message;
        return;
    }
    m_ran = true;
    m_stable = Expect::stableFields(report, m_script.toStdString());
    if (m_expected.is_object()) {
        for (const auto& d : Expect::compare(m_expected, m_stable))
            m_differences << QString::fromStdString(d);
    } else {
        m_differences << trOutcome("%1 has no \"%2\" object")
                             .arg(QString::fromStdString(lesson.expect), q(std::string(lessons::toString(side))));
    }
    if (!m_typedStatus || !model::ranToTheEnd(*m_typedStatus) || *m_typedStatus == model::RunStatus::Error)
        m_error = m_message;  // error, timeout, worker_died, ...: what happened, in the worker's words

    // What the studio says, in the order a learner reads it (as `lessons run` prints it).
    for (const auto& f : Expect::findings(report, m_script.toStdString()))
        m_findings.push_back(
            {QString::fromStdString(f.what), QString::fromStdString(f.message), QString::fromStdString(f.fix)});
}

LessonOutcome LessonOutcome::failed(const lessons::Lesson& lesson, lessons::LessonSide side, model::RunStatus status,
    const QString& error, const json& expect)
{
    LessonOutcome o;
    o.m_side = side;
    o.m_script = scriptPath(lesson, side);
    o.m_status = StatusStyle::word(status);
    o.m_typedStatus = status;
    o.m_ran = false;
    o.m_error = error;
    o.m_message = error;
    o.m_expected = Expect::expected(expect, side);
    return o;
}

QString LessonOutcome::scriptPath(const lessons::Lesson& lesson, lessons::LessonSide side)
{
    const std::string& path = lesson.script(side);
    if (path.empty())
        return {};
    std::error_code ec;
    fs::path p = fs::absolute(path, ec);
    if (ec)
        p = path;
    return QString::fromStdString(p.lexically_normal().string());
}

std::optional<json> LessonOutcome::readExpect(const QString& path, QString* error)
{
    QFile f(path);
    if (!f.exists()) {
        *error = trOutcome("%1 is missing: the lesson has nothing to compare its runs with").arg(path);
        return std::nullopt;
    }
    if (!f.open(QIODevice::ReadOnly)) {
        *error = trOutcome("%1 cannot be read: %2").arg(path, f.errorString());
        return std::nullopt;
    }
    const QByteArray bytes = f.readAll();
    json j;
    try {
        j = json::parse(bytes.constData(), bytes.constData() + bytes.size());
    } catch (const json::exception& e) {
        *error = trOutcome("%1 is not valid JSON: %2").arg(path, QString::fromStdString(e.what()));
        return std::nullopt;
    }
    if (const auto side = Expect::missingSide(j)) {
        *error = trOutcome("%1 has no \"%2\" object (it must read {\"broken\": {...}, \"fixed\": {...}})")
                     .arg(path, q(std::string(lessons::toString(*side))));
        return std::nullopt;
    }
    return j;
}

QString LessonOutcome::verdict() const
{
    if (cancelled())
        return trOutcome("cancelled");
    if (!m_ran)
        return trOutcome("could not run");
    return m_differences.isEmpty() ? trOutcome("as expected") : trOutcome("differs from expect.json");
}

QString LessonOutcome::summary() const
{
    QStringList lines;
    if (!m_ran) {
        lines << (cancelled() ? trOutcome("cancelled: %1") : trOutcome("could not run: %1")).arg(m_error);
        return lines.join(QLatin1Char('\n'));
    }
    lines << trOutcome("status: %1").arg(m_status) + (m_error.isEmpty() ? QString() : QStringLiteral(" — ") + m_error);
    const json& scriptViolation = Expect::field(m_stable, "violation");
    if (scriptViolation.is_object())
        lines << trOutcome("script: %1").arg(violationText(scriptViolation));
    const json& captures = Expect::field(m_stable, "captures");
    const std::size_t n = captures.is_array() ? captures.size() : 0;
    for (std::size_t i = 0; i < n; ++i) {
        const json& c = captures[i];
        const QString label = n > 1 ? trOutcome("capture %1").arg(i + 1) : trOutcome("capture");
        QString line = QStringLiteral("%1: %2").arg(label, expectText(Expect::field(c, "status")));
        if (Expect::field(c, "violation").is_object())
            line += QStringLiteral(" — ") + violationText(Expect::field(c, "violation"));
        lines << line;
        lines << trOutcome("  verify: %1").arg(verifyText(Expect::field(c, "verify")));
        QStringList warnings;
        for (const auto& w : Expect::field(c, "warnings"))
            warnings << violationText(w);
        lines << trOutcome("  warnings: %1")
                     .arg(warnings.isEmpty() ? trOutcome("none") : warnings.join(QStringLiteral("; ")));
    }
    if (n == 0 && m_error.isEmpty() && !m_message.isEmpty())
        lines << m_message;
    for (const auto& f : m_findings) {
        lines << QString();
        lines << f.what + QStringLiteral(": ") + f.message;
        if (!f.fix.isEmpty())
            lines << trOutcome("  fix: %1").arg(f.fix);
    }
    return lines.join(QLatin1Char('\n'));
}

}  // namespace ps::ui
