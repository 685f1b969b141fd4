import Baton

/// The line the CLI prints for each connection page a commit could not join, so a page dropped
/// from its connection is never silent.
enum PagesNotJoined {
    /// One line per page: which connection, at which cursor, and why it did not join.
    static func report(_ pages: [ConnectionPage]) {
        for page in pages {
            printError("baton: note: " + line(page))
        }
    }

    /// `the page after "c2" joined no connection: client:R:__C_connection does not hold that end
    /// cursor in memory, so its records were written and the connection was left as it was`.
    static func line(_ page: ConnectionPage) -> String {
        let place = switch page.mode {
        case .replace: "the refreshing page" // a refresh always joins; named in case one is ever answered
        case .append(let after): "the page after \(prettyJSON(.string(after)))"
        case .prepend(let before): "the page before \(prettyJSON(.string(before)))"
        }
        let cursor = if case .prepend = page.mode { "start" } else { "end" }
        return "\(place) joined no connection: \(page.connectionRecord) does not hold that \(cursor) cursor in memory, "
            + "so its records were written and the connection was left as it was"
    }
}
