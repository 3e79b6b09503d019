#include "ui/report/VerifyView.h"

#include "model/DriftStart.h"
#include "model/JsonFields.h"
#include "ui/common/QtText.h"
#include "ui/common/StatusStyle.h"
#include "ui/report/ColdStartBars.h"
#include "ui/report/CompileProfileBar.h"
#include "ui/run/RunDocument.h"

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QEvent>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QHorizontalBarSeries>
#include <QLabel>
#include <QResizeEvent>
#include <QSplitter>
#include <QTextDocument>
#include <QTreeWidget>
#include <QUrl>
#include <QVBoxLayout>
#include <QValueAxis>

#include <algorithm>

namespace ps::ui {

namespace {

using model::Judgement;
using model::Verification;
using Group = Verification::Group;

QString number(const std::optional<double>& v)
{
    return v ? QString::number(*v, 'g', 3) : QStringLiteral("—");
}

QString sci(const std::optional<double>& v)
{
    return v ? QString::number(*v, 'g', 2) : QStringLiteral("—");
}

QString pair(const std::optional<std::pair<std::string, std::string>>& p)
{
    if (!p)
        return {};
    return p->first == p->second ? q(p->first) : q(p->first) + " ≠ " + q(p->second);
}

/// 0.506 ms, 47.3 ms, 7.24 s
QString duration(double seconds)
{
    const double ms = seconds * 1000.0;
    return ms < 1000 ? QStringLiteral("%1 ms").arg(ms, 0, 'g', 3) : QStringLiteral("%1 s").arg(seconds, 0, 'f', 2);
}

/// Whether a group (outputs, grads, ...) matches by the one verdict: each value within the tight
/// tolerance or judged rounding against float64. "—" where the group is empty. Read from the
/// rows rather than from grads_match & co., so that runs stored before those fields followed the
/// verdict read the same.
QString groupVerdict(const Verification& v, Group group)
{
    const auto verdict = v.groupVerdict(group);
    if (!verdict)
        return QStringLiteral("—");
    if (*verdict == Judgement::Matches)
        return QStringLiteral("✓ yes");
    if (*verdict == Judgement::Drift)
        return QObject::tr("≈ numerics drift");
    return QStringLiteral("✗ no");
}

/// The one verdict of a verification (or of its runtime_inputs call), as the header and `run`
/// say it: the float64 judge's where it ran, else what the status says.
QString verdictWord(const std::optional<Judgement>& verdict, Verification::Status status)
{
    if (verdict == Judgement::None)
        return QObject::tr("no verdict (a mismatch)");
    return verdict ? StatusStyle::word(*verdict) : StatusStyle::word(status);
}

/// The tight comparison, as a detail under the verdict: "bit-for-bit", or how far outside the
/// dtype tolerance and what the judge made of it.
QString toleranceHtml(const Verification& v)
{
    if (!v.maxAbsDiff)
        return {};
    if (*v.maxAbsDiff == 0.0)
        return QObject::tr("<b>bit-for-bit</b>: yes");
    const bool within = v.withinTolerance.value_or(!(v.accuracy && v.accuracy->againstFloat64));
    QString html = QObject::tr("<b>bit-for-bit</b>: no, max |Δ| %1").arg(number(v.maxAbsDiff));
    // A relative Δ far over 100 % beside a verdict of matches alarms for nothing: it is taken at
    // elements near zero, where any Δ is a large ratio. Said so, after the judge's figures.
    if (v.verdict() == Judgement::Matches && v.maxRelDiff && *v.maxRelDiff >= 1.0)
        html += QObject::tr(", max rel Δ %1 at elements near zero, where a Δ that small is a large ratio "
                            "(the judge above weighs each element against float64)")
                    .arg(number(v.maxRelDiff));
    else
        html += QObject::tr(", max rel Δ %1").arg(number(v.maxRelDiff));
    if (within)
        html += QObject::tr(": within the dtype's tolerance");
    else if (v.verdict() == Judgement::Matches)
        html += QObject::tr(": outside the dtype's tight tolerance, rounding against float64");
    else
        html += QObject::tr(": outside the dtype's tight tolerance");
    return html;
}

/// A set of trials in one line: how each came out (a resized trial with its sizes), with the first
/// drifting, diverging or accepted trial's note.
QString trialsHtml(const QString& label, const std::optional<Verification::Trials>& set)
{
    if (!set)
        return {};
    if (!set->ran)
        return QObject::tr("<br><b>%1</b>: not run (%2)").arg(label, q(set->reason).toHtmlEscaped());
    using T = Verification::Trial::Status;
    QStringList trials;
    QString detail;
    for (const auto& t : set->trials) {
        QString one = q(t.kind).toHtmlEscaped() + " " + StatusStyle::word(t.status);
        if (!t.sizes.empty())
            one += " (" + q(t.sizes).toHtmlEscaped() + ")";
        trials << one;
        if (detail.isEmpty() && (t.status == T::Drift || t.status == T::Diverged || t.status == T::Accepted))
            detail = q(t.note).toHtmlEscaped();
    }
    QString html = QObject::tr("<br><b>%1</b>: %2").arg(label, trials.join(", "));
    if (!detail.isEmpty())
        html += " — " + detail;
    return html;
}

/// The accuracy judge's verdict with both errors against float64, and what verification
/// skipped to stay within its budget (the verify object's "accuracy" and "budget").
QString accuracyHtml(const Verification& v)
{
    QString html;
    if (v.accuracy) {
        const auto& a = *v.accuracy;
        html += QObject::tr("<br><b>accuracy</b>: %1").arg(StatusStyle::word(a.verdict));
        if (a.againstFloat64) {
            html += QObject::tr(" &nbsp; against float64: <b>artifact</b> %1, <b>eager</b> %2 (%3×)")
                        .arg(sci(a.artifactError), sci(a.eagerError), sci(a.ratio));
            QStringList worst;
            for (const auto& name : a.worst)
                worst << q(name).toHtmlEscaped();
            if (!worst.isEmpty())
                html += QObject::tr("<br><b>worst</b>: %1").arg(worst.join(", "));
        }
    }
    QStringList skipped;
    for (const auto& item : v.skippedChecks())
        skipped << q(item).toHtmlEscaped();
    if (!skipped.isEmpty())  // the window's own way to every check: its menu, then the flag
        html += QObject::tr("<br><b>skipped</b> to stay within the verification budget: %1 (Run &gt; Deep "
                            "Verification, or --deep-verify, for every check)")
                    .arg(skipped.join(", "));
    return html;
}

qreal rounded(qreal v)
{
    return QString::number(v, 'g', 3).toDouble();
}

QChartView* makeChart(const QString& title)
{
    auto* chart = new QChart;
    chart->setTitle(title);
    chart->legend()->hide();
    chart->setAnimationOptions(QChart::NoAnimation);
    chart->setMargins(QMargins(4, 4, 4, 4));
    auto* view = new QChartView(chart);
    view->setObjectName(QStringLiteral("verifyChart"));
    view->setRenderHint(QPainter::Antialiasing);
    view->setMinimumHeight(150);
    return view;
}

void fillChart(QChartView* view, const QStringList& names, const QList<qreal>& ms, const QPalette& pal)
{
    QChart* chart = view->chart();
    chart->removeAllSeries();
    for (auto* axis : chart->axes()) {
        chart->removeAxis(axis);
        delete axis;
    }
    const bool dark = pal.color(QPalette::Base).lightness() < 128;
    chart->setTheme(dark ? QChart::ChartThemeDark : QChart::ChartThemeLight);
    chart->setBackgroundBrush(pal.color(QPalette::Base));
    chart->setTitleBrush(pal.color(QPalette::Text));
    auto* set = new QBarSet(QString());
    for (qreal v : ms)
        set->append(rounded(v));
    set->setColor(pal.color(QPalette::Highlight));
    set->setLabelColor(pal.color(QPalette::Text));
    auto* series = new QHorizontalBarSeries;
    series->append(set);
    series->setLabelsVisible(true);
    series->setLabelsFormat(QStringLiteral("@value ms"));
    series->setLabelsPosition(QAbstractBarSeries::LabelsOutsideEnd);
    chart->addSeries(series);
    auto* names_ = new QBarCategoryAxis;
    names_->append(names);
    names_->setLabelsColor(pal.color(QPalette::Text));
    chart->addAxis(names_, Qt::AlignLeft);
    series->attachAxis(names_);
    auto* values = new QValueAxis;
    qreal top = 0;
    for (qreal v : ms)
        top = std::max(top, v);
    values->setRange(0, top > 0 ? top * 1.35 : 1);
    values->setTickCount(4);
    values->applyNiceNumbers();
    values->setLabelFormat(QStringLiteral("%g"));
    values->setLabelsColor(pal.color(QPalette::Text));
    values->setTitleText(QStringLiteral("ms"));
    values->setTitleBrush(pal.color(QPalette::Text));
    chart->addAxis(values, Qt::AlignBottom);
    series->attachAxis(values);
}

}  // namespace

VerifyView::VerifyView(QWidget* parent) : QWidget(parent)
{
    m_summary = new QLabel;
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_summary->setTextFormat(Qt::RichText);
    m_compileBar = new CompileProfileBar;
    m_coldStart = new ColdStartBars;
    m_rows = new QTreeWidget;
    m_rows->setRootIsDecorated(false);
    m_rows->setUniformRowHeights(true);
    m_rows->setHeaderLabels({tr("Compared"), tr("Name"), tr("Match"), tr("max |Δ|"), tr("rel Δ (RMS)"), tr("Sizes"),
        tr("Strides"), tr("Dtypes"), tr("Note")});
    m_rows->header()->setStretchLastSection(true);
    m_rows->setTextElideMode(Qt::ElideMiddle);
    m_loadChart = makeChart(tr("Load: with the cache / without (JIT)"));
    m_callChart = makeChart(tr("Call: artifact / eager fn"));
    auto* charts = new QWidget;
    auto* cl = new QHBoxLayout(charts);
    cl->setContentsMargins(0, 0, 0, 0);
    cl->addWidget(m_loadChart);
    cl->addWidget(m_callChart);
    auto* split = new QSplitter(Qt::Vertical);
    split->addWidget(m_rows);
    split->addWidget(charts);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->addWidget(m_summary);
    m_driftStarts = new QLabel;
    m_driftStarts->setObjectName("driftStarts");
    m_driftStarts->setWordWrap(true);
    m_driftStarts->setTextFormat(Qt::RichText);
    m_driftStarts->setTextInteractionFlags(Qt::LinksAccessibleByMouse | Qt::LinksAccessibleByKeyboard);
    m_driftStartsTip = tr("The first graph nodes where the artifact leaves eager's error band against a "
                          "float64 run of the captured graph: click one to show it in the graph");
    m_driftStarts->setToolTip(m_driftStartsTip);
    m_driftStarts->hide();
    connect(m_driftStarts, &QLabel::linkActivated, this, [this](const QString& link) {
        if (link.startsWith(QLatin1String("node:")))
            emit nodesActivated({QUrl::fromPercentEncoding(link.mid(5).toUtf8())});
        else if (link.startsWith(QLatin1String("repro:")))
            emit reproRequested(m_driftCapture, QUrl::fromPercentEncoding(link.mid(6).toUtf8()));
    });
    layout->addWidget(m_driftStarts);
    layout->addWidget(m_compileBar);
    layout->addWidget(m_coldStart);
    layout->addWidget(split, 1);
    clear(tr("No run yet."));
}

QString VerifyView::driftStartsText() const
{
    return m_driftStarts->text();
}

void VerifyView::setDriftStarts(const RunDocument& run, int capture, const model::Verification& v)
{
    m_driftStarts->clear();
    m_driftStarts->hide();
    if (!v.accuracy || v.accuracy->driftStarts.empty())
        return;
    const auto& json = run.report.captures[capture].json;
    // Named as everywhere else (model::DriftStart): the node computing the value, its module,
    // the elements it was read through in the link's tooltip.
    QStringList links, through, nodes;
    for (const auto& start : model::DriftStart::of(*v.accuracy, model::JsonFields::member(json, "graph"))) {
        const QString node = QString::fromStdString(start.node);
        nodes << node;
        links << QStringLiteral("<a href=\"node:%1\">%2</a>%3")
                     .arg(QString::fromUtf8(QUrl::toPercentEncoding(node)), node.toHtmlEscaped(),
                         start.module.empty()
                             ? QString()
                             : QStringLiteral(" (%1)").arg(QString::fromStdString(start.module).toHtmlEscaped()));
        QStringList via;
        for (const auto& e : start.via)
            via << QString::fromStdString(e);
        if (!via.isEmpty())
            through << tr("%1 is read through %2").arg(node, via.join(QStringLiteral(", ")));
    }
    m_driftStarts->setToolTip(plainTip(m_driftStartsTip + (through.isEmpty() ? QString() : "\n" + through.join('\n'))));
    const bool drift = v.accuracy->verdict == model::Judgement::Drift;
    m_driftCapture = QString::fromStdString(run.report.captures[capture].name);
    const QString first = nodes.value(0);
    m_driftStarts->setText((drift ? tr("Drift starts at %1") : tr("The difference starts at %1")).arg(links.join(", "))
        + QStringLiteral(" — <a href=\"repro:%1\">%2</a>")
              .arg(QString::fromUtf8(QUrl::toPercentEncoding(first)), tr("make a repro…")));
    m_driftStarts->show();
}

void VerifyView::clear(const QString& message)
{
    m_rows->clear();
    m_summary->setText(message.toHtmlEscaped());
    m_driftStarts->clear();
    m_driftStarts->hide();
    m_chartValues.clear();
    setCharts({});
    m_compileBar->setProfile(std::nullopt);
    m_coldStart->setLedger(std::nullopt);
}

int VerifyView::comparisonCount() const
{
    return m_rows->topLevelItemCount();
}

QString VerifyView::summaryText() const
{
    QTextDocument doc;
    doc.setHtml(m_summary->text());
    return doc.toPlainText();
}

void VerifyView::changeEvent(QEvent* event)
{
    QWidget::changeEvent(event);
    if ((event->type() == QEvent::EnabledChange || event->type() == QEvent::PaletteChange) && !m_timings.empty())
        setCharts(std::map<std::string, double>(m_timings));
}

void VerifyView::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    placeCharts();
}

void VerifyView::placeCharts()
{
    // The charts say again what the summary's Timings line says: where the tab is short (a
    // 1280x800 window), they would leave the compared values three or four rows, so they go.
    const bool shown = !m_chartValues.empty() && height() >= kChartsMinHeight;
    m_loadChart->setVisible(shown);
    m_callChart->setVisible(shown);
}

void VerifyView::setCharts(const std::map<std::string, double>& t)
{
    m_timings = t;
    auto ms = [&](const char* key) {
        auto it = t.find(key);
        return it == t.end() ? 0.0 : it->second * 1000.0;
    };
    m_chartValues.clear();
    for (const char* key : {"load", "load_no_cache", "call", "call_eager"})
        if (t.count(key))
            m_chartValues[key] = ms(key);
    placeCharts();
    if (m_chartValues.empty())
        return;
    // The colours of the widget's state: greyed like the rows when disabled.
    QPalette pal = palette();
    pal.setCurrentColorGroup(isEnabled() ? QPalette::Active : QPalette::Disabled);
    // The load without cache runs only with --deep-verify: without it, one bar.
    if (t.count("load_no_cache"))
        fillChart(m_loadChart, {tr("no cache"), tr("cache")}, {ms("load_no_cache"), ms("load")}, pal);
    else
        fillChart(m_loadChart, {tr("cache")}, {ms("load")}, pal);
    fillChart(m_callChart, {tr("eager"), tr("artifact")}, {ms("call_eager"), ms("call")}, pal);
}

void VerifyView::setCapture(const std::shared_ptr<const RunDocument>& run, int capture)
{
    if (!run || capture < 0 || capture >= static_cast<int>(run->report.captures.size())) {
        clear(run ? tr("This run has no capture to verify.") : tr("No run yet."));
        return;
    }
    const auto& c = run->report.captures[capture];
    if (!c.verify) {
        clear(c.status == model::CaptureStatus::Ok
                ? tr("The report holds no verification.")
                : tr("Not verified: the capture ended in a %1, so there is no artifact to load.")
                      .arg(StatusStyle::word(c.status)));
        m_compileBar->setProfile(c.compileProfile);  // how long precompile took, verified or not
        m_coldStart->setLedger(c.coldStart);
        return;
    }
    m_rows->clear();
    const Verification& v = *c.verify;
    m_summary->setText(summaryHtml(v) + timingsHtml(c.timings));
    setDriftStarts(*run, capture, v);
    // Each compared value, with the accuracy judge's verdict and figures where it was outside tolerance.
    const std::pair<Group, QString> groups[]
        = {{Group::Outputs, tr("output")}, {Group::Grads, tr("gradient")}, {Group::Buffers, tr("buffer")},
            {Group::Parameters, tr("parameter")}, {Group::Inputs, tr("input")}, {Group::Runtime, tr("runtime_inputs")}};
    for (const auto& [group, label] : groups)
        for (const Verification::Comparison* e : v.group(group))
            addRow(v, *e, label);
    for (int col = 0; col < 8; ++col)
        m_rows->resizeColumnToContents(col);
    // A long name (model.layer4.1.bn2.weight) never pushes the figures and the note out of view.
    const int nameWidth = std::max(kNameMinWidth, m_rows->viewport()->width() / 4);
    if (m_rows->columnWidth(1) > nameWidth)
        m_rows->setColumnWidth(1, nameWidth);
    setCharts(c.timings);
    m_compileBar->setProfile(c.compileProfile);
    m_coldStart->setLedger(c.coldStart);
}

QString VerifyView::summaryHtml(const Verification& v) const
{
    if (!v.ran)
        return tr("<b>Not verified</b>: %1").arg(q(v.reason).toHtmlEscaped());
    // One verdict: the groups say what the judge says; the tight comparison is a detail.
    QString html = tr("<b>Verdict</b>: %1 &nbsp; <b>outputs</b>: %2 &nbsp; <b>gradients</b>: %3 &nbsp; "
                      "<b>buffers</b>: %4 &nbsp; <b>inputs</b>: %5 &nbsp; <b>calls compared</b>: %6")
                       .arg(verdictWord(v.verdict(), v.status).toHtmlEscaped(), groupVerdict(v, Group::Outputs),
                           groupVerdict(v, Group::Grads), groupVerdict(v, Group::Buffers),
                           groupVerdict(v, Group::Inputs), v.calls ? QString::number(*v.calls) : QString());
    // The judge's figures first; the tight comparison after them, as a detail.
    html += accuracyHtml(v);
    if (const QString tol = toleranceHtml(v); !tol.isEmpty())
        html += "<br>" + tol;
    if (const auto& rt = v.runtime) {
        QString matches;
        if (rt->accuracy)
            matches = verdictWord(rt->accuracy->verdict, rt->status).toHtmlEscaped();
        else
            matches = !rt->matchesEager ? QStringLiteral("—")
                : *rt->matchesEager     ? QStringLiteral("✓ yes")
                                        : QStringLiteral("✗ no");
        html += tr("<br><b>runtime_inputs</b>: %1, matches eager: %2").arg(StatusStyle::word(rt->status), matches);
    }
    return html + trialsHtml(tr("perturbed inputs"), v.perturbed)
        + trialsHtml(tr("marked dims at other sizes"), v.resized);
}

QString VerifyView::timingsHtml(const std::map<std::string, double>& timings) const
{
    QStringList times;
    for (const auto& [key, label] : std::vector<std::pair<std::string, QString>>{{"script", tr("script")},
             {"precompile", tr("precompile")}, {"load", tr("load")}, {"load_no_cache", tr("load without cache")},
             {"call", tr("call")}, {"call_eager", tr("eager call")}, {"verify", tr("verify")}})
        if (auto t = timings.find(key); t != timings.end())
            times << label + " " + duration(t->second);
    return times.isEmpty() ? QString() : "<br><b>" + tr("Timings") + "</b>: " + times.join(" · ");
}

void VerifyView::addRow(const Verification& v, const Verification::Comparison& e, const QString& label)
{
    auto* item = new QTreeWidgetItem(m_rows);
    item->setText(0, label);
    item->setText(1, q(e.name));
    item->setToolTip(1, plainTip(q(e.name)));  // cut in the middle where the column is narrower
    // The Match column says the verdict: within tolerance ✓, rounding against float64 ≈,
    // numerics drift ~ (amber); only wrong or unjudged is a red ✗.
    const Verification::JudgedValue* judged = v.judgedValue(e.group, e.name);
    const std::optional<Judgement> judgedAs
        = e.ok || !judged ? std::nullopt : std::optional<Judgement>(judged->verdict);
    if (e.ok) {
        item->setText(2, QStringLiteral("✓"));
        item->setForeground(2, QColor(40, 150, 60));
    } else if (judgedAs == Judgement::Matches) {
        item->setText(2, tr("≈ rounding"));
        item->setForeground(2, QColor(40, 150, 60));
    } else if (judgedAs == Judgement::Drift) {
        item->setText(2, tr("~ drift"));
        item->setForeground(2, QColor(200, 130, 20));
    } else {
        item->setText(2, QStringLiteral("✗"));
        item->setForeground(2, QColor(200, 40, 30));
    }
    item->setText(3, number(e.maxAbsDiff));
    item->setText(4, number(e.rmsRelDiff));
    item->setText(5, pair(e.sizes));
    item->setText(6, pair(e.strides));
    item->setText(7, pair(e.dtypes));
    QString note = q(e.note);
    if (note.isEmpty() && e.values)
        note = pair(e.values);
    // "mismatched" is absent where sizes or dtypes differ: only a count is a count.
    if (e.mismatched && *e.mismatched > 0)
        note = tr("%1 element(s) outside tolerance").arg(*e.mismatched) + (note.isEmpty() ? "" : "; " + note);
    if (judged) {
        const QString verdict
            = e.ok || judged->verdict == Judgement::None ? tr("no verdict") : StatusStyle::word(judged->verdict);
        note += (note.isEmpty() ? "" : "; ")
            + tr("%1; against float64: artifact %2, eager %3")
                  .arg(verdict, sci(judged->artifactError), sci(judged->eagerError));
    }
    item->setText(8, note);
}

}  // namespace ps::ui
