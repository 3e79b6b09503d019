#pragma once

#include <QObject>
#include <QStringList>

#include <vector>

namespace ps::ui {

class CompareViewportSync;
class GraphView;

/// How the Compare window's two graphs open: in the same collapse state, showing where they
/// differ, their box titles readable at Fit.
///
/// Each view first opens as the Graph tab would (GraphOpening: the largest state readable in its
/// pane). Once both have: a module matched on the other side (the same path, through the
/// diff's renames, in the same phase; against an inference graph, each phase's copy of a
/// training step's module is matched to the one module, its phase groups to the root) stays
/// expanded only where it is expanded on both sides, a module of one side only is collapsed (an
/// added layer reads as one box), and the modules to reveal (the parents of each added or
/// removed block, else of each changed node; in a training step both phases' copies) are
/// expanded on both sides, unless on either side they would be most of its modules that hold
/// others (two unrelated models: each then opens as it would alone). Then, while a side's fitted
/// zoom leaves its titles unreadable, the deepest expanded modules that were not revealed are
/// collapsed on that side and every module matched to them on the other, a level at a time.
/// Both are fitted at the end. Meanwhile the viewport sync is suspended: each side is opened by
/// this, not by following the other.
class CompareOpening : public QObject {
    Q_OBJECT
public:
    CompareOpening(GraphView* a, GraphView* b, CompareViewportSync* sync, QObject* parent = nullptr);

    /// New graphs are opening in the views: once both are shown, brings them to one state with
    /// `reveal` (module paths, parents first) expanded on both sides.
    void start(QStringList reveal);
    /// Opening still (the views' first layouts, or the ones this asked for).
    bool busy() const { return m_stage != Stage::Idle; }

signals:
    /// Both graphs are open, in the same state, fitted.
    void finished();

private:
    enum class Stage { Idle, Opening, Equalising, Reading };

    /// After a layout of either view: the next step once both are settled.
    void onShown();
    /// Forgets the reveals when on either side they would open most of the modules that hold
    /// others (two unrelated models differ everywhere: pointing at the differences is pointing
    /// at everything), so that each side opens as it would alone.
    void dropSweepingReveals();
    /// The same state on both sides, the reveals expanded. False when nothing was asked.
    bool equalise();
    /// Collapses a level of unrevealed modules where a side's titles cannot be read at Fit.
    /// False when both can be read, or nothing is left to collapse.
    bool makeReadable();
    void finish();
    /// Per module of `side`'s tree: expanded, and so are all its parents.
    std::vector<bool> shownExpanded(int side) const;
    std::vector<bool> revealed(int side) const;
    /// The other side's module matched to `module` of `side`, or -1.
    int counterpart(int side, int module) const;
    /// Expands or collapses `side`'s modules to `target` (per module), parents first.
    bool apply(int side, const std::vector<bool>& target);
    bool readable(int side) const;

    GraphView* m_views[2];
    CompareViewportSync* m_sync;
    QStringList m_reveal;
    Stage m_stage = Stage::Idle;
    int m_rounds = 0;
};

}  // namespace ps::ui
