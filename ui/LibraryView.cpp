#include "ui/LibraryView.h"

#include "ui/StatusStyle.h"

#include "ui/RunStore.h"

#include <QComboBox>
#include <QDateTime>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QStandardItemModel>
#include <QTimer>
#include <QTreeView>
#include <QVBoxLayout>

namespace ps::ui {

namespace {
enum Column { TimeColumn, NameColumn, StatusColumn, BackendColumn, MessageColumn, ColumnCount };
constexpr int kIdRole = Qt::UserRole + 1;
constexpr int kSortRole = Qt::UserRole + 2;

// Worst first when sorted by status ascending.
constexpr model::RunStatus kWorstFirst[] = {
    model::RunStatus::ProtocolError,
    model::RunStatus::WorkerDied,
    model::RunStatus::Timeout,
    model::RunStatus::Error,
    model::RunStatus::Violation,
    model::RunStatus::Mismatch,
    model::RunStatus::Cancelled,
    model::RunStatus::Ok,
};

int statusRank(const QString& s)
{
    const auto status = model::runStatusFromString(s.toStdString());
    for (int i = 0; status && i < static_cast<int>(std::size(kWorstFirst)); ++i)
        if (kWorstFirst[i] == *status)
            return i;
    return static_cast<int>(std::size(kWorstFirst));
}
}  // namespace

LibraryView::LibraryView(QWidget* parent) : QWidget(parent)
{
    m_problem = new QLabel;
    m_problem->setWordWrap(true);
    m_problem->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* other = new QPushButton(tr("Open Another Library…"));
    auto* fresh = new QPushButton(tr("Start a New Library…"));
    connect(other, &QPushButton::clicked, this, &LibraryView::openAnotherRequested);
    connect(fresh, &QPushButton::clicked, this, &LibraryView::newLibraryRequested);
    m_problemBox = new QWidget;
    auto* pl = new QVBoxLayout(m_problemBox);
    pl->setContentsMargins(0, 0, 0, 0);
    pl->addWidget(m_problem);
    auto* pb = new QHBoxLayout;
    pb->addWidget(other);
    pb->addWidget(fresh);
    pb->addStretch(1);
    pl->addLayout(pb);
    m_problemBox->hide();

    m_path = new QLabel;
    m_path->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_path->setForegroundRole(QPalette::PlaceholderText);
    m_search = new QLineEdit;
    m_search->setPlaceholderText(tr("Search names, scripts, messages"));
    m_search->setClearButtonEnabled(true);
    m_status = new QComboBox;
    m_status->addItem(tr("All"), QString());
    for (auto s :
        {model::RunStatus::Ok, model::RunStatus::Mismatch, model::RunStatus::Violation, model::RunStatus::Error,
            model::RunStatus::Timeout, model::RunStatus::WorkerDied, model::RunStatus::ProtocolError}) {
        m_status->addItem(StatusStyle::word(s), StatusStyle::word(s));
        m_status->setItemData(m_status->count() - 1, StatusStyle::color(s), Qt::ForegroundRole);
    }
    m_status->setToolTip(tr("Show only runs with this status"));

    m_model = new QStandardItemModel(0, ColumnCount, this);
    m_model->setHorizontalHeaderLabels({tr("Time"), tr("Name"), tr("Status"), tr("Backend"), tr("Message")});
    m_proxy = new QSortFilterProxyModel(this);
    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(kSortRole);
    m_view = new QTreeView;
    m_view->setModel(m_proxy);
    m_view->setRootIsDecorated(false);
    m_view->setUniformRowHeights(true);
    m_view->setSortingEnabled(true);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_view->setAlternatingRowColors(true);
    m_view->sortByColumn(TimeColumn, Qt::DescendingOrder);
    m_view->header()->setStretchLastSection(true);
    connect(m_view, &QTreeView::activated, this, [this](const QModelIndex& index) {
        const qint64 id = index.sibling(index.row(), TimeColumn).data(kIdRole).toLongLong();
        if (id > 0)
            emit runActivated(id);
    });

    m_debounce = new QTimer(this);
    m_debounce->setSingleShot(true);
    m_debounce->setInterval(250);
    connect(m_debounce, &QTimer::timeout, this, &LibraryView::reload);
    connect(m_search, &QLineEdit::textChanged, m_debounce, qOverload<>(&QTimer::start));
    connect(m_status, &QComboBox::currentIndexChanged, this, &LibraryView::reload);

    auto* filters = new QHBoxLayout;
    filters->addWidget(m_search, 1);
    filters->addWidget(m_status);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_problemBox);
    layout->addLayout(filters);
    layout->addWidget(m_view, 1);
    layout->addWidget(m_path);
}

void LibraryView::setStore(RunStore* store)
{
    m_store = store;
    reload();
}

void LibraryView::reload()
{
    m_debounce->stop();
    m_model->removeRows(0, m_model->rowCount());
    if (!m_store) {
        m_path->clear();
        return;
    }
    const QString readOnly = m_store->readOnlyReason();
    m_path->setText(readOnly.isEmpty() ? m_store->path() : tr("%1 (read-only)").arg(m_store->path()));
    m_path->setToolTip(readOnly.isEmpty() ? m_store->path() : readOnly);
    if (!m_store->isOpen()) {
        m_problem->setText(tr("This library cannot be used:\n%1").arg(m_store->error()));
        m_problemBox->show();
        return;
    }
    QString error;
    const auto runs = m_store->list(m_search->text(), m_status->currentData().toString(), &error);
    if (!error.isEmpty()) {
        m_problem->setText(tr("The library could not be read:\n%1").arg(error));
        m_problemBox->show();
        return;
    }
    m_problemBox->hide();
    for (const auto& r : runs) {
        QList<QStandardItem*> row;
        const QDateTime t = QDateTime::fromString(r.createdAt, Qt::ISODateWithMs);
        auto* time = new QStandardItem(
            t.isValid() ? t.toLocalTime().toString(QStringLiteral("yyyy-MM-dd HH:mm:ss")) : r.createdAt);
        time->setData(r.id, kIdRole);
        time->setData(r.createdAt + QStringLiteral("#%1").arg(r.id, 12, 10, QLatin1Char('0')), kSortRole);
        time->setToolTip(tr("run #%1, %2").arg(r.id).arg(r.createdAt));
        auto* name = new QStandardItem(r.name + (r.trusted ? QString() : tr(" (untrusted)")));
        name->setData(name->text(), kSortRole);
        name->setToolTip(r.scriptPath);
        auto* status = new QStandardItem(r.status);
        status->setData(QStringLiteral("%1 %2").arg(statusRank(r.status)).arg(r.createdAt), kSortRole);
        if (const auto typed = model::runStatusFromString(r.status.toStdString()))
            status->setForeground(StatusStyle::color(*typed));
        auto* backend = new QStandardItem(r.backends.join(", "));
        backend->setData(backend->text(), kSortRole);
        auto* message = new QStandardItem(r.message.section('\n', 0, 0));
        message->setData(message->text(), kSortRole);
        message->setToolTip(r.message.left(1000));
        row << time << name << status << backend << message;
        m_model->appendRow(row);
    }
    for (int c = 0; c < MessageColumn; ++c)
        m_view->resizeColumnToContents(c);
}

void LibraryView::setSearch(const QString& text)
{
    m_search->setText(text);
    reload();
}

void LibraryView::setStatusFilter(const QString& status)
{
    const int i = m_status->findData(status);
    m_status->setCurrentIndex(i < 0 ? 0 : i);
    reload();
}

void LibraryView::sortBy(const QString& key, Qt::SortOrder order)
{
    m_view->sortByColumn(key == QLatin1String("status") ? StatusColumn : TimeColumn, order);
}

void LibraryView::selectRun(qint64 id)
{
    for (int r = 0; r < m_proxy->rowCount(); ++r)
        if (runIdAt(r) == id) {
            m_view->setCurrentIndex(m_proxy->index(r, 0));
            m_view->scrollTo(m_proxy->index(r, 0));
            return;
        }
}

int LibraryView::rowCount() const
{
    return m_proxy->rowCount();
}

qint64 LibraryView::runIdAt(int row) const
{
    return row >= 0 && row < rowCount() ? m_proxy->index(row, TimeColumn).data(kIdRole).toLongLong() : -1;
}

QString LibraryView::statusAt(int row) const
{
    return row >= 0 && row < rowCount() ? m_proxy->index(row, StatusColumn).data().toString() : QString();
}

QString LibraryView::problem() const
{
    return m_problemBox->isHidden() ? QString() : m_problem->text();
}

}  // namespace ps::ui
