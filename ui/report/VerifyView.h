#pragma once

#include "model/Verification.h"

#include <QWidget>

#include <map>
#include <memory>
#include <string>

class QChartView;
class QLabel;
class QResizeEvent;
class QTreeWidget;

namespace ps::ui {

class ColdStartBars;
class CompileProfileBar;
struct RunDocument;

/// The Verify tab: what loading the artifact in the worker and calling it beside eager fn
/// found (outputs, gradients, buffers, parameters, mutated inputs, runtime_inputs), and two
/// small charts: load with the cache against load without it (JIT), and a call of the artifact
/// against a call of eager fn. Under the summary, where the precompile time went
/// (CompileProfileBar), verified or not, and the cold-start ledger where it was measured
/// (ColdStartBars). Where a drift starts (accuracy.drift_starts), each node a
/// link that selects it in the graph.
class VerifyView : public QWidget {
    Q_OBJECT
public:
    explicit VerifyView(QWidget* parent = nullptr);

    void setCapture(const std::shared_ptr<const RunDocument>& run, int capture);
    void clear(const QString& message);
    /// Rows compared (outputs, grads, buffers, parameters, inputs, runtime outputs).
    int comparisonCount() const;
    QString summaryText() const;
    /// The bars the charts show, in milliseconds, by name ("load", "load_no_cache", ...).
    const std::map<std::string, double>& chartValues() const { return m_chartValues; }
    const CompileProfileBar* compileBar() const { return m_compileBar; }
    /// The cold-start ledger (Run > Measure Cold Start), hidden when not measured.
    const ColdStartBars* coldStartBars() const { return m_coldStart; }
    /// "Drift starts at" with each node of accuracy.drift_starts as a link (empty when none).
    QString driftStartsText() const;

signals:
    /// A drift start was clicked: show that node in the graph, centred (CrossSelection).
    void nodesActivated(const QStringList& names);
    /// "make a repro…" beside where the drift starts: the smallest script reproducing capture
    /// `capture`'s drift from `node` (Make Repro…).
    void reproRequested(const QString& capture, const QString& node);

protected:
    /// Disabled (a report of another script, under its FadeOverlay) or given another palette:
    /// the charts are drawn again in the palette's colours for that state, greyed as the rows
    /// beside them are (a chart's colours are its own, set when it is filled, not the widget's).
    void changeEvent(QEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    static constexpr int kChartsMinHeight = 600;
    static constexpr int kNameMinWidth = 160;  ///< the compared value's name column, cut in the middle  ///< a shorter
                                               ///< tab shows the compared values, not the charts
    void placeCharts();
    /// Fills the charts from a capture's timings (seconds by name), in the colours of the
    /// widget's state (enabled or disabled).
    void setCharts(const std::map<std::string, double>& timings);
    QString summaryHtml(const model::Verification& v) const;
    QString timingsHtml(const std::map<std::string, double>& timings) const;
    void addRow(const model::Verification& v, const model::Verification::Comparison& e, const QString& label);

    /// The drift-start line: each node a link, with its module where the run's graph has it.
    void setDriftStarts(const RunDocument& run, int capture, const model::Verification& v);

    QLabel* m_summary;
    QLabel* m_driftStarts;
    QString m_driftStartsTip;
    QString m_driftCapture;  ///< the capture whose drift starts are shown
    CompileProfileBar* m_compileBar;
    ColdStartBars* m_coldStart;
    QTreeWidget* m_rows;
    QChartView* m_loadChart;
    QChartView* m_callChart;
    std::map<std::string, double> m_chartValues;
    std::map<std::string, double> m_timings;  ///< what the charts were filled from
};

}  // namespace ps::ui
