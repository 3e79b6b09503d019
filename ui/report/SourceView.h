#pragma once

#include <QList>
#include <QStringList>
#include <QWidget>

#include <map>
#include <memory>
#include <vector>

class QLabel;
class QsciScintilla;
class QStackedWidget;
class QSplitter;
class QTreeWidget;

namespace ps::ui {

class FindBar;
struct RunDocument;

/// The Source tab: the python_code precompile returned, read-only with Python highlighting,
/// folding and find; its sections (and, for inductor, its kernels) as an outline beside it.
/// highlightNodes() marks the kernels (inductor) or lines (eager) that compute given graph
/// nodes; a click inside a kernel or a graph line asks for its nodes (nodesActivated).
class SourceView : public QWidget {
    Q_OBJECT
public:
    /// Larger python_code is shown in part (it is kept whole in the library).
    static constexpr qsizetype kMaxShownBytes = 16 * 1024 * 1024;

    explicit SourceView(QWidget* parent = nullptr);

    void setCapture(const std::shared_ptr<const RunDocument>& run, int capture);
    void clear(const QString& message);
    int sectionCount() const { return static_cast<int>(m_sections.size()); }
    int kernelCount() const { return static_cast<int>(m_kernels.size()); }

    /// Returns the names of the kernels (and extern calls) marked; eager marks graph lines.
    QStringList highlightNodes(const QStringList& nodes);
    QList<int> highlightedLines() const { return m_highlighted; }
    /// "Colour by Script Line": paints each line of python_code in the colour (a LineColours
    /// palette index) of the nodes it computes; a kernel computing nodes of several lines takes
    /// the colour most of them have. An empty map clears.
    void setNodeColours(const std::map<QString, int>& colourOfNode);
    /// Sections (title) and kernels (name) with their first line, as the outline lists them.
    QStringList outlineEntries() const;
    /// Moves to an outline entry's line, as a click on it does.
    bool goToOutlineEntry(const QString& title);
    /// The first visible line (1-based).
    int firstVisibleLine() const;
    QsciScintilla* editor() const { return m_editor; }
    FindBar* findBar() const { return m_find; }
    QString message() const;

signals:
    void nodesActivated(const QStringList& nodes);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    struct Section {
        QString kind, title, parent;
        int start = 0, end = 0;
    };
    struct Kernel {
        QString name, kind;
        int start = 0, end = 0;
        QList<int> calls;
        QStringList nodes;
    };
    void goToLine(int line);
    /// Gives the outline the width its names need, up to two fifths of the tab.
    void fitOutline();
    QStringList nodesAtLine(int line) const;

    std::vector<Section> m_sections;
    std::vector<Kernel> m_kernels;            ///< kernels, then extern calls
    std::multimap<QString, int> m_nodeLines;  ///< eager: node name -> graph line
    std::map<int, QStringList> m_lineNodes;   ///< eager: graph line -> node names
    QList<int> m_highlighted;
    QStackedWidget* m_stack;
    QLabel* m_message;
    QLabel* m_note;
    QTreeWidget* m_outline;
    QSplitter* m_split;
    bool m_outlineSized = false;  ///< the user moved the divider: it stays where they put it
    QsciScintilla* m_editor;
    FindBar* m_find;
};

}  // namespace ps::ui
