#pragma once

#include <QWidget>

#include <memory>
#include <vector>

class QComboBox;
class QLabel;
class QTabWidget;

namespace ps::graph {
class GraphModel;
}

namespace ps::ui {

class CacheView;
class GraphView;
class ReportHeader;
class SourceView;
class VerifyView;
class ViolationsView;
struct RunDocument;

/// The right-hand side of the window: which run and capture is shown (ReportHeader: script,
/// run, what ran, verdict, progress, staleness), and the tabs Graph, Source, Violations, Cache
/// and Verify, each title carrying its count.
class ReportView : public QWidget {
    Q_OBJECT
public:
    enum Tab { GraphTab, SourceTab, ViolationsTab, CacheTab, VerifyTab };

    explicit ReportView(QWidget* parent = nullptr);

    void showRun(const std::shared_ptr<const RunDocument>& run);
    void clear();
    /// A run of `scriptPath` has started: every pane is cleared (nothing of an earlier run stays
    /// up) and the header shows its progress.
    void beginRun(const QString& scriptPath);
    /// See ReportHeader::setProgress.
    void setProgress(const QString& stage, const QString& capture, int step, int steps, double seconds);
    /// "" : what is shown is current. Else the header's banner says `reason`; `greyPanes` also
    /// greys every pane (disabled: another script's report), else they stay usable.
    void setStale(const QString& reason, bool greyPanes);
    QString staleReason() const { return m_staleReason; }
    bool panesGreyed() const { return m_panesGreyed; }
    ReportHeader* header() const { return m_header; }
    const std::shared_ptr<const RunDocument>& run() const { return m_run; }
    int currentCapture() const { return m_capture; }
    void setCurrentCapture(int capture);
    /// The graph of the capture shown (built from the report on first use).
    std::shared_ptr<const graph::GraphModel> currentGraph() const;

    QTabWidget* tabs() const { return m_tabs; }
    QString tabText(Tab tab) const;
    /// The verdict line ("ok 1 capture ..."), plain text.
    QString summary() const;
    /// The line naming the script, the run and what ran, plain text.
    QString identity() const;
    GraphView* graphView() const { return m_graph; }
    SourceView* sourceView() const { return m_source; }
    ViolationsView* violationsView() const { return m_violations; }
    CacheView* cacheView() const { return m_cache; }
    VerifyView* verifyView() const { return m_verify; }

signals:
    void captureChanged(int capture);

private:
    void updateTitles();
    void clearPanes(const QString& why);

    std::shared_ptr<const RunDocument> m_run;
    mutable std::vector<std::shared_ptr<const graph::GraphModel>> m_graphs;
    int m_capture = -1;
    ReportHeader* m_header;
    QString m_staleReason;
    bool m_panesGreyed = false;
    QComboBox* m_captures;
    QLabel* m_capturesLabel;
    QTabWidget* m_tabs;
    GraphView* m_graph;
    SourceView* m_source;
    ViolationsView* m_violations;
    CacheView* m_cache;
    VerifyView* m_verify;
};

}  // namespace ps::ui
