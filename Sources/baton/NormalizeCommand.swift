import Baton

/// `baton normalize` and `baton read`: a response committed into an empty store, printed as its
/// records (normalize) or read back through the operation (read).
@MainActor
enum NormalizeCommand {
    static func run(_ words: [String], readBack: Bool) throws -> Int32 {
        var arguments = try Arguments(words, flagNames: [])
        let input = try OperationInput(&arguments)
        let responsePath = try arguments.required("response")
        try arguments.finish()
        let changeSet = try input.changeSet(responsePath: responsePath)
        let store = Store(configuration: .init(collectsAutomatically: false))
        PagesNotJoined.report(store.commit(changeSet))
        UnplacedErrors.report(changeSet.unplacedErrors)
        if readBack {
            let result = store.read(input.plan, variables: input.variables)
            print(prettyJSON(result.response))
            MissingFields.report(result)
            return result.isComplete ? 0 : 2
        }
        print(store.recordSource(), terminator: "")
        return 0
    }
}
