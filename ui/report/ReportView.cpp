#include "ui/report/ReportView.h"

#include "graph/GraphModel.h"
#include "ui/common/FadeOverlay.h"
#include "ui/common/StatusStyle.h"
#include "ui/graph/GraphView.h"
#include "ui/report/CacheView.h"
#include "ui/report/ReportHeader.h"
#include "ui/report/SourceView.h"
#include "ui/report/VerifyView.h"
#include "ui/report/ViolationsView.h"
#include "ui/run/RunDocument.h"

#include <QComboBox>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QTabWidget>
#include <QVBoxLayout>

namespace ps::ui {

ReportView::ReportView(QWidget* parent) : QWidget(parent)
{
    m_header = new ReportHeader;
    m_capturesLabel = new QLabel(tr("Capture:"));
    m_captures = new QComboBox;
    m_captures->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    connect(m_captures, &QComboBox::currentIndexChanged, this, &ReportView::setCurrentCapture);

    m_graph = new GraphView;
    m_source = new SourceView;
    m_violations = new ViolationsView;
    m_cache = new CacheView;
    m_verify = new VerifyView;
    m_tabs = new QTabWidget;
    m_tabs->setDocumentMode(true);
    m_tabs->addTab(m_graph, QString());
    m_tabs->addTab(m_source, QString());
    m_tabs->addTab(m_violations, QString());
    m_tabs->addTab(m_cache, QString());
    m_tabs->addTab(m_verify, QString());

    auto* top = new QHBoxLayout;
    top->setContentsMargins(6, 4, 6, 0);
    top->addWidget(m_header, 1);
    top->addWidget(m_capturesLabel, 0, Qt::AlignTop);
    top->addWidget(m_captures, 0, Qt::AlignTop);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addLayout(top);
    layout->addWidget(m_tabs, 1);
    clear();
}

void ReportView::clear()
{
    m_run.reset();
    m_graphs.clear();
    m_capture = -1;
    {
        const QSignalBlocker block(m_captures);
        m_captures->clear();
    }
    m_captures->hide();
    m_capturesLabel->hide();
    m_header->showEmpty(tr("No run shown. Run the script with <b>Ctrl+R</b>, or open a past run from the library."));
    clearPanes(tr("No run yet."));
    m_graph->clear(tr("Run a script (Ctrl+R) or open a run from the library to see its graph."));
    setStale(QString(), false);
    updateTitles();
}

void ReportView::clearPanes(const QString& why)
{
    m_graph->clear(why);
    m_source->clear(why);
    m_violations->clear();
    m_cache->clear(why);
    m_verify->clear(why);
}

void ReportView::beginRun(const QString& scriptPath)
{
    clear();
    m_header->showRunning(scriptPath);
    const QString why = tr("Running %1: its results appear here when it ends.").arg(QFileInfo(scriptPath).fileName());
    clearPanes(why);
    updateTitles();
}

void ReportView::setProgress(const QString& stage, const QString& capture, int step, int steps, double seconds)
{
    m_header->setProgress(stage, capture, step, steps, seconds);
}

void ReportView::setStale(const QString& reason, bool greyPanes)
{
    m_staleReason = reason;
    m_panesGreyed = !reason.isEmpty() && greyPanes;
    m_header->setStale(reason);
    for (int i = 0; i < m_tabs->count(); ++i) {
        QWidget* pane = m_tabs->widget(i);
        if (pane->isEnabled() == !m_panesGreyed)
            continue;
        pane->setEnabled(!m_panesGreyed);
        // Disabled widgets grey their text, not a graph's coloured boxes: faded, all of it is.
        if (m_panesGreyed)
            new FadeOverlay(pane);
        else
            delete pane->findChild<FadeOverlay*>(QString(), Qt::FindDirectChildrenOnly);
    }
    m_captures->setEnabled(!m_panesGreyed);
}

void ReportView::showRun(const std::shared_ptr<const RunDocument>& run)
{
    if (!run) {
        clear();
        return;
    }
    m_run = run;
    m_graphs.assign(run->report.captures.size(), nullptr);
    const auto& r = run->report;
    m_header->showRun(*run);
    setStale(QString(), false);
    m_violations->setRun(run);
    {
        const QSignalBlocker block(m_captures);
        m_captures->clear();
        for (const auto& c : r.captures)
            m_captures->addItem(QStringLiteral("%1 — %2 · %3/%4")
                                    .arg(QString::fromStdString(c.name), StatusStyle::word(c.status),
                                        QString::fromStdString(c.backend), QString::fromStdString(c.tracer)));
    }
    m_captures->setVisible(r.captures.size() > 1);
    m_capturesLabel->setVisible(r.captures.size() > 1);
    m_capture = -2;  // force the views to refresh
    setCurrentCapture(r.captures.empty() ? -1 : 0);
}

void ReportView::setCurrentCapture(int capture)
{
    if (capture == m_capture)
        return;
    m_capture = capture;
    if (m_captures->currentIndex() != capture && capture >= 0) {
        const QSignalBlocker block(m_captures);
        m_captures->setCurrentIndex(capture);
    }
    if (!m_run || capture < 0) {
        const QString why
            = m_run ? tr("No capture: %1").arg(QString::fromStdString(m_run->report.message)) : tr("No run yet.");
        m_graph->clear(why);
        m_source->clear(why);
        m_cache->clear(why);
        m_verify->clear(why);
    } else {
        m_graph->setGraph(currentGraph(), &m_run->report.captures[capture]);
        m_source->setCapture(m_run, capture);
        m_cache->setCapture(m_run, capture);
        m_verify->setCapture(m_run, capture);
    }
    updateTitles();
    emit captureChanged(capture);
}

std::shared_ptr<const graph::GraphModel> ReportView::currentGraph() const
{
    if (!m_run || m_capture < 0 || m_capture >= static_cast<int>(m_graphs.size()))
        return nullptr;
    auto& g = m_graphs[m_capture];
    if (!g) {
        const auto& json = m_run->report.captures[m_capture].json;
        auto it = json.find("graph");
        auto lowering = json.find("lowering");
        g = std::make_shared<const graph::GraphModel>(graph::GraphModel::fromJson(
            it != json.end() ? *it : nlohmann::json(), lowering != json.end() ? *lowering : nlohmann::json()));
    }
    return g;
}

void ReportView::updateTitles()
{
    const bool any = m_run && m_capture >= 0;
    auto title = [](const QString& name, int n, bool show) {
        return show ? QStringLiteral("%1 (%2)").arg(name).arg(n) : name;
    };
    const auto graph = currentGraph();
    m_tabs->setTabText(GraphTab, title(tr("Graph"), graph ? static_cast<int>(graph->nodes().size()) : 0, any && graph));
    m_tabs->setTabText(SourceTab, title(tr("Source"), m_source->sectionCount() + m_source->kernelCount(), any));
    // The list's own words ("1 error", "2 violations, 1 warning"), so title and list agree.
    const QString counts = m_violations->countsText();
    m_tabs->setTabText(ViolationsTab,
        !m_run                 ? tr("Violations")
            : counts.isEmpty() ? tr("Violations (0)")
                               : tr("Violations (%1)").arg(counts));
    m_tabs->setTabText(CacheTab, title(tr("Cache"), m_cache->entryCount(), any));
    m_tabs->setTabText(VerifyTab, title(tr("Verify"), m_verify->comparisonCount(), any));
    m_tabs->setTabToolTip(SourceTab, tr("python_code: sections and kernels"));
    m_tabs->setTabToolTip(CacheTab, tr("the cache: artifact bundle entries"));
    m_tabs->setTabToolTip(VerifyTab, tr("values compared between the artifact and eager fn"));
}

QString ReportView::tabText(Tab tab) const
{
    return m_tabs->tabText(tab);
}

QString ReportView::summary() const
{
    return m_header->verdictText();
}

QString ReportView::identity() const
{
    return m_header->identityText();
}

}  // namespace ps::ui
