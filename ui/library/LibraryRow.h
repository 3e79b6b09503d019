#pragma once

#include <QList>
#include <QString>

class QStandardItem;

namespace ps::ui {

struct StoredRun;
struct StoredRunDetails;

/// A stored run as the library's list shows it: its row of items (LibraryView::Column order),
/// each with the words shown, a sort key (kSortRole: worst status first, then time) and the run's
/// id on the first (kIdRole); and the one-line details under the list.
class LibraryRow {
public:
    static constexpr int kIdRole = Qt::UserRole + 1;
    static constexpr int kSortRole = Qt::UserRole + 2;

    static QList<QStandardItem*> items(const StoredRun& run);
    /// "run #3 mlp: ok — message\nmlp.py · inductor · 1 capture · 2 MB · stored … · trusted";
    /// `more` null: what the store could not say is left out.
    static QString details(const StoredRun& run, const StoredRunDetails* more);
    /// Where the run's pair was checked, one line: "checked: loads with its cache on gpu-box;
    /// refused on /envs/torch-2.14"; "" when it never was.
    static QString checkedLine(const StoredRun& run);
};

}  // namespace ps::ui
