#pragma once

#include <QList>
#include <QWidget>

#include <memory>
#include <vector>

class QGraphicsScene;
class QLabel;
class QStackedWidget;
class QTextBrowser;

namespace ps::ui {

class EdgesItem;
class GraphCanvas;
class GraphModel;
class NodeItem;
struct GraphLayoutResult;

/// The Graph tab: the captured graph laid out in layers, with a details pane for the selected
/// node (shape, dtype, stride, device, module, source line, inputs and users).
///
/// setGraph() lays the graph out on a pool thread and builds the scene when the layout comes
/// back; a newer setGraph() or clear() makes a pending layout's result be dropped (by a
/// generation number). Everything else runs on the GUI thread.
class GraphView : public QWidget {
    Q_OBJECT
public:
    explicit GraphView(QWidget* parent = nullptr);
    ~GraphView() override;

    void setGraph(std::shared_ptr<const GraphModel> graph);
    /// No graph: shows `message` instead.
    void clear(const QString& message);

    const std::shared_ptr<const GraphModel>& graph() const { return m_graph; }
    bool layoutPending() const { return m_pending; }
    QList<int> selectedNodes() const;
    /// Selects these nodes (and nothing else); scrolls the first into view when `reveal`.
    void selectNodes(const QList<int>& nodes, bool reveal);
    /// Scene position of a node's box centre (tests click there); null when not shown.
    QPointF nodeCenter(int node) const;
    GraphCanvas* canvas() const { return m_canvas; }
    QString detailsText() const;
    QString message() const;

public slots:
    void zoomIn();
    void zoomOut();
    void zoomToFit();
    void zoomReset();

signals:
    /// The selection changed, by a click or by selectNodes().
    void nodesSelected(const QList<int>& nodes);
    /// The scene shows the graph of the last setGraph().
    void graphShown();

private:
    void buildScene(const GraphLayoutResult& layout);
    void onSelectionChanged();
    void showDetails(const QList<int>& nodes);

    std::shared_ptr<const GraphModel> m_graph;
    std::vector<NodeItem*> m_items;
    EdgesItem* m_edges = nullptr;
    QGraphicsScene* m_scene;
    GraphCanvas* m_canvas;
    QStackedWidget* m_stack;
    QLabel* m_message;
    QLabel* m_summary;
    QTextBrowser* m_details;
    quint64 m_generation = 0;
    bool m_pending = false;
    bool m_selecting = false;
};

} // namespace ps::ui
