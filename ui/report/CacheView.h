#pragma once

#include <QWidget>

#include <memory>

class QFormLayout;
class QLabel;
class QTreeWidget;

namespace ps::ui {

struct RunDocument;

/// The Cache tab: the envelope precompile's cache holds (format, version, backend, code_hash)
/// with the code_hash checked against sha256(python_code) (by the worker, and here again from
/// the bytes when the window has them), and the entries of the artifact bundle with sizes.
class CacheView : public QWidget {
    Q_OBJECT
public:
    explicit CacheView(QWidget* parent = nullptr);

    void setCapture(const std::shared_ptr<const RunDocument>& run, int capture);
    void clear(const QString& message);
    int entryCount() const;
    /// "matches", "differs" or "unknown".
    QString codeHashCheck() const { return m_check; }
    QString text() const;

private:
    QLabel* m_message;
    QWidget* m_fieldsBox;
    QFormLayout* m_fields;
    QTreeWidget* m_entries;
    QString m_check;
};

}  // namespace ps::ui
