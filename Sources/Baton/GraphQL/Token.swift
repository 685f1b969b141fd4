/// One lexical token of GraphQL source: its kind, its bytes and where it starts.
package struct Token {
    package enum Kind: UInt8 {
        case endOfFile
        case bang, dollar, ampersand, parenLeft, parenRight, spread, colon, equals, at
        case bracketLeft, bracketRight, braceLeft, pipe, braceRight
        case name, int, float, string, blockString
    }

    package var kind: Kind
    /// The token's byte range in the source (quotes included for strings).
    package var start: Int
    package var end: Int
    package var location: GraphQLLocation
    /// The decoded value of a string or block string; empty for other kinds.
    var string: String = ""
}

extension Token.Kind {
    /// How errors name the kind: `Name`, `Int`, or the punctuator in quotes.
    var spelling: String {
        switch self {
        case .endOfFile: "<EOF>"
        case .bang: "\"!\""
        case .dollar: "\"$\""
        case .ampersand: "\"&\""
        case .parenLeft: "\"(\""
        case .parenRight: "\")\""
        case .spread: "\"...\""
        case .colon: "\":\""
        case .equals: "\"=\""
        case .at: "\"@\""
        case .bracketLeft: "\"[\""
        case .bracketRight: "\"]\""
        case .braceLeft: "\"{\""
        case .pipe: "\"|\""
        case .braceRight: "\"}\""
        case .name: "Name"
        case .int: "Int"
        case .float: "Float"
        case .string: "String"
        case .blockString: "BlockString"
        }
    }

    /// True for kinds whose text is worth quoting in an error.
    var hasText: Bool {
        switch self {
        case .name, .int, .float, .string, .blockString: true
        default: false
        }
    }
}
