#pragma once

#include <QCoreApplication>
#include <QList>
#include <QString>
#include <QUrl>

namespace ps::graph {
class GraphModel;
class ModuleTree;
struct GraphNode;
}  // namespace ps::graph

namespace ps::ui {

/// The Graph tab's details pane as HTML, from the graph and a selection; no widgets. One node
/// shows what the captured graph says of it, and every input, user, kernel, source line and
/// frame of its stack (innermost first) is a link (link() makes one, parse() reads one back); several nodes are listed
/// as links; one collapsed module is summarised. Names are the ones the boxes show (title()).
class GraphDetailsFormatter {
    Q_DECLARE_TR_FUNCTIONS(GraphDetailsFormatter)
public:
    /// What a link in the pane stands for, always by a node: select it, select every node its
    /// kernel computes, go to its source line, or open a frame of its stack (`frame`: the
    /// position in the node's stack, innermost 0).
    struct Link {
        enum Kind { None, Node, Kernel, Source, Frame };
        Kind kind = None;
        int node = -1;
        int frame = -1;
    };

    /// What a node's box says it is: a placeholder's qualified name ("model.0.bias", "x"),
    /// otherwise the node's name ("addmm_3").
    static QString title(const graph::GraphNode& node);

    /// `nodes`: the selected graph nodes; `modules`: the selected module boxes (one means that
    /// module is summarised). "" when nothing is selected.
    static QString html(const graph::GraphModel& graph, const graph::ModuleTree* tree, const QList<int>& nodes,
        const QList<int>& modules);

    static QUrl link(Link::Kind kind, int node, int frame = -1);
    /// A link of this pane, or one of kind None.
    static Link parse(const QUrl& url);
};

}  // namespace ps::ui
