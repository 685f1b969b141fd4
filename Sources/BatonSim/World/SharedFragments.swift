import Baton

/// The fragments of every file of a world, and the text each one's definition spans in its
/// file: an operation may spread a fragment another file defines, as an app's code generator
/// reads its folder, and is handed to the store with that definition appended, as the app's
/// generated code sends it.
///
/// A spread resolves to the operation's own file's fragment of that name first; else to the one
/// definition of it in the other files. Files that each carry their own copy of a fragment (the
/// decision record's documents do) may define it again, word for word; two different
/// definitions another file's operation would have to choose between are refused where it
/// spreads the name.
struct SharedFragments {
    /// One definition of a fragment.
    private struct Definition {
        let fragment: Document.Fragment
        let file: Int
        let source: String
        /// From its `fragment` keyword to the next definition of its file (or the file's end).
        let text: Substring
        /// The text without comments, whitespace runs collapsed: how definitions compare.
        let canonical: String
    }

    /// Every definition of each fragment name, in file order.
    private var definitions: [String: [Definition]] = [:]
    /// The fragments each file defines, by name.
    private var local: [Int: [String: Definition]] = [:]

    /// - Throws: ``WorldError`` at a fragment defined twice in one file.
    init(_ documents: [(source: String, text: String, document: Document)]) throws {
        for (file, (source, text, document)) in documents.enumerated() {
            let starts = (document.operations.map(\.location) + document.fragments.map(\.location)).sorted()
            let offsets = TextOffsets(text)
            for fragment in document.fragments {
                if local[file]?[fragment.name] != nil {
                    throw WorldError("fragment \"\(fragment.name)\" is defined twice", source: source, at: fragment.location)
                }
                let end = starts.first { $0 > fragment.location }.map(offsets.index) ?? text.endIndex
                let slice = text[offsets.index(of: fragment.location)..<end]
                let definition = Definition(fragment: fragment, file: file, source: source, text: slice, canonical: Self.canonical(slice))
                local[file, default: [:]][fragment.name] = definition
                definitions[fragment.name, default: []].append(definition)
            }
        }
    }

    /// What `operation` of file `file` (named `source`, whose text is `text`) spreads: its
    /// fragments by name (at any depth), the files of those defined elsewhere, and the document
    /// the store gets: the text itself, then those other files' definitions, in the order of
    /// their files and places. A name nothing defines is left for the validator to report.
    ///
    /// - Throws: ``WorldError`` at a spread of a name other files define differently.
    func resolve(_ operation: Document.Operation, file: Int, source: String, text: String) throws
        -> (fragments: [String: Document.Fragment], sources: [String: String], documentText: String, spread: Set<String>)
    {
        let chosen = try self.chosen(from: operation.selections, file: file, source: source)
        let split = Self.split(chosen, file: file)
        var fragments = split.fragments
        let sources = split.sources
        // The file's own fragments stay known to it even when this operation spreads none.
        for (name, definition) in local[file] ?? [:] where fragments[name] == nil { fragments[name] = definition.fragment }
        let foreign = chosen.values.filter { $0.file != file }.sorted { a, b in (a.file, a.fragment.location) < (b.file, b.fragment.location) }
        let documentText = foreign.isEmpty ? text : ([text] + foreign.map { String($0.text) }).joined(separator: "\n")
        return (fragments, sources, documentText, Set(chosen.keys))
    }

    /// The names of the fragments file `file` defines, sorted.
    func fragmentNames(inFile file: Int) -> [String] {
        (local[file] ?? [:]).keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    /// The fragment `name` of file `file` and what it spreads at any depth, as
    /// ``resolve(_:file:source:text:)`` gives an operation's, with the files of those defined
    /// elsewhere: to check a fragment no operation spreads.
    func resolveFragment(_ name: String, file: Int, source: String) throws -> (fragments: [String: Document.Fragment], sources: [String: String]) {
        guard let own = local[file]?[name] else { return ([:], [:]) }
        var chosen = try self.chosen(from: own.fragment.selections, file: file, source: source)
        chosen[name] = own
        return Self.split(chosen, file: file)
    }

    /// The chosen definitions' fragments by name, and the files of those another file than
    /// `file` defines.
    private static func split(_ chosen: [String: Definition], file: Int) -> (fragments: [String: Document.Fragment], sources: [String: String]) {
        var fragments: [String: Document.Fragment] = [:]
        var sources: [String: String] = [:]
        for (name, definition) in chosen {
            fragments[name] = definition.fragment
            if definition.file != file { sources[name] = definition.source }
        }
        return (fragments, sources)
    }

    /// The definition each fragment spread at any depth of `selections` (in file `file`, named
    /// `source`) resolves to, by name.
    private func chosen(from selections: [Document.SelectionNode], file: Int, source: String) throws -> [String: Definition] {
        var chosen: [String: Definition] = [:]
        var stack: [(selections: [Document.SelectionNode], source: String)] = [(selections, source)]
        while let (selections, spreadingSource) = stack.popLast() {
            for selection in selections {
                switch selection {
                case .field(let field):
                    if let inner = field.selections { stack.append((inner, spreadingSource)) }
                case .inlineFragment(let inline):
                    stack.append((inline.selections, spreadingSource))
                case .fragmentSpread(let spread):
                    guard chosen[spread.name] == nil, let definition = try choose(spread, file: file, in: spreadingSource) else { continue }
                    chosen[spread.name] = definition
                    stack.append((definition.fragment.selections, definition.source))
                }
            }
        }
        return chosen
    }

    /// The definition a spread in file `file` resolves to; `nil` when nothing defines the name.
    private func choose(_ spread: Document.FragmentSpread, file: Int, in spreadingSource: String) throws -> Definition? {
        if let own = local[file]?[spread.name] { return own }
        guard let all = definitions[spread.name], let first = all.first else { return nil }
        if let other = all.first(where: { $0.canonical != first.canonical }) {
            throw WorldError(
                "fragment \"\(spread.name)\" is defined differently in \(first.source):\(first.fragment.location) and \(other.source):\(other.fragment.location); define it once, or the same way in each file",
                source: spreadingSource, at: spread.location)
        }
        return first
    }

    /// `text` without `#` comments, its whitespace and commas collapsed to single spaces.
    private static func canonical(_ text: Substring) -> String {
        var out = ""
        var pendingSpace = false
        var inComment = false
        for scalar in text.unicodeScalars {
            if inComment {
                if scalar == "\n" || scalar == "\r" { inComment = false; pendingSpace = true }
                continue
            }
            switch scalar {
            case "#": inComment = true
            case " ", "\t", "\n", "\r", ",": pendingSpace = true
            default:
                if pendingSpace && !out.isEmpty { out.unicodeScalars.append(" ") }
                pendingSpace = false
                out.unicodeScalars.append(scalar)
            }
        }
        return out
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
