#include "ui/report/VerifyView.h"

#include "ui/common/StatusStyle.h"
#include "ui/run/RunDocument.h"

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QHorizontalBarSeries>
#include <QLabel>
#include <QSplitter>
#include <QTextDocument>
#include <QTreeWidget>
#include <QVBoxLayout>
#include <QValueAxis>

namespace ps::ui {

namespace {

QString str(const nlohmann::json& j, const char* key)
{
    auto it = j.find(key);
    if (it == j.end() || it->is_null())
        return {};
    return it->is_string() ? QString::fromStdString(it->get<std::string>()) : QString::fromStdString(it->dump());
}

QString yesNo(const nlohmann::json& j, const char* key)
{
    auto it = j.find(key);
    if (it == j.end() || !it->is_boolean())
        return QStringLiteral("—");
    return it->get<bool>() ? QStringLiteral("✓ yes") : QStringLiteral("✗ no");
}

QString number(const nlohmann::json& j, const char* key)
{
    auto it = j.find(key);
    if (it == j.end() || !it->is_number())
        return QStringLiteral("—");
    return QString::number(it->get<double>(), 'g', 3);
}

QString plain(const nlohmann::json& v)
{
    if (v.is_null())
        return QStringLiteral("—");
    return v.is_string() ? QString::fromStdString(v.get<std::string>()) : QString::fromStdString(v.dump());
}

QString pair(const nlohmann::json& j, const char* key)
{
    auto it = j.find(key);
    if (it == j.end() || !it->is_array() || it->size() != 2)
        return {};
    const QString a = plain((*it)[0]), b = plain((*it)[1]);
    return a == b ? a : a + " ≠ " + b;
}

/// 0.506 ms, 47.3 ms, 7.24 s
QString duration(double seconds)
{
    const double ms = seconds * 1000.0;
    return ms < 1000 ? QStringLiteral("%1 ms").arg(ms, 0, 'g', 3) : QStringLiteral("%1 s").arg(seconds, 0, 'f', 2);
}

QString sci(const nlohmann::json& j, const char* key)
{
    auto it = j.find(key);
    if (it == j.end() || !it->is_number())
        return QStringLiteral("—");
    return QString::number(it->get<double>(), 'g', 2);
}

/// The values the float64 judge decided, by "kind/name" (accuracy.tensors); runtime_inputs'
/// outputs, which have a judge of their own, as "runtime/name".
using JudgedValues = std::map<std::string, const nlohmann::json*>;

void addJudged(JudgedValues& out, const nlohmann::json& v, const std::string& prefix)
{
    auto a = v.find("accuracy");
    if (a == v.end() || !a->is_object())
        return;
    auto ts = a->find("tensors");
    if (ts == a->end() || !ts->is_array())
        return;
    for (const auto& t : *ts) {
        if (!t.is_object())
            continue;
        const std::string kind = t.value("kind", std::string());
        if (prefix.empty())
            out[kind + "/" + t.value("name", std::string())] = &t;
        else if (kind == "outputs")
            out[prefix + "/" + t.value("name", std::string())] = &t;
    }
}

JudgedValues judgedValues(const nlohmann::json& v)
{
    JudgedValues out;
    addJudged(out, v, {});
    if (auto rt = v.find("runtime"); rt != v.end() && rt->is_object())
        addJudged(out, *rt, "runtime");
    return out;
}

/// matches, drift, wrong, or "" (no verdict, or not judged).
std::string verdictOf(const JudgedValues& judged, const std::string& key)
{
    auto j = judged.find(key);
    if (j == judged.end())
        return {};
    auto verdict = j->second->find("verdict");
    return verdict != j->second->end() && verdict->is_string() ? verdict->get<std::string>() : std::string();
}

/// Whether a group (outputs, grads, ...) matches by the one verdict: each value within the tight
/// tolerance or judged rounding against float64. "—" where the group is empty. Read from the
/// rows rather than from grads_match & co., so that runs stored before those fields followed the
/// verdict read the same.
QString groupVerdict(const nlohmann::json& v, const char* kind, const JudgedValues& judged)
{
    auto list = v.find(kind);
    if (list == v.end() || !list->is_array() || list->empty())
        return QStringLiteral("—");
    bool drift = false;
    for (const auto& e : *list) {
        if (!e.is_object())
            continue;
        const auto r = e.value("result", nlohmann::json::object());
        if (r.value("ok", false) == true)
            continue;
        const std::string verdict = verdictOf(judged, std::string(kind) + "/" + e.value("name", std::string()));
        if (verdict == "matches")
            continue;
        if (verdict == "drift") {
            drift = true;
            continue;
        }
        return QStringLiteral("✗ no");
    }
    return drift ? QObject::tr("≈ numerics drift") : QStringLiteral("✓ yes");
}

/// The one verdict of the capture's verification, as the header and `run` say it: the float64
/// judge's where it ran, else what the status says.
QString verdictWord(const nlohmann::json& v)
{
    if (auto a = v.find("accuracy"); a != v.end() && a->is_object() && a->contains("verdict")) {
        const QString verdict = str(*a, "verdict");
        return verdict.isEmpty() ? QObject::tr("no verdict (a mismatch)") : verdict;
    }
    const QString status = str(v, "status");
    if (status == "ok")
        return QObject::tr("matches");
    return status;
}

/// The tight comparison, as a detail under the verdict: "bit-for-bit", or how far outside the
/// dtype tolerance and what the judge made of it.
QString toleranceHtml(const nlohmann::json& v)
{
    const auto mad = v.find("max_abs_diff");
    if (mad == v.end() || !mad->is_number())
        return {};
    if (mad->get<double>() == 0.0)
        return QObject::tr("<b>bit-for-bit</b>: yes");
    bool within = true;
    if (auto w = v.find("within_tolerance"); w != v.end() && w->is_boolean())
        within = w->get<bool>();
    else if (auto a = v.find("accuracy"); a != v.end() && a->is_object())
        within = a->value("reference", nlohmann::json()) == "tolerance";
    QString html = QObject::tr("<b>bit-for-bit</b>: no, max |Δ| %1, max rel Δ %2")
                       .arg(number(v, "max_abs_diff"), number(v, "max_rel_diff"));
    if (within) {
        html += QObject::tr(": within the dtype's tolerance");
    } else {
        const QString verdict = verdictWord(v);
        if (verdict == "matches")
            html += QObject::tr(": outside the dtype's tight tolerance, rounding against float64");
        else
            html += QObject::tr(": outside the dtype's tight tolerance");
    }
    return html;
}

/// The perturbed trials in one line: how each came out, with a drifting or diverging trial's note.
QString perturbedHtml(const nlohmann::json& v)
{
    auto p = v.find("perturbed");
    if (p == v.end() || !p->is_object())
        return {};
    if (!p->value("ran", false))
        return QObject::tr("<br><b>perturbed inputs</b>: not run (%1)").arg(str(*p, "reason").toHtmlEscaped());
    QStringList trials;
    QString detail;
    if (auto ts = p->find("trials"); ts != p->end() && ts->is_array())
        for (const auto& t : *ts) {
            if (!t.is_object())
                continue;
            const QString status = str(t, "status");
            trials << str(t, "kind").toHtmlEscaped() + " " + status.toHtmlEscaped();
            if (detail.isEmpty() && (status == "drift" || status == "diverged"))
                detail = str(t, "note").toHtmlEscaped();
        }
    QString html = QObject::tr("<br><b>perturbed inputs</b>: %1").arg(trials.join(", "));
    if (!detail.isEmpty())
        html += " — " + detail;
    return html;
}

/// The accuracy judge's verdict with both errors against float64, and what verification
/// skipped to stay within its budget (the verify object's "accuracy" and "budget").
QString accuracyHtml(const nlohmann::json& v)
{
    QString html;
    const auto a = v.find("accuracy");
    if (a != v.end() && a->is_object() && a->contains("verdict")) {
        const QString verdict = str(*a, "verdict");
        html += QObject::tr("<br><b>accuracy</b>: %1").arg(verdict.isEmpty() ? QObject::tr("no verdict") : verdict);
        if (a->value("reference", nlohmann::json()) == "float64") {
            html += QObject::tr(" &nbsp; against float64: <b>artifact</b> %1, <b>eager</b> %2 (%3×)")
                        .arg(sci(*a, "artifact_error"), sci(*a, "eager_error"), sci(*a, "ratio"));
            QStringList worst;
            if (auto w = a->find("worst"); w != a->end() && w->is_array())
                for (const auto& name : *w)
                    worst << plain(name).toHtmlEscaped();
            if (!worst.isEmpty())
                html += QObject::tr("<br><b>worst</b>: %1").arg(worst.join(", "));
        }
    }
    QStringList skipped;
    if (auto b = v.find("budget"); b != v.end() && b->is_object())
        if (auto s = b->find("skipped"); s != b->end() && s->is_array())
            for (const auto& item : *s)
                skipped << plain(item).toHtmlEscaped();
    if (auto l = v.find("load_no_cache"); l != v.end() && l->is_object() && l->value("ran", true) == false)
        skipped << QObject::tr("load without cache");
    if (!skipped.isEmpty())
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
    m_rows = new QTreeWidget;
    m_rows->setRootIsDecorated(false);
    m_rows->setUniformRowHeights(true);
    m_rows->setHeaderLabels({tr("Compared"), tr("Name"), tr("Match"), tr("max |Δ|"), tr("rel Δ (RMS)"), tr("Sizes"),
        tr("Strides"), tr("Dtypes"), tr("Note")});
    m_rows->header()->setStretchLastSection(true);
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
    layout->addWidget(split, 1);
    clear(tr("No run yet."));
}

void VerifyView::clear(const QString& message)
{
    m_rows->clear();
    m_summary->setText(message.toHtmlEscaped());
    m_chartValues.clear();
    setCharts({});
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

void VerifyView::setCharts(const std::map<std::string, double>& t)
{
    auto ms = [&](const char* key) {
        auto it = t.find(key);
        return it == t.end() ? 0.0 : it->second * 1000.0;
    };
    m_chartValues.clear();
    for (const char* key : {"load", "load_no_cache", "call", "call_eager"})
        if (t.count(key))
            m_chartValues[key] = ms(key);
    const bool any = !m_chartValues.empty();
    m_loadChart->setVisible(any);
    m_callChart->setVisible(any);
    if (!any)
        return;
    // The load without cache runs only with --deep-verify: without it, one bar.
    if (t.count("load_no_cache"))
        fillChart(m_loadChart, {tr("no cache"), tr("cache")}, {ms("load_no_cache"), ms("load")}, palette());
    else
        fillChart(m_loadChart, {tr("cache")}, {ms("load")}, palette());
    fillChart(m_callChart, {tr("eager"), tr("artifact")}, {ms("call_eager"), ms("call")}, palette());
}

void VerifyView::setCapture(const std::shared_ptr<const RunDocument>& run, int capture)
{
    if (!run || capture < 0 || capture >= static_cast<int>(run->report.captures.size())) {
        clear(run ? tr("This run has no capture to verify.") : tr("No run yet."));
        return;
    }
    const auto& c = run->report.captures[capture];
    auto it = c.json.find("verify");
    if (it == c.json.end() || !it->is_object()) {
        clear(c.status == model::CaptureStatus::Ok
                ? tr("The report holds no verification.")
                : tr("Not verified: the capture ended in a %1, so there is no artifact to load.")
                      .arg(StatusStyle::word(c.status)));
        return;
    }
    m_rows->clear();
    const auto& v = *it;
    const JudgedValues judged = judgedValues(v);
    QString html;
    if (!v.value("ran", true)) {
        html = tr("<b>Not verified</b>: %1").arg(str(v, "reason").toHtmlEscaped());
    } else {
        // One verdict: the groups say what the judge says; the tight comparison is a detail.
        html = tr("<b>Verdict</b>: %1 &nbsp; <b>outputs</b>: %2 &nbsp; <b>gradients</b>: %3 &nbsp; "
                  "<b>buffers</b>: %4 &nbsp; <b>inputs</b>: %5 &nbsp; <b>calls compared</b>: %6")
                   .arg(verdictWord(v).toHtmlEscaped(), groupVerdict(v, "outputs", judged),
                       groupVerdict(v, "grads", judged), groupVerdict(v, "buffers", judged),
                       groupVerdict(v, "inputs", judged), str(v, "calls"));
        if (const QString tol = toleranceHtml(v); !tol.isEmpty())
            html += "<br>" + tol;
        if (auto rt = v.find("runtime"); rt != v.end() && rt->is_object())
            html += tr("<br><b>runtime_inputs</b>: %1, matches eager: %2")
                        .arg(str(*rt, "status").toHtmlEscaped(),
                            rt->contains("accuracy") ? verdictWord(*rt).toHtmlEscaped() : yesNo(*rt, "matches_eager"));
        html += accuracyHtml(v);
        html += perturbedHtml(v);
    }
    QStringList times;
    for (const auto& [key, label] : std::vector<std::pair<std::string, QString>>{{"script", tr("script")},
             {"precompile", tr("precompile")}, {"load", tr("load")}, {"load_no_cache", tr("load without cache")},
             {"call", tr("call")}, {"call_eager", tr("eager call")}, {"verify", tr("verify")}})
        if (auto t = c.timings.find(key); t != c.timings.end())
            times << label + " " + duration(t->second);
    if (!times.isEmpty())
        html += "<br><b>" + tr("Timings") + "</b>: " + times.join(" · ");
    m_summary->setText(html);

    // Each compared value, with the accuracy judge's verdict and figures where it was outside tolerance.
    auto addRows = [this, &judged](const nlohmann::json& list, const QString& group, const std::string& kind) {
        if (!list.is_array())
            return;
        for (const auto& e : list) {
            if (!e.is_object())
                continue;
            const auto r = e.value("result", nlohmann::json::object());
            auto* item = new QTreeWidgetItem(m_rows);
            item->setText(0, group);
            item->setText(1, str(e, "name"));
            const auto okField = r.find("ok");
            const bool ok = okField != r.end() && okField->is_boolean() && okField->get<bool>();
            // The Match column says the verdict: within tolerance ✓, rounding against float64 ≈,
            // numerics drift ~ (amber); only wrong or unjudged is a red ✗.
            const std::string key = kind + "/" + e.value("name", std::string());
            const std::string judgedAs = ok ? std::string() : verdictOf(judged, key);
            if (ok) {
                item->setText(2, QStringLiteral("✓"));
                item->setForeground(2, QColor(40, 150, 60));
            } else if (judgedAs == "matches") {
                item->setText(2, tr("≈ rounding"));
                item->setForeground(2, QColor(40, 150, 60));
            } else if (judgedAs == "drift") {
                item->setText(2, tr("~ drift"));
                item->setForeground(2, QColor(200, 130, 20));
            } else {
                item->setText(2, QStringLiteral("✗"));
                item->setForeground(2, QColor(200, 40, 30));
            }
            item->setText(3, number(r, "max_abs_diff"));
            item->setText(4, number(r, "rms_rel_diff"));
            item->setText(5, pair(r, "sizes"));
            item->setText(6, pair(r, "strides"));
            item->setText(7, pair(r, "dtypes"));
            QString note = str(r, "note");
            if (note.isEmpty() && r.contains("values"))
                note = pair(r, "values");
            // "mismatched" is null where sizes or dtypes differ: only a count is a count.
            if (auto m = r.find("mismatched"); m != r.end() && m->is_number_integer() && m->get<long long>() > 0)
                note = tr("%1 element(s) outside tolerance").arg(m->get<long long>())
                    + (note.isEmpty() ? "" : "; " + note);
            if (auto j = judged.find(key); j != judged.end()) {
                const nlohmann::json& t = *j->second;
                note += (note.isEmpty() ? "" : "; ")
                    + tr("%1; against float64: artifact %2, eager %3")
                          .arg(judgedAs.empty() ? tr("no verdict") : QString::fromStdString(judgedAs),
                              sci(t, "artifact_error"), sci(t, "eager_error"));
            }
            item->setText(8, note);
        }
    };
    addRows(v.value("outputs", nlohmann::json()), tr("output"), "outputs");
    addRows(v.value("grads", nlohmann::json()), tr("gradient"), "grads");
    addRows(v.value("buffers", nlohmann::json()), tr("buffer"), "buffers");
    addRows(v.value("parameters", nlohmann::json()), tr("parameter"), "parameters");
    addRows(v.value("inputs", nlohmann::json()), tr("input"), "inputs");
    if (auto rt = v.find("runtime"); rt != v.end() && rt->is_object())
        addRows(rt->value("outputs", nlohmann::json()), tr("runtime_inputs"), "runtime");
    for (int col = 0; col < 8; ++col)
        m_rows->resizeColumnToContents(col);
    setCharts(c.timings);
}

}  // namespace ps::ui
