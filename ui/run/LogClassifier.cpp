#include "ui/run/LogClassifier.h"

#include <QRegularExpression>

namespace ps::ui {

namespace {

/// torch's notes about the machine, logged as warnings (with a glog prefix, or bare through
/// Python's last-resort handler) at every import on a machine without a GPU: they are not the
/// script's problem and not the user's to fix, so they read as information, whatever prefix.
constexpr const char* kEnvironmentNotes[] = {
    "No CUDA runtime is found",
};

LogSeverity levelWord(const QString& word)
{
    if (word == u"CRITICAL" || word == u"FATAL" || word == u"ERROR")
        return LogSeverity::Error;
    if (word == u"WARNING" || word == u"WARN")
        return LogSeverity::Warning;
    return LogSeverity::Info;  // INFO, DEBUG
}

LogSeverity glogLetter(QChar letter)
{
    switch (letter.unicode()) {
    case 'E':
    case 'F':
        return LogSeverity::Error;
    case 'W':
        return LogSeverity::Warning;
    default:
        return LogSeverity::Info;  // I, V (torch._logging's verbose)
    }
}

}  // namespace

void LogClassifier::reset()
{
    m_state = {};
}

LogSeverity LogClassifier::classify(int stream, const QString& line)
{
    State& state = m_state[stream == 1 || stream == 2 ? stream : 0];
    const bool indented = !line.isEmpty() && (line.front() == u' ' || line.front() == u'\t');

    if (state.traceback) {
        // Frames and their source lines are indented; the exception line ends the traceback.
        if (!indented && !line.trimmed().isEmpty())
            state.traceback = false;
        return LogSeverity::Error;
    }
    if (indented && state.indented != LogSeverity::Plain) {
        const LogSeverity s = state.indented;
        state.indented = LogSeverity::Plain;
        return s;
    }
    state.indented = LogSeverity::Plain;

    static const QRegularExpression traceback(QStringLiteral(R"(^Traceback \(most recent call last\):)"));
    static const QRegularExpression chained(
        QStringLiteral(R"(^(During handling of the above exception|The above exception was the direct cause))"));
    // warnings.warn: "path:12: UserWarning: message", then the source line, indented.
    static const QRegularExpression pyWarning(QStringLiteral(R"(^\S.*:\d+: \w*Warning: )"));
    // logging's default format "WARNING:name:message", and "ERROR: ..." / "[WARNING] ..."
    static const QRegularExpression level(
        QStringLiteral(R"(^\[?(CRITICAL|FATAL|ERROR|WARNING|WARN|INFO|DEBUG)\b[\]:]?)"));
    // c10 / glog / torch._logging: "[W1203 21:52:05.123 ...]" or "W1203 21:52:05.123000 ..."
    static const QRegularExpression glog(QStringLiteral(R"(^\[?([VIWEF])\d{4} \d\d:\d\d:\d\d)"));
    static const QRegularExpression warningWord(QStringLiteral(R"(^(\w*Warning|Warning)\b:)"));
    static const QRegularExpression errorWord(QStringLiteral(R"(^(\w+\.)*\w*(Error|Exception)\b:)"));

    for (const char* words : kEnvironmentNotes)
        if (line.contains(QLatin1String(words)))
            return LogSeverity::Info;
    if (traceback.match(line).hasMatch()) {
        state.traceback = true;
        return LogSeverity::Error;
    }
    if (chained.match(line).hasMatch())
        return LogSeverity::Error;
    if (pyWarning.match(line).hasMatch()) {
        state.indented = LogSeverity::Warning;
        return LogSeverity::Warning;
    }
    if (const auto m = level.match(line); m.hasMatch())
        return levelWord(m.captured(1));
    if (const auto m = glog.match(line); m.hasMatch())
        return glogLetter(m.captured(1).front());
    if (warningWord.match(line).hasMatch())
        return LogSeverity::Warning;
    if (errorWord.match(line).hasMatch())
        return LogSeverity::Error;
    return LogSeverity::Plain;
}

}  // namespace ps::ui
