#pragma once

#include <QWidget>

#include <memory>

class QFormLayout;
class QLabel;
class QTreeWidget;

namespace ps::ui {

struct RunDocument;

/// The Cache tab: model::CacheInfo's facts (as the page and `compare` show them), the code_hash
/// checked here again from the stored python_code's bytes when the window has them, and the
/// artifact bundle's entries in a sortable table.
class CacheView : public QWidget {
    Q_OBJECT
public:
    explicit CacheView(QWidget* parent = nullptr);

    void setCapture(const std::shared_ptr<const RunDocument>& run, int capture);
    void clear(const QString& message);
    int entryCount() const;
    /// How the code_hash checks went, the worker's and this window's together.
    enum class Check { Unknown, Matches, Differs };
    Check codeHashCheck() const { return m_check; }
    QString text() const;

private:
    QLabel* m_message;
    QWidget* m_fieldsBox;
    QFormLayout* m_fields;
    QTreeWidget* m_entries;
    Check m_check = Check::Unknown;
};

}  // namespace ps::ui
