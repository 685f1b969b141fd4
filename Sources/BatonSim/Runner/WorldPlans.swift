import Baton

/// The store's plans of a world's operations: what the code under test builds from the world's
/// documents (the reference model reads the same documents itself, as syntax).
package struct WorldPlans: Sendable {
    private let plans: [String: Plan]

    /// Builds every operation's plan with the store's own plan builder.
    ///
    /// - Throws: ``WorldError`` naming the operation's file when the store cannot build a plan the
    ///   world's own validation accepted (a difference between the store and the world to report).
    package init(world: World, mutant: Mutant? = nil) throws {
        var plans: [String: Plan] = [:]
        for operation in world.operations {
            do {
                plans[operation.name] = try Plan.build(
                    document: operation.documentText, schema: world.schema, operationName: operation.name, mutant: mutant)
            } catch let error as GraphQLError {
                throw WorldError(error, source: operation.source)
            } catch {
                throw WorldError(source: operation.source, line: 1, column: 1, message: "the store cannot build a plan for \(operation.name): \(error)")
            }
        }
        self.plans = plans
    }

    /// The plan of the operation `name`, or nil for a name the world does not have.
    package func plan(_ name: String) -> Plan? {
        plans[name]
    }
}
