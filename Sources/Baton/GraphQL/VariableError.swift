/// Why the variables given for an operation do not fit its declarations, naming the variable.
///
/// Its description reads `$id: expected ID!, got nothing`, or with the place inside the value
/// `$filter.tags.2: expected String!, got null`.
public struct VariableError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The variable's name, without the `$`.
    public let variable: String
    /// Where inside the variable's value: input object fields and list indices, outermost first.
    public let path: [ResponsePathComponent]
    /// What is wrong, without the variable's name.
    public let message: String

    public init(variable: String, path: [ResponsePathComponent] = [], message: String) {
        self.variable = variable
        self.path = path
        self.message = message
    }

    /// `$name` followed by the path inside the value: `$filter.tags.2`.
    public var place: String {
        (["$" + variable] + path.map(\.description)).joined(separator: ".")
    }

    public var description: String { "\(place): \(message)" }
}

/// A value that does not fit its input type: what is wrong, and where inside the value.
struct InputProblem: Error {
    /// Input object fields and list indices, outermost first.
    var path: [ResponsePathComponent] = []
    let message: String
    /// Where in a document the value (or the innermost object field holding it) is written.
    var location: GraphQLLocation?

    init(_ message: String, at location: GraphQLLocation? = nil) {
        self.message = message
        self.location = location
    }

    /// The problem with `component` put in front of its path.
    func inside(_ component: ResponsePathComponent) -> InputProblem {
        var copy = self
        copy.path.insert(component, at: 0)
        return copy
    }
}
