/// Where the HTML report writes each edge's label: on its own curve where no other label, state
/// box or loop is, so no label hides another or a state (measured in a browser by `.ci/html-browser`).
///
/// Each label tries, in a fixed order, points along its curve (the middle first, then further out,
/// above the line and then below it), then points stacked above and below the middle; the first
/// free one wins. When none is free it takes the one that overlaps least, so a crowded drawing
/// still gets every label. Labels are placed in the order given, so the result is deterministic.
/// Obstacles sit in a grid of square cells, so a placement looks only at its neighbours.
struct LabelPlacer {
    /// An axis-aligned rectangle in the SVG's coordinates.
    struct Rect: Sendable, Equatable {
        var x: Double
        var y: Double
        var width: Double
        var height: Double

        var right: Double { x + width }
        var bottom: Double { y + height }
        var centreX: Double { x + width / 2 }
        var centreY: Double { y + height / 2 }

        /// The rectangle of `width` × `height` centred on (`x`, `y`).
        static func centred(_ x: Double, _ y: Double, width: Double, height: Double) -> Rect {
            Rect(x: x - width / 2, y: y - height / 2, width: width, height: height)
        }

        /// The area the two rectangles share (0 when they only touch).
        func overlap(_ other: Rect) -> Double {
            let w = min(right, other.right) - max(x, other.x)
            let h = min(bottom, other.bottom) - max(y, other.y)
            return w > 0 && h > 0 ? w * h : 0
        }

        /// The smallest rectangle holding both.
        func union(_ other: Rect) -> Rect {
            let left = min(x, other.x), top = min(y, other.y)
            return Rect(x: left, y: top, width: max(right, other.right) - left, height: max(bottom, other.bottom) - top)
        }
    }

    /// A label's height: the 10.5 px font's ascent and descent, and the halo round it.
    static let labelHeight = 14.0
    /// The distance from a label's centre to its baseline.
    static let baselineOffset = 4.0
    /// How far a label sits from its line: above, or below.
    static let lineGap = 8.0
    static let cellSize = 64.0

    private struct Cell: Hashable {
        var column: Int
        var row: Int
    }

    private var obstacles: [Rect] = []
    private var grid: [Cell: [Int]] = [:]

    /// The width of `text` in the label font, rounded up: 6.3 px a character, twice that for wide
    /// (East Asian, emoji) characters, and the halo.
    static func labelWidth(_ text: String) -> Double {
        let units = text.unicodeScalars.reduce(0.0) { total, scalar in total + (scalar.value >= 0x1100 && scalar.value != 0x27F2 ? 2 : 1) }
        return units * 6.3 + 6
    }

    private func cells(_ rect: Rect) -> [Cell] {
        let left = Int((rect.x / Self.cellSize).rounded(.down)), right = Int((rect.right / Self.cellSize).rounded(.down))
        let top = Int((rect.y / Self.cellSize).rounded(.down)), bottom = Int((rect.bottom / Self.cellSize).rounded(.down))
        var found: [Cell] = []
        for column in left...max(left, right) {
            for row in top...max(top, bottom) { found.append(Cell(column: column, row: row)) }
        }
        return found
    }

    /// Marks `rect` taken: no label placed later overlaps it if it can help it.
    mutating func block(_ rect: Rect) {
        obstacles.append(rect)
        for cell in cells(rect) { grid[cell, default: []].append(obstacles.count - 1) }
    }

    /// The area of `rect` that obstacles cover (each obstacle counted once).
    func covered(_ rect: Rect) -> Double {
        var seen = Set<Int>()
        var total = 0.0
        for cell in cells(rect) {
            for index in grid[cell] ?? [] where seen.insert(index).inserted { total += rect.overlap(obstacles[index]) }
        }
        return total
    }

    /// Places a label of `width` at the first free centre of `candidates` (or the least covered),
    /// blocks it, and returns it. `candidates` must not be empty.
    mutating func place(width: Double, candidates: [(x: Double, y: Double)]) -> Rect {
        var best: (rect: Rect, covered: Double)?
        for centre in candidates {
            let rect = Rect.centred(centre.x, centre.y, width: width, height: Self.labelHeight)
            let area = covered(rect)
            if area == 0 {
                best = (rect, 0)
                break
            }
            if area < (best?.covered ?? .infinity) { best = (rect, area) }
        }
        let chosen = best?.rect ?? Rect.centred(0, 0, width: width, height: Self.labelHeight)
        block(chosen)
        return chosen
    }
}

/// An edge's cubic Bézier curve, from its four control points.
struct EdgeCurve: Sendable {
    var points: [(x: Double, y: Double)]

    /// The point at `t` in 0...1.
    func at(_ t: Double) -> (x: Double, y: Double) {
        let u = 1 - t
        let a = u * u * u, b = 3 * u * u * t, c = 3 * u * t * t, d = t * t * t
        return (a * points[0].x + b * points[1].x + c * points[2].x + d * points[3].x,
                a * points[0].y + b * points[1].y + c * points[2].y + d * points[3].y)
    }

    /// A rectangle holding the whole curve: the hull of its control points.
    var hull: LabelPlacer.Rect {
        let xs = points.map(\.x), ys = points.map(\.y)
        let left = xs.min() ?? 0, top = ys.min() ?? 0
        return LabelPlacer.Rect(x: left, y: top, width: (xs.max() ?? 0) - left, height: (ys.max() ?? 0) - top)
    }

    /// A rectangle round the curve itself, from points a twentieth apart and a pixel of stroke:
    /// tighter than ``hull`` where the curve bows (a loop's top), for labels to sit close to it.
    var bounds: LabelPlacer.Rect {
        let samples = (0...20).map { at(Double($0) / 20) }
        let xs = samples.map(\.x), ys = samples.map(\.y)
        let left = (xs.min() ?? 0) - 1, top = (ys.min() ?? 0) - 1
        return LabelPlacer.Rect(x: left, y: top, width: (xs.max() ?? 0) + 1 - left, height: (ys.max() ?? 0) + 1 - top)
    }

    /// Where along the curve a label tries to sit, best first: the middle, then further out.
    static let stations = [0.5, 0.4, 0.6, 0.3, 0.7, 0.45, 0.55, 0.35, 0.65, 0.25, 0.75, 0.2, 0.8]

    /// The centres a label of this curve tries, best first: along the curve above the line, then
    /// below it, then stacked above and below the middle.
    func labelCandidates() -> [(x: Double, y: Double)] {
        let above = Self.stations.map { t -> (x: Double, y: Double) in
            let p = at(t)
            return (p.x, p.y - LabelPlacer.lineGap)
        }
        let below = Self.stations.map { t -> (x: Double, y: Double) in
            let p = at(t)
            return (p.x, p.y + LabelPlacer.lineGap)
        }
        let middle = at(0.5)
        let stacked = (1...12).flatMap { k -> [(x: Double, y: Double)] in
            let step = Double(k) * LabelPlacer.labelHeight
            return [(middle.x, middle.y - LabelPlacer.lineGap - step), (middle.x, middle.y + LabelPlacer.lineGap + step)]
        }
        return above + below + stacked
    }
}
