#pragma once

#include <QString>

#include <array>

namespace ps::ui {

/// How serious one line of a script's output is.
enum class LogSeverity { Plain, Info, Warning, Error };

/// Judges each line of the output by what it says, never by the stream it came on: torch logs
/// its warnings to stderr, and a script may print its errors to stdout. Recognised: Python
/// tracebacks (every frame line and the exception line), `warnings.warn` lines and the source
/// line under them, logging's level prefixes (`WARNING:root:`), c10/glog prefixes (`[W1203`,
/// `E1203 21:52:05`), `Warning:` / `SomeWarning:` / `SomeError:` lines. torch's notes about the
/// machine ("No CUDA runtime is found", logged as a warning at every import on a machine
/// without a GPU, glog-prefixed or bare) are Info: not the script's problem, not the user's to
/// fix. Anything else is Plain. Not thread-safe; one per log.
class LogClassifier {
public:
    /// The severity of the next complete line (without its newline) on `stream` (1 stdout,
    /// 2 stderr). Stateful per stream: the lines of a traceback, and the source line under a
    /// Python warning, take the severity of the line that opened them.
    LogSeverity classify(int stream, const QString& line);
    /// Forgets open tracebacks and warnings (a new run).
    void reset();

private:
    struct State {
        bool traceback = false;                     ///< inside "Traceback (most recent call last):"
        LogSeverity indented = LogSeverity::Plain;  ///< what an indented next line continues
    };
    std::array<State, 3> m_state;
};

}  // namespace ps::ui
