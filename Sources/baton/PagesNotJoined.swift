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
        let (side, cursor, which) = switch page.mode {
        case .replace: ("", "", "")
        case .append(let after): ("after", after, "end")
        case .prepend(let before): ("before", before, "start")
        }
        return "the page \(side) \(prettyJSON(.string(cursor))) joined no connection: \(page.connectionRecord) does not hold that \(which) cursor in memory, "
            + "so its records were written and the connection was left as it was"
    }
}
