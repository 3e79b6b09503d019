#include "ui/report/CacheView.h"

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

QString value(const nlohmann::json& j, const char* key)
{
    auto it = j.find(key);
    if (it == j.end() || it->is_null())
        return QStringLiteral("—");
    return it->is_string() ? QString::fromStdString(it->get<std::string>()) : QString::fromStdString(it->dump());
}

QString bytesText(std::int64_t n)
{
    return QStringLiteral("%1 (%2 bytes)").arg(QLocale().formattedDataSize(n)).arg(n);
}

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
    m_check = QStringLiteral("unknown");
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
    auto it = c.json.find("cache");
    if (it == c.json.end() || !it->is_object()) {
        clear(c.status == model::CaptureStatus::Ok
                ? tr("The report holds no cache inspection (made by an older worker?).")
                : tr("No cache: the capture ended in a %1.").arg(StatusStyle::word(c.status)));
        return;
    }
    clear(QString());
    const auto& cache = *it;
    const QString error = value(cache, "error");
    if (error != QStringLiteral("—"))
        m_message->setText(tr("The worker could not read all of the cache: %1").arg(error));
    else
        m_message->hide();

    auto row = [this](const QString& k, const QString& v) {
        auto* l = new QLabel(v);
        l->setTextInteractionFlags(Qt::TextSelectableByMouse);
        l->setWordWrap(true);
        m_fields->addRow("<b>" + k + "</b>", l);
    };
    row(tr("format"),
        value(cache, "format") + (cache.value("format_ok", true) ? QString() : tr("  (not what this torch writes)")));
    row(tr("version"), value(cache, "version"));
    row(tr("backend"), value(cache, "backend"));
    const QString codeHash = value(cache, "code_hash");
    row(tr("code_hash"), codeHash);

    // The worker's check, and ours: from the bytes when we have them, else from the report's hash.
    QStringList checks;
    bool differs = false, matches = false;
    if (auto ok = cache.find("code_hash_ok"); ok != cache.end() && ok->is_boolean()) {
        checks << (ok->get<bool>() ? tr("the worker: matches sha256(python_code)")
                                   : tr("the worker: DIFFERS from sha256(python_code)"));
        (ok->get<bool>() ? matches : differs) = true;
    }
    const run::CaptureBytes* bytes = run->artifact(static_cast<std::size_t>(capture));
    if (bytes && bytes->pythonCode) {
        const QString local = QString::fromLatin1(QCryptographicHash::hash(
            QByteArrayView(bytes->pythonCode->data(), static_cast<qsizetype>(bytes->pythonCode->size())),
            QCryptographicHash::Sha256)
                                                      .toHex());
        const bool same = local == codeHash;
        checks << (same ? tr("this window: matches sha256 of the stored python_code")
                        : tr("this window: DIFFERS: the stored python_code hashes to %1").arg(local));
        (same ? matches : differs) = true;
    } else if (c.artifact && !c.artifact->pythonCodeSha256.empty()) {
        const bool same = QString::fromStdString(c.artifact->pythonCodeSha256) == codeHash;
        checks << (same ? tr("the report: matches artifact.python_code_sha256")
                        : tr("the report: DIFFERS from artifact.python_code_sha256"));
        (same ? matches : differs) = true;
    }
    if (bytes && !bytes->error.empty())
        checks << QString::fromStdString(bytes->error);
    m_check = differs ? QStringLiteral("differs") : matches ? QStringLiteral("matches") : QStringLiteral("unknown");
    row(tr("code_hash check"),
        (differs          ? "✗ "
                : matches ? "✓ "
                          : "? ")
            + (checks.isEmpty() ? tr("nothing to check against") : checks.join("\n")));
    if (auto b = cache.find("bytes"); b != cache.end() && b->is_number_integer())
        row(tr("cache size"), bytesText(b->get<std::int64_t>()));
    if (auto b = cache.find("artifact_bytes"); b != cache.end() && b->is_number_integer())
        row(tr("bundle size"), bytesText(b->get<std::int64_t>()));
    else
        row(tr("bundle"), tr("none (the eager backend stores no kernels)"));
    if (auto keys = cache.find("keys"); keys != cache.end() && keys->is_array()) {
        QStringList k;
        for (const auto& key : *keys)
            if (key.is_string())
                k << QString::fromStdString(key.get<std::string>());
        row(tr("envelope keys"), k.join(", "));
    }

    std::int64_t total = 0;
    if (auto entries = cache.find("entries"); entries != cache.end() && entries->is_array()) {
        m_entries->setSortingEnabled(false);
        for (const auto& e : *entries) {
            if (!e.is_object())
                continue;
            auto* item = new SizeItem(m_entries);
            item->setText(0, value(e, "kind"));
            item->setText(1, value(e, "key"));
            const std::int64_t n = e.value("bytes", std::int64_t{0});
            total += n;
            item->setText(2, QLocale().formattedDataSize(n));
            item->setData(2, Qt::UserRole, static_cast<qlonglong>(n));
            item->setTextAlignment(2, Qt::AlignRight | Qt::AlignVCenter);
            item->setToolTip(1, item->text(1));
        }
        m_entries->setSortingEnabled(true);
        m_entries->sortByColumn(2, Qt::DescendingOrder);
        m_entries->resizeColumnToContents(0);
        m_entries->resizeColumnToContents(2);
    }
    row(tr("entries"),
        (entryCount() == 1 ? tr("1 entry") : tr("%1 entries").arg(entryCount()))
            + (entryCount() ? ", " + bytesText(total) : QString()));
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
