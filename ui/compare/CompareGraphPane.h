#pragma once

#include <QList>
#include <QString>
#include <QStringList>
#include <QWidget>

#include <nlohmann/json.hpp>

#include <map>
#include <memory>
#include <vector>

#include "compare/GraphDiff.h"
#include "graph/GraphModel.h"
#include "ui/compare/CompareColouring.h"

class QCheckBox;
class QLabel;
class QSplitter;

namespace ps::ui {

class FocusFrame;

class CompareOpening;
class CompareViewportSync;
class GraphView;

/// Two captured graphs side by side (side 0: run A, left; side 1: run B, right), each in a
/// GraphView of its own, coloured by engine/compare's GraphDiff (CompareColouring): nodes only
/// in B green on B, nodes only in A red on A, matched nodes whose fields differ amber on both;
/// matched unchanged nodes plain; a collapsed module as its match on the other side is. Both
/// open in the same collapse state, the modules holding the difference opened
/// (CompareOpening). Selecting nodes on one side selects their matches on the other (a module
/// box stands for its nodes there too) and centres the first of them. With "Move together" (on
/// by default), scrolling, zooming, expanding or collapsing one side does the same to the
/// other, matching nodes kept side by side (CompareViewportSync).
class CompareGraphPane : public QWidget {
    Q_OBJECT
public:
    explicit CompareGraphPane(QWidget* parent = nullptr);

    /// Shows two captures (the report's capture objects; null where the capture is only on
    /// the other side) compared by `diff`; labels name the runs ("run #12").
    void setCapture(const nlohmann::json& captureA, const nlohmann::json& captureB, const compare::GraphDiff& diff,
        const QString& labelA, const QString& labelB);

    GraphView* view(int side) const { return m_views[side]; }
    CompareViewportSync* sync() const { return m_sync; }
    /// The graphs are still opening (their first layouts, then the same state on both sides).
    bool opening() const;
    const CompareColouring& colouring() const { return m_colouring; }
    /// The "Move together" box.
    QCheckBox* moveTogether() const { return m_together; }
    /// The node of the other side matched to `node` of `side` (GraphModel indices), or -1.
    int matchOf(int side, int node) const;
    /// The line above the graphs: what was added, removed, renamed, changed.
    QString summary() const;
    /// The line under it: what the selection is on each side and what changed in it (the colours'
    /// legend while nothing is selected).
    QString detail() const;

private:
    /// The steps of setCapture(). Per side: the model shown, and node_list index -> model node.
    using Models = std::shared_ptr<const graph::GraphModel>[2];
    using Indices = std::vector<int>[2];
    void showSides(const nlohmann::json* captures[2], Models& models, Indices& index);
    /// The diff's status of each node per side (CompareColouring), with the matches and changes noted.
    void colourAndMatch(const compare::GraphDiff& diff, const Indices& index, const Models& models);
    /// The modules to open on both sides: the parents of each block's module, else of each
    /// changed node's.
    QStringList chooseModulesToOpen(const compare::GraphDiff& diff, const Models& models);
    void setTitles(const compare::GraphDiff& diff, const Models& models);
    /// The fills of both sides for what they show now (after every layout).
    void refreshFills();
    /// The lines above the graphs: identical or not, the blocks, renames, changes.
    QStringList summaryLines(const compare::GraphDiff& diff);
    void onSelected(int side, const QList<int>& nodes);
    QString describe(int side, const QList<int>& nodes) const;
    QString nodeName(int side, int node) const;
    QString legend() const;

    GraphView* m_views[2];
    FocusFrame* m_focusFrame;  ///< around the side that has the keyboard (owned by that side)
    QLabel* m_titles[2];
    QLabel* m_summary;
    QLabel* m_detail;
    QString m_labels[2];
    std::vector<int> m_change[2];  ///< per GraphModel node of a side: its index in m_changes, or -1
    std::vector<compare::NodeChange> m_changes;
    QCheckBox* m_together;
    CompareViewportSync* m_sync;
    CompareOpening* m_opening;
    CompareColouring m_colouring;
    QSplitter* m_split;
    std::vector<int> m_match[2];  ///< per GraphModel node of a side: its match on the other, or -1
    int m_expect[2] = {-1, -1};   ///< a node this pane selected on a side, to centre when shown
    bool m_syncing = false;
};

}  // namespace ps::ui
