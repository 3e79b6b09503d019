#include "ui/report/ViolationsView.h"

#include "ui/common/StatusStyle.h"
#include "ui/run/RunDocument.h"

#include <QFileInfo>
#include <QHeaderView>
#include <QLabel>
#include <QSplitter>
#include <QStyle>
#include <QTextBrowser>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace ps::ui {

namespace {

QString str(const nlohmann::json& j, const char* key)
{
    if (!j.is_object())
        return {};
    auto it = j.find(key);
    return it != j.end() && it->is_string() ? QString::fromStdString(it->get<std::string>()) : QString();
}

void readLocation(const nlohmann::json& j, ViolationsView::Entry& e)
{
    if (!j.is_object())
        return;
    auto loc = j.find("location");
    if (loc == j.end() || !loc->is_object())
        return;
    e.file = str(*loc, "file");
    if (auto l = loc->find("line"); l != loc->end() && l->is_number_integer())
        e.line = l->get<int>();
}

ViolationsView::Entry fromViolation(
    const nlohmann::json& v, const QString& capture, const QString& severity, const QString& where = {})
{
    ViolationsView::Entry e;
    e.capture = capture;
    e.severity = severity;
    if (auto it = v.find("invariant"); it != v.end() && it->is_number_integer())
        e.invariant = it->get<int>();
    e.rule = str(v, "rule");
    e.kind = str(v, "kind");
    e.phase = where.isEmpty() ? str(v, "phase") : where;
    e.message = str(v, "message");
    e.summary = str(v, "summary");
    if (auto chain = v.find("chain"); chain != v.end() && chain->is_array())
        for (const auto& step : *chain) {
            if (!step.is_object())
                continue;
            if (str(step, "role") == "torch") {
                e.chain << str(step, "op");
                continue;
            }
            QString link;
            if (const QString pkg = str(step, "package"); !pkg.isEmpty())
                link = pkg + (str(step, "version").isEmpty() ? QString() : " " + str(step, "version")) + " · ";
            link += QFileInfo(str(step, "file")).fileName();
            if (auto line = step.find("line"); line != step.end() && line->is_number_integer())
                link += ":" + QString::number(line->get<int>());
            if (const QString fn = str(step, "function"); !fn.isEmpty() && str(step, "role") != "user")
                link += " in " + fn;
            if (const QString code = str(step, "code"); !code.isEmpty())
                link += ": " + code;
            e.chain << link;
        }
    e.explanation = str(v, "explanation");
    e.fix = str(v, "fix");
    e.traceback = str(v, "traceback");
    readLocation(v, e);
    if (auto d = v.find("details"); d != v.end() && d->is_object()) {
        if (const QString node = str(*d, "node"); !node.isEmpty())
            e.nodes << node;
        if (auto consts = d->find("constants"); consts != d->end() && consts->is_array())
            for (const auto& c : *consts) {
                if (!c.is_object())
                    continue;
                if (const QString node = str(c, "node"); !node.isEmpty())
                    e.nodes << node;
                if (auto users = c.find("users"); users != c.end() && users->is_array())
                    for (const auto& u : *users)
                        if (u.is_string())
                            e.nodes << QString::fromStdString(u.get<std::string>());
            }
    }
    return e;
}

}  // namespace

ViolationsView::ViolationsView(QWidget* parent) : QWidget(parent)
{
    m_summary = new QLabel;
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_list = new QTreeWidget;
    m_list->setRootIsDecorated(false);
    m_list->setUniformRowHeights(true);
    m_list->setHeaderLabels({tr("Severity"), tr("Capture"), tr("Invariant"), tr("Rule"), tr("Message"), tr("Line")});
    m_list->header()->setSectionResizeMode(4, QHeaderView::Stretch);
    m_list->header()->setStretchLastSection(false);
    m_details = new QTextBrowser;
    m_details->setOpenLinks(false);
    auto* split = new QSplitter(Qt::Vertical);
    split->addWidget(m_list);
    split->addWidget(m_details);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 2);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->addWidget(m_summary);
    layout->addWidget(split, 1);

    connect(m_list, &QTreeWidget::currentItemChanged, this,
        [this](QTreeWidgetItem* item) { showDetails(item ? m_list->indexOfTopLevelItem(item) : -1); });
    connect(m_list, &QTreeWidget::itemClicked, this, [this](QTreeWidgetItem* item) {
        const int row = m_list->indexOfTopLevelItem(item);
        if (row < 0 || row >= count())
            return;
        const Entry& e = m_entries[row];
        if (e.line > 0)
            emit locationActivated(e.file, e.line);
        emit violationActivated(e.capture, e.file, e.line, e.nodes);
    });
    connect(m_list, &QTreeWidget::itemActivated, m_list, &QTreeWidget::itemClicked);
    clear();
}

void ViolationsView::clear()
{
    m_entries.clear();
    m_list->clear();
    m_details->clear();
    m_summary->setText(tr("No run yet."));
}

void ViolationsView::setRun(const std::shared_ptr<const RunDocument>& run)
{
    clear();
    if (!run)
        return;
    const auto& report = run->report;
    using model::RunStatus;
    if (auto err = report.extra().find("error"); err != report.extra().end() && err->is_object())
        m_entries.push_back(fromViolation(*err, QString(), QStringLiteral("error"), tr("script")));
    else if (report.status != RunStatus::Ok && report.status != RunStatus::Cancelled && report.captures.empty()) {
        Entry e;
        e.severity = QStringLiteral("error");
        e.rule = StatusStyle::word(report.status);
        e.message = QString::fromStdString(report.message);
        readLocation(report.extra(), e);
        m_entries.push_back(e);
    }
    // torch._precompile's warnings from the script's own loads and calls when the run has no
    // capture to hang them on (precompile_studio/contract/script_warnings.py).
    if (auto w = report.extra().find("warnings"); w != report.extra().end() && w->is_array())
        for (const auto& item : *w)
            if (item.is_object())
                m_entries.push_back(fromViolation(item, QString(), QStringLiteral("warning"), tr("script")));
    for (const auto& c : report.captures) {
        const QString name = QString::fromStdString(c.name);
        const auto& j = c.json;
        if (auto v = j.find("violation"); v != j.end() && v->is_object())
            m_entries.push_back(fromViolation(*v, name,
                c.status == model::CaptureStatus::Error ? QStringLiteral("error") : QStringLiteral("violation")));
        if (c.status == model::CaptureStatus::Mismatch && c.outcome) {
            Entry e;
            e.severity = QStringLiteral("mismatch");
            e.capture = name;
            e.rule = QString::fromStdString(c.outcome->rule.empty() ? std::string("mismatch") : c.outcome->rule);
            e.message = QString::fromStdString(c.outcome->message);
            e.phase = QString::fromStdString(c.outcomeWhere);
            m_entries.push_back(e);
        }
        if (auto verify = j.find("verify"); verify != j.end() && verify->is_object()) {
            const auto& vj = *verify;
            auto add = [&](const char* key, const QString& where) {
                if (auto v = vj.find(key); v != vj.end() && v->is_object()) {
                    const QString sev
                        = str(*v, "status") == "error" || str(*v, "rule").isEmpty() ? "error" : "violation";
                    m_entries.push_back(fromViolation(*v, name, sev, where));
                }
            };
            add("load_violation", tr("load"));
            add("call_violation", tr("call"));
            add("error", tr("verify"));
            if (auto rt = vj.find("runtime"); rt != vj.end() && rt->is_object()) {
                if (auto v = rt->find("violation"); v != rt->end() && v->is_object())
                    m_entries.push_back(fromViolation(
                        *v, name, str(*rt, "status") == "error" ? "error" : "violation", tr("runtime_inputs")));
                if (auto v = rt->find("error"); v != rt->end() && v->is_object())
                    m_entries.push_back(fromViolation(*v, name, QStringLiteral("error"), tr("runtime_inputs")));
            }
        }
        if (auto w = j.find("warnings"); w != j.end() && w->is_array())
            for (const auto& item : *w)
                if (item.is_object())
                    m_entries.push_back(fromViolation(item, name, QStringLiteral("warning")));
    }

    for (const auto& e : m_entries) {
        auto* item = new QTreeWidgetItem(m_list);
        item->setText(0, e.severity);
        item->setText(1, e.capture);
        item->setText(2, e.invariant ? QString::number(*e.invariant) : QStringLiteral("—"));
        item->setText(3, e.rule);
        item->setText(4, (e.summary.isEmpty() ? e.message : e.summary).section('\n', 0, 0));
        item->setText(5, e.line > 0 ? QString::number(e.line) : QString());
        item->setToolTip(4, e.message.left(2000));
        const QStyle::StandardPixmap icon
            = e.severity == "warning" ? QStyle::SP_MessageBoxWarning : QStyle::SP_MessageBoxCritical;
        item->setIcon(0, style()->standardIcon(icon));
    }
    for (int c = 0; c < m_list->columnCount(); ++c)
        if (c != 4)
            m_list->resizeColumnToContents(c);
    if (m_entries.empty())
        m_summary->setText(report.status == RunStatus::Ok
                ? tr("No violations: every capture kept the contract.")
                : tr("Nothing to show for this run (%1).").arg(QString::fromStdString(report.message)));
    else
        m_summary->setText(tr("%1. Click one to go to its line in the script.").arg(countsText()));
    if (!m_entries.empty())
        m_list->setCurrentItem(m_list->topLevelItem(0));
}

QString ViolationsView::countsText() const
{
    const struct {
        const char* severity;
        QString one;
        QString many;
    } kinds[] = {{"violation", tr("violation"), tr("violations")}, {"error", tr("error"), tr("errors")},
        {"mismatch", tr("mismatch"), tr("mismatches")}, {"warning", tr("warning"), tr("warnings")}};
    QStringList parts;
    for (const auto& k : kinds) {
        const auto n = std::count_if(m_entries.begin(), m_entries.end(),
            [&](const Entry& e) { return e.severity == QLatin1String(k.severity); });
        if (n > 0)
            parts << QStringLiteral("%1 %2").arg(n).arg(n == 1 ? k.one : k.many);
    }
    return parts.join(QStringLiteral(", "));
}

void ViolationsView::showDetails(int row)
{
    if (row < 0 || row >= count()) {
        m_details->clear();
        return;
    }
    const Entry& e = m_entries[row];
    auto esc = [](const QString& s) { return s.toHtmlEscaped(); };
    QString html;
    html += "<h3>";
    if (e.invariant)
        html += tr("Invariant %1 · ").arg(*e.invariant);
    html += esc(e.rule.isEmpty() ? e.severity : e.rule) + "</h3>";
    QStringList facts;
    if (!e.kind.isEmpty())
        facts << esc(e.kind);
    if (!e.phase.isEmpty())
        facts << tr("during %1").arg(esc(e.phase));
    if (!e.capture.isEmpty())
        facts << tr("capture %1").arg(esc(e.capture));
    if (e.line > 0)
        facts << tr("line %1 of %2").arg(e.line).arg(esc(e.file));
    if (!facts.isEmpty())
        html += "<p><i>" + facts.join(" · ") + "</i></p>";
    if (!e.summary.isEmpty())
        html += "<p><b>" + esc(e.summary) + "</b></p>";
    if (!e.chain.isEmpty()) {
        QStringList links;
        for (const QString& link : e.chain)
            links << "<code>" + esc(link) + "</code>";
        html += "<p><b>" + tr("Where") + "</b><br>" + links.join("<br>&#8595; ") + "</p>";
    }
    if (!e.explanation.isEmpty())
        html += "<p><b>" + tr("Why") + "</b><br>" + esc(e.explanation) + "</p>";
    if (!e.fix.isEmpty())
        html += "<p><b>" + tr("Fix") + "</b><br>" + esc(e.fix) + "</p>";
    html += "<p><b>" + tr("Message") + "</b></p><pre style='white-space:pre-wrap'>" + esc(e.message) + "</pre>";
    if (!e.traceback.isEmpty())
        html += "<p><b>" + tr("Traceback") + "</b></p><pre>" + esc(e.traceback) + "</pre>";
    m_details->setHtml(html);
}

QString ViolationsView::detailsText() const
{
    return m_details->toPlainText();
}

QString ViolationsView::listText(int row, int column) const
{
    const QTreeWidgetItem* item = m_list->topLevelItem(row);
    return item ? item->text(column) : QString();
}

}  // namespace ps::ui
