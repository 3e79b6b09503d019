#include "ui/library/LibraryView.h"
#include "ui/common/QtText.h"

#include "ui/common/ElidedLabel.h"
#include "ui/common/StatusStyle.h"
#include "ui/editor/UnsavedScript.h"
#include "ui/library/LibraryActions.h"
#include "ui/library/LibraryRow.h"

#include <QApplication>
#include <QComboBox>
#include <QDateTime>
#include <QEvent>
#include <QFileInfo>
#include <QGridLayout>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QMenu>
#include <QPainter>
#include <QPushButton>
#include <QScreen>
#include <QSet>
#include <QSortFilterProxyModel>
#include <QStandardItemModel>
#include <QTimer>
#include <QToolBar>
#include <QTreeView>
#include <QVBoxLayout>

#include <algorithm>

namespace ps::ui {

LibraryView::LibraryView(QWidget* parent) : QWidget(parent)
{
    m_problem = new QLabel;
    m_problem->setTextFormat(Qt::PlainText);  // run-derived text
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
    m_path->setTextFormat(Qt::PlainText);  // run-derived text
    m_path->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_path->setForegroundRole(QPalette::PlaceholderText);
    m_search = new QLineEdit;
    m_search->setPlaceholderText(tr("Search names, scripts, messages"));
    m_search->setClearButtonEnabled(true);
    m_status = new QComboBox;
    m_status->addItem(tr("All"), -1);
    for (auto s :
        {model::RunStatus::Ok, model::RunStatus::Mismatch, model::RunStatus::Violation, model::RunStatus::Error,
            model::RunStatus::Timeout, model::RunStatus::WorkerDied, model::RunStatus::ProtocolError}) {
        m_status->addItem(StatusStyle::word(s), static_cast<int>(s));
        m_status->setItemData(m_status->count() - 1, StatusStyle::color(s), Qt::ForegroundRole);
    }
    m_status->setToolTip(tr("Show only runs with this status"));

    m_model = new QStandardItemModel(0, ColumnCount, this);
    m_model->setHorizontalHeaderLabels({QString(), tr("Name"), tr("Backend"), tr("Time"), tr("Status"), tr("Message"),
        tr("Run"), tr("Script"), tr("Where"), tr("By")});
    m_model->horizontalHeaderItem(OutcomeColumn)->setToolTip(tr("Outcome"));
    m_proxy = new QSortFilterProxyModel(this);
    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(LibraryRow::kSortRole);
    m_view = new QTreeView;
    m_view->setModel(m_proxy);
    m_view->setRootIsDecorated(false);
    m_view->setUniformRowHeights(true);
    m_view->setSortingEnabled(true);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_view->setAlternatingRowColors(true);
    m_view->sortByColumn(TimeColumn, Qt::DescendingOrder);
    m_view->setContextMenuPolicy(Qt::CustomContextMenu);
    m_view->viewport()->installEventFilter(this);
    QHeaderView* header = m_view->header();
    header->setStretchLastSection(true);  // the last shown column takes what is left
    header->setSectionResizeMode(QHeaderView::Interactive);
    header->setMinimumSectionSize(20);
    header->setContextMenuPolicy(Qt::CustomContextMenu);
    for (Column c : {StatusColumn, MessageColumn, IdColumn, ScriptColumn, WhereColumn, ByColumn})
        m_view->setColumnHidden(c, true);
    // A column edge dragged by the user (not the last column's stretch): the widths are theirs.
    connect(header, &QHeaderView::sectionResized, this,
        [this]() { m_userSized |= !m_fitting && (QApplication::mouseButtons() & Qt::LeftButton); });
    connect(header, &QHeaderView::customContextMenuRequested, this, [this](const QPoint& pos) {
        auto* menu = new QMenu(this);
        menu->setAttribute(Qt::WA_DeleteOnClose);
        for (int c = BackendColumn; c < ColumnCount; ++c) {
            QAction* a = menu->addAction(m_model->headerData(c, Qt::Horizontal).toString());
            a->setCheckable(true);
            a->setChecked(isColumnShown(static_cast<Column>(c)));
            connect(a, &QAction::toggled, this, [this, c](bool on) {
                m_userColumns = true;
                setColumnShown(static_cast<Column>(c), on);
            });
        }
        menu->popup(m_view->header()->mapToGlobal(pos));
    });
    connect(m_view, &QTreeView::activated, this, [this](const QModelIndex& index) {
        // Enter on two selected runs means Compare, never opening one of them; more than two
        // name no one run to open.
        if (const auto selected = selectedRuns(); selected.size() >= 2) {
            if (selected.size() == 2 && m_actions->compareAction()->isEnabled())
                m_actions->compareAction()->trigger();
            return;
        }
        const qint64 id = index.sibling(index.row(), OutcomeColumn).data(LibraryRow::kIdRole).toLongLong();
        if (id > 0)
            emit runActivated(id);
    });
    connect(m_view, &QWidget::customContextMenuRequested, this, [this](const QPoint& pos) { popupContextMenu(pos); });
    connect(m_view->selectionModel(), &QItemSelectionModel::selectionChanged, this, &LibraryView::selectionChanged);
    connect(m_view->selectionModel(), &QItemSelectionModel::currentChanged, this, &LibraryView::selectionChanged);

    // One line, as the message under it: at 1280x800 the dock is a strip and its rows come first.
    m_details = new ElidedLabel;
    // Said in the list's place while it is empty: what the library is for, on a first launch.
    m_emptyHint = new QLabel(m_view->viewport());
    m_emptyHint->setObjectName(QStringLiteral("libraryEmptyHint"));
    m_emptyHint->setWordWrap(true);
    m_emptyHint->setAlignment(Qt::AlignCenter);
    m_emptyHint->setForegroundRole(QPalette::PlaceholderText);
    m_emptyHint->setAttribute(Qt::WA_TransparentForMouseEvents);
    m_emptyHint->hide();
    m_message = new ElidedLabel;
    m_message->setObjectName(QStringLiteral("libraryMessage"));
    m_message->hide();

    m_actions = new LibraryActions(this);
    m_tools = new QToolBar;
    m_tools->setIconSize(QSize(16, 16));
    m_tools->setToolButtonStyle(Qt::ToolButtonIconOnly);
    for (QAction* a : {m_actions->scriptAction(), m_actions->compareAction(), m_actions->exportAction(),
             m_actions->importAction(), m_actions->trustAction(), m_actions->deleteAction()}) {
        m_tools->addAction(a);
        // In the Tab order, as every other control of the window: Compare and the rest are
        // reachable without the mouse.
        if (QWidget* button = m_tools->widgetForAction(a))
            button->setFocusPolicy(Qt::TabFocus);
    }

    m_debounce = new QTimer(this);
    m_debounce->setSingleShot(true);
    m_debounce->setInterval(250);
    connect(m_debounce, &QTimer::timeout, this, &LibraryView::reload);
    connect(m_search, &QLineEdit::textChanged, m_debounce, qOverload<>(&QTimer::start));
    connect(m_status, &QComboBox::currentIndexChanged, this, &LibraryView::reload);

    m_bar = new QGridLayout;
    m_bar->setContentsMargins(0, 0, 0, 0);
    m_bar->setSpacing(3);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->setSpacing(3);
    layout->addWidget(m_problemBox);
    layout->addLayout(m_bar);
    arrange();
    layout->addWidget(m_view, 1);
    layout->addWidget(m_details);
    layout->addWidget(m_message);
    layout->addWidget(m_path);
}

LibraryView::~LibraryView() = default;

void LibraryView::setStore(RunStore* store)
{
    m_store = store;
    m_message->hide();
    reload();
    arrange();
}

void LibraryView::reload()
{
    m_debounce->stop();
    const QList<qint64> selected = selectedRuns();
    const qint64 current = m_view->currentIndex().isValid()
        ? m_view->currentIndex().siblingAtColumn(OutcomeColumn).data(LibraryRow::kIdRole).toLongLong()
        : -1;
    m_model->removeRows(0, m_model->rowCount());
    m_runs.clear();
    m_emptyHint->hide();
    const auto done = [this]() {
        m_actions->update();
        selectionChanged();
    };
    if (!m_store) {
        m_path->clear();
        done();
        return;
    }
    const QString readOnly = m_store->readOnlyReason();
    m_path->setText(readOnly.isEmpty() ? m_store->displayPath() : tr("%1 (read-only)").arg(m_store->displayPath()));
    m_path->setToolTip(readOnly.isEmpty() ? m_store->displayPath() : readOnly);
    if (!m_store->isOpen()) {
        m_problem->setText(tr("This library cannot be used:\n%1").arg(m_store->error()));
        m_problemBox->show();
        done();
        return;
    }
    QString error;
    const auto runs = m_store->list(m_search->text(), statusFilter(), &error);
    if (!error.isEmpty()) {
        m_problem->setText(tr("The library could not be read:\n%1").arg(error));
        m_problemBox->show();
        done();
        return;
    }
    m_problemBox->hide();
    QSet<QString> places;
    bool someoneElse = false;
    for (const auto& r : runs) {
        m_model->appendRow(LibraryRow::items(r));
        m_runs.insert(r.id, r);
        places.insert(r.ranOn);
        someoneElse |= r.byOthers;
    }
    if (!m_userColumns) {
        // Where and By appear when they tell runs apart: runs from more than one place, or
        // runs stored by someone else.
        setColumnShown(WhereColumn, places.size() > 1);
        setColumnShown(ByColumn, someoneElse);
    }
    fitColumns();
    showEmptyHint();
    // What was selected stays selected (an action reloads the list under the user's selection).
    QItemSelection keep;
    QModelIndex currentIndex;
    for (int row = 0; row < m_proxy->rowCount(); ++row) {
        const qint64 id = runIdAt(row);
        if (selected.contains(id))
            keep.select(m_proxy->index(row, 0), m_proxy->index(row, ColumnCount - 1));
        if (id == current)
            currentIndex = m_proxy->index(row, 0);
    }
    if (currentIndex.isValid())
        m_view->selectionModel()->setCurrentIndex(currentIndex, QItemSelectionModel::NoUpdate);
    m_view->selectionModel()->select(keep, QItemSelectionModel::ClearAndSelect);
    done();
}

void LibraryView::focusSearch()
{
    m_search->setFocus(Qt::ShortcutFocusReason);
    m_search->selectAll();
}

QList<QPair<QString, QString>> LibraryView::keyHelp()
{
    return {{tr("Search the library's runs (in the Library)"), tr("Ctrl+F")},
        {tr("Open the selected run's report"), tr("Enter, double-click")},
        {tr("Select more runs (to compare two, delete several)"), tr("Ctrl+click, Shift+Up/Down")},
        {tr("Delete the selected runs"), tr("Delete")}, {tr("Go to the library from anywhere"), tr("Ctrl+Shift+L")}};
}

void LibraryView::showEmptyHint()
{
    const bool filtered = !m_search->text().trimmed().isEmpty() || statusFilter().has_value();
    m_emptyHint->setText(filtered ? tr("No run matches the search or the filter.")
                                  : tr("No runs yet. Every run (Ctrl+R) is kept here to reopen, compare and export; "
                                       "File > Examples has scripts to start with."));
    m_emptyHint->setVisible(m_model->rowCount() == 0);
}

void LibraryView::fitColumns()
{
    if (m_userSized || m_model->rowCount() == 0)
        return;
    m_fitting = true;
    QHeaderView* header = m_view->header();
    header->setStretchLastSection(false);  // else the last column keeps its stretched width
    m_view->setColumnWidth(OutcomeColumn, 24);
    for (int c : {NameColumn, BackendColumn, TimeColumn, StatusColumn, IdColumn})
        m_view->resizeColumnToContents(c);
    // The name gets what the outcome, backend and time leave (the last shown column stretches).
    const int rest = m_view->viewport()->width() - 4 - m_view->columnWidth(OutcomeColumn)
        - m_view->columnWidth(BackendColumn) - m_view->columnWidth(TimeColumn);
    m_view->setColumnWidth(NameColumn, std::clamp(rest, 48, std::max(48, m_view->columnWidth(NameColumn))));
    header->setStretchLastSection(true);
    m_fitting = false;
}

void LibraryView::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    arrange();
}

void LibraryView::arrange()
{
    // Wide (the dock below the editor): search, actions and the status filter on one row.
    // Narrow (the dock at the side): the search on a row of its own.
    const bool wide = width() >= 460;
    if (m_bar->count() == 0 || wide != m_wide) {
        m_wide = wide;
        for (QWidget* w :
            {static_cast<QWidget*>(m_search), static_cast<QWidget*>(m_tools), static_cast<QWidget*>(m_status)})
            m_bar->removeWidget(w);
        if (wide) {
            m_bar->addWidget(m_search, 0, 0);
            m_bar->addWidget(m_tools, 0, 1);
            m_bar->addWidget(m_status, 0, 2);
            m_bar->setColumnStretch(0, 1);
            m_bar->setColumnStretch(1, 0);
        } else {
            m_bar->addWidget(m_search, 0, 0, 1, 2);
            m_bar->addWidget(m_tools, 1, 0);
            m_bar->addWidget(m_status, 1, 1);
            m_bar->setColumnStretch(0, 1);
            m_bar->setColumnStretch(1, 0);
        }
    }
    // A short dock keeps its rows for runs: the library's path is in the dock's title and here
    // only when there is room (its tooltip says it always).
    m_path->setVisible(height() >= 320 || !m_store || !m_store->readOnlyReason().isEmpty());
}

bool LibraryView::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == m_view->viewport() && event->type() == QEvent::Resize) {
        fitColumns();  // the dock was resized or moved: the columns follow, until the user sizes them
        m_emptyHint->setGeometry(m_view->viewport()->rect().adjusted(8, 8, -8, -8));
    }
    return QWidget::eventFilter(watched, event);
}

void LibraryView::selectionChanged()
{
    m_actions->update();
    m_details->setFullText(details().replace('\n', QStringLiteral(" · ")));
    m_details->setVisible(!m_details->fullText().isEmpty());
}

QString LibraryView::details() const
{
    const QModelIndex index = m_view->currentIndex();
    if (!index.isValid() || !m_view->selectionModel()->isSelected(index))
        return QString();
    const auto it = m_runs.constFind(index.siblingAtColumn(OutcomeColumn).data(LibraryRow::kIdRole).toLongLong());
    if (it == m_runs.constEnd())
        return QString();
    StoredRunDetails more;
    QString error;
    const bool known = m_store && m_store->details(it->id, &more, &error);
    return LibraryRow::details(*it, known ? &more : nullptr);
}

QString LibraryView::message() const
{
    return m_message->isHidden() ? QString() : m_message->fullText();
}

void LibraryView::showMessage(const QString& text, bool error)
{
    m_messageIsError = error;
    m_message->setFullText(text);
    QPalette palette = m_message->palette();
    palette.setColor(QPalette::WindowText,
        error ? StatusStyle::color(model::RunStatus::Error) : this->palette().color(QPalette::WindowText));
    m_message->setPalette(palette);
    m_message->setVisible(!text.isEmpty());
}

bool LibraryView::isColumnShown(Column column) const
{
    return !m_view->isColumnHidden(column);
}

void LibraryView::setColumnShown(Column column, bool shown)
{
    m_view->setColumnHidden(column, !shown);
    if (shown && m_view->columnWidth(column) < 30)
        m_view->resizeColumnToContents(column);
}

QMenu* LibraryView::popupContextMenu(const QPoint& viewportPos)
{
    const QModelIndex index = m_view->indexAt(viewportPos);
    if (index.isValid() && !m_view->selectionModel()->isSelected(index))
        m_view->selectionModel()->setCurrentIndex(
            index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    m_actions->update();
    auto* menu = new QMenu(this);
    menu->setAttribute(Qt::WA_DeleteOnClose);
    m_actions->fillMenu(menu);
    // Near the screen's bottom (the dock's last rows) the menu opens upwards from the click,
    // whole, instead of being pushed up over it to touch the screen's edge.
    QPoint at = m_view->viewport()->mapToGlobal(viewportPos);
    const QScreen* screen = QGuiApplication::screenAt(at);
    if (screen || (screen = this->screen())) {
        const QRect avail = screen->availableGeometry();
        const int height = menu->sizeHint().height();
        if (at.y() + height > avail.bottom() && at.y() - height >= avail.top())
            at.ry() -= height;
    }
    menu->popup(at);
    return menu;
}

void LibraryView::setSearch(const QString& text)
{
    m_search->setText(text);
    reload();
}

std::optional<model::RunStatus> LibraryView::statusFilter() const
{
    const int value = m_status->currentData().toInt();
    return value < 0 ? std::nullopt : std::optional(static_cast<model::RunStatus>(value));
}

void LibraryView::setStatusFilter(std::optional<model::RunStatus> status)
{
    const int i = m_status->findData(status ? static_cast<int>(*status) : -1);
    m_status->setCurrentIndex(i < 0 ? 0 : i);
    reload();
}

void LibraryView::sortBy(const QString& key, Qt::SortOrder order)
{
    m_view->sortByColumn(key == QLatin1String("status") ? OutcomeColumn : TimeColumn, order);
}

void LibraryView::selectRun(qint64 id)
{
    for (int r = 0; r < m_proxy->rowCount(); ++r)
        if (runIdAt(r) == id) {
            m_view->selectionModel()->setCurrentIndex(
                m_proxy->index(r, 0), QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
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
    return row >= 0 && row < rowCount() ? m_proxy->index(row, OutcomeColumn).data(LibraryRow::kIdRole).toLongLong()
                                        : -1;
}

QString LibraryView::statusAt(int row) const
{
    return row >= 0 && row < rowCount() ? m_proxy->index(row, StatusColumn).data().toString() : QString();
}

QList<qint64> LibraryView::selectedRuns() const
{
    QList<qint64> ids;
    const QItemSelectionModel* selection = m_view->selectionModel();
    for (int row = 0; row < m_proxy->rowCount(); ++row)
        if (selection->isRowSelected(row))
            ids << runIdAt(row);
    return ids;
}

const StoredRun* LibraryView::run(qint64 id) const
{
    const auto it = m_runs.constFind(id);
    return it == m_runs.constEnd() ? nullptr : &*it;
}

QString LibraryView::problem() const
{
    return m_problemBox->isHidden() ? QString() : m_problem->text();
}

}  // namespace ps::ui
