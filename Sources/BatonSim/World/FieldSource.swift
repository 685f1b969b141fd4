import Baton

/// The file a field of an operation's selections was written in: the operation's own, or the one
/// that defines the fragment it sits in, found by the field's name and place (used only to name
/// the file in an error).
struct FieldSource {
    /// The operation's own selections (none when a fragment is checked alone).
    let operationSelections: [Document.SelectionNode]
    let fragments: [String: Document.Fragment]
    /// The file each fragment from another file is defined in.
    let fragmentSources: [String: String]
    let source: String

    /// The operation's file when its own selections (outside fragment spreads) hold the field;
    /// else the file of the first fragment, by name, that holds it.
    func of(_ field: Document.FieldNode) -> String {
        if Self.holds(operationSelections, field) { return source }
        for name in fragments.keys.sorted() where Self.holds(fragments[name]!.selections, field) {
            return fragmentSources[name] ?? source
        }
        return source
    }

    private static func holds(_ selections: [Document.SelectionNode], _ field: Document.FieldNode) -> Bool {
        var stack = [selections]
        while let next = stack.popLast() {
            for selection in next {
                switch selection {
                case .field(let node):
                    if node.location == field.location && node.name == field.name && node.responseKey == field.responseKey { return true }
                    if let inner = node.selections { stack.append(inner) }
                case .inlineFragment(let inline):
                    stack.append(inline.selections)
                case .fragmentSpread:
                    break
                }
            }
        }
        return false
    }
}
