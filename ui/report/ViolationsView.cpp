#include "ui/report/ViolationsView.h"

#include "ui/common/QtText.h"
#include "ui/common/StatusStyle.h"
#include "ui/run/RunDocument.h"

#include "model/JsonFields.h"

#include <QHeaderView>
#include <QLabel>
#include <QMenu>
#include <QSplitter>
#include <QStyle>
#include <QTextBrowser>
#include <QTreeWidget>
#include <QUrl>
#include <QVBoxLayout>

#include <algorithm>

namespace ps::ui {

namespace {

void setLocation(const std::optional<model::Location>& location, ViolationsView::Entry& e)
{
    if (!location)
        return;
    e.file = q(location->file);
    e.line = location->line;
}

ViolationsView::Entry fromViolation(
    const model::Violation& v, const QString& capture, model::Severity severity, const QString& where = {})
{
    ViolationsView::Entry e;
    e.capture = capture;
    e.severity = severity;
    e.invariant = v.invariant;
    e.rule = q(v.rule);
    e.kind = q(v.kind);
    e.phase = where.isEmpty() ? q(v.phase) : where;
    e.message = q(v.message);
    e.summary = q(v.summary);
    for (const auto& step : v.chain)
        e.chain << q(step.describe(true));
    e.explanation = q(v.explanation);
    e.fix = q(v.fix);
    e.traceback = q(v.traceback);
    setLocation(v.location, e);
    for (const auto& node : v.nodes)
        e.nodes << q(node);
    e.guard = q(v.guard);
    if (v.calledAt)
        e.calledLine = v.calledAt->line;
    return e;
}

}  // namespace

ViolationsView::ViolationsView(QWidget* parent) : QWidget(parent)
{
    m_summary = new QLabel;
    m_summary->setTextFormat(Qt::PlainText);  // run-derived text
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
    connect(m_list, &QTreeWidget::itemClicked, this,
        [this](QTreeWidgetItem* item) { activate(m_list->indexOfTopLevelItem(item)); });
    // A double click or Enter: the line, then the graph (the entry's nodes, or its line's).
    connect(m_list, &QTreeWidget::itemActivated, this, [this](QTreeWidgetItem* item) {
        const int row = m_list->indexOfTopLevelItem(item);
        activate(row);
        requestGraph(row);
    });
    m_list->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(m_list, &QWidget::customContextMenuRequested, this, [this](const QPoint& pos) {
        QTreeWidgetItem* item = m_list->itemAt(pos);
        const int row = item ? m_list->indexOfTopLevelItem(item) : -1;
        if (row < 0 || row >= count())
            return;
        const Entry& e = m_entries[row];
        QMenu menu(this);
        QAction* graph = menu.addAction(tr("Show in the &Graph"), this, [this, row]() { requestGraph(row); });
        graph->setEnabled(!e.nodes.isEmpty() || e.line > 0);
        QAction* line = menu.addAction(tr("Go to &Line %1").arg(e.line), this, [this, row]() {
            const Entry& entry = m_entries[row];
            emit locationActivated(entry.file, entry.line);
        });
        line->setEnabled(e.line > 0);
        menu.exec(m_list->viewport()->mapToGlobal(pos));
    });
    connect(m_details, &QTextBrowser::anchorClicked, this, [this](const QUrl& url) {
        if (url.toString() == QLatin1String("graph:"))
            requestGraph(m_list->indexOfTopLevelItem(m_list->currentItem()));
    });
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
    using model::Severity;
    if (auto err = report.extra().find("error"); err != report.extra().end() && err->is_object())
        m_entries.push_back(fromViolation(model::Violation::fromJson(*err), QString(), Severity::Error, tr("script")));
    else if (report.status != RunStatus::Ok && report.status != RunStatus::Cancelled && report.captures.empty()) {
        Entry e;
        e.severity = Severity::Error;
        e.rule = StatusStyle::word(report.status);
        e.message = q(report.message);
        setLocation(model::Violation::fromJson(report.extra()).location, e);
        m_entries.push_back(e);
    }
    // torch._precompile's warnings from the script's own loads and calls when the run has no
    // capture to hang them on (precompile_studio/contract/script_warnings.py).
    for (const auto& w : model::Violation::listFromJson(model::JsonFields::member(report.extra(), "warnings")))
        m_entries.push_back(fromViolation(w, QString(), Severity::Warning, tr("script")));
    for (const auto& c : report.captures) {
        const QString name = q(c.name);
        if (c.violation)
            m_entries.push_back(fromViolation(
                *c.violation, name, c.status == model::CaptureStatus::Error ? Severity::Error : Severity::Violation));
        if (c.status == model::CaptureStatus::Mismatch && c.outcome) {
            Entry e;
            e.severity = Severity::Mismatch;
            e.capture = name;
            e.rule = q(c.outcome->rule.empty() ? std::string("mismatch") : c.outcome->rule);
            e.message = q(c.outcome->message);
            if (c.outcomeStage)
                e.phase = StatusStyle::word(*c.outcomeStage);
            m_entries.push_back(e);
        }
        if (c.verify) {
            const auto& v = *c.verify;
            for (const auto& [violation, where] : {std::pair{&v.loadViolation, tr("load")},
                     std::pair{&v.callViolation, tr("call")}, std::pair{&v.error, tr("verify")}})
                if (*violation)
                    m_entries.push_back(fromViolation(**violation, name, (*violation)->severity(), where));
            if (v.runtime) {
                using Status = model::Verification::Status;
                if (v.runtime->violation)
                    m_entries.push_back(fromViolation(*v.runtime->violation, name,
                        v.runtime->status == Status::Error ? Severity::Error : Severity::Violation,
                        tr("runtime_inputs")));
                if (v.runtime->error)
                    m_entries.push_back(fromViolation(*v.runtime->error, name, Severity::Error, tr("runtime_inputs")));
            }
        }
        for (const auto& w : c.warnings)
            m_entries.push_back(fromViolation(w, name, Severity::Warning));
    }

    for (const auto& e : m_entries) {
        auto* item = new QTreeWidgetItem(m_list);
        item->setText(0, StatusStyle::word(e.severity));
        item->setText(1, e.capture);
        item->setText(2, e.invariant ? QString::number(*e.invariant) : QStringLiteral("—"));
        item->setText(3, e.rule);
        item->setText(4, (e.summary.isEmpty() ? e.message : e.summary).section('\n', 0, 0));
        item->setText(5, e.line > 0 ? QString::number(e.line) : QString());
        item->setToolTip(4, plainTip(e.message.left(2000)));
        const QStyle::StandardPixmap icon
            = model::isProblem(e.severity) ? QStyle::SP_MessageBoxCritical : QStyle::SP_MessageBoxWarning;
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
    using model::Severity;
    const struct {
        Severity severity;
        QString one;
        QString many;
    } kinds[] = {{Severity::Violation, tr("violation"), tr("violations")}, {Severity::Error, tr("error"), tr("errors")},
        {Severity::Mismatch, tr("mismatch"), tr("mismatches")}, {Severity::Warning, tr("warning"), tr("warnings")}};
    QStringList parts;
    for (const auto& k : kinds) {
        const auto n = std::count_if(
            m_entries.begin(), m_entries.end(), [&](const Entry& e) { return e.severity == k.severity; });
        if (n > 0)
            parts << QStringLiteral("%1 %2").arg(n).arg(n == 1 ? k.one : k.many);
    }
    return parts.join(QStringLiteral(", "));
}

void ViolationsView::activate(int row)
{
    if (row < 0 || row >= count())
        return;
    const Entry& e = m_entries[row];
    if (e.line > 0)
        emit locationActivated(e.file, e.line);
    emit violationActivated(e.capture, e.file, e.line, e.nodes);
}

void ViolationsView::requestGraph(int row)
{
    if (row < 0 || row >= count())
        return;
    const Entry& e = m_entries[row];
    if (!e.nodes.isEmpty() || e.line > 0)
        emit showInGraphRequested(e.capture, e.file, e.line, e.nodes);
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
    html += esc(e.rule.isEmpty() ? StatusStyle::word(e.severity) : e.rule) + "</h3>";
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
    // The way to the graph node the violation is marked on ("inv 1").
    if (!e.nodes.isEmpty() || e.line > 0)
        html += "<p><a href=\"graph:\">"
            + (e.nodes.isEmpty() ? tr("Show the nodes of line %1 in the graph").arg(e.line)
                                 : tr("Show %1 in the graph").arg(esc(e.nodes.join(QStringLiteral(", ")))))
            + "</a></p>";
    if (!e.summary.isEmpty())
        html += "<p><b>" + esc(e.summary) + "</b></p>";
    if (!e.guard.isEmpty()) {
        html += "<p><b>" + tr("Shape guard") + "</b><br>"
            + tr("The artifact holds only the path fn took for <code>%1</code>: this line decided it while "
                 "tracing.")
                  .arg(esc(e.guard));
        if (e.calledLine > 0)
            html += " "
                + tr("It is called with other sizes at line %1 (runtime_inputs, or the script's own call).")
                      .arg(e.calledLine);
        html += "</p>";
    }
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
