#pragma once

#include "ui/run/LogClassifier.h"

#include <QPlainTextEdit>

#include <array>

namespace ps::ui {

/// The log dock: the script's output, worker events and run markers. Each line of output is
/// coloured by its severity as LogClassifier judges it from its words (torch's warnings amber,
/// tracebacks and errors red, whichever stream they came on). Bounded: at most kMaxBlocks
/// lines are kept, and each run shows at most kMaxRunChars characters of output (the rest is
/// counted), whatever a script prints.
class LogView : public QPlainTextEdit {
    Q_OBJECT
public:
    static constexpr int kMaxBlocks = 20000;
    static constexpr qint64 kMaxRunChars = 2 * 1024 * 1024;

    explicit LogView(QWidget* parent = nullptr);

    /// A line that starts a run's section of the log.
    void beginRun(const QString& title);
    void appendOutput(int stream, const QString& text);
    /// A line of the studio's own (worker events, run outcomes), set apart from output.
    void appendNote(const QString& text);
    qint64 runChars() const { return m_runChars; }

    /// The colour lines of this severity are written in (invalid: the palette's text colour).
    QColor severityColor(LogSeverity severity) const;

private:
    void insert(const QString& text, const QColor& color, bool bold);

    LogClassifier m_classifier;
    std::array<QString, 3> m_openLine;  ///< per stream: the part of a line not ended yet
    int m_tailStream = 0;               ///< the stream whose open line ends the document, or 0
    qsizetype m_tailChars = 0;          ///< how much of that line is shown
    qint64 m_runChars = 0;
    qint64 m_droppedChars = 0;
};

}  // namespace ps::ui
