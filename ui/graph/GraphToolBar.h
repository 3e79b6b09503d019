#pragma once

#include "graph/GraphLens.h"
#include "graph/GraphSearch.h"

#include <QStringList>
#include <QWidget>

#include <string>
#include <utility>
#include <vector>

class QComboBox;
class QHBoxLayout;
class QLabel;
class QLineEdit;
class QSpinBox;
class QTimer;
class QToolButton;

namespace ps::graph {
class GraphModel;
}

namespace ps::ui {

/// The Graph tab's two rows above the canvas: the graph's summary and the search (field, which
/// part of a node to match, previous / next, the match count); the lens, the neighbourhood
/// depth, the legend, Expand all / Collapse all, Export, the side panel's toggle and the zoom
/// buttons. It holds no graph: it says what was asked (signals) and shows what it is told,
/// and keeps the search's matches and which one is shown.
///
/// The search is debounced (150 ms after the last key); Enter searches what is typed at once
/// and steps to the next match.
class GraphToolBar : public QWidget {
    Q_OBJECT
public:
    explicit GraphToolBar(QWidget* parent = nullptr);

    QString searchText() const;
    graph::SearchField searchField() const;
    /// The node search's text box (GraphView puts the canvas next after it in the Tab order).
    QLineEdit* searchBox() const { return m_search; }
    /// Sets the search box and the field without emitting searchChanged.
    void setSearch(const QString& text, graph::SearchField field);
    /// Empties the search box, its matches and their count, without emitting searchChanged
    /// (another graph is shown: the last graph's query and "no match" would read as the new one's).
    void clearSearch();
    /// The nodes the search found (`searched`: false when the box is empty), none current.
    void setMatches(std::vector<int> matches, bool searched);
    int matchCount() const { return static_cast<int>(m_matches.size()); }
    /// Index into the matches of the one shown, or -1.
    int currentMatch() const { return m_matchIndex; }
    int currentMatchNode() const;
    /// Makes the next (`step` 1) or previous (-1) match current, round the end; returns its
    /// node, or -1 when there is no match.
    int stepMatch(int step);
    void focusSearch();

    /// The summary line, ending in "…" where the toolbar is too narrow; the tooltip has it all
    /// (`tip`, else the text).
    void setSummary(const QString& text, const QString& tip = QString());
    QString summary() const { return m_summaryText; }
    /// The summary of a graph shown with `layers` layers and `collapsed` module boxes, "Partial
    /// graph" first when precompile stopped before the capture finished.
    void setSummary(const graph::GraphModel& graph, int layers, int collapsed);
    /// Selects the lens in its box without emitting lensChanged (the source lens shows the
    /// scope box beside it).
    void setLens(graph::Lens lens);
    /// The scopes the source lens offers besides the user's code: the packages of the graph's
    /// stacks ("torchvision"). The scope chosen stays where the new graph has it, else it
    /// becomes the user's code; nothing is emitted.
    void setSourceScopes(const std::vector<std::string>& packages);
    /// The source lens's scope: "" the user's code, else a package.
    QString sourceScope() const;
    /// Selects a scope without emitting sourceScopeChanged; false when the box does not list it.
    bool setSourceScope(const QString& scope);
    /// Sets the depth box without emitting depthChanged.
    void setDepth(int depth);
    /// The legend: `counts` (category, boxes), most common first; as many whole entries as fit
    /// the toolbar's width (at most eight) are drawn with their colours, then "+N more"; the whole
    /// list is the tooltip. An entry is never cut in the middle.
    void setLegend(const std::vector<std::pair<std::string, int>>& counts, graph::Lens lens);
    void clearLegend();
    /// A numeric lens's legend (GraphMeasures::legendHtml: the ramp, min and max in units) in
    /// place of the categories'; `tip` its tooltip.
    /// `forms`: the legend from its fullest to its briefest; the fullest that fits beside the
    /// lens is drawn there, and when none does the legend takes a row of its own under it.
    void setMeasureLegend(const QStringList& forms, const QString& tip);
    /// True while the legend is on its own row under the lens (a measured legend too wide).
    bool legendOnItsOwnRow() const;
    QLabel* legendLabel() const { return m_legend; }
    /// Enables a lens in the box, or disables it with `why` as its tooltip ("not profiled: Run >
    /// Profile"); a disabled lens that is current stays selected until another is chosen.
    void setLensAvailable(graph::Lens lens, const QString& why);
    /// Whether a lens can be chosen in the box now, and why not.
    bool lensAvailable(graph::Lens lens, QString* why = nullptr) const;
    /// The legend's entries, "category (count)", most common first.
    const QStringList& legendEntries() const { return m_legendEntries; }
    /// How many legend entries are drawn at the current width.
    int legendShown() const { return m_legendShown; }

    /// Checks the side panel's toggle without emitting sidePanelToggled.
    void setSidePanelShown(bool shown);
    /// Shows or hides the side panel's toggle (a view without the panel, as in Compare).
    void setSidePanelToggleVisible(bool visible);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

signals:
    void searchChanged(const QString& text, graph::SearchField field);
    void findNext();
    void findPrevious();
    void lensChanged(graph::Lens lens);
    void sourceScopeChanged(const QString& scope);
    void depthChanged(int depth);
    void expandAll();
    void collapseAll();
    void exportRequested();
    void sidePanelToggled(bool shown);
    void zoomToFit();
    void zoomReset();
    void zoomIn();
    void zoomOut();

private:
    void emitSearch();
    void showMatchCount();
    void renderLegend();
    void elideSummary();
    /// Draws the measured legend in the fullest form that fits, on the lens's row or its own.
    void renderMeasureLegend();
    /// The width the legend has on the lens's row: the toolbar's less the other widgets'.
    int roomBesideLens() const;
    /// Puts the legend on its own row under the lens's, or back beside the lens.
    void placeLegend(bool ownRow);

    QLabel* m_summary;
    QString m_summaryText;  ///< the whole summary; the label shows what fits
    QLineEdit* m_search;
    QComboBox* m_searchField;
    QLabel* m_matchLabel;
    QTimer* m_debounce;
    QComboBox* m_lensBox;
    QComboBox* m_scopeBox;
    QSpinBox* m_depthBox;
    QLabel* m_legend;
    QToolButton* m_panelButton;
    QStringList m_legendEntries;
    std::vector<std::pair<std::string, int>> m_legendCounts;
    graph::Lens m_legendLens{};
    bool m_legendSet = false;
    QStringList m_measureLegend;  ///< a numeric lens's legend, fullest first, drawn instead of the categories
    QHBoxLayout* m_lensRow;
    QHBoxLayout* m_legendRow;
    bool m_placing = false;
    int m_legendShown = 0;
    std::vector<int> m_matches;
    int m_matchIndex = -1;
};

}  // namespace ps::ui
