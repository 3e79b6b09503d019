// The log colours a line by what it says: torch's warnings (on stderr) amber, tracebacks and
// errors red, plain stderr in the ordinary colour.
#include "ui/run/LogView.h"
#include "ui/run/LogClassifier.h"

#include <QTextBlock>

#include <gtest/gtest.h>

using ps::ui::LogClassifier;
using ps::ui::LogSeverity;

namespace {

constexpr int kStdout = 1, kStderr = 2;

/// What torch 2.14 writes when torch.utils.cpp_extension is imported on a machine with a
/// CUDA_HOME but no CUDA runtime (torch._logging's format), and the same logger.warning as
/// Python's last-resort handler prints it where no logging is configured (the message alone).
const QString kCudaLine
    = QStringLiteral("W1203 21:53:49.774000 23823 torch/utils/cpp_extension.py:183] No CUDA runtime is found, using "
                     "CUDA_HOME='/usr/local'");
const QString kCudaBare = QStringLiteral("No CUDA runtime is found, using CUDA_HOME='/usr/local/cuda'");

TEST(UiLogClassifier, TorchsCudaNoticeIsInformationNotAWarning)
{
    LogClassifier c;
    EXPECT_EQ(c.classify(kStderr, kCudaLine), LogSeverity::Info);
    EXPECT_EQ(c.classify(kStderr, kCudaBare), LogSeverity::Info);
}

TEST(UiLogClassifier, JudgesByWordsNotByStream)
{
    LogClassifier c;
    EXPECT_EQ(c.classify(kStderr, "epoch 1: loss 0.25"), LogSeverity::Plain);
    EXPECT_EQ(c.classify(kStdout, "RuntimeError: shapes do not match"), LogSeverity::Error);
    EXPECT_EQ(c.classify(kStdout, "WARNING:root:deprecated option"), LogSeverity::Warning);
    EXPECT_EQ(c.classify(kStderr, "ERROR: the cache is damaged"), LogSeverity::Error);
    EXPECT_EQ(c.classify(kStderr, "INFO:torch._dynamo:compiling fn"), LogSeverity::Info);
    EXPECT_EQ(
        c.classify(kStderr, "[W1203 21:52:05.123456 ProcessGroup.cpp:42] Warning: slow path"), LogSeverity::Warning);
    EXPECT_EQ(c.classify(kStderr, "E1203 21:52:05.123000 4242 torch/_inductor/x.py:1] failed"), LogSeverity::Error);
    EXPECT_EQ(c.classify(kStderr, "I1203 21:52:05.123000 4242 torch/_dynamo/x.py:1] step"), LogSeverity::Info);
    EXPECT_EQ(c.classify(kStderr, "FutureWarning: `x` is deprecated"), LogSeverity::Warning);
    EXPECT_EQ(c.classify(kStdout, "no errors found"), LogSeverity::Plain);
}

TEST(UiLogClassifier, ATracebackIsAnErrorToItsExceptionLine)
{
    LogClassifier c;
    const QStringList traceback = {"Traceback (most recent call last):", "  File \"/s.py\", line 3, in <module>",
        "    fn()", "    ~~^^", "ValueError: bad input"};
    for (const QString& line : traceback)
        EXPECT_EQ(c.classify(kStderr, line), LogSeverity::Error) << line.toStdString();
    EXPECT_EQ(c.classify(kStderr, "done"), LogSeverity::Plain);
    // Streams are apart: a traceback open on stderr does not colour stdout.
    c.classify(kStderr, "Traceback (most recent call last):");
    EXPECT_EQ(c.classify(kStdout, "  indented output"), LogSeverity::Plain);
    c.reset();
    EXPECT_EQ(c.classify(kStderr, "  indented after a reset"), LogSeverity::Plain);
}

TEST(UiLogClassifier, APythonWarningAndItsSourceLine)
{
    LogClassifier c;
    EXPECT_EQ(c.classify(kStderr, "/home/u/s.py:12: UserWarning: x is deprecated"), LogSeverity::Warning);
    EXPECT_EQ(c.classify(kStderr, "  warnings.warn(\"x is deprecated\")"), LogSeverity::Warning);
    EXPECT_EQ(c.classify(kStderr, "  an indented line after it"), LogSeverity::Plain);
}

/// The foreground of the first line holding `text`; invalid if the line has none of its own.
QColor colorOf(const ps::ui::LogView& log, const QString& text)
{
    for (QTextBlock b = log.document()->begin(); b.isValid(); b = b.next())
        if (b.text().contains(text)) {
            const QTextCharFormat f = b.begin().fragment().charFormat();
            return f.hasProperty(QTextFormat::ForegroundBrush) ? f.foreground().color() : QColor();
        }
    ADD_FAILURE() << "no line holds " << text.toStdString();
    return {};
}

TEST(UiLogView, TheCudaNoteIsInformationAndATracebackRedWhateverTheStream)
{
    ps::ui::LogView log;
    log.beginRun("s.py");
    log.appendOutput(kStderr, kCudaLine + "\n");
    log.appendOutput(kStderr, "epoch 1: loss 0.25\n");
    // A traceback split across two batches of output, mid-word.
    log.appendOutput(kStderr, "Trace");
    log.appendOutput(kStderr, "back (most recent call last):\n  File \"/s.py\", line 3\nValueError: bad\n");
    log.appendOutput(kStdout, "WARNING: printed by the script\n");

    const QColor warning = log.severityColor(LogSeverity::Warning);
    const QColor error = log.severityColor(LogSeverity::Error);
    const QColor info = log.severityColor(LogSeverity::Info);
    ASSERT_NE(warning, error);
    ASSERT_NE(info, warning);
    // torch's note about a machine without a GPU is not the user's problem: not amber.
    EXPECT_EQ(colorOf(log, "No CUDA runtime"), info);
    EXPECT_FALSE(colorOf(log, "epoch 1").isValid()) << "plain stderr is tinted";
    EXPECT_EQ(colorOf(log, "Traceback (most recent"), error) << "the line's first half keeps its first colour";
    EXPECT_EQ(colorOf(log, "File \"/s.py\""), error);
    EXPECT_EQ(colorOf(log, "ValueError: bad"), error);
    EXPECT_EQ(colorOf(log, "printed by the script"), warning);
}

}  // namespace
