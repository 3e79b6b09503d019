#pragma once

#include <QWidget>

class QLabel;
class QProgressBar;

namespace ps::ui {

struct RunDocument;

/// The top of the report: which script and run it shows and what actually ran (the backends
/// and tracers each capture reports, not what the Backend box asked for), the verdict, a
/// progress row while a run is going (stage, step k of n, seconds) and a banner when what is
/// shown no longer matches the editor (another script, an edited script, a cancelled run).
class ReportHeader : public QWidget {
    Q_OBJECT
public:
    explicit ReportHeader(QWidget* parent = nullptr);

    /// Nothing shown: `hint` says how to get a report.
    void showEmpty(const QString& hint);
    void showRun(const RunDocument& run);
    /// A run of `scriptPath` has started: the identity line names it, the progress row shows.
    void showRunning(const QString& scriptPath);
    /// `step` of `steps` (1-based), the stage in words, the capture ("" for none), seconds so far.
    void setProgress(const QString& stage, const QString& capture, int step, int steps, double seconds);
    void hideProgress();
    /// "" : the report is current. Else the banner says `reason` and the verdict is greyed.
    void setStale(const QString& reason);

    /// The lines as plain text (tests and the status bar read them).
    QString identityText() const;
    QString verdictText() const;
    /// The small line under the identity: time, trust, storage, and the host it ran on.
    QString factsText() const { return m_factsPlain; }
    QString progressText() const;
    QString staleText() const;
    bool progressShown() const;
    int progressValue() const;
    int progressMaximum() const;

    /// "NAME.py · run #12 · 3 Dec 2026 21:52 · ran inductor / make_fx": the identity line of a run.
    static QString identity(const RunDocument& run);
    /// The distinct backend / tracer pairs the report's captures say they used.
    static QString ranWith(const RunDocument& run);

private:
    QLabel* m_identity;
    QLabel* m_verdict;
    QLabel* m_facts;
    QWidget* m_progressRow;
    QLabel* m_progressText;
    QProgressBar* m_progress;
    QLabel* m_stale;
    QString m_verdictHtml;  ///< the verdict line in its status colour (greyed while stale)
    QString m_verdictPlain;
    QString m_factsPlain;
};

}  // namespace ps::ui
