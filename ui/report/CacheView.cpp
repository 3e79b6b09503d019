#include "ui/report/CacheView.h"

#include "ui/common/QtText.h"
#include "ui/common/StatusStyle.h"
#include "ui/run/RunDocument.h"

#include <QCryptographicHash>
#include <QFormLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace ps::ui {

namespace {

class SizeItem : public QTreeWidgetItem {
public:
    using QTreeWidgetItem::QTreeWidgetItem;
    bool operator<(const QTreeWidgetItem& other) const override
    {
        const int c = treeWidget() ? treeWidget()->sortColumn() : 0;
        if (c == 2)
            return data(2, Qt::UserRole).toLongLong() < other.data(2, Qt::UserRole).toLongLong();
        return QTreeWidgetItem::operator<(other);
    }
};

}  // namespace

CacheView::CacheView(QWidget* parent) : QWidget(parent)
{
    m_message = new QLabel;
    m_message->setTextFormat(Qt::PlainText);  // run-derived text
    m_message->setWordWrap(true);
    m_message->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_fieldsBox = new QWidget;
    m_fields = new QFormLayout(m_fieldsBox);
    m_fields->setContentsMargins(0, 0, 0, 0);
    m_entries = new QTreeWidget;
    m_entries->setRootIsDecorated(false);
    m_entries->setHeaderLabels({tr("Kind"), tr("Key"), tr("Size")});
    m_entries->setSortingEnabled(true);
    m_entries->header()->setSectionResizeMode(1, QHeaderView::Stretch);
    m_entries->header()->setStretchLastSection(false);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->addWidget(m_message);
    layout->addWidget(m_fieldsBox);
    layout->addWidget(new QLabel(tr("<b>Artifact bundle entries</b>")));
    layout->addWidget(m_entries, 1);
    clear(tr("No run yet."));
}

void CacheView::clear(const QString& message)
{
    while (m_fields->rowCount() > 0)
        m_fields->removeRow(0);
    m_entries->clear();
    m_message->setText(message);
    m_message->show();
    m_check = Check::Unknown;
}

int CacheView::entryCount() const
{
    return m_entries->topLevelItemCount();
}

void CacheView::setCapture(const std::shared_ptr<const RunDocument>& run, int capture)
{
    if (!run || capture < 0 || capture >= static_cast<int>(run->report.captures.size())) {
        clear(run ? tr("This run has no capture, so no cache.") : tr("No run yet."));
        return;
    }
    const auto& c = run->report.captures[capture];
    if (!c.cache) {
        clear(q(model::CacheInfo::absentText(c.status)));
        return;
    }
    clear(QString());
    m_message->hide();
    const model::CacheInfo& cache = *c.cache;
    auto row = [this](const QString& k, const QString& v, std::optional<model::Tone> tone) {
        auto* l = new QLabel(tone == model::Tone::Good ? "✓ " + v : tone == model::Tone::Bad ? "✗ " + v : v);
        l->setTextFormat(Qt::PlainText);
        l->setTextInteractionFlags(Qt::TextSelectableByMouse);
        l->setWordWrap(true);
        if (tone)
            l->setStyleSheet(QStringLiteral("color: %1").arg(StatusStyle::color(*tone).name()));
        m_fields->addRow("<b>" + k + "</b>", l);
    };
    for (const auto& fact : cache.facts())
        row(q(fact.label), q(fact.text), fact.tone);

    // The worker's check, then this window's own: from the stored bytes when it has them, else
    // from the report's hash of them.
    bool differs = cache.codeHashOk == false, matches = cache.codeHashOk == true;
    const QString codeHash = q(cache.codeHash.value_or(std::string()));
    const run::CaptureBytes* bytes = run->artifact(static_cast<std::size_t>(capture));
    std::optional<bool> same;
    QString against;
    if (bytes && bytes->pythonCode) {
        const QString local = QString::fromLatin1(QCryptographicHash::hash(
            QByteArrayView(bytes->pythonCode->data(), static_cast<qsizetype>(bytes->pythonCode->size())),
            QCryptographicHash::Sha256)
                                                      .toHex());
        same = local == codeHash;
        against = *same ? tr("matches sha256 of the stored python_code")
                        : tr("DIFFERS: the stored python_code hashes to %1").arg(local);
    } else if (c.artifact && !c.artifact->pythonCodeSha256.empty()) {
        same = q(c.artifact->pythonCodeSha256) == codeHash;
        against = *same ? tr("matches the report's artifact.python_code_sha256")
                        : tr("DIFFERS from the report's artifact.python_code_sha256");
    }
    if (same) {
        (*same ? matches : differs) = true;
        row(tr("this window's check"), against, *same ? model::Tone::Good : model::Tone::Bad);
    }
    if (bytes && !bytes->error.empty())
        row(tr("stored bytes"), q(bytes->error), model::Tone::Warn);
    m_check = differs ? Check::Differs : matches ? Check::Matches : Check::Unknown;

    m_entries->setSortingEnabled(false);
    for (const auto& e : cache.entries) {
        auto* item = new SizeItem(m_entries);
        item->setText(0, q(e.kind));
        item->setText(1, q(e.key));
        item->setText(2, QLocale().formattedDataSize(e.bytes));
        item->setData(2, Qt::UserRole, static_cast<qlonglong>(e.bytes));
        item->setTextAlignment(2, Qt::AlignRight | Qt::AlignVCenter);
        item->setToolTip(1, plainTip(item->text(1)));
    }
    m_entries->setSortingEnabled(true);
    m_entries->sortByColumn(2, Qt::DescendingOrder);
    m_entries->resizeColumnToContents(0);
    m_entries->resizeColumnToContents(2);
}

QString CacheView::text() const
{
    QStringList out;
    for (int r = 0; r < m_fields->rowCount(); ++r) {
        auto* label = m_fields->itemAt(r, QFormLayout::LabelRole);
        auto* field = m_fields->itemAt(r, QFormLayout::FieldRole);
        auto* fl = field ? qobject_cast<QLabel*>(field->widget()) : nullptr;
        auto* ll = label ? qobject_cast<QLabel*>(label->widget()) : nullptr;
        if (ll && fl)
            out << QString(ll->text()).remove("<b>").remove("</b>") + ": " + fl->text();
    }
    return out.join('\n');
}

}  // namespace ps::ui
