#pragma once

#include <QObject>
#include <QPointF>
#include <QString>

#include <map>
#include <string>
#include <vector>

namespace ps::ui {

class GraphView;

/// Keeps the Compare window's two graph views on the same part of the graph, so that matching
/// nodes stand side by side: when one side is scrolled or zoomed, the other takes the same zoom
/// and centres on what matches the first side's centre; when a module is expanded or collapsed
/// on one side, the same module (or the one it was renamed to) is on the other.
///
/// Each graph keeps its own layout (the one its Graph tab has; a joint layout would move the
/// boxes to make room for what only the other side has). "What matches" is a map between the two
/// scenes built from the matched nodes' boxes after every layout: the rows (equal y) of one side
/// with a matched box, each paired with the median y of their matches on the other side, kept
/// where both go down together (the longest such chain of rows); between two rows the map is
/// linear, so the other side moves smoothly as one is scrolled. Horizontally, the offset is that
/// of the matched box in the row nearest the centre.
///
/// A side the user has not moved (its canvas still fitted, as both open) leads nothing, but the
/// fitted sides share one zoom, the smaller of their fits, so that the same part is the same size
/// on both; Fit on one side fits both. Off, each fits its own pane.
class CompareViewportSync : public QObject {
    Q_OBJECT
public:
    CompareViewportSync(GraphView* a, GraphView* b, QObject* parent = nullptr);

    /// Node matches (GraphModel indices of side 0 -> side 1, -1 where none) and module renames
    /// (side 0's path -> side 1's), for the graphs the views show now.
    void setMatches(std::vector<int> match, std::map<std::string, std::string> renames);
    void setEnabled(bool enabled);
    bool isEnabled() const { return m_enabled; }
    /// Suspended, neither side follows the other, whether enabled or not (while CompareOpening
    /// opens both).
    void setSuspended(bool suspended) { m_suspended = suspended; }

    /// The point of the other side's scene that shows what `point` of `side`'s scene shows;
    /// `point` itself when nothing on the two sides is matched yet.
    QPointF map(int side, const QPointF& point) const;
    /// Puts the other side at `side`'s zoom, centred on what matches `side`'s centre.
    void follow(int side);
    /// The fitted sides at one zoom (the smaller of their fits) while enabled, each its own when not.
    void shareFit();
    /// A module path of one side on the other, through `renames` (that side's paths -> the
    /// other's), by its longest renamed prefix ("layers.1" -> "layers.2" makes "layers.1.fc"
    /// "layers.2.fc"), in the same phase ("backward:layers.1.fc" -> "backward:layers.2.fc").
    static std::string mapPath(const std::map<std::string, std::string>& renames, const std::string& path);
    /// Side `side`'s module renames: its paths -> the other side's.
    const std::map<std::string, std::string>& renames(int side) const { return m_renames[side]; }

private:
    /// A row of matched boxes on one side: its y, the y of their matches, and per box its x and
    /// the x offset to its match, by x.
    struct Row {
        qreal y = 0;
        qreal otherY = 0;
        std::vector<std::pair<qreal, qreal>> dx;
        qreal offsetAt(qreal x) const;
    };

    void rebuild();
    void onMoved(int side);
    void onShown(int side);
    void onExpansion(int side, const QString& path, bool expand);
    QString mapPath(int side, const QString& path) const;

    GraphView* m_views[2];
    std::vector<int> m_match;
    std::map<std::string, std::string> m_renames[2];  ///< per side: its module path -> the other's
    std::vector<Row> m_rows[2];                       ///< per side, by y
    bool m_relayout[2] = {false, false};              ///< an expansion on the side is being laid out
    int m_leader = -1;                                ///< the side the user last moved or expanded
    bool m_enabled = true;
    bool m_suspended = false;
    bool m_following = false;
};

}  // namespace ps::ui
