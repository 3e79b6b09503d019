#include "ui/compare/CompareTablePane.h"

#include "model/JsonFields.h"
#include "ui/common/QtText.h"

#include "compare/RunDiff.h"
#include "ui/compare/DiffColours.h"

#include <QHeaderView>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace ps::ui {

namespace {

using nlohmann::json;
using ps::model::JsonFields;

/// A value of the diff's side-by-side JSON as a cell shows it.
QString cell(const json& v)
{
    if (v.is_null())
        return QStringLiteral("—");
    if (v.is_string())
        return q(v.get<std::string>());
    if (v.is_number_float())
        return QString::number(v.get<double>(), 'g', 3);
    return q(v.dump());
}

}  // namespace

CompareTablePane::CompareTablePane(QWidget* parent) : QWidget(parent)
{
    m_table = new QTreeWidget;
    m_table->setObjectName(QStringLiteral("compareTable"));
    m_table->setUniformRowHeights(true);
    m_table->setAlternatingRowColors(false);
    m_table->header()->setSectionResizeMode(QHeaderView::Interactive);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_table);
}

QTreeWidgetItem* CompareTablePane::group(const QString& title)
{
    auto* item = new QTreeWidgetItem({title});
    QFont bold = item->font(0);
    bold.setBold(true);
    item->setFont(0, bold);
    item->setFirstColumnSpanned(false);
    m_table->addTopLevelItem(item);
    return item;
}

void CompareTablePane::row(
    QTreeWidgetItem* parent, const QString& field, const QString& a, const QString& b, bool differs)
{
    auto* item = new QTreeWidgetItem(parent, {field, a, b});
    item->setData(0, Qt::UserRole, differs);
    for (int c = 0; c < 3; ++c)
        item->setToolTip(c, plainTip(item->text(c)));
    if (differs)
        for (int c = 0; c < 3; ++c) {
            item->setBackground(c, DiffColours::changed());
            item->setForeground(c, QColor(Qt::black));
        }
}

void CompareTablePane::differences(const QString& title, const std::vector<compare::Difference>& list)
{
    QTreeWidgetItem* g = group(title);
    if (list.empty())
        row(g, tr("(no differences)"), QString(), QString(), false);
    for (const compare::Difference& d : list)
        row(g, q(d.what), q(d.before), q(d.after), true);
}

void CompareTablePane::setCapture(const compare::CaptureComparison& c,
    const std::vector<compare::Difference>& provenance, const QString& labelA, const QString& labelB)
{
    m_table->clear();
    m_table->setHeaderLabels({tr("Field"), labelA, labelB});
    QTreeWidgetItem* status = group(tr("Capture"));
    row(status, tr("status"), q(c.statusA), q(c.statusB), c.statusA != c.statusB);
    differences(tr("Inputs"), c.inputs);
    differences(tr("Options"), c.options);
    differences(tr("Cache"), c.cache);

    QTreeWidgetItem* verify = group(tr("Verify"));
    const json& va = JsonFields::member(c.verify, "a");
    const json& vb = JsonFields::member(c.verify, "b");
    for (const char* key : {"status", "verdict", "max_abs_diff", "max_rel_diff"}) {
        const json& x = JsonFields::member(va, key);
        const json& y = JsonFields::member(vb, key);
        // numbers differ in their last digits from run to run: only the words are compared
        const bool differs = (x.is_string() || y.is_string()) && x != y;
        row(verify, QString::fromLatin1(key), cell(x), cell(y), differs);
    }
    QTreeWidgetItem* timings = group(tr("Timings (s)"));
    if (c.timings.empty())
        row(timings, tr("(none)"), QString(), QString(), false);
    for (auto it = c.timings.begin(); it != c.timings.end(); ++it) {
        // times vary from run to run: highlighted when one side lacks it or takes twice as long
        const json& x = JsonFields::member(*it, "a");
        const json& y = JsonFields::member(*it, "b");
        bool differs = x.is_number() != y.is_number();
        if (x.is_number() && y.is_number()) {
            const double a = x.get<double>(), b = y.get<double>();
            differs = std::max(a, b) > 2 * std::min(a, b) && std::max(a, b) > 1e-3;
        }
        row(timings, q(it.key()), cell(x), cell(y), differs);
    }
    if (!c.profile.empty()) {
        // both runs profiled (run --profile): a module highlighted when one side lacks it or the
        // change is over a fifth of the larger time
        QTreeWidgetItem* modules = group(tr("Time per call by module (profile)"));
        for (const compare::ModuleTime& m : c.profile) {
            const auto side = [](const std::optional<double>& us) {
                return us ? q(compare::ProfileDiff::duration(*us)) : QStringLiteral("-");
            };
            const double larger = std::max(m.aUs.value_or(0), m.bUs.value_or(0));
            const bool differs = !m.aUs || !m.bUs || std::abs(m.changeUs()) > 0.2 * larger;
            row(modules, q(m.module), side(m.aUs), side(m.bUs), differs);
        }
    }
    differences(tr("Made from (torch, Python, machine, environment)"), provenance);

    m_table->expandAll();
    for (int col = 0; col < 3; ++col)
        m_table->resizeColumnToContents(col);
    for (int col = 0; col < 3; ++col)
        m_table->setColumnWidth(col, std::min(m_table->columnWidth(col), 520));
}

QStringList CompareTablePane::rows(const QString& title) const
{
    QStringList out;
    for (int i = 0; i < m_table->topLevelItemCount(); ++i) {
        const QTreeWidgetItem* g = m_table->topLevelItem(i);
        if (g->text(0) != title)
            continue;
        for (int r = 0; r < g->childCount(); ++r) {
            const QTreeWidgetItem* item = g->child(r);
            out << QStringLiteral("%1%2: %3 | %4")
                       .arg(item->data(0, Qt::UserRole).toBool() ? QStringLiteral("*") : QString(), item->text(0),
                           item->text(1), item->text(2));
        }
    }
    return out;
}

}  // namespace ps::ui
