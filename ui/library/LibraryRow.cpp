#include "ui/library/LibraryRow.h"
#include "ui/common/QtText.h"

#include "ui/common/StatusStyle.h"
#include "ui/editor/UnsavedScript.h"
#include "ui/library/RunStore.h"

#include "model/CheckOutcome.h"
#include "model/VisibleText.h"

#include <QDateTime>
#include <QHash>
#include <QIcon>
#include <QLocale>
#include <QPainter>
#include <QPixmap>
#include <QStandardItem>

namespace ps::ui {

namespace {

// Worst first when sorted by status ascending.
constexpr model::RunStatus kWorstFirst[] = {
    model::RunStatus::ConnectionLost,
    model::RunStatus::ProtocolError,
    model::RunStatus::WorkerDied,
    model::RunStatus::Timeout,
    model::RunStatus::Error,
    model::RunStatus::Violation,
    model::RunStatus::Mismatch,
    model::RunStatus::Cancelled,
    model::RunStatus::Ok,
};

int statusRank(const std::optional<model::RunStatus>& status)
{
    for (int i = 0; status && i < static_cast<int>(std::size(kWorstFirst)); ++i)
        if (kWorstFirst[i] == *status)
            return i;
    return static_cast<int>(std::size(kWorstFirst));
}

QColor statusColor(const std::optional<model::RunStatus>& status)
{
    return status ? StatusStyle::color(*status) : QColor(Qt::gray);
}

/// The word a listed status shows as: the window's word, "unknown" for none.
QString statusText(const std::optional<model::RunStatus>& status)
{
    return status ? StatusStyle::word(*status) : QStringLiteral("unknown");
}

QIcon outcomeIcon(const std::optional<model::RunStatus>& status)
{
    QPixmap pixmap(12, 12);
    pixmap.fill(Qt::transparent);
    QPainter p(&pixmap);
    p.setRenderHint(QPainter::Antialiasing);
    p.setPen(Qt::NoPen);
    p.setBrush(statusColor(status));
    p.drawEllipse(QRectF(1.5, 1.5, 9, 9));
    return QIcon(pixmap);
}

QDateTime localTime(const QString& createdAt)
{
    const QDateTime t = QDateTime::fromString(createdAt, Qt::ISODateWithMs);
    return t.isValid() ? t.toLocalTime() : t;
}

/// Short enough for the dock: the time today, the day this year, else the date.
QString shortTime(const QString& createdAt)
{
    const QDateTime t = localTime(createdAt);
    if (!t.isValid())
        return createdAt;
    const QDate today = QDate::currentDate();
    if (t.date() == today)
        return t.toString(QStringLiteral("HH:mm"));
    if (t.date().year() == today.year())
        return t.toString(QStringLiteral("d MMM HH:mm"));
    return t.toString(QStringLiteral("yyyy-MM-dd"));
}

QString fullTime(const QString& createdAt)
{
    const QDateTime t = localTime(createdAt);
    return t.isValid() ? t.toString(QStringLiteral("yyyy-MM-dd HH:mm:ss")) : createdAt;
}
}  // namespace

QList<QStandardItem*> LibraryRow::items(const StoredRun& r)
{
    const auto text = [](const QString& shown, const QString& sortKey) {
        auto* item = new QStandardItem(shown);
        item->setData(sortKey, kSortRole);
        return item;
    };
    const QString createdKey = r.createdAt + QStringLiteral("#%1").arg(r.id, 12, 10, QLatin1Char('0'));
    const QString rank = QStringLiteral("%1 %2").arg(statusRank(r.status)).arg(createdKey);
    auto* outcome = text(QString(), rank);
    outcome->setIcon(outcomeIcon(r.status));
    outcome->setData(r.id, kIdRole);
    outcome->setToolTip(statusText(r.status));
    auto* name = text(r.name + (r.trusted ? QString() : QObject::tr(" (untrusted)")), r.name);
    name->setToolTip(plainTip(r.scriptPath));
    auto* backend = text(r.backends.join(", "), r.backends.join(", "));
    auto* time = text(shortTime(r.createdAt), createdKey);
    time->setToolTip(plainTip(QObject::tr("run #%1, %2 (%3 UTC)").arg(r.id).arg(fullTime(r.createdAt), r.createdAt)));
    auto* status = text(statusText(r.status), rank);
    status->setForeground(statusColor(r.status));
    auto* message = text(r.message.section('\n', 0, 0), r.message.section('\n', 0, 0));
    message->setToolTip(plainTip(r.message.left(1000)));
    auto* id = text(QString::number(r.id), QStringLiteral("%1").arg(r.id, 12, 10, QLatin1Char('0')));
    auto* script = text(UnsavedScript::displayName(r.scriptPath), r.scriptPath);
    script->setToolTip(plainTip(r.scriptPath));
    auto* where = text(r.ranOn, r.ranOn);
    auto* by = text(r.storedBy, r.storedBy);
    if (!r.storedRole.isEmpty())
        by->setToolTip(plainTip(QObject::tr("database role %1").arg(r.storedRole)));
    if (r.byOthers) {
        // Someone else's run in a shared library: marked, so one's own stand out.
        name->setToolTip(plainTip(QObject::tr("%1\nstored by %2").arg(r.scriptPath, r.storedBy)));
        QFont italic = name->font();
        italic.setItalic(true);
        for (auto* item : {name, by})
            item->setFont(italic);
    }
    return {outcome, name, backend, time, status, message, id, script, where, by};
}

QString LibraryRow::details(const StoredRun& r, const StoredRunDetails* more)
{
    QStringList parts;
    parts << QObject::tr("run #%1 %2: %3").arg(r.id).arg(r.name, statusText(r.status));
    const QString message = r.message.section('\n', 0, 0);
    if (!message.isEmpty())
        parts.back() += QStringLiteral(" — ") + message;
    QStringList facts;
    facts << UnsavedScript::displayName(r.scriptPath);
    facts << (r.backends.isEmpty() ? QObject::tr("no capture") : r.backends.join(", "));
    if (more)
        facts << (more->captures == 1 ? QObject::tr("1 capture") : QObject::tr("%1 captures").arg(more->captures))
              << QLocale().formattedDataSize(more->bytes);
    facts << QObject::tr("stored %1").arg(fullTime(r.createdAt));
    if (!r.storedBy.isEmpty())
        facts.back() += r.storedRole.isEmpty() ? QObject::tr(" by %1").arg(r.storedBy)
                                               : QObject::tr(" by %1 (role %2)").arg(r.storedBy, r.storedRole);
    if (!r.ranOn.isEmpty())
        facts << QObject::tr("ran on %1").arg(r.ranOn);
    if (r.imported)
        facts << QObject::tr("imported");
    facts << (r.trusted ? QObject::tr("trusted") : QObject::tr("not trusted: %1").arg(r.untrustedBecause));
    parts << facts.join(QStringLiteral(" · "));
    if (const QString checked = checkedLine(r); !checked.isEmpty())
        parts << checked;
    return parts.join('\n');
}

QString LibraryRow::checkedLine(const StoredRun& r)
{
    if (r.checks.empty())
        return {};
    // Targets grouped by what they said, in the order the words first appear.
    QStringList order;
    QHash<QString, QStringList> where;
    for (const StoredCheck& c : r.checks) {
        const QString words = q(model::keptCheckWords(c.outcome.toStdString(), c.runs));
        if (!where.contains(words))
            order << words;
        where[words] << q(model::VisibleText::of(c.target.toStdString()));
    }
    QStringList said;
    for (const QString& words : order)
        said << QObject::tr("%1 on %2").arg(words, where[words].join(QStringLiteral(", ")));
    return QObject::tr("checked: %1").arg(said.join(QStringLiteral("; ")));
}

}  // namespace ps::ui
