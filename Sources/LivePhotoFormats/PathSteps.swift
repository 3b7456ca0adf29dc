/// One step of a box path: a box type and its index among same-type siblings.
struct PathStep: Sendable {
    let type: FourCC
    /// 1-based; 0 only in `none`.
    let index: Int

    static var none: PathStep { PathStep(type: FourCC(0), index: 0) }
    var isNone: Bool { index == 0 }

    /// The step in 64 bits (type above, index below; 0 for `none`), as `PathSteps` holds it.
    var packed: UInt64 { isNone ? 0 : UInt64(type.value) << 32 | UInt64(UInt32(truncatingIfNeeded: index)) }

    init(type: FourCC, index: Int) {
        self.type = type
        self.index = index
    }

    init(packed: UInt64) {
        self.init(type: FourCC(UInt32(truncatingIfNeeded: packed >> 32)), index: Int(UInt32(truncatingIfNeeded: packed)))
    }

    var rendered: String {
        var text = ""
        render(below: &text)
        return text
    }

    /// Appends `/type[index]` to `path` (no slash when the path is empty, no index when it is 1).
    /// Paths are put together by appending (a track's path is rendered for every track), not
    /// by interpolating and joining the parts.
    func render(below path: inout String) {
        if !path.isEmpty { path += "/" }
        path += type.description
        if index > 1 {
            path += "["
            path += String(index)
            path += "]"
        }
    }
}

/// Up to two path steps held in place, filled from the first; an unused one is 0. Plain
/// integers, so a reader holding them is copied as plain data plus its two references. Two,
/// because the reader then keeps the size it had with one step: with three or four the
/// compiler copied and destroyed readers through the type's value witnesses, which cost more
/// than the nodes saved.
struct PathSteps: Sendable {
    private var first: UInt64 = 0, second: UInt64 = 0

    static var none: PathSteps { PathSteps() }
    var isFull: Bool { second != 0 }

    /// These steps and `step` after them; the caller checks `isFull` first.
    func appending(_ step: PathStep) -> PathSteps {
        var steps = self
        let packed = step.packed
        if first == 0 { steps.first = packed } else {
            precondition(second == 0, "a third path step")
            steps.second = packed
        }
        return steps
    }

    /// Appends each step as `PathStep.render(below:)` does.
    func render(below path: inout String) {
        guard first != 0 else { return }
        PathStep(packed: first).render(below: &path)
        guard second != 0 else { return }
        PathStep(packed: second).render(below: &path)
    }
}

/// The path children of a container are named below: a node and the steps under it that still
/// leave room for the child's own.
struct PathPrefix {
    let node: PathNode
    let steps: PathSteps
}

/// A chain of box path steps below a parent, or a fixed text. Rendered to
/// `moov/trak[2]/mdia` only when an error or a model needs it.
final class PathNode: @unchecked Sendable {
    /// Nothing above: renders as "".
    static let root = PathNode(text: "")

    /// `nil` only for a fixed text.
    let parent: PathNode?
    let steps: PathSteps
    let text: String?

    init(parent: PathNode, steps: PathSteps) {
        self.parent = parent
        self.steps = steps
        self.text = nil
    }

    init(text: String) {
        self.parent = nil
        self.steps = .none
        self.text = text
    }

    var rendered: String {
        var path = ""
        render(into: &path)
        return path
    }

    /// Appends this node's path to `path`, which holds nothing yet or the text above it.
    private func render(into path: inout String) {
        if let text {
            path += text
            return
        }
        parent?.render(into: &path)
        steps.render(below: &path)
    }
}
