import Baton

/// The lines the CLI prints for a response's errors that no cell can keep: those whose path names
/// no field of the data (a request error, an error under a `null` parent, a response without
/// `data`). The store keeps only errors beside the fields they name, so these are said once here.
enum UnplacedErrors {
    /// One line per error, the first five, then how many more.
    static func report(_ errors: [FieldError]) {
        for error in errors.prefix(5) {
            printError("baton: note: " + line(error))
        }
        if errors.count > 5 {
            printError("baton: note: and \(errors.count - 5) more errors that name no field of the data")
        }
    }

    /// `the response's error "boom" (at a.b) names no field of the data, so no cell keeps it`.
    static func line(_ error: FieldError) -> String {
        let place = error.path.isEmpty ? "" : " (at \(error.path))"
        return "the response's error \(prettyJSON(.string(error.message)))\(place) names no field of the data, so no cell keeps it"
    }
}
