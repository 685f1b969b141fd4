import Baton

/// The fragments of every file of a world, by name, and the text each one's definition spans in
/// its file: an operation that spreads a fragment another file defines is handed to the store
/// with that definition appended, as an app's generated code sends it.
struct SharedFragments {
    /// Every fragment of the world, by name.
    private(set) var fragments: [String: Document.Fragment] = [:]
    /// The file each fragment is defined in (its source), for error messages.
    private(set) var sources: [String: String] = [:]
    /// The index of the file each fragment is defined in.
    private var files: [String: Int] = [:]
    /// The text of each fragment's definition: from its `fragment` keyword to the next
    /// definition of its file (or the end of the file).
    private var definitions: [String: Substring] = [:]

    /// - Throws: ``WorldError`` at a fragment defined twice, in one file or in two.
    init(_ documents: [(source: String, text: String, document: Document)]) throws {
        for (file, (source, text, document)) in documents.enumerated() {
            let starts = (document.operations.map(\.location) + document.fragments.map(\.location)).sorted()
            let offsets = TextOffsets(text)
            for fragment in document.fragments {
                if let earlier = sources[fragment.name] {
                    let place = earlier == source ? "" : " (first in \(earlier):\(fragments[fragment.name]!.location))"
                    throw WorldError("fragment \"\(fragment.name)\" is defined twice\(place)", source: source, at: fragment.location)
                }
                fragments[fragment.name] = fragment
                sources[fragment.name] = source
                files[fragment.name] = file
                let end = starts.first { $0 > fragment.location }.map(offsets.index) ?? text.endIndex
                definitions[fragment.name] = text[offsets.index(of: fragment.location)..<end]
            }
        }
    }

    /// The document the store gets for `operation` of file `file`, whose text is `text`: the text
    /// itself, then the definitions of the fragments it spreads (at any depth) that other files
    /// define, in the order of their files and places.
    func documentText(of operation: Document.Operation, file: Int, text: String) -> String {
        var used: Set<String> = []
        var stack = [operation.selections]
        while let selections = stack.popLast() {
            for selection in selections {
                switch selection {
                case .field(let field):
                    if let inner = field.selections { stack.append(inner) }
                case .inlineFragment(let inline):
                    stack.append(inline.selections)
                case .fragmentSpread(let spread):
                    if used.insert(spread.name).inserted, let fragment = fragments[spread.name] { stack.append(fragment.selections) }
                }
            }
        }
        let foreign = used.filter { files[$0] != nil && files[$0] != file }.sorted { a, b in
            (files[a]!, fragments[a]!.location) < (files[b]!, fragments[b]!.location)
        }
        guard !foreign.isEmpty else { return text }
        return ([text] + foreign.map { String(definitions[$0]!) }).joined(separator: "\n")
    }
}

/// Where each line of a text starts, to turn the parser's line and column (counted in Unicode
/// scalars, lines ending at LF, CRLF or CR) into an index of the text.
private struct TextOffsets {
    let text: String
    /// The index of the first scalar of each line, line 1 first.
    private var lineStarts: [String.Index]

    init(_ text: String) {
        self.text = text
        var starts = [text.unicodeScalars.startIndex]
        let scalars = text.unicodeScalars
        var index = scalars.startIndex
        while index < scalars.endIndex {
            let scalar = scalars[index]
            var next = scalars.index(after: index)
            if scalar == "\r", next < scalars.endIndex, scalars[next] == "\n" { next = scalars.index(after: next) }
            if scalar == "\n" || scalar == "\r" { starts.append(next) }
            index = next
        }
        lineStarts = starts
    }

    func index(of location: GraphQLLocation) -> String.Index {
        guard location.line >= 1, location.line <= lineStarts.count else { return text.endIndex }
        let scalars = text.unicodeScalars
        return scalars.index(lineStarts[location.line - 1], offsetBy: location.column - 1, limitedBy: scalars.endIndex) ?? text.endIndex
    }
}
